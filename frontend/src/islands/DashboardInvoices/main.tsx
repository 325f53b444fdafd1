import { useEffect, useState } from "react";
import "../../dashboard/dashboard.css";
import { mountDashboardIsland } from "../../dashboard/ErrorBoundary";
import { filters, http } from "../../dashboard/http";
import { type Invoice, InvoiceModal, invoiceColumns, PERIODS } from "../../dashboard/invoices";
import { DataTable } from "../../dashboard/Table";
import { toast } from "../../lib/toast";

function InvoicesPage({ role }: { role: string }) {
  const [period, setPeriod] = useState("monthly");
  const [page, setPage] = useState(1);
  const [rows, setRows] = useState<Invoice[]>([]);
  const [totalPages, setTotalPages] = useState(1);
  const [loading, setLoading] = useState(true);
  const [open, setOpen] = useState<Invoice | null>(null);

  useEffect(() => {
    setLoading(true);
    http
      .get<{ invoices: Invoice[]; totalCount: number; totalPages?: number }>("/api/invoice/get-all", {
        query: { page, limit: 10, ...filters({ period }) },
        silent: true,
      })
      .then((answer) => {
        setRows(answer.data.invoices);
        setTotalPages(answer.data.totalPages ?? Math.max(1, Math.ceil(answer.data.totalCount / 10)));
      })
      .catch(() => {
        toast.error("Something went wrong");
        setRows([]);
      })
      .finally(() => setLoading(false));
  }, [period, page]);

  return (
    <>
      <div className="dash-title">
        <h1>Invoices</h1>
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
      <DataTable<Invoice>
        role={role}
        columns={invoiceColumns(setOpen)}
        rows={rows}
        rowKey={(invoice) => invoice._id}
        loading={loading}
        page={page}
        totalPages={totalPages}
        onPage={setPage}
      />
      {open && <InvoiceModal invoice={open} onClose={() => setOpen(null)} />}
    </>
  );
}

mountDashboardIsland("DashboardInvoices", InvoicesPage);
