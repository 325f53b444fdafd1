/** Test helpers: render inside a fresh query client (no retries), and answer API calls from a table. */
import { QueryClientProvider } from "@tanstack/react-query";
import { render, type RenderResult } from "@testing-library/react";
import type { ReactElement } from "react";
import { vi } from "vitest";
import { createQueryClient } from "../api/query";

export function renderWithQuery(ui: ReactElement): RenderResult {
  const client = createQueryClient();
  client.setDefaultOptions({ queries: { retry: false, staleTime: Infinity }, mutations: { retry: false } });
  return render(<QueryClientProvider client={client}>{ui}</QueryClientProvider>);
}

/** The path and method of a fetch call, whether it got a URL string or a Request. */
export function requestOf(input: unknown, init?: RequestInit): { path: string; method: string; url: URL; request: Request | null } {
  const request = input instanceof Request ? input : null;
  const url = new URL(request ? request.url : String(input), window.location.origin);
  return { path: url.pathname, method: (request?.method ?? init?.method ?? "GET").toUpperCase(), url, request };
}

export type Answer = { status?: number; body: unknown } | ((url: URL, request: Request | null) => { status?: number; body: unknown });

/**
 * Replace fetch: `answers["GET /api/payout/balance"]` (or by path alone) gives the JSON to answer;
 * anything else answers 404. Returns the mock to inspect the calls.
 */
export function mockApi(answers: Record<string, Answer>) {
  const fetch = vi.fn(async (input: unknown, init?: RequestInit) => {
    const { path, method, url, request } = requestOf(input, init);
    const answer = answers[`${method} ${path}`] ?? answers[path];
    if (!answer) return new Response(JSON.stringify({ message: "Not found." }), { status: 404, headers: { "Content-Type": "application/json" } });
    const { status = 200, body } = typeof answer === "function" ? answer(url, request) : answer;
    return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
  });
  vi.stubGlobal("fetch", fetch);
  return fetch;
}
