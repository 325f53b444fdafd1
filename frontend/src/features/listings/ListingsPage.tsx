/** /listing: My Listing (host, subHost) or Manage Listing (admin, moderator). Actions follow `can`. */
import { CheckCircle2, Eye, Pencil, Power, Trash2, XCircle } from "lucide-react";
import { useState } from "react";
import { formatDate, money } from "../../shared/format";
import { useListState } from "../../shared/hooks/useListState";
import { Badge } from "../../shared/ui/Badge";
import { ConfirmDialog } from "../../shared/ui/ConfirmDialog";
import { DataTable, type Column, type RowAction } from "../../shared/ui/Table";
import { LISTING_TABS, type Listing, useDeleteListing, useListings, useReview, useToggleActive } from "./api";
import { listingHref } from "./form";
import { ReasonDialog } from "./ReasonDialog";
import { ListFilters } from "./ListFilters";
import { useSearchBox } from "./useSearchBox";


function fromPrice(listing: Listing): string {
  const prices = [listing.hourly && `${money(listing.hourly)} / hour`, listing.daily && `${money(listing.daily)} / day`, listing.weekly && `${money(listing.weekly)} / week`, listing.monthly && `${money(listing.monthly)} / month`];
  return prices.find(Boolean) || "—";
}

export function listingColumns(staff: boolean): Column<Listing>[] {
  const columns: Column<Listing>[] = [
    {
      key: "title",
      header: "Title",
      render: (listing) => (
        <a href={listingHref(listing)} title={listing.title}>
          {listing.title.length > 40 ? `${listing.title.slice(0, 40)}…` : listing.title}
        </a>
      ),
    },
    { key: "type", header: "Type", render: (listing) => (listing.propertyType === "eventSpace" ? "Event space" : "Work space") },
    { key: "city", header: "City", render: (listing) => `${listing.city}, ${listing.country}` },
    { key: "price", header: "From", render: fromPrice },
    {
      key: "status",
      header: "Status",
      render: (listing) => (
        <span className="badge-stack">
          <Badge status={listing.status} />
          {!listing.isActive && <span className="badge badge--muted">inactive</span>}
          {listing.requestId && listing.status === "approved" && <span className="badge badge--muted">edit in review</span>}
        </span>
      ),
    },
    { key: "created", header: "Created", render: (listing) => formatDate(listing.createdAt) },
  ];
  if (staff) columns.splice(1, 0, { key: "host", header: "Host", render: (listing) => listing.host.displayName });
  return columns;
}

type Pending = { kind: "delete" | "toggle" | "approve"; listing: Listing } | { kind: "reject"; listing: Listing };

export function ListingsPage({ staff, hostSide }: { staff: boolean; hostSide: boolean }) {
  const [list, setList] = useListState(
    { tab: "all", title: "", propertyType: "", period: "", page: 1 },
    { tabPrefix: "listing", allowedTabs: LISTING_TABS.map((tab) => tab.value) },
  );
  const [search, setSearch] = useSearchBox(list.title, (title) => setList({ title }, "replace"));
  const listings = useListings(list);
  const [pending, setPending] = useState<Pending | null>(null);
  const toggle = useToggleActive();
  const remove = useDeleteListing();
  const review = useReview();
  const close = () => setPending(null);

  const actions: RowAction<Listing>[] = [
    { label: "View", icon: Eye, href: (listing) => listingHref(listing), ariaLabel: (listing) => `View ${listing.title}` },
    { label: "Edit", icon: Pencil, can: "edit", href: (listing) => `/edit-listing/${listing._id}`, ariaLabel: (listing) => `Edit ${listing.title}` },
    { label: "Deactivate", icon: Power, can: "activate", when: (listing) => listing.isActive, onClick: (listing) => setPending({ kind: "toggle", listing }) },
    { label: "Activate", icon: Power, can: "activate", when: (listing) => !listing.isActive, onClick: (listing) => setPending({ kind: "toggle", listing }) },
    { label: "Approve", icon: CheckCircle2, can: "approve", onClick: (listing) => setPending({ kind: "approve", listing }) },
    { label: "Reject", icon: XCircle, can: "reject", tone: "danger", onClick: (listing) => setPending({ kind: "reject", listing }) },
    { label: "Delete", icon: Trash2, can: "delete", tone: "danger", onClick: (listing) => setPending({ kind: "delete", listing }) },
  ];

  return (
    <>
      <div className="dash-title">
        <h1>{staff ? "Manage Listing" : "My Listing"}</h1>
        {hostSide && (
          <a className="button" href="/add-new-listing">
            Add new listing
          </a>
        )}
      </div>
      <DataTable<Listing>
        columns={listingColumns(staff)}
        rows={listings.data?.rows ?? []}
        rowKey={(listing) => listing._id}
        rowLabel={(listing) => listing.title}
        loading={listings.isPending}
        tabs={LISTING_TABS}
        tab={list.tab}
        onTab={(tab) => setList({ tab })}
        toolbar={
          <ListFilters
            search={search}
            onSearch={setSearch}
            period={list.period}
            onPeriod={(period) => setList({ period })}
            propertyType={list.propertyType}
            onPropertyType={(propertyType) => setList({ propertyType })}
          />
        }
        actions={actions}
        actionMenu
        page={list.page}
        totalPages={listings.data?.totalPages ?? 1}
        onPage={(page) => setList({ page })}
      />
      {pending?.kind === "toggle" && (
        <ConfirmDialog
          title={pending.listing.isActive ? "Deactivate listing" : "Activate listing"}
          message={`Are you sure you want to ${pending.listing.isActive ? "deactivate" : "activate"} ${pending.listing.title}?`}
          confirmLabel={pending.listing.isActive ? "Deactivate" : "Activate"}
          busy={toggle.isPending}
          onConfirm={() => toggle.mutate(pending.listing, { onSettled: close })}
          onCancel={close}
        />
      )}
      {pending?.kind === "delete" && (
        <ConfirmDialog
          title="Delete listing"
          message={`Are you sure you want to delete ${pending.listing.title}? It disappears from search and from your listings.`}
          confirmLabel="Delete"
          tone="danger"
          busy={remove.isPending}
          onConfirm={() => remove.mutate(pending.listing, { onSettled: close })}
          onCancel={close}
        />
      )}
      {pending?.kind === "approve" && pending.listing.requestId && (
        <ConfirmDialog
          title="Approve listing"
          message={`Approve ${pending.listing.title}?`}
          confirmLabel="Approve"
          busy={review.isPending}
          onConfirm={() => review.mutate({ requestId: pending.listing.requestId ?? "", status: "approved" }, { onSettled: close })}
          onCancel={close}
        />
      )}
      {pending?.kind === "reject" && pending.listing.requestId && (
        <ReasonDialog
          title={`Reject ${pending.listing.title}`}
          busy={review.isPending}
          onSubmit={(reason) => review.mutate({ requestId: pending.listing.requestId ?? "", status: "rejected", reason }, { onSettled: close })}
          onClose={close}
        />
      )}
    </>
  );
}
