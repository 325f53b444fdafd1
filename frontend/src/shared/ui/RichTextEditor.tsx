/**
 * The rich-text editor (TipTap on ProseMirror). It writes only tags the server's nh3 sanitizer
 * keeps (apps/cms/sanitize.py): paragraphs, headings, lists, quotes, code, emphasis, underline,
 * strike, links, line breaks and rules. The server sanitizes again in any case.
 *
 * TipTap weighs about 100 KB gzip: load this module lazily (`LazyRichTextEditor`) so only the
 * pages with an editor pay for it.
 */
import { EditorContent, useEditor } from "@tiptap/react";
import StarterKit from "@tiptap/starter-kit";
import { Bold, Heading2, Heading3, Italic, Link2, List, ListOrdered, Quote, Redo2, Underline, Undo2 } from "lucide-react";
import { type ReactNode, useEffect, useId } from "react";
import "./css/kit.css";

/** The tags the server keeps (apps/cms/sanitize.py ALLOWED_TAGS); a test keeps the two lists equal. */
export const RICH_TEXT_TAGS = [
  "h1", "h2", "h3", "h4", "h5", "h6", "p", "br", "hr", "div", "span", "ul", "ol", "li", "a", "strong", "b", "em", "i", "u", "s",
  "sub", "sup", "small", "mark", "blockquote", "code", "pre", "table", "caption", "thead", "tbody", "tfoot", "tr", "th", "td",
  "img", "figure", "figcaption",
] as const;

/** Only http(s), mailto and tel links, as the server allows. */
export function safeLink(raw: string): string | null {
  const text = raw.trim();
  if (!text) return null;
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(text) ? text : `https://${text}`;
  return /^(https?:|mailto:|tel:)/i.test(withScheme) ? withScheme : null;
}

export interface RichTextEditorProps {
  label: string;
  value: string;
  onChange: (html: string) => void;
  error?: string;
}

function ToolButton({ label, active, onClick, children }: { label: string; active?: boolean; onClick: () => void; children: ReactNode }) {
  return (
    <button type="button" className="rte__tool" aria-label={label} aria-pressed={active ?? undefined} onMouseDown={(event) => event.preventDefault()} onClick={onClick}>
      {children}
    </button>
  );
}

/** Built once: TipTap compares extensions by identity, and a new array each render reconfigures the editor. */
const EXTENSIONS = [StarterKit.configure({ link: { openOnClick: false, autolink: true, protocols: ["http", "https", "mailto", "tel"] } })];

export function RichTextEditor({ label, value, onChange, error }: RichTextEditorProps) {
  const id = useId();
  const created = useEditor({
    extensions: EXTENSIONS,
    content: value,
    // The editor is made by the mount effect, never during render. React may render and commit a
    // tree hidden (a Suspense boundary's content while a sibling loads) and run its effects only
    // when it shows it, without rendering again first; TipTap destroys an editor that no mounted
    // effect claimed within a millisecond, so an editor made during that render was destroyed
    // before its effects ran, and reading it threw ("reading 'cached'" in getHTML).
    immediatelyRender: false,
    editorProps: {
      attributes: {
        class: "rte__content",
        role: "textbox",
        "aria-multiline": "true",
        "aria-labelledby": `${id}-label`,
        ...(error ? { "aria-invalid": "true", "aria-describedby": `${id}-error` } : {}),
      },
    },
    onUpdate: ({ editor: current }) => onChange(current.isEmpty ? "" : current.getHTML()),
  });
  // An instance TipTap has destroyed is never read: the render after its replacement shows the new one.
  const editor = created && !created.isDestroyed ? created : null;

  // A new value from outside (a reset, a loaded page) replaces the content.
  useEffect(() => {
    if (editor && value !== editor.getHTML() && !(value === "" && editor.isEmpty)) editor.commands.setContent(value, { emitUpdate: false });
  }, [editor, value]);

  const icon = { "aria-hidden": true, size: 16 } as const;
  return (
    <div className={`rte form-field${error ? " form-field--invalid" : ""}`}>
      <span className="form-field__label" id={`${id}-label`}>
        {label}
      </span>
      {editor && (
        <div className="rte__toolbar" role="toolbar" aria-label={`${label} formatting`}>
          <ToolButton label="Bold" active={editor.isActive("bold")} onClick={() => editor.chain().focus().toggleBold().run()}>
            <Bold {...icon} />
          </ToolButton>
          <ToolButton label="Italic" active={editor.isActive("italic")} onClick={() => editor.chain().focus().toggleItalic().run()}>
            <Italic {...icon} />
          </ToolButton>
          <ToolButton label="Underline" active={editor.isActive("underline")} onClick={() => editor.chain().focus().toggleUnderline().run()}>
            <Underline {...icon} />
          </ToolButton>
          <ToolButton label="Heading" active={editor.isActive("heading", { level: 2 })} onClick={() => editor.chain().focus().toggleHeading({ level: 2 }).run()}>
            <Heading2 {...icon} />
          </ToolButton>
          <ToolButton label="Subheading" active={editor.isActive("heading", { level: 3 })} onClick={() => editor.chain().focus().toggleHeading({ level: 3 }).run()}>
            <Heading3 {...icon} />
          </ToolButton>
          <ToolButton label="Bulleted list" active={editor.isActive("bulletList")} onClick={() => editor.chain().focus().toggleBulletList().run()}>
            <List {...icon} />
          </ToolButton>
          <ToolButton label="Numbered list" active={editor.isActive("orderedList")} onClick={() => editor.chain().focus().toggleOrderedList().run()}>
            <ListOrdered {...icon} />
          </ToolButton>
          <ToolButton label="Quote" active={editor.isActive("blockquote")} onClick={() => editor.chain().focus().toggleBlockquote().run()}>
            <Quote {...icon} />
          </ToolButton>
          <ToolButton
            label="Link"
            active={editor.isActive("link")}
            onClick={() => {
              const href = safeLink(window.prompt("Link address (https://, mailto: or tel:)", editor.getAttributes("link").href ?? "") ?? "");
              if (href) editor.chain().focus().extendMarkRange("link").setLink({ href }).run();
              else editor.chain().focus().extendMarkRange("link").unsetLink().run();
            }}
          >
            <Link2 {...icon} />
          </ToolButton>
          <ToolButton label="Undo" onClick={() => editor.chain().focus().undo().run()}>
            <Undo2 {...icon} />
          </ToolButton>
          <ToolButton label="Redo" onClick={() => editor.chain().focus().redo().run()}>
            <Redo2 {...icon} />
          </ToolButton>
        </div>
      )}
      <EditorContent editor={editor} />
      {error && (
        <p className="form-field__error" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

export default RichTextEditor;
