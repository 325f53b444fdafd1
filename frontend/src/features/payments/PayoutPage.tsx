/** Payouts: the host's balance and requests (`payout`) and the admin's decisions (`payout-requests`). */
import { keepPreviousData, useMutation, useQuery } from "@tanstack/react-query";
import { Wallet } from "lucide-react";
import { useState } from "react";
import { api, call, listFilters, pageCount } from "../../shared/api/client";
import { apiKey, invalidate } from "../../shared/api/query";
import { money } from "../../shared/format";
import { useListState } from "../../shared/hooks/useListState";
import { ConfirmDialog } from "../../shared/ui/ConfirmDialog";
import "../../shared/ui/css/dashboard.css";
import { DataTable } from "../../shared/ui/Table";
import { toast } from "../../shared/ui/toast";
import { countersChanged } from "../notifications/counters";
import {
  type Balance,
  DECISIONS,
  PAYOUT_TABS,
  type Payout,
  type PayoutDecision,
  payoutActions,
  payoutColumns,
} from "./payouts";
import type { IslandProps } from "../../shared/ui/mountIsland";

/** The page's flags from the server (apps/payments/policies): what this user's Payout page offers. */
type PageProps = IslandProps<"DashboardPayout">;
/**
 * The Request payout button (the host itself; a subHost sees the page read-only), the balance cards
 * (the host side; the admin has no balance of its own), every host's payouts with a Host column (the admin).
 */
type PayoutFlags = Partial<Pick<PageProps, "requestsPayouts" | "seesBalance" | "withHost">>;
type Props = PayoutFlags & Pick<PageProps, "view">;

const LIST_FAILED = "Something went wrong";

function usePayouts(status: string, page: number) {
  return useQuery({
    queryKey: apiKey("/api/payout/get-all", { status, page }),
    queryFn: async ({ signal }) => {
      try {
        const answer = await call(
          api.GET("/api/payout/get-all", { params: { query: { page, limit: 10, ...listFilters({ status: status === "all" ? "" : status }) } }, signal }),
          { silent: true },
        );
        return { rows: answer.data.payouts, totalPages: pageCount(answer.data) };
      } catch (error) {
        if ((error as Error)?.name !== "AbortError") toast.error(LIST_FAILED);
        throw error;
      }
    },
    placeholderData: keepPreviousData,
  });
}

function BalanceCards({ balance }: { balance: Balance | undefined }) {
  return (
    <div className="dash-stats" data-testid="payout-balance">
      <div className="dash-stat">
        <div className="dash-stat__label">Available balance</div>
        <div className="dash-stat__value">{balance ? money(balance.available) : "—"}</div>
      </div>
      <div className="dash-stat">
        <div className="dash-stat__label">Pending payout</div>
        <div className="dash-stat__value">{balance ? money(balance.pending) : "—"}</div>
      </div>
      <div className="dash-stat">
        <div className="dash-stat__label">Paid out</div>
        <div className="dash-stat__value">{balance ? money(balance.paid) : "—"}</div>
      </div>
    </div>
  );
}

function PayoutPage({ requestsPayouts = false, seesBalance = false, withHost = false }: PayoutFlags) {
  const [list, setList] = useListState({ page: 1 });
  const [confirming, setConfirming] = useState(false);
  const payouts = usePayouts("", list.page);
  const balance = useQuery({
    queryKey: apiKey("/api/payout/balance"),
    queryFn: ({ signal }) => call(api.GET("/api/payout/balance", { signal }), { silent: true }).then((answer) => answer.data),
    enabled: seesBalance,
  });
  const request = useMutation({
    mutationFn: () => call(api.POST("/api/payout/request", {})),
    onSuccess: (answer) => {
      toast.success(answer.message || "Payout requested.");
      setList({ page: 1 });
    },
    onSettled: () => {
      setConfirming(false);
      void invalidate(["/api/payout"]);
    },
  });

  const canRequest = balance.data?.can.request === true;
  return (
    <>
      <div className="dash-title">
        <h1>Payout</h1>
        {requestsPayouts && (
          <button type="button" className="button" disabled={!canRequest} onClick={() => setConfirming(true)}>
            <Wallet aria-hidden="true" size={16} /> Request payout
          </button>
        )}
      </div>
      {seesBalance && <BalanceCards balance={balance.data} />}
      <DataTable<Payout>
        caption={withHost ? "All payouts" : "Your payouts"}
        columns={payoutColumns(withHost)}
        rows={payouts.data?.rows ?? []}
        rowKey={(payout) => payout._id}
        loading={payouts.isPending}
        page={list.page}
        totalPages={payouts.data?.totalPages ?? 1}
        onPage={(page) => setList({ page })}
      />
      {confirming && balance.data && (
        <ConfirmDialog
          title="Request Payout"
          message={`Are you sure you want to request a payout of ${money(balance.data.available)}?`}
          confirmLabel="Request"
          busy={request.isPending}
          onConfirm={() => request.mutate()}
          onCancel={() => setConfirming(false)}
        />
      )}
    </>
  );
}

function PayoutRequestsPage() {
  const [list, setList] = useListState({ tab: "onhold", page: 1 }, { tabPrefix: "payout-requests", allowedTabs: PAYOUT_TABS.map((tab) => tab.value) });
  const [pending, setPending] = useState<{ payout: Payout; decision: PayoutDecision } | null>(null);
  const payouts = usePayouts(list.tab, list.page);
  const decide = useMutation({
    mutationFn: ({ payout, decision }: { payout: Payout; decision: PayoutDecision }) =>
      call(api.PATCH("/api/payout/update-status/{id}", { params: { path: { id: payout._id } }, body: { status: decision } })),
    onSuccess: (answer) => {
      toast.success(answer.message || "Payout updated.");
      countersChanged();
    },
    onSettled: () => {
      // Reloaded either way, to show the current state after a refusal too.
      setPending(null);
      void invalidate(["/api/payout", "/api/dashboard"]);
    },
  });

  const words = pending ? DECISIONS[pending.decision] : null;
  return (
    <>
      <div className="dash-title">
        <h1>Payout Requests</h1>
      </div>
      <DataTable<Payout>
        columns={payoutColumns(true)}
        rows={payouts.data?.rows ?? []}
        rowKey={(payout) => payout._id}
        loading={payouts.isPending || (payouts.isFetching && payouts.isPlaceholderData)}
        tabs={PAYOUT_TABS}
        tab={list.tab}
        onTab={(tab) => setList({ tab })}
        actions={payoutActions((payout, decision) => setPending({ payout, decision }))}
        page={list.page}
        totalPages={payouts.data?.totalPages ?? 1}
        onPage={(page) => setList({ page })}
      />
      {pending && words && (
        <ConfirmDialog
          title={`${words.label} Payout`}
          message={`Are you sure you want to ${words.verb} this payout of ${money(pending.payout.amount)}?`}
          confirmLabel={words.label}
          tone={pending.decision === "failed" ? "danger" : "default"}
          busy={decide.isPending}
          onConfirm={() => decide.mutate(pending)}
          onCancel={() => setPending(null)}
        />
      )}
    </>
  );
}

export function PayoutIsland({ view, ...flags }: Props) {
  return view === "requests" ? <PayoutRequestsPage /> : <PayoutPage {...flags} />;
}
