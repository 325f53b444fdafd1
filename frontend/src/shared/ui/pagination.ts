import { CONSTANTS } from "../constants";

/**
 * The page numbers a paginator shows (spec section 9, the server's apps/core/policies.page_window):
 * every page when there are few; otherwise the first (or last) five while the current page is near
 * that end, so both its neighbours show, or the first and last page with the current page's
 * neighbours. "..." marks a gap. The golden cases in src/shared/policies.golden.json hold both sides to it.
 */
export type PageItem = number | "...";

const { allPagesUpTo, edgeWindow } = CONSTANTS.pagination;

export function pageWindows(current: number, total: number): PageItem[] {
  if (total <= 0) return [];
  const page = Math.min(Math.max(1, current), total);
  if (total <= allPagesUpTo) return Array.from({ length: total }, (_, index) => index + 1);
  const range = (from: number) => Array.from({ length: edgeWindow }, (_, index) => from + index);
  if (page <= edgeWindow - 1) return [...range(1), "...", total];
  if (page >= total - (edgeWindow - 2)) return [1, "...", ...range(total - edgeWindow + 1)];
  return [1, "...", page - 1, page, page + 1, "...", total];
}
