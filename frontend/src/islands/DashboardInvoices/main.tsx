import { InvoicesPage } from "../../features/payments/InvoicesPage";
import { mountIsland } from "../../shared/ui/mountIsland";

mountIsland("DashboardInvoices", InvoicesPage);
