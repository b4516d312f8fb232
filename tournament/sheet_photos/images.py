"""An uploaded photo checked and made storable: an image Pillow can open, within the size
limits, turned upright and re-encoded as a JPEG of sane size."""

from __future__ import annotations

import io
import warnings

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from PIL import Image, ImageOps, UnidentifiedImageError

from tournament.errors import PlacedProblem, Refused

# A phone's photo is 2-8 MB; a browser sends it smaller (``static/photos.js``). The request
# limit (``REQUEST_MAX_BYTES``) bounds it further.
DEFAULT_MAX_BYTES = 20 * 1024 * 1024
# Pixels Pillow decodes at most: a 48 MP camera's photo, not a crafted "image bomb".
MAX_PIXELS = 50_000_000
# The kept photo's long side: enough to read every box again by eye, a few hundred kB.
KEPT_LONG_SIDE = 2400
KEPT_QUALITY = 82


class PhotoRefusal(models.TextChoices):
    """Why an uploaded file was not read as a photo; nothing of it was stored."""

    EMPTY = "photo_empty", _("The file is empty.")
    TOO_LARGE = (
        "photo_too_large",
        _("The file is too large (more than %(max)s MB). Take the photo at a lower resolution."),
    )
    NOT_IMAGE = (
        "photo_not_image",
        _(
            "This is not a photo the site can read: send a JPEG or PNG (on an iPhone: Settings, "
            "Camera, Formats, “Most Compatible”)."
        ),
    )
    TOO_MANY_PIXELS = (
        "photo_too_many_pixels",
        _("The photo has too many pixels to be read. Take it at a lower resolution."),
    )


def photo_max_bytes() -> int:
    return int(getattr(settings, "PHOTO_MAX_BYTES", DEFAULT_MAX_BYTES))


def photo_checked(data: bytes) -> Image.Image:
    """The upright image of ``data``; ``Refused`` when it is empty, too large or no image."""
    if not data:
        raise Refused.because(PhotoRefusal.EMPTY)
    if len(data) > photo_max_bytes():
        code = PhotoRefusal.TOO_LARGE
        message = str(code.label) % {"max": photo_max_bytes() // 1_000_000}
        raise Refused([PlacedProblem(code=str(code), message=message)])
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data))
            if image.width * image.height > MAX_PIXELS:
                raise Refused.because(PhotoRefusal.TOO_MANY_PIXELS)
            image.load()
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise Refused.because(PhotoRefusal.TOO_MANY_PIXELS) from None
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError):
        raise Refused.because(PhotoRefusal.NOT_IMAGE) from None
    upright = ImageOps.exif_transpose(image)
    return upright if upright is not None else image


def photo_jpeg(image: Image.Image, *, long_side: int = KEPT_LONG_SIDE) -> bytes:
    """``image`` as a JPEG whose long side is at most ``long_side`` pixels."""
    kept = image.convert("RGB")
    kept.thumbnail((long_side, long_side), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    kept.save(out, format="JPEG", quality=KEPT_QUALITY, optimize=True)
    return out.getvalue()
