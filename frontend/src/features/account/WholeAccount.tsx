/** One's whole account, loaded for a page: a spinner while it loads, a sentence when it cannot be. */
import type { ReactNode } from "react";
import "../../shared/ui/css/dashboard.css";
import { Spinner } from "../../shared/ui/Spinner";
import { useWholeAccount } from "./queries";

export type WholeAccountUser = NonNullable<ReturnType<typeof useWholeAccount>["data"]>["user"];

/** Render `children` with the whole account of `userId` once it is loaded. */
export function WithWholeAccount({ userId, children }: { userId: string; children: (user: WholeAccountUser) => ReactNode }) {
  const { data, isPending, isError } = useWholeAccount(userId);
  if (isPending) {
    return (
      <div className="dash-loading">
        <Spinner size="large" />
      </div>
    );
  }
  if (isError || !data) return <p className="dash-card">We could not load your profile.</p>;
  return children(data.user);
}
