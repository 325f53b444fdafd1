/** The rich-text editor, loaded on first use (TipTap stays out of pages without an editor). */
import { lazy, Suspense } from "react";
import type { RichTextEditorProps } from "./RichTextEditor";
import { Spinner } from "./Spinner";

const Editor = lazy(() => import("./RichTextEditor"));

export function LazyRichTextEditor(props: RichTextEditorProps) {
  return (
    <Suspense fallback={<Spinner label={`Loading the ${props.label} editor`} />}>
      <Editor {...props} />
    </Suspense>
  );
}
