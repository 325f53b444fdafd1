"""How payments follow what the bookings app announces."""

from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from apps.bookings.models import Booking
from apps.bookings.signals import booking_status_changed, register_payment_status
from apps.listings import search_cache
from apps.premium.models import Subscription

from .selectors import booking_payment_status
from .services import booking_payment_follow

register_payment_status(booking_payment_status)


@receiver(booking_status_changed, sender=Booking, dispatch_uid="payments-follow-booking")
def follow_booking(sender, *, booking, from_status: str, to_status: str, actor=None, reason: str = "", **kwargs):
    """Inside the booking's transaction: queue the capture, release or refund it calls for."""
    booking_payment_follow(booking=booking, from_status=from_status, to_status=to_status, actor=actor)


@receiver(post_save, sender=Subscription, dispatch_uid="search-premium-saved")
@receiver(post_delete, sender=Subscription, dispatch_uid="search-premium-deleted")
def premium_changed(sender, raw: bool = False, **kwargs) -> None:
    """A membership starting, changing or ending moves its host's listings in the public search."""
    if not raw:
        search_cache.search_changed()
