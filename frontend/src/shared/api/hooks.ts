/**
 * Reads through the one typed client with TanStack Query: `useApiQuery("/api/payout/balance")`
 * is typed from the OpenAPI schema (path, parameters, answer), keyed by its path (so writes and
 * live events invalidate it by prefix), retried on network and server errors only.
 */
import { keepPreviousData, useQuery, type UseQueryResult } from "@tanstack/react-query";
import type { ClientPathsWithMethod, FetchResponse, MaybeOptionalInit } from "openapi-fetch";
import { api, call, type CallOptions } from "./client";
import { apiKey } from "./query";
import type { paths } from "./schema";

export type GetPath = ClientPathsWithMethod<typeof api, "get">;
export type GetInit<P extends GetPath> = MaybeOptionalInit<paths[P], "get">;
/** The JSON a GET answers on success (the envelope `{message, data}`). */
export type GetAnswer<P extends GetPath> = NonNullable<FetchResponse<paths[P]["get"], GetInit<P>, `${string}/${string}`>["data"]>;

/** GET `path` and give back its answer; failures as in `call` (a toast, 401/403 end the session). */
export function getAnswer<P extends GetPath>(path: P, init?: GetInit<P>, options: CallOptions & { signal?: AbortSignal } = {}): Promise<GetAnswer<P>> {
  const { signal, ...callOptions } = options;
  const request = (api.GET as (url: P, init: unknown) => Promise<{ data?: GetAnswer<P>; error?: unknown; response: Response }>)(path, {
    ...(init ?? {}),
    signal,
  });
  return call<GetAnswer<P>>(request, callOptions);
}

export interface ApiQueryOptions<P extends GetPath, T> extends CallOptions {
  /** Pick what the page needs from the answer (`(answer) => answer.data.payouts`). */
  select?: (answer: GetAnswer<P>) => T;
  enabled?: boolean;
  /** Keep showing the previous page while the next one loads (lists). */
  keepPrevious?: boolean;
  retry?: boolean;
}

export function useApiQuery<P extends GetPath, T = GetAnswer<P>>(
  path: P,
  init?: GetInit<P>,
  options: ApiQueryOptions<P, T> = {},
): UseQueryResult<T> {
  const { select, enabled, keepPrevious, retry, ...callOptions } = options;
  return useQuery({
    queryKey: apiKey(path, init),
    queryFn: ({ signal }) => getAnswer(path, init, { ...callOptions, signal }),
    select,
    enabled,
    placeholderData: keepPrevious ? keepPreviousData : undefined,
    ...(retry === false ? { retry: false } : {}),
  });
}
