import { PremiumMembership } from "../../features/premium/PremiumMembership";
import { mountIsland } from "../../shared/ui/mountIsland";

mountIsland("DashboardPremium", PremiumMembership);
