"""The roles of the product (spec section 6). The lowest layer holds them so that every app, and
the role gates in ``permissions.py``, can name a role without importing the accounts app."""

from django.db import models


class Role(models.TextChoices):
    ADMIN = "admin", "Admin"
    MODERATOR = "moderator", "Moderator"
    HOST = "host", "Host"
    SUB_HOST = "subHost", "Sub-host"
    RENTER = "renter", "Renter"


STAFF_ROLES = (Role.ADMIN, Role.MODERATOR)
HOST_SIDE_ROLES = (Role.HOST, Role.SUB_HOST)

# Status histories only the admin reads (money: the spec shows payments and payouts to the admin
# alone among staff); the Django admin leaves them out of a moderator's history list.
MONEY_HISTORIES = frozenset({"payment", "payout", "subscription", "refund", "extensionCharge", "subscriptionPayment"})
