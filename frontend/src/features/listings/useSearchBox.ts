/** A search box whose debounced value (800 ms, spec 9's filter header) goes into the list's URL state. */
import { useEffect, useState } from "react";
import { useDebounced } from "../../shared/hooks/useDebounced";

export function useSearchBox(current: string, apply: (value: string) => void): [string, (value: string) => void] {
  const [text, setText] = useState(current);
  const debounced = useDebounced(text, 800);
  useEffect(() => {
    if (debounced.trim() !== current) apply(debounced.trim());
    // apply changes identity each render; only a new debounced value matters.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [debounced]);
  return [text, setText];
}
