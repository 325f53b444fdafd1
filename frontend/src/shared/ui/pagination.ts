/**
 * The page numbers a paginator shows (spec section 9): every page when there are 10 or fewer;
 * otherwise a window of 5 at the start or end when the current page is near it, or the first and
 * last page with the current page's neighbours. "..." marks a gap.
 */
export type PageItem = number | "...";

export function pageWindows(current: number, total: number): PageItem[] {
  if (total <= 0) return [];
  const page = Math.min(Math.max(1, current), total);
  if (total <= 10) return Array.from({ length: total }, (_, index) => index + 1);
  if (page <= 4) return [1, 2, 3, 4, 5, "...", total];
  if (page >= total - 3) return [1, "...", total - 4, total - 3, total - 2, total - 1, total];
  return [1, "...", page - 1, page, page + 1, "...", total];
}
