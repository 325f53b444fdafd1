/**
 * /listing-requests (new listings and, for staff, edits waiting for review) and /other-requests
 * (the host's edit requests for approved listings). Staff approve, or reject with a reason; the
 * host sees each request's status and reason. Live counter events refresh the list.
 */
import { CheckCircle2, Eye, XCircle } from "lucide-react";
import { useState } from "react";
import { formatDate } from "../../shared/format";
import { useListState } from "../../shared/hooks/useListState";
import { Badge } from "../../shared/ui/Badge";
import { ConfirmDialog } from "../../shared/ui/ConfirmDialog";
import { DataTable, type Column, type RowAction } from "../../shared/ui/Table";
import { REQUEST_TABS, type ListingRequest, useRequests, useReview } from "./api";
import { ListFilters } from "./ListFilters";
import { ReasonDialog } from "./ReasonDialog";
import { useSearchBox } from "./useSearchBox";


export function requestHref(request: ListingRequest): string {
  return `/listing-detail/${request.listingId}?request=${request._id}`;
}

export function requestColumns(staff: boolean): Column<ListingRequest>[] {
  const columns: Column<ListingRequest>[] = [
    {
      key: "title",
      header: "Listing",
      render: (request) => (
        <a href={requestHref(request)} title={request.listing.title}>
          {request.listing.title.length > 40 ? `${request.listing.title.slice(0, 40)}…` : request.listing.title}
        </a>
      ),
    },
    { key: "kind", header: "Request", render: (request) => (request.kind === "new" ? "New listing" : "Edit") },
    { key: "status", header: "Status", render: (request) => <Badge status={request.status} /> },
    { key: "reason", header: "Reason", render: (request) => request.reason || "—" },
    { key: "created", header: "Sent", render: (request) => formatDate(request.createdAt) },
  ];
  if (staff) {
    columns.splice(1, 0, {
      key: "host",
      header: "Host",
      render: (request) => request.listing.host.displayName,
    });
  }
  return columns;
}

/** Approve and reject show where the server says the user may review. */
function mayReview(request: ListingRequest, action: "approve" | "reject"): boolean {
  return request.can[action];
}

export function RequestsPage({ staff, view }: { staff: boolean; view: "requests" | "otherRequests" }) {
  const type = view === "otherRequests" ? "edit" : staff ? "" : "new";
  const [list, setList] = useListState(
    { tab: "pending", title: "", period: "", page: 1 },
    { tabPrefix: view, allowedTabs: REQUEST_TABS.map((tab) => tab.value) },
  );
  const [search, setSearch] = useSearchBox(list.title, (title) => setList({ title }, "replace"));
  const requests = useRequests(list, type);
  const review = useReview();
  const [pending, setPending] = useState<{ request: ListingRequest; status: "approved" | "rejected" } | null>(null);
  const close = () => setPending(null);

  const actions: RowAction<ListingRequest>[] = [
    { label: "View", icon: Eye, href: requestHref, ariaLabel: (request) => `View ${request.listing.title}` },
    {
      label: "Approve",
      icon: CheckCircle2,
      when: (request) => mayReview(request, "approve"),
      onClick: (request) => setPending({ request, status: "approved" }),
      ariaLabel: (request) => `Approve ${request.listing.title}`,
    },
    {
      label: "Reject",
      icon: XCircle,
      tone: "danger",
      when: (request) => mayReview(request, "reject"),
      onClick: (request) => setPending({ request, status: "rejected" }),
      ariaLabel: (request) => `Reject ${request.listing.title}`,
    },
  ];

  return (
    <>
      <div className="dash-title">
        <h1>{view === "otherRequests" ? "Other Requests" : "Listing Requests"}</h1>
      </div>
      <DataTable<ListingRequest>
        columns={requestColumns(staff)}
        rows={requests.data?.rows ?? []}
        rowKey={(request) => request._id}
        rowLabel={(request) => request.listing.title}
        loading={requests.isPending}
        tabs={REQUEST_TABS}
        tab={list.tab}
        onTab={(tab) => setList({ tab })}
        toolbar={<ListFilters search={search} onSearch={setSearch} period={list.period} onPeriod={(period) => setList({ period })} />}
        actions={actions}
        page={list.page}
        totalPages={requests.data?.totalPages ?? 1}
        onPage={(page) => setList({ page })}
      />
      {pending?.status === "approved" && (
        <ConfirmDialog
          title="Approve request"
          message={`Approve ${pending.request.kind === "new" ? "the new listing" : "the changes to"} ${pending.request.listing.title}?`}
          confirmLabel="Approve"
          busy={review.isPending}
          onConfirm={() => review.mutate({ requestId: pending.request._id, status: "approved" }, { onSettled: close })}
          onCancel={close}
        />
      )}
      {pending?.status === "rejected" && (
        <ReasonDialog
          title={`Reject ${pending.request.listing.title}`}
          busy={review.isPending}
          onSubmit={(reason) => review.mutate({ requestId: pending.request._id, status: "rejected", reason }, { onSettled: close })}
          onClose={close}
        />
      )}
    </>
  );
}
