/** The DashboardUsers island: lists, invitation forms and one account, by the page's props. */
import { AddUserPage } from "./AddUserPage";
import { UsersPage } from "./UsersPage";
import { ViewUserPage } from "./ViewUserPage";
import type { IslandProps } from "../../shared/ui/mountIsland";

type PageProps = IslandProps<"DashboardUsers">;
export type UsersProps = Pick<PageProps, "role" | "userId" | "view"> & Partial<Pick<PageProps, "kind" | "id">>;

export function UsersScreen({ userId, view, kind = "hosts", id = "" }: UsersProps) {
  if (view === "user") return <ViewUserPage id={id} userId={userId} />;
  if (view === "add" && kind !== "renters") return <AddUserPage kind={kind} />;
  return <UsersPage kind={kind} />;
}
