import { BookingWidget } from "../../features/booking/BookingWidget";
import { mountIsland } from "../../shared/ui/mountIsland";

mountIsland("BookingWidget", BookingWidget);
