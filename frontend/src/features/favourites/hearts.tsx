/**
 * Hearts on the server-rendered listing cards: each `[data-heart]` element holds its props as a
 * `json_script` (`IslandPropsFavouriteHeart`, apps/listings/templatetags/listing_tags.py `card_heart`).
 */
import { createRoot } from "react-dom/client";
import { parseProps } from "../../shared/ui/mountIsland";
import { Heart } from "./Heart";

export function mountCardHearts(root: ParentNode = document): void {
  root.querySelectorAll<HTMLElement>("[data-heart]").forEach((element) => {
    if (element.dataset.mounted) return;
    element.dataset.mounted = "true";
    const props = parseProps("FavouriteHeart", element.querySelector('script[type="application/json"]')?.textContent);
    element.replaceChildren();
    createRoot(element).render(<Heart {...props} />);
  });
}
