import { describe, expect, it, vi } from "vitest";
import { ApiError } from "./client";
import { createQueryClient, invalidate, keyMatches, livePrefixes, shouldRetry } from "./query";

describe("server state", () => {
  it("retries network and server errors, never a refusal", () => {
    expect(shouldRetry(0, new ApiError("no", 400, null))).toBe(false);
    expect(shouldRetry(0, new ApiError("gone", 404, null))).toBe(false);
    expect(shouldRetry(0, new ApiError("down", 503, null))).toBe(true);
    expect(shouldRetry(0, new ApiError("offline", 0, null))).toBe(true);
    expect(shouldRetry(2, new ApiError("down", 503, null))).toBe(false);
  });

  it("matches query keys by API path prefix", () => {
    expect(keyMatches(["/api/booking/get-all", { page: 2 }], ["/api/booking"])).toBe(true);
    expect(keyMatches(["/api/payout/get-all"], ["/api/booking"])).toBe(false);
  });

  it("knows which reads a live event makes stale", () => {
    expect(livePrefixes("notification", { type: "booking" })).toEqual(["/api/notifications", "/api/dashboard", "/api/booking", "/api/payment", "/api/invoice"]);
    expect(livePrefixes("notification", { type: "unknown" })).toEqual(["/api/notifications", "/api/dashboard"]);
    expect(livePrefixes("pendingCounter", {})).toContain("/api/booking");
    expect(livePrefixes("typing", {})).toEqual([]);
  });

  it("refetches the queries under a prefix and leaves the others", async () => {
    const client = createQueryClient();
    const bookings = vi.fn(async () => "bookings");
    const payouts = vi.fn(async () => "payouts");
    await client.fetchQuery({ queryKey: ["/api/booking/get-all", { page: 1 }], queryFn: bookings });
    await client.fetchQuery({ queryKey: ["/api/payout/get-all"], queryFn: payouts });
    await invalidate(["/api/booking"], client);
    expect(client.getQueryState(["/api/booking/get-all", { page: 1 }])?.isInvalidated).toBe(true);
    expect(client.getQueryState(["/api/payout/get-all"])?.isInvalidated).toBe(false);
  });
});
