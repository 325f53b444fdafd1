import { FavouritesPage } from "../../features/listings/FavouritesPage";
import { mountIsland } from "../../shared/ui/mountIsland";

mountIsland("DashboardFavourites", FavouritesPage);
