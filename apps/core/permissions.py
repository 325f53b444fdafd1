"""Role gates for the role groups of the product (spec section 6).

These only answer "may this role call this endpoint at all". Which objects a caller may
see is decided by the selectors (they filter by ownership); business rules live in services.
"""

from rest_framework.permissions import BasePermission

from .access import Area, area_roles
from .roles import Role


class HasRole(BasePermission):
    roles: frozenset[str] = frozenset()
    message = "Your account type cannot do this."

    def has_permission(self, request, view) -> bool:
        user = request.user
        return bool(user and user.is_authenticated and user.role in self.roles)


def role_permission(name: str, *roles: str) -> type[HasRole]:
    return type(name, (HasRole,), {"roles": frozenset(roles)})


AnyRole = role_permission("AnyRole", *Role.values)
AdminOrModerator = role_permission("AdminOrModerator", Role.ADMIN, Role.MODERATOR)
AdminOnly = role_permission("AdminOnly", Role.ADMIN)
RenterOnly = role_permission("RenterOnly", Role.RENTER)
StaffOrHostSide = role_permission("StaffOrHostSide", Role.ADMIN, Role.HOST, Role.SUB_HOST, Role.MODERATOR)
HostOrSubHost = role_permission("HostOrSubHost", Role.HOST, Role.SUB_HOST)
HostOnly = role_permission("HostOnly", Role.HOST)
NotRenter = role_permission("NotRenter", Role.ADMIN, Role.MODERATOR, Role.HOST, Role.SUB_HOST)


def area_permission(name: str, area: Area) -> type[HasRole]:
    """The role gate of a back-office area (``apps.core.access``)."""
    return role_permission(name, *area_roles(area))
