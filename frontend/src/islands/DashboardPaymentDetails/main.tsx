import "../../dashboard/dashboard.css";
import { mountDashboardIsland } from "../../dashboard/ErrorBoundary";
import { PaymentDetailsPage } from "../../features/payment-details/PaymentDetailsPage";

mountDashboardIsland("DashboardPaymentDetails", PaymentDetailsPage);
