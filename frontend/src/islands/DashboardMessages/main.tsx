import "../../dashboard/dashboard.css";
import { mountDashboardIsland } from "../../dashboard/ErrorBoundary";
import { MessagesPage } from "../../features/messages/MessagesPage";

mountDashboardIsland("DashboardMessages", MessagesPage);
