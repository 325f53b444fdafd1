/** The listing pages of the dashboard, by route: the table, the request lists and one listing. */
import "../../shared/ui/css/dashboard.css";
import "./listings.css";
import { ListingDetailPage } from "./ListingDetailPage";
import { ListingsPage } from "./ListingsPage";
import { RequestsPage } from "./RequestsPage";
import type { IslandProps } from "../../shared/ui/mountIsland";

type PageProps = IslandProps<"DashboardListings">;
/** From the server: whether the user works on every listing (staff) or on its host's own (host side). */
export type ListingsIslandProps = Pick<PageProps, "view"> & Partial<Pick<PageProps, "staff" | "hostSide" | "id" | "requestId">>;

export function ListingsIsland({ staff = false, hostSide = false, view, id, requestId }: ListingsIslandProps) {
  if (view === "detail") return <ListingDetailPage id={id ?? ""} staff={staff} hostSide={hostSide} requestId={requestId || undefined} />;
  if (view === "requests" || view === "otherRequests") return <RequestsPage staff={staff} view={view} />;
  return <ListingsPage staff={staff} hostSide={hostSide} />;
}
