/** A host's identity documents on its profile: upload more, open, delete (spec 8: "Document deleted successfully."). */
import { useRef, useState } from "react";
import { api, call, type Schemas } from "../../shared/api/client";
import { upload } from "../../shared/api/upload";
import { formatDate } from "../../shared/format";
import { ConfirmDialog } from "../../shared/ui/ConfirmDialog";
import { toast } from "../../shared/ui/toast";
import { documentName, serverErrors, type VerificationDoc } from "./people";
import { refreshAccount } from "./queries";

const ACCEPT = "application/pdf,image/jpeg,image/png,image/webp";
const MAX_BYTES = 10 * 1024 * 1024;

export function VerificationDocs({ userId, docs, canUpload }: { userId: string; docs: readonly VerificationDoc[]; canUpload: boolean }) {
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const [deleting, setDeleting] = useState<VerificationDoc | null>(null);

  const addDocuments = async (files: FileList | null) => {
    if (!files?.length) return;
    const tooBig = Array.from(files).find((file) => file.size > MAX_BYTES);
    if (tooBig) {
      setError(`${tooBig.name} is larger than 10 MB.`);
      return;
    }
    const form = new FormData();
    Array.from(files).forEach((file) => form.append("files", file));
    setBusy(true);
    setError("");
    try {
      const answer = await upload<Schemas["VerificationDocsUploadResponse"]>("/api/user/verification-docs", form, { silent: true });
      toast.success(answer.message || "Documents uploaded.");
      await refreshAccount(userId);
    } catch (failure) {
      const message = serverErrors(failure).files ?? (failure as Error).message;
      setError(message);
      toast.error(message);
    } finally {
      setBusy(false);
      if (input.current) input.current.value = "";
    }
  };

  const remove = async () => {
    if (!deleting) return;
    setBusy(true);
    try {
      await call(api.POST("/api/media/delete", { body: { fileName: deleting.fileName, type: "verificationDoc", userId } }));
      toast.success("Document deleted successfully.");
      setDeleting(null);
      await refreshAccount(userId);
    } catch {
      setDeleting(null);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="people-docs">
      {docs.length === 0 ? (
        <p className="muted">No documents uploaded yet.</p>
      ) : (
        <ul className="people-docs__list">
          {docs.map((doc) => (
            <li key={doc._id}>
              <a href={doc.url} target="_blank" rel="noopener noreferrer" title={doc.name}>
                {documentName(doc.name)}
              </a>
              <span className="muted"> {formatDate(doc.createdAt)}</span>
              {canUpload && (
                <button type="button" className="link-button people-danger" onClick={() => setDeleting(doc)} aria-label={`Delete ${doc.name}`}>
                  Delete
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {canUpload && (
        <div className="people-docs__upload">
          <label className="button button--ghost" htmlFor="verification-files">
            {busy ? "Uploading…" : "Upload identity documents"}
          </label>
          <input
            ref={input}
            id="verification-files"
            className="visually-hidden"
            type="file"
            accept={ACCEPT}
            multiple
            disabled={busy}
            onChange={(event) => void addDocuments(event.currentTarget.files)}
          />
          <p className="form-field__hint">PDF, JPEG, PNG or WebP, at most 10 MB each.</p>
          {error && (
            <p className="form-field__error" role="alert">
              {error}
            </p>
          )}
        </div>
      )}
      {deleting && (
        <ConfirmDialog
          title="Delete document"
          message={`Delete ${deleting.name.length > 40 ? `${deleting.name.slice(0, 40)}...` : deleting.name}?`}
          confirmLabel="Delete"
          busy={busy}
          onConfirm={() => void remove()}
          onCancel={() => setDeleting(null)}
        />
      )}
    </div>
  );
}
