import { ListingHeart } from "../../features/favourites/Heart";
import { mountIsland } from "../../shared/ui/mountIsland";

mountIsland("FavouriteHeart", ListingHeart);
