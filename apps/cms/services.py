"""Writes of CMS content. Every HTML body passes through the sanitizer before it is stored."""

from django.db import transaction

from apps.accounts.policies import admin_only_fields
from apps.core.exceptions import Forbidden
from apps.core.mail import queue_templated_mail

from .models import ContactDetails, Page, ReviewSettings
from .sanitize import sanitize_html
from .selectors import cms_page_get, contact_details_get, review_settings_get

PAGE_CONTENT_MAX = 200_000


@transaction.atomic
def cms_page_update(*, slug: str, content: str, actor, title: str | None = None) -> Page:
    page = cms_page_get(slug)
    page = Page.objects.select_for_update().get(pk=page.pk)
    page.content = sanitize_html(content)
    if title:
        page.title = title
    page.updated_by = actor
    page.save()
    return page


@transaction.atomic
def contact_details_update(*, actor, full_name: str, location: str, recipient_email: str) -> ContactDetails:
    """The moderator edits the texts; only the admin changes where the contact form's mails go."""
    details = contact_details_get()
    recipient_email = recipient_email.strip().lower()
    if recipient_email != details.recipient_email and "recipient_email" in admin_only_fields(
        actor, "cms.contactdetails"
    ):
        message = "Only the admin can change the address contact messages are sent to."
        raise Forbidden(message, errors={"recepientEmail": [message]})
    details.full_name = full_name
    details.location = location
    details.recipient_email = recipient_email
    details.updated_by = actor
    details.save()
    return details


@transaction.atomic
def review_settings_update(*, actor, auto_publish: bool) -> ReviewSettings:
    row = review_settings_get()
    row.auto_publish = auto_publish
    row.updated_by = actor
    row.save()
    return row


def contact_mail_send(*, name: str, phone_number: str, email: str, message: str) -> None:
    """Queue the contact form's message to the recipient in the contact details (sent by Celery)."""
    recipient = contact_details_get().recipient_email
    queue_templated_mail(
        to=recipient,
        template="contact_message",
        context={"name": name, "phone_number": phone_number, "email": email, "message": message},
    )
