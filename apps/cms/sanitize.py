"""The one HTML sanitizer for rich text (CMS pages): nh3 with an allow-list.

Keeps headings, paragraphs, lists, links, emphasis, quotes, code, tables and images; drops
scripts, styles, frames, forms, every event attribute and any URL that is not http(s), mailto
or tel. Links get ``rel="noopener noreferrer nofollow"``.
"""

import nh3

ALLOWED_TAGS = frozenset(
    {
        *(f"h{level}" for level in range(1, 7)),
        "p",
        "br",
        "hr",
        "div",
        "span",
        "ul",
        "ol",
        "li",
        "a",
        "strong",
        "b",
        "em",
        "i",
        "u",
        "s",
        "sub",
        "sup",
        "small",
        "mark",
        "blockquote",
        "code",
        "pre",
        "table",
        "caption",
        "thead",
        "tbody",
        "tfoot",
        "tr",
        "th",
        "td",
        "img",
        "figure",
        "figcaption",
    }
)
ALLOWED_ATTRIBUTES = {
    "*": {"class", "title"},
    "a": {"href", "target"},
    "img": {"src", "alt", "width", "height"},
    "ol": {"start"},
    "th": {"colspan", "rowspan", "scope"},
    "td": {"colspan", "rowspan"},
}
URL_SCHEMES = frozenset({"http", "https", "mailto", "tel"})


def sanitize_rich_text(value: str) -> str:
    """A rich-text field (a listing's description): HTML kept to the allow-list, plain text as it is.
    The one function every write path (the model's save) and every reader of such a field uses."""
    value = (value or "").strip()
    return sanitize_html(value).strip() if "<" in value else value


def sanitize_html(html: str) -> str:
    """Return ``html`` with everything outside the allow-list removed (content of script/style dropped)."""
    if not html:
        return ""
    return nh3.clean(
        html,
        tags=set(ALLOWED_TAGS),
        attributes={tag: set(attrs) for tag, attrs in ALLOWED_ATTRIBUTES.items()},
        url_schemes=set(URL_SCHEMES),
        link_rel="noopener noreferrer nofollow",
        strip_comments=True,
    )
