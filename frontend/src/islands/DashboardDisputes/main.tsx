import "../../shared/ui/css/dashboard.css";
import { mountIsland } from "../../shared/ui/mountIsland";
import { DisputesPage } from "../../features/disputes/DisputesPage";

mountIsland("DashboardDisputes", DisputesPage);
