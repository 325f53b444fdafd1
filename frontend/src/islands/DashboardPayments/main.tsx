import { PaymentsPage } from "../../features/payments/PaymentsPage";
import { mountIsland } from "../../shared/ui/mountIsland";

mountIsland("DashboardPayments", PaymentsPage);
