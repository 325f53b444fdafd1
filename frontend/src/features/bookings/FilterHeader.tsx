/** The filter header of booking pages (spec 2.6): back arrow and an 800 ms debounced search. */
import { type ReactNode, useEffect, useRef, useState } from "react";
import { navigation } from "../../shared/browser/navigation";

export const SEARCH_DEBOUNCE_MS = 800;

export function goBack(pathname: string = window.location.pathname): void {
  if (pathname.startsWith("/booking-detail")) navigation.assign("/booking");
  else window.history.back();
}

export function useDebounced<T>(value: T, delay: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setDebounced(value), delay);
    return () => window.clearTimeout(timer);
  }, [value, delay]);
  return debounced;
}

export function FilterHeader({ title, onSearch, children }: { title: string; onSearch?: (text: string) => void; children?: ReactNode }) {
  const [text, setText] = useState("");
  const debounced = useDebounced(text, SEARCH_DEBOUNCE_MS);
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    onSearch?.(debounced.trim());
  }, [debounced]); // eslint-disable-line react-hooks/exhaustive-deps
  return (
    <div className="dash-filter">
      <button type="button" className="dash-back" aria-label="Back" onClick={() => goBack()}>
        ←
      </button>
      <h1 className="dash-filter__title">{title}</h1>
      {onSearch && (
        <input type="search" aria-label="Search" placeholder="Search" value={text} onChange={(event) => setText(event.currentTarget.value)} />
      )}
      {children}
    </div>
  );
}
