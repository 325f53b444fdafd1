import { PayoutIsland } from "../../features/payments/PayoutPage";
import { mountIsland } from "../../shared/ui/mountIsland";

mountIsland("DashboardPayout", PayoutIsland);
