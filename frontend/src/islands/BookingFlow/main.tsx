import { BookingFlow } from "../../features/booking/BookingFlow";
import { mountIsland } from "../../shared/ui/mountIsland";

mountIsland("BookingFlow", BookingFlow);
