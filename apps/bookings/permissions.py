"""Role gates of the bookings API (object access is the selectors' job)."""

from apps.accounts.models import Role
from apps.core.permissions import role_permission

RenterOrHostSide = role_permission("RenterOrHostSide", Role.RENTER, Role.HOST, Role.SUB_HOST)
