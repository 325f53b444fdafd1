"""Deployment checks (``manage.py check --deploy``) for what production needs beyond Django's own."""

import os

from django.conf import settings
from django.core.checks import CheckMessage, Error, Tags, Warning, register


@register(Tags.security, deploy=True)
def production_secrets(app_configs, **kwargs) -> list[CheckMessage]:
    errors = []
    if not settings.PRODUCTION:
        return errors
    if not (os.environ.get("VAPID_PUBLIC_KEY") and os.environ.get("VAPID_PRIVATE_KEY")):
        errors.append(
            Error(
                "VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are not set: browser push cannot sign its messages.",
                hint="Generate a pair with `npx web-push generate-vapid-keys` and put it in the environment.",
                id="core.E001",
            )
        )
    if settings.PAYMENT_GATEWAY == "local":
        errors.append(
            Warning(
                "PAYMENT_GATEWAY=local: the site's own checkout takes no money (a demo only).",
                hint="Set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET and remove PAYMENT_GATEWAY for a real site.",
                id="core.W002",
            )
        )
    return errors
