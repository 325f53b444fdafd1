import "../../dashboard/dashboard.css";
import { mountDashboardIsland } from "../../dashboard/ErrorBoundary";
import { DisputesPage } from "../../features/disputes/DisputesPage";

mountDashboardIsland("DashboardDisputes", DisputesPage);
