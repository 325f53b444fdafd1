"""Role gates for the listing API. Which listing a caller may touch is decided by the selectors."""

from apps.core.access import Area
from apps.core.permissions import AdminOrModerator, AnyRole, HostOrSubHost, NotRenter, RenterOnly, area_permission

ManageListings = HostOrSubHost  # create, edit, upload images
ListListings = NotRenter  # dashboard lists, requests, activate, delete
ReviewListings = area_permission("ReviewListings", Area.LISTING_REVIEWS)  # approve or reject requests
ManageCatalogue = AdminOrModerator  # amenities and facilities
ReadListing = AnyRole  # one listing by id
Favourites = RenterOnly

__all__ = ["Favourites", "ListListings", "ManageCatalogue", "ManageListings", "ReadListing", "ReviewListings"]
