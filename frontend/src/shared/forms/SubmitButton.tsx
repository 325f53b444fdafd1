import type { ReactNode } from "react";
import { Spinner } from "../ui/Spinner";

/** A form's submit button: while the request is in flight a spinner replaces the text and it is disabled. */
export function SubmitButton({ loading, children, className = "button button--block" }: { loading: boolean; children: ReactNode; className?: string }) {
  return (
    <button type="submit" className={className} disabled={loading} aria-busy={loading || undefined}>
      {loading ? <Spinner label="Please wait" /> : children}
    </button>
  );
}
