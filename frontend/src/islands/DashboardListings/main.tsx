import { ListingsIsland } from "../../features/listings/ListingsIsland";
import { mountIsland } from "../../shared/ui/mountIsland";

mountIsland("DashboardListings", ListingsIsland);
