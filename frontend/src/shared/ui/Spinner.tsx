import "./css/kit.css";

/**
 * A small turning circle; `label` is read to screen readers ("Loading" by default). Beside words that
 * already say what is happening ("Calculating the price"), `decorative` hides it from them.
 */
export function Spinner({ label = "Loading", size = "small", decorative = false }: { label?: string; size?: "small" | "large"; decorative?: boolean }) {
  if (decorative) return <span className={`spinner spinner--${size}`} aria-hidden="true" />;
  return (
    <span className={`spinner spinner--${size}`} role="status" aria-label={label}>
      <span className="visually-hidden">{label}</span>
    </span>
  );
}
