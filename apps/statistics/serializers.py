"""Output of the dashboard statistics; these also describe the answers in the OpenAPI schema."""

from rest_framework import serializers

from apps.bookings.models import BookingStatus
from apps.bookings.times import format_date, format_time, zone_abbreviation, zone_of
from apps.core.roles import Role
from apps.listings.models import ListingStatus, PropertyType

MONEY = {"max_digits": 14, "decimal_places": 2}
PERCENT = {"max_digits": 6, "decimal_places": 2}


class DashboardNumbersSerializer(serializers.Serializer):
    totalBooking = serializers.IntegerField(help_text="Booking requests made in the period.")
    totalRentPaid = serializers.DecimalField(
        **MONEY, required=False, help_text="Paid in the period (less refunds). Not for moderator."
    )
    totalSpaceOccupied = serializers.IntegerField(help_text="Spaces with a confirmed booking in the period.")
    cancelledRequestsCount = serializers.IntegerField(help_text="Requests made in the period and cancelled.")
    eventSpaceCount = serializers.IntegerField(required=False, help_text="Admin, moderator: event spaces added.")
    workSpaceCount = serializers.IntegerField(required=False, help_text="Admin, moderator: work spaces added.")
    totalUsers = serializers.IntegerField(required=False, help_text="Admin, moderator: accounts opened.")
    totalRevenue = serializers.DecimalField(**MONEY, required=False, help_text="Admin: paid on the platform.")


class TypeCountSerializer(serializers.Serializer):
    propertyType = serializers.ChoiceField(choices=PropertyType.choices)
    count = serializers.IntegerField()


class PeriodSerializer(serializers.Serializer):
    label = serializers.CharField(help_text="Sun..Sat (week), Jan..Dec (month) or the year (year).")
    year = serializers.IntegerField()
    startDate = serializers.DateField(help_text="First day of the period (America/New_York).")


class TypedPeriodSerializer(PeriodSerializer):
    data = TypeCountSerializer(many=True)


class AvailabilityPeriodSerializer(PeriodSerializer):
    totalSpaces = serializers.IntegerField(help_text="Live listings in scope (approved, active, not deleted).")
    occupied = serializers.IntegerField(help_text="Of those, with a confirmed booking starting in the period.")
    available = serializers.IntegerField()
    occupiedPercentage = serializers.DecimalField(**PERCENT)
    availablePercentage = serializers.DecimalField(**PERCENT)


class RevenuePeriodSerializer(PeriodSerializer):
    revenue = serializers.DecimalField(**MONEY, help_text="Captured plus paid extensions, less refunds.")
    commission = serializers.DecimalField(**MONEY, help_text="The platform's commission on those bookings.")


class RoleCountSerializer(serializers.Serializer):
    role = serializers.ChoiceField(choices=Role.choices)
    count = serializers.IntegerField()
    percentage = serializers.DecimalField(**PERCENT)


class TotalUsersSerializer(serializers.Serializer):
    totalUsers = serializers.IntegerField()
    roles = RoleCountSerializer(many=True)


class StatPersonSerializer(serializers.Serializer):
    _id = serializers.UUIDField(source="id")
    firstName = serializers.CharField(source="first_name")
    lastName = serializers.CharField(source="last_name")
    displayName = serializers.CharField(source="display_name")
    userName = serializers.CharField(source="user_name")
    email = serializers.EmailField()
    avatar = serializers.CharField(source="avatar_url")
    isDeleted = serializers.BooleanField(source="is_deleted")


class ListingBriefSerializer(serializers.Serializer):
    _id = serializers.UUIDField(source="id")
    slug = serializers.CharField()
    title = serializers.CharField()
    status = serializers.ChoiceField(choices=ListingStatus.choices)
    propertyType = serializers.ChoiceField(source="property_type", choices=PropertyType.choices)
    city = serializers.CharField()
    country = serializers.CharField()


class ListingRowSerializer(ListingBriefSerializer):
    isActive = serializers.BooleanField(source="is_active")
    image = serializers.SerializerMethodField()
    rating = serializers.DecimalField(source="rating_average", max_digits=3, decimal_places=2)
    createdAt = serializers.DateTimeField(source="created_at")
    host = StatPersonSerializer()

    def get_image(self, listing) -> str | None:
        images = listing.images.all()
        return images[0].path if images else None


class BookingRowSerializer(serializers.Serializer):
    _id = serializers.UUIDField(source="id")
    status = serializers.ChoiceField(choices=BookingStatus.choices)
    listing = ListingBriefSerializer()
    listingId = serializers.UUIDField(source="listing_id")
    renter = StatPersonSerializer()
    host = StatPersonSerializer()
    checkInDate = serializers.SerializerMethodField(help_text="dd-MM-yyyy, in the listing's time zone")
    checkOutDate = serializers.SerializerMethodField(help_text="dd-MM-yyyy, in the listing's time zone")
    startTime = serializers.SerializerMethodField(help_text="12-hour, in the listing's time zone")
    endTime = serializers.SerializerMethodField(help_text="12-hour, in the listing's time zone")
    timeZone = serializers.CharField(source="listing.time_zone", help_text="The listing's IANA time zone")
    timeZoneName = serializers.SerializerMethodField(help_text="The zone's short name at check-in (IST, EDT)")
    guests = serializers.IntegerField()
    price = serializers.DecimalField(max_digits=12, decimal_places=2)
    totalAmount = serializers.DecimalField(source="total_amount", max_digits=12, decimal_places=2)
    cancellationReason = serializers.CharField(source="cancellation_reason")
    createdAt = serializers.DateTimeField(source="created_at")

    # A booking's times are on its listing's clock.
    def get_checkInDate(self, booking) -> str:
        return format_date(booking.check_in, zone_of(booking.listing))

    def get_checkOutDate(self, booking) -> str:
        return format_date(booking.check_out, zone_of(booking.listing))

    def get_startTime(self, booking) -> str:
        return format_time(booking.check_in, zone_of(booking.listing))

    def get_endTime(self, booking) -> str:
        return format_time(booking.check_out, zone_of(booking.listing))

    def get_timeZoneName(self, booking) -> str:
        return zone_abbreviation(zone_of(booking.listing), booking.check_in)


class PopularHostSerializer(serializers.Serializer):
    host = StatPersonSerializer()
    totalBookings = serializers.IntegerField()
    percentage = serializers.DecimalField(**PERCENT, help_text="Share of all confirmed bookings.")


class PopularSpaceSerializer(serializers.Serializer):
    listing = ListingRowSerializer()
    totalBookings = serializers.IntegerField()


class HighDemandLocationSerializer(serializers.Serializer):
    city = serializers.CharField()
    country = serializers.CharField()
    count = serializers.IntegerField(help_text="Confirmed bookings of listings in this city.")
    percentage = serializers.DecimalField(**PERCENT)
    colour = serializers.CharField(allow_null=True, help_text="Black, Yellow, Blue, Green for the top four.")


class HighDemandAmenitySerializer(serializers.Serializer):
    _id = serializers.UUIDField()
    name = serializers.CharField()
    icon = serializers.CharField()
    count = serializers.IntegerField(help_text="Confirmed bookings of listings offering it.")
    percentage = serializers.DecimalField(**PERCENT)


class ProgressBarSerializer(serializers.Serializer):
    country = serializers.CharField()
    count = serializers.IntegerField()
    percentage = serializers.DecimalField(**PERCENT)


class GeoChartSerializer(serializers.Serializer):
    geoChart = serializers.DictField(child=serializers.IntegerField(), help_text="Country to confirmed bookings.")
    progressBars = ProgressBarSerializer(many=True)
    total = serializers.IntegerField()
