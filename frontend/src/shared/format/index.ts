/** Small display rules of the dashboard (spec sections 2.3 and 9). */

/** A menu or bell counter: nothing for 0, the number up to 9, then "9+". */
export function counterText(value: number | null | undefined): string {
  if (!value || value <= 0) return "";
  return value > 9 ? "9+" : String(value);
}

/** The sidebar user name: at most 6 characters, then two dots when it was longer. */
export function shortName(name: string | null | undefined): string {
  const text = (name ?? "").trim();
  return text.length > 6 ? `${text.slice(0, 6)}..` : text;
}

/** Money as $ with two decimals. */
export function money(value: string | number | null | undefined): string {
  const number = typeof value === "string" ? Number.parseFloat(value) : (value ?? 0);
  const safe = Number.isFinite(number) ? number : 0;
  return `$${safe.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

/** A date in America/New_York as dd-MM-yyyy; strings already in that form pass through. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return "";
  if (/^\d{2}-\d{2}-\d{4}$/.test(value)) return value;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone: "America/New_York",
    day: "2-digit",
    month: "2-digit",
    year: "numeric",
  }).formatToParts(date);
  const get = (type: string) => parts.find((part) => part.type === type)?.value ?? "";
  return `${get("day")}-${get("month")}-${get("year")}`;
}

export function truncate(text: string | null | undefined, max: number): string {
  const value = text ?? "";
  return value.length > max ? `${value.slice(0, max)}...` : value;
}

export function fullName(person: { fullName?: string; firstName?: string; lastName?: string; email?: string } | null | undefined): string {
  if (!person) return "";
  return (person.fullName || `${person.firstName ?? ""} ${person.lastName ?? ""}`.trim() || person.email || "").trim();
}
