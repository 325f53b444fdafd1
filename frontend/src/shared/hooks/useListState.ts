/**
 * A list's state (tab, filters, search, page) in the URL's query string, so back, reload and a
 * shared link keep it. Values missing from the URL take their defaults and are left out of it;
 * changing anything but the page goes back to page 1; a tab remembered per prefix in local
 * storage (spec 2.11) is used when the URL names none, if it is still allowed.
 */
import { useCallback, useEffect, useRef, useState } from "react";

export type ListValues = Record<string, string | number>;

export interface ListStateOptions {
  /** Remember the `tab` value under this prefix in local storage. */
  tabPrefix?: string;
  /** The tabs this user may see (from the server); a tab outside them falls back to the first. */
  allowedTabs?: readonly string[];
}

export const TAB_KEY_PREFIX = "listTab:";

export function rememberedTab(prefix: string): string | null {
  try {
    return window.localStorage.getItem(`${TAB_KEY_PREFIX}${prefix}`);
  } catch {
    return null;
  }
}

export function rememberTab(prefix: string, value: string): void {
  try {
    window.localStorage.setItem(`${TAB_KEY_PREFIX}${prefix}`, value);
  } catch {
    /* not remembered: the URL still holds it */
  }
}

/** Read `defaults`' keys from a query string, typed like the defaults (numbers stay numbers). */
export function readListState<T extends ListValues>(search: string, defaults: T, options: ListStateOptions = {}): T {
  const params = new URLSearchParams(search);
  const values: ListValues = { ...defaults };
  for (const [key, fallback] of Object.entries(defaults)) {
    const raw = params.get(key);
    if (raw === null) continue;
    if (typeof fallback === "number") {
      const number = Number.parseInt(raw, 10);
      values[key] = Number.isFinite(number) && number > 0 ? number : fallback;
    } else {
      values[key] = raw;
    }
  }
  if ("tab" in defaults) {
    const allowed = options.allowedTabs;
    const fromUrl = params.get("tab");
    let tab = fromUrl ?? (options.tabPrefix ? rememberedTab(options.tabPrefix) : null) ?? String(defaults.tab);
    if (allowed && allowed.length && !allowed.includes(tab)) tab = allowed.includes(String(defaults.tab)) ? String(defaults.tab) : allowed[0];
    values.tab = tab;
  }
  return values as T;
}

/** The query string for `values`: defaults are left out, other parameters of the URL are kept. */
export function writeListState<T extends ListValues>(search: string, values: T, defaults: T): string {
  const params = new URLSearchParams(search);
  for (const [key, value] of Object.entries(values)) {
    if (value === defaults[key] || value === "") params.delete(key);
    else params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

export function useListState<T extends ListValues>(
  defaults: T,
  options: ListStateOptions = {},
): [T, (patch: Partial<T>, mode?: "push" | "replace") => void] {
  const [values, setValues] = useState<T>(() => readListState(window.location.search, defaults, options));
  const current = useRef(values);
  const allowedKey = options.allowedTabs?.join(",");

  useEffect(() => {
    const onPop = () => {
      current.current = readListState(window.location.search, defaults, options);
      setValues(current.current);
    };
    window.addEventListener("popstate", onPop);
    return () => window.removeEventListener("popstate", onPop);
    // defaults and options are read fresh on each back/forward; their identity does not matter.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [allowedKey]);


  const update = useCallback(
    (patch: Partial<T>, mode: "push" | "replace" = "push") => {
      const next = { ...current.current, ...patch } as T;
      if (!("page" in patch) && "page" in defaults) (next as ListValues).page = defaults.page;
      if (options.tabPrefix && typeof patch.tab === "string") rememberTab(options.tabPrefix, patch.tab);
      const query = writeListState(window.location.search, next, defaults);
      const url = `${window.location.pathname}${query}${window.location.hash}`;
      if (mode === "replace") window.history.replaceState(window.history.state, "", url);
      else window.history.pushState(window.history.state, "", url);
      current.current = next;
      setValues(next);
    },
    // defaults only give the keys and the page to go back to; their identity does not matter.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [options.tabPrefix],
  );

  return [values, update];
}
