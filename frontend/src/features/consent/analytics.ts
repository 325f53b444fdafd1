/**
 * Analytics runs only with marketing consent (cookie cookieConsent = {"marketing": true}) and only
 * when the page names a measurement id (<meta name="analytics-id">). By default nothing loads.
 */
import { getCookie } from "../../shared/browser/cookies";

export const CONSENT_COOKIE = "cookieConsent";

export function readConsent(): { marketing: boolean } | null {
  const raw = getCookie(CONSENT_COOKIE);
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as { marketing?: unknown };
    return { marketing: value.marketing === true };
  } catch {
    return null;
  }
}

type Gtag = (...args: unknown[]) => void;
declare global {
  interface Window {
    dataLayer?: unknown[];
    gtag?: Gtag;
  }
}

let started = false;

/** Load the analytics script if, and only if, marketing consent was given. */
export function startAnalyticsIfAllowed(): boolean {
  if (started) return true;
  const id = document.querySelector<HTMLMetaElement>('meta[name="analytics-id"]')?.content;
  if (!id || readConsent()?.marketing !== true) return false;
  started = true;
  window.dataLayer = window.dataLayer ?? [];
  window.gtag = function gtag() {
    // gtag.js reads the arguments object itself, not an array.
    // eslint-disable-next-line prefer-rest-params
    window.dataLayer!.push(arguments);
  };
  window.gtag("js", new Date());
  window.gtag("config", id, { send_page_view: false });
  const script = document.createElement("script");
  script.async = true;
  script.src = `https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(id)}`;
  document.head.appendChild(script);
  return true;
}

export function trackPageView(path: string): void {
  if (startAnalyticsIfAllowed()) window.gtag?.("event", "page_view", { page_path: path });
}
