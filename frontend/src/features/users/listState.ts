/** A list's tab, search and page kept in the URL (so reload, back and a shared link show the same list). */
import { useCallback, useEffect, useState } from "react";

export interface ListState {
  tab: string;
  search: string;
  page: number;
}

export function readListState(search: string, defaults: { tab: string }): ListState {
  const params = new URLSearchParams(search);
  const page = Number.parseInt(params.get("page") ?? "1", 10);
  return {
    tab: params.get("tab") || defaults.tab,
    search: params.get("search") ?? "",
    page: Number.isFinite(page) && page > 0 ? page : 1,
  };
}

export function listStateQuery(state: ListState, defaults: { tab: string }): string {
  const params = new URLSearchParams();
  if (state.tab && state.tab !== defaults.tab) params.set("tab", state.tab);
  if (state.search) params.set("search", state.search);
  if (state.page > 1) params.set("page", String(state.page));
  const text = params.toString();
  return text ? `?${text}` : "";
}

export function useListState(defaultTab: string): [ListState, (change: Partial<ListState>) => void] {
  const [state, setState] = useState(() => readListState(window.location.search, { tab: defaultTab }));
  useEffect(() => {
    const onPop = () => setState(readListState(window.location.search, { tab: defaultTab }));
    window.addEventListener("popstate", onPop);
    return () => window.removeEventListener("popstate", onPop);
  }, [defaultTab]);
  const update = useCallback(
    (change: Partial<ListState>) => {
      setState((current) => {
        // A new tab or search starts again at page 1.
        const next = { ...current, ...change, page: change.page ?? (change.tab !== undefined || change.search !== undefined ? 1 : current.page) };
        const url = `${window.location.pathname}${listStateQuery(next, { tab: defaultTab })}`;
        window.history.pushState(null, "", url);
        return next;
      });
    },
    [defaultTab],
  );
  return [state, update];
}

/** A value that follows `value` once it stopped changing for `delay` ms (spec: filter search 800 ms). */
export function useDebounced<T>(value: T, delay: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), delay);
    return () => window.clearTimeout(timer);
  }, [value, delay]);
  return settled;
}
