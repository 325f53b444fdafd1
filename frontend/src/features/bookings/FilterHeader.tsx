/** The filter header of booking pages (spec 2.6): back arrow and an 800 ms debounced search. */
import { ArrowLeft, Search } from "lucide-react";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { navigation } from "../../shared/browser/navigation";
import { useDebounced } from "../../shared/hooks/useDebounced";

export const SEARCH_DEBOUNCE_MS = 800;

export function goBack(pathname: string = window.location.pathname): void {
  if (pathname.startsWith("/booking-detail")) navigation.assign("/booking");
  else window.history.back();
}

export function FilterHeader({
  title,
  search = "",
  onSearch,
  children,
}: {
  title: string;
  /** The search the list starts with (from the URL). */
  search?: string;
  onSearch?: (text: string) => void;
  children?: ReactNode;
}) {
  const [text, setText] = useState(search);
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
        <ArrowLeft aria-hidden="true" size={18} />
      </button>
      <h1 className="dash-filter__title">{title}</h1>
      {onSearch && (
        <span className="dash-search">
          <Search aria-hidden="true" size={16} />
          <input type="search" aria-label="Search" placeholder="Search" value={text} onChange={(event) => setText(event.currentTarget.value)} />
        </span>
      )}
      {children}
    </div>
  );
}
