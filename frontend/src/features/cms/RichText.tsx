/**
 * The content pages' editor: the kit's rich-text editor (TipTap, loaded lazily), with the HTML
 * source on demand for staff who paste a page. The server sanitizes what is saved
 * (apps/cms/sanitize.py); the preview runs in a sandboxed frame, so nothing typed here can run
 * script on the page.
 */
import { useId, useState } from "react";
import { LazyRichTextEditor } from "../../shared/ui/LazyRichTextEditor";

export function RichText({ label, value, onChange }: { label: string; value: string; onChange: (html: string) => void }) {
  const id = useId();
  const [source, setSource] = useState(false);
  return (
    <div>
      <div className="people-toolbar">
        <button type="button" className="button button--ghost" aria-pressed={source} onClick={() => setSource((shown) => !shown)}>
          {source ? "Visual editor" : "HTML source"}
        </button>
      </div>
      {source ? (
        <div className="form-field">
          <label className="form-field__label" htmlFor={id}>
            {label}
          </label>
          <textarea id={id} className="form-field__input people-editor" value={value} onChange={(event) => onChange(event.currentTarget.value)} />
        </div>
      ) : (
        <LazyRichTextEditor label={label} value={value} onChange={onChange} />
      )}
    </div>
  );
}

/**
 * The draft as it will look, in a frame that runs no script, submits no form and opens no window.
 * It keeps the page's origin (`allow-same-origin` without `allow-scripts` grants the draft nothing:
 * nothing in it can run), so Chromium draws it in the page's own renderer process instead of
 * starting a process for every keystroke.
 */
export function Preview({ html, title }: { html: string; title: string }) {
  const doc = `<!doctype html><html><head><meta charset="utf-8"><style>body{font-family:system-ui,sans-serif;line-height:1.5;padding:8px;color:#111}</style></head><body>${html}</body></html>`;
  return <iframe className="people-viewer" title={title} sandbox="allow-same-origin" srcDoc={doc} />;
}
