import { useState } from "react";
import { CONSENT_COOKIE, readConsent, startAnalyticsIfAllowed } from "./analytics";
import { setCookie } from "../../shared/browser/cookies";
import "./consent.css";

/** Asks once; the answer lives in the cookieConsent cookie ({"marketing": bool}) for a year. */
export function CookieConsent() {
  const [open, setOpen] = useState(() => readConsent() === null);
  if (!open) return null;
  const choose = (marketing: boolean) => {
    setCookie(CONSENT_COOKIE, JSON.stringify({ marketing }), { days: 365 });
    setOpen(false);
    if (marketing) startAnalyticsIfAllowed();
  };
  return (
    <section className="cookie-consent" aria-label="Cookie consent">
      <p>We use essential cookies to run the site. With your consent we also measure visits to improve it.</p>
      <div className="cookie-consent__actions">
        <button type="button" className="button" onClick={() => choose(true)}>
          Accept all
        </button>
        <button type="button" className="button button--ghost" onClick={() => choose(false)}>
          Essential only
        </button>
      </div>
    </section>
  );
}
