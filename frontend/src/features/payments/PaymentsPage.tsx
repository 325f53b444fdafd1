/** Payments (admin, host, subHost): the booking payments by period, shown as paid or unpaid. */
import "../../shared/ui/css/dashboard.css";
import { PeriodListPage } from "./PeriodListPage";
import { type Payment, paymentColumns } from "./payouts";

export function PaymentsPage({ role }: { role: string }) {
  return (
    <PeriodListPage<Payment>
      title="Payments"
      role={role}
      path="/api/payment/get-all"
      itemsKey="payments"
      columns={paymentColumns(role)}
    />
  );
}
