import { ChevronLeft, ChevronRight } from "lucide-react";
import "./css/kit.css";
import { pageWindows } from "./pagination";

/** Page buttons in the windows of spec 9; nothing when there is one page. */
export function Pagination({ page, totalPages, onPage }: { page: number; totalPages: number; onPage: (page: number) => void }) {
  if (totalPages <= 1) return null;
  return (
    <nav className="pager" aria-label="Pages">
      <button type="button" disabled={page <= 1} onClick={() => onPage(page - 1)} aria-label="Previous page">
        <ChevronLeft aria-hidden="true" size={16} />
      </button>
      {pageWindows(page, totalPages).map((item, index) =>
        item === "..." ? (
          <span key={`gap-${index}`} className="pager__gap" aria-hidden="true">
            …
          </span>
        ) : (
          <button
            key={item}
            type="button"
            aria-current={item === page ? "page" : undefined}
            aria-label={`Page ${item}`}
            onClick={() => onPage(item)}
          >
            {item}
          </button>
        ),
      )}
      <button type="button" disabled={page >= totalPages} onClick={() => onPage(page + 1)} aria-label="Next page">
        <ChevronRight aria-hidden="true" size={16} />
      </button>
    </nav>
  );
}
