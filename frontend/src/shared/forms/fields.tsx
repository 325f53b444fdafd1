/**
 * Form fields on react-hook-form (spec section 5): the error shows under a field once it was
 * touched (or the form submitted), required fields carry an asterisk, empty strings count as
 * absent. Text, number, percentage and price are TextField (kind=...); the phone, password and
 * OTP fields have their own files. Here: select, checkbox, date, 30-minute time slots, textarea,
 * and a plain select for list filters.
 */
import { type ReactNode, type SelectHTMLAttributes, useId } from "react";
import { type Control, type FieldPath, type FieldValues, useController } from "react-hook-form";
import { SLOT_MINUTES, timeSlots } from "../format";
import { describedBy, FieldShell, visibleError } from "./Field";

export interface Option {
  value: string;
  label: string;
}

interface BaseProps<T extends FieldValues> {
  control: Control<T>;
  name: FieldPath<T>;
  label: ReactNode;
  required?: boolean;
  hint?: ReactNode;
  id?: string;
  disabled?: boolean;
}

function useField<T extends FieldValues>({ control, name, id: givenId, hint }: BaseProps<T>) {
  const autoId = useId();
  const id = givenId ?? `field-${autoId}`;
  const controller = useController({ control, name });
  const error = visibleError(controller.fieldState, controller.formState.isSubmitted);
  const aria = {
    "aria-invalid": error ? true : undefined,
    "aria-describedby": describedBy(id, error, hint),
  } as const;
  return { id, error, aria, ...controller };
}

export function SelectField<T extends FieldValues>(props: BaseProps<T> & { options: readonly Option[]; placeholder?: string }) {
  const { id, error, aria, field } = useField(props);
  return (
    <FieldShell id={id} label={props.label} required={props.required} error={error} hint={props.hint}>
      <select
        id={id}
        name={field.name}
        ref={field.ref}
        className="form-field__input"
        value={field.value ?? ""}
        onChange={(event) => field.onChange(event.currentTarget.value)}
        onBlur={field.onBlur}
        disabled={props.disabled}
        aria-required={props.required || undefined}
        {...aria}
      >
        {props.placeholder !== undefined && <option value="">{props.placeholder}</option>}
        {props.options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </FieldShell>
  );
}

export function CheckboxField<T extends FieldValues>(props: BaseProps<T>) {
  const { id, error, aria, field } = useField(props);
  return (
    <div className={`form-field${error ? " form-field--invalid" : ""}`}>
      <label className="form-check" htmlFor={id}>
        <input
          id={id}
          type="checkbox"
          name={field.name}
          ref={field.ref}
          checked={Boolean(field.value)}
          onChange={(event) => field.onChange(event.currentTarget.checked)}
          onBlur={field.onBlur}
          disabled={props.disabled}
          {...aria}
        />
        <span>
          {props.label}
          {props.required && (
            <span className="form-field__required" aria-hidden="true">
              {" "}*
            </span>
          )}
        </span>
      </label>
      {error && (
        <p className="form-field__error" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/** A calendar date; the value is "yyyy-mm-dd" (the browser's date picker), shown to people as dd-MM-yyyy elsewhere. */
export function DateField<T extends FieldValues>(props: BaseProps<T> & { min?: string; max?: string }) {
  const { id, error, aria, field } = useField(props);
  return (
    <FieldShell id={id} label={props.label} required={props.required} error={error} hint={props.hint}>
      <input
        id={id}
        type="date"
        name={field.name}
        ref={field.ref}
        className="form-field__input"
        value={field.value ?? ""}
        min={props.min}
        max={props.max}
        onChange={(event) => field.onChange(event.currentTarget.value)}
        onBlur={field.onBlur}
        disabled={props.disabled}
        aria-required={props.required || undefined}
        {...aria}
      />
    </FieldShell>
  );
}

/**
 * A time picked among 30-minute slots in 12-hour format ("09:30 AM"), between `from` and `to`
 * minutes after midnight (the whole day by default). The value is the label.
 */
export function TimeSlotField<T extends FieldValues>(
  props: BaseProps<T> & { from?: number; to?: number; placeholder?: string; step?: number },
) {
  const slots = timeSlots(props.from ?? 0, props.to ?? 24 * 60 - SLOT_MINUTES, props.step ?? SLOT_MINUTES);
  return (
    <SelectField
      {...props}
      placeholder={props.placeholder ?? "Select a time"}
      options={slots.map((slot) => ({ value: slot.label, label: slot.label }))}
    />
  );
}

export function TextAreaField<T extends FieldValues>(props: BaseProps<T> & { rows?: number; maxLength?: number; placeholder?: string }) {
  const { id, error, aria, field } = useField(props);
  return (
    <FieldShell id={id} label={props.label} required={props.required} error={error} hint={props.hint}>
      <textarea
        id={id}
        name={field.name}
        ref={field.ref}
        className="form-field__input"
        rows={props.rows ?? 5}
        maxLength={props.maxLength}
        placeholder={props.placeholder}
        value={field.value ?? ""}
        onChange={(event) => field.onChange(event.currentTarget.value)}
        onBlur={field.onBlur}
        disabled={props.disabled}
        aria-required={props.required || undefined}
        {...aria}
      />
    </FieldShell>
  );
}

/** A labelled select outside a form (a list's "Select By" or "Sort By"). */
export function SelectInput({
  label,
  value,
  options,
  onChange,
  inline,
  ...rest
}: Omit<SelectHTMLAttributes<HTMLSelectElement>, "onChange" | "value"> & {
  label: string;
  value: string;
  options: readonly Option[];
  onChange: (value: string) => void;
  inline?: boolean;
}) {
  const id = useId();
  return (
    <span className={inline ? "dash-select" : "form-field"}>
      <label htmlFor={id} className={inline ? undefined : "form-field__label"}>
        {label}
      </label>
      <select {...rest} id={id} value={value} className={inline ? undefined : "form-field__input"} onChange={(event) => onChange(event.currentTarget.value)}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </span>
  );
}
