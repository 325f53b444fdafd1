"""Transactional e-mail: rendered from templates, sent by a Celery task after the transaction commits."""

from django.db import transaction
from django.template.loader import render_to_string


def queue_templated_mail(*, to: str, template: str, context: dict) -> None:
    """Render ``templates/emails/<template>.{txt,html}`` (first line of the .txt is the subject) and queue it."""
    from .tasks import send_email

    text = render_to_string(f"emails/{template}.txt", context).lstrip()
    subject, _, body = text.partition("\n")
    html = render_to_string(f"emails/{template}.html", context)
    transaction.on_commit(lambda: send_email.delay(to=to, subject=subject.strip(), text=body.strip() + "\n", html=html))
