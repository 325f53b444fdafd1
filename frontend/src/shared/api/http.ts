/**
 * Calls to API paths that are not in the generated schema yet (or answer loosely typed data),
 * through the shared client's `call`: same cookie, CSRF header, toasts and 401/403 handling.
 */
import { call, type CallOptions, csrfToken } from "./client";

export interface Envelope<T> {
  message?: string;
  data: T;
}

type Query = Record<string, string | number | boolean | undefined | null>;

export function withQuery(path: string, query?: Query): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== "") params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `${path}${path.includes("?") ? "&" : "?"}${text}` : path;
}

export async function request<T>(
  method: string,
  path: string,
  options: CallOptions & { query?: Query; body?: unknown; signal?: AbortSignal } = {},
): Promise<Envelope<T>> {
  const { query, body, signal, ...callOptions } = options;
  const headers: Record<string, string> = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (method !== "GET") {
    const token = csrfToken();
    if (token) headers["X-CSRFToken"] = token;
  }
  const pending = (async () => {
    const response = await fetch(withQuery(path, query), {
      method,
      credentials: "same-origin",
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
    let parsed: unknown = null;
    try {
      parsed = await response.json();
    } catch {
      parsed = null;
    }
    return response.ok ? { data: parsed as Envelope<T>, response } : { error: parsed, response };
  })();
  return call<Envelope<T>>(pending, callOptions);
}

export const http = {
  get: <T>(path: string, options?: Parameters<typeof request>[2]) => request<T>("GET", path, options),
  post: <T>(path: string, body?: unknown, options?: Parameters<typeof request>[2]) =>
    request<T>("POST", path, { ...options, body: body ?? {} }),
  put: <T>(path: string, body?: unknown, options?: Parameters<typeof request>[2]) =>
    request<T>("PUT", path, { ...options, body: body ?? {} }),
  patch: <T>(path: string, body?: unknown, options?: Parameters<typeof request>[2]) =>
    request<T>("PATCH", path, { ...options, body: body ?? {} }),
};

/** Page-size 10 list filters as the API reads them: `filters[name]=value`. */
export function filters(values: Record<string, string | undefined>): Query {
  return Object.fromEntries(
    Object.entries(values)
      .filter(([, value]) => value !== undefined && value !== "")
      .map(([key, value]) => [`filters[${key}]`, value]),
  );
}
