import "../ui/css/forms.css";
import type { ReactNode } from "react";

export interface FieldShellProps {
  id: string;
  label: ReactNode;
  required?: boolean;
  error?: string;
  hint?: ReactNode;
  children: ReactNode;
}

/** Label, the control, and the error under it. Required fields carry an asterisk. */
export function FieldShell({ id, label, required, error, hint, children }: FieldShellProps) {
  return (
    <div className={`form-field${error ? " form-field--invalid" : ""}`}>
      <label className="form-field__label" htmlFor={id}>
        {label}
        {required && (
          <span className="form-field__required" title="This field is required" aria-hidden="true">
            {" "}*
          </span>
        )}
      </label>
      {children}
      {hint && !error && (
        <p className="form-field__hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p className="form-field__error" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/** An error is shown only once the field was touched (or the form was submitted). */
export function visibleError(
  fieldState: { error?: { message?: string }; isTouched: boolean },
  isSubmitted: boolean,
): string | undefined {
  return fieldState.isTouched || isSubmitted ? fieldState.error?.message : undefined;
}

export function describedBy(id: string, error?: string, hint?: unknown): string | undefined {
  if (error) return `${id}-error`;
  return hint ? `${id}-hint` : undefined;
}
