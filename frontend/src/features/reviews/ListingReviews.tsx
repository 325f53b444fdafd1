/** The public listing page's reviews: rating, text and the host's reply, newest first, 10 a page. */
import { useState } from "react";
import type { Schemas } from "../../shared/api/client";
import { useApiQuery } from "../../shared/api/hooks";
import { formatDate } from "../../shared/format";
import "./reviews.css";

export type PublicReview = Schemas["PublicReview"];

export function starsText(rating: number | null): string {
  if (!rating) return "";
  return "★".repeat(rating) + "☆".repeat(5 - rating);
}

export function ListingReviews({ listingId }: { listingId: string }) {
  const [page, setPage] = useState(1);
  const query = useApiQuery(
    "/api/reviews/listing/{listing_id}",
    { params: { path: { listing_id: listingId }, query: { page } } },
    { silent: true, keepPrevious: true, select: (answer) => answer.data },
  );
  const data = query.data;
  const failed = query.isError;
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
          <button type="button" className="button button--secondary" disabled={page <= 1} onClick={() => setPage(page - 1)}>
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
