/** A dashboard list read by period (spec 2.5 "Select By" daily, weekly, monthly), ten rows a page, state in the URL. */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { apiKey } from "../../shared/api/query";
import { SelectInput } from "../../shared/forms/fields";
import { useListState } from "../../shared/hooks/useListState";
import { type Column, DataTable } from "../../shared/ui/Table";
import { toast } from "../../shared/ui/toast";

export const PERIODS = [
  { value: "daily", label: "Daily" },
  { value: "weekly", label: "Weekly" },
  { value: "monthly", label: "Monthly" },
];

/** What a list page's call gives back: its rows and how many pages there are. */
export interface ListPage<Row> {
  rows: Row[];
  totalPages: number;
}

export const LIST_FAILED = "Something went wrong";

export function PeriodListPage<Row extends { _id: string }>({
  title,
  path,
  load,
  columns,
  children,
}: {
  title: string;
  /** The API path, the first part of the query key (live events and writes invalidate by path). */
  path: string;
  load: (list: { period: string; page: number }, signal: AbortSignal) => Promise<ListPage<Row>>;
  columns: Column<Row>[];
  children?: ReactNode;
}) {
  const [list, setList] = useListState({ period: "monthly", page: 1 });
  const query = useQuery({
    queryKey: apiKey(path, list),
    queryFn: ({ signal }) =>
      load(list, signal).catch((error: unknown) => {
        if ((error as Error)?.name !== "AbortError") toast.error(LIST_FAILED);
        throw error;
      }),
    placeholderData: keepPreviousData,
  });

  return (
    <>
      <div className="dash-title">
        <h1>{title}</h1>
        <SelectInput label="Select By" inline value={list.period} options={PERIODS} onChange={(period) => setList({ period })} />
      </div>
      <DataTable<Row>
        columns={columns}
        rows={query.data?.rows ?? []}
        rowKey={(row) => row._id}
        loading={query.isPending || (query.isFetching && query.isPlaceholderData)}
        page={list.page}
        totalPages={query.data?.totalPages ?? 1}
        onPage={(page) => setList({ page })}
      />
      {children}
    </>
  );
}
