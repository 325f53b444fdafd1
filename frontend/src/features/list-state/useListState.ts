/** A list's tab, search and page kept in the URL's query string, so reload and back keep them. */
import { useCallback, useEffect, useState } from "react";

export type ListState = Record<string, string>;

export function readListState(defaults: ListState, search: string = window.location.search): ListState {
  const params = new URLSearchParams(search);
  const state: ListState = { ...defaults };
  for (const key of Object.keys(defaults)) {
    const value = params.get(key);
    if (value !== null && value !== "") state[key] = value.slice(0, 200);
  }
  return state;
}

export function listStateQuery(state: ListState, defaults: ListState, search: string = window.location.search): string {
  const params = new URLSearchParams(search);
  for (const [key, value] of Object.entries(state)) {
    if (value === "" || value === defaults[key]) params.delete(key);
    else params.set(key, value);
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** `[state, update]`: `update({tab: "unread"})` changes the URL (history entry) and the state; a page
 * change is kept, any other change goes back to page 1. */
export function useListState(defaults: ListState): [ListState, (change: ListState) => void] {
  const [state, setState] = useState<ListState>(() => readListState(defaults));
  useEffect(() => {
    const back = () => setState(readListState(defaults));
    window.addEventListener("popstate", back);
    return () => window.removeEventListener("popstate", back);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const update = useCallback(
    (change: ListState) => {
      setState((current) => {
        const next = { ...current, ...change };
        if (!("page" in change) && "page" in defaults) next.page = defaults.page;
        const query = listStateQuery(next, defaults);
        window.history.pushState(null, "", `${window.location.pathname}${query}`);
        return next;
      });
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );
  return [state, update];
}

export function pageNumber(value: string | undefined): number {
  const number = Number.parseInt(value ?? "1", 10);
  return Number.isFinite(number) && number > 0 ? number : 1;
}
