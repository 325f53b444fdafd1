"""The feeds other calendars read: one per listing, one per host for all its listings, each at a
private address (a signed token) its owner asks for.

RFC 5545 built with ``icalendar``: times written in each listing's own zone (TZID) with a
VTIMEZONE for each zone in the feed, a stable UID per booking, a SEQUENCE that grows with each
change of status or approved extension, and bookings that stopped holding their time marked
STATUS:CANCELLED so Google Calendar, Outlook and Apple Calendar take them off. Imported blocks are
never exported back (two marketplaces importing each other's feeds would echo forever).
"""

import datetime as dt
import re
import secrets

import icalendar
from django.conf import settings
from django.core import signing
from django.db import transaction
from django.db.models import CharField, Count, IntegerField, OuterRef, Subquery, Value
from django.db.models.functions import Cast, Coalesce
from django.utils import timezone

from apps.accounts.models import User
from apps.core.exceptions import NotFound
from apps.core.filters import is_uuid
from apps.core.models import StatusChange
from apps.listings.models import Listing

from ..models import Booking, BookingStatus, ExtendBooking
from ..policies import HOLDING_STATUSES, calendar_links_reset_refusal
from ..times import format_clock, format_date, zone_of

LISTING_ICAL_SALT = "bookings.ical"
HOST_ICAL_SALT = "bookings.ical.host"
FEED_DAYS_BACK = 90
FEED_MAX = 2000
# Statuses a feed shows: holding ones, and those that stopped holding so subscribers remove them.
ENDED_STATUSES = (BookingStatus.CANCELLED, BookingStatus.REJECTED, BookingStatus.EXPIRED)


def _sign(salt: str, object_id, secret: str) -> str:
    value = f"{object_id}.{secret}" if secret else str(object_id)
    return signing.Signer(salt=salt).sign(value)


def _unsign(salt: str, token: str) -> tuple[str, str] | None:
    """The id and the host's secret a token names, or None. An address given out before tokens
    were made stable carries a timestamp (``signing.dumps``); it names no secret."""
    try:
        if token.count(":") == 2:
            return str(signing.loads(token, salt=salt)), ""
        value = signing.Signer(salt=salt).unsign(token)
    except signing.BadSignature:
        return None
    object_id, _, secret = value.partition(".")
    return object_id, secret


def listing_ical_token(listing: Listing) -> str:
    return _sign(LISTING_ICAL_SALT, listing.pk, listing.host.ical_secret)


def listing_feed_url(*, user, listing_id) -> str:
    """The private address of one of the caller's (host side) listings' feed; 404 for anything else."""
    listing = (
        Listing.objects.select_related("host")
        .filter(pk=listing_id, host_id=user.acting_host_id, is_deleted=False)
        .first()
        if is_uuid(listing_id)
        else None
    )
    if listing is None:
        raise NotFound("Listing not found.")
    return f"{settings.SITE_URL}/api/listing/calendar/{listing_ical_token(listing)}.ics"


def listing_feed_for_token(token: str) -> bytes:
    """The feed a listing's private address names; 404 when the token is not valid, the listing is
    gone or its host reset the addresses since."""
    named = _unsign(LISTING_ICAL_SALT, token)
    listing = (
        Listing.objects.select_related("host").filter(pk=named[0], is_deleted=False).first()
        if named and is_uuid(named[0])
        else None
    )
    if listing is None or listing.host.ical_secret != named[1]:
        raise NotFound("Calendar not found.")
    return listing_feed(listing)


def host_feed_url(*, user) -> str:
    """The private address of the feed of all the caller's (host side) listings."""
    host = User.objects.filter(pk=user.acting_host_id).first() if user.acting_host_id else None
    if host is None:
        raise NotFound("Host not found.")
    return f"{settings.SITE_URL}/api/host/calendar/{host_ical_token(host)}.ics"


def host_feed_for_token(token: str) -> bytes:
    """The feed a host's private address names; 404 when the token is not valid, the host is gone
    or reset the addresses since."""
    named = _unsign(HOST_ICAL_SALT, token)
    host = User.objects.filter(pk=named[0], is_deleted=False).first() if named and is_uuid(named[0]) else None
    if host is None or host.ical_secret != named[1]:
        raise NotFound("Calendar not found.")
    return host_feed(host)


def host_ical_token(host: User) -> str:
    """The host's feed address token: signed, and the same each time it is asked for (so the address
    a host pasted into a calendar is the one the dashboard shows) until the host resets it."""
    return _sign(HOST_ICAL_SALT, host.pk, host.ical_secret)


@transaction.atomic
def calendar_links_reset(*, user) -> str:
    """A new secret for the host's calendar addresses: every address given out before (the host's
    feed and each listing's) answers 404 from now on. Returns the host feed's new address."""
    if refusal := calendar_links_reset_refusal(user):
        raise refusal
    host = User.objects.select_for_update(no_key=True).get(pk=user.pk)
    host.ical_secret = secrets.token_urlsafe(24)
    host.save(update_fields=["ical_secret"])
    return host_feed_url(user=host)


def _bookings(**filters):
    since = timezone.now() - dt.timedelta(days=FEED_DAYS_BACK)
    changes = (
        StatusChange.objects.filter(machine="booking", object_id=Cast(OuterRef("pk"), CharField()))
        .order_by()
        .values("object_id")
        .annotate(n=Count("id"))
        .values("n")
    )
    extensions = (
        ExtendBooking.objects.filter(booking=OuterRef("pk"), status="approved")
        .order_by()
        .values("booking")
        .annotate(n=Count("id"))
        .values("n")
    )
    return (
        Booking.objects.filter(
            status__in=[*HOLDING_STATUSES, *ENDED_STATUSES], check_out__gte=since, listing__is_deleted=False, **filters
        )
        .select_related("renter", "offering", "listing")
        .annotate(
            changes=Coalesce(Subquery(changes, output_field=IntegerField()), Value(0)),
            extended=Coalesce(Subquery(extensions, output_field=IntegerField()), Value(0)),
        )
        .order_by("check_in", "id")[:FEED_MAX]
    )


def _status(booking: Booking) -> str:
    if booking.status in ENDED_STATUSES:
        return "CANCELLED"
    return "TENTATIVE" if booking.status == BookingStatus.PENDING else "CONFIRMED"


_LINE_BREAKS = re.compile("\r\n|[\r\n\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")
_CONTROL = re.compile("[\x00-\x08\x0e-\x1b\x1f\x7f]")


def _text(value: str) -> str:
    """A name as a TEXT value: every kind of line break becomes the one newline that iCalendar writes
    escaped (``\\n``), other control characters are dropped, so a name never starts a property."""
    return _CONTROL.sub("", _LINE_BREAKS.sub("\n", value))


def _event(booking: Booking, *, with_listing: bool) -> icalendar.Event:
    listing = booking.listing
    tz = zone_of(listing)
    what = booking.offering.title if booking.offering else listing.title
    summary = f"{what}: {booking.renter.display_name}"
    if with_listing and booking.offering:
        summary = f"{listing.title} · {summary}"
    if booking.status == BookingStatus.PENDING:
        summary += " (pending)"
    when = (
        f"{format_date(booking.check_in, tz)} {format_clock(booking.check_in, tz)} to "
        f"{format_date(booking.check_out, tz)} {format_clock(booking.check_out, tz)} ({tz.key})"
    )
    event = icalendar.Event()
    event.add("uid", f"{booking.pk}@spacemarket")
    event.add("dtstamp", booking.updated_at.astimezone(dt.UTC))
    event.add("last-modified", booking.updated_at.astimezone(dt.UTC))
    event.add("created", booking.created_at.astimezone(dt.UTC))
    # The first status (pending) is SEQUENCE 0; each later change and approved extension adds one.
    event.add("sequence", max(booking.changes - 1, 0) + booking.extended)
    event.add("dtstart", booking.check_in.astimezone(tz))
    event.add("dtend", booking.check_out.astimezone(tz))
    event.add("summary", _text(summary))
    event.add("description", _text(when))
    event.add("location", _text(listing.title))
    event.add("status", _status(booking))
    event.add("transp", "TRANSPARENT" if _status(booking) == "CANCELLED" else "OPAQUE")
    event.add("url", f"{settings.SITE_URL}/booking-detail/{booking.pk}")
    return event


def _calendar(name: str, bookings, *, zone: str | None, with_listing: bool) -> bytes:
    calendar = icalendar.Calendar()
    calendar.add("prodid", "-//Spacemarket//Bookings//EN")
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("method", "PUBLISH")
    calendar.add("x-wr-calname", icalendar.vText(_text(name)))
    if zone:
        calendar.add("x-wr-timezone", zone)
    # Ask subscribers to look again often (Google and Outlook mostly decide for themselves).
    calendar.add("refresh-interval", dt.timedelta(minutes=15), parameters={"VALUE": "DURATION"})
    calendar.add("x-published-ttl", "PT15M")
    for booking in bookings:
        calendar.add_component(_event(booking, with_listing=with_listing))
    today = timezone.now().date()
    # One VTIMEZONE for each zone the events use, with its rules over the feed's years.
    calendar.add_missing_timezones(
        first_date=today - dt.timedelta(days=FEED_DAYS_BACK + 366), last_date=today + dt.timedelta(days=366 * 4)
    )
    return calendar.to_ical()


def listing_feed(listing) -> bytes:
    return _calendar(listing.title, _bookings(listing=listing), zone=zone_of(listing).key, with_listing=False)


def host_feed(host) -> bytes:
    name = f"{host.display_name}: bookings on Spacemarket"
    return _calendar(name, _bookings(listing__host=host), zone=None, with_listing=True)
