/** The premium membership button and modal of hosts and subHosts (spec sections 2.3 and 4.3). */
import { Crown } from "lucide-react";
import { useEffect, useState } from "react";
import { api, call } from "../../shared/api/client";
import { useApiQuery } from "../../shared/api/hooks";
import { invalidate } from "../../shared/api/query";
import { navigation } from "../../shared/browser/navigation";
import { formatDate, money } from "../../shared/format";
import { ConfirmDialog } from "../../shared/ui/ConfirmDialog";
import { Dialog } from "../../shared/ui/Dialog";
import { Spinner } from "../../shared/ui/Spinner";
import { StatusHistory } from "../../shared/ui/StatusHistory";
import { toast } from "../../shared/ui/toast";
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
      const answer = await call(
        api.POST("/api/payment/subscribe", { body: { planId: plan.planId, totalAmount: plan.totalAmount ?? "0", redirectUrl } }),
      );
      navigation.assign(answer.data.url);
    } catch {
      setBusy(false);
    }
  };

  const cancel = async () => {
    if (!subscription) return;
    setBusy(true);
    try {
      const answer = await call(api.POST("/api/subscription/cancel/{id}", { params: { path: { id: subscription._id } } }));
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
  const endedOn = premium?.endDate ?? premium?.nextBillingDate;
  return (
    <Dialog title="Premium Membership" onClose={onClose}>
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
          <p>Your premium membership has ended{endedOn ? ` (${formatDate(endedOn)})` : ""}.</p>
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
              {busy ? <Spinner label="Proceed" /> : "Proceed"}
            </button>
          </div>
        </div>
      )}
      {!showPlans && <StatusHistory rows={subscription?.statusHistory} title="Membership history" />}
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
    </Dialog>
  );
}

export function PremiumMembership() {
  const [open, setOpen] = useState(false);
  const [settled, setSettled] = useState(false);
  const subscription = useApiQuery("/api/subscription", undefined, { silent: true, select: (answer) => answer.data, enabled: settled });
  const plans = useApiQuery("/api/plans/get-all", undefined, { silent: true, select: (answer) => answer.data, enabled: settled });

  // Back from the payment page (spec 4.3): confirm the payment, say how it went, then load the subscription.
  useEffect(() => {
    const back = readPaymentReturn(window.location.search);
    const settle = async () => {
      if (back?.kind === "success") {
        if (back.sessionId && back.paymentId) {
          try {
            await call(api.PUT("/api/payment/subscribe-success", { body: { sessionId: back.sessionId, paymentId: back.paymentId } }));
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
      setSettled(true);
    };
    void settle();
  }, []);

  const loaded = settled && !subscription.isPending && !plans.isPending;
  return (
    <>
      {/* On phones the label folds to "Premium" (or the icon alone) so the top bar keeps its room. */}
      <button
        type="button"
        className="button dash-premium__button"
        onClick={() => setOpen(true)}
        disabled={!loaded}
        title={premiumButtonLabel(subscription.data ?? null)}
      >
        <Crown aria-hidden="true" size={16} /> <span className="dash-premium__label">{premiumButtonLabel(subscription.data ?? null)}</span>
      </button>
      {open && (
        <PremiumModal
          subscription={subscription.data ?? null}
          plans={plans.data ?? []}
          onClose={() => setOpen(false)}
          onChanged={() => void invalidate(["/api/subscription", "/api/payment/get-all-host-subscription"])}
        />
      )}
    </>
  );
}
