import { ListingMap } from "../../features/maps/ListingMap";
import { mountIsland } from "../../shared/ui/mountIsland";

mountIsland("ListingMap", ListingMap);
