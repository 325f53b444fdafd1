"""Rules of people and roles: what each role may do, who acts for which host, who sees which
pending counter, and who may suspend, restore or delete an account.

- ``acting_host_id(user)``: the host whose listings and bookings ``user`` manages (itself for a
  host, its host for a subHost, nobody otherwise); ``acts_for_host(user, host_id)`` compares it.
- ``sees_counter``: which roles see each pending counter of the dashboard menu (the table,
  ``COUNTER_ROLES``, sits with the counters in the notifications app, below this one).
- ``user_can(actor, target)`` gives the ``can`` flags of a user row (suspend, restore, delete)
  from ``manage_refusal`` and ``status_refusal``, the checks the account services raise.
"""

from urllib.parse import quote

from apps.core.exceptions import Conflict, DomainError, Forbidden, InvalidInput
from apps.notifications.counters import COUNTER_ROLES

from .models import HOST_SIDE_ROLES, STAFF_ROLES, Role, User

# --- Acting for a host -----------------------------------------------------------------------------


def acting_host_id(user):
    """The host whose listings ``user`` manages: itself for a host, its host for a subHost."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    if user.role == Role.HOST:
        return user.pk
    if user.role == Role.SUB_HOST:
        return user.host_id
    return None


def acting_host(user) -> User | None:
    """The host account ``user`` acts for (itself for a host, its host for a subHost), else None."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    if user.role == Role.HOST:
        return user
    if user.role == Role.SUB_HOST and user.host_id:
        return user.host
    return None


def acts_for_host(user, host_id) -> bool:
    """True when ``user`` is the host ``host_id`` or one of its subHosts."""
    acting = acting_host_id(user)
    return acting is not None and host_id is not None and str(acting) == str(host_id)


def is_staff_role(user) -> bool:
    return getattr(user, "role", None) in STAFF_ROLES


def is_host_side(user) -> bool:
    return getattr(user, "role", None) in HOST_SIDE_ROLES


# --- Pending counters of the dashboard menu --------------------------------------------------------

# ``COUNTER_ROLES`` lives with the counters (apps.notifications.counters), below this app.


def sees_counter(user, name: str) -> bool:
    return getattr(user, "role", None) in COUNTER_ROLES.get(name, frozenset())


# --- One's own account (the General Settings page) ------------------------------------------------


def sets_tax(user) -> bool:
    """Only the host sets the tax added to its listings' prices (the tax endpoint allows it alone)."""
    return getattr(user, "role", None) == Role.HOST


def close_account_refusal(user) -> DomainError | None:
    """Why ``user`` may not close its own account: the admin account is never deleted."""
    if getattr(user, "role", None) == Role.ADMIN:
        return Forbidden("The admin account cannot be deleted.")
    return None


def closing_notes(user) -> list[str]:
    """What closing the account does beyond signing out, named for the Settings page: a host's listings
    leave search, its subHosts close with it, unpaid earnings stay on record; a renter's upcoming
    bookings stay booked until cancelled."""
    if user.role == Role.HOST:
        return ["listings", "subHosts", "earnings"]
    if user.role == Role.RENTER:
        return ["upcomingBookings"]
    return []


# --- Identity and the public host page ------------------------------------------------------------


def verifies_identity(user) -> bool:
    """Hosts prove their identity with documents; their profile shows where that stands."""
    return getattr(user, "role", None) == Role.HOST


def public_host_page(user) -> str | None:
    """The path of the host's public page (``/host/{userName}``), which exists for a host with a user
    name whose account is open; ``None`` for everyone else."""
    if user.role != Role.HOST or not user.user_name or user.is_deleted or not user.is_active:
        return None
    return f"/host/{quote(user.user_name)}"


# --- Managing accounts -----------------------------------------------------------------------------

ACCOUNT_STATUSES = ("active", "suspended", "deleted")


def account_status(user: User) -> str:
    """active, suspended or deleted: how the back office names an account's state."""
    if user.is_deleted:
        return "deleted"
    return "active" if user.is_active else "suspended"


def manage_refusal(actor, target: User) -> DomainError | None:
    """Staff manage hosts, subHosts and renters; only the admin manages moderators; nobody the
    admin account or their own account here. A host manages its own subHosts."""
    if target.pk == actor.pk:
        return Forbidden("You cannot change your own account here. Use your general settings.")
    if target.role == Role.ADMIN:
        return Forbidden("The admin account cannot be changed here.")
    if target.role == Role.MODERATOR and actor.role != Role.ADMIN:
        return Forbidden("Only the admin can manage moderators.")
    if actor.role in STAFF_ROLES:
        return None
    if actor.role == Role.HOST and target.role == Role.SUB_HOST and target.host_id == actor.pk:
        return None
    return Forbidden("You do not have permission to manage this account.")


def status_refusal(actor, target: User, status: str) -> DomainError | None:
    """Setting an account to ``status`` (active = restore, suspended, deleted)."""
    refusal = manage_refusal(actor, target)
    if refusal is not None:
        return refusal
    if account_status(target) == status:
        return Conflict(f"This account is already {status}.")
    return None


def invitation_refusal(actor, target: User) -> DomainError | None:
    """Mailing a new set-password link: to a live account one may manage that has not chosen a password."""
    refusal = manage_refusal(actor, target)
    if refusal is not None:
        return refusal
    if target.is_deleted:
        return Conflict("This account is deleted. Restore it first.")
    if target.has_usable_password():
        return Conflict("This account has already chosen a password.")
    return None


def user_can(actor, target: User) -> dict[str, bool]:
    return {
        "suspend": status_refusal(actor, target, "suspended") is None,
        "restore": status_refusal(actor, target, "active") is None,
        "delete": status_refusal(actor, target, "deleted") is None,
        "resendInvitation": invitation_refusal(actor, target) is None,
    }


# --- The Django admin by role ----------------------------------------------------------------------

# Least privilege in /django-admin/: the admin has every permission (``User.is_superuser``); a
# moderator gets what its dashboard pages let it do and nothing more. It reads accounts, identity
# checks, listings, disputes and the history of non-money records (not a renter's favourites: no
# screen of its needs them), and changes only the content pages, review and contact settings and
# the amenity catalogue. Roles, e-mails, a host's tax, payments, payouts, the outbox, one-time
# codes, groups and tokens stay out of its reach. Account suspension and identity approval are
# admin actions that go through the same services (and refusals) as the API. A model missing from
# this table is invisible to moderators.
MODERATOR_ADMIN: dict[str, frozenset[str]] = {
    "accounts.user": frozenset({"view"}),
    "accounts.verificationrequest": frozenset({"view"}),
    "accounts.verificationdocument": frozenset({"view"}),
    "listings.listing": frozenset({"view"}),
    "listings.listingrequest": frozenset({"view"}),
    "listings.amenity": frozenset({"view", "add", "change"}),
    "listings.facility": frozenset({"view", "add", "change"}),
    "disputes.dispute": frozenset({"view"}),
    "cms.page": frozenset({"view", "change"}),
    "cms.contactdetails": frozenset({"view", "change"}),
    "cms.reviewsettings": frozenset({"view", "change"}),
    "core.statuschange": frozenset({"view"}),
}


# Fields of a model the moderator may change (above) that stay the admin's alone: where the contact
# form's mails go decides who reads every visitor's message, a setting, not a text on a page.
ADMIN_ONLY_FIELDS: dict[str, frozenset[str]] = {
    "cms.contactdetails": frozenset({"recipient_email"}),
}


def admin_only_fields(user, label: str) -> frozenset[str]:
    """The fields of ``label`` (``"<app>.<model>"``) that ``user`` may see but not change."""
    if getattr(user, "role", None) == Role.ADMIN:
        return frozenset()
    return ADMIN_ONLY_FIELDS.get(label, frozenset())


def moderator_admin_may(perm: str) -> bool:
    """``perm`` is Django's ``"<app>.<action>_<model>"`` (``"accounts.change_user"``)."""
    app_label, _, codename = perm.partition(".")
    action, _, model = codename.partition("_")
    return action in MODERATOR_ADMIN.get(f"{app_label}.{model}", frozenset())


def moderator_admin_apps() -> frozenset[str]:
    return frozenset(label.split(".", 1)[0] for label in MODERATOR_ADMIN)


def role_change_refusal(actor, target: User, role: str, host: User | None = None) -> DomainError | None:
    """Only the admin changes a role, never its own, never another admin's, and never to admin (an
    admin account is made on the server, ``createsuperuser``). A host that has listings or subHosts
    keeps its role (they would be left without a host); a subHost needs a live host to act for."""
    if getattr(actor, "role", None) != Role.ADMIN:
        return Forbidden("Only the admin can change a role.")
    if target.pk == actor.pk:
        return Forbidden("You cannot change your own role.")
    if target.role == Role.ADMIN:
        return Forbidden("The admin account cannot be changed here.")
    if role not in Role.values:
        return Conflict("This is not a role.")
    if role == Role.ADMIN:
        return Forbidden("An admin account is made on the server, not given here.")
    if target.is_deleted:
        return Conflict("This account is deleted. Restore it first.")
    leaves_host = target.role == Role.HOST and role != Role.HOST
    if leaves_host and (target.sub_hosts.exists() or target.listings.exists()):
        return Conflict("This host has listings or sub-hosts; its role cannot change.")
    if role == Role.SUB_HOST and (host is None or host.role != Role.HOST or host.is_deleted or host.pk == target.pk):
        return InvalidInput("A sub-host needs the host it acts for.", errors={"host": ["Choose the host it acts for."]})
    return None
