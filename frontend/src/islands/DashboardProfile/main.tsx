import { ProfileScreen } from "../../features/account/ProfilePage";
import { mountIsland } from "../../shared/ui/mountIsland";

mountIsland("DashboardProfile", ProfileScreen);
