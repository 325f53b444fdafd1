/**
 * The one way files go to the server: a multipart form through `call`, like every other request (the
 * session cookie, the CSRF header, the server's sentence as a toast, the session ended on 401/403).
 * Where a screen shows a progress bar, `onProgress` gets 0 to 100 and the form goes through
 * XMLHttpRequest, because fetch reports no upload progress.
 */
import { call, type CallOptions, csrfToken, type Result } from "./client";

export interface UploadOptions extends CallOptions {
  method?: "POST" | "PUT";
  /** The share sent so far, 0 to 100, for a progress bar. */
  onProgress?: (percent: number) => void;
}

/** Send `form` to `path`; `T` is the answer's generated type (`Schemas["MediaUploadResponse"]`). */
export function upload<T>(path: string, form: FormData, { method = "POST", onProgress, ...options }: UploadOptions = {}): Promise<T> {
  return call<T>(onProgress ? sendWithProgress<T>(method, path, form, onProgress) : send<T>(method, path, form), options);
}

function headers(): Record<string, string> {
  const token = csrfToken();
  return { Accept: "application/json", ...(token ? { "X-CSRFToken": token } : {}) };
}

function answer<T>(body: unknown, response: Response): Result<T> {
  // The body is the API's envelope; `T` names its generated type.
  return response.ok ? { data: body as T, response } : { error: body, response };
}

async function send<T>(method: string, path: string, form: FormData): Promise<Result<T>> {
  const response = await fetch(path, { method, credentials: "same-origin", headers: headers(), body: form });
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  return answer<T>(body, response);
}

function sendWithProgress<T>(method: string, path: string, form: FormData, onProgress: (percent: number) => void): Promise<Result<T>> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open(method, path);
    request.withCredentials = true;
    for (const [name, value] of Object.entries(headers())) request.setRequestHeader(name, value);
    request.upload.addEventListener("progress", (event) => {
      if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100));
    });
    request.addEventListener("load", () => {
      if (request.status < 200 || request.status > 599) {
        reject(new Error("The upload was not answered."));
        return;
      }
      let body: unknown = null;
      try {
        body = JSON.parse(request.responseText);
      } catch {
        body = null;
      }
      resolve(answer<T>(body, new Response(null, { status: request.status })));
    });
    request.addEventListener("error", () => reject(new Error("The upload could not be sent.")));
    request.send(form);
  });
}
