/** Invoices (spec 2.5): Select By daily, weekly, monthly; a paginated table; the invoice modal and its PDF. */
import { useState } from "react";
import { api, call, listFilters, pageCount, type Schemas } from "../../shared/api/client";
import "../../shared/ui/css/dashboard.css";
import { InvoiceModal, invoiceColumns } from "./invoices";
import { PeriodListPage } from "./PeriodListPage";

type Invoice = Schemas["Invoice"];

export function InvoicesPage() {
  const [open, setOpen] = useState<Invoice | null>(null);
  return (
    <PeriodListPage<Invoice>
      title="Invoices"
      path="/api/invoice/get-all"
      load={async ({ period, page }, signal) => {
        const answer = await call(
          api.GET("/api/invoice/get-all", { params: { query: { page, limit: 10, ...listFilters({ period }) } }, signal }),
          { silent: true },
        );
        return { rows: answer.data.invoices, totalPages: pageCount(answer.data) };
      }}
      columns={invoiceColumns(setOpen)}
    >
      {open && <InvoiceModal invoice={open} onClose={() => setOpen(null)} />}
    </PeriodListPage>
  );
}
