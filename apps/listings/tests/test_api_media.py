"""Media API: listing images checked by content, re-encoded without metadata, owner-only removal."""

import io

import pytest
from django.core.files.storage import default_storage
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

from apps.core.testing import check_role_matrix
from apps.listings.factories import ListingFactory

from .fixtures_api import image_file, jpeg_bytes, media_root, upload  # noqa: F401

pytestmark = pytest.mark.django_db

GPS_IFD = 0x8825


def exif_with_gps() -> bytes:
    exif = Image.Exif()
    exif[0x010F] = "PhoneMaker"  # Make
    exif[GPS_IFD] = {1: "N", 2: (48.0, 51.0, 29.0), 3: "E", 4: (2.0, 17.0, 40.0)}
    return exif.tobytes()


def test_upload_stores_web_sizes_without_metadata(clients, users, media_root):  # noqa: F811
    original = jpeg_bytes(size=(3000, 2000), exif=exif_with_gps())
    with Image.open(io.BytesIO(original)) as probe:
        assert probe.getexif().get_ifd(GPS_IFD)  # the upload does carry GPS
    response = clients["sub_host"].post(
        "/api/media/uploads",
        {"files": [SimpleUploadedFile("holiday.jpg", original, content_type="image/jpeg")]},
        format="multipart",
    )
    assert response.status_code == 201, response.content
    item = response.json()["data"]["files"][0]
    path = item["path"]
    assert response.json()["data"]["filesPath"] == [path]
    assert path.startswith(f"listings/{users['host'].pk}/") and path.endswith(".webp")
    assert item["url"] == f"/uploads/{path}"
    with default_storage.open(path) as stored, Image.open(stored) as image:
        assert image.format == "WEBP" and max(image.size) == 1600
        assert not image.getexif().get_ifd(GPS_IFD) and 0x010F not in image.getexif()
    sizes = {"mediumPath": 960, "smallPath": 480}
    for key, side in sizes.items():
        with default_storage.open(item[key]) as stored, Image.open(stored) as image:
            assert image.format == "WEBP" and max(image.size) == side
    # pages offer the three copies as a srcset
    stem = path.removesuffix(".webp")
    assert item["srcset"] == (f"/uploads/{stem}-sm.webp 480w, /uploads/{stem}-md.webp 960w, /uploads/{stem}.webp 1600w")


def test_a_non_image_named_jpg_is_refused(clients, media_root):  # noqa: F811
    fake = SimpleUploadedFile("cat.jpg", b"<?php system($_GET['c']); ?>", content_type="image/jpeg")
    response = clients["host"].post("/api/media/uploads", {"files": [fake]}, format="multipart")
    assert response.status_code == 400
    assert response.json()["message"] == "cat.jpg: this file is not an image we can read (JPEG, PNG, WebP or GIF)."
    assert not list(media_root.rglob("*.jpg")) and not list(media_root.rglob("*.webp"))


def test_upload_limits(clients, media_root):  # noqa: F811
    host = clients["host"]
    assert host.post("/api/media/uploads", {}, format="multipart").status_code == 400
    many = [image_file(f"p{n}.jpg", size=(20, 20)) for n in range(11)]
    response = host.post("/api/media/uploads", {"files": many}, format="multipart")
    assert response.status_code == 400 and response.json()["message"] == "Upload at most 10 images at a time."
    huge = SimpleUploadedFile("big.jpg", b"\xff\xd8" + b"0" * (10 * 1024 * 1024 + 1), content_type="image/jpeg")
    response = host.post("/api/media/uploads", {"files": [huge]}, format="multipart")
    assert response.status_code == 400 and "at most 10 MB" in response.json()["message"]
    # one bad file stores none of the batch
    response = host.post(
        "/api/media/uploads",
        {"files": [image_file("ok.jpg"), SimpleUploadedFile("bad.png", b"nope")]},
        format="multipart",
    )
    assert response.status_code == 400 and not list(media_root.rglob("*.webp"))
    assert host.post("/api/media/uploads", {"files": "x"}, format="json").status_code == 415


def test_upload_role_matrix(clients, media_root):  # noqa: F811
    statuses = {}
    for actor in ("anonymous", "renter", "moderator", "admin"):
        response = clients[actor].post("/api/media/uploads", {"files": [image_file()]}, format="multipart")
        statuses[actor] = response.status_code
    assert statuses == {"anonymous": 401, "renter": 403, "moderator": 403, "admin": 403}
    for actor in ("host", "other_host", "sub_host"):
        upload(clients[actor])


def test_remove_only_own_files(clients, media_root):  # noqa: F811
    mine = upload(clients["host"], image_file(), image_file("b.jpg"))
    theirs = upload(clients["other_host"])
    response = clients["other_host"].delete("/api/media/remove", {"filesPath": [mine[0]]}, format="json")
    assert response.status_code == 403 and response.json()["message"] == "You can only remove your own files."
    assert default_storage.exists(mine[0])
    response = clients["sub_host"].delete(
        "/api/media/remove", {"filesPath": [mine[0], "/uploads/" + mine[1]]}, format="json"
    )
    assert response.status_code == 200, response.content
    assert response.json()["data"]["filesPath"] == mine
    for path in mine:
        assert not default_storage.exists(path) and not default_storage.exists(path.replace(".webp", "-sm.webp"))
        assert not default_storage.exists(path.replace(".webp", "-md.webp"))
    assert default_storage.exists(theirs[0])
    # removing again is harmless
    assert clients["host"].delete("/api/media/remove", {"filesPath": [mine[0]]}, format="json").status_code == 200


@pytest.mark.parametrize(
    "path",
    [
        "../../config/settings.py",
        "/etc/passwd",
        "listings/../../../etc/passwd",
        "avatars/x.jpg",
        "listings/5f0c6d1e-0000-4000-8000-000000000001/../../secret.jpg",
        f"listings/5f0c6d1e-0000-4000-8000-000000000002/{'a' * 32}.php",
        "listings\\..\\..\\x",
        "\x00",
        "x" * 1000,
    ],
)
def test_paths_outside_the_uploads_area_are_refused(clients, media_root, path):  # noqa: F811
    response = clients["host"].delete("/api/media/remove", {"filesPath": [path]}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"]["filesPath"]


def test_remove_bad_bodies_and_images_in_use(clients, users, media_root):  # noqa: F811
    host = clients["host"]
    assert host.delete("/api/media/remove", {}, format="json").status_code == 400
    assert host.delete("/api/media/remove", {"filesPath": "one.jpg"}, format="json").status_code == 400
    assert host.delete("/api/media/remove", {"filesPath": [42]}, format="json").status_code == 400
    assert host.delete("/api/media/remove", ["a"], format="json").status_code == 400
    paths = upload(host)
    listing = ListingFactory(host=users["host"], images=0)
    listing.images.create(path=paths[0])
    response = host.delete("/api/media/remove", {"filesPath": paths}, format="json")
    assert response.status_code == 409 and default_storage.exists(paths[0])


def test_remove_role_matrix(clients, media_root):  # noqa: F811
    check_role_matrix(
        clients,
        "delete",
        "/api/media/remove",
        allowed={"host", "other_host", "sub_host"},
        data={"filesPath": []},
    )
