import { useEffect, useState } from "react";

/** `value`, once it has stopped changing for `delay` ms (search boxes: 500 ms navbar, 800 ms filter header). */
export function useDebounced<T>(value: T, delay: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setDebounced(value), delay);
    return () => window.clearTimeout(timer);
  }, [value, delay]);
  return debounced;
}
