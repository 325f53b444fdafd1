"""Template tags for React islands: load one island's built script, and emit its props.

``{% island "Navbar" %}`` loads ``frontend/src/islands/Navbar/main.tsx`` through django-vite (the
built file, its CSS and a modulepreload of its shared chunks, or the Vite dev server in dev mode),
so a page loads only the islands it mounts. ``{% navbar_props "navbar-props" signedIn=True %}``
writes the navbar's props (through their serializer, apps/core/islands.py) as ``json_script`` for the
mount element's ``data-props-id``.

Every tag an island adds asks for ``fetchpriority="low"``: the pages are rendered on the server and
the islands only add behaviour, so on a slow line the stylesheet and the largest photo go first and
the scripts (React alone is about 67 KB gzip) after them, instead of sharing the line from the start.
"""

import logging

from django import template
from django.conf import settings
from django.utils.html import json_script
from django.utils.safestring import SafeString, mark_safe
from django_vite.core.exceptions import DjangoViteAssetNotFoundError
from django_vite.templatetags.django_vite import vite_asset

from apps.core.islands import IslandPropsNavbar, island_props

register = template.Library()
logger = logging.getLogger(__name__)

# The tags of a built island do not change while the process runs (the manifest is read once):
# each is built once per process. In dev mode the Vite dev server's tags are built each time.
_built: dict[str, SafeString] = {}


@register.simple_tag
def island(name: str) -> SafeString:
    if (tags := _built.get(name)) is not None:
        return tags
    try:
        tags = mark_safe(vite_asset(f"src/islands/{name}/main.tsx", fetchpriority="low"))  # noqa: S308 - django-vite builds the tags
        if not settings.DJANGO_VITE["default"]["dev_mode"]:
            _built[name] = tags
        return tags
    except DjangoViteAssetNotFoundError:
        if settings.PRODUCTION:
            raise
        # Without a front-end build (`npm run build`) the pages still render, without islands.
        logger.warning("Island %s is not built; run `make frontend`.", name)
        return mark_safe(f"<!-- island {name} not built -->")  # noqa: S308 - name comes from our templates


@register.simple_tag
def navbar_props(element_id: str, **props) -> SafeString:
    return json_script(island_props(IslandPropsNavbar, props), element_id)
