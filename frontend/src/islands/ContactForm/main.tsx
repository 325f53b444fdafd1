import { ContactForm } from "../../features/contact/ContactForm";
import { mountIsland } from "../../shared/ui/mountIsland";

mountIsland("ContactForm", ContactForm);
