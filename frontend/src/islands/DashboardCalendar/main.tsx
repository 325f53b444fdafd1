import { CalendarPage } from "../../features/calendar/CalendarPage";
import { mountIsland } from "../../shared/ui/mountIsland";

mountIsland("DashboardCalendar", CalendarPage);
