from django.contrib import admin

from .models import AddOn, Amenity, Facility, Favourite, Listing, ListingImage, ListingRequest, SpaceOffering


class SpaceOfferingInline(admin.TabularInline):
    model = SpaceOffering
    extra = 0


class AddOnInline(admin.TabularInline):
    model = AddOn
    extra = 0


class ListingImageInline(admin.TabularInline):
    model = ListingImage
    extra = 0


class ListingRequestInline(admin.TabularInline):
    model = ListingRequest
    extra = 0
    fields = ["kind", "status", "changed_fields", "reason", "requested_by", "reviewed_by", "created_at"]
    readonly_fields = fields
    can_delete = False
    show_change_link = True


@admin.register(Listing)
class ListingAdmin(admin.ModelAdmin):
    """Status is read-only here: approvals go through the review requests (and their one service)."""

    list_display = ["title", "property_type", "city", "country", "status", "is_active", "is_deleted", "created_at"]
    list_filter = ["status", "property_type", "is_active", "is_deleted", "is_premium", "country"]
    search_fields = ["title", "slug", "city", "host__email"]
    raw_id_fields = ["host", "created_by"]
    readonly_fields = ["status", "reject_reason", "approved_at", "created_at", "updated_at", "rating_average"]
    filter_horizontal = ["amenities", "facilities"]
    inlines = [SpaceOfferingInline, AddOnInline, ListingImageInline, ListingRequestInline]
    list_select_related = ["host"]


@admin.register(ListingRequest)
class ListingRequestAdmin(admin.ModelAdmin):
    list_display = ["listing", "kind", "status", "created_at", "reviewed_at"]
    list_filter = ["kind", "status"]
    search_fields = ["listing__title"]
    raw_id_fields = ["listing", "requested_by", "reviewed_by"]
    readonly_fields = ["status", "reviewed_by", "reviewed_at", "created_at"]
    list_select_related = ["listing"]


@admin.register(Amenity, Facility)
class CatalogueAdmin(admin.ModelAdmin):
    list_display = ["name", "icon", "is_active"]
    list_filter = ["is_active"]
    search_fields = ["name"]


@admin.register(Favourite)
class FavouriteAdmin(admin.ModelAdmin):
    list_display = ["user", "listing", "created_at"]
    raw_id_fields = ["user", "listing"]
