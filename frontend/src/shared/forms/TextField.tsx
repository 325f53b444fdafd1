import { type ChangeEvent, type InputHTMLAttributes, type ReactNode, useId } from "react";
import { type Control, type FieldPath, type FieldValues, useController } from "react-hook-form";
import { describedBy, FieldShell, visibleError } from "./Field";

export type TextFieldKind = "text" | "email" | "number" | "percentage" | "price";

export interface TextFieldProps<T extends FieldValues>
  extends Omit<InputHTMLAttributes<HTMLInputElement>, "name" | "value" | "onChange" | "type"> {
  control: Control<T>;
  name: FieldPath<T>;
  label: ReactNode;
  kind?: TextFieldKind;
  required?: boolean;
  hint?: ReactNode;
}

/**
 * Keep a typed number only if it is allowed: negative numbers are ignored everywhere, and a
 * percentage accepts only 0 to 100. Returns null when the keystroke should be dropped.
 */
export function acceptNumber(raw: string, kind: TextFieldKind): string | null {
  if (raw === "") return "";
  const value = Number(raw);
  if (Number.isNaN(value) || value < 0 || raw.trim().startsWith("-")) return null;
  if (kind === "percentage" && value > 100) return null;
  return raw;
}

/** Dollar display of a price: "$1,234.50". */
export function formatDollars(value: number | string): string {
  const number = typeof value === "number" ? value : Number(value);
  if (Number.isNaN(number)) return "";
  return `$${number.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

export function TextField<T extends FieldValues>({
  control,
  name,
  label,
  kind = "text",
  required,
  hint,
  id: givenId,
  ...inputProps
}: TextFieldProps<T>) {
  const autoId = useId();
  const id = givenId ?? `field-${autoId}`;
  const { field, fieldState, formState } = useController({ control, name });
  const error = visibleError(fieldState, formState.isSubmitted);
  const numeric = kind === "number" || kind === "percentage" || kind === "price";

  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const raw = event.currentTarget.value;
    if (!numeric) {
      field.onChange(raw);
      return;
    }
    const accepted = acceptNumber(raw, kind);
    if (accepted === null) {
      event.currentTarget.value = field.value ?? "";
      return;
    }
    field.onChange(accepted);
  };

  const input = (
    <input
      {...inputProps}
      id={id}
      name={field.name}
      ref={field.ref}
      type={kind === "email" ? "email" : numeric ? "number" : "text"}
      min={numeric ? 0 : undefined}
      max={kind === "percentage" ? 100 : undefined}
      step={kind === "price" ? "0.01" : inputProps.step}
      inputMode={numeric ? "decimal" : inputProps.inputMode}
      className="form-field__input"
      value={field.value ?? ""}
      onChange={onChange}
      onBlur={field.onBlur}
      aria-invalid={error ? true : undefined}
      aria-required={required || undefined}
      aria-describedby={describedBy(id, error, hint)}
    />
  );

  return (
    <FieldShell id={id} label={label} required={required} error={error} hint={hint}>
      {kind === "price" || kind === "percentage" ? (
        <div className={`form-field__affix form-field__affix--${kind}`}>
          {kind === "price" && <span aria-hidden="true">$</span>}
          {input}
          {kind === "percentage" && <span aria-hidden="true">%</span>}
        </div>
      ) : (
        input
      )}
      {kind === "price" && field.value !== "" && field.value != null && (
        <span className="form-field__preview">{formatDollars(field.value)}</span>
      )}
    </FieldShell>
  );
}
