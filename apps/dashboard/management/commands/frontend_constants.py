"""Write the constants the front end shares with the server (frontend/src/shared/constants.json).

Every value comes from the policy or module that owns it, so the client never keeps a copy of its
own: slot length, OTP length, page size and pagination window, ``filters[period]`` choices, the
premium grace, upload limits, the refund schedule's sentences, and the listing form's limits and
offerings (read from the serializer that enforces them). ``--check`` fails when the
committed file is stale (scripts/test.sh runs it).
"""

import json
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand

from apps.accounts.services_verification import DOCUMENT_MAX_BYTES, DOCUMENTS_PER_USER
from apps.bookings.times import SLOT_MINUTES
from apps.core import images
from apps.core.policies import PAGE_SIZE, PAGINATION_ALL_PAGES_UP_TO, PAGINATION_EDGE_WINDOW, PERIOD_NAMES
from apps.disputes.uploads import MAX_FILES as DISPUTE_MAX_FILES
from apps.listings.media import MAX_FILES_PER_UPLOAD
from apps.listings.models import OFFERING_PERIODS, OfferingKind
from apps.listings.policies import CANCELLATION_TEXT, REFUND_SCHEDULE
from apps.listings.serializers import MAX_ADD_ONS, MAX_ALT_LENGTH, MAX_BLOCKED_DATES, MAX_IMAGES, ListingInput
from apps.premium.policies import DELETION_WARNING_DAYS_BEFORE, PREMIUM_GRACE_DAYS, grace_text

TARGET = Path(settings.BASE_DIR) / "frontend" / "src" / "shared" / "constants.json"

IMAGE_TYPES = {"JPEG": "image/jpeg", "PNG": "image/png", "WEBP": "image/webp", "GIF": "image/gif"}


def listing_form() -> dict:
    """The listing form's limits, as ListingInput checks them, and the offerings with their periods."""
    fields = ListingInput().fields
    return {
        "limits": {
            "title": fields["title"].max_length,
            "description": fields["description"].max_length,
            "images": MAX_IMAGES,
            "addOns": MAX_ADD_ONS,
            "alt": MAX_ALT_LENGTH,
            "bufferMinutes": fields["bufferMinutes"].max_value,
            "minimumNoticeHours": fields["minimumNoticeHours"].max_value,
            "bookingWindowDays": fields["bookingWindowDays"].max_value,
            "blockedDates": MAX_BLOCKED_DATES,
        },
        "offerings": [
            {"kind": kind, "title": title, "periods": list(OFFERING_PERIODS[kind])}
            for kind, title in OfferingKind.choices
        ],
    }


def constants() -> dict:
    return {
        "slotMinutes": SLOT_MINUTES,
        "otpLength": settings.OTP_LENGTH,
        "pageSize": PAGE_SIZE,
        "pagination": {"allPagesUpTo": PAGINATION_ALL_PAGES_UP_TO, "edgeWindow": PAGINATION_EDGE_WINDOW},
        "periods": list(PERIOD_NAMES),
        "displayTimeZone": settings.DISPLAY_TIME_ZONE,
        "premium": {
            "graceDays": PREMIUM_GRACE_DAYS,
            "deletionWarningDaysBefore": DELETION_WARNING_DAYS_BEFORE,
            "graceText": grace_text(),
        },
        "uploads": {
            "imageMaxBytes": images.MAX_UPLOAD_BYTES,
            "imageTypes": sorted(IMAGE_TYPES[name] for name in images.ALLOWED_FORMATS),
            "listingImagesPerUpload": MAX_FILES_PER_UPLOAD,
            "documentMaxBytes": DOCUMENT_MAX_BYTES,
            "documentsPerUser": DOCUMENTS_PER_USER,
            "disputeFilesMax": DISPUTE_MAX_FILES,
        },
        "listingForm": listing_form(),
        "refundSchedule": {
            policy: {
                "steps": [{"hoursBefore": hours, "share": str(share)} for hours, share in steps],
                "text": CANCELLATION_TEXT[policy],
            }
            for policy, steps in REFUND_SCHEDULE.items()
        },
    }


def render() -> str:
    return json.dumps(constants(), indent=2) + "\n"


class Command(BaseCommand):
    help = "Write frontend/src/shared/constants.json from the server's policies."

    def add_arguments(self, parser):
        parser.add_argument("--check", action="store_true", help="Fail if the file is out of date.")

    def handle(self, *args, check=False, **options):
        text = render()
        if check:
            if not TARGET.exists() or TARGET.read_text() != text:
                raise SystemExit(f"{TARGET} is out of date: run 'manage.py frontend_constants' and commit it.")
            return
        TARGET.parent.mkdir(parents=True, exist_ok=True)
        TARGET.write_text(text)
        self.stdout.write(f"wrote {TARGET}")
