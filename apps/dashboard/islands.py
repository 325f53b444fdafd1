"""The props of the signed-in area's islands (apps/core/islands.py): the shell's bell, the premium
button, and each page's island, whose props start with the route and the user (apps/dashboard/views.py)
and add what apps/dashboard/pages.py builds for the route."""

from rest_framework import serializers

from apps.accounts.models import Role
from apps.bookings.policies import BOOKING_TABS
from apps.core.islands import IslandProps
from apps.messaging.models import Side

from .policies import PLATFORM_WIDGETS

BOOKING_SIDES = ["renter", "host", "staff"]


def _text(**kwargs) -> serializers.CharField:
    return serializers.CharField(allow_blank=True, **kwargs)


def _flag(**kwargs) -> serializers.BooleanField:
    return serializers.BooleanField(**kwargs)


class IslandPropsDashboardShell(IslandProps):
    """The top bar's bell and the sidebar's counters, live over the websocket."""

    role = serializers.ChoiceField(choices=Role.choices)
    userId = serializers.CharField()
    counters = serializers.DictField(child=serializers.IntegerField(), help_text="Pending counters by name.")
    websocketUrl = _text()
    loadsCounters = _flag()


class IslandPropsDashboardPremium(IslandProps):
    role = serializers.ChoiceField(choices=Role.choices)


class IslandDashboardPage(IslandProps):
    """What every page's island receives: the route shown, the route asked for, and the user."""

    route = serializers.CharField()
    requestedRoute = serializers.CharField(help_text="A role that may not open it is shown its dashboard instead.")
    role = serializers.ChoiceField(choices=Role.choices)
    userId = serializers.CharField()


class IslandPropsDashboardHome(IslandDashboardPage):
    widgets = serializers.ListField(
        child=serializers.ChoiceField(choices=["revenue", *PLATFORM_WIDGETS, "payoutRequests"]),
        help_text="The platform widgets, in page order.",
    )
    platformNumbers = _flag()
    seesInvoices = _flag()
    moneyLabel = serializers.CharField()
    firstListing = _flag()


class IslandPropsDashboardBookings(IslandDashboardPage):
    view = serializers.ChoiceField(choices=["list", "detail", "request"])
    mode = serializers.ChoiceField(choices=["bookings", "requests"], required=False)
    id = _text(required=False)
    side = serializers.ChoiceField(choices=BOOKING_SIDES)
    tabs = serializers.ListField(child=serializers.ChoiceField(choices=BOOKING_TABS))
    seesPayment = _flag()


class IslandPropsDashboardListings(IslandDashboardPage):
    view = serializers.ChoiceField(choices=["list", "requests", "otherRequests", "detail"])
    id = _text(required=False)
    requestId = _text(required=False)
    staff = _flag()
    hostSide = _flag()


class IslandPropsDashboardListingForm(IslandDashboardPage):
    mode = serializers.ChoiceField(choices=["add", "edit"])
    id = _text()
    staff = _flag()
    hostTax = serializers.CharField()
    isPremiumHost = _flag()
    tileUrl = serializers.CharField()
    attribution = _text()


class IslandPropsDashboardAmenities(IslandDashboardPage):
    pass


class IslandPropsDashboardFavourites(IslandDashboardPage):
    pass


class IslandPropsDashboardInvoices(IslandDashboardPage):
    pass


class IslandPropsDashboardVerification(IslandDashboardPage):
    pass


class IslandPropsDashboardCalendar(IslandDashboardPage):
    hostSide = _flag()


class IslandPropsDashboardPayments(IslandDashboardPage):
    withHost = _flag()


class IslandPropsDashboardPayout(IslandDashboardPage):
    view = serializers.ChoiceField(choices=["payout", "requests"])
    requestsPayouts = _flag(required=False)
    seesBalance = _flag(required=False)
    withHost = _flag(required=False)


class IslandPropsDashboardPaymentDetails(IslandDashboardPage):
    paymentId = _text()
    bookingId = _text()


class IslandPropsDashboardMessages(IslandDashboardPage):
    side = serializers.ChoiceField(choices=Side.choices, allow_null=True, help_text="Staff (null) only read.")
    withUserId = _text()
    conversationId = _text()
    bookingId = _text()
    listingId = _text()


class IslandPropsDashboardNotifications(IslandDashboardPage):
    tab = _text()


class IslandPropsDashboardDisputes(IslandDashboardPage):
    view = serializers.ChoiceField(choices=["list", "detail"])
    mode = serializers.ChoiceField(choices=["disputes", "requests"], required=False)
    id = _text(required=False)
    side = serializers.ChoiceField(choices=BOOKING_SIDES)
    staff = _flag()


class IslandPropsDashboardProfile(IslandDashboardPage):
    view = serializers.ChoiceField(choices=["profile", "edit"])


class IslandPropsDashboardSettings(IslandDashboardPage):
    setsTax = _flag()
    seesPremiumHistory = _flag()
    closesAccount = _flag()
    closingNotes = serializers.ListField(
        child=serializers.ChoiceField(choices=["listings", "subHosts", "earnings", "upcomingBookings"])
    )


class IslandPropsDashboardUsers(IslandDashboardPage):
    view = serializers.ChoiceField(choices=["list", "add", "user"])
    kind = serializers.ChoiceField(choices=["hosts", "renters", "subHosts", "moderators"], required=False)
    id = _text(required=False)


class IslandPropsDashboardContent(IslandDashboardPage):
    view = serializers.ChoiceField(choices=["cms", "reviews"])
