"""Default content pages, contact details and review settings (idempotent: existing rows are kept)."""

from .selectors import cms_page_get, contact_details_get, review_settings_get


def seed(stdout) -> None:
    for slug in ("terms", "privacy", "about", "faq"):
        cms_page_get(slug)
    contact_details_get()
    review_settings_get()
    stdout.write("  CMS pages, contact details and review settings")
