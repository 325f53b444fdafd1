import { type ChangeEvent, type ReactNode, useId, useState } from "react";
import { type Control, type FieldPath, type FieldValues, useController } from "react-hook-form";
import { describedBy, FieldShell, visibleError } from "./Field";

/**
 * The phone field of spec section 2.2: only these six countries, Canada by default, no country
 * dropdown, the national number auto-formatted as typed, and digits only (no country code) in
 * the form's value, at most 15 digits. Typing "+<code>" switches among the six countries.
 */
export const PHONE_COUNTRIES = {
  ca: { name: "Canada", dialCode: "1", pattern: "(...) ...-...." },
  us: { name: "United States", dialCode: "1", pattern: "(...) ...-...." },
  in: { name: "India", dialCode: "91", pattern: ".....-....." },
  au: { name: "Australia", dialCode: "61", pattern: ". .... ...." },
  nz: { name: "New Zealand", dialCode: "64", pattern: "..-...-...." },
  gb: { name: "United Kingdom", dialCode: "44", pattern: ".... ......" },
} as const;

export type PhoneCountry = keyof typeof PHONE_COUNTRIES;
export const PHONE_MAX_DIGITS = 15;
export const PHONE_PLACEHOLDER = "(226) 123-4567";

export function phoneDigits(text: string, maxDigits = PHONE_MAX_DIGITS): string {
  return text.replace(/\D/g, "").slice(0, maxDigits);
}

/** Lay digits into the country's pattern; digits beyond the pattern follow after a space. */
export function formatPhone(digits: string, country: PhoneCountry = "ca"): string {
  if (!digits) return "";
  const pattern = PHONE_COUNTRIES[country].pattern;
  let out = "";
  let index = 0;
  for (const char of pattern) {
    if (index >= digits.length) break;
    if (char === ".") {
      out += digits[index];
      index += 1;
    } else {
      out += char;
    }
  }
  if (index < digits.length) out += ` ${digits.slice(index)}`;
  return out;
}

/** A typed "+44 7911…" picks the country by dial code and drops the code from the value. */
export function parsePhoneInput(
  text: string,
  country: PhoneCountry,
  maxDigits = PHONE_MAX_DIGITS,
): { country: PhoneCountry; digits: string } {
  const trimmed = text.trim();
  if (trimmed.startsWith("+")) {
    const all = trimmed.replace(/\D/g, "");
    const keep = PHONE_COUNTRIES[country].dialCode;
    const codes = (Object.keys(PHONE_COUNTRIES) as PhoneCountry[])
      .filter((code) => all.startsWith(PHONE_COUNTRIES[code].dialCode))
      .sort((a, b) => PHONE_COUNTRIES[b].dialCode.length - PHONE_COUNTRIES[a].dialCode.length);
    const match = codes.find((code) => PHONE_COUNTRIES[code].dialCode === keep) ?? codes[0];
    if (match) {
      return { country: match, digits: phoneDigits(all.slice(PHONE_COUNTRIES[match].dialCode.length), maxDigits) };
    }
  }
  return { country, digits: phoneDigits(trimmed, maxDigits) };
}

export interface PhoneFieldProps<T extends FieldValues> {
  control: Control<T>;
  name: FieldPath<T>;
  label: ReactNode;
  required?: boolean;
  placeholder?: string;
  defaultCountry?: PhoneCountry;
  maxDigits?: number;
}

export function PhoneField<T extends FieldValues>({
  control,
  name,
  label,
  required,
  placeholder,
  defaultCountry = "ca",
  maxDigits = PHONE_MAX_DIGITS,
}: PhoneFieldProps<T>) {
  const id = `field-${useId()}`;
  const [country, setCountry] = useState<PhoneCountry>(defaultCountry);
  const { field, fieldState, formState } = useController({ control, name });
  const error = visibleError(fieldState, formState.isSubmitted);
  const digits = phoneDigits(String(field.value ?? ""), maxDigits);

  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const parsed = parsePhoneInput(event.currentTarget.value, country, maxDigits);
    setCountry(parsed.country);
    event.currentTarget.value = formatPhone(parsed.digits, parsed.country);
    field.onChange(parsed.digits);
  };

  return (
    <FieldShell id={id} label={label} required={required} error={error}>
      <input
        id={id}
        name={field.name}
        ref={field.ref}
        type="tel"
        inputMode="tel"
        autoComplete="tel-national"
        className="form-field__input"
        placeholder={placeholder || PHONE_PLACEHOLDER}
        value={formatPhone(digits, country)}
        onChange={onChange}
        onBlur={field.onBlur}
        data-country={country}
        aria-invalid={error ? true : undefined}
        aria-required={required || undefined}
        aria-describedby={describedBy(id, error)}
      />
    </FieldShell>
  );
}
