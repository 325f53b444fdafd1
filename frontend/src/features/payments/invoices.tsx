/** Invoices (spec 2.5): shapes, the modal and the PDF link from the server. */
import { Download } from "lucide-react";
import type { Schemas } from "../../shared/api/client";
import { formatDate, fullName, money } from "../../shared/format";
import { Badge } from "../../shared/ui/Badge";
import type { Column } from "../../shared/ui/Table";
import { Dialog } from "../../shared/ui/Dialog";

type Invoice = Schemas["Invoice"];

export function invoicePdfHref(invoice: Pick<Invoice, "_id">): string {
  return `/api/invoice/pdf/${invoice._id}`;
}

export function InvoiceModal({ invoice, onClose }: { invoice: Invoice; onClose: () => void }) {
  const payment = invoice.payment;
  return (
    <Dialog title={`Invoice ${invoice.number}`} onClose={onClose} size="wide">
      <div className="invoice" data-testid="invoice-modal">
        <table>
          <tbody>
            <tr>
              <th scope="row">Date</th>
              <td>{formatDate(invoice.createdAt)}</td>
            </tr>
            <tr>
              <th scope="row">Listing</th>
              <td>{payment.listingId?.title ?? "—"}</td>
            </tr>
            <tr>
              <th scope="row">Renter</th>
              <td>
                {fullName(payment.renter)} {payment.renter?.email ? `(${payment.renter.email.slice(0, 50)})` : ""}
              </td>
            </tr>
            <tr>
              <th scope="row">Host</th>
              <td>
                {fullName(payment.host)} {payment.host?.email ? `(${payment.host.email.slice(0, 50)})` : ""}
              </td>
            </tr>
            <tr>
              <th scope="row">Amount</th>
              <td>{money(invoice.amount)}</td>
            </tr>
            {payment.extendedAmount && Number(payment.extendedAmount) > 0 && (
              <tr>
                <th scope="row">Extensions</th>
                <td>{money(payment.extendedAmount)}</td>
              </tr>
            )}
            {payment.refundedAmount && Number(payment.refundedAmount) > 0 && (
              <tr>
                <th scope="row">Refunded</th>
                <td>{money(payment.refundedAmount)}</td>
              </tr>
            )}
            <tr>
              <th scope="row">Status</th>
              <td>
                <Badge status={invoice.status} />
              </td>
            </tr>
          </tbody>
        </table>
        <div className="dialog__actions">
          <a className="button" href={invoicePdfHref(invoice)} download>
            Download PDF
          </a>
        </div>
      </div>
    </Dialog>
  );
}

export function invoiceColumns(open: (invoice: Invoice) => void): Column<Invoice>[] {
  return [
    { key: "number", header: "Invoice", render: (i: Invoice) => i.number },
    { key: "date", header: "Date", render: (i: Invoice) => formatDate(i.createdAt) },
    { key: "listing", header: "Listing", render: (i: Invoice) => (i.payment.listingId?.title ?? "—").slice(0, 20) },
    { key: "amount", header: "Amount", render: (i: Invoice) => money(i.amount) },
    { key: "status", header: "Status", render: (i: Invoice) => <Badge status={i.status} /> },
    {
      key: "open",
      header: "Invoice",
      render: (i: Invoice) => (
        <button type="button" className="row-action" aria-label={`Open invoice ${i.number}`} onClick={() => open(i)}>
          <Download aria-hidden="true" size={16} />
        </button>
      ),
    },
  ];
}
