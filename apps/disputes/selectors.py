"""Reads of disputes, filtered by who may see what.

Renter: disputes on their bookings; host and subHost: disputes on the host's bookings; admin and
moderator: all. Anything else is hidden (404), so an id never reveals another person's dispute.
"""

from django.db.models import QuerySet

from apps.accounts.models import STAFF_ROLES, Role
from apps.bookings.selectors import PEOPLE_AND_LISTING
from apps.core.exceptions import NotFound
from apps.core.filters import filter_status_period_search, is_uuid

from .models import Dispute, DisputeEvidence, DisputeStatus


def _base() -> QuerySet[Dispute]:
    return Dispute.objects.select_related(
        "booking", "listing", "renter", "host", "raised_by", "payment", "decided_by"
    ).prefetch_related("evidence")


def _visible(queryset: QuerySet[Dispute], user) -> QuerySet[Dispute]:
    if user.role in STAFF_ROLES:
        return queryset
    if user.role in (Role.HOST, Role.SUB_HOST) and user.acting_host_id is not None:
        return queryset.filter(host_id=user.acting_host_id)
    if user.role == Role.RENTER:
        return queryset.filter(renter=user)
    return queryset.none()


def disputes_visible_to(user) -> QuerySet[Dispute]:
    return _visible(_base(), user)


def apply_filters(qs: QuerySet[Dispute], filters: dict[str, str], *, statuses=tuple(DisputeStatus.values)):
    return filter_status_period_search(qs, filters, statuses=statuses, search_fields=(*PEOPLE_AND_LISTING, "reason"))


def dispute_list_for(*, user, filters: dict[str, str]) -> QuerySet[Dispute]:
    """The ``disputes`` page: each role its own; admin and moderator all."""
    return apply_filters(disputes_visible_to(user), filters).order_by("-created_at", "-id")


def dispute_requests_for(*, user, filters: dict[str, str]) -> QuerySet[Dispute]:
    """The ``dispute-requests`` page: pending disputes the caller may decide (staff) or answer (host side)."""
    qs = disputes_visible_to(user).filter(status=DisputeStatus.PENDING)
    filters = {k: v for k, v in filters.items() if k != "status"}
    return apply_filters(qs, filters).order_by("created_at", "id")


DECIDED = (DisputeStatus.APPROVED, DisputeStatus.REJECTED)


def dispute_payments_for(*, user, filters: dict[str, str]) -> QuerySet[Dispute]:
    """The ``dispute-payments`` page: decided disputes with their outcome (refunds of approved ones,
    reasons of rejected ones); ``filters[status]=approved`` leaves only those with a refund."""
    qs = disputes_visible_to(user).filter(status__in=DECIDED)
    return apply_filters(qs, filters, statuses=tuple(DECIDED)).order_by("-created_at", "-id")


def dispute_get_for(*, user, id) -> Dispute:
    dispute = disputes_visible_to(user).filter(pk=id).first() if is_uuid(id) else None
    if dispute is None:
        raise NotFound("Dispute not found.")
    return dispute


def evidence_get_for(*, user, id) -> DisputeEvidence:
    evidence = None
    if is_uuid(id):
        visible = _visible(Dispute.objects.all(), user)
        evidence = DisputeEvidence.objects.filter(pk=id, dispute__in=visible).first()
    if evidence is None:
        raise NotFound("Evidence file not found.")
    return evidence


def pending_disputes(user) -> QuerySet[Dispute] | None:
    """The pendingDisputes menu counter: staff count every open dispute, the host side its own."""
    if user.role in STAFF_ROLES:
        return Dispute.objects.filter(status=DisputeStatus.PENDING)
    if user.role in (Role.HOST, Role.SUB_HOST) and user.acting_host_id is not None:
        return Dispute.objects.filter(host_id=user.acting_host_id, status=DisputeStatus.PENDING)
    return None


def pending_disputes_count(user) -> int:
    pending = pending_disputes(user)
    return 0 if pending is None else pending.count()
