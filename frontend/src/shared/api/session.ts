/**
 * The browser's view of who is signed in. The server's session cookie (HttpOnly) is the truth;
 * the islands keep only the public part of the user (id, role, e-mail) under one root key.
 * Tokens never go to storage.
 */
import type { components } from "./schema";

export const ROOT_KEY = "spacemarket";

/** The part of the signed-in user (the login answer's `user`) the islands keep. */
export type SessionUser = Pick<components["schemas"]["User"], "_id" | "role"> & Partial<Pick<components["schemas"]["User"], "email">>;

interface StoredState {
  auth?: { userInfo: SessionUser | null; isLoggedIn: boolean };
}

function read(): StoredState {
  try {
    return JSON.parse(window.localStorage.getItem(ROOT_KEY) ?? "{}") as StoredState;
  } catch {
    return {};
  }
}

function write(state: StoredState): void {
  try {
    window.localStorage.setItem(ROOT_KEY, JSON.stringify(state));
  } catch {
    /* storage full or blocked: the server session still works */
  }
}

export function storedUser(): SessionUser | null {
  return read().auth?.userInfo ?? null;
}

/** Set at login: the next dashboard page asks for push permission once (spec 4.1). */
export const ASK_PUSH_KEY = "spacemarket:askPush";

export function rememberSignedIn(user: SessionUser): void {
  write({ ...read(), auth: { userInfo: { _id: user._id, role: user.role, email: user.email }, isLoggedIn: true } });
  try {
    window.sessionStorage.setItem(ASK_PUSH_KEY, "1");
  } catch {
    /* no prompt */
  }
}

/** Forget the user, token and flags kept in the browser (logout, or a 401/403 answer). */
export function clearStoredSession(): void {
  try {
    window.localStorage.removeItem(ROOT_KEY);
  } catch {
    /* nothing stored */
  }
}
