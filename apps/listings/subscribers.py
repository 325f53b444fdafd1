"""Every receiver the listings app connects, listed in ``SUBSCRIBERS`` (connected by ``apps.py``).

The public search's cached answers (``search_cache``) are retired on any write to the rows they are
built from: listings, their offerings, images, amenities and facilities, their hosts' accounts, and
the hosts' premium memberships (which order the results).
"""

from django.db.models.signals import m2m_changed, post_delete, post_init, post_save

from apps.accounts.models import User
from apps.core.dispatch import Subscriber
from apps.premium.models import Subscription

from . import search_cache
from .models import Amenity, Facility, Listing, ListingImage, SpaceOffering


def premium_changed(sender, raw: bool = False, **kwargs) -> None:
    """A membership starting, changing or ending moves its host's listings in the public search."""
    if not raw:
        search_cache.search_changed()


SUBSCRIBERS = (
    Subscriber(post_init, search_cache.listing_loaded, sender=Listing, uid="search-cache-loaded-Listing"),
    Subscriber(post_save, search_cache.listing_saved, sender=Listing, uid="search-cache-save-Listing"),
    Subscriber(post_delete, search_cache.listing_saved, sender=Listing, uid="search-cache-delete-Listing"),
    *(
        Subscriber(signal, search_cache.part_changed, sender=model, uid=f"search-cache-{verb}-{model.__name__}")
        for model in (SpaceOffering, ListingImage)
        for signal, verb in ((post_save, "save"), (post_delete, "delete"))
    ),
    *(
        Subscriber(signal, search_cache.catalogue_changed, sender=model, uid=f"search-cache-{verb}-{model.__name__}")
        for model in (Amenity, Facility)
        for signal, verb in ((post_save, "save"), (post_delete, "delete"))
    ),
    *(
        Subscriber(m2m_changed, search_cache.items_changed, sender=through, uid=f"search-cache-m2m-{through.__name__}")
        for through in (Listing.amenities.through, Listing.facilities.through)
    ),
    Subscriber(post_save, search_cache.account_saved, sender=User, uid="search-cache-account"),
    Subscriber(post_save, premium_changed, sender=Subscription, uid="search-premium-saved"),
    Subscriber(post_delete, premium_changed, sender=Subscription, uid="search-premium-deleted"),
)
