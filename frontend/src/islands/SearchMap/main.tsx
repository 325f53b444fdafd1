import { SearchMap } from "../../features/maps/SearchMap";
import { mountIsland } from "../../shared/ui/mountIsland";

mountIsland("SearchMap", SearchMap);
