/**
 * The favourite heart on listing cards and the listing page. A visitor is asked to log in; a
 * renter saves or removes the listing; other roles keep no favourites, so they see no heart.
 */
import { Heart as HeartIcon } from "lucide-react";
import { useState } from "react";
import { api, call } from "../../shared/api/client";
import { toast } from "../../shared/ui/toast";
import { openAuthModal } from "../auth/authModal";
import "./heart.css";
import type { IslandProps } from "../../shared/ui/mountIsland";

export interface HeartProps {
  listingId: string;
  title: string;
  favourite: boolean;
  isLoggedIn: boolean;
  isRenter: boolean;
  /** A bigger button with its word (the listing page); cards show the icon alone. */
  withLabel?: boolean;
}

export function Heart({ listingId, title, favourite, isLoggedIn, isRenter, withLabel }: HeartProps) {
  const [saved, setSaved] = useState(favourite);
  const [busy, setBusy] = useState(false);
  if (isLoggedIn && !isRenter) return null;
  const toggle = async () => {
    if (!isLoggedIn) {
      toast.info("Log in to save spaces to your favourites.");
      void openAuthModal("login");
      return;
    }
    setBusy(true);
    try {
      const answer = saved
        ? await call(api.DELETE("/api/favourites/remove/{listing_id}", { params: { path: { listing_id: listingId } } }))
        : await call(api.POST("/api/favourites/add/{listing_id}", { params: { path: { listing_id: listingId } } }));
      setSaved(!saved);
      toast.success(answer.message || (saved ? "Removed from your favourites." : "Added to your favourites."));
    } catch {
      /* the toast already said why */
    } finally {
      setBusy(false);
    }
  };
  const label = saved ? `Saved. Remove ${title} from your favourites` : `Save ${title} to your favourites`;
  return (
    <button type="button" className={`heart-button${saved ? " is-on" : ""}${withLabel ? " heart-button--label" : ""}`} aria-pressed={saved} aria-label={label} title={label} disabled={busy} onClick={() => void toggle()}>
      <HeartIcon aria-hidden="true" size={withLabel ? 18 : 20} fill={saved ? "currentColor" : "none"} />
      {withLabel && <span>{saved ? "Saved" : "Save"}</span>}
    </button>
  );
}

/** The listing page's heart (its props come from the page). */
export function ListingHeart(props: IslandProps<"FavouriteHeart">) {
  return <Heart {...props} withLabel />;
}
