import { UsersScreen } from "../../features/users/UsersScreen";
import { mountIsland } from "../../shared/ui/mountIsland";

mountIsland("DashboardUsers", UsersScreen);
