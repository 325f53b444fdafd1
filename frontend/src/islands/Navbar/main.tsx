import { enhanceNavbar } from "../../features/navbar/enhance";
import { NavbarSearch } from "../../features/navbar/NavbarSearch";
import { mountIsland, readProps } from "../../shared/ui/mountIsland";
import { showFlashedToast } from "../../shared/ui/toast";

showFlashedToast();
mountIsland("NavbarSearch", NavbarSearch);
enhanceNavbar(readProps("Navbar", "navbar-props"));
