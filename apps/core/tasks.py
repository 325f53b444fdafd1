from celery import shared_task
from django.conf import settings
from django.core.mail import EmailMultiAlternatives


@shared_task(autoretry_for=(OSError,), retry_backoff=True, max_retries=5)
def send_email(*, to: str, subject: str, text: str, html: str) -> None:
    """Send one e-mail as text with an HTML alternative. Safe to retry: it has no other effect."""
    message = EmailMultiAlternatives(subject=subject, body=text, from_email=settings.DEFAULT_FROM_EMAIL, to=[to])
    message.attach_alternative(html, "text/html")
    message.send()
