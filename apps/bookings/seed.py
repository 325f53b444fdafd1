"""Demo bookings on host@example.com's and host2@example.com's listings: every status, pending
requests, a pending extension, and reviews. Idempotent: does nothing once the demo renter has bookings.

Bookings are made through the services (so prices, events and held time are real); past ones are
made in the future and then moved back in time, as if they had happened.
"""

import contextlib
import datetime as dt

from django.db.backends.postgresql.psycopg_any import DateTimeTZRange
from django.utils import timezone

from apps.accounts.models import User
from apps.core.exceptions import DomainError
from apps.listings.models import Listing, ListingStatus, PropertyType
from apps.payments.seed import hold_demo_payment  # demo data only: see .importlinter

from . import services
from .models import Booking, BookingStatus, Occupancy
from .reviews import services as reviews_module
from .times import to_local, zone_of


def _book(renter, listing, first_offset: int, hours: int = 4, offering=None) -> Booking | None:
    """Book the first day from ``first_offset`` days ahead that the listing's rules accept."""
    today = timezone.now().astimezone(zone_of(listing)).date()  # today where the space is
    hours = max(hours, listing.minimum_days if offering is None else 0)
    for offset in range(first_offset, first_offset + 40):
        day = today + dt.timedelta(days=offset)
        check_out = day
        if offering is not None and not offering.is_hourly:
            check_out = day + dt.timedelta(days=max(offering.minimum_period, 1) - 1)
        try:
            return services.booking_request(
                renter=renter,
                listing_id=listing.pk,
                offering_id=offering.pk if offering else None,
                check_in_date=day,
                check_out_date=check_out,
                start_time=dt.time(10),
                end_time=dt.time(min(10 + hours, 23)),
                guests=2,
                seats=1,
            )
        except DomainError:
            continue
    return None


def _move_back(booking: Booking, days: int | dt.timedelta) -> Booking:
    """Shift a booking (and the time it holds) ``days`` days (or a timedelta) into the past."""
    delta = days if isinstance(days, dt.timedelta) else dt.timedelta(days=days)
    booking = Booking.objects.get(pk=booking.pk)
    booking.check_in -= delta
    booking.check_out -= delta
    booking.period = DateTimeTZRange(booking.period.lower - delta, booking.period.upper - delta, "[)")
    tz = zone_of(booking.listing)
    booking.check_in_date = to_local(booking.check_in, tz).date()
    booking.check_out_date = to_local(booking.check_out, tz).date()
    booking.start_time = to_local(booking.check_in, tz).time()
    booking.end_time = to_local(booking.check_out, tz).time()
    booking.created_at -= delta + dt.timedelta(days=2)
    booking.expires_at = min(booking.created_at + services.REQUEST_TTL, booking.check_in)
    booking.save(
        update_fields=[
            "check_in",
            "check_out",
            "period",
            "check_in_date",
            "check_out_date",
            "start_time",
            "end_time",
            "created_at",
            "expires_at",
        ]
    )
    for occupancy in Occupancy.objects.filter(booking=booking):
        occupancy.hold = DateTimeTZRange(occupancy.hold.lower - delta, occupancy.hold.upper - delta, "[)")
        occupancy.save(update_fields=["hold"])
    return booking


def _approve(booking: Booking, host) -> None:
    """Approve as the host; a pay-now request is paid (its card held) first, as the rule asks."""
    if booking.payment_preference == "payNow":
        hold_demo_payment(booking)
    services.booking_update_status(booking_id=booking.pk, actor=host, status=BookingStatus.APPROVED)


STAY_REVIEWS = [
    (5, "Bright, calm and exactly as pictured. The Wi-Fi never dropped."),
    (4, "Good space for a team day; the coffee ran out by the afternoon."),
    (5, "The host had everything ready when we arrived. We will be back."),
    (3, "Fine for a few hours, but the street noise made calls hard."),
    (4, "Comfortable chairs and plenty of light; parking nearby is scarce."),
    (5, "Perfect for our workshop: easy to find, clean and well equipped."),
]
HOST_REVIEWS = ["A considerate guest.", "Left the space spotless.", "Clear communication, on time."]


def _stay(renter, listing, *, future: int, ended_days_ago: int) -> Booking | None:
    """A completed booking of ``listing`` that ended ``ended_days_ago`` days ago (made ahead, then moved back)."""
    offering = None
    if listing.property_type == PropertyType.OFFICE_SPACE:
        offering = listing.space_offerings.order_by("kind").first()
        if offering is None:
            return None
    booking = _book(renter, listing, future, offering=offering)
    if booking is None:
        return None
    _approve(booking, listing.host)
    today = timezone.now().astimezone(zone_of(listing)).date()
    booking = _move_back(booking, (booking.check_out_date - today).days + ended_days_ago)
    services.bookings_complete_due()
    return booking


def _reviewed_stays(renter, renter2, listings: list[Listing]) -> None:
    """Completed stays with real reviews written through the review service, so every rating and count
    the site shows is computed from them: on most listings both sides reviewed (revealed, public); on a
    few only the renter did, inside the review period (still hidden, double-blind)."""
    texts = iter(STAY_REVIEWS * 4)
    for index, listing in enumerate(listings[:8]):
        for stay in range(1 + index % 3):
            guest = renter if (index + stay) % 2 == 0 else renter2
            booking = _stay(guest, listing, future=60 + stay * 4, ended_days_ago=2 + stay * 3)
            if booking is None:
                continue
            rating, text = next(texts)
            reviews_module.review_add(
                user=guest, listing_id=listing.pk, booking_id=booking.pk, review=text, rating=rating
            )
            reviews_module.review_add(
                user=listing.host,
                listing_id=listing.pk,
                booking_id=booking.pk,
                review=HOST_REVIEWS[(index + stay) % len(HOST_REVIEWS)],
                rating=5,
            )
    for index, listing in enumerate(listings[8:10]):
        booking = _stay(renter if index == 0 else renter2, listing, future=60, ended_days_ago=1)
        if booking is not None:
            reviews_module.review_add(
                user=booking.renter,
                listing_id=listing.pk,
                booking_id=booking.pk,
                review="Waiting for the host's review before anyone can read this.",
                rating=2,
            )


def _ratings_from_reviews() -> None:
    """Every listing's stored rating recomputed from its public reviews (a database seeded before the
    demo wrote real reviews kept made-up figures)."""
    for listing_id in Listing.objects.values_list("pk", flat=True):
        reviews_module.listing_rating_refresh(listing_id)


def seed(stdout) -> None:
    renter = User.objects.filter(email="renter@example.com").first()
    renter2 = User.objects.filter(email="renter2@example.com").first()
    host = User.objects.filter(email="host@example.com").first()
    if not (renter and renter2 and host):
        stdout.write("  bookings skipped: demo accounts missing")
        return
    if Booking.objects.filter(renter__in=[renter, renter2]).exists():
        _ratings_from_reviews()
        stdout.write(f"  {Booking.objects.count()} bookings (already seeded)")
        return
    approved = Listing.objects.filter(status=ListingStatus.APPROVED, is_active=True, is_deleted=False)
    events = list(approved.filter(host=host, property_type=PropertyType.EVENT_SPACE).order_by("slug")[:3])
    offices = list(approved.filter(host=host, property_type=PropertyType.OFFICE_SPACE).order_by("slug")[:1])
    others = list(approved.filter(host__email="host2@example.com").order_by("slug")[:2])
    if not events:
        stdout.write("  bookings skipped: host@example.com has no approved event space")
        return
    main = events[0]
    second = events[1] if len(events) > 1 else main

    # Pending requests on host@example.com's listings.
    _book(renter, main, 5)
    _book(renter2, second, 6)
    if offices:
        desk = offices[0].space_offerings.order_by("kind").first()
        if desk is not None:
            _book(renter, offices[0], 7, offering=desk, hours=4)

    # Approved, with a pending extension.
    extended = _book(renter, main, 12, hours=3)
    if extended:
        _approve(extended, host)
        with contextlib.suppress(DomainError):
            services.extension_request(booking_id=extended.pk, renter=renter, hours=2)

    # Rejected, cancelled by the renter, cancelled by the host, expired.
    rejected = _book(renter2, main, 15)
    if rejected:
        services.booking_update_status(
            booking_id=rejected.pk, actor=host, status=BookingStatus.REJECTED, reason="The hall is being repainted."
        )
    cancelled = _book(renter, second, 18)
    if cancelled:
        _approve(cancelled, host)
        services.booking_cancel_by_renter(booking_id=cancelled.pk, renter=renter, reason="Our plans changed.")
    host_cancelled = _book(renter2, second, 21)
    if host_cancelled:
        _approve(host_cancelled, host)
        services.booking_cancel_by_host(
            booking_id=host_cancelled.pk, actor=host, reason="A water leak closed the space."
        )
    expired = _book(renter2, main, 24)
    if expired:
        services.booking_expire(booking_id=expired.pk)

    # Past bookings: completed (with reviews), disputed, and one going on now.
    reviews = [(5, "Bright, quiet and exactly as pictured."), (4, "Great space; parking was tight.")]
    for index, listing in enumerate([main, second, *others][:4]):
        for_renter = renter if index % 2 == 0 else renter2
        booking = _book(for_renter, listing, 30 + index * 3)
        if booking is None:
            continue
        _approve(booking, listing.host)
        # Finished a few days ago: inside the 14-day review period, so both sides can still review.
        _move_back(booking, 32 + index * 4)
        services.bookings_complete_due()
        if index < len(reviews):
            rating, text = reviews[index]
            reviews_module.review_add(
                user=for_renter, listing_id=listing.pk, booking_id=booking.pk, review=text, rating=rating
            )
            # Reviews are double-blind: the host's review of the renter reveals both.
            reviews_module.review_add(
                user=listing.host, listing_id=listing.pk, booking_id=booking.pk, review="A considerate guest.", rating=5
            )
    disputed = _book(renter, second, 42)
    if disputed:
        _approve(disputed, host)
        _move_back(disputed, 90)
        services.bookings_complete_due()
        services.booking_mark_disputed(booking_id=disputed.pk, actor=renter, reason="The projector did not work.")
    ongoing = _book(renter2, main, 45, hours=8)
    if ongoing:
        _approve(ongoing, host)
        started = timezone.now().replace(second=0, microsecond=0) - dt.timedelta(hours=1)
        started -= dt.timedelta(minutes=started.minute % 30)
        _move_back(ongoing, ongoing.check_in - started)
        services.bookings_start_due()

    used = {listing.pk for listing in [main, second, *others]}
    _reviewed_stays(renter, renter2, [listing for listing in approved.order_by("slug") if listing.pk not in used])
    _ratings_from_reviews()

    counts = {s: Booking.objects.filter(status=s).count() for s in BookingStatus.values}
    stdout.write("  bookings: " + ", ".join(f"{n} {s}" for s, n in counts.items() if n))
