import "../../dashboard/dashboard.css";
import { mountDashboardIsland } from "../../dashboard/ErrorBoundary";
import { NotificationsPage } from "../../features/notifications/NotificationsPage";

mountDashboardIsland("DashboardNotifications", NotificationsPage);
