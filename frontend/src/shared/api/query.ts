/**
 * Server state for every island: one TanStack Query client per page (shared by the islands
 * mounted on it, so a websocket event seen by the shell refreshes the page's lists), query keys
 * that start with the API path, and invalidation by path prefix after writes and live events.
 */
import { QueryClient, type QueryKey } from "@tanstack/react-query";
import { ApiError } from "./client";
import { onLive } from "./live";

/** Retry a failed read twice, except when the server said no (4xx): asking again changes nothing. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 2;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry, staleTime: 30_000, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}

let client: QueryClient | null = null;

/** The page's query client (created on first use). */
export function queryClient(): QueryClient {
  client ??= createQueryClient();
  return client;
}

/** The key of a read: its API path, then its parameters (`["/api/booking/get-all", {page: 2}]`). */
export function apiKey(path: string, params?: unknown): QueryKey {
  return params === undefined ? [path] : [path, params];
}

/** True when a query's key starts with one of the path prefixes. */
export function keyMatches(key: QueryKey, prefixes: readonly string[]): boolean {
  const path = key[0];
  return typeof path === "string" && prefixes.some((prefix) => path.startsWith(prefix));
}

/** Mark every query under these API path prefixes stale and refetch the ones on screen. */
export function invalidate(prefixes: readonly string[], target: QueryClient = queryClient()): Promise<void> {
  return target.invalidateQueries({ predicate: (query) => keyMatches(query.queryKey, prefixes) });
}

/** The API paths whose reads a notification of each type (its domain) makes stale. */
export const NOTIFICATION_TYPE_PATHS: Record<string, readonly string[]> = {
  booking: ["/api/booking", "/api/payment", "/api/invoice"],
  payment: ["/api/payment", "/api/invoice", "/api/payout"],
  payout: ["/api/payout"],
  dispute: ["/api/dispute"],
  listing: ["/api/listing"],
  verificationRequest: ["/api/user/verification-requests"],
  subscription: ["/api/subscription", "/api/payment/get-all-host-subscription"],
  message: ["/api/chat"],
};

/** Which reads a live event makes stale (as API path prefixes). */
export function livePrefixes(event: string, data: unknown): string[] {
  switch (event) {
    case "notification": {
      const type = (data as { type?: unknown } | null)?.type;
      const domain = typeof type === "string" ? (NOTIFICATION_TYPE_PATHS[type] ?? []) : [];
      return ["/api/notifications", "/api/dashboard", ...domain];
    }
    case "pendingCounter":
      return ["/api/dashboard/pending-counter", "/api/booking", "/api/listing", "/api/dispute", "/api/payout", "/api/user/verification-requests"];
    case "message":
    case "read":
    case "delivered":
      return ["/api/chat"];
    default:
      return [];
  }
}

const LIVE_EVENTS = ["notification", "pendingCounter", "message", "read", "delivered"] as const;

/** Invalidate the affected queries on every live event; returns the unsubscribe. */
export function invalidateOnLiveEvents(target: QueryClient = queryClient()): () => void {
  const stops = LIVE_EVENTS.map((event) =>
    onLive(event, (data) => {
      const prefixes = livePrefixes(event, data);
      if (prefixes.length) void invalidate(prefixes, target);
    }),
  );
  return () => stops.forEach((stop) => stop());
}
