/** Payments (admin, host, subHost): the booking payments by period, shown as paid or unpaid. */
import { useEffect, useState } from "react";
import "../../dashboard/dashboard.css";
import { mountDashboardIsland } from "../../dashboard/ErrorBoundary";
import { filters, http } from "../../dashboard/http";
import { PERIODS } from "../../dashboard/invoices";
import { type Payment, paymentColumns } from "../../dashboard/payouts";
import { DataTable } from "../../dashboard/Table";
import { toast } from "../../lib/toast";

function PaymentsPage({ role }: { role: string }) {
  const [period, setPeriod] = useState("monthly");
  const [page, setPage] = useState(1);
  const [rows, setRows] = useState<Payment[]>([]);
  const [totalPages, setTotalPages] = useState(1);
  const [loading, setLoading] = useState(true);

  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    http
      .get<{ payments: Payment[]; totalCount: number; totalPages?: number }>("/api/payment/get-all", {
        query: { page, limit: 10, ...filters({ period }) },
        signal: controller.signal,
        silent: true,
      })
      .then((answer) => {
        setRows(answer.data.payments);
        setTotalPages(answer.data.totalPages ?? Math.max(1, Math.ceil(answer.data.totalCount / 10)));
      })
      .catch((error) => {
        if (controller.signal.aborted || error?.name === "AbortError") return;
        toast.error("Something went wrong");
        setRows([]);
      })
      .finally(() => setLoading(false));
    return () => controller.abort();
  }, [period, page]);

  return (
    <>
      <div className="dash-title">
        <h1>Payments</h1>
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
      <DataTable<Payment>
        role={role}
        columns={paymentColumns(role)}
        rows={rows}
        rowKey={(payment) => payment._id}
        loading={loading}
        page={page}
        totalPages={totalPages}
        onPage={setPage}
      />
    </>
  );
}

mountDashboardIsland("DashboardPayments", PaymentsPage);
