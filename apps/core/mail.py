"""Transactional e-mail: rendered from templates, queued in the outbox with the change that causes it."""

import hashlib
import uuid

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string

from .effects import effect_enqueue, effect_handler


def queue_templated_mail(*, to: str, template: str, context: dict, key: str | None = None) -> None:
    """Render ``templates/emails/<template>.{txt,html}`` (first line of the .txt is the subject) and
    queue it in the caller's transaction. ``key`` names the mail when the same cause could queue it
    twice (a retried request); by default every call is a new mail."""
    text = render_to_string(f"emails/{template}.txt", context).lstrip()
    subject, _, body = text.partition("\n")
    html = render_to_string(f"emails/{template}.html", context)
    key = key or uuid.uuid4().hex
    effect_enqueue(
        "core.mail",
        {"to": to, "subject": subject.strip(), "text": body.strip() + "\n", "html": html},
        key=f"mail:{hashlib.sha256(f'{to}:{key}'.encode()).hexdigest()[:40]}",
    )


@effect_handler("core.mail")
def send_mail(*, to: str, subject: str, text: str, html: str, key: str) -> None:
    """Send one e-mail as text with an HTML alternative. A mail server gives no idempotency key, so a
    worker killed between the hand-over and "done" could send it twice; the key is in a header
    (``X-Spacemarket-Message``) so a mail desk can tell the copies apart."""
    message = EmailMultiAlternatives(
        subject=subject,
        body=text,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[to],
        headers={"X-Spacemarket-Message": key},
    )
    message.attach_alternative(html, "text/html")
    message.send()
