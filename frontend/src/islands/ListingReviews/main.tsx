import { ListingReviews } from "../../features/reviews/ListingReviews";
import { mountIsland } from "../../shared/ui/mountIsland";

mountIsland("ListingReviews", ListingReviews);
