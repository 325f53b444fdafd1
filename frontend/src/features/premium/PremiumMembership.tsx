/** The premium membership button and modal of hosts and subHosts (spec sections 2.3 and 4.3). */
import { useCallback, useEffect, useState } from "react";
import { ConfirmDialog } from "../../shared/ui/ConfirmDialog";
import { navigation } from "../../shared/browser/navigation";
import { toast } from "../../shared/ui/toast";
import { formatDate, money } from "../../shared/format";
import { http } from "../../shared/api/http";
import { Modal } from "../../shared/ui/Modal";
import {
  DELETION_TEXT,
  NON_REFUNDABLE_TEXT,
  type Plan,
  premiumButtonLabel,
  premiumModalState,
  readPaymentReturn,
  type Subscription,
} from "./premium";

export function PremiumModal({
  subscription,
  plans,
  onClose,
  onChanged,
}: {
  subscription: Subscription | null;
  plans: Plan[];
  onClose: () => void;
  onChanged: () => void;
}) {
  const state = premiumModalState(subscription);
  const [showPlans, setShowPlans] = useState(state === "plans");
  const [selected, setSelected] = useState<string>(plans[0]?._id ?? "");
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);

  useEffect(() => {
    if (!selected && plans[0]) setSelected(plans[0]._id);
  }, [plans, selected]);

  const proceed = async () => {
    const plan = plans.find((item) => item._id === selected);
    if (!plan) return;
    setBusy(true);
    try {
      const redirectUrl = `/dashboard?successMessage=${encodeURIComponent("Payment successful")}`;
      const answer = await http.post<{ url: string }>("/api/payment/subscribe", {
        planId: plan.planId,
        totalAmount: plan.totalAmount,
        redirectUrl,
      });
      navigation.assign(answer.data.url);
    } catch {
      setBusy(false);
    }
  };

  const cancel = async () => {
    if (!subscription) return;
    setBusy(true);
    try {
      const answer = await http.post(`/api/subscription/cancel/${subscription._id}`);
      if (answer.message) toast.success(answer.message);
      setConfirming(false);
      onChanged();
      onClose();
    } catch {
      setBusy(false);
      setConfirming(false);
    }
  };

  const premium = subscription?.premiumSubscription;
  return (
    <Modal title="Premium Membership" onClose={onClose}>
      {!showPlans && state === "cancel" && (
        <div data-testid="premium-cancel">
          <p>
            Your premium membership is active until <strong>{formatDate(premium?.nextBillingDate)}</strong>.
          </p>
          <p className="dash-note">{DELETION_TEXT}</p>
          <p className="dash-note">{NON_REFUNDABLE_TEXT}</p>
          <div className="dash-actions">
            <button type="button" className="button button--danger" onClick={() => setConfirming(true)} disabled={busy}>
              Cancel Membership
            </button>
          </div>
        </div>
      )}
      {!showPlans && state === "renew" && (
        <div data-testid="premium-renew">
          <p>Your premium membership has ended{premium?.nextBillingDate ? ` (${formatDate(premium.nextBillingDate)})` : ""}.</p>
          <div className="dash-actions">
            <button type="button" className="button" onClick={() => setShowPlans(true)}>
              Renew Membership
            </button>
          </div>
        </div>
      )}
      {!showPlans && state === "upgrade" && (
        <div data-testid="premium-upgrade">
          <p>Your premium membership was given by an administrator.</p>
          <div className="dash-actions">
            <button type="button" className="button" onClick={() => setShowPlans(true)}>
              Upgrade
            </button>
          </div>
        </div>
      )}
      {showPlans && (
        <div data-testid="premium-plans">
          {plans.length === 0 ? (
            <p className="dash-empty">No plans are available right now.</p>
          ) : (
            <fieldset className="dash-plans-set">
              <legend className="visually-hidden">Plans</legend>
              <ul className="dash-plans">
                {plans.map((plan) => (
                  <li key={plan._id}>
                    <label className={`dash-plan${plan._id === selected ? " is-selected" : ""}`}>
                      <input
                        type="radio"
                        name="plan"
                        value={plan._id}
                        checked={plan._id === selected}
                        onChange={() => setSelected(plan._id)}
                      />
                      <span>
                        <strong>{plan.planName}</strong> · {money(plan.totalAmount)} / year
                        {plan.description && <span className="dash-note"> {plan.description}</span>}
                        {plan.features && plan.features.length > 0 && (
                          <ul>
                            {plan.features.map((feature, index) => (
                              <li key={index}>
                                <strong>{feature.bold}</strong> {feature.normal}
                              </li>
                            ))}
                          </ul>
                        )}
                      </span>
                    </label>
                  </li>
                ))}
              </ul>
            </fieldset>
          )}
          <p className="dash-note">{NON_REFUNDABLE_TEXT}</p>
          <p className="dash-note">{DELETION_TEXT}</p>
          <div className="dash-actions">
            <button type="button" className="button" onClick={proceed} disabled={busy || !selected} aria-busy={busy || undefined}>
              {busy ? <span className="spinner" aria-hidden="true" /> : "Proceed"}
            </button>
          </div>
        </div>
      )}
      {confirming && (
        <ConfirmDialog
          title="Cancel Membership"
          message={`Are you sure you want to cancel your premium membership? ${DELETION_TEXT} ${NON_REFUNDABLE_TEXT}`}
          confirmLabel="Cancel Membership"
          cancelLabel="Keep Membership"
          busy={busy}
          onConfirm={cancel}
          onCancel={() => setConfirming(false)}
        />
      )}
    </Modal>
  );
}

export function PremiumMembership() {
  const [subscription, setSubscription] = useState<Subscription | null>(null);
  const [plans, setPlans] = useState<Plan[]>([]);
  const [loaded, setLoaded] = useState(false);
  const [open, setOpen] = useState(false);

  const load = useCallback(async () => {
    const [sub, planList] = await Promise.allSettled([
      http.get<Subscription>("/api/subscription", { silent: true }),
      http.get<Plan[]>("/api/plans/get-all", { silent: true }),
    ]);
    if (sub.status === "fulfilled") setSubscription(sub.value.data);
    if (planList.status === "fulfilled") setPlans(planList.value.data ?? []);
    setLoaded(true);
  }, []);

  useEffect(() => {
    const back = readPaymentReturn(window.location.search);
    const settle = async () => {
      if (back?.kind === "success") {
        if (back.sessionId && back.paymentId) {
          try {
            await http.put("/api/payment/subscribe-success", { sessionId: back.sessionId, paymentId: back.paymentId });
            toast.success(back.message);
          } catch {
            /* the client's toast said why */
          }
        } else {
          toast.success(back.message);
        }
      } else if (back?.kind === "cancelled") {
        toast.error(back.message);
      }
      if (back) window.history.replaceState(null, "", "/dashboard");
      await load();
    };
    void settle();
  }, [load]);

  return (
    <>
      <button type="button" className="button dash-premium__button" onClick={() => setOpen(true)} disabled={!loaded}>
        {premiumButtonLabel(subscription)}
      </button>
      {open && (
        <PremiumModal subscription={subscription} plans={plans} onClose={() => setOpen(false)} onChanged={() => void load()} />
      )}
    </>
  );
}
