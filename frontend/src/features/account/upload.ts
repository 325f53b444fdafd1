import { call, csrfToken } from "../../shared/api/client";

/** A multipart write (avatar, identity documents) through the shared `call`: CSRF, toasts, 401/403. */
export function sendForm<T>(method: "POST" | "PUT", path: string, form: FormData, options: { silent?: boolean } = {}): Promise<T> {
  const token = csrfToken();
  const pending = (async () => {
    const response = await fetch(path, {
      method,
      credentials: "same-origin",
      headers: { Accept: "application/json", ...(token ? { "X-CSRFToken": token } : {}) },
      body: form,
    });
    let body: unknown = null;
    try {
      body = await response.json();
    } catch {
      body = null;
    }
    return response.ok ? { data: body as T, response } : { error: body, response };
  })();
  return call<T>(pending, options);
}
