/**
 * The listing page's older reviews: the page renders the newest ten itself; this island, mounted
 * under them when there are more, loads the next pages (rating, text and the host's reply).
 */
import { useState } from "react";
import type { Schemas } from "../../shared/api/client";
import { useApiQuery } from "../../shared/api/hooks";
import { formatDate } from "../../shared/format";
import "./reviews.css";
import type { IslandProps } from "../../shared/ui/mountIsland";

export type PublicReview = Schemas["PublicReview"];

export function starsText(rating: number | null): string {
  if (!rating) return "";
  return "★".repeat(rating) + "☆".repeat(5 - rating);
}

type ReviewsProps = IslandProps<"ListingReviews">;

export function ListingReviews({ listingId, startPage = 1 }: Pick<ReviewsProps, "listingId"> & Partial<Pick<ReviewsProps, "startPage">>) {
  const [page, setPage] = useState(startPage);
  const [opened, setOpened] = useState(startPage <= 1);
  const query = useApiQuery(
    "/api/reviews/listing/{listing_id}",
    { params: { path: { listing_id: listingId }, query: { page } } },
    { silent: true, keepPrevious: true, select: (answer) => answer.data, enabled: opened },
  );
  const data = query.data;
  const failed = query.isError;
  if (!opened)
    return (
      <button type="button" className="button button--secondary" onClick={() => setOpened(true)}>
        Show older reviews
      </button>
    );
  if (failed) return <p>Reviews could not be loaded.</p>;
  if (!data) return <p aria-busy="true">Loading reviews…</p>;
  if (data.reviews.length === 0) return <p>No reviews yet.</p>;
  return (
    <>
      <ul className="reviews">
        {data.reviews.map((item) => (
          <li key={item._id} className="review" data-testid="review">
            <p className="review__head">
              <strong>{item.renter.firstName}</strong> <span className="review__date">{formatDate(item.createdAt)}</span>
            </p>
            {item.rating ? (
              <p className="review__stars">
                <span aria-hidden="true">{starsText(item.rating)}</span>
                <span className="visually-hidden">Rated {item.rating} out of 5</span>
              </p>
            ) : null}
            {item.review && <p className="review__text">{item.review}</p>}
            {item.reply && (
              <blockquote className="review__reply">
                <strong>Host's reply:</strong> {item.reply}
              </blockquote>
            )}
          </li>
        ))}
      </ul>
      {data.totalPages > 1 && (
        <nav className="reviews__pager" aria-label="Review pages">
          <button type="button" className="button button--secondary" disabled={page <= startPage} onClick={() => setPage(page - 1)}>
            Newer reviews
          </button>
          <span>
            Page {page} of {data.totalPages}
          </span>
          <button type="button" className="button button--secondary" disabled={page >= data.totalPages} onClick={() => setPage(page + 1)}>
            Older reviews
          </button>
        </nav>
      )}
    </>
  );
}
