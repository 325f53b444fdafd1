import { CONSTANTS } from "../../shared/constants";
/** Premium membership states (spec section 4.3). */
import type { Schemas } from "../../shared/api/client";

export type PremiumPart = Schemas["PremiumPart"];
export type Subscription = Schemas["SubscriptionDetail"];
export type Plan = Schemas["Plan"];

export const NON_REFUNDABLE_TEXT = "The amount is non refundable.";
/** From the server's apps/premium/policies.PREMIUM_GRACE_DAYS (through shared/constants.json). */
export const DELETION_TEXT = CONSTANTS.premium.graceText;
export const PAYMENT_CANCELLED = "Payment for premium subscription cancelled";
export const PAYMENT_SUCCESS = "Payment successful";

function isActivePremium(subscription: Subscription | null | undefined): boolean {
  const premium = subscription?.premiumSubscription;
  return subscription?.type === "premium" && (premium?.status ?? subscription?.status) === "active";
}

/** The shell button: free shows Get Premium Membership; active premium Premium Member; else Renew Subscription. */
export function premiumButtonLabel(subscription: Subscription | null | undefined): string {
  if (!subscription || subscription.type === "free") return "Get Premium Membership";
  if (isActivePremium(subscription)) return "Premium Member";
  return "Renew Subscription";
}

export type ModalState = "renew" | "cancel" | "upgrade" | "plans";

/**
 * What the modal offers: an admin-granted premium shows Upgrade; a premium subscription that is not
 * active or whose next billing date has passed offers Renew Membership; an active one with a future
 * billing date offers Cancel Membership; otherwise the plan list.
 */
export function premiumModalState(subscription: Subscription | null | undefined, now: Date = new Date()): ModalState {
  const premium = subscription?.premiumSubscription;
  if (subscription?.subscriptionSource === "admin" && subscription.type === "premium") return "upgrade";
  if (premium) {
    const next = premium.nextBillingDate ? new Date(premium.nextBillingDate) : null;
    const future = next !== null && next.getTime() > now.getTime();
    if (premium.status !== "active" || !future) return "renew";
    return "cancel";
  }
  return "plans";
}

export interface PaymentReturn {
  kind: "success" | "cancelled";
  message: string;
  sessionId?: string;
  paymentId?: string;
}

/** Read the return from the payment page (query type=subscription; payemnt is the earlier spelling). */
export function readPaymentReturn(search: string): PaymentReturn | null {
  const params = new URLSearchParams(search);
  if (params.get("type") !== "subscription") return null;
  if (params.get("success") === "true") {
    return {
      kind: "success",
      message: params.get("successMessage") || PAYMENT_SUCCESS,
      sessionId: params.get("sessionId") ?? undefined,
      paymentId: params.get("paymentId") ?? params.get("payemnt") ?? undefined,
    };
  }
  return { kind: "cancelled", message: PAYMENT_CANCELLED };
}
