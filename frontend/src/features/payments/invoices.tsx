/** Invoices (spec 2.5): shapes, the modal and the PDF link from the server. */
import { StatusBadge } from "../../shared/ui/badges";
import { formatDate, fullName, money } from "../../shared/format";
import { Modal } from "../../shared/ui/Modal";

export interface Invoice {
  _id: string;
  number: string;
  kind: string;
  amount: string;
  createdAt: string;
  status: string;
  payment: {
    _id: string;
    bookingId: string;
    listingId: { title: string; propertyType: string } | null;
    renter: { firstName?: string; lastName?: string; email?: string } | null;
    host: { firstName?: string; lastName?: string; email?: string } | null;
    totalAmount: string;
    extendedAmount?: string;
    refundedAmount?: string;
    status: string;
    type: string;
  };
}

export const PERIODS = [
  { value: "daily", label: "Daily" },
  { value: "weekly", label: "Weekly" },
  { value: "monthly", label: "Monthly" },
];

export function invoicePdfHref(invoice: Pick<Invoice, "_id">): string {
  return `/api/invoice/pdf/${invoice._id}`;
}

export function InvoiceModal({ invoice, onClose }: { invoice: Invoice; onClose: () => void }) {
  const payment = invoice.payment;
  return (
    <Modal title={`Invoice ${invoice.number}`} onClose={onClose} wide>
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
                <StatusBadge status={invoice.status} />
              </td>
            </tr>
          </tbody>
        </table>
        <div className="dash-actions">
          <a className="button" href={invoicePdfHref(invoice)} download>
            Download PDF
          </a>
        </div>
      </div>
    </Modal>
  );
}

export function invoiceColumns(open: (invoice: Invoice) => void) {
  return [
    { key: "number", header: "Invoice", render: (i: Invoice) => i.number },
    { key: "date", header: "Date", render: (i: Invoice) => formatDate(i.createdAt) },
    { key: "listing", header: "Listing", render: (i: Invoice) => (i.payment.listingId?.title ?? "—").slice(0, 20) },
    { key: "amount", header: "Amount", render: (i: Invoice) => money(i.amount) },
    { key: "status", header: "Status", render: (i: Invoice) => <StatusBadge status={i.status} /> },
    {
      key: "open",
      header: "Invoice",
      render: (i: Invoice) => (
        <button type="button" className="link-button" aria-label={`Open invoice ${i.number}`} onClick={() => open(i)}>
          ⬇
        </button>
      ),
    },
  ];
}
