from django.urls import path

from . import search_api, views

app_name = "listings"

urlpatterns: list = [
    # Dashboard: the caller's listings and review requests
    path("listing/get-all", views.ListingListView.as_view(), name="listing-get-all"),
    path("listing/get-all-requests", views.ListingRequestListView.as_view(), name="listing-get-all-requests"),
    path("listing/get-single/<uuid:listing_id>", views.ListingDetailView.as_view(), name="listing-get-single"),
    path("listing/create", views.ListingCreateView.as_view(), name="listing-create"),
    path("listing/update/<uuid:listing_id>", views.ListingUpdateView.as_view(), name="listing-update"),
    path("listing/toggle-active/<uuid:listing_id>", views.ListingToggleActiveView.as_view(), name="listing-toggle"),
    path("listing/delete/<uuid:listing_id>", views.ListingDeleteView.as_view(), name="listing-delete"),
    path("listing/get-request/<uuid:request_id>", views.ListingRequestDetailView.as_view(), name="listing-request"),
    path("listing/draft", views.ListingDraftView.as_view(), name="listing-draft"),
    path(
        "listing/update-request-status/<uuid:request_id>",
        views.ListingRequestReviewView.as_view(),
        name="listing-request-review",
    ),
    # Favourites (renters)
    path("favourites/add/<uuid:listing_id>", views.FavouriteAddView.as_view(), name="favourite-add"),
    path("favourites/remove/<uuid:listing_id>", views.FavouriteRemoveView.as_view(), name="favourite-remove"),
    path("favourites/get-all", views.FavouriteListView.as_view(), name="favourite-get-all"),
    # Media (listing images)
    path("media/uploads", views.MediaUploadView.as_view(), name="media-uploads"),
    path("media/remove", views.MediaRemoveView.as_view(), name="media-remove"),
    # Amenities and facilities: public lists, and manage-amenities for admin and moderator
    path("amenities/get-all", views.CataloguePublicListView.as_view(catalogue="amenities"), name="amenity-get-all"),
    path("amenities/manage", views.CatalogueManageListView.as_view(catalogue="amenities"), name="amenity-manage"),
    path("amenities/add", views.CatalogueAddView.as_view(catalogue="amenities"), name="amenity-add"),
    path(
        "amenities/update/<uuid:item_id>",
        views.CatalogueUpdateView.as_view(catalogue="amenities"),
        name="amenity-update",
    ),
    path("facilities/get-all", views.CataloguePublicListView.as_view(catalogue="facilities"), name="facility-get-all"),
    path("facilities/manage", views.CatalogueManageListView.as_view(catalogue="facilities"), name="facility-manage"),
    path("facilities/add", views.CatalogueAddView.as_view(catalogue="facilities"), name="facility-add"),
    path(
        "facilities/update/<uuid:item_id>",
        views.CatalogueUpdateView.as_view(catalogue="facilities"),
        name="facility-update",
    ),
]

# Public discovery (no sign-in): the search and the navbar's title search.
urlpatterns += [
    path("listing/property-listing", search_api.PropertyListingView.as_view(), name="property-listing"),
    path("listing/search-titles", search_api.SearchTitlesView.as_view(), name="search-titles"),
]
