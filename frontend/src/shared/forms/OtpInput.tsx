import { type ClipboardEvent, type KeyboardEvent, useEffect, useRef, useState } from "react";

export { OTP_LENGTH } from "../constants";
import { OTP_LENGTH } from "../constants";

export interface OtpInputProps {
  value: string;
  onChange: (value: string) => void;
  length?: number;
  disabled?: boolean;
  invalid?: boolean;
  describedBy?: string;
}

function toBoxes(value: string, length: number): string[] {
  return Array.from({ length }, (_, index) => (/\d/.test(value[index] ?? "") ? value[index] : ""));
}

/**
 * Five single-digit boxes: digits only, typing moves to the next box, arrow keys move between
 * boxes, backspace on an empty box moves back, and pasting a code fills the boxes.
 */
export function OtpInput({ value, onChange, length = OTP_LENGTH, disabled, invalid, describedBy }: OtpInputProps) {
  const [boxes, setBoxes] = useState(() => toBoxes(value, length));
  const inputs = useRef<(HTMLInputElement | null)[]>([]);

  // Follow a value set from outside (e.g. a reset to "").
  useEffect(() => {
    if (value !== boxes.join("")) setBoxes(toBoxes(value, length));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [value, length]);

  const focus = (index: number) => {
    const target = inputs.current[Math.max(0, Math.min(length - 1, index))];
    target?.focus();
    target?.select();
  };

  const update = (next: string[]) => {
    setBoxes(next);
    onChange(next.join(""));
  };

  const onInput = (index: number, text: string) => {
    const digits = text.replace(/\D/g, "");
    if (!digits) {
      const next = [...boxes];
      next[index] = "";
      update(next);
      if (inputs.current[index]) inputs.current[index]!.value = "";
      return;
    }
    if (digits.length > 1 && digits.length >= length) {
      fill(digits);
      return;
    }
    const digit = digits[digits.length - 1];
    const next = [...boxes];
    next[index] = digit;
    update(next);
    if (inputs.current[index]) inputs.current[index]!.value = digit;
    if (index < length - 1) focus(index + 1);
  };

  const fill = (digits: string) => {
    const next = toBoxes(digits.slice(0, length), length);
    update(next);
    focus(Math.min(digits.length, length) - 1);
  };

  const onKeyDown = (index: number, event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "ArrowLeft") {
      event.preventDefault();
      focus(index - 1);
    } else if (event.key === "ArrowRight") {
      event.preventDefault();
      focus(index + 1);
    } else if (event.key === "Backspace" && !boxes[index]) {
      event.preventDefault();
      focus(index - 1);
    } else if (event.key.length === 1 && !/\d/.test(event.key) && !event.ctrlKey && !event.metaKey) {
      event.preventDefault();
    }
  };

  const onPaste = (event: ClipboardEvent<HTMLInputElement>) => {
    const digits = (event.clipboardData?.getData("text") ?? "").replace(/\D/g, "");
    event.preventDefault();
    if (digits) fill(digits);
  };

  return (
    <div className="otp" role="group" aria-label="Verification code" aria-describedby={describedBy}>
      {boxes.map((digit, index) => (
        <input
          // biome-ignore lint: the boxes never reorder
          key={index}
          ref={(element) => {
            inputs.current[index] = element;
          }}
          className="otp__box"
          type="text"
          inputMode="numeric"
          autoComplete={index === 0 ? "one-time-code" : "off"}
          pattern="[0-9]*"
          maxLength={length}
          value={digit}
          disabled={disabled}
          aria-label={`Digit ${index + 1} of ${length}`}
          aria-invalid={invalid || undefined}
          onInput={(event) => onInput(index, event.currentTarget.value)}
          onKeyDown={(event) => onKeyDown(index, event)}
          onPaste={onPaste}
          onFocus={(event) => event.currentTarget.select()}
        />
      ))}
    </div>
  );
}
