"""Bookings: requests and their life, extension requests, the time they hold, reviews.

Time is held in ``Occupancy`` rows (one for a booking, one per extension) so PostgreSQL itself
refuses a double booking: an exclusion constraint for spaces booked whole, and a row lock on the
offering plus a seat count for desks (see ``services.occupancy_hold``).
"""

import uuid
from decimal import Decimal

from django.conf import settings
from django.contrib.postgres.constraints import ExclusionConstraint
from django.contrib.postgres.fields import DateTimeRangeField, RangeOperators
from django.contrib.postgres.indexes import GistIndex
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils import timezone

from apps.core.statemachine import StateMachine


def money_field(**kwargs) -> models.DecimalField:
    kwargs.setdefault("default", 0)
    return models.DecimalField(max_digits=12, decimal_places=2, **kwargs)


def percent_field() -> models.DecimalField:
    """A percentage from 0 to 100, two decimals (defaults to 0 in the database too)."""
    return models.DecimalField(
        max_digits=5,
        decimal_places=2,
        default=Decimal("0"),
        db_default=Decimal("0"),
        validators=[MinValueValidator(Decimal("0")), MaxValueValidator(Decimal("100"))],
    )


class BookingStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    APPROVED = "approved", "Approved"
    REJECTED = "rejected", "Rejected"
    CANCELLED = "cancelled", "Cancelled"
    EXPIRED = "expired", "Expired"
    ONGOING = "ongoing", "Ongoing"
    COMPLETED = "completed", "Completed"
    DISPUTED = "disputed", "Disputed"


# The one table of allowed status changes.
TRANSITIONS: dict[str, frozenset[str]] = {
    BookingStatus.PENDING: frozenset(
        {BookingStatus.APPROVED, BookingStatus.REJECTED, BookingStatus.CANCELLED, BookingStatus.EXPIRED}
    ),
    # approved -> expired: the renter did not confirm a charge its bank refused without them.
    BookingStatus.APPROVED: frozenset(
        {
            BookingStatus.ONGOING,
            BookingStatus.COMPLETED,
            BookingStatus.CANCELLED,
            BookingStatus.DISPUTED,
            BookingStatus.EXPIRED,
        }
    ),
    BookingStatus.ONGOING: frozenset({BookingStatus.COMPLETED, BookingStatus.DISPUTED}),
    BookingStatus.COMPLETED: frozenset({BookingStatus.DISPUTED}),
    # A dispute decided without a full refund returns the booking to where its time puts it: a
    # future booking is approved again, one under way ongoing, one over completed.
    BookingStatus.DISPUTED: frozenset(
        {BookingStatus.APPROVED, BookingStatus.ONGOING, BookingStatus.COMPLETED, BookingStatus.CANCELLED}
    ),
    BookingStatus.REJECTED: frozenset(),
    BookingStatus.CANCELLED: frozenset(),
    BookingStatus.EXPIRED: frozenset(),
}
BOOKING_MACHINE = StateMachine("booking", TRANSITIONS)


class BookingPayment(models.TextChoices):
    """Where the renter's online payment for the booking stands, in the booking's own words. The
    payments app records it (``services.payment.booking_payment_record``) with every change of its
    payment, so the booking's rules read a fact of the booking."""

    NONE = "none", "No payment yet"
    DUE = "due", "Started, not held"
    HELD = "held", "Held"
    PAID = "paid", "Paid"
    CONFIRM = "confirm", "Waiting for the renter to confirm the charge"
    CLOSED = "closed", "Released or refunded"


class Booking(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    listing = models.ForeignKey("listings.Listing", on_delete=models.PROTECT, related_name="bookings")
    offering = models.ForeignKey(
        "listings.SpaceOffering", on_delete=models.PROTECT, null=True, blank=True, related_name="bookings"
    )
    renter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="bookings")
    host = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="hosted_bookings")

    # The booked time in UTC, and the same time as the renter chose it (wall clock in the listing's time zone).
    period = DateTimeRangeField(help_text="[check-in, check-out) in UTC, without extensions.")
    check_in = models.DateTimeField()
    check_out = models.DateTimeField(help_text="Check-out including approved extensions.")
    check_in_date = models.DateField()
    check_out_date = models.DateField()
    start_time = models.TimeField()
    end_time = models.TimeField()

    guests = models.PositiveIntegerField(default=1)
    seats = models.PositiveIntegerField(default=1, help_text="Seats (desks) or units taken.")
    unit = models.PositiveSmallIntegerField(default=0, help_text="Which unit of an exclusive offering.")

    space_offering = models.JSONField(default=dict, blank=True, help_text="Snapshot of the offering booked.")
    services_and_add_ons = models.JSONField(default=list, blank=True, help_text="Snapshot: title and price.")
    payment_details = models.JSONField(default=dict, blank=True)
    payment_preference = models.CharField(max_length=16, blank=True)
    payment_state = models.CharField(max_length=8, choices=BookingPayment.choices, default=BookingPayment.NONE)
    subtotal = money_field()
    discount = money_field()
    convenience_fee = money_field()
    tax = money_field()
    price = money_field(help_text="What the renter pays for the booking (without extensions).")
    total_amount = money_field(help_text="Price plus approved and paid extensions.")
    commission = money_field()
    refund_amount = money_field(null=True, blank=True)
    # The percentages the booking was priced with (the listing's and host's at the time of the request).
    discount_percent = percent_field()
    processing_fee_percent = percent_field()
    tax_percent = percent_field()
    commission_percent = percent_field()

    status = models.CharField(max_length=16, choices=BookingStatus.choices, default=BookingStatus.PENDING)
    reject_reason = models.TextField(max_length=1000, blank=True)
    cancellation_reason = models.TextField(max_length=1000, blank=True)
    cancelled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(auto_now=True)
    expires_at = models.DateTimeField(help_text="An unanswered request expires at this time.")
    decided_at = models.DateTimeField(null=True, blank=True)
    dispute_settled_at = models.DateTimeField(
        null=True, blank=True, help_text="When a dispute about this booking was decided: it is not disputed again."
    )

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(condition=Q(status__in=BookingStatus.values), name="booking_status_valid"),
            models.CheckConstraint(
                condition=Q(payment_state__in=BookingPayment.values), name="booking_payment_state_valid"
            ),
            models.CheckConstraint(condition=Q(check_out__gt=models.F("check_in")), name="booking_ends_after_start"),
            models.CheckConstraint(condition=Q(guests__gte=1) & Q(seats__gte=1), name="booking_guests_seats_positive"),
            models.CheckConstraint(
                condition=Q(price__gte=0) & Q(total_amount__gte=0) & Q(commission__gte=0),
                name="booking_amounts_not_negative",
            ),
            models.CheckConstraint(
                condition=~Q(status=BookingStatus.REJECTED) | ~Q(reject_reason=""),
                name="booking_rejection_has_reason",
            ),
        ]
        indexes = [
            models.Index(fields=["renter", "-created_at"]),
            models.Index(fields=["host", "status", "-created_at"]),
            models.Index(fields=["listing", "status"]),
            models.Index(fields=["status", "expires_at"]),
            models.Index(fields=["status", "check_in"]),
            models.Index(fields=["status", "check_out"]),
        ]

    def __str__(self) -> str:
        return f"Booking {self.pk} ({self.status})"

    def can_change_to(self, status: str) -> bool:
        return status in TRANSITIONS.get(self.status, frozenset())


class ExtensionStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    APPROVED = "approved", "Approved"
    REJECTED = "rejected", "Rejected"


EXTENSION_MACHINE = StateMachine(
    "extension",
    {ExtensionStatus.PENDING: {ExtensionStatus.APPROVED, ExtensionStatus.REJECTED}},
    label="extension request",
)


class ExtendBooking(models.Model):
    """A renter's request to stay longer; the extra time is held while pending or approved."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    booking = models.ForeignKey(Booking, on_delete=models.CASCADE, related_name="extensions")
    status = models.CharField(max_length=16, choices=ExtensionStatus.choices, default=ExtensionStatus.PENDING)
    paid = models.BooleanField(default=False)
    paid_at = models.DateTimeField(null=True, blank=True)
    additional_hours = models.PositiveIntegerField(default=0)
    additional_days = models.PositiveIntegerField(default=0)
    additional_weeks = models.PositiveIntegerField(default=0)
    additional_months = models.PositiveIntegerField(default=0)
    original_amount = money_field(help_text="The extra time priced like a booking, before fee and tax.")
    additional_amount = money_field(help_text="What the renter pays: original amount plus fee and tax.")
    payment_details = models.JSONField(default=dict, blank=True)
    period = DateTimeRangeField(help_text="The extra time, in UTC.")
    # The new check-out date in the listing's time zone (the help text predates listing zones).
    additional_date = models.DateField(help_text="The new check-out date (America/New_York).")
    start_time = models.TimeField()
    end_time = models.TimeField()
    reject_reason = models.TextField(max_length=1000, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at"]
        constraints = [
            models.CheckConstraint(condition=Q(status__in=ExtensionStatus.values), name="extension_status_valid"),
            models.CheckConstraint(
                condition=Q(additional_hours__gt=0)
                | Q(additional_days__gt=0)
                | Q(additional_weeks__gt=0)
                | Q(additional_months__gt=0),
                name="extension_adds_time",
            ),
            models.CheckConstraint(
                condition=Q(paid=False) | Q(status=ExtensionStatus.APPROVED), name="extension_paid_only_if_approved"
            ),
            models.UniqueConstraint(
                fields=["booking"], condition=Q(status="pending"), name="extension_one_pending_per_booking"
            ),
        ]

    def __str__(self) -> str:
        return f"Extension {self.pk} of {self.booking_id} ({self.status})"

    @property
    def counts(self) -> bool:
        """Only approved and paid extensions count toward totals."""
        return self.status == ExtensionStatus.APPROVED and self.paid


class Occupancy(models.Model):
    """Time (and seats) a booking or an extension holds on a space.

    ``space_key`` is the offering id for an office offering, else the listing id. ``hold`` is the
    booked time plus the listing's buffer after it. For a space booked whole (``exclusive``) the
    exclusion constraint refuses two active rows of different bookings on the same unit whose
    holds overlap; for seats the service locks the offering row and counts.
    """

    booking = models.ForeignKey(Booking, on_delete=models.CASCADE, related_name="occupancies")
    extension = models.OneToOneField(
        ExtendBooking, on_delete=models.CASCADE, null=True, blank=True, related_name="occupancy"
    )
    listing = models.ForeignKey("listings.Listing", on_delete=models.CASCADE, related_name="+")
    space_key = models.UUIDField()
    unit = models.PositiveSmallIntegerField(default=0)
    seats = models.PositiveIntegerField(default=1)
    exclusive = models.BooleanField()
    active = models.BooleanField(default=True)
    hold = DateTimeRangeField()

    class Meta:
        constraints = [
            ExclusionConstraint(
                name="occupancy_no_double_booking",
                expressions=[
                    ("space_key", RangeOperators.EQUAL),
                    ("unit", RangeOperators.EQUAL),
                    ("hold", RangeOperators.OVERLAPS),
                    ("booking", RangeOperators.NOT_EQUAL),
                ],
                condition=Q(active=True, exclusive=True),
                violation_error_message="This time was just booked by someone else.",
            ),
        ]
        indexes = [
            GistIndex(fields=["listing", "hold"], name="occupancy_listing_hold", condition=Q(active=True)),
            GistIndex(fields=["space_key", "hold"], name="occupancy_space_hold", condition=Q(active=True)),
            # The dated search asks for held time on some days across every listing: 0.06 ms for a
            # few days at 1,000,000 bookings, where the listing-first index takes 4-5 ms.
            GistIndex(fields=["hold"], include=["listing"], name="occupancy_hold", condition=Q(active=True)),
        ]

    def __str__(self) -> str:
        return f"{self.space_key} {self.hold}"


PUBLIC_REVIEW = Q(is_published=True, revealed_at__isnull=False)
"""The one rule "a review is public": a moderator let it through (``is_published``) and the double-blind
wait is over (``revealed_at``: both sides reviewed, or the review period ended). Every reader that shows a
review to anyone but its writer and staff (listing page, API, ratings, counts) filters with it."""


class ReviewQuerySet(models.QuerySet):
    def public(self) -> "ReviewQuerySet":
        """Reviews anyone may read (``PUBLIC_REVIEW``)."""
        return self.filter(PUBLIC_REVIEW)


class Review(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    listing = models.ForeignKey("listings.Listing", on_delete=models.CASCADE, related_name="reviews")
    booking = models.OneToOneField(Booking, on_delete=models.CASCADE, related_name="review")
    renter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reviews")
    review = models.TextField(max_length=2000, blank=True)
    rating = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=[MinValueValidator(1), MaxValueValidator(5)]
    )
    remarks = models.TextField(max_length=2000, blank=True)
    is_published = models.BooleanField(default=True, help_text="Off while a moderator has not approved it.")
    revealed_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="Double-blind: set when both sides have reviewed, or when the review period ends.",
    )
    reply = models.TextField(max_length=2000, blank=True, help_text="The host's public answer.")
    replied_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    objects = ReviewQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(rating__isnull=True) | Q(rating__gte=1, rating__lte=5), name="review_rating_1_to_5"
            ),
        ]
        indexes = [
            models.Index(fields=["listing", "is_published", "-created_at"]),
            models.Index(
                fields=["listing", "-revealed_at"], name="review_listing_revealed", condition=Q(is_published=True)
            ),
        ]

    def __str__(self) -> str:
        return f"Review of {self.listing_id} ({self.rating})"

    @property
    def is_public(self) -> bool:
        """``PUBLIC_REVIEW`` for one row already loaded."""
        return self.is_published and self.revealed_at is not None


class RenterReview(models.Model):
    """The host's review of the renter after a completed booking (double-blind like ``Review``)."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    booking = models.OneToOneField(Booking, on_delete=models.CASCADE, related_name="renter_review")
    renter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reviews_received")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        help_text="The host or subHost who wrote it.",
    )
    review = models.TextField(max_length=2000, blank=True)
    rating = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=[MinValueValidator(1), MaxValueValidator(5)]
    )
    remarks = models.TextField(max_length=2000, blank=True)
    revealed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(rating__isnull=True) | Q(rating__gte=1, rating__lte=5),
                name="renter_review_rating_1_to_5",
            ),
        ]
        indexes = [models.Index(fields=["renter", "-created_at"])]

    def __str__(self) -> str:
        return f"Review of renter {self.renter_id} ({self.rating})"


class CalendarStatus(models.TextChoices):
    OK = "ok", "OK"
    FAILING = "failing", "Failing"


class ExternalCalendar(models.Model):
    """An iCal feed of another calendar (another marketplace, the host's Google Calendar) imported
    into a listing: its events block the listing's time (``ExternalBlock``). Refreshed by Celery beat
    (``calendars.sync``); a failing feed keeps its last good blocks and backs off."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    listing = models.ForeignKey("listings.Listing", on_delete=models.CASCADE, related_name="external_calendars")
    name = models.CharField(max_length=80)
    url = models.URLField(max_length=2000, help_text="The feed's address (webcal:// stored as https://).")
    status = models.CharField(max_length=16, choices=CalendarStatus.choices, default=CalendarStatus.OK)
    last_synced_at = models.DateTimeField(null=True, blank=True, help_text="The last fetch that succeeded.")
    last_error = models.CharField(max_length=500, blank=True)
    etag = models.CharField(max_length=500, blank=True)
    last_modified = models.CharField(max_length=100, blank=True)
    failures = models.PositiveIntegerField(default=0, help_text="Failed fetches in a row (backoff).")
    next_attempt_at = models.DateTimeField(default=timezone.now, help_text="When beat fetches it next.")
    event_count = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=CalendarStatus.values), name="external_calendar_status_valid"
            ),
        ]
        indexes = [models.Index(fields=["next_attempt_at"], name="external_calendar_due")]

    def __str__(self) -> str:
        return f"{self.name} ({self.status})"


class ExternalBlock(models.Model):
    """One imported event (or one occurrence of a recurring one): the listing's time it blocks, in UTC."""

    calendar = models.ForeignKey(ExternalCalendar, on_delete=models.CASCADE, related_name="blocks")
    listing = models.ForeignKey("listings.Listing", on_delete=models.CASCADE, related_name="+")
    uid = models.CharField(max_length=300, help_text="The event's UID and, for an occurrence, its start.")
    period = DateTimeRangeField(help_text="[start, end) in UTC.")
    summary = models.CharField(max_length=200, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["calendar", "uid"], name="external_block_unique_uid"),
        ]
        indexes = [GistIndex(fields=["listing", "period"], name="external_block_listing_period")]

    def __str__(self) -> str:
        return f"{self.uid} {self.period}"
