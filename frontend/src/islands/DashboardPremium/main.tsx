import { mountDashboardIsland } from "../../dashboard/ErrorBoundary";
import { PremiumMembership } from "../../dashboard/PremiumMembership";

mountDashboardIsland("DashboardPremium", PremiumMembership);
