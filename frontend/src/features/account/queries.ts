/** Reads and writes of one's own account, through the typed client and TanStack Query. */
import { useQuery } from "@tanstack/react-query";
import { api, call } from "../../shared/api/client";
import { apiKey, invalidate } from "../../shared/api/query";
import type { UserDetail } from "./people";

export const VIEW_USER = "/api/user/view-user/{user_id}";

export function accountKey(userId: string) {
  return apiKey(`/api/user/view-user/${userId}`);
}

/** The whole account of `userId` as the viewer may see it (staff and the owner: everything). */
export function useAccount(userId: string, options: { silent?: boolean } = {}) {
  return useQuery({
    queryKey: accountKey(userId),
    queryFn: async () => {
      const answer = await call(api.GET(VIEW_USER, { params: { path: { user_id: userId } } }), { silent: options.silent });
      return { user: answer.data as UserDetail, message: answer.message };
    },
  });
}

export function refreshAccount(userId: string): Promise<void> {
  return invalidate([`/api/user/view-user/${userId}`, "/api/user/verification"]);
}
