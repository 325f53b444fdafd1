"""Uploaded images: checked by content, bounded by the work they cost, re-encoded (which drops EXIF
and GPS data).

Decoding is the expensive part of an upload, and a small file can declare a huge canvas (an 84 KB
PNG of 5000 x 5000 pixels). So uploads are bounded by work, not by bytes:

- Each file's pixel count is read from its header and refused above ``MAX_PIXELS`` before any pixel
  is decoded. Its *work* is the pixels that will be decoded: a JPEG is decoded at a reduced scale
  (``draft``) close to the largest size it is stored at, other formats in full.
- A request decodes at most ``MAX_WORK_PER_REQUEST`` pixels (413 before any decoding) and a user at
  most ``MAX_WORK_PER_USER_MINUTE`` a minute (429 with ``Retry-After``).
- Each file is decoded once, whatever the number of sizes stored. A JPEG is decoded once per scan,
  so one with more scans than any encoder writes (``MAX_JPEG_SCANS``) is refused from its markers.
- Decoding runs in a small pool of ``DECODE_SLOTS`` threads per process, at a lower CPU priority than
  the threads that serve pages, so a visitor's search is served first. A request never queues for
  the pool: when it is busy, the answer is at once a 503 with ``Retry-After``, and the web thread
  is free for the next visitor (docs/security.md, Round two).
"""

import contextlib
import io
import os
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from contextvars import ContextVar
from dataclasses import dataclass

from django.core.cache import cache
from django.core.files.base import ContentFile
from PIL import Image, ImageOps, UnidentifiedImageError

from .exceptions import DomainError, InvalidInput, RateLimited

MAX_UPLOAD_BYTES = 10 * 1024 * 1024
MAX_PIXELS = 25_000_000  # 25 megapixels: a 24 MP camera photo fits, a 6300 x 6300 canvas does not
MAX_WORK_PER_REQUEST = 64_000_000  # ten phone photos (JPEG, decoded at reduced scale); two 25 MP PNGs
MAX_WORK_PER_USER_MINUTE = 250_000_000
ALLOWED_FORMATS = {"JPEG", "PNG", "WEBP", "GIF"}
# A progressive JPEG is decoded once per scan, and a scan may be empty: 2,500 of them in a 123 KB
# file took minutes to decode. Encoders write about 10 (libjpeg's progression for colour photos;
# one for a baseline JPEG); more than this is not a photo.
MAX_JPEG_SCANS = 40
DECODE_SLOTS = 2  # per process: fewer than its web threads, so some are always free for visitors
DECODE_NICENESS = 10  # the decoding threads yield the CPU to the web threads
BUSY_RETRY_AFTER = 5  # seconds

# Pillow's own bomb guard at the same cap (it warns at the cap and raises at twice it).
Image.MAX_IMAGE_PIXELS = MAX_PIXELS


class UploadsBusy(DomainError):
    status_code = 503
    default_message = "Many images are being processed right now. Please try again in a few seconds."


# --- Work per request and per user ------------------------------------------------------------------


@dataclass
class _RequestWork:
    request: object
    pixels: int = 0


_request_work: ContextVar[_RequestWork | None] = ContextVar("upload_work", default=None)


def request_started(request):
    """Called by the request middleware: the request's image work starts at nothing."""
    return _request_work.set(_RequestWork(request))


def request_finished(token) -> None:
    _request_work.reset(token)


def _megapixels(pixels: int) -> str:
    return f"{pixels / 1_000_000:.0f}"


def _charge(pixels: int, field: str) -> None:
    """Count ``pixels`` of decoding against the request and the signed-in user (nothing decoded yet)."""
    current = _request_work.get()
    used = pixels + (current.pixels if current is not None else 0)
    if used > MAX_WORK_PER_REQUEST:
        message = (
            f"These images are too large to process together ({_megapixels(used)} megapixels; at most "
            f"{_megapixels(MAX_WORK_PER_REQUEST)} per upload). Upload fewer or smaller images at a time."
        )
        raise InvalidInput(message, errors={field: [message]}, status_code=413)
    user = getattr(current.request, "user", None) if current is not None else None
    if user is not None and getattr(user, "is_authenticated", False):
        now = time.time()
        key = f"upload-work:{user.pk}:{int(now // 60)}"
        cache.add(key, 0, timeout=120)
        if cache.incr(key, pixels) > MAX_WORK_PER_USER_MINUTE:
            cache.decr(key, pixels)
            wait = max(1, 60 - int(now % 60))
            message = f"You have uploaded many large images in the last minute. Please wait {wait} seconds."
            raise RateLimited(message, retry_after=wait, errors={field: [message]})
    if current is not None:
        current.pixels = used


# --- The decoding pool ------------------------------------------------------------------------------

_slots = threading.BoundedSemaphore(DECODE_SLOTS)
_pool: ThreadPoolExecutor | None = None
_pool_pid = 0
_pool_lock = threading.Lock()


def _lower_priority() -> None:
    # Linux: a thread's own niceness (its native id names it); elsewhere decoding keeps the default.
    with contextlib.suppress(AttributeError, OSError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), DECODE_NICENESS)


def _decode_pool() -> ThreadPoolExecutor:
    """This process's pool (made on first use, again after a fork)."""
    global _pool, _pool_pid
    with _pool_lock:
        if _pool is None or _pool_pid != os.getpid():
            _pool = ThreadPoolExecutor(DECODE_SLOTS, thread_name_prefix="image-decode", initializer=_lower_priority)
            _pool_pid = os.getpid()
        return _pool


def _in_pool(fn, *args):
    """Run ``fn`` in the decoding pool, or refuse at once (503, Retry-After) when it is busy."""
    if not _slots.acquire(blocking=False):
        raise UploadsBusy(headers={"Retry-After": str(BUSY_RETRY_AFTER)}, data={"retryAfter": BUSY_RETRY_AFTER})
    try:
        return _decode_pool().submit(fn, *args).result()
    finally:
        _slots.release()


# --- Checking and decoding --------------------------------------------------------------------------


def _unreadable(upload, field: str) -> InvalidInput:
    message = f"{upload.name}: this file is not an image we can read (JPEG, PNG, WebP or GIF)."
    return InvalidInput(message, errors={field: [message]})


def _too_large(upload, field: str) -> InvalidInput:
    message = f"{upload.name}: this image is too large (at most {MAX_PIXELS // 1_000_000} megapixels)."
    return InvalidInput(message, errors={field: [message]})


def _probe(upload, *, max_side: int, field: str) -> int:
    """Check an upload from its header (size, format, pixels) and return the pixels it will decode."""
    if upload.size > MAX_UPLOAD_BYTES:
        message = f"{upload.name}: images may be at most 10 MB."
        raise InvalidInput(message, errors={field: [message]})
    try:
        upload.seek(0)
        with Image.open(upload) as probe:
            image_format = probe.format
            if probe.width * probe.height > MAX_PIXELS:
                raise _too_large(upload, field)
            if image_format == "JPEG":
                probe.draft("RGB", (max_side, max_side))  # only the scale: nothing is decoded
            work = probe.width * probe.height
            probe.verify()
        if image_format == "JPEG":
            upload.seek(0)
            if (scans := jpeg_scans(upload.read())) > MAX_JPEG_SCANS:
                message = (
                    f"{upload.name}: this JPEG is stored in {scans:,} passes or more (at most {MAX_JPEG_SCANS}). "
                    "Save it again as a standard JPEG."
                )
                raise InvalidInput(message, errors={field: [message]})
    except InvalidInput:
        raise
    except Image.DecompressionBombError:
        raise _too_large(upload, field) from None
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError):
        raise _unreadable(upload, field) from None
    if image_format not in ALLOWED_FORMATS:
        message = f"{upload.name}: only JPEG, PNG, WebP or GIF images are accepted."
        raise InvalidInput(message, errors={field: [message]})
    return work


def jpeg_scans(data: bytes) -> int:
    """How many scans (SOS segments) a JPEG holds, up to one more than ``MAX_JPEG_SCANS``: its
    marker segments are walked by their lengths (a thumbnail inside APP1 is not counted) and each
    scan's entropy-coded data is skipped to the next marker that is not a stuffed byte or a restart."""
    position, scans, size = 2, 0, len(data)
    while position + 4 <= size and data[position] == 0xFF:
        marker = data[position + 1]
        if marker == 0xFF:  # fill byte before a marker
            position += 1
            continue
        if marker == 0xD9:  # end of image
            break
        if 0xD0 <= marker <= 0xD7 or marker == 0x01:  # markers without a length
            position += 2
            continue
        position += 2 + int.from_bytes(data[position + 2 : position + 4], "big")
        if marker != 0xDA:
            continue
        scans += 1
        if scans > MAX_JPEG_SCANS:
            break
        while True:
            position = data.find(b"\xff", position)
            if position < 0 or position + 1 >= size:
                return scans
            following = data[position + 1]
            if following == 0x00 or 0xD0 <= following <= 0xD7:
                position += 2
            elif following == 0xFF:
                position += 1
            else:
                break
    return scans


def _decode(upload, *, max_side: int, field: str) -> Image.Image:
    try:
        upload.seek(0)
        image = Image.open(upload)
        if image.format == "JPEG":
            # Decode at the smallest DCT scale that is still at least max_side: up to 8x less work.
            image.draft("RGB", (max_side, max_side))
        image.load()
    except Image.DecompressionBombError:
        raise _too_large(upload, field) from None
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError):
        raise _unreadable(upload, field) from None
    return ImageOps.exif_transpose(image)


def decode_limited(upload, *, max_side: int, field: str) -> tuple[Image.Image, str]:
    """Check and decode one upload within the per-image caps (no pool, no work accounting)."""
    _probe(upload, max_side=max_side, field=field)
    image = _decode(upload, max_side=max_side, field=field)
    return image, image.format or ""


def _encode(image: Image.Image, *, quality: int, webp: bool) -> ContentFile:
    out = io.BytesIO()
    if webp:
        transparent = image.mode in ("RGBA", "LA") or (image.mode == "P" and "transparency" in image.info)
        image.convert("RGBA" if transparent else "RGB").save(out, format="WEBP", quality=quality, method=4)
        return ContentFile(out.getvalue(), name="image.webp")
    if (image.mode in ("RGBA", "LA", "P") and "transparency" in image.info) or image.mode in ("RGBA", "LA"):
        image.save(out, format="PNG", optimize=True)
        return ContentFile(out.getvalue(), name="image.png")
    image.convert("RGB").save(out, format="JPEG", quality=quality, optimize=True, progressive=True)
    return ContentFile(out.getvalue(), name="image.jpg")


def _render(uploads, sizes: Sequence[tuple[int, int]], field: str, webp: bool) -> list[list[ContentFile]]:
    """Decode each upload once and store it at each (side, quality), largest first."""
    ordered = sorted(sizes, key=lambda size: -size[0])
    rendered = []
    for upload in uploads:
        image = _decode(upload, max_side=ordered[0][0], field=field)
        by_side = {}
        for side, quality in ordered:
            image.thumbnail((side, side))  # from the previous (larger) copy: cheap
            by_side[(side, quality)] = _encode(image, quality=quality, webp=webp)
        rendered.append([by_side[size] for size in sizes])
    return rendered


def reencode_images(
    uploads: Sequence, *, sizes: Sequence[tuple[int, int]], field: str = "files", webp: bool = False
) -> list[list[ContentFile]]:
    """Clean copies of several uploads, each at every (max side, quality) of ``sizes``: checked from
    their headers, counted against the request's and the user's work, then decoded once each in the
    decoding pool. JPEG (or PNG with transparency), or WebP with ``webp``."""
    largest = max(side for side, _ in sizes)
    work = sum(_probe(upload, max_side=largest, field=field) for upload in uploads)
    _charge(work, field)
    return _in_pool(_render, list(uploads), list(sizes), field, webp)


def reencode_image(
    upload, *, max_side: int = 1600, field: str = "files", quality: int = 82, webp: bool = False
) -> ContentFile:
    """Return a clean JPEG (or PNG when the image has transparency) no larger than ``max_side``;
    with ``webp`` a WebP (lossy, or lossless with transparency) instead."""
    return reencode_images([upload], sizes=[(max_side, quality)], field=field, webp=webp)[0][0]
