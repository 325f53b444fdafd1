"""Premium membership services, one module per seam:

- ``checkout``: buying (the plan, the gateway's checkout, its confirmation);
- ``lifecycle``: cancelling, granting, expiring, and the premium listings' grace days;
- ``gateway_sync``: Stripe subscription and invoice events;
- ``common``: the status machine (every status change goes through ``common.subscription_set_status``), the
  acting host, dates as shown.
"""

from .checkout import (
    checked_redirect_url,
    plan_get,
    subscription_checkout_abandon,
    subscription_checkout_confirm,
    subscription_checkout_start,
    with_query,
)
from .common import SUBSCRIPTION_MACHINE, TRANSITIONS, acting_host, subscription_get_or_create
from .gateway_sync import subscription_sync_from_gateway
from .lifecycle import (
    cancel_message,
    premium_listings_due,
    premium_listings_purge,
    premium_listings_soft_delete,
    premium_listings_warn,
    subscription_cancel,
    subscription_expire,
    subscription_get_for,
    subscription_grant,
    subscriptions_expire_due,
)

__all__ = [
    "SUBSCRIPTION_MACHINE",
    "TRANSITIONS",
    "acting_host",
    "cancel_message",
    "checked_redirect_url",
    "plan_get",
    "premium_listings_due",
    "premium_listings_purge",
    "premium_listings_soft_delete",
    "premium_listings_warn",
    "subscription_cancel",
    "subscription_checkout_abandon",
    "subscription_checkout_confirm",
    "subscription_checkout_start",
    "subscription_expire",
    "subscription_get_for",
    "subscription_get_or_create",
    "subscription_grant",
    "subscription_sync_from_gateway",
    "subscriptions_expire_due",
    "with_query",
]
