"""Public discovery pages (server-rendered): search, category and city pages, listings and hosts."""

from django.urls import path

from . import pages

urlpatterns = [
    path("property-listing", pages.property_listing, name="property-listing"),
    path("listing-details/<str:slug>", pages.listing_details, name="listing-details"),
    path("host/<str:user_name>", pages.host_profile, name="host-profile"),
    # The two categories; any other first segment falls through to the not-found page.
    path("coworking-spaces", pages.property_listing, {"space": "coworking-spaces"}, name="coworking-spaces"),
    path("event-spaces", pages.property_listing, {"space": "event-spaces"}, name="event-spaces"),
    path("coworking-spaces/<slug:city>", pages.property_listing, {"space": "coworking-spaces"}, name="coworking-city"),
    path("event-spaces/<slug:city>", pages.property_listing, {"space": "event-spaces"}, name="event-city"),
]
