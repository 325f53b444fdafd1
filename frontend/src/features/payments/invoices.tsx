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

function Party({ label, person }: { label: string; person: Invoice["payment"]["renter"] | null | undefined }) {
  return (
    <tr>
      <th scope="row">{label}</th>
      <td>
        {fullName(person) || "—"}
        {person?.email && (
          <>
            <br />
            <span className="email">{person.email}</span>
          </>
        )}
      </td>
    </tr>
  );
}

/** The invoice as its PDF shows it: number, dates, listing, parties, the price lines and the status. */
export function InvoiceModal({ invoice, onClose }: { invoice: Invoice; onClose: () => void }) {
  const payment = invoice.payment;
  return (
    <Dialog title={`${invoice.kind === "creditNote" ? "Credit note" : "Invoice"} ${invoice.number}`} onClose={onClose} size="wide">
      <div className="invoice" data-testid="invoice-modal">
        <table>
          <tbody>
            <tr>
              <th scope="row">Number</th>
              <td>{invoice.number}</td>
            </tr>
            <tr>
              <th scope="row">Issued</th>
              <td>{formatDate(invoice.createdAt)}</td>
            </tr>
            <tr>
              <th scope="row">Listing</th>
              <td>{payment.listingId?.title ?? "—"}</td>
            </tr>
            <tr>
              <th scope="row">Check-in</th>
              <td>{invoice.checkIn}</td>
            </tr>
            <tr>
              <th scope="row">Check-out</th>
              <td>{invoice.checkOut}</td>
            </tr>
            <Party label="Renter" person={payment.renter} />
            <Party label="Host" person={payment.host} />
            <tr>
              <th scope="row">Status</th>
              <td>
                <Badge status={invoice.status} />
              </td>
            </tr>
          </tbody>
        </table>
        <table aria-label="Invoice lines">
          <thead>
            <tr>
              <th scope="col">Item</th>
              <th scope="col">Amount</th>
            </tr>
          </thead>
          <tbody>
            {invoice.lines.map((line, index) => (
              <tr key={index}>
                <td>{line.label}</td>
                <td>{line.amount}</td>
              </tr>
            ))}
            <tr>
              <th scope="row">{invoice.kind === "creditNote" ? "Credited" : "Amount of this invoice"}</th>
              <td>
                <strong>{money(invoice.amount)}</strong>
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
