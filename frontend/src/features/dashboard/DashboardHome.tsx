/** The Dashboard screen (spec 2.4) for every role; admin and moderator see the platform numbers. */
import { lazy, Suspense, useMemo, useState } from "react";
import type { Schemas } from "../../shared/api/client";
import { useApiQuery } from "../../shared/api/hooks";
import { SelectInput } from "../../shared/forms/fields";
import { money } from "../../shared/format";
import { BarChart } from "../../shared/ui/Chart";
import "../../shared/ui/css/dashboard.css";
import { Spinner } from "../../shared/ui/Spinner";
import { DataTable } from "../../shared/ui/Table";
import { InvoiceModal, invoiceColumns } from "../payments/invoices";
import { chartSeries, INTERVALS, type Interval, STAT_CARDS, type StatCard } from "./stats";
import type { IslandProps } from "../../shared/ui/mountIsland";

type Invoice = Schemas["Invoice"];

// The platform widgets load only for the users the server gives them to.
const AdminWidgets = lazy(() => import("./AdminWidgets").then((module) => ({ default: module.AdminWidgets })));

/** What the server's dashboard policy (apps/dashboard/policies.py) gives this user. */
/**
 * The platform widgets in page order (none for hosts, subHosts and renters); the staff cards counting
 * the platform; the money card's label ("Total earnings" for the host side, "Total rent paid" for
 * renters); and, for a host side without any listing yet, the way to the first one.
 */
type DashboardFlags = Partial<
  Pick<IslandProps<"DashboardHome">, "widgets" | "platformNumbers" | "seesInvoices" | "moneyLabel" | "firstListing">
>;

/** "1 booking", "3 bookings". */
export function countText(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

function FirstListing() {
  return (
    <section className="dash-card dash-first-listing" aria-labelledby="first-listing-title">
      <h2 id="first-listing-title">Add your first listing</h2>
      <p>Renters find your space once it is listed and approved. It takes nine short steps; your draft is saved as you go.</p>
      <a className="button" href="/add-new-listing">
        Add your first listing
      </a>
    </section>
  );
}

function staffCards(revenue: boolean): StatCard[] {
  return [
    { label: "Event Spaces", key: "eventSpaceCount", href: "/listing" },
    { label: "Work Spaces", key: "workSpaceCount", href: "/listing" },
    revenue
      ? { label: "Total Revenue", key: "totalRevenue", href: "/invoices", money: true }
      : { label: "Total Bookings", key: "totalBooking", href: "/booking" },
    { label: "Total Users", key: "totalUsers", href: "/renters" },
  ];
}

function StatCards({ interval, platformNumbers, revenue, moneyLabel }: { interval: Interval; platformNumbers: boolean; revenue: boolean; moneyLabel?: string }) {
  const numbers = useApiQuery(
    "/api/dashboard/get-dashboard-numbers/{interval}",
    { params: { path: { interval } } },
    { silent: true, select: (answer) => answer.data },
  );
  const cards = platformNumbers
    ? staffCards(revenue)
    : STAT_CARDS.map((card) => (card.key === "totalRentPaid" && moneyLabel ? { ...card, label: moneyLabel } : card));
  return (
    <>
      <div className="dash-stats">
        {cards.map((card) => {
          const value = numbers.data?.[card.key];
          return (
            <a key={card.label} className="dash-stat" href={card.href}>
              <div className="dash-stat__label">{card.label}</div>
              <div className="dash-stat__value">
                {numbers.isPending ? <Spinner /> : value === undefined || value === null ? "—" : card.money ? money(value) : value}
              </div>
            </a>
          );
        })}
      </div>
      {numbers.isError && <p className="dash-empty">Statistics could not be loaded.</p>}
    </>
  );
}

function StatisticOverview() {
  const [interval, setInterval] = useState<Interval>("week");
  const statistics = useApiQuery(
    "/api/dashboard/property-statistics/{interval}",
    { params: { path: { interval } } },
    { silent: true, select: (answer) => answer.data },
  );
  const series = useMemo(() => (statistics.data ? chartSeries(interval, statistics.data) : null), [interval, statistics.data]);
  const bars = useMemo(
    () =>
      series
        ? [
            { label: "Event Spaces", data: series.eventSpaces, colour: "#2563eb" },
            { label: "Work Spaces", data: series.workSpaces, colour: "#f59e0b" },
          ]
        : [],
    [series],
  );
  return (
    <section className="dash-card" aria-labelledby="overview-title">
      <div className="dash-title">
        <h2 id="overview-title">Statistic overview</h2>
        <SelectInput label="Sort By" inline value={interval} options={INTERVALS} onChange={(value) => setInterval(value as Interval)} />
      </div>
      {statistics.isPending && <Spinner size="large" />}
      {statistics.isError && <p className="dash-empty">Statistics could not be loaded.</p>}
      {series && (
        <>
          <p data-testid="overview-count">
            {countText(series.total, "booking")} · {series.year}
          </p>
          <BarChart labels={series.labels} series={bars} label="Bookings of event spaces and work spaces" />
        </>
      )}
    </section>
  );
}

function RecentInvoices() {
  const [open, setOpen] = useState<Invoice | null>(null);
  const invoices = useApiQuery("/api/dashboard/payment-invoices", undefined, {
    silent: true,
    select: (answer) => answer.data.invoices.slice(0, 5),
  });
  return (
    <>
      <DataTable<Invoice>
        caption="Recent invoices"
        viewAllHref="/invoices"
        columns={invoiceColumns(setOpen)}
        rows={invoices.data ?? []}
        rowKey={(invoice) => invoice._id}
        loading={invoices.isPending}
      />
      {open && <InvoiceModal invoice={open} onClose={() => setOpen(null)} />}
    </>
  );
}

export function DashboardHome({ widgets = [], platformNumbers = false, seesInvoices = false, moneyLabel, firstListing = false }: DashboardFlags) {
  const [interval, setInterval] = useState<Interval>("year");
  return (
    <>
      <div className="dash-title">
        <h1>Dashboard</h1>
        <SelectInput label="Sort By" inline value={interval} options={INTERVALS} onChange={(value) => setInterval(value as Interval)} />
      </div>
      {firstListing && <FirstListing />}
      <StatCards interval={interval} platformNumbers={platformNumbers} revenue={widgets.includes("revenue")} moneyLabel={moneyLabel} />
      <StatisticOverview />
      {seesInvoices && <RecentInvoices />}
      {widgets.length > 0 && (
        <Suspense fallback={<Spinner size="large" />}>
          <AdminWidgets widgets={widgets} />
        </Suspense>
      )}
    </>
  );
}
