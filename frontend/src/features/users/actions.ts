/** Writes on an account from the back office: suspend, restore, delete, resend the invitation. */
import { api, call } from "../../shared/api/client";
import { invalidate } from "../../shared/api/query";
import { CHANGE_STATUS, type Change, type Kind } from "./kinds";

/** A host changes its own sub-hosts through the sub-host API; staff use update-status. */
export async function changeStatus(kind: Kind, userId: string, change: Change): Promise<string> {
  let message: string;
  if (kind === "subHosts") {
    if (change === "delete") {
      message = (await call(api.DELETE("/api/user/sub-hosts/{user_id}", { params: { path: { user_id: userId } } }))).message;
    } else {
      message = (
        await call(
          api.PUT("/api/user/sub-hosts/{user_id}", { params: { path: { user_id: userId } }, body: { isActive: change === "restore" } }),
        )
      ).message;
    }
  } else {
    message = (
      await call(
        api.PATCH("/api/user/update-status/{user_id}", { params: { path: { user_id: userId } }, body: { status: CHANGE_STATUS[change] } }),
      )
    ).message;
  }
  await invalidate(["/api/user/"]);
  return message;
}

export async function resendInvitation(userId: string): Promise<string> {
  const answer = await call(api.POST("/api/user/resend-invitation/{user_id}", { params: { path: { user_id: userId } } }));
  return answer.message;
}
