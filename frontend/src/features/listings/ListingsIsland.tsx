/** The listing pages of the dashboard, by route: the table, the request lists and one listing. */
import "../../shared/ui/css/dashboard.css";
import "./listings.css";
import { ListingDetailPage } from "./ListingDetailPage";
import { ListingsPage } from "./ListingsPage";
import { RequestsPage } from "./RequestsPage";

export interface ListingsIslandProps {
  /** From the server: the user works on every listing (admin, moderator). */
  staff?: boolean;
  /** From the server: the user works on its host's own listings (host, subHost). */
  hostSide?: boolean;
  view: "list" | "requests" | "otherRequests" | "detail";
  id?: string;
  requestId?: string;
}

export function ListingsIsland({ staff = false, hostSide = false, view, id, requestId }: ListingsIslandProps) {
  if (view === "detail") return <ListingDetailPage id={id ?? ""} staff={staff} hostSide={hostSide} requestId={requestId || undefined} />;
  if (view === "requests" || view === "otherRequests") return <RequestsPage staff={staff} view={view} />;
  return <ListingsPage staff={staff} hostSide={hostSide} />;
}
