"""Listing images: upload (checked by content, re-encoded, stored in web sizes) and removal.

Files go through Django's default storage (the file system here, S3 through django-storages in
production) under ``listings/<owner>/<random>.webp`` (1600 px) with a 960 px copy ``<random>-md.webp``
and a 480 px copy ``<random>-sm.webp`` beside it, which pages offer as ``srcset``. Older uploads are
JPEG or PNG with only the small copy. The owner is the acting host for hosts and subHosts (their files are shared), otherwise the
user. Paths handed back to the API are storage names; clients prefix the uploads URL.
"""

import re
import uuid

from django.core.files.storage import default_storage
from django.db import transaction

from apps.core.exceptions import Conflict, Forbidden, InvalidInput
from apps.core.images import reencode_images

from .models import ListingImage

AREA = "listings"
LARGE_SIDE = 1600
MEDIUM_SIDE = 960
SMALL_SIDE = 480
MAX_FILES_PER_UPLOAD = 10
SMALL_SUFFIX = "-sm"
MEDIUM_SUFFIX = "-md"
_PATH_RE = re.compile(
    rf"^{AREA}/(?P<owner>[0-9a-f]{{8}}-[0-9a-f]{{4}}-[0-9a-f]{{4}}-[0-9a-f]{{4}}-[0-9a-f]{{12}})/"
    rf"(?P<name>[0-9a-f]{{32}})(?:{SMALL_SUFFIX}|{MEDIUM_SUFFIX})?\.(?:jpg|png|webp)$"
)


def owner_key(user) -> str:
    return str(user.acting_host_id or user.pk)


def small_path(path: str) -> str:
    """The small web size stored beside ``path``."""
    stem, dot, extension = path.rpartition(".")
    return f"{stem}{SMALL_SUFFIX}{dot}{extension}"


def medium_path(path: str) -> str:
    """The medium web size stored beside ``path`` (WebP uploads only)."""
    stem, dot, extension = path.rpartition(".")
    return f"{stem}{MEDIUM_SUFFIX}{dot}{extension}"


def sizes_of(path: str) -> list[tuple[str, int]]:
    """The stored copies of a listing image with their widths, smallest first (for ``srcset``)."""
    if path.endswith(".webp"):
        return [(small_path(path), SMALL_SIDE), (medium_path(path), MEDIUM_SIDE), (path, LARGE_SIDE)]
    return [(small_path(path), SMALL_SIDE), (path, LARGE_SIDE)]


def srcset(path: str) -> str:
    """``srcset`` of a stored listing image: each copy's URL with its width."""
    return ", ".join(f"{default_storage.url(name)} {width}w" for name, width in sizes_of(path))


def clean_path(raw: object) -> tuple[str, str]:
    """Turn a client's path (``listings/...``, ``uploads/listings/...``, ``/uploads/listings/...``)
    into a storage name inside the uploads area and its owner; anything else is refused."""
    if not isinstance(raw, str) or len(raw) > 300:
        raise InvalidInput("File paths must be text.", errors={"filesPath": ["File paths must be text."]})
    path = raw.strip()
    for prefix in ("/uploads/", "uploads/", "/"):
        if path.startswith(prefix):
            path = path[len(prefix) :]
            break
    match = _PATH_RE.match(path)
    if match is None:
        message = "This file path is outside the uploads area."
        raise InvalidInput(message, errors={"filesPath": [message]})
    large = path
    for suffix in (SMALL_SUFFIX, MEDIUM_SUFFIX):
        large = large.replace(f"{suffix}.", ".")
    return large, match.group("owner")


def media_upload(*, user, files: list) -> list[dict]:
    """Check, re-encode (WebP, three widths) and store each image; all or nothing (a bad file stores none)."""
    if not files:
        raise InvalidInput("Choose at least one image to upload.", errors={"files": ["Choose at least one image."]})
    if len(files) > MAX_FILES_PER_UPLOAD:
        message = f"Upload at most {MAX_FILES_PER_UPLOAD} images at a time."
        raise InvalidInput(message, errors={"files": [message]})
    # Each file decoded once for its three sizes, the request's work bounded (apps.core.images).
    prepared = reencode_images(files, sizes=[(LARGE_SIDE, 82), (MEDIUM_SIDE, 80), (SMALL_SIDE, 78)], webp=True)
    stored: list[dict] = []
    owner = owner_key(user)
    try:
        for large, medium, small in prepared:
            name = f"{AREA}/{owner}/{uuid.uuid4().hex}.webp"
            saved = default_storage.save(name, large)
            item = {"path": saved, "url": default_storage.url(saved), "smallPath": "", "mediumPath": ""}
            stored.append(item)
            item["mediumPath"] = default_storage.save(medium_path(saved), medium)
            item["smallPath"] = default_storage.save(small_path(saved), small)
            item["srcset"] = srcset(saved)
    except Exception:
        for item in stored:
            for key in ("path", "mediumPath", "smallPath"):
                if item[key]:
                    default_storage.delete(item[key])
        raise
    return stored


def media_remove(*, user, paths: list) -> list[str]:
    """Delete the user's own uploads. A file still shown on a listing is kept (remove it from the
    listing first); another owner's file is refused; a file already gone counts as removed."""
    if not isinstance(paths, list) or not paths:
        message = "filesPath must be a list of file paths."
        raise InvalidInput(message, errors={"filesPath": [message]})
    if len(paths) > 50:
        raise InvalidInput("Remove at most 50 files at a time.", errors={"filesPath": ["At most 50 files."]})
    cleaned = []
    mine = owner_key(user)
    for raw in paths:
        path, owner = clean_path(raw)
        if owner != mine:
            raise Forbidden("You can only remove your own files.")
        cleaned.append(path)
    cleaned = list(dict.fromkeys(cleaned))
    in_use = set(
        ListingImage.objects.filter(path__in=cleaned, listing__is_deleted=False).values_list("path", flat=True)
    )
    if in_use:
        message = "This image is still shown on a listing. Remove it from the listing first."
        raise Conflict(message, errors={"filesPath": [message]})

    def delete_files() -> None:
        for path in cleaned:
            for name, _width in sizes_of(path):
                default_storage.delete(name)

    transaction.on_commit(delete_files)
    return cleaned
