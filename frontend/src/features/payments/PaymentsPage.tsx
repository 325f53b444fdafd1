/** Payments (admin, host, subHost): the booking payments by period, shown as paid or unpaid. */
import { api, call, listFilters, pageCount, type Schemas } from "../../shared/api/client";
import "../../shared/ui/css/dashboard.css";
import { paymentColumns } from "./payouts";
import { PeriodListPage } from "./PeriodListPage";
import type { IslandProps } from "../../shared/ui/mountIsland";

/** `withHost`: the server says this user sees every host's payments (a Host column). */
export function PaymentsPage({ withHost = false }: Partial<Pick<IslandProps<"DashboardPayments">, "withHost">>) {
  return (
    <PeriodListPage<Schemas["Payment"]>
      title="Payments"
      path="/api/payment/get-all"
      load={async ({ period, page }, signal) => {
        const answer = await call(
          api.GET("/api/payment/get-all", { params: { query: { page, limit: 10, ...listFilters({ period }) } }, signal }),
          { silent: true },
        );
        return { rows: answer.data.payments, totalPages: pageCount(answer.data) };
      }}
      columns={paymentColumns(withHost)}
    />
  );
}
