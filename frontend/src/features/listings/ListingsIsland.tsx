/** The listing pages of the dashboard, by route: the table, the request lists and one listing. */
import "../../shared/ui/css/dashboard.css";
import "./listings.css";
import { ListingDetailPage } from "./ListingDetailPage";
import { ListingsPage } from "./ListingsPage";
import { RequestsPage } from "./RequestsPage";

export interface ListingsIslandProps {
  role: string;
  view: "list" | "requests" | "otherRequests" | "detail";
  id?: string;
  requestId?: string;
}

export function ListingsIsland({ role, view, id, requestId }: ListingsIslandProps) {
  if (view === "detail") return <ListingDetailPage id={id ?? ""} role={role} requestId={requestId || undefined} />;
  if (view === "requests" || view === "otherRequests") return <RequestsPage role={role} view={view} />;
  return <ListingsPage role={role} />;
}
