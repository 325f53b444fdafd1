import { BookingsPage } from "../../features/bookings/BookingsPage";
import { mountIsland } from "../../shared/ui/mountIsland";

mountIsland("DashboardBookings", BookingsPage);
