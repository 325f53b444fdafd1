import { VerificationPage } from "../../features/users/VerificationPage";
import { mountIsland } from "../../shared/ui/mountIsland";

mountIsland("DashboardVerification", VerificationPage);
