import { ListingFormPage } from "../../features/listings/ListingForm";
import { mountIsland } from "../../shared/ui/mountIsland";

mountIsland("DashboardListingForm", ListingFormPage);
