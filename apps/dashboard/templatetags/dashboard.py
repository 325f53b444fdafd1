"""Template helpers of the signed-in area."""

from django import template
from django.conf import settings
from django.utils.safestring import mark_safe
from django_vite.core.exceptions import DjangoViteAssetNotFoundError, DjangoViteManifestError
from django_vite.templatetags.django_vite import vite_asset

register = template.Library()


@register.simple_tag
def island_assets(name: str) -> str:
    """The script and style tags of ``frontend/src/islands/<name>/main.tsx``.

    Tests render pages without a front-end build; there a missing entry renders nothing
    instead of failing. Everywhere else a missing entry is an error, as it should be.
    """
    try:
        return vite_asset(f"src/islands/{name}/main.tsx")
    except (DjangoViteAssetNotFoundError, DjangoViteManifestError):
        if settings.TESTING:
            return mark_safe(f"<!-- island {name} is not built -->")  # noqa: S308 (a fixed name from our templates)
        raise
