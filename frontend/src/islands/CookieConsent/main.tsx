import { useState } from "react";
import { mountIsland } from "../../lib/mountIsland";

const COOKIE = "cookieConsent";

function readConsent(): { marketing: boolean } | null {
  const raw = document.cookie.split("; ").find((part) => part.startsWith(`${COOKIE}=`));
  if (!raw) return null;
  try {
    return JSON.parse(decodeURIComponent(raw.slice(COOKIE.length + 1)));
  } catch {
    return null;
  }
}

function CookieConsent() {
  const [open, setOpen] = useState(() => readConsent() === null);
  if (!open) return null;
  const choose = (marketing: boolean) => {
    const value = encodeURIComponent(JSON.stringify({ marketing }));
    document.cookie = `${COOKIE}=${value}; path=/; max-age=${60 * 60 * 24 * 365}; samesite=lax`;
    setOpen(false);
  };
  return (
    <div className="cookie-consent" role="dialog" aria-label="Cookie consent">
      <p>We use essential cookies to run the site. With your consent we also measure visits to improve it.</p>
      <button type="button" className="button" onClick={() => choose(true)}>Accept all</button>{" "}
      <button type="button" className="link-button" onClick={() => choose(false)}>Essential only</button>
    </div>
  );
}

mountIsland("CookieConsent", CookieConsent);
