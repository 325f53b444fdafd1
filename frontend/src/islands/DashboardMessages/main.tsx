import "../../shared/ui/css/dashboard.css";
import { mountIsland } from "../../shared/ui/mountIsland";
import { MessagesPage } from "../../features/messages/MessagesPage";

mountIsland("DashboardMessages", MessagesPage);
