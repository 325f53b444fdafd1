/** Payouts: the host's balance and requests (`payout`) and the admin's decisions (`payout-requests`). */
import { useCallback, useEffect, useState } from "react";
import { ConfirmDialog } from "../../shared/ui/ConfirmDialog";
import { countersChanged } from "../../features/notifications/counters";
import "../../shared/ui/css/dashboard.css";
import { money } from "../../shared/format";
import { filters, http } from "../../shared/api/http";
import {
  type Balance,
  DECISIONS,
  mayRequestPayout,
  PAYOUT_TABS,
  type Payout,
  type PayoutDecision,
  payoutActions,
  payoutColumns,
  showsBalance,
} from "./payouts";
import { DataTable, useRememberedTab } from "../../shared/ui/Table";
import { toast } from "../../shared/ui/toast";

interface Props {
  role: string;
  view: "payout" | "requests";
}

interface ListData {
  payouts: Payout[];
  totalCount: number;
  totalPages?: number;
}

function usePayouts(status: string | undefined, page: number, version: number) {
  const [rows, setRows] = useState<Payout[]>([]);
  const [totalPages, setTotalPages] = useState(1);
  const [loading, setLoading] = useState(true);
  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    http
      .get<ListData>("/api/payout/get-all", {
        query: { page, limit: 10, ...filters({ status }) },
        signal: controller.signal,
        silent: true,
      })
      .then((answer) => {
        setRows(answer.data.payouts);
        setTotalPages(answer.data.totalPages ?? Math.max(1, Math.ceil(answer.data.totalCount / 10)));
      })
      .catch((error) => {
        if (controller.signal.aborted || error?.name === "AbortError") return;
        toast.error("Something went wrong");
        setRows([]);
      })
      .finally(() => setLoading(false));
    return () => controller.abort();
  }, [status, page, version]);
  return { rows, totalPages, loading };
}

function BalanceCards({ balance }: { balance: Balance | null }) {
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

function PayoutPage({ role }: { role: string }) {
  const [page, setPage] = useState(1);
  const [version, setVersion] = useState(0);
  const [balance, setBalance] = useState<Balance | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const { rows, totalPages, loading } = usePayouts(undefined, page, version);

  useEffect(() => {
    if (!showsBalance(role)) return;
    http
      .get<Balance>("/api/payout/balance", { silent: true })
      .then((answer) => setBalance(answer.data))
      .catch(() => toast.error("Something went wrong"));
  }, [role, version]);

  const request = async () => {
    setBusy(true);
    try {
      const answer = await http.post<Payout>("/api/payout/request");
      toast.success(answer.message || "Payout requested.");
      setConfirming(false);
      setPage(1);
      setVersion((value) => value + 1);
    } catch {
      setConfirming(false); // the client has shown the server's sentence
    } finally {
      setBusy(false);
    }
  };

  const canRequest = mayRequestPayout(role, balance, rows);
  return (
    <>
      <div className="dash-title">
        <h1>Payout</h1>
        {role === "host" && (
          <button type="button" className="button" disabled={!canRequest} onClick={() => setConfirming(true)}>
            Request payout
          </button>
        )}
      </div>
      {showsBalance(role) && <BalanceCards balance={balance} />}
      <DataTable<Payout>
        role={role}
        caption={role === "admin" ? "All payouts" : "Your payouts"}
        columns={payoutColumns(role === "admin")}
        rows={rows}
        rowKey={(payout) => payout._id}
        loading={loading}
        page={page}
        totalPages={totalPages}
        onPage={setPage}
      />
      {confirming && balance && (
        <ConfirmDialog
          title="Request Payout"
          message={`Are you sure you want to request a payout of ${money(balance.available)}?`}
          confirmLabel="Request"
          busy={busy}
          onConfirm={request}
          onCancel={() => setConfirming(false)}
        />
      )}
    </>
  );
}

function PayoutRequestsPage({ role }: { role: string }) {
  const [tab, setTab] = useRememberedTab("payout-requests", PAYOUT_TABS, role);
  const [page, setPage] = useState(1);
  const [version, setVersion] = useState(0);
  const [pending, setPending] = useState<{ payout: Payout; decision: PayoutDecision } | null>(null);
  const [busy, setBusy] = useState(false);
  const { rows, totalPages, loading } = usePayouts(tab, page, version);

  const decide = useCallback((payout: Payout, decision: PayoutDecision) => setPending({ payout, decision }), []);
  const cancel = useCallback(() => setPending(null), []);

  const confirm = async () => {
    if (!pending) return;
    setBusy(true);
    try {
      const answer = await http.patch<Payout>(`/api/payout/update-status/${pending.payout._id}`, {
        status: pending.decision,
      });
      toast.success(answer.message || "Payout updated.");
      countersChanged();
    } catch {
      /* the client has shown the server's sentence; the list is reloaded to show the current state */
    } finally {
      setBusy(false);
      setPending(null);
      setVersion((value) => value + 1);
    }
  };

  const words = pending ? DECISIONS[pending.decision] : null;
  return (
    <>
      <div className="dash-title">
        <h1>Payout Requests</h1>
      </div>
      <DataTable<Payout>
        role={role}
        columns={payoutColumns(true)}
        rows={rows}
        rowKey={(payout) => payout._id}
        loading={loading}
        tabs={PAYOUT_TABS}
        tab={tab}
        onTab={(value) => {
          setTab(value);
          setPage(1);
        }}
        actions={payoutActions(decide)}
        page={page}
        totalPages={totalPages}
        onPage={setPage}
      />
      {pending && words && (
        <ConfirmDialog
          title={`${words.label} Payout`}
          message={`Are you sure you want to ${words.verb} this payout of ${money(pending.payout.amount)}?`}
          confirmLabel={words.label}
          busy={busy}
          onConfirm={confirm}
          onCancel={cancel}
        />
      )}
    </>
  );
}

export function PayoutIsland({ role, view }: Props) {
  return view === "requests" ? <PayoutRequestsPage role={role} /> : <PayoutPage role={role} />;
}
