/** /view-user/{id}: an account as the viewer may see it; a deleted one says so (spec 8). */
import { useState } from "react";
import { ApiError } from "../../shared/api/client";
import { formatDate } from "../../shared/format";
import { Badge } from "../../shared/ui/Badge";
import { ConfirmDialog } from "../../shared/ui/ConfirmDialog";
import "../../shared/ui/css/dashboard.css";
import { Spinner } from "../../shared/ui/Spinner";
import { toast } from "../../shared/ui/toast";
import "../account/people.css";
import { Avatar, ReadMore } from "../account/Avatar";
import { BIO_MAX, displayName, documentName, roleLabel, type UserDetail, verificationDocs } from "../account/people";
import { ProfileDetails, verificationWord } from "../account/ProfilePage";
import { isWholeAccount, useAccount } from "../account/queries";
import { changeStatus } from "./actions";
import { CHANGE_WORDS, type Change, type Kind } from "./kinds";

/** A host changes its own subHost through the sub-host API; everyone else the server allows (staff)
 * through update-status, whatever the account's role. */
function changeRoute(user: UserDetail, viewerId: string): Kind {
  return user.host === viewerId ? "subHosts" : "hosts";
}

export function ViewUserPage({ id, userId }: { id: string; userId: string }) {
  const { data, isPending, error } = useAccount(id, { silent: true });
  const [pending, setPending] = useState<Change | null>(null);
  const [busy, setBusy] = useState(false);
  if (isPending) {
    return (
      <div className="dash-loading">
        <Spinner size="large" />
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
  const user = data.user;
  /** The whole account (staff, a host's own subHost), else the public profile. */
  const whole = isWholeAccount(user) ? user : null;
  const full = Boolean(whole?.email);
  const docs = verificationDocs(whole?.verificationDocs);
  const changes = (["suspend", "restore", "delete"] as Change[]).filter((change) => whole?.can[change]);
  const confirm = async () => {
    if (!pending || !whole) return;
    setBusy(true);
    try {
      toast.success(await changeStatus(changeRoute(whole, userId), whole._id, pending));
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
              {whole?.status && (
                <>
                  {" "}
                  <Badge status={whole.status} />
                </>
              )}
            </p>
            {whole?.verifiesIdentity && (
              <p data-testid="verification-status">
                Identity: <Badge status={verificationWord(whole)} />
              </p>
            )}
            {whole?.publicPage && (
              <p>
                <a href={whole.publicPage}>Public host page</a>
              </p>
            )}
            {full && whole?.createdAt && <p className="muted">Joined {formatDate(whole.createdAt)}</p>}
          </div>
        </div>
        {user.bio && <ReadMore text={user.bio} max={BIO_MAX} />}
        {full && whole ? (
          <ProfileDetails user={whole} />
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
