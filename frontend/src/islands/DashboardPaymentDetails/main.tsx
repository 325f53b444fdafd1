import "../../shared/ui/css/dashboard.css";
import { mountIsland } from "../../shared/ui/mountIsland";
import { PaymentDetailsPage } from "../../features/payment-details/PaymentDetailsPage";

mountIsland("DashboardPaymentDetails", PaymentDetailsPage);
