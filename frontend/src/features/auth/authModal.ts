/** Open the authentication modal; its code loads only when someone asks for it. */
export const AUTH_STEPS = ["login", "register", "forgotPassword", "otpForgot", "otpVerify", "resetPassword"] as const;
export type AuthStep = (typeof AUTH_STEPS)[number];

export function isAuthStep(value: unknown): value is AuthStep {
  return typeof value === "string" && (AUTH_STEPS as readonly string[]).includes(value);
}

export async function openAuthModal(step: AuthStep = "login"): Promise<void> {
  const { showAuthModal } = await import("./AuthRoot");
  showAuthModal(step);
}

/** After login: stay on the booking pages, otherwise go to the dashboard (spec section 2.2). */
export const STAY_AFTER_LOGIN = ["/listing-details/", "/services-and-add-ons", "/review-and-pay"];

export function pathAfterLogin(pathname: string): string | null {
  return STAY_AFTER_LOGIN.some((part) => pathname.includes(part)) ? null : "/dashboard";
}

/** The step a page opens with: /login, /register, /reset-password, or ?auth=<step> on any page. */
export const STEP_PAGES: Record<string, AuthStep> = {
  "/login": "login",
  "/register": "register",
  "/reset-password": "resetPassword",
};

export function initialAuthStep(location: { pathname: string; search: string }): AuthStep | null {
  const fromQuery = new URLSearchParams(location.search).get("auth");
  if (isAuthStep(fromQuery)) return fromQuery;
  return STEP_PAGES[location.pathname] ?? null;
}
