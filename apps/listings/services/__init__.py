"""Listing writes, one module per seam:

- ``lifecycle``: create, edit, activate, delete (and the premium listings' removal);
- ``status``: the listing's status machine (every status change goes through ``listing_status_change``);
- ``changes``: the form's fields, the edit diff shown to reviewers, writing input onto a listing;
- ``edit_requests``: requests waiting for review and the staff's decision (``listing_request_review``);
- ``drafts``: the listing form kept as the host left it;
- ``favourites``: a renter's saved listings;
- ``catalogue``: the amenities and facilities hosts choose from.

Callers import from the module that holds the function.
"""
