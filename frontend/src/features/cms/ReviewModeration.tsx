/** The moderation list of reviews on /review-setting: held and published reviews, publish or hide from `can`. */
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { api, call, type Schemas } from "../../shared/api/client";
import { apiKey, invalidate } from "../../shared/api/query";
import { formatDate, truncate } from "../../shared/format";
import { Badge } from "../../shared/ui/Badge";
import { DataTable } from "../../shared/ui/Table";
import { toast } from "../../shared/ui/toast";
import { displayName } from "../account/people";
import { useListState } from "../../shared/hooks/useListState";

const PATH = "/api/reviews/get-all";
const TABS = [
  { value: "pending", label: "Held" },
  { value: "published", label: "Published" },
  { value: "all", label: "All" },
];

type ReviewRow = Schemas["ModeratedReview"];

export function ReviewModeration() {
  const [state, update] = useListState({ tab: "pending", search: "", page: 1 }, { tabPrefix: "reviews" });
  const [busy, setBusy] = useState("");
  const params = { page: state.page, limit: 10, "filters[status]": state.tab };
  const { data, isPending } = useQuery({
    queryKey: apiKey(PATH, params),
    queryFn: async () => (await call(api.GET(PATH, { params: { query: params } }))).data,
  });
  const rows = data?.reviews ?? [];
  const publish = async (row: ReviewRow, isPublished: boolean) => {
    setBusy(row._id);
    try {
      const answer = await call(api.PATCH("/api/reviews/update-status/{review_id}", { params: { path: { review_id: row._id } }, body: { isPublished } }));
      toast.success(answer.message);
      await invalidate([PATH]);
    } catch {
      /* shown */
    } finally {
      setBusy("");
    }
  };
  return (
    <DataTable<ReviewRow>
      caption="Reviews"
      tabs={TABS}
      tab={state.tab}
      onTab={(tab) => update({ tab })}
      rows={rows}
      loading={isPending}
      rowKey={(row) => row._id}
      columns={[
        { key: "listing", header: "Listing", render: (row) => <span title={row.listing.title}>{truncate(row.listing.title, 20)}</span> },
        { key: "renter", header: "Renter", render: (row) => truncate(displayName(row.renter), 20) },
        { key: "rating", header: "Rating", render: (row) => (row.rating ? `${row.rating} / 5` : "—") },
        { key: "review", header: "Review", render: (row) => <span title={row.review}>{truncate(row.review, 80)}</span> },
        { key: "date", header: "Date", render: (row) => formatDate(row.createdAt) },
        { key: "status", header: "Status", render: (row) => <Badge status={row.isPublished ? "approved" : "pending"} /> },
      ]}
      actions={[
        { label: "Publish", can: "publish", onClick: (row) => void publish(row, true), when: (row) => busy !== row._id },
        { label: "Hide", can: "hide", onClick: (row) => void publish(row, false), when: (row) => busy !== row._id },
      ]}
      page={state.page}
      totalPages={data?.totalPages ?? 1}
      onPage={(page) => update({ page })}
    />
  );
}
