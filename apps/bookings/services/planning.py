"""Planning a booking: the listing's rules checked and the time priced, shared by quotes, requests and
extensions. No database writes.
"""

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal

from django.utils import timezone

from apps.core.exceptions import Conflict, InvalidInput, NotFound
from apps.listings.models import AddOn, Listing, PropertyType, SpaceOffering
from apps.listings.policies import is_public

from .. import pricing
from ..times import (
    format_date,
    format_time,
    local_datetime,
    opening_for,
    to_local,
    zone_abbreviation,
    zone_of,
)

MAX_BOOKING_DAYS = 366
MAX_ADD_ONS = 50


def field_invalid(field_name: str, message: str) -> InvalidInput:
    return InvalidInput(message, errors={field_name: [message]})


# --- Planning a booking (shared by quotes, requests and extensions) -------------------------------


@dataclass
class BookingPlan:
    listing: Listing
    offering: SpaceOffering | None
    check_in_date: dt.date
    check_out_date: dt.date
    start_time: dt.time
    end_time: dt.time
    start: dt.datetime
    end: dt.datetime
    guests: int
    seats: int
    add_ons: list[AddOn]
    quote: pricing.Quote
    warnings: list[str] = field(default_factory=list)

    @property
    def exclusive(self) -> bool:
        return self.offering is None or self.offering.is_exclusive

    @property
    def space_key(self):
        return self.offering.pk if self.offering is not None else self.listing.pk

    @property
    def units(self) -> int:
        """How many of the space can be booked at once: 1 for an event space, else the offering's seats."""
        return 1 if self.offering is None else self.offering.seats


def percentages_for(listing: Listing) -> pricing.Percentages:
    return pricing.Percentages(
        discount=listing.discount,
        processing_fee=listing.processing_fee,
        tax=listing.host.tax,
        commission=listing.commission_collection,
    )


def rates_for(listing: Listing, offering: SpaceOffering | None) -> dict:
    return listing.period_prices() if offering is None else offering.period_prices()


def _is_hourly(listing: Listing, offering: SpaceOffering | None) -> bool:
    return offering is None or offering.is_hourly


def bookable_listing(listing_id) -> Listing:
    # get(), not first(): one row by its key, no ORDER BY to build for the listing's and host's wide SELECT.
    try:
        listing = Listing.objects.select_related("host").get(pk=listing_id)
    except Listing.DoesNotExist:
        listing = None
    if listing is None or listing.is_deleted:
        raise NotFound("This space was not found.")
    if not is_public(listing):
        raise Conflict("This space is not open for booking right now.")
    return listing


def check_opening(listing: Listing, day: dt.date, time: dt.time, field_name: str, *, closing: bool) -> None:
    hours = opening_for(listing.opening_hours, day)
    if hours is None:
        raise field_invalid(field_name, f"The space is closed on {format_date(day)}.")
    opens, closes = hours
    if closing:
        ok = opens == dt.time(0) if time == dt.time(0) else opens < time and (closes is None or time <= closes)
    else:
        ok = time >= opens and (closes is None or time < closes)
    if not ok:
        close_text = format_time(closes) if closes else "midnight"
        tz = zone_of(listing)
        zone = zone_abbreviation(tz, dt.datetime.combine(day, dt.time(12), tzinfo=tz))
        raise field_invalid(
            field_name,
            f"Choose a time within opening hours on {format_date(day)} ({format_time(opens)} to {close_text} {zone}).",
        )


def check_notice_and_window(listing: Listing, *, start: dt.datetime, now: dt.datetime) -> None:
    """The host's minimum notice before a booking starts, and how far ahead it may start."""
    notice = listing.minimum_notice_hours or 0
    if notice and start < now + dt.timedelta(hours=notice):
        hours = "hour" if notice == 1 else "hours"
        raise field_invalid("start_time", f"This space needs {notice} {hours} of notice before a booking starts.")
    window = listing.booking_window_days or 0
    if window and to_local(start).date() > to_local(now).date() + dt.timedelta(days=window):
        raise field_invalid("check_in_date", f"This space can be booked at most {window} days ahead.")


def booking_plan(
    *,
    listing: Listing,
    offering_id=None,
    check_in_date: dt.date,
    check_out_date: dt.date,
    start_time: dt.time,
    end_time: dt.time,
    guests: int | None = None,
    seats: int | None = None,
    add_on_ids=(),
    now: dt.datetime | None = None,
) -> BookingPlan:
    """Check a requested booking against the listing's rules and price it. No database writes."""
    now = now or timezone.now()
    offering = None
    if listing.property_type == PropertyType.OFFICE_SPACE:
        if not offering_id:
            raise field_invalid("space_offering", "Choose which space you want to book.")
        offering = listing.space_offerings.filter(pk=offering_id).first()
        if offering is None:
            raise field_invalid("space_offering", "This space offering is not part of the listing.")
    elif offering_id:
        raise field_invalid("space_offering", "An event space is booked whole; do not choose an offering.")

    if check_out_date < check_in_date:
        raise field_invalid("check_out_date", "Check-out date must be on or after the check-in date.")
    if (check_out_date - check_in_date).days > MAX_BOOKING_DAYS:
        raise field_invalid("check_out_date", "A booking can last at most one year.")
    # Wall-clock times where the space is.
    tz = zone_of(listing)
    start = local_datetime(check_in_date, start_time, tz, "start_time")
    end = local_datetime(check_out_date, end_time, tz, "end_time")
    if end <= start:
        raise field_invalid("end_time", "End time must be after the start time.")
    if start < now:
        raise field_invalid("check_in_date", "You cannot book a time in the past.")
    check_notice_and_window(listing, start=start, now=now)

    blocked = sorted(d for d in (listing.blocked_dates or []) if check_in_date <= d <= check_out_date)
    if blocked:
        raise field_invalid("check_in_date", f"The space is not available on {format_date(blocked[0])}.")
    check_opening(listing, check_in_date, start_time, "start_time", closing=False)
    check_opening(listing, check_out_date, end_time, "end_time", closing=True)

    # Minimum period and the duration priced.
    days = (check_out_date - check_in_date).days + 1
    if _is_hourly(listing, offering):
        hours = Decimal((end - start).total_seconds()) / Decimal(3600)
        minimum = listing.minimum_days if offering is None else offering.minimum_period
        if hours < minimum:
            raise field_invalid("end_time", f"The minimum booking is {minimum} hour{'s' if minimum != 1 else ''}.")
    else:
        hours = Decimal(days * 24)
        minimum = offering.minimum_period
        if days < minimum:
            raise field_invalid("check_out_date", f"The minimum booking is {minimum} day{'s' if minimum != 1 else ''}.")

    # Capacity.
    guests = guests if guests is not None else 1
    if guests < 1:
        raise field_invalid("guests", "Guests must be at least 1.")
    if offering is None:
        seats = 1
        if listing.guest and guests > listing.guest:
            raise field_invalid("guests", f"This space holds at most {listing.guest} guests.")
    else:
        seats = seats if seats is not None else 1
        if seats < 1:
            raise field_invalid("seats", "Seats must be at least 1.")
        if offering.is_exclusive and seats != 1:
            raise field_invalid("seats", f"A {offering.title} is booked whole; book one at a time.")
        if seats > offering.seats:
            raise field_invalid("seats", f"This space has {offering.seats} seats at most.")

    add_on_ids = list(dict.fromkeys(str(a) for a in add_on_ids or ()))
    if len(add_on_ids) > MAX_ADD_ONS:
        raise field_invalid("services_and_add_ons", "Too many services and add-ons.")
    add_ons = list(listing.add_ons.filter(pk__in=add_on_ids)) if add_on_ids else []
    if len(add_ons) != len(add_on_ids):
        raise field_invalid("services_and_add_ons", "A chosen service or add-on is not offered by this space.")

    try:
        quote = pricing.quote(
            hours=hours * (seats if offering is not None and not offering.is_exclusive else 1),
            rates=rates_for(listing, offering),
            percentages=percentages_for(listing),
            services=[pricing.Service(a.title, a.price) for a in add_ons],
            total_days=days,
        )
    except pricing.PricingError as exc:
        raise field_invalid("space_offering", str(exc))
    return BookingPlan(
        listing=listing,
        offering=offering,
        check_in_date=check_in_date,
        check_out_date=check_out_date,
        start_time=start_time,
        end_time=end_time,
        start=start,
        end=end,
        guests=guests,
        seats=seats,
        add_ons=add_ons,
        quote=quote,
    )
