# Over 450 lines: one thin view per listing endpoint (listings, drafts, favourites, media, amenities).
"""Listing API for the dashboard (spec section 7, Listings and media): thin views over services."""

import uuid

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.parsers import MultiPartParser
from rest_framework.permissions import AllowAny
from rest_framework.views import APIView

from apps.core.api import ERROR_ENVELOPE, envelope, enveloped, enveloped_page, page_response, paginate, parse_filters
from apps.core.exceptions import InvalidInput, NotFound
from apps.core.filters import filter_choice
from apps.core.policies import PERIOD_NAMES
from apps.core.serializers import StatusChangeSchema
from apps.core.statemachine import history, history_payload

from . import media, policies, selectors
from .models import Amenity, Facility
from .permissions import Favourites, ListListings, ManageCatalogue, ManageListings, ReadListing, ReviewListings
from .serializers import (
    CatalogueInput,
    CatalogueItemSerializer,
    DraftInput,
    DraftSerializer,
    ListingInput,
    ListingRequestDetailSerializer,
    ListingRequestSerializer,
    ListingSerializer,
    ReviewInput,
    ToggleActiveInput,
)
from .services import catalogue as catalogue_items
from .services import drafts, edit_requests, favourites, lifecycle

ERRORS = dict.fromkeys((400, 401, 403, 404, 409), ERROR_ENVELOPE)
PAGE_PARAMS = [
    OpenApiParameter("page", OpenApiTypes.INT, description="Page number, from 1."),
    OpenApiParameter("limit", OpenApiTypes.INT, description="Page size, at most 10."),
    OpenApiParameter("filters[title]", OpenApiTypes.STR, description="Part of the title."),
    OpenApiParameter(
        "filters[period]",
        OpenApiTypes.STR,
        enum=list(PERIOD_NAMES),
        description="Created in the last day/week/month.",
    ),
]
LISTING_FILTERS = [
    *PAGE_PARAMS,
    OpenApiParameter("filters[status]", OpenApiTypes.STR, enum=["pending", "approved", "rejected"]),
    OpenApiParameter("filters[propertyType]", OpenApiTypes.STR, enum=["eventSpace", "officeSpace"]),
    OpenApiParameter("filters[isActive]", OpenApiTypes.STR, enum=["true", "false"], description="The inactive tab."),
]
REQUEST_FILTERS = [
    *PAGE_PARAMS,
    OpenApiParameter("filters[status]", OpenApiTypes.STR, enum=["pending", "approved", "rejected", "cancelled"]),
    OpenApiParameter(
        "filters[type]",
        OpenApiTypes.STR,
        enum=["new", "edit"],
        description="new: listing-requests; edit: other-requests.",
    ),
]
ListingResponse = enveloped("ListingResponse", ListingSerializer())


class ListingDetailSchema(ListingSerializer):
    """``get-single``: the listing, with its status history for staff and its host side."""

    statusHistory = StatusChangeSchema(
        many=True,
        required=False,
        help_text="Staff and the listing's host side only: who changed the review status, when, from, to and why.",
    )

    class Meta(ListingSerializer.Meta):
        fields = [*ListingSerializer.Meta.fields, "statusHistory"]


ListingDetailResponse = enveloped("ListingDetailResponse", ListingDetailSchema())


def _listing_out(request, listing_id) -> dict:
    listing = selectors.listing_get_for(user=request.user, listing_id=listing_id)
    return ListingSerializer(listing, context={"user": request.user}).data


class ListingListView(APIView):
    permission_classes = [ListListings]

    @extend_schema(
        parameters=LISTING_FILTERS,
        responses={200: enveloped_page("ListingPage", "listings", ListingSerializer), **ERRORS},
    )
    def get(self, request):
        queryset = selectors.listing_list_for(user=request.user, filters=parse_filters(request))
        return page_response(paginate(request, queryset), ListingSerializer, "listings", context={"user": request.user})


class ListingRequestListView(APIView):
    permission_classes = [ListListings]

    @extend_schema(
        parameters=REQUEST_FILTERS,
        responses={200: enveloped_page("ListingRequestPage", "requests", ListingRequestSerializer), **ERRORS},
    )
    def get(self, request):
        queryset = selectors.listing_request_list_for(user=request.user, filters=parse_filters(request))
        return page_response(
            paginate(request, queryset), ListingRequestSerializer, "requests", context={"user": request.user}
        )


class ListingCreateView(APIView):
    permission_classes = [ManageListings]

    @extend_schema(request=ListingInput, responses={201: ListingResponse, **ERRORS})
    def post(self, request):
        data = ListingInput(data=request.data)
        data.is_valid(raise_exception=True)
        listing = lifecycle.listing_create(actor=request.user, data=data.validated_data)
        return envelope(
            _listing_out(request, listing.pk),
            "Listing submitted. It will be published once it is approved.",
            status=201,
        )


class ListingUpdateView(APIView):
    permission_classes = [ManageListings]

    @extend_schema(request=ListingInput, responses={200: ListingResponse, **ERRORS})
    def put(self, request, listing_id):
        listing = selectors.listing_get_managed(user=request.user, listing_id=listing_id)
        data = ListingInput(data=request.data)
        data.is_valid(raise_exception=True)
        listing, pending = lifecycle.listing_update(actor=request.user, listing=listing, data=data.validated_data)
        if pending is not None and pending.kind == "edit":
            message = "Your changes were sent for review. The listing stays as it is until they are approved."
        elif pending is not None:
            message = "Listing updated. It will be published once it is approved."
        else:
            message = "Listing updated successfully."
        return envelope(_listing_out(request, listing.pk), message)


class ListingDetailView(APIView):
    permission_classes = [ReadListing]

    @extend_schema(responses={200: ListingDetailResponse, **ERRORS})
    def get(self, request, listing_id):
        listing = selectors.listing_get_for(user=request.user, listing_id=listing_id)
        data = ListingSerializer(listing, context={"user": request.user}).data
        if policies.sees_history(request.user, listing):
            data["statusHistory"] = history_payload(history(listing))
        return envelope(data)


class ListingToggleActiveView(APIView):
    permission_classes = [ListListings]

    @extend_schema(request=ToggleActiveInput, responses={200: ListingResponse, **ERRORS})
    def patch(self, request, listing_id):
        listing = selectors.listing_get_managed(user=request.user, listing_id=listing_id)
        data = ToggleActiveInput(data=request.data)
        data.is_valid(raise_exception=True)
        listing = lifecycle.listing_set_active(
            actor=request.user, listing=listing, is_active=data.validated_data.get("isActive")
        )
        message = "Listing activated." if listing.is_active else "Listing deactivated."
        return envelope(_listing_out(request, listing.pk), message)


class ListingDeleteView(APIView):
    permission_classes = [ListListings]

    @extend_schema(
        responses={
            200: enveloped(
                "ListingDeleteResponse", inline_serializer("ListingDeleted", {"_id": serializers.UUIDField()})
            ),
            **ERRORS,
        }
    )
    def delete(self, request, listing_id):
        listing = selectors.listing_get_managed(user=request.user, listing_id=listing_id)
        lifecycle.listing_delete(actor=request.user, listing=listing)
        return envelope({"_id": str(listing.pk)}, "Listing deleted successfully.")


class ListingRequestReviewView(APIView):
    permission_classes = [ReviewListings]

    @extend_schema(
        request=ReviewInput, responses={200: enveloped("ListingRequestResponse", ListingRequestSerializer()), **ERRORS}
    )
    def patch(self, request, request_id):
        listing_request = selectors.listing_request_get_for_review(request_id=request_id)
        data = ReviewInput(data=request.data)
        data.is_valid(raise_exception=True)
        listing_request = edit_requests.listing_request_review(
            listing_request=listing_request,
            by=request.user,
            status=data.validated_data["status"],
            reason=data.validated_data["reason"],
        )
        message = "Request approved." if listing_request.status == "approved" else "Request rejected."
        return envelope(ListingRequestSerializer(listing_request, context={"user": request.user}).data, message)


class ListingRequestDetailView(APIView):
    """One review request; for an edit, the proposed values beside the live ones (``changes``)."""

    permission_classes = [ListListings]

    @extend_schema(
        responses={200: enveloped("ListingRequestDetailResponse", ListingRequestDetailSerializer()), **ERRORS}
    )
    def get(self, request, request_id):
        listing_request = selectors.listing_request_get_for(user=request.user, request_id=request_id)
        return envelope(ListingRequestDetailSerializer(listing_request, context={"user": request.user}).data)


# --- Drafts -------------------------------------------------------------------------------------

DraftResponse = enveloped("ListingDraftResponse", DraftSerializer(allow_null=True))


class ListingDraftView(APIView):
    """The listing form as the host left it: ``GET`` (``listingId`` for an existing listing), ``PUT``
    to keep it, ``DELETE`` to discard it. Submitting the listing discards it too."""

    permission_classes = [ManageListings]

    def _listing_id(self, request):
        raw = request.query_params.get("listingId") or None
        if raw is None:
            return None
        try:
            return uuid.UUID(raw)
        except ValueError:
            raise InvalidInput("listingId is not valid.", errors={"listingId": ["listingId is not valid."]}) from None

    @extend_schema(
        parameters=[OpenApiParameter("listingId", OpenApiTypes.UUID, description="Absent for a new listing.")],
        responses={200: DraftResponse, **ERRORS},
    )
    def get(self, request):
        draft = drafts.listing_draft_get(actor=request.user, listing_id=self._listing_id(request))
        return envelope(DraftSerializer(draft).data if draft else None)

    @extend_schema(request=DraftInput, responses={200: DraftResponse, **ERRORS})
    def put(self, request):
        data = DraftInput(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        draft = drafts.listing_draft_save(
            actor=request.user, listing_id=values.get("listingId"), step=values["step"], data=values["data"]
        )
        return envelope(DraftSerializer(draft).data, "Draft saved.")

    @extend_schema(
        parameters=[OpenApiParameter("listingId", OpenApiTypes.UUID, description="Absent for a new listing.")],
        responses={200: DraftResponse, **ERRORS},
    )
    def delete(self, request):
        drafts.listing_draft_discard(actor=request.user, listing_id=self._listing_id(request))
        return envelope(None, "Draft discarded.")


# --- Favourites ---------------------------------------------------------------------------------


class FavouriteAddView(APIView):
    permission_classes = [Favourites]

    @extend_schema(request=None, responses={200: ListingResponse, 201: ListingResponse, **ERRORS})
    def post(self, request, listing_id):
        listing = selectors.bookable_listing_get(listing_id=listing_id)
        _, created = favourites.favourite_add(user=request.user, listing=listing)
        message = "Added to your favourites." if created else "Already in your favourites."
        return envelope(_listing_out(request, listing.pk), message, status=201 if created else 200)


class FavouriteRemoveView(APIView):
    permission_classes = [Favourites]

    @extend_schema(
        responses={
            200: enveloped(
                "FavouriteRemoveResponse",
                inline_serializer(
                    "FavouriteRemoved", {"_id": serializers.UUIDField(), "favourite": serializers.BooleanField()}
                ),
            ),
            **ERRORS,
        }
    )
    def delete(self, request, listing_id):
        removed = favourites.favourite_remove(user=request.user, listing_id=listing_id)
        message = "Removed from your favourites." if removed else "This listing was not in your favourites."
        return envelope({"_id": str(listing_id), "favourite": False}, message)


class FavouriteListView(APIView):
    permission_classes = [Favourites]

    @extend_schema(
        parameters=PAGE_PARAMS[:2],
        responses={200: enveloped_page("FavouritePage", "listings", ListingSerializer), **ERRORS},
    )
    def get(self, request):
        queryset = selectors.favourite_list_for(user=request.user)
        return page_response(paginate(request, queryset), ListingSerializer, "listings", context={"user": request.user})


# --- Media ----------------------------------------------------------------------------------------


class MediaUploadView(APIView):
    permission_classes = [ManageListings]
    parser_classes = [MultiPartParser]

    @extend_schema(
        request={
            "multipart/form-data": inline_serializer(
                "MediaUploadInput", {"files": serializers.ListField(child=serializers.ImageField())}
            )
        },
        responses={
            201: enveloped(
                "MediaUploadResponse",
                inline_serializer(
                    "MediaUploaded",
                    {
                        "filesPath": serializers.ListField(child=serializers.CharField()),
                        "files": inline_serializer(
                            "UploadedImage",
                            {
                                "path": serializers.CharField(),
                                "url": serializers.CharField(),
                                "smallPath": serializers.CharField(),
                            },
                            many=True,
                        ),
                    },
                ),
            ),
            **ERRORS,
            # Too much decoding for one minute (Retry-After), or the decoding pool busy (Retry-After).
            429: ERROR_ENVELOPE,
            503: ERROR_ENVELOPE,
        },
    )
    def post(self, request):
        stored = media.media_upload(user=request.user, files=request.FILES.getlist("files"))
        return envelope(
            {"filesPath": [item["path"] for item in stored], "files": stored},
            "Images uploaded successfully.",
            status=201,
        )


class MediaRemoveView(APIView):
    permission_classes = [ManageListings]
    delete_body = True  # the schema documents the request body (apps.core.schema.AutoSchema)

    @extend_schema(
        request=inline_serializer(
            "MediaRemoveInput", {"filesPath": serializers.ListField(child=serializers.CharField())}
        ),
        responses={
            200: enveloped(
                "MediaRemoveResponse",
                inline_serializer("MediaRemoved", {"filesPath": serializers.ListField(child=serializers.CharField())}),
            ),
            **ERRORS,
        },
    )
    def delete(self, request):
        if not isinstance(request.data, dict):
            raise InvalidInput("Send filesPath as a list of file paths.", errors={"filesPath": ["Required."]})
        removed = media.media_remove(user=request.user, paths=request.data.get("filesPath"))
        return envelope({"filesPath": removed}, "Files removed successfully.")


# --- Amenities and facilities ---------------------------------------------------------------------

CATALOGUES = {"amenities": Amenity, "facilities": Facility}
CATALOGUE_LABEL = {"amenities": "Amenity", "facilities": "Facility"}


class CataloguePublicListView(APIView):
    """Active amenities (or facilities) for the listing form and the search filters; no sign-in."""

    authentication_classes: list = []
    permission_classes = [AllowAny]
    catalogue = "amenities"

    @extend_schema(responses={200: enveloped("CatalogueList", CatalogueItemSerializer(many=True))})
    def get(self, request):
        items = CATALOGUES[self.catalogue].objects.filter(is_active=True).order_by("name")
        return envelope(CatalogueItemSerializer(items, many=True).data)


class CatalogueManageListView(APIView):
    """Every amenity (or facility), active or not, for manage-amenities: ``filters[title]``, ``filters[status]``."""

    permission_classes = [ManageCatalogue]
    catalogue = "amenities"

    @extend_schema(
        parameters=[
            *PAGE_PARAMS[:3],
            OpenApiParameter("filters[status]", OpenApiTypes.STR, enum=["active", "inactive"]),
        ],
        responses={200: enveloped_page("CataloguePage", "items", CatalogueItemSerializer), **ERRORS},
    )
    def get(self, request):
        filters = parse_filters(request)
        queryset = CATALOGUES[self.catalogue].objects.order_by("name")
        if filters.get("title"):
            queryset = queryset.filter(name__icontains=filters["title"][:80])
        message = "filters[status] must be active or inactive."
        status = filter_choice(filters, "status", ("active", "inactive"), message=message)
        if status:
            queryset = queryset.filter(is_active=status == "active")
        return page_response(paginate(request, queryset), CatalogueItemSerializer, "items")


class CatalogueAddView(APIView):
    permission_classes = [ManageCatalogue]
    catalogue = "amenities"

    @extend_schema(
        request=CatalogueInput, responses={201: enveloped("CatalogueItemResponse", CatalogueItemSerializer()), **ERRORS}
    )
    def post(self, request):
        data = CatalogueInput(data=request.data)
        data.is_valid(raise_exception=True)
        item = catalogue_items.catalogue_item_create(
            model=CATALOGUES[self.catalogue],
            name=data.validated_data.get("name", ""),
            icon=data.validated_data.get("icon", ""),
        )
        return envelope(CatalogueItemSerializer(item).data, f"{CATALOGUE_LABEL[self.catalogue]} added.", status=201)


class CatalogueUpdateView(APIView):
    permission_classes = [ManageCatalogue]
    catalogue = "amenities"

    @extend_schema(
        request=CatalogueInput,
        responses={200: enveloped("CatalogueItemUpdatedResponse", CatalogueItemSerializer()), **ERRORS},
    )
    def put(self, request, item_id):
        item = CATALOGUES[self.catalogue].objects.filter(pk=item_id).first()
        if item is None:
            raise NotFound(f"{CATALOGUE_LABEL[self.catalogue]} not found.")
        data = CatalogueInput(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        item = catalogue_items.catalogue_item_update(
            item=item, name=values.get("name"), icon=values.get("icon"), is_active=values.get("isActive")
        )
        return envelope(CatalogueItemSerializer(item).data, f"{CATALOGUE_LABEL[self.catalogue]} updated.")
