import { AmenitiesPage } from "../../features/listings/AmenitiesPage";
import { mountIsland } from "../../shared/ui/mountIsland";

mountIsland("DashboardAmenities", AmenitiesPage);
