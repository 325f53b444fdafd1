import { DashboardHome } from "../../features/dashboard/DashboardHome";
import { mountIsland } from "../../shared/ui/mountIsland";

mountIsland("DashboardHome", DashboardHome);
