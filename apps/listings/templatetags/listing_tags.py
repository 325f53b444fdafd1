from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

from django import template
from django.utils.html import format_html, json_script
from django.utils.safestring import SafeString

from ..islands import favourite_heart_props

register = template.Library()


@register.simple_tag(takes_context=True)
def card_heart(context, item: dict) -> SafeString:
    """A listing card's heart: its mount element, holding its props (``IslandPropsFavouriteHeart``) as a
    ``json_script`` that the CardHearts island reads (a listing may be on a page twice, so no id)."""
    props = favourite_heart_props(
        context["request"].user,
        listing_id=str(item["listingId"]),
        title=item["title"],
        favourite=bool(item["favourite"]),
    )
    return format_html('<span class="card-heart" data-heart>{}</span>', json_script(props))


@register.filter
def money(value) -> str:
    """``$1,234.50`` (spec: money shown as $ with two decimals, rounded half-up)."""
    if value in (None, ""):
        return ""
    try:
        amount = Decimal(str(value)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    except InvalidOperation:
        return ""
    return f"${amount:,.2f}"


@register.filter
def stars(value) -> str:
    """Five rating icons as text: ``★★★★☆``."""
    try:
        full = max(0, min(5, round(float(value))))
    except (TypeError, ValueError):
        full = 0
    return "★" * full + "☆" * (5 - full)


@register.filter
def truncate_title(value: str, length: int = 40) -> str:
    value = value or ""
    return value if len(value) <= length else value[: length - 1].rstrip() + "…"


@register.filter
def description_html(value: str) -> str:
    """A listing description: rich text (sanitized again on the way out) or plain text with line breaks."""
    from django.utils.html import linebreaks
    from django.utils.safestring import mark_safe

    from apps.cms.sanitize import sanitize_html

    text = value or ""
    if "<" in text:
        return mark_safe(sanitize_html(text))  # noqa: S308 - sanitized by the allow-list just above
    # Plain text: escaped, then paragraphs; marked safe so the template does not escape the tags again
    # (they showed as text, "<p>A bright workplace…</p>").
    return mark_safe(linebreaks(text, autoescape=True))  # noqa: S308 - the text was escaped just above
