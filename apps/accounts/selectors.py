"""Reads of accounts that depend on who asks: user lists, one user, sub-hosts, verification requests."""

from django.db.models import Q, QuerySet

from apps.core.exceptions import NotFound
from apps.core.filters import filter_choice, filter_flag

from .models import STAFF_ROLES, Role, User, VerificationDocument, VerificationRequest, VerificationStatus

ACCOUNT_STATUSES = ("active", "suspended", "deleted", "unverified", "all")
SEARCH_MAX = 100


def _filter_users(queryset: QuerySet[User], filters: dict, role: str | None = None) -> QuerySet[User]:
    """``status`` unverified: a live host whose identity staff have not approved; for other roles, a live
    account whose e-mail is not confirmed yet (an invitation not accepted, a code not entered)."""
    message = "filters[status] must be active, suspended, deleted, unverified or all."
    status = filter_choice(filters, "status", (*ACCOUNT_STATUSES, "active_or_suspended"), message=message)
    status = status or "active_or_suspended"
    if status == "active":
        queryset = queryset.filter(is_deleted=False, is_active=True)
    elif status == "suspended":
        queryset = queryset.filter(is_deleted=False, is_active=False)
    elif status == "deleted":
        queryset = queryset.filter(is_deleted=True)
    elif status == "active_or_suspended":
        queryset = queryset.filter(is_deleted=False)
    elif status == "unverified":
        queryset = queryset.filter(is_deleted=False)
        queryset = queryset.filter(is_verified=False) if role == Role.HOST else queryset.filter(account_verified=False)
    search = filters.get("search") or filters.get("name") or filters.get("email")
    if search:
        search = search[:SEARCH_MAX]
        queryset = queryset.filter(
            Q(email__icontains=search)
            | Q(first_name__icontains=search)
            | Q(last_name__icontains=search)
            | Q(user_name__icontains=search)
        )
    verified = filter_flag(filters, "isVerified")
    if verified is not None:
        queryset = queryset.filter(is_verified=verified)
    if filters.get("country"):
        queryset = queryset.filter(country__iexact=filters["country"][:80])
    return queryset.order_by("-created_at", "-id")


def _renter_ids_of_host(host_id) -> QuerySet:
    """Ids of renters who booked ``host_id``'s spaces (the bookings' ``renter`` relation, ``User.bookings``)."""
    return User.objects.filter(role=Role.RENTER, bookings__host_id=host_id).values("pk")


def user_list_for(*, actor: User, role: str, filters: dict) -> QuerySet[User]:
    """Hosts or renters for staff; for a host or subHost, the renters who booked the host's spaces."""
    queryset = User.objects.filter(role=role)
    if actor.role not in STAFF_ROLES:
        if role != Role.RENTER or not actor.is_host_side:
            return User.objects.none()
        queryset = queryset.filter(pk__in=_renter_ids_of_host(actor.acting_host_id))
        filters = {**filters, "status": "active"} if filters.get("status") in (None, "all") else filters
    return _filter_users(queryset, filters, role)


def sub_host_list_for(*, actor: User, filters: dict) -> QuerySet[User]:
    return _filter_users(User.objects.filter(role=Role.SUB_HOST, host_id=actor.pk), filters, Role.SUB_HOST)


def moderator_list(*, filters: dict) -> QuerySet[User]:
    return _filter_users(User.objects.filter(role=Role.MODERATOR), filters, Role.MODERATOR)


def _deleted_message(user: User) -> str:
    if user.role == Role.HOST:
        return "Host is deleted"
    if user.role == Role.RENTER:
        return "Renter is deleted"
    return "User is deleted"


USER_NOT_FOUND = "User not found."


def user_get_for(*, actor: User, user_id) -> tuple[User, bool]:
    """The user ``actor`` may open on view-user, and whether ``actor`` may see the full account.

    Staff see every account (deleted ones too); anyone sees their own account and any host; a
    host sees its subHosts (full) and renters who booked it; a subHost sees its host's renters.
    Others: 404 "User not found.". A deleted account: 404 "Host is deleted" / "Renter is deleted" /
    "User is deleted", except for staff, who still open it (to restore it).
    """
    target = User.objects.select_related("host").filter(pk=user_id).first()
    if target is None:
        raise NotFound(USER_NOT_FOUND)
    if actor.role in STAFF_ROLES or target.pk == actor.pk:
        return target, True
    full = target.role == Role.SUB_HOST and target.host_id == actor.pk
    visible = full or target.role == Role.HOST
    if not visible and target.role == Role.RENTER and actor.is_host_side:
        visible = _renter_ids_of_host(actor.acting_host_id).filter(pk=target.pk).exists()
    if not visible:
        raise NotFound(USER_NOT_FOUND)
    if target.is_deleted:
        raise NotFound(_deleted_message(target))
    return target, full


def deleted_message(user: User) -> str:
    return _deleted_message(user)


# --- Verification -------------------------------------------------------------------


def _deleted_user_ids() -> QuerySet:
    """Ids of deleted accounts (a small partial index): leaving them out costs no join with every user."""
    return User.objects.filter(is_deleted=True).values("pk")


def verification_request_list(*, filters: dict) -> QuerySet[VerificationRequest]:
    """The queue, newest first, without its people: page its ids, then read the page with
    ``verification_requests_in_order`` (joining every user before the offset made deep pages slow)."""
    queryset = VerificationRequest.objects.exclude(user_id__in=_deleted_user_ids())
    message = "filters[status] must be pending, approved, rejected or all."
    status = filter_choice(filters, "status", VerificationStatus.values, message=message, every="all")
    if status:
        queryset = queryset.filter(status=status)
    if filters.get("search"):
        search = filters["search"][:SEARCH_MAX]
        queryset = queryset.filter(
            Q(user__email__icontains=search)
            | Q(user__first_name__icontains=search)
            | Q(user__last_name__icontains=search)
        )
    return queryset.order_by("-created_at", "-id")


def verification_requests_in_order(ids: list) -> list[VerificationRequest]:
    """The requests of ``ids`` with their host and decider, in the order of ``ids``."""
    found = VerificationRequest.objects.select_related("user", "decided_by").in_bulk(ids)
    return [found[pk] for pk in ids if pk in found]


def verification_request_get(*, request_id) -> VerificationRequest:
    found = VerificationRequest.objects.select_related("user", "decided_by").filter(pk=request_id).first()
    if found is None:
        raise NotFound("Verification request not found.")
    return found


def pending_verification_requests(user: User | None = None) -> QuerySet[VerificationRequest] | None:
    """Pending identity checks (the menu's pendingVerificationRequest). None for anyone but staff."""
    if user is not None and user.role not in STAFF_ROLES:
        return None
    return VerificationRequest.objects.filter(status=VerificationStatus.PENDING).exclude(
        user_id__in=_deleted_user_ids()
    )


def pending_verification_request_count(user: User | None = None) -> int:
    pending = pending_verification_requests(user)
    return 0 if pending is None else pending.count()


def verification_documents_of(user: User) -> QuerySet[VerificationDocument]:
    return VerificationDocument.objects.filter(user=user).order_by("created_at")


def verification_document_get_for(*, actor: User, document_id) -> VerificationDocument:
    """A document for its owner or staff; anyone else gets 404, as if it did not exist."""
    document = VerificationDocument.objects.select_related("user").filter(pk=document_id).first()
    if document is None or (document.user_id != actor.pk and actor.role not in STAFF_ROLES):
        raise NotFound("Document not found.")
    return document
