import "../../shared/ui/css/dashboard.css";
import { mountIsland } from "../../shared/ui/mountIsland";
import { NotificationsPage } from "../../features/notifications/NotificationsPage";

mountIsland("DashboardNotifications", NotificationsPage);
