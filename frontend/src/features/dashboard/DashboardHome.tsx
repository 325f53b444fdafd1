/** The Dashboard screen (spec 2.4) for every role; admin and moderator see the platform numbers. */
import { lazy, Suspense, useEffect, useState } from "react";
import "../../shared/ui/css/dashboard.css";
import { money } from "../../shared/format";
import { http } from "../../shared/api/http";
import { type Invoice, InvoiceModal, invoiceColumns } from "../../features/payments/invoices";
import { StatisticChart } from "../../shared/ui/StatisticChart";
import { type ChartSeries, chartSeries, type DashboardNumbers, INTERVALS, type Interval, type PropertyStatisticsEntry, STAT_CARDS } from "./stats";
import { DataTable } from "../../shared/ui/Table";

const STAFF = ["admin", "moderator"];
// The platform widgets load only for the roles that see them.
const AdminWidgets = lazy(() => import("./AdminWidgets").then((module) => ({ default: module.AdminWidgets })));
const SEES_INVOICES = ["admin", "host", "subHost", "renter"];

function IntervalSelect({ id, value, onChange, label }: { id: string; value: Interval; onChange: (value: Interval) => void; label: string }) {
  return (
    <label className="dash-select" htmlFor={id}>
      {label}
      <select id={id} value={value} onChange={(event) => onChange(event.currentTarget.value as Interval)}>
        {INTERVALS.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </label>
  );
}

function StatCards({ interval, role }: { interval: Interval; role: string }) {
  const [numbers, setNumbers] = useState<DashboardNumbers | null | undefined>(undefined);
  useEffect(() => {
    setNumbers(undefined);
    http
      .get<DashboardNumbers>(`/api/dashboard/get-dashboard-numbers/${interval}`, { silent: true })
      .then((answer) => setNumbers(answer.data))
      .catch(() => setNumbers(null));
  }, [interval]);
  const cards = STAFF.includes(role)
    ? [
        { label: "Event Spaces", key: "eventSpaceCount" as const, href: "/listing", money: false },
        { label: "Work Spaces", key: "workSpaceCount" as const, href: "/listing", money: false },
        role === "admin"
          ? { label: "Total Revenue", key: "totalRevenue" as const, href: "/invoices", money: true }
          : { label: "Total Bookings", key: "totalBooking" as const, href: "/booking", money: false },
        { label: "Total Users", key: "totalUsers" as const, href: "/renters", money: false },
      ]
    : STAT_CARDS;
  return (
    <>
      <div className="dash-stats">
        {cards.map((card) => {
          const value = numbers?.[card.key];
          return (
            <a key={card.label} className="dash-stat" href={card.href}>
              <div className="dash-stat__label">{card.label}</div>
              <div className="dash-stat__value">
                {numbers === undefined ? <span className="dash-spinner" aria-label="Loading" /> : value === undefined ? "—" : card.money ? money(value) : value}
              </div>
            </a>
          );
        })}
      </div>
      {numbers === null && <p className="dash-empty">Statistics could not be loaded.</p>}
    </>
  );
}

function StatisticOverview() {
  const [interval, setInterval] = useState<Interval>("week");
  const [series, setSeries] = useState<ChartSeries | null | undefined>(undefined);
  useEffect(() => {
    setSeries(undefined);
    http
      .get<PropertyStatisticsEntry[] | { statistics: PropertyStatisticsEntry[] }>(`/api/dashboard/property-statistics/${interval}`, {
        silent: true,
      })
      .then((answer) => {
        const entries = Array.isArray(answer.data) ? answer.data : (answer.data.statistics ?? []);
        setSeries(chartSeries(interval, entries));
      })
      .catch(() => setSeries(null));
  }, [interval]);
  return (
    <section className="dash-card" aria-labelledby="overview-title">
      <div className="dash-title">
        <h2 id="overview-title">Statistic overview</h2>
        <IntervalSelect id="overview-sort" label="Sort By" value={interval} onChange={setInterval} />
      </div>
      {series === undefined && <span className="dash-spinner" role="status" aria-label="Loading" />}
      {series === null && <p className="dash-empty">Statistics could not be loaded.</p>}
      {series && (
        <>
          <p data-testid="overview-count">
            {series.total} bookings · {series.year}
          </p>
          <StatisticChart series={series} />
        </>
      )}
    </section>
  );
}

function RecentInvoices({ role }: { role: string }) {
  const [rows, setRows] = useState<Invoice[]>([]);
  const [loading, setLoading] = useState(true);
  const [open, setOpen] = useState<Invoice | null>(null);
  useEffect(() => {
    http
      .get<{ invoices: Invoice[] }>("/api/dashboard/payment-invoices", { query: { page: 1, limit: 10 }, silent: true })
      .then((answer) => setRows(answer.data.invoices.slice(0, 5)))
      .catch(() => setRows([]))
      .finally(() => setLoading(false));
  }, []);
  return (
    <>
      <DataTable<Invoice>
        role={role}
        caption="Recent invoices"
        viewAllHref="/invoices"
        columns={invoiceColumns(setOpen)}
        rows={rows}
        rowKey={(invoice) => invoice._id}
        loading={loading}
      />
      {open && <InvoiceModal invoice={open} onClose={() => setOpen(null)} />}
    </>
  );
}

export function DashboardHome({ role }: { role: string }) {
  const [interval, setInterval] = useState<Interval>("year");
  return (
    <>
      <div className="dash-title">
        <h1>Dashboard</h1>
        <IntervalSelect id="dashboard-sort" label="Sort By" value={interval} onChange={setInterval} />
      </div>
      <StatCards interval={interval} role={role} />
      <StatisticOverview />
      {SEES_INVOICES.includes(role) && <RecentInvoices role={role} />}
      {STAFF.includes(role) && (
        <Suspense fallback={<span className="dash-spinner" role="status" aria-label="Loading" />}>
          <AdminWidgets role={role} />
        </Suspense>
      )}
    </>
  );
}
