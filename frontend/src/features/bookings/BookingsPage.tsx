/** Bookings: the lists (`booking`, `booking-requests`) and the details (`booking-detail`, `booking-request-details`). */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Check, Eye, MessageSquare, X } from "lucide-react";
import { useState } from "react";
import { api, call, listFilters, pageCount } from "../../shared/api/client";
import { apiKey } from "../../shared/api/query";
import { navigation } from "../../shared/browser/navigation";
import { formatDate, fullName, money, truncate } from "../../shared/format";
import { useListState } from "../../shared/hooks/useListState";
import { Badge } from "../../shared/ui/Badge";
import { ConfirmDialog } from "../../shared/ui/ConfirmDialog";
import "../../shared/ui/css/dashboard.css";
import { Spinner } from "../../shared/ui/Spinner";
import { type Column, DataTable, type RowAction } from "../../shared/ui/Table";
import { toast } from "../../shared/ui/toast";
import { BookingActions, useExtensionCheckoutReturn } from "../booking-actions/BookingActions";
import { BookingReviews } from "../reviews/BookingReviews";
import { useBookingDecision, useExtensionDecision } from "./BookingDecision";
import {
  allowedTabs,
  type Booking,
  bookingPriceRows,
  headcount,
  paymentRows,
  clockText,
  type Extension,
  extensionDuration,
  listingHref,
  messageButton,
  type Person,
  personTarget,
  otherParty,
  type BookingSide,
  sidePanelTitle,
  summaryPanelTitle,
} from "./bookings";
import { FilterHeader } from "./FilterHeader";
import type { IslandProps } from "../../shared/ui/mountIsland";

type PageProps = IslandProps<"DashboardBookings">;
/**
 * From the server: whether the detail loads the booking's payment record (the moderator sees no
 * money), the user's side of a booking (labels: Host or Renter column, Message Renter), and the
 * status tabs this user sees.
 */
type Props = Pick<PageProps, "view"> & Partial<Pick<PageProps, "mode" | "id" | "seesPayment" | "side" | "tabs">>;


function PersonLink({ person, as }: { person: Person | null; as: "user" | "host" | "renter" }) {
  if (!person) return <span>—</span>;
  const target = personTarget(person, as);
  const name = fullName(person);
  return (
    <button
      type="button"
      className="link-button"
      title={name}
      onClick={() => (target.error ? toast.error(target.error) : target.href && navigation.assign(target.href))}
    >
      {truncate(name, 30)}
    </button>
  );
}

function BookingList({ side, mode, tabs: tabNames }: { side: BookingSide; mode: "bookings" | "requests"; tabs?: string[] }) {
  const tabs = allowedTabs(tabNames);
  const [list, setList] = useListState(
    { tab: "all", search: "", page: 1 },
    { tabPrefix: `booking-${mode}`, allowedTabs: tabs.map((tab) => tab.value) },
  );
  const decision = useBookingDecision();
  const status = mode === "bookings" ? list.tab : undefined;
  const path = mode === "requests" ? "/api/booking/booking-requests" : "/api/booking/get-all";
  const query = useQuery({
    queryKey: apiKey(path, { status, search: list.search, page: list.page }),
    queryFn: async ({ signal }) => {
      const params = { query: { page: list.page, limit: 10, ...listFilters({ status, search: list.search }) } };
      const answer =
        mode === "requests"
          ? await call(api.GET("/api/booking/booking-requests", { params, signal }))
          : await call(api.GET("/api/booking/get-all", { params, signal }));
      return { rows: answer.data.bookings, totalPages: pageCount(answer.data) };
    },
    placeholderData: keepPreviousData,
  });

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
      header: otherParty(side) === "host" ? "Host" : "Renter",
      render: (b) => <PersonLink person={b[otherParty(side)]} as={otherParty(side)} />,
    },
    { key: "in", header: "Check-in", render: (b) => `${b.checkInDate} ${clockText(b.startTime, b)}` },
    { key: "out", header: "Check-out", render: (b) => `${b.checkOutDate} ${clockText(b.endTime, b)}` },
    { key: "amount", header: "Amount", render: (b) => money(b.totalAmount) },
    {
      key: "status",
      header: "Status",
      render: (b) => (
        <>
          <Badge status={b.status} />
          {b.awaitingPayment && <span className="dash-note"> Awaiting payment</span>}
          {b.extendBooking?.some((extension) => extension.status === "pending") && <span className="dash-note"> Extension requested</span>}
        </>
      ),
    },
  ];
  const actions: RowAction<Booking>[] = [
    { label: "View", icon: Eye, href: detailHref },
    { label: "Approve", icon: Check, when: (b) => b.can.approve, onClick: decision.approve },
    { label: "Reject", icon: X, tone: "danger", when: (b) => b.can.reject, onClick: decision.reject },
  ];
  return (
    <>
      <FilterHeader
        title={mode === "requests" ? "Booking Requests" : "Bookings"}
        search={list.search}
        onSearch={(search) => setList({ search }, "replace")}
      />
      <DataTable<Booking>
        columns={columns}
        rows={query.data?.rows ?? []}
        rowKey={(b) => b._id}
        loading={query.isPending || (query.isFetching && query.isPlaceholderData)}
        tabs={mode === "bookings" ? tabs : undefined}
        tab={list.tab}
        onTab={(tab) => setList({ tab })}
        actions={actions}
        page={list.page}
        totalPages={query.data?.totalPages ?? 1}
        onPage={(page) => setList({ page })}
      />
      {decision.dialogs}
    </>
  );
}

function ExtensionRow({ booking, extension }: { booking: Booking; extension: Extension }) {
  const [confirm, setConfirm] = useState<"approved" | "rejected" | null>(null);
  const decide = useExtensionDecision(booking, extension);
  // The server sends only the total payable of a pending extension to those who do not decide it.
  if (extension.additionalAmount === undefined) {
    return (
      <li data-testid="extension-total">
        Extension request: total payable <strong>{money(extension.totalPayable)}</strong> <Badge status={extension.status} />
      </li>
    );
  }
  const may = extension.can;
  return (
    <li>
      {extensionDuration(extension) || "Extension"}
      {extension.additionalDate ? ` from ${extension.additionalDate}` : ""} · {money(extension.additionalAmount ?? extension.totalPayable)}{" "}
      <Badge status={extension.status} />
      {extension.rejectReason && <span className="dash-note"> Reason: {extension.rejectReason}</span>}
      {(may.approve || may.reject) && (
        <span className="dash-actions">
          {may.approve && (
            <button type="button" className="button" onClick={() => setConfirm("approved")}>
              Approve
            </button>
          )}
          {may.reject && (
            <button type="button" className="button button--ghost" onClick={() => setConfirm("rejected")}>
              Reject
            </button>
          )}
        </span>
      )}
      {confirm && (
        <ConfirmDialog
          title={confirm === "approved" ? "Approve Extension" : "Reject Extension"}
          message={`Are you sure you want to ${confirm === "approved" ? "approve" : "reject"} this extension request?`}
          confirmLabel={confirm === "approved" ? "Approve" : "Reject"}
          tone={confirm === "rejected" ? "danger" : "default"}
          busy={decide.isPending}
          onConfirm={() => decide.mutate(confirm, { onSettled: () => setConfirm(null) })}
          onCancel={() => setConfirm(null)}
        />
      )}
    </li>
  );
}

function BookingDetail({ id, seesPayment, side, asRequest }: { id: string; seesPayment: boolean; side: BookingSide; asRequest: boolean }) {
  const decision = useBookingDecision();
  useExtensionCheckoutReturn();
  const bookingQuery = useQuery({
    queryKey: apiKey("/api/booking/booking/{booking_id}", id),
    queryFn: ({ signal }) =>
      call(api.GET("/api/booking/booking/{booking_id}", { params: { path: { booking_id: id } }, signal })).then((answer) => answer.data),
  });
  const booking = bookingQuery.data;
  const preference = booking ? (booking.paymentPreference ?? booking.listingId.paymentPreference) : undefined;
  // A pay-now booking also loads its single payment record (spec 2.6) for the users who see money.
  const paymentQuery = useQuery({
    queryKey: apiKey("/api/payment/get-single/{booking_id}", id),
    queryFn: ({ signal }) =>
      call(api.GET("/api/payment/get-single/{booking_id}", { params: { path: { booking_id: booking!._id } }, signal }), { silent: true }).then(
        (answer) => answer.data.payment,
      ),
    enabled: Boolean(booking) && preference === "payNow" && seesPayment,
    retry: false,
  });
  const payment = paymentQuery.data;

  if (bookingQuery.isError) return <div className="dash-card dash-empty">This booking could not be loaded.</div>;
  if (!booking) {
    return (
      <div className="dash-loading">
        <Spinner size="large" />
      </div>
    );
  }
  const can = booking.can;
  const message = messageButton(side, booking);
  const other = otherParty(side);
  const own = other === "host" ? "renter" : "host";
  return (
    <>
      <FilterHeader title={asRequest ? "Reservation" : "Booking Detail"}>
        {message.href && can.message !== false && (
          <a className="button" href={message.href}>
            <MessageSquare aria-hidden="true" size={16} /> {message.label}
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
              <Badge status={booking.status} />
            </dd>
            {booking.spaceOffering?.title && (
              <>
                <dt>Space</dt>
                <dd>{booking.spaceOffering.title}</dd>
              </>
            )}
            <dt>Check-in</dt>
            <dd>
              {booking.checkInDate} {clockText(booking.startTime, booking)}
            </dd>
            <dt>Check-out</dt>
            <dd>
              {booking.checkOutDate} {clockText(booking.endTime, booking)}
            </dd>
            {booking.timeZone && (
              <>
                <dt>Time zone</dt>
                <dd>{booking.timeZone}</dd>
              </>
            )}
            <dt>{headcount(booking).label}</dt>
            <dd>{headcount(booking).value}</dd>
            <dt>Requested on</dt>
            <dd>{formatDate(booking.createdAt)}</dd>
            <dt>{summaryPanelTitle(side)}</dt>
            <dd>
              <PersonLink person={booking[own]} as={own} />
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
          {booking.awaitingPayment && (
            <p className="dash-note" data-testid="awaiting-payment">
              {can.pay
                ? "Your request reaches the host once it is paid."
                : "Awaiting payment: the renter has not paid for this request yet."}
            </p>
          )}
          {(can.approve || can.reject) && (
            <div className="dash-actions">
              {can.approve && (
                <button type="button" className="button" onClick={() => decision.approve(booking)}>
                  Approve
                </button>
              )}
              {can.reject && (
                <button type="button" className="button button--ghost" onClick={() => decision.reject(booking)}>
                  Reject
                </button>
              )}
            </div>
          )}
          <BookingActions booking={booking} side={side} onChanged={() => void bookingQuery.refetch()} />
        </section>
        <aside className="dash-card" aria-labelledby="side-title">
          <h2 id="side-title">{sidePanelTitle(side)}</h2>
          <p>
            <PersonLink person={booking[other]} as={other} />
          </p>
          <h3>Price</h3>
          <dl data-testid="price-lines">
            {bookingPriceRows(booking).map((row) => (
              <div key={row.key} style={{ display: "contents" }}>
                <dt>{row.emphasis ? <strong>{row.label}</strong> : row.label}</dt>
                <dd>{row.emphasis ? <strong>{row.amount}</strong> : row.amount}</dd>
              </div>
            ))}
          </dl>
          {payment && (
            <>
              <h3>Payment</h3>
              <dl data-testid="payment-record">
                <dt>Status</dt>
                <dd>
                  <Badge status={payment.status} />
                </dd>
                {paymentRows(payment).map((row) => (
                  <div key={row.key} style={{ display: "contents" }}>
                    <dt>{row.emphasis ? <strong>{row.label}</strong> : row.label}</dt>
                    <dd>{row.emphasis ? <strong>{row.amount}</strong> : row.amount}</dd>
                  </div>
                ))}
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
                  <ExtensionRow key={extension._id} booking={booking} extension={extension} />
                ))}
              </ul>
            </>
          )}
        </aside>
      </div>
      <BookingReviews bookingId={booking._id} completed={booking.status === "completed"} renterName={booking.renter?.displayName ?? ""} />
      {decision.dialogs}
    </>
  );
}

export function BookingsPage({ view, mode = "bookings", id = "", seesPayment = false, side = "staff", tabs }: Props) {
  if (view === "list") return <BookingList side={side} mode={mode} tabs={tabs} />;
  return <BookingDetail id={id} seesPayment={seesPayment} side={side} asRequest={view === "request"} />;
}
