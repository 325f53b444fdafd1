import "./css/kit.css";

/** A small turning circle; `label` is read to screen readers ("Loading" by default). */
export function Spinner({ label = "Loading", size = "small" }: { label?: string; size?: "small" | "large" }) {
  return (
    <span className={`spinner spinner--${size}`} role="status" aria-label={label}>
      <span className="visually-hidden">{label}</span>
    </span>
  );
}
