/** The live socket of the signed-in area (/ws/notifications/): one per page, shared by the islands. */
type Listener = (data: unknown) => void;

const listeners = new Map<string, Set<Listener>>();
let socket: WebSocket | null = null;
let retry = 1000;

function socketUrl(base: string): string {
  const root = base.endsWith("/") ? base : `${base}/`;
  if (root.startsWith("ws://") || root.startsWith("wss://")) return `${root}notifications/`;
  const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${window.location.host}${root}notifications/`;
}

export function connectLive(base: string): void {
  if (socket || typeof WebSocket === "undefined" || !base) return;
  try {
    socket = new WebSocket(socketUrl(base));
  } catch {
    return;
  }
  socket.addEventListener("open", () => {
    retry = 1000;
  });
  socket.addEventListener("message", (event) => {
    try {
      const message = JSON.parse(String(event.data)) as { event?: string; data?: unknown };
      if (message.event) listeners.get(message.event)?.forEach((listener) => listener(message.data));
    } catch {
      /* not ours */
    }
  });
  socket.addEventListener("close", () => {
    socket = null;
    window.setTimeout(() => connectLive(base), retry);
    retry = Math.min(retry * 2, 30000);
  });
}

export function onLive(event: string, listener: Listener): () => void {
  if (!listeners.has(event)) listeners.set(event, new Set());
  listeners.get(event)!.add(listener);
  return () => listeners.get(event)?.delete(listener);
}
