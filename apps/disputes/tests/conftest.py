import datetime as dt
import io

import pytest
from django.core.files.storage import FileSystemStorage
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

from apps.bookings import services as bookings
from apps.bookings.factories import PricedEventListingFactory, booking_make
from apps.core.tests.pdfs import MINIMAL_PDF
from apps.disputes.models import DisputeEvidence
from apps.payments.models import Payment
from apps.payments.tests.conftest import WEBHOOK_SECRET, pay_locally


@pytest.fixture(autouse=True)
def _evidence_in_tmp(tmp_path):
    """Evidence written by a test goes to its temporary directory."""
    field = DisputeEvidence._meta.get_field("file")
    original = field.storage
    field.storage = FileSystemStorage(location=tmp_path / "private")
    yield
    field.storage = original


@pytest.fixture(autouse=True)
def local_gateway(settings):
    """The local checkout (no keys) takes payments and makes refunds."""
    settings.STRIPE_SECRET_KEY = ""
    settings.STRIPE_WEBHOOK_SECRET = WEBHOOK_SECRET


@pytest.fixture
def listing(users):
    return PricedEventListingFactory(host=users["host"])


@pytest.fixture
def paid_booking(api, clients, users, listing, django_capture_on_commit_callbacks):
    """A finished booking the renter paid for online (payment captured, booking completed)."""
    booking = booking_make(renter=users["renter"], listing=listing)
    pay_locally(api, clients["renter"], booking)
    with django_capture_on_commit_callbacks(execute=True):
        bookings.booking_update_status(booking_id=booking.pk, actor=users["host"], status="approved")
    with django_capture_on_commit_callbacks(execute=True):
        bookings.bookings_complete_due(now=booking.check_out + dt.timedelta(minutes=1))
    booking.refresh_from_db()
    assert booking.status == "completed"
    payment = Payment.objects.get(booking=booking)
    assert payment.status == "completed" and payment.captured_amount > 0
    return booking


def png_file(name: str = "photo.png") -> SimpleUploadedFile:
    out = io.BytesIO()
    Image.new("RGB", (40, 30), (200, 30, 30)).save(out, format="PNG")
    return SimpleUploadedFile(name, out.getvalue(), content_type="image/png")


def pdf_file(name: str = "receipt.pdf") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, MINIMAL_PDF, content_type="application/pdf")
