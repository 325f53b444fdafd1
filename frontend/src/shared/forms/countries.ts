/**
 * The countries a person or a space can be in: the ISO 3166-1 regions the browser's Intl data
 * names, by English name. The stored value stays the English name (as before, when it was free
 * text); a stored value not in the list is kept as its own option so nothing is lost.
 */
import type { Option } from "./fields";

// Codes Intl names that are not countries (unions, reserved and pseudo regions).
const NOT_COUNTRIES = new Set(["AC", "CP", "CQ", "DG", "EA", "EU", "EZ", "IC", "QO", "TA", "UN", "XA", "XB", "ZZ"]);

let cached: Option[] | null = null;

export function countryNames(): Option[] {
  if (cached) return cached;
  const names = new Intl.DisplayNames(["en"], { type: "region", fallback: "none" });
  const letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  const found = new Map<string, string>();
  for (const a of letters) {
    for (const b of letters) {
      const code = a + b;
      if (NOT_COUNTRIES.has(code)) continue;
      const name = names.of(code);
      if (name && name !== code) found.set(name, code);
    }
  }
  cached = [...found.keys()].sort((x, y) => x.localeCompare(y, "en")).map((name) => ({ value: name, label: name }));
  return cached;
}

/** The options for a country select, with ``current`` kept when it is not a known name. */
export function countryOptions(current?: string | null): Option[] {
  const all = countryNames();
  const value = (current ?? "").trim();
  if (!value || all.some((option) => option.value === value)) return all;
  return [{ value, label: value }, ...all];
}
