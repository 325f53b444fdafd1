/** Reads and writes of one's own account, through the typed client and TanStack Query. */
import { useQuery } from "@tanstack/react-query";
import { api, ApiError, call, type Schemas } from "../../shared/api/client";
import { apiKey, invalidate } from "../../shared/api/query";
import type { UserDetail } from "./people";

/** An account as the viewer may see it: the whole account, or another user's public profile. */
export type ViewedUser = Schemas["ViewedUser"];

/** The server sent the whole account (staff, the account itself, a host's own subHost). */
export function isWholeAccount(user: ViewedUser): user is ViewedUser & UserDetail & { view: "full" } {
  return "email" in user; // the schema's discriminator says the same: `view` is "full" exactly then
}

export const VIEW_USER = "/api/user/view-user/{user_id}";

export function accountKey(userId: string) {
  return apiKey(`/api/user/view-user/${userId}`);
}

async function viewUser(userId: string, silent?: boolean): Promise<{ user: ViewedUser; message: string }> {
  const answer = await call(api.GET(VIEW_USER, { params: { path: { user_id: userId } } }), { silent });
  return { user: answer.data, message: answer.message };
}

/** The account of `userId` as the viewer may see it (staff and the owner: everything, others the public profile). */
export function useAccount(userId: string, options: { silent?: boolean } = {}) {
  return useQuery({ queryKey: accountKey(userId), queryFn: () => viewUser(userId, options.silent) });
}

/** The whole account of `userId`, for pages that edit or show all of it (one's own, or staff's). */
export function useWholeAccount(userId: string, options: { silent?: boolean } = {}) {
  return useQuery({
    queryKey: accountKey(userId),
    queryFn: async () => {
      const { user, message } = await viewUser(userId, options.silent);
      if (!isWholeAccount(user)) throw new ApiError("User not found.", 404, null);
      return { user, message };
    },
  });
}

export function refreshAccount(userId: string): Promise<void> {
  return invalidate([`/api/user/view-user/${userId}`, "/api/user/verification"]);
}
