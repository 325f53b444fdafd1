from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

from django import template

register = template.Library()


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
