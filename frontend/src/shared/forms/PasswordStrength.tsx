/** The register form's live strength meter (spec sections 4.2, 5 and 9). */

export const STRENGTH_SYMBOLS = "!#@$%^&*)(+=._-";

/** One point each: length over 5, length over 7, a digit, a symbol, both lower and upper case. */
export function passwordScore(password: string): number {
  let score = 0;
  if (password.length > 5) score += 1;
  if (password.length > 7) score += 1;
  if (/\d/.test(password)) score += 1;
  if ([...STRENGTH_SYMBOLS].some((symbol) => password.includes(symbol))) score += 1;
  if (/[a-z]/.test(password) && /[A-Z]/.test(password)) score += 1;
  return Math.min(score, 5);
}

export const STRENGTH_LEVELS = [
  { label: "Poor", color: "#dc2626" },
  { label: "Weak", color: "#eab308" },
  { label: "Normal", color: "#f97316" },
  { label: "Good", color: "#22c55e" },
  { label: "Strong", color: "#15803d" },
] as const;

export function PasswordStrength({ password }: { password: string }) {
  const score = passwordScore(password);
  if (score === 0) return null;
  const level = STRENGTH_LEVELS[score - 1];
  return (
    <div className="strength" data-score={score}>
      <div
        className="strength__bar"
        style={{ width: "85px", height: "8px" }}
        role="meter"
        aria-valuemin={0}
        aria-valuemax={5}
        aria-valuenow={score}
        aria-label="Password strength"
        aria-valuetext={level.label}
      >
        <div className="strength__fill" style={{ width: `${(score / 5) * 100}%`, background: level.color }} />
      </div>
      <span className="strength__label">{level.label}</span>
    </div>
  );
}
