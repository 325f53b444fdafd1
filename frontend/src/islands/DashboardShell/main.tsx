import { Shell } from "../../features/notifications/Shell";
import { mountIsland } from "../../shared/ui/mountIsland";

mountIsland("DashboardShell", Shell);
