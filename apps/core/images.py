"""Uploaded images: checked by content, size- and pixel-capped, re-encoded (which drops EXIF and GPS data).

Decoding is the expensive part of an upload, and a small file can declare a huge canvas (a 154 KB
PNG of 6300 x 6300 pixels). So the pixel count is read from the header and refused above
``MAX_PIXELS`` before any pixel is decoded; a JPEG is decoded at a reduced scale (``draft``) close
to the size it will be stored at; and each process decodes at most ``DECODE_SLOTS`` images at a
time, so uploads never take all the memory or all the threads that serve visitors.
"""

import io
import threading

from django.core.files.base import ContentFile
from PIL import Image, ImageOps, UnidentifiedImageError

from .exceptions import InvalidInput

MAX_UPLOAD_BYTES = 10 * 1024 * 1024
MAX_PIXELS = 25_000_000  # 25 megapixels: a 24 MP camera photo fits, a 6300 x 6300 canvas does not
ALLOWED_FORMATS = {"JPEG", "PNG", "WEBP", "GIF"}
DECODE_SLOTS = 2
DECODE_WAIT_SECONDS = 30

# Pillow's own bomb guard at the same cap (it warns at the cap and raises at twice it).
Image.MAX_IMAGE_PIXELS = MAX_PIXELS

_decode_slots = threading.BoundedSemaphore(DECODE_SLOTS)


def _unreadable(upload, field: str) -> InvalidInput:
    message = f"{upload.name}: this file is not an image we can read (JPEG, PNG, WebP or GIF)."
    return InvalidInput(message, errors={field: [message]})


def _too_large(upload, field: str) -> InvalidInput:
    message = f"{upload.name}: this image is too large (at most {MAX_PIXELS // 1_000_000} megapixels)."
    return InvalidInput(message, errors={field: [message]})


def decode_limited(upload, *, max_side: int, field: str) -> tuple[Image.Image, str]:
    """Decode an upload within the caps; returns the image (possibly reduced) and its format."""
    if upload.size > MAX_UPLOAD_BYTES:
        message = f"{upload.name}: images may be at most 10 MB."
        raise InvalidInput(message, errors={field: [message]})
    try:
        upload.seek(0)
        with Image.open(upload) as probe:
            image_format = probe.format
            if probe.width * probe.height > MAX_PIXELS:
                raise _too_large(upload, field)
            probe.verify()
    except InvalidInput:
        raise
    except Image.DecompressionBombError:
        raise _too_large(upload, field) from None
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError):
        raise _unreadable(upload, field) from None
    if image_format not in ALLOWED_FORMATS:
        message = f"{upload.name}: only JPEG, PNG, WebP or GIF images are accepted."
        raise InvalidInput(message, errors={field: [message]})
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
    return image, image_format


def reencode_image(upload, *, max_side: int = 1600, field: str = "files", quality: int = 82) -> ContentFile:
    """Return a clean JPEG (or PNG when the image has transparency) no larger than ``max_side``."""
    if not _decode_slots.acquire(timeout=DECODE_WAIT_SECONDS):
        message = "Many images are being processed right now. Please try again in a minute."
        raise InvalidInput(message, errors={field: [message]}, status_code=503)
    try:
        image, _ = decode_limited(upload, max_side=max_side, field=field)
        image = ImageOps.exif_transpose(image)
        image.thumbnail((max_side, max_side))
        out = io.BytesIO()
        if (image.mode in ("RGBA", "LA", "P") and "transparency" in image.info) or image.mode in ("RGBA", "LA"):
            image.save(out, format="PNG", optimize=True)
            extension = "png"
        else:
            image.convert("RGB").save(out, format="JPEG", quality=quality, optimize=True, progressive=True)
            extension = "jpg"
    finally:
        _decode_slots.release()
    return ContentFile(out.getvalue(), name=f"image.{extension}")
