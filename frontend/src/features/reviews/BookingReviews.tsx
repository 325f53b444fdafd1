/**
 * A booking's reviews on its detail page: the renter's review of the space (with the host's reply, and a
 * Reply action when the server's `can` allows it), the host's review of the renter, both double-blind as
 * the server shows them; and, for the host side and staff, what hosts said about this renter.
 */
import { type FormEvent, useState } from "react";
import { api, call, type Schemas } from "../../shared/api/client";
import { useApiQuery } from "../../shared/api/hooks";
import { invalidate } from "../../shared/api/query";
import { formatDate } from "../../shared/format";
import { toast } from "../../shared/ui/toast";
import { starsText } from "./ListingReviews";
import "./reviews.css";

/** The answer of GET /api/reviews/booking/{booking_id}. */
export type BookingReviewsData = Schemas["BookingReviewsData"];
/** Either side's review; only the renter's carries the host's reply and `can.reply`. */
type SideReview = Schemas["RenterSideReview"];

export const REPLY_PUBLISHED = "Reply published.";

function Rating({ rating }: { rating?: number | null }) {
  if (!rating) return null;
  return (
    <p className="review__stars">
      <span aria-hidden="true">{starsText(rating)}</span>
      <span className="visually-hidden">Rated {rating} out of 5</span>
    </p>
  );
}

function ReplyForm({ reviewId, onDone }: { reviewId: string; onDone: () => void }) {
  const [text, setText] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!text.trim()) {
      setError("Please write a reply.");
      return;
    }
    setBusy(true);
    try {
      await call(api.PUT("/api/reviews/reply/{review_id}", { params: { path: { review_id: reviewId } }, body: { reply: text.trim() } }));
      toast.success(REPLY_PUBLISHED);
      void invalidate(["/api/reviews"]);
      onDone();
    } catch {
      /* the client toasted the server's sentence; the text stays */
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={submit} noValidate className="review__reply-form">
      <label className="action-field">
        Your reply
        <textarea value={text} maxLength={2000} onChange={(event) => setText(event.currentTarget.value)} aria-invalid={Boolean(error) || undefined} />
      </label>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      <div className="dash-actions">
        <button type="button" className="button button--ghost" onClick={onDone} disabled={busy}>
          Close
        </button>
        <button type="submit" className="button" disabled={busy} aria-busy={busy || undefined}>
          Publish reply
        </button>
      </div>
    </form>
  );
}

function Side({ title, item, periodEnds }: { title: string; item: SideReview | null; periodEnds: string }) {
  const [replying, setReplying] = useState(false);
  return (
    <div className="review" data-testid="booking-review">
      <h3>{title}</h3>
      {!item && <p className="dash-note">Not written yet.</p>}
      {item && !item._id && (
        <p className="dash-note">Written; shown when both sides have reviewed, or on {formatDate(periodEnds)}.</p>
      )}
      {item?._id && (
        <>
          {!item.revealed && <p className="dash-note">Shown to the other side when both have reviewed, or on {formatDate(periodEnds)}.</p>}
          <Rating rating={item.rating} />
          {item.review && <p className="review__text">{item.review}</p>}
          {item.remarks && <p className="dash-note">Private remarks: {item.remarks}</p>}
          {item.reply && (
            <blockquote className="review__reply">
              <strong>Host's reply:</strong> {item.reply}
            </blockquote>
          )}
          {item.can?.reply && !replying && (
            <button type="button" className="button button--secondary" onClick={() => setReplying(true)}>
              Reply
            </button>
          )}
          {replying && <ReplyForm reviewId={item._id} onDone={() => setReplying(false)} />}
        </>
      )}
    </div>
  );
}

export function BookingReviews({ bookingId, completed, renterName }: { bookingId: string; completed: boolean; renterName: string }) {
  const query = useApiQuery(
    "/api/reviews/booking/{booking_id}",
    { params: { path: { booking_id: bookingId } } },
    { silent: true, select: (answer) => answer.data },
  );
  const data = query.data;
  if (!data) return null;
  const said = data.renterReviews;
  const ownSection = completed || data.renterReview || data.hostReview;
  if (!ownSection && !said) return null;
  return (
    <section className="dash-card" aria-labelledby="reviews-title">
      <h2 id="reviews-title">Reviews</h2>
      {ownSection && (
        <>
          <Side title="The renter's review of the space" item={data.renterReview} periodEnds={data.reviewPeriodEnds} />
          <Side title="The host's review of the renter" item={data.hostReview} periodEnds={data.reviewPeriodEnds} />
        </>
      )}
      {said && (
        <div data-testid="renter-reputation">
          <h3>What hosts said about {renterName || "this renter"}</h3>
          {said.total === 0 ? (
            <p className="dash-note">No reviews from hosts yet.</p>
          ) : (
            <>
              <p>
                {said.ratingCount > 0 ? `${said.rating} out of 5 from ${said.ratingCount} rating${said.ratingCount === 1 ? "" : "s"}` : "No ratings"} ·{" "}
                {said.total} review{said.total === 1 ? "" : "s"}
              </p>
              <ul className="reviews">
                {said.reviews.map((item) => (
                  <li key={item._id} className="review" data-testid="renter-review">
                    <p className="review__head">
                      <strong>{item.listingTitle}</strong> <span className="review__date">{formatDate(item.createdAt)}</span>
                    </p>
                    <Rating rating={item.rating} />
                    {item.review && <p className="review__text">{item.review}</p>}
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
    </section>
  );
}
