/** /favourites (renter): the listings the renter saved, as cards, with the heart to remove one. */
import { useMutation, useQuery } from "@tanstack/react-query";
import { Heart } from "lucide-react";
import { api, call, pageCount } from "../../shared/api/client";
import { apiKey, invalidate } from "../../shared/api/query";
import { money } from "../../shared/format";
import { useListState } from "../../shared/hooks/useListState";
import { Pagination } from "../../shared/ui/Pagination";
import { Spinner } from "../../shared/ui/Spinner";
import { toast } from "../../shared/ui/toast";
import "../../shared/ui/css/dashboard.css";
import "./listings.css";
import type { Listing } from "./api";

function fromPrice(listing: Listing): string {
  for (const [period, word] of [["hourly", "hour"], ["daily", "day"], ["weekly", "week"], ["monthly", "month"]] as const) {
    if (listing[period]) return `From ${money(listing[period])} / ${word}`;
  }
  return "";
}

export function FavouritesPage() {
  const [list, setList] = useListState({ page: 1 });
  const favourites = useQuery({
    queryKey: apiKey("/api/favourites/get-all", { page: list.page }),
    queryFn: ({ signal }) =>
      call(api.GET("/api/favourites/get-all", { params: { query: { page: list.page, limit: 10 } }, signal })).then((answer) => ({
        rows: answer.data.listings,
        totalPages: pageCount(answer.data),
      })),
    placeholderData: (previous) => previous,
  });
  const remove = useMutation({
    mutationFn: (listing: Listing) => call(api.DELETE("/api/favourites/remove/{listing_id}", { params: { path: { listing_id: listing._id } } })),
    onSuccess: (answer) => toast.success(answer.message || "Removed from your favourites."),
    onSettled: () => void invalidate(["/api/favourites", "/api/listing"]),
  });
  const rows = favourites.data?.rows ?? [];
  return (
    <>
      <div className="dash-title">
        <h1>Favourites</h1>
      </div>
      {favourites.isPending ? (
        <Spinner size="large" />
      ) : rows.length === 0 ? (
        <section className="dash-card">
          <p>No data found</p>
          <p>
            <a href="/property-listing">Find spaces to save</a>
          </p>
        </section>
      ) : (
        <ul className="favourite-cards">
          {rows.map((listing) => (
            <li key={listing._id} className="dash-card favourite-card">
              {listing.photos[0] ? (
                <img src={listing.photos[0].url} srcSet={listing.photos[0].srcset} sizes="(max-width: 640px) 100vw, 320px" alt={listing.photos[0].alt} width={320} height={213} loading="lazy" />
              ) : null}
              <div className="favourite-card__body">
                <h2>
                  <a href={`/listing-details/${listing.slug}`}>{listing.title}</a>
                </h2>
                <p>
                  {listing.city}, {listing.country}
                </p>
                <p>{fromPrice(listing)}</p>
                <button type="button" className="heart is-on" aria-pressed="true" disabled={remove.isPending} onClick={() => remove.mutate(listing)} aria-label={`Remove ${listing.title} from your favourites`}>
                  <Heart aria-hidden="true" size={18} fill="currentColor" /> Remove
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      {rows.length > 0 && <Pagination page={list.page} totalPages={favourites.data?.totalPages ?? 1} onPage={(page) => setList({ page })} />}
    </>
  );
}
