import { SettingsPage } from "../../features/account/SettingsPage";
import { mountIsland } from "../../shared/ui/mountIsland";

mountIsland("DashboardSettings", SettingsPage);
