/** The DashboardUsers island: lists, invitation forms and one account, by the page's props. */
import { AddUserPage } from "./AddUserPage";
import type { Kind } from "./kinds";
import { UsersPage } from "./UsersPage";
import { ViewUserPage } from "./ViewUserPage";

export interface UsersProps {
  role: string;
  userId: string;
  view: "list" | "add" | "user";
  kind?: Kind;
  id?: string;
}

export function UsersScreen({ userId, view, kind = "hosts", id = "" }: UsersProps) {
  if (view === "user") return <ViewUserPage id={id} userId={userId} />;
  if (view === "add" && kind !== "renters") return <AddUserPage kind={kind} />;
  return <UsersPage kind={kind} />;
}
