"""Role gates for the listing API. Which listing a caller may touch is decided by the selectors."""

from apps.core.permissions import AdminOrModerator, AnyRole, HostOrSubHost, NotRenter, RenterOnly

ManageListings = HostOrSubHost  # create, edit, upload images
ListListings = NotRenter  # dashboard lists, requests, activate, delete
ReviewListings = AdminOrModerator  # approve or reject requests; amenities and facilities
ReadListing = AnyRole  # one listing by id
Favourites = RenterOnly

__all__ = ["Favourites", "ListListings", "ManageListings", "ReadListing", "ReviewListings"]
