import { useEffect, useId, useRef, useState } from "react";
import { api, errorMessage, type Schemas } from "../../shared/api/client";
import { toast } from "../../shared/ui/toast";

export const SEARCH_DEBOUNCE_MS = 500;

/** A listing the search found: what its link needs. */
export type SearchHit = Pick<Schemas["ListingCard"], "_id" | "slug" | "title">;

/** The navbar's expandable search by listing title: debounced 500 ms, links to the listing pages. */
export function NavbarSearch() {
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState("");
  const [hits, setHits] = useState<SearchHit[] | null>(null);
  const [loading, setLoading] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const id = useId();
  const listId = `nav-search-results-${id}`;

  useEffect(() => {
    const term = query.trim();
    if (!term) {
      setHits(null);
      setLoading(false);
      return undefined;
    }
    const controller = new AbortController();
    const timer = window.setTimeout(async () => {
      setLoading(true);
      try {
        const { data, error, response } = await api.GET("/api/listing/property-listing", {
          params: { query: { page: 1, "filters[title]": term } },
          signal: controller.signal,
        });
        if (!response.ok) {
          toast.error(errorMessage(error));
          setHits([]);
        } else {
          setHits((data?.data.listings ?? []).map(({ _id, slug, title }) => ({ _id, slug, title })));
        }
      } catch (error) {
        if ((error as Error)?.name !== "AbortError") setHits([]);
      } finally {
        if (!controller.signal.aborted) setLoading(false);
      }
    }, SEARCH_DEBOUNCE_MS);
    return () => {
      window.clearTimeout(timer);
      controller.abort();
    };
  }, [query]);

  useEffect(() => {
    if (open) input.current?.focus();
  }, [open]);

  useEffect(() => {
    if (!open) return undefined;
    const onPointer = (event: MouseEvent) => {
      if (box.current && !box.current.contains(event.target as Node) && !query) setOpen(false);
    };
    document.addEventListener("mousedown", onPointer);
    return () => document.removeEventListener("mousedown", onPointer);
  }, [open, query]);

  const empty = hits !== null && !loading && hits.length === 0;
  return (
    <div ref={box} className={`nav-search-island${open ? " is-open" : ""}`} role="search">
      <button
        type="button"
        className="nav-search-island__toggle"
        aria-expanded={open}
        aria-controls={`nav-search-panel-${id}`}
        aria-label={open ? "Close search" : "Search spaces"}
        onClick={() => {
          setOpen((value) => !value);
          if (open) setQuery("");
        }}
      >
        <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <path fill="currentColor" d="M10 2a8 8 0 0 1 6.3 12.9l5.4 5.4-1.4 1.4-5.4-5.4A8 8 0 1 1 10 2zm0 2a6 6 0 1 0 0 12 6 6 0 0 0 0-12z" />
        </svg>
      </button>
      <div id={`nav-search-panel-${id}`} className="nav-search-island__panel" hidden={!open}>
        <label className="visually-hidden" htmlFor={`nav-search-input-${id}`}>
          Search spaces by title
        </label>
        <input
          ref={input}
          id={`nav-search-input-${id}`}
          type="search"
          placeholder="Search spaces"
          autoComplete="off"
          value={query}
          aria-controls={listId}
          aria-describedby={`${listId}-status`}
          onInput={(event) => setQuery(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key === "Escape") {
              setQuery("");
              setOpen(false);
            }
          }}
        />
        <div className="nav-search-island__results" id={listId}>
          {/* One live region: read out while searching, and shown as "No results found". */}
          <p className={empty ? "nav-search-island__empty" : "visually-hidden"} id={`${listId}-status`} aria-live="polite">
            {loading ? "Searching" : hits === null ? "" : hits.length ? `${hits.length} ${hits.length === 1 ? "result" : "results"}` : "No results found"}
          </p>
          {hits !== null && hits.length > 0 && (
            <ul>
              {hits.map((hit) => (
                <li key={hit._id}>
                  <a href={`/listing-details/${encodeURIComponent(hit.slug)}`}>{hit.title}</a>
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
    </div>
  );
}
