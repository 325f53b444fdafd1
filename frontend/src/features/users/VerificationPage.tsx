/**
 * /verificationRequest (admin, moderator): the queue of identity checks. Each request opens its
 * documents in a safe viewer (images as images, PDFs in a frame whose answer the server sandboxes), and is
 * approved, or rejected with a reason; the history (who, when, decision, reason) stays in the list.
 */
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { api, call, type Schemas } from "../../shared/api/client";
import { apiKey, invalidate } from "../../shared/api/query";
import { formatDate, truncate } from "../../shared/format";
import { Badge } from "../../shared/ui/Badge";
import { ConfirmDialog } from "../../shared/ui/ConfirmDialog";
import "../../shared/ui/css/dashboard.css";
import { Dialog } from "../../shared/ui/Dialog";
import { PeopleTable, usePeopleList } from "./PeopleTable";
import { toast } from "../../shared/ui/toast";
import "../account/people.css";
import { countersChanged } from "../notifications/counters";
import { displayName, documentName, type VerificationDoc } from "../account/people";

export type VerificationRow = Schemas["VerificationRequest"];

const PATH = "/api/user/verification-requests";
const TABS = [
  { value: "pending", label: "Pending" },
  { value: "approved", label: "Approved" },
  { value: "rejected", label: "Rejected" },
  { value: "all", label: "All" },
];

/** How a document is shown inside the page: images as <img>, PDFs in a frame, anything else as a link. */
export function viewerKind(doc: VerificationDoc): "image" | "pdf" | "link" {
  if (doc.contentType.startsWith("image/")) return "image";
  if (doc.contentType === "application/pdf") return "pdf";
  return "link";
}

export function DocumentViewer({ doc }: { doc: VerificationDoc }) {
  const kind = viewerKind(doc);
  return (
    <figure className="people-card" data-testid="document-viewer">
      {kind === "image" && <img className="people-viewer-image" src={doc.url} alt={`Identity document ${doc.name}`} />}
      {/* The file's own answer is sandboxed (CSP sandbox, no script); a sandbox attribute here would stop Chromium's PDF viewer. */}
      {kind === "pdf" && <iframe className="people-viewer" src={doc.url} title={`Identity document ${doc.name}`} />}
      <figcaption>
        {doc.name}{" "}
        <a href={doc.url} target="_blank" rel="noopener noreferrer">
          Open in a new tab
        </a>
      </figcaption>
    </figure>
  );
}

function Review({ row, onClose }: { row: VerificationRow; onClose: () => void }) {
  const [shown, setShown] = useState<VerificationDoc | null>(row.verificationDocs[0] ?? null);
  const [rejecting, setRejecting] = useState(false);
  const [approving, setApproving] = useState(false);
  const [reason, setReason] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");

  const decide = async (status: "approved" | "rejected") => {
    setBusy(true);
    setError("");
    try {
      const answer = await call(
        api.PATCH("/api/user/verification-requests/update-status/{request_id}", {
          params: { path: { request_id: row._id } },
          body: { status, reason: status === "rejected" ? reason.trim() : "" },
        }),
        { silent: true },
      );
      toast.success(answer.message);
      await invalidate([PATH, "/api/dashboard/pending-counter", "/api/user/view-user"]);
      countersChanged();
      onClose();
    } catch (failure) {
      const message = (failure as Error).message;
      setError(message);
      toast.error(message);
      setApproving(false);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog title={`Verification of ${displayName(row.user)}`} onClose={onClose} size="wide">
      <p>
        {row.user.email} · requested {formatDate(row.createdAt)} · <Badge status={row.status} />
      </p>
      {row.rejectReason && <p>Reason: {row.rejectReason}</p>}
      {row.verificationDocs.length === 0 ? (
        <p>No documents: the host deleted them.</p>
      ) : (
        <ul className="people-links" aria-label="Documents">
          {row.verificationDocs.map((doc) => (
            <li key={doc._id}>
              <button type="button" className="link-button" aria-pressed={shown?._id === doc._id} onClick={() => setShown(doc)} title={doc.name}>
                {documentName(doc.name)}
              </button>
            </li>
          ))}
        </ul>
      )}
      {shown && <DocumentViewer doc={shown} />}
      {rejecting && (
        <div className="form-field">
          <label className="form-field__label" htmlFor="reject-reason">
            Reason
          </label>
          <textarea
            id="reject-reason"
            className="form-field__input"
            rows={3}
            maxLength={500}
            value={reason}
            onChange={(event) => setReason(event.currentTarget.value)}
          />
        </div>
      )}
      {error && (
        <p className="form-field__error" role="alert">
          {error}
        </p>
      )}
      <div className="confirm-dialog__actions">
        {row.can.reject &&
          (rejecting ? (
            <button type="button" className="button button--danger" disabled={!reason.trim() || busy} onClick={() => void decide("rejected")}>
              Submit rejection
            </button>
          ) : (
            <button type="button" className="button button--ghost" onClick={() => setRejecting(true)}>
              Reject
            </button>
          ))}
        {row.can.approve && !rejecting && (
          <button type="button" className="button" disabled={busy} onClick={() => setApproving(true)}>
            Approve
          </button>
        )}
      </div>
      {approving && (
        <ConfirmDialog
          title="Approve verification"
          message={`Mark ${displayName(row.user)} as a verified host?`}
          confirmLabel="Approve"
          busy={busy}
          onConfirm={() => void decide("approved")}
          onCancel={() => setApproving(false)}
        />
      )}
    </Dialog>
  );
}

export function VerificationPage() {
  const list = usePeopleList("pending", "verificationRequests");
  const { params } = list;
  const [open, setOpen] = useState<VerificationRow | null>(null);
  const { data, isPending } = useQuery({
    queryKey: apiKey(PATH, params),
    queryFn: async () => (await call(api.GET(PATH, { params: { query: params } }))).data,
  });
  const rows = data?.verificationRequests ?? [];
  return (
    <>
      <div className="dash-title">
        <h1>Verification Requests</h1>
      </div>
      <PeopleTable<VerificationRow>
        list={list}
        caption={`Requests (${data?.totalCount ?? 0})`}
        tabs={TABS}
        rows={rows}
        loading={isPending}
        totalPages={data?.totalPages}
        columns={[
          {
            key: "host",
            header: "Host",
            render: (row) => (
              <a href={`/view-user/${row.user._id}`} title={displayName(row.user)}>
                {truncate(displayName(row.user), 20)}
              </a>
            ),
          },
          { key: "email", header: "Email", render: (row) => <span title={row.user.email}>{truncate(row.user.email, 20)}</span> },
          { key: "requested", header: "Requested", render: (row) => formatDate(row.createdAt) },
          { key: "documents", header: "Documents", render: (row) => row.verificationDocs.length },
          { key: "status", header: "Status", render: (row) => <Badge status={row.status} /> },
          {
            key: "decided",
            header: "Decided",
            render: (row) =>
              row.decidedAt ? `${formatDate(row.decidedAt)} by ${row.decidedBy ? displayName(row.decidedBy) : "staff"}${row.rejectReason ? `: ${row.rejectReason}` : ""}` : "",
          },
        ]}
        actions={[{ label: "Review", onClick: (row) => setOpen(row) }]}
      />
      {open && <Review row={open} onClose={() => setOpen(null)} />}
    </>
  );
}
