import os

from django.conf import settings
from django.core.wsgi import get_wsgi_application

from apps.core.wsgi import UnreadBodyGuard

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = UnreadBodyGuard(get_wsgi_application(), max_drain_bytes=settings.MAX_REQUEST_BODY_BYTES)
