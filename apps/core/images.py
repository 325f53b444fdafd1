"""Uploaded images: checked by content, size-capped, re-encoded (which drops EXIF and GPS data)."""

import io

from django.core.files.base import ContentFile
from PIL import Image, ImageOps, UnidentifiedImageError

from .exceptions import InvalidInput

MAX_UPLOAD_BYTES = 10 * 1024 * 1024
MAX_PIXELS = 40_000_000
ALLOWED_FORMATS = {"JPEG", "PNG", "WEBP", "GIF"}


def reencode_image(
    upload, *, max_side: int = 1600, field: str = "files", quality: int = 82, webp: bool = False
) -> ContentFile:
    """Return a clean JPEG (or PNG when the image has transparency) no larger than ``max_side``;
    with ``webp`` a WebP (lossy, or lossless with transparency) instead."""
    if upload.size > MAX_UPLOAD_BYTES:
        message = f"{upload.name}: images may be at most 10 MB."
        raise InvalidInput(message, errors={field: [message]})
    try:
        upload.seek(0)
        with Image.open(upload) as probe:
            image_format = probe.format
            if probe.width * probe.height > MAX_PIXELS:
                raise InvalidInput("This image is too large.", errors={field: ["This image is too large."]})
            probe.verify()
        upload.seek(0)
        image = Image.open(upload)
        image.load()
    except (UnidentifiedImageError, OSError, SyntaxError, Image.DecompressionBombError):
        message = f"{upload.name}: this file is not an image we can read (JPEG, PNG, WebP or GIF)."
        raise InvalidInput(message, errors={field: [message]}) from None
    if image_format not in ALLOWED_FORMATS:
        message = f"{upload.name}: only JPEG, PNG, WebP or GIF images are accepted."
        raise InvalidInput(message, errors={field: [message]})
    image = ImageOps.exif_transpose(image)
    image.thumbnail((max_side, max_side))
    out = io.BytesIO()
    if webp:
        transparent = image.mode in ("RGBA", "LA") or (image.mode == "P" and "transparency" in image.info)
        image = image.convert("RGBA" if transparent else "RGB")
        image.save(out, format="WEBP", quality=quality, method=4)
        return ContentFile(out.getvalue(), name="image.webp")
    if (image.mode in ("RGBA", "LA", "P") and "transparency" in image.info) or image.mode in ("RGBA", "LA"):
        image.save(out, format="PNG", optimize=True)
        extension = "png"
    else:
        image.convert("RGB").save(out, format="JPEG", quality=quality, optimize=True, progressive=True)
        extension = "jpg"
    return ContentFile(out.getvalue(), name=f"image.{extension}")
