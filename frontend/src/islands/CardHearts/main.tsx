import { mountCardHearts } from "../../features/favourites/hearts";

mountCardHearts();
window.addEventListener("search-results-changed", () => mountCardHearts());
