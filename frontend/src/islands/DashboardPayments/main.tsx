/** Payments (admin, host, subHost): the booking payments by period, shown as paid or unpaid. */
import "../../dashboard/dashboard.css";
import { mountDashboardIsland } from "../../dashboard/ErrorBoundary";
import { PeriodListPage } from "../../dashboard/PeriodListPage";
import { type Payment, paymentColumns } from "../../dashboard/payouts";

function PaymentsPage({ role }: { role: string }) {
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

mountDashboardIsland("DashboardPayments", PaymentsPage);
