/** /view-user/{id}: an account as the viewer may see it; a deleted one says so (spec 8). */
import { useState } from "react";
import { ApiError } from "../../shared/api/client";
import { formatDate } from "../../shared/format";
import { Badge } from "../../shared/ui/Badge";
import { ConfirmDialog } from "../../shared/ui/ConfirmDialog";
import "../../shared/ui/css/dashboard.css";
import { toast } from "../../shared/ui/toast";
import "../account/people.css";
import { Avatar, ReadMore } from "../account/Avatar";
import { BIO_MAX, displayName, documentName, roleLabel, type UserDetail, verificationDocs } from "../account/people";
import { ProfileDetails, verificationWord } from "../account/ProfilePage";
import { useAccount } from "../account/queries";
import { changeStatus } from "./actions";
import { CHANGE_WORDS, type Change, type Kind, type UserCan } from "./kinds";

type Viewed = UserDetail & { can?: UserCan; status?: string };

/** A host changes its own subHost through the sub-host API; everyone else the server allows (staff)
 * through update-status, whatever the account's role. */
function changeRoute(user: Viewed, viewerId: string): Kind {
  return user.host === viewerId ? "subHosts" : "hosts";
}

export function ViewUserPage({ id, userId }: { id: string; userId: string }) {
  const { data, isPending, error } = useAccount(id, { silent: true });
  const [pending, setPending] = useState<Change | null>(null);
  const [busy, setBusy] = useState(false);
  if (isPending) {
    return (
      <div className="dash-loading" role="status">
        <span className="dash-spinner" aria-hidden="true" />
        <span className="visually-hidden">Loading</span>
      </div>
    );
  }
  if (error || !data) {
    const message = error instanceof ApiError ? error.message : "User not found.";
    return (
      <section className="dash-card people-card">
        <h1>User</h1>
        <p role="alert" data-testid="view-user-error">
          {message}
        </p>
        <p>
          <a href="/dashboard">Back to the dashboard</a>
        </p>
      </section>
    );
  }
  const user = data.user as Viewed;
  const full = "email" in user && Boolean(user.email);
  const docs = verificationDocs(user.verificationDocs);
  const can = user.can ?? {};
  const changes = (["suspend", "restore", "delete"] as Change[]).filter((change) => can[change]);
  const confirm = async () => {
    if (!pending) return;
    setBusy(true);
    try {
      toast.success(await changeStatus(changeRoute(user, userId), user._id, pending));
    } catch {
      /* shown */
    } finally {
      setBusy(false);
      setPending(null);
    }
  };
  return (
    <>
      <div className="dash-title">
        <h1>{displayName(user) || "User"}</h1>
        <div className="people-actions">
          {changes.map((change) => (
            <button key={change} type="button" className={`button${change === "delete" ? " button--danger" : " button--ghost"}`} onClick={() => setPending(change)}>
              {CHANGE_WORDS[change].verb}
            </button>
          ))}
        </div>
      </div>
      {data.message && (
        <p className="dash-card" role="status" data-testid="view-user-message">
          {data.message}
        </p>
      )}
      <section className="dash-card people-card" aria-label="Account">
        <div className="people-head">
          <Avatar src={user.avatar} />
          <div>
            <p>
              {roleLabel(user.role)}
              {user.userName && ` · @${user.userName}`}
              {user.status && (
                <>
                  {" "}
                  <Badge status={user.status} />
                </>
              )}
            </p>
            {user.verifiesIdentity && (
              <p data-testid="verification-status">
                Identity: <Badge status={verificationWord(user)} />
              </p>
            )}
            {user.publicPage && (
              <p>
                <a href={user.publicPage}>Public host page</a>
              </p>
            )}
            {full && user.createdAt && <p className="muted">Joined {formatDate(user.createdAt)}</p>}
          </div>
        </div>
        {user.bio && <ReadMore text={user.bio} max={BIO_MAX} />}
        {full ? (
          <ProfileDetails user={user} />
        ) : (
          <p className="muted">{[user.city, user.country].filter(Boolean).join(", ")}</p>
        )}
      </section>
      {full && docs.length > 0 && (
        <section className="dash-card people-card" aria-labelledby="docs-title">
          <h2 id="docs-title">Identity documents</h2>
          <ul className="people-docs__list">
            {docs.map((doc) => (
              <li key={doc._id}>
                <a href={doc.url} target="_blank" rel="noopener noreferrer" title={doc.name}>
                  {documentName(doc.name)}
                </a>
                <span className="muted"> {formatDate(doc.createdAt)}</span>
              </li>
            ))}
          </ul>
        </section>
      )}
      {pending && (
        <ConfirmDialog
          title={CHANGE_WORDS[pending].title}
          message={`${CHANGE_WORDS[pending].verb} ${displayName(user)}? ${CHANGE_WORDS[pending].confirm}`}
          confirmLabel={CHANGE_WORDS[pending].verb}
          busy={busy}
          onConfirm={() => void confirm()}
          onCancel={() => setPending(null)}
        />
      )}
    </>
  );
}
