import { ContentScreen } from "../../features/cms/ContentPage";
import { mountIsland } from "../../shared/ui/mountIsland";

mountIsland("DashboardContent", ContentScreen);
