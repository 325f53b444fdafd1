import { type ReactNode, useId, useState } from "react";
import { type Control, type FieldPath, type FieldValues, useController } from "react-hook-form";
import { describedBy, FieldShell, visibleError } from "./Field";

export interface PasswordFieldProps<T extends FieldValues> {
  control: Control<T>;
  name: FieldPath<T>;
  label: ReactNode;
  required?: boolean;
  autoComplete?: string;
  placeholder?: string;
  /** Shown under the input, e.g. the strength meter. */
  children?: ReactNode;
}

/** A password input with a show/hide toggle. */
export function PasswordField<T extends FieldValues>({
  control,
  name,
  label,
  required,
  autoComplete = "current-password",
  placeholder,
  children,
}: PasswordFieldProps<T>) {
  const id = `field-${useId()}`;
  const [visible, setVisible] = useState(false);
  const { field, fieldState, formState } = useController({ control, name });
  const error = visibleError(fieldState, formState.isSubmitted);
  return (
    <FieldShell id={id} label={label} required={required} error={error}>
      <div className="form-field__password">
        <input
          id={id}
          name={field.name}
          ref={field.ref}
          type={visible ? "text" : "password"}
          className="form-field__input"
          autoComplete={autoComplete}
          placeholder={placeholder}
          value={field.value ?? ""}
          onChange={(event) => field.onChange(event.currentTarget.value)}
          onBlur={field.onBlur}
          aria-invalid={error ? true : undefined}
          aria-required={required || undefined}
          aria-describedby={describedBy(id, error)}
        />
        <button
          type="button"
          className="form-field__eye"
          onClick={() => setVisible((shown) => !shown)}
          aria-label={visible ? "Hide password" : "Show password"}
          aria-pressed={visible}
        >
          <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <path
              fill="currentColor"
              d="M12 5c-5 0-9 4.5-10 7 1 2.5 5 7 10 7s9-4.5 10-7c-1-2.5-5-7-10-7zm0 11.5a4.5 4.5 0 1 1 0-9 4.5 4.5 0 0 1 0 9zm0-7a2.5 2.5 0 1 0 0 5 2.5 2.5 0 0 0 0-5z"
            />
            {visible && <path stroke="currentColor" strokeWidth="2" d="M3 3l18 18" />}
          </svg>
        </button>
      </div>
      {children}
    </FieldShell>
  );
}
