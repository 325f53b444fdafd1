/**
 * The live socket of the signed-in area (/ws/notifications/): one per page, shared by the islands.
 * Each event's data is typed from the server's `LiveEvent<Name>` serializer (apps/dashboard/contracts.py,
 * generated into schema.d.ts), against which the server's tests check every event it sends; each
 * command a page sends is typed from its `LiveCommand<Name>` serializer, with which the server
 * validates it. A field renamed on the server and not here fails `tsc`.
 */
import type { components } from "./schema";

type Schemas = components["schemas"];

/** Every event the server sends, by name, with its data. */
export type LiveEvents = {
  [Key in keyof Schemas as Key extends `LiveEvent${infer Name}` ? Uncapitalize<Name> : never]: Schemas[Key];
};
export type LiveEventName = keyof LiveEvents;

/** Every command a page may send, by name, with its data. */
export type LiveCommands = {
  [Key in keyof Schemas as Key extends `LiveCommand${infer Name}` ? Uncapitalize<Name> : never]: Schemas[Key];
};
export type LiveCommandName = keyof LiveCommands;

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

export function onLive<Event extends LiveEventName>(event: Event, listener: (data: LiveEvents[Event]) => void): () => void {
  // The socket hands every listener the event's data as the server declared it (LiveEvents[Event]).
  const untyped = listener as Listener;
  if (!listeners.has(event)) listeners.set(event, new Set());
  listeners.get(event)!.add(untyped);
  return () => listeners.get(event)?.delete(untyped);
}

/** Send `{"event": name, "data": data}` over the live socket; false when it is not open. */
export function sendLive<Command extends LiveCommandName>(event: Command, data: LiveCommands[Command]): boolean {
  if (!socket || socket.readyState !== WebSocket.OPEN) return false;
  socket.send(JSON.stringify({ event, data }));
  return true;
}
