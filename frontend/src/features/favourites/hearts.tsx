/** Hearts on the server-rendered listing cards: each `[data-heart]` element names its listing. */
import { createRoot } from "react-dom/client";
import { Heart } from "./Heart";

export function mountCardHearts(root: ParentNode = document): void {
  root.querySelectorAll<HTMLElement>("[data-heart]").forEach((element) => {
    if (element.dataset.mounted) return;
    element.dataset.mounted = "true";
    const data = element.dataset;
    createRoot(element).render(
      <Heart
        listingId={data.listingId ?? ""}
        title={data.title ?? "this space"}
        favourite={data.favourite === "true"}
        isLoggedIn={data.signedIn === "true"}
        isRenter={data.renter === "true"}
      />,
    );
  });
}
