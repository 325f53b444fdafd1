"""Reading a list's ``filters[name]=value`` (``apps.core.api.parse_filters`` collects them): one place for
the id check, the choice and true/false filters and the 400 each refusal answers, so every list refuses a
bad filter the same way (the message under ``filters[name]``)."""

import uuid
from collections.abc import Iterable, Mapping

from django.db.models import Q, QuerySet

from .exceptions import InvalidInput
from .policies import period_start

TRUE = ("true", "1")
SEARCH_MAX = 100
FALSE = ("false", "0")


def is_uuid(value) -> bool:
    """Whether ``value`` reads as an id: a malformed id finds nothing instead of a database error."""
    try:
        uuid.UUID(str(value))
    except ValueError:
        return False
    return True


def filter_invalid(name: str, message: str) -> InvalidInput:
    """The 400 for a refused ``filters[name]``, the message under that field."""
    return InvalidInput(message, errors={f"filters[{name}]": [message]})


def filter_choice(
    filters: Mapping[str, str], name: str, allowed: Iterable[str], *, message: str | None = None, every: str = ""
) -> str | None:
    """``filters[name]`` when it is one of ``allowed``; None when absent (or ``every``, such as "all", when
    the list has one); anything else is refused with ``message`` (by default the allowed values listed)."""
    value = filters.get(name)
    if value is None or value == "" or (every and value == every):
        return None
    allowed = tuple(allowed)
    if value not in allowed:
        raise filter_invalid(name, message or f"filters[{name}] must be one of: {', '.join(allowed)}.")
    return value


def filter_flag(
    filters: Mapping[str, str], name: str, *, true: Iterable[str] = TRUE, false: Iterable[str] = FALSE
) -> bool | None:
    """``filters[name]`` as true or false (any case), None when absent; anything else is refused."""
    value = filters.get(name)
    if value is None or value == "":
        return None
    if value.lower() in true:
        return True
    if value.lower() in false:
        return False
    raise filter_invalid(name, f"filters[{name}] must be true or false.")


def filter_status_period_search(
    queryset: QuerySet, filters: Mapping[str, str], *, statuses: Iterable[str], search_fields: Iterable[str]
) -> QuerySet:
    """A back-office list's three usual filters: ``status`` (one of ``statuses``, or "all"), ``period``
    (rows created since its start, ``core.policies.period_start``) and ``search`` (at most
    ``SEARCH_MAX`` characters, found in any of ``search_fields``, case-insensitive)."""
    statuses = tuple(statuses)
    message = f"Unknown status. Use one of: all, {', '.join(statuses)}."
    status = filter_choice(filters, "status", statuses, message=message, every="all")
    if status:
        queryset = queryset.filter(status=status)
    since = period_start(filters.get("period"))
    if since is not None:
        queryset = queryset.filter(created_at__gte=since)
    search = filters.get("search")
    if search:
        if len(search) > SEARCH_MAX:
            raise filter_invalid("search", f"Search text can be at most {SEARCH_MAX} characters.")
        found = Q()
        for field in search_fields:
            found |= Q(**{f"{field}__icontains": search})
        queryset = queryset.filter(found)
    return queryset
