import { startAnalyticsIfAllowed } from "../../features/consent/analytics";
import { CookieConsent } from "../../features/consent/CookieConsent";
import { mountIsland } from "../../shared/ui/mountIsland";

startAnalyticsIfAllowed();
mountIsland("CookieConsent", CookieConsent);
