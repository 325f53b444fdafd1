"""The Django admin held to the API's rules (docs/security.md, round three).

- **Sign-in** goes through ``services.user_login``, so the admin login counts failures, locks an
  account and answers unknown e-mails exactly as ``POST /api/user/login`` does, and it shares that
  call's per-address throttle (the ``auth`` scope).
- **Filters**: a change list filters only by the fields its page offers (``list_filter`` and
  ``date_hierarchy``) and only with plain comparisons, so no query string can filter on a field
  the page does not show (a password hash, a token) or probe one character at a time (``regex``,
  ``startswith``). Every model admin registered on the site, ours and the libraries', gets the rule.
"""

from django.contrib import admin
from django.contrib.admin import widgets
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.admin.options import ModelAdmin
from django.core.exceptions import ValidationError
from django.db.models.constants import LOOKUP_SEP
from rest_framework.throttling import ScopedRateThrottle

from apps.core.exceptions import DomainError, RateLimited

from . import services

# What a change list's filters ask of a field: Django's list filters and date hierarchy use only
# these, and the key of a related row (``host__id__exact``).
FILTER_LOOKUPS = frozenset(
    {"exact", "iexact", "isnull", "isempty", "in", "gt", "gte", "lt", "lte", "year", "month", "day"}
)
RELATED_KEYS = frozenset({"id", "pk"})
MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


class _SignInThrottle(ScopedRateThrottle):
    """The API sign-in's throttle: the same scope, so both count against one budget per address."""

    throttle_scope = "auth"


def _signin_throttled(request) -> int | None:
    """Seconds to wait when this address has used its sign-in attempts, else None."""
    throttle = _SignInThrottle()
    if throttle.allow_request(request, throttle):
        return None
    return max(1, int(throttle.wait() or 1))


class AdminLoginForm(AdminAuthenticationForm):
    """The admin's sign-in form, answered by the API's sign-in service."""

    retry_after: int | None = None

    def clean(self):
        email, password = self.cleaned_data.get("username"), self.cleaned_data.get("password")
        if not email or not password:
            return self.cleaned_data
        if (wait := _signin_throttled(self.request)) is not None:
            self.retry_after = wait
            raise ValidationError(f"Too many sign-in attempts. Please try again in {wait} seconds.", code="throttled")
        try:
            user = services.user_login(email=email, password=password)
        except RateLimited as exc:
            self.retry_after = exc.retry_after
            raise ValidationError(exc.message, code="locked") from exc
        except DomainError as exc:  # wrong password, suspended, deleted, not verified
            raise ValidationError(exc.message, code="invalid_login") from exc
        user.backend = MODEL_BACKEND  # the session remembers which backend signed the user in
        self.confirm_login_allowed(user)  # staff only, as Django's own form asks
        self.user_cache = user
        return self.cleaned_data


class FilteredLookupsOnly:
    """A change list answers only the filters its page offers (mixed into every registered admin)."""

    def lookup_allowed(self, lookup, value, request) -> bool:
        if _raw_id_popup_lookup(self.model, lookup, value):
            return True
        fields, parameters = _filter_names(self, request)
        if lookup in parameters:  # a SimpleListFilter's own parameter: it builds the query itself
            return True
        for field in fields:
            if lookup == field:
                return True
            if lookup.startswith(field + LOOKUP_SEP):
                rest = lookup[len(field) + len(LOOKUP_SEP) :].split(LOOKUP_SEP)
                if rest[0] in RELATED_KEYS:
                    rest = rest[1:]
                return all(part in FILTER_LOOKUPS for part in rest)
        return False


def _filter_names(model_admin: ModelAdmin, request) -> tuple[set[str], set[str]]:
    from django.contrib.admin.filters import SimpleListFilter

    fields = {model_admin.date_hierarchy} - {None}
    parameters = set()
    for item in model_admin.get_list_filter(request):
        if isinstance(item, type) and issubclass(item, SimpleListFilter):
            parameters.add(item.parameter_name)
        else:
            fields.add(item[0] if isinstance(item, (list, tuple)) else item)
    return fields, parameters


def _raw_id_popup_lookup(model, lookup: str, value) -> bool:
    """The lookups a raw-id popup sends for a foreign key's ``limit_choices_to`` (as Django allows)."""
    for fk_lookup in model._meta.related_fkey_lookups:
        if callable(fk_lookup):
            fk_lookup = fk_lookup()
        if (lookup, value) in widgets.url_params_from_lookup_dict(fk_lookup).items():
            return True
    return False


class AdminSite(admin.AdminSite):
    login_form = AdminLoginForm

    def register(self, model_or_iterable, admin_class=None, **options):
        admin_class = admin_class or ModelAdmin
        if not issubclass(admin_class, FilteredLookupsOnly):
            admin_class = type(
                admin_class.__name__, (FilteredLookupsOnly, admin_class), {"__module__": admin_class.__module__}
            )
        super().register(model_or_iterable, admin_class, **options)

    def login(self, request, extra_context=None):
        response = super().login(request, extra_context)
        form = getattr(response, "context_data", {}) and response.context_data.get("form")
        if isinstance(form, AdminLoginForm) and form.retry_after:
            response.status_code = 429
            response["Retry-After"] = str(form.retry_after)
        return response
