/**
 * Browser push (spec 4.1): after login, ask for notification permission while the browser has not
 * decided; on grant, subscribe with the server's VAPID key and save the subscription on the user
 * (POST /api/notifications/push/subscribe). A refusal shows "Notification permission denied";
 * other failures (no service worker, no push service) are silent.
 */
import { api, call } from "../../shared/api/client";
import { ASK_PUSH_KEY } from "../../shared/api/session";
import { toast } from "../../shared/ui/toast";

export const PERMISSION_DENIED = "Notification permission denied";

export function urlBase64ToUint8Array(base64: string): Uint8Array<ArrayBuffer> {
  const padding = "=".repeat((4 - (base64.length % 4)) % 4);
  const raw = window.atob((base64 + padding).replace(/-/g, "+").replace(/_/g, "/"));
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let index = 0; index < raw.length; index += 1) bytes[index] = raw.charCodeAt(index);
  return bytes;
}

function supported(): boolean {
  return typeof window !== "undefined" && "Notification" in window && "serviceWorker" in navigator && "PushManager" in window;
}

async function subscribe(): Promise<void> {
  const registration = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
  await navigator.serviceWorker.ready;
  const key = await call(api.GET("/api/notifications/push/public-key"), { silent: true });
  const subscription =
    (await registration.pushManager.getSubscription()) ??
    (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: urlBase64ToUint8Array(key.data.publicKey) }));
  const json = subscription.toJSON();
  await call(
    api.POST("/api/notifications/push/subscribe", { body: { endpoint: json.endpoint ?? "", keys: { p256dh: json.keys?.p256dh ?? "", auth: json.keys?.auth ?? "" } } }),
    { silent: true },
  );
}

/** Ask once after login; keep the browser's subscription saved when already granted. */
export async function setUpPush(): Promise<void> {
  if (!supported()) return;
  try {
    if (!window.sessionStorage.getItem(ASK_PUSH_KEY)) return;
    window.sessionStorage.removeItem(ASK_PUSH_KEY);
    if (Notification.permission === "denied") return;
    const answer = Notification.permission === "granted" ? "granted" : await Notification.requestPermission();
    if (answer === "granted") await subscribe();
    else if (answer === "denied") toast.error(PERMISSION_DENIED);
  } catch {
    /* other failures are ignored (spec 8) */
  }
}
