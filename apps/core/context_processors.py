from django.conf import settings


def site(request) -> dict:
    return {"SITE_URL": settings.SITE_URL, "SITE_NAME": "Spacemarket"}
