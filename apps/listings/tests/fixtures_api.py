"""Fixtures and builders for the listing API tests (imported by the test modules that use them)."""

import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

from apps.listings.factories import AmenityFactory, FacilityFactory


def jpeg_bytes(size=(800, 600), color=(200, 120, 40), exif: bytes | None = None) -> bytes:
    out = io.BytesIO()
    image = Image.new("RGB", size, color)
    if exif is not None:
        image.save(out, format="JPEG", exif=exif)
    else:
        image.save(out, format="JPEG")
    return out.getvalue()


def image_file(name="photo.jpg", **kwargs) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, jpeg_bytes(**kwargs), content_type="image/jpeg")


@pytest.fixture
def media_root(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    settings.STORAGES = {**settings.STORAGES, "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"}}
    return tmp_path


def upload(client, *files) -> list[str]:
    response = client.post("/api/media/uploads", {"files": list(files) or [image_file()]}, format="multipart")
    assert response.status_code == 201, response.content
    return response.json()["data"]["filesPath"]


@pytest.fixture
def catalogue(db):
    return {
        "wifi": AmenityFactory(name="Wi-Fi"),
        "projector": AmenityFactory(name="Projector"),
        "kitchen": FacilityFactory(name="Kitchen"),
    }


def event_payload(images: list[str], **overrides) -> dict:
    payload = {
        "title": "Loft by the river",
        "description": "A bright loft for parties and workshops.",
        "propertyType": "eventSpace",
        "images": images,
        "streetAddress": "12 River Road",
        "city": "Toronto",
        "state": "ON",
        "country": "Canada",
        "postalCode": "M5V 2T6",
        "address": "12 River Road, Toronto, Canada",
        "latitude": "43.642600",
        "longitude": "-79.387100",
        "hourly": "80.00",
        "daily": "500.00",
        "weekly": None,
        "discount": "5",
        "processingFee": "3",
        "commissionCollection": "10",
        "paymentPreference": "payNow",
        "guest": 60,
        "dimension": "200 m2",
        "minimumDays": 2,
        "openingHours": {"monday": {"open": "09:00", "close": "22:00"}, "sunday": None},
        "blockedDates": ["2030-01-01"],
        "bufferMinutes": 30,
        "cancellationPolicy": "moderate",
        "servicesAndAddOns": [{"title": "Catering", "price": "15.50"}],
    }
    payload.update(overrides)
    return payload


def office_payload(images: list[str], **overrides) -> dict:
    payload = event_payload(
        images,
        title="Harbour coworking",
        propertyType="officeSpace",
        hourly=None,
        daily=None,
        guest=None,
        numberOfSeats=40,
        spaceOffering=[
            {"kind": "hotDesk", "daily": "25", "weekly": "110", "monthly": "380", "seats": 20},
            {"title": "Meeting Space", "hourly": "30", "seats": 2, "minimumPeriod": 2},
        ],
    )
    payload.update(overrides)
    return payload
