/** A dashboard list read by period (spec 2.5 "Select By" daily, weekly, monthly), ten rows a page. */
import { type ReactNode, useEffect, useState } from "react";
import { filters, http } from "../../shared/api/http";
import { PERIODS } from "./invoices";
import { type Column, DataTable } from "../../shared/ui/Table";
import { toast } from "../../shared/ui/toast";

type PageAnswer = Record<string, unknown> & { totalCount: number; totalPages?: number };

export function PeriodListPage<Row extends { _id: string }>({
  title,
  role,
  path,
  itemsKey,
  columns,
  children,
}: {
  title: string;
  role: string;
  /** The list call, answering `{[itemsKey]: Row[], totalCount, totalPages}`. */
  path: string;
  itemsKey: string;
  columns: Column<Row>[];
  children?: ReactNode;
}) {
  const [period, setPeriod] = useState("monthly");
  const [page, setPage] = useState(1);
  const [rows, setRows] = useState<Row[]>([]);
  const [totalPages, setTotalPages] = useState(1);
  const [loading, setLoading] = useState(true);

  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    http
      .get<PageAnswer>(path, { query: { page, limit: 10, ...filters({ period }) }, signal: controller.signal, silent: true })
      .then((answer) => {
        setRows((answer.data[itemsKey] as Row[]) ?? []);
        setTotalPages(answer.data.totalPages ?? Math.max(1, Math.ceil(answer.data.totalCount / 10)));
      })
      .catch((error) => {
        if (controller.signal.aborted || error?.name === "AbortError") return;
        toast.error("Something went wrong");
        setRows([]);
      })
      .finally(() => setLoading(false));
    return () => controller.abort();
  }, [path, itemsKey, period, page]);

  return (
    <>
      <div className="dash-title">
        <h1>{title}</h1>
        <label className="dash-select">
          Select By
          <select
            value={period}
            onChange={(event) => {
              setPeriod(event.currentTarget.value);
              setPage(1);
            }}
          >
            {PERIODS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </label>
      </div>
      <DataTable<Row>
        role={role}
        columns={columns}
        rows={rows}
        rowKey={(row) => row._id}
        loading={loading}
        page={page}
        totalPages={totalPages}
        onPage={setPage}
      />
      {children}
    </>
  );
}
