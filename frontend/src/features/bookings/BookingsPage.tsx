/** Bookings: the lists (`booking`, `booking-requests`) and the details (`booking-detail`, `booking-request-details`). */
import { useCallback, useEffect, useState } from "react";
import { ConfirmDialog } from "../../shared/ui/ConfirmDialog";
import { StatusBadge } from "../../shared/ui/badges";
import { useBookingDecision } from "./BookingDecision";
import {
  BOOKING_TABS,
  type Booking,
  type Extension,
  extensionDuration,
  HOST_SIDE,
  listingHref,
  mayDecide,
  messageButton,
  type Person,
  personTarget,
  SEES_TOTAL_PAYABLE_ONLY,
  sidePanelTitle,
  summaryPanelTitle,
} from "./bookings";
import { countersChanged } from "../../features/notifications/counters";
import "../../shared/ui/css/dashboard.css";
import { FilterHeader } from "./FilterHeader";
import { formatDate, fullName, money, truncate } from "../../shared/format";
import { filters, http } from "../../shared/api/http";
import { type Column, DataTable, useRememberedTab } from "../../shared/ui/Table";
import { navigation } from "../../shared/browser/navigation";
import { toast } from "../../shared/ui/toast";

interface Props {
  view: "list" | "detail" | "request";
  mode?: "bookings" | "requests";
  id?: string;
  role: string;
}

interface ListData {
  bookings: Booking[];
  totalCount: number;
  totalPages?: number;
}

function PersonLink({ person, as }: { person: Person | null; as: "user" | "host" | "renter" }) {
  if (!person) return <span>—</span>;
  const target = personTarget(person, as);
  return (
    <button
      type="button"
      className="link-button"
      onClick={() => (target.error ? toast.error(target.error) : target.href && navigation.assign(target.href))}
    >
      {truncate(fullName(person), 20)}
    </button>
  );
}

function BookingList({ role, mode }: { role: string; mode: "bookings" | "requests" }) {
  const [tab, setTab] = useRememberedTab(`booking-${mode}`, BOOKING_TABS, role);
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState("");
  const [data, setData] = useState<ListData | null>(null);
  const [loading, setLoading] = useState(true);
  const decision = useBookingDecision();

  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    const path = mode === "requests" ? "/api/booking/booking-requests" : "/api/booking/get-all";
    http
      .get<ListData>(path, {
        query: { page, limit: 10, ...filters({ status: mode === "bookings" ? tab : undefined, search }) },
        signal: controller.signal,
      })
      .then((answer) => setData(answer.data))
      .catch(() => setData({ bookings: [], totalCount: 0 }))
      .finally(() => setLoading(false));
    return () => controller.abort();
  }, [mode, tab, page, search]);

  const hostSide = HOST_SIDE.includes(role);
  const detailHref = (booking: Booking) =>
    mode === "requests" ? `/booking-request-details/${booking._id}` : `/booking-detail/${booking._id}`;
  const columns: Column<Booking>[] = [
    {
      key: "listing",
      header: "Listing",
      render: (b) => <a href={listingHref(b.listingId)}>{truncate(b.listingId.title, 20)}</a>,
    },
    {
      key: "person",
      header: hostSide ? "Renter" : role === "renter" ? "Host" : "Renter",
      render: (b) => (hostSide || role !== "renter" ? <PersonLink person={b.renter} as="renter" /> : <PersonLink person={b.host} as="host" />),
    },
    { key: "in", header: "Check-in", render: (b) => `${b.checkInDate} ${b.startTime ?? ""}` },
    { key: "out", header: "Check-out", render: (b) => `${b.checkOutDate} ${b.endTime ?? ""}` },
    { key: "amount", header: "Amount", render: (b) => money(b.totalAmount) },
    { key: "status", header: "Status", render: (b) => <StatusBadge status={b.status} /> },
  ];
  const totalPages = data?.totalPages ?? Math.max(1, Math.ceil((data?.totalCount ?? 0) / 10));
  return (
    <>
      <FilterHeader
        title={mode === "requests" ? "Booking Requests" : "Bookings"}
        onSearch={(text) => {
          setSearch(text);
          setPage(1);
        }}
      />
      <DataTable<Booking>
        role={role}
        columns={columns}
        rows={data?.bookings ?? []}
        rowKey={(b) => b._id}
        loading={loading}
        tabs={mode === "bookings" ? BOOKING_TABS : undefined}
        tab={tab}
        onTab={(value) => {
          setTab(value);
          setPage(1);
        }}
        actions={[
          { label: "View", onClick: (b) => navigation.assign(detailHref(b)) },
          { label: "Approve", roles: HOST_SIDE, when: (b) => b.status === "pending", onClick: decision.approve },
          { label: "Reject", roles: HOST_SIDE, when: (b) => b.status === "pending", onClick: decision.reject },
        ]}
        page={page}
        totalPages={totalPages}
        onPage={setPage}
      />
      {decision.dialogs}
    </>
  );
}

function ExtensionRow({ booking, extension, role, onDone }: { booking: Booking; extension: Extension; role: string; onDone: () => void }) {
  const [confirm, setConfirm] = useState<"approved" | "rejected" | null>(null);
  const [busy, setBusy] = useState(false);
  if (SEES_TOTAL_PAYABLE_ONLY.includes(role) && extension.status === "pending") {
    return (
      <li data-testid="extension-total">
        Extension request: total payable <strong>{money(extension.totalPayable)}</strong> <StatusBadge status={extension.status} />
      </li>
    );
  }
  const decide = async (status: "approved" | "rejected") => {
    setBusy(true);
    try {
      const answer = await http.put(`/api/booking/update-extend-status/${booking._id}`, { status, requestId: extension._id, reason: "" });
      if (answer.message) toast.success(answer.message);
      countersChanged();
      setConfirm(null);
      onDone();
      navigation.assign("/booking-requests");
    } catch {
      setConfirm(null);
    } finally {
      setBusy(false);
    }
  };
  return (
    <li>
      {extensionDuration(extension) || "Extension"}
      {extension.additionalDate ? ` from ${extension.additionalDate}` : ""} · {money(extension.additionalAmount ?? extension.totalPayable)}{" "}
      <StatusBadge status={extension.status} />
      {extension.rejectReason && <span className="dash-note"> Reason: {extension.rejectReason}</span>}
      {HOST_SIDE.includes(role) && extension.status === "pending" && (
        <span className="dash-actions">
          <button type="button" className="button" onClick={() => setConfirm("approved")}>
            Approve
          </button>
          <button type="button" className="button button--ghost" onClick={() => setConfirm("rejected")}>
            Reject
          </button>
        </span>
      )}
      {confirm && (
        <ConfirmDialog
          title={confirm === "approved" ? "Approve Extension" : "Reject Extension"}
          message={`Are you sure you want to ${confirm === "approved" ? "approve" : "reject"} this extension request?`}
          confirmLabel={confirm === "approved" ? "Approve" : "Reject"}
          busy={busy}
          onConfirm={() => decide(confirm)}
          onCancel={() => setConfirm(null)}
        />
      )}
    </li>
  );
}

interface PaymentRecord {
  _id: string;
  status: string;
  totalAmount: string;
  createdAt: string;
  paymentId?: string;
}

function BookingDetail({ id, role, asRequest }: { id: string; role: string; asRequest: boolean }) {
  const [booking, setBooking] = useState<Booking | null>(null);
  const [payment, setPayment] = useState<PaymentRecord | null>(null);
  const [failed, setFailed] = useState(false);
  const decision = useBookingDecision();

  const load = useCallback(async () => {
    try {
      const answer = await http.get<Booking>(`/api/booking/booking/${encodeURIComponent(id)}`);
      setBooking(answer.data);
      const preference = answer.data.paymentPreference ?? (answer.data.listingId as { paymentPreference?: string }).paymentPreference;
      if (preference === "payNow" && role !== "moderator") {
        try {
          const record = await http.get<{ payment: PaymentRecord }>(`/api/payment/get-single/${answer.data._id}`, { silent: true });
          setPayment(record.data.payment);
        } catch {
          setPayment(null);
        }
      }
    } catch {
      setFailed(true);
    }
  }, [id, role]);

  useEffect(() => {
    void load();
  }, [load]);

  if (failed) return <div className="dash-card dash-empty">This booking could not be loaded.</div>;
  if (!booking) {
    return (
      <div className="dash-loading" role="status">
        <span className="dash-spinner" aria-hidden="true" />
        <span className="visually-hidden">Loading</span>
      </div>
    );
  }
  const message = messageButton(role, booking);
  const sidePerson = role === "renter" ? booking.host : booking.renter;
  const summaryPerson = role === "renter" ? booking.renter : booking.host;
  const details = booking.paymentDetails ?? {};
  return (
    <>
      <FilterHeader title={asRequest ? "Reservation" : "Booking Detail"}>
        {message.href && (
          <a className="button" href={message.href}>
            {message.label}
          </a>
        )}
      </FilterHeader>
      <div className="dash-grid dash-detail">
        <section className="dash-card" aria-labelledby="summary-title">
          <h2 id="summary-title">
            <a href={listingHref(booking.listingId)}>{booking.listingId.title}</a>
          </h2>
          <dl>
            <dt>Status</dt>
            <dd>
              <StatusBadge status={booking.status} />
            </dd>
            {booking.spaceOffering?.title && (
              <>
                <dt>Space</dt>
                <dd>{booking.spaceOffering.title}</dd>
              </>
            )}
            <dt>Check-in</dt>
            <dd>
              {booking.checkInDate} {booking.startTime}
            </dd>
            <dt>Check-out</dt>
            <dd>
              {booking.checkOutDate} {booking.endTime}
            </dd>
            <dt>Guests</dt>
            <dd>{booking.guests}</dd>
            <dt>Requested on</dt>
            <dd>{formatDate(booking.createdAt)}</dd>
            <dt>{summaryPanelTitle(role)}</dt>
            <dd>
              <PersonLink person={summaryPerson} as={role === "renter" ? "renter" : "host"} />
            </dd>
            {booking.rejectReason && (
              <>
                <dt>Reject reason</dt>
                <dd>{booking.rejectReason}</dd>
              </>
            )}
            {booking.cancellationReason && (
              <>
                <dt>Cancellation reason</dt>
                <dd>{booking.cancellationReason}</dd>
              </>
            )}
          </dl>
          {mayDecide(role, booking) && (
            <div className="dash-actions">
              <button type="button" className="button" onClick={() => decision.approve(booking)}>
                Approve
              </button>
              <button type="button" className="button button--ghost" onClick={() => decision.reject(booking)}>
                Reject
              </button>
            </div>
          )}
        </section>
        <aside className="dash-card" aria-labelledby="side-title">
          <h2 id="side-title">{sidePanelTitle(role)}</h2>
          <p>
            <PersonLink person={sidePerson} as={role === "renter" ? "host" : "renter"} />
          </p>
          <h3>Price</h3>
          <dl>
            {(details.prices ?? []).map((line, index) => (
              <div key={index} style={{ display: "contents" }}>
                <dt>
                  {line.duration} × {line.priceDuration}
                </dt>
                <dd>{money(line.total)}</dd>
              </div>
            ))}
            {(booking.servicesAndAddOns ?? []).map((service) => (
              <div key={service.title} style={{ display: "contents" }}>
                <dt>{service.title}</dt>
                <dd>{money(service.price)}</dd>
              </div>
            ))}
            <dt>
              <strong>Total</strong>
            </dt>
            <dd>
              <strong>{money(booking.totalAmount)}</strong>
            </dd>
          </dl>
          {payment && (
            <>
              <h3>Payment</h3>
              <dl data-testid="payment-record">
                <dt>Status</dt>
                <dd>
                  <StatusBadge status={payment.status} />
                </dd>
                <dt>Amount</dt>
                <dd>{money(payment.totalAmount)}</dd>
                <dt>Date</dt>
                <dd>{formatDate(payment.createdAt)}</dd>
              </dl>
            </>
          )}
          {booking.extendBooking.length > 0 && (
            <>
              <h3>Extension requests</h3>
              <ul>
                {booking.extendBooking.map((extension) => (
                  <ExtensionRow key={extension._id} booking={booking} extension={extension} role={role} onDone={() => void load()} />
                ))}
              </ul>
            </>
          )}
        </aside>
      </div>
      {decision.dialogs}
    </>
  );
}

export function BookingsPage({ view, mode = "bookings", id = "", role }: Props) {
  if (view === "list") return <BookingList role={role} mode={mode} />;
  return <BookingDetail id={id} role={role} asRequest={view === "request"} />;
}
