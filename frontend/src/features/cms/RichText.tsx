/**
 * A small rich-text editor (contentEditable with a toolbar, and the HTML source on demand). The
 * server sanitizes what is saved (apps/cms/sanitize.py); the preview runs in a sandboxed frame,
 * so nothing typed here can run script on the page.
 */
import { useEffect, useRef, useState } from "react";

const COMMANDS: { label: string; command: string; value?: string }[] = [
  { label: "Bold", command: "bold" },
  { label: "Italic", command: "italic" },
  { label: "Heading", command: "formatBlock", value: "h2" },
  { label: "Subheading", command: "formatBlock", value: "h3" },
  { label: "Paragraph", command: "formatBlock", value: "p" },
  { label: "Bulleted list", command: "insertUnorderedList" },
  { label: "Numbered list", command: "insertOrderedList" },
];

export function RichText({ id, label, value, onChange }: { id: string; label: string; value: string; onChange: (html: string) => void }) {
  const editor = useRef<HTMLDivElement>(null);
  const [source, setSource] = useState(false);

  // Load outside values (first load, another page chosen) without moving the caret while typing.
  useEffect(() => {
    if (editor.current && editor.current.innerHTML !== value) editor.current.innerHTML = value;
  }, [value, source]);

  const run = (command: string, commandValue?: string) => {
    editor.current?.focus();
    document.execCommand(command, false, commandValue);
    onChange(editor.current?.innerHTML ?? "");
  };
  const link = () => {
    const url = window.prompt("Link address (https://…)");
    if (url && /^(https?:|mailto:|tel:)/i.test(url)) run("createLink", url);
  };

  return (
    <div className="form-field">
      <span className="form-field__label" id={`${id}-label`}>
        {label}
      </span>
      <div className="people-toolbar" role="toolbar" aria-label={`${label} formatting`}>
        {COMMANDS.map((item) => (
          <button key={item.label} type="button" className="button button--ghost" disabled={source} onMouseDown={(event) => event.preventDefault()} onClick={() => run(item.command, item.value)}>
            {item.label}
          </button>
        ))}
        <button type="button" className="button button--ghost" disabled={source} onMouseDown={(event) => event.preventDefault()} onClick={link}>
          Link
        </button>
        <button type="button" className="button button--ghost" aria-pressed={source} onClick={() => setSource((shown) => !shown)}>
          {source ? "Visual editor" : "HTML source"}
        </button>
      </div>
      {source ? (
        <textarea
          id={id}
          className="form-field__input people-editor"
          aria-labelledby={`${id}-label`}
          value={value}
          onChange={(event) => onChange(event.currentTarget.value)}
        />
      ) : (
        <div
          id={id}
          ref={editor}
          className="form-field__input people-editor"
          contentEditable
          suppressContentEditableWarning
          role="textbox"
          aria-multiline="true"
          aria-labelledby={`${id}-label`}
          tabIndex={0}
          onInput={(event) => onChange(event.currentTarget.innerHTML)}
        />
      )}
    </div>
  );
}

/** The draft as it will look, in a frame that runs no script and reaches nothing of the page. */
export function Preview({ html, title }: { html: string; title: string }) {
  const doc = `<!doctype html><html><head><meta charset="utf-8"><style>body{font-family:system-ui,sans-serif;line-height:1.5;padding:8px;color:#111}</style></head><body>${html}</body></html>`;
  return <iframe className="people-viewer" title={title} sandbox="" srcDoc={doc} />;
}
