/** The admin and moderator dashboard widgets (spec 2.4), fed by the statistics API under /api/dashboard/. */
import { useQuery } from "@tanstack/react-query";
import { type ReactNode, useMemo, useState } from "react";
import type { Schemas } from "../../shared/api/client";
import { type GetAnswer, type GetInit, type GetPath, getAnswer } from "../../shared/api/hooks";
import { apiKey } from "../../shared/api/query";
import { SelectInput } from "../../shared/forms/fields";
import { formatDate, money, truncate } from "../../shared/format";
import { Badge } from "../../shared/ui/Badge";
import { BarChart } from "../../shared/ui/Chart";
import { Spinner } from "../../shared/ui/Spinner";
import { type Column, DataTable } from "../../shared/ui/Table";
import { listingHref } from "../bookings/bookings";
import {
  type AmenityBar,
  amenityBars,
  type CountryBar,
  countryBars,
  type LocationBar,
  listPages,
  locationBars,
  personLabel,
  popularHostRows,
  type RevenueSeries,
  revenueSeries,
  UNCOLOURED_SHADE,
  userRoleBars,
} from "./widgets";

type Load<T> = { state: "loading" } | { state: "failed" } | { state: "ready"; data: T };

/** A statistics call: every GET under /api/dashboard/ answers `{message, data}`. */
type StatisticsPath = Extract<GetPath, `/api/dashboard/${string}`>;
/** The `data` of a statistics call's answer, as the schema declares it. */
type StatisticsData<P extends StatisticsPath> = GetAnswer<P>["data"];

/**
 * GET one statistics call through the typed client; a failure is shown inside the widget, never
 * as a toast over the page.
 */
function useStatistics<P extends StatisticsPath>(path: P, init?: GetInit<P>): Load<StatisticsData<P>> {
  const result = useQuery({
    queryKey: apiKey(path, init),
    queryFn: ({ signal }) => getAnswer(path, init, { silent: true, signal }).then((answer): StatisticsData<P> => answer.data),
  });
  if (result.isPending) return { state: "loading" };
  if (result.isError) return { state: "failed" };
  return { state: "ready", data: result.data };
}

function Widget({ id, title, tools, children }: { id: string; title: string; tools?: ReactNode; children: ReactNode }) {
  return (
    <section className="dash-card dash-widget" aria-labelledby={`${id}-title`} data-widget={id}>
      <div className="dash-title">
        <h2 id={`${id}-title`}>{title}</h2>
        {tools}
      </div>
      {children}
    </section>
  );
}

function Loaded<T>({ load, empty, children }: { load: Load<T>; empty: (data: T) => boolean; children: (data: T) => ReactNode }) {
  if (load.state === "loading") return <Spinner />;
  if (load.state === "failed") return <p className="dash-empty">These statistics could not be loaded.</p>;
  if (empty(load.data)) return <p className="dash-empty">No data found</p>;
  return <>{children(load.data)}</>;
}

/** Horizontal progress bars with the label, the count and the percentage as text. */
function Bars({ rows, unit }: { rows: { key: string; label: string; count: number; percentage: number; text: string; shade?: string; colour?: string | null }[]; unit: string }) {
  return (
    <ul className="dash-bars">
      {rows.map((row) => (
        <li key={row.key} data-colour={row.colour ?? undefined}>
          <div className="dash-bars__text">
            <span>
              {row.colour !== undefined && <span className="dash-bars__dot" style={{ background: row.shade ?? UNCOLOURED_SHADE }} aria-hidden="true" />}
              {row.label}
            </span>
            <span>
              {row.count}
              {unit ? ` ${row.count === 1 ? unit.replace(/s$/, "") : unit}` : ""} · <strong>{row.text}</strong>
            </span>
          </div>
          <div className="dash-bars__track" aria-hidden="true">
            <div className="dash-bars__fill" style={{ width: `${row.percentage}%`, background: row.shade ?? "#2563eb" }} />
          </div>
        </li>
      ))}
    </ul>
  );
}

/** A select over fixed options whose values keep their literal type (the API's enums). */
function Select<V extends string>({ label, value, options, onChange }: { id?: string; label: string; value: V; options: readonly { value: V; label: string }[]; onChange: (value: V) => void }) {
  const pick = (picked: string) => {
    const option = options.find((item) => item.value === picked);
    if (option) onChange(option.value);
  };
  return <SelectInput label={label} inline value={value} options={options} onChange={pick} />;
}

const PROPERTY_TYPES = [
  { value: "all", label: "All spaces" },
  { value: "eventSpace", label: "Event Spaces" },
  { value: "officeSpace", label: "Work Spaces" },
] as const;
const REVENUE_INTERVALS = [
  { value: "week", label: "Weekly" },
  { value: "month", label: "Monthly" },
  { value: "year", label: "Yearly" },
] as const;

function RevenueChart({ series }: { series: RevenueSeries }) {
  const bars = useMemo(
    () => [
      { label: "Revenue", data: series.revenue, colour: "#16a34a" },
      { label: "Commission", data: series.commission, colour: "#2563eb" },
    ],
    [series],
  );
  return (
    <BarChart
      labels={series.labels}
      series={bars}
      height={260}
      format={money}
      label={`Revenue ${money(series.totalRevenue)} and commission ${money(series.totalCommission)} per period`}
    />
  );
}

function Revenue() {
  const [interval, setInterval] = useState<(typeof REVENUE_INTERVALS)[number]["value"]>("month");
  const [propertyType, setPropertyType] = useState<(typeof PROPERTY_TYPES)[number]["value"]>("all");
  const load = useStatistics("/api/dashboard/revenue-statistics", { params: { query: { interval, propertyType } } });
  return (
    <Widget
      id="revenue"
      title="Revenue"
      tools={
        <span className="dash-tools">
          <Select id="revenue-type" label="Spaces" value={propertyType} options={PROPERTY_TYPES} onChange={setPropertyType} />
          <Select id="revenue-interval" label="Sort By" value={interval} options={REVENUE_INTERVALS} onChange={setInterval} />
        </span>
      }
    >
      <Loaded load={load} empty={(data) => data.length === 0}>
        {(data) => {
          const series = revenueSeries(data);
          return (
            <>
              <p data-testid="revenue-totals">
                Revenue <strong>{money(series.totalRevenue)}</strong> · Commission <strong>{money(series.totalCommission)}</strong>
              </p>
              <RevenueChart series={series} />
            </>
          );
        }}
      </Loaded>
    </Widget>
  );
}

function Users() {
  const load = useStatistics("/api/dashboard/total-users");
  return (
    <Widget id="total-users" title="Users">
      <Loaded load={load} empty={(data) => !data.roles?.length}>
        {(data) => (
          <>
            <p>
              <strong>{data.totalUsers}</strong> accounts
            </p>
            <Bars rows={userRoleBars(data).map((row) => ({ ...row, key: row.role }))} unit="" />
          </>
        )}
      </Loaded>
    </Widget>
  );
}

function Locations() {
  const load = useStatistics("/api/dashboard/high-demand-locations");
  return (
    <Widget id="high-demand-locations" title="High-demand locations">
      <Loaded load={load} empty={(data) => !data.highDemandLocations?.length}>
        {(data) => <Bars rows={locationBars(data.highDemandLocations) satisfies LocationBar[]} unit="bookings" />}
      </Loaded>
    </Widget>
  );
}

function Amenities() {
  const [propertyType, setPropertyType] = useState<(typeof PROPERTY_TYPES)[number]["value"]>("all");
  const load = useStatistics("/api/dashboard/high-demand-amenities/{property_type}", { params: { path: { property_type: propertyType } } });
  return (
    <Widget
      id="high-demand-amenities"
      title="High-demand amenities"
      tools={<Select id="amenities-type" label="Spaces" value={propertyType} options={PROPERTY_TYPES} onChange={setPropertyType} />}
    >
      <Loaded load={load} empty={(data) => !data.highDemandAmenities?.length}>
        {(data) => <Bars rows={amenityBars(data.highDemandAmenities) satisfies AmenityBar[]} unit="bookings" />}
      </Loaded>
    </Widget>
  );
}

function Countries() {
  const load = useStatistics("/api/dashboard/geo-chart");
  return (
    <Widget id="geo-chart" title="Bookings by country">
      <Loaded load={load} empty={(data) => countryBars(data).length === 0}>
        {(data) => (
          <Bars
            rows={countryBars(data).map((row: CountryBar) => ({ ...row, key: row.country, label: row.country }))}
            unit="bookings"
          />
        )}
      </Loaded>
    </Widget>
  );
}

function PopularHosts() {
  const load = useStatistics("/api/dashboard/popular-hosts");
  return (
    <Widget id="popular-hosts" title="Popular hosts">
      <Loaded load={load} empty={(data) => data.length === 0}>
        {(data) => (
          <table className="dash-mini-table">
            <thead>
              <tr>
                <th scope="col">Host</th>
                <th scope="col">Bookings</th>
                <th scope="col">Share</th>
              </tr>
            </thead>
            <tbody>
              {popularHostRows(data).map((row) => (
                <tr key={row.key}>
                  <td>{row.deleted ? truncate(row.name, 20) : <a href={`/view-user/${row.key}`}>{truncate(row.name, 20)}</a>}</td>
                  <td>{row.totalBookings}</td>
                  <td>{row.text}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Loaded>
    </Widget>
  );
}

function PopularSpaces() {
  const load = useStatistics("/api/dashboard/popular-spaces");
  return (
    <Widget id="popular-spaces" title="Popular spaces">
      <Loaded load={load} empty={(data) => data.length === 0}>
        {(data) => (
          <table className="dash-mini-table">
            <thead>
              <tr>
                <th scope="col">Space</th>
                <th scope="col">City</th>
                <th scope="col">Bookings</th>
              </tr>
            </thead>
            <tbody>
              {data.map((row) => (
                <tr key={row.listing._id}>
                  <td>
                    <a href={listingHref(row.listing)}>{truncate(row.listing.title, 20)}</a>
                  </td>
                  <td>{row.listing.city ?? ""}</td>
                  <td>{row.totalBookings}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Loaded>
    </Widget>
  );
}

type BookingRow = Schemas["BookingRow"];

/** How many pages a statistics list offers: from totalCount, or from hasMore on the recent lists, which do not count every row. */
function pagesOf<T extends { totalCount?: number; hasMore?: boolean }>(load: Load<T>, page: number): number {
  return listPages(page, load.state === "ready" ? load.data : null);
}

/** The booking lists of the dashboard, each under its own key. */
const BOOKING_LISTS = {
  requests: "/api/dashboard/recent-requests",
  reservations: "/api/dashboard/new-reservations",
  bookings: "/api/dashboard/recent-bookings",
} as const;

function bookingRows(data: StatisticsData<(typeof BOOKING_LISTS)[keyof typeof BOOKING_LISTS]>): BookingRow[] {
  if ("requests" in data) return data.requests;
  if ("reservations" in data) return data.reservations;
  return data.bookings;
}

function bookingColumns(showMoney: boolean): Column<BookingRow>[] {
  const columns: Column<BookingRow>[] = [
    { key: "listing", header: "Listing", render: (b) => <a href={listingHref(b.listing)}>{truncate(b.listing.title, 20)}</a> },
    { key: "renter", header: "Renter", render: (b) => truncate(personLabel(b.renter), 20) },
    { key: "host", header: "Host", render: (b) => truncate(personLabel(b.host), 20) },
    { key: "in", header: "Check-in", render: (b) => `${b.checkInDate} ${b.startTime ?? ""}` },
  ];
  if (showMoney) columns.push({ key: "amount", header: "Amount", render: (b) => money(b.totalAmount) });
  columns.push({ key: "status", header: "Status", render: (b) => <Badge status={b.status} /> });
  return columns;
}

function BookingListWidget({ withMoney, list, caption, viewAllHref, detail }: { withMoney: boolean; list: keyof typeof BOOKING_LISTS; caption: string; viewAllHref: string; detail: string }) {
  const [page, setPage] = useState(1);
  const load = useStatistics(BOOKING_LISTS[list], { params: { query: { page, limit: 10 } } });
  const rows = load.state === "ready" ? bookingRows(load.data) : [];
  const totalPages = pagesOf(load, page);
  return (
    <DataTable<BookingRow>
      caption={caption}
      viewAllHref={viewAllHref}
      columns={[
        ...bookingColumns(withMoney),
        { key: "view", header: "View", render: (b) => <a href={`/${detail}/${b._id}`} aria-label={`View booking of ${b.listing.title}`}>View</a> },
      ]}
      rows={rows}
      rowKey={(b) => b._id}
      loading={load.state === "loading"}
      page={page}
      totalPages={totalPages}
      onPage={setPage}
    />
  );
}

type ListingRow = Schemas["ListingRow"];

function RecentListings() {
  const [page, setPage] = useState(1);
  const load = useStatistics("/api/dashboard/recent-listings", { params: { query: { page, limit: 10 } } });
  const rows = load.state === "ready" ? load.data.listings : [];
  const totalPages = pagesOf(load, page);
  return (
    <DataTable<ListingRow>
      caption="Recent listings"
      viewAllHref="/listing"
      columns={[
        { key: "title", header: "Listing", render: (l) => <a href={listingHref(l)}>{truncate(l.title, 20)}</a> },
        { key: "type", header: "Type", render: (l) => (l.propertyType === "eventSpace" ? "Event Space" : "Work Space") },
        { key: "host", header: "Host", render: (l) => truncate(personLabel(l.host), 20) },
        { key: "city", header: "City", render: (l) => l.city ?? "" },
        { key: "date", header: "Added", render: (l) => formatDate(l.createdAt) },
        { key: "status", header: "Status", render: (l) => <Badge status={l.status} /> },
      ]}
      rows={rows}
      rowKey={(l) => l._id}
      loading={load.state === "loading"}
      page={page}
      totalPages={totalPages}
      onPage={setPage}
    />
  );
}

type PayoutRow = Schemas["Payout"];

const PAYOUT_FILTERS = [
  { value: "all", label: "All" },
  { value: "onhold", label: "Pending" },
  { value: "released", label: "Approved" },
  { value: "failed", label: "Rejected" },
] as const;

function PayoutRequests() {
  const [status, setStatus] = useState<(typeof PAYOUT_FILTERS)[number]["value"]>("onhold");
  const [page, setPage] = useState(1);
  const load = useStatistics("/api/dashboard/payout-requests/{status}", { params: { path: { status }, query: { page, limit: 10 } } });
  const rows = load.state === "ready" ? load.data.payouts : [];
  const totalPages = pagesOf(load, page);
  const totalAmount = load.state === "ready" ? load.data.totalAmount : undefined;
  return (
    <DataTable<PayoutRow>
      caption="Payout requests"
      viewAllHref="/payout-requests"
      toolbar={
        <span className="dash-tools">
          {totalAmount !== undefined && <span data-testid="payout-total">Total {money(totalAmount)}</span>}
          <Select
            id="payout-status"
            label="Status"
            value={status}
            options={PAYOUT_FILTERS}
            onChange={(value) => {
              setStatus(value);
              setPage(1);
            }}
          />
        </span>
      }
      columns={[
        { key: "host", header: "Host", render: (p) => truncate(personLabel(p.host), 20) },
        { key: "amount", header: "Amount", render: (p) => money(p.amount) },
        { key: "date", header: "Requested", render: (p) => formatDate(p.requestedAt) },
        { key: "status", header: "Status", render: (p) => <Badge status={p.status} kind="payout" /> },
      ]}
      rows={rows}
      rowKey={(p) => p._id}
      loading={load.state === "loading"}
      page={page}
      totalPages={totalPages}
      onPage={setPage}
    />
  );
}

/** The platform widgets the server names for this user (admin and moderator; money for the admin only). */
export function AdminWidgets({ widgets }: { widgets: string[] }) {
  const shown = new Set(widgets);
  const withMoney = shown.has("revenue");
  if (shown.size === 0) return null;
  return (
    <div className="dash-widgets" data-testid="admin-widgets">
      <div className="dash-grid">
        {shown.has("revenue") && <Revenue />}
        {shown.has("totalUsers") && <Users />}
        {shown.has("highDemandLocations") && <Locations />}
        {shown.has("highDemandAmenities") && <Amenities />}
        {shown.has("geoChart") && <Countries />}
        {shown.has("popularHosts") && <PopularHosts />}
        {shown.has("popularSpaces") && <PopularSpaces />}
      </div>
      {shown.has("recentRequests") && (
        <BookingListWidget withMoney={withMoney} list="requests" caption="Recent requests" viewAllHref="/booking" detail="booking-detail" />
      )}
      {shown.has("newReservations") && (
        <BookingListWidget withMoney={withMoney} list="reservations" caption="New reservations" viewAllHref="/booking" detail="booking-detail" />
      )}
      {shown.has("recentBookings") && (
        <BookingListWidget withMoney={withMoney} list="bookings" caption="Recent bookings" viewAllHref="/booking" detail="booking-detail" />
      )}
      {shown.has("recentListings") && <RecentListings />}
      {shown.has("payoutRequests") && <PayoutRequests />}
    </div>
  );
}
