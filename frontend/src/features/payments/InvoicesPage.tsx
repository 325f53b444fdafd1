/** Invoices (spec 2.5): Select By daily, weekly, monthly; a paginated table; the invoice modal and its PDF. */
import { useState } from "react";
import "../../shared/ui/css/dashboard.css";
import { type Invoice, InvoiceModal, invoiceColumns } from "./invoices";
import { PeriodListPage } from "./PeriodListPage";

export function InvoicesPage({ role }: { role: string }) {
  const [open, setOpen] = useState<Invoice | null>(null);
  return (
    <PeriodListPage<Invoice>
      title="Invoices"
      role={role}
      path="/api/invoice/get-all"
      itemsKey="invoices"
      columns={invoiceColumns(setOpen)}
    >
      {open && <InvoiceModal invoice={open} onClose={() => setOpen(null)} />}
    </PeriodListPage>
  );
}
