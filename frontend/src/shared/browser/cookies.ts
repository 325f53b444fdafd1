/** Small helpers for the few cookies the islands read and write. */

export function getCookie(name: string): string | null {
  const prefix = `${name}=`;
  const part = document.cookie.split("; ").find((item) => item.startsWith(prefix));
  if (part === undefined) return null;
  try {
    return decodeURIComponent(part.slice(prefix.length));
  } catch {
    return null;
  }
}

export interface CookieOptions {
  /** Lifetime in days; omitted means a session cookie. */
  days?: number;
  path?: string;
  sameSite?: "Lax" | "Strict";
}

export function setCookie(name: string, value: string, { days, path = "/", sameSite = "Lax" }: CookieOptions = {}): void {
  let cookie = `${name}=${encodeURIComponent(value)}; path=${path}; SameSite=${sameSite}`;
  if (days !== undefined) cookie += `; max-age=${Math.round(days * 24 * 60 * 60)}`;
  if (window.location.protocol === "https:") cookie += "; Secure";
  document.cookie = cookie;
}

export function deleteCookie(name: string, path = "/"): void {
  document.cookie = `${name}=; path=${path}; max-age=0`;
}
