import { createContext, use } from "react";

/** The id of the authentication modal's heading (from useId), which each step's heading carries. */
export const AuthHeadingId = createContext("auth-heading");

export function useAuthHeadingId(): string {
  return use(AuthHeadingId);
}
