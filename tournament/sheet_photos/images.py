"""An uploaded photo checked and made storable: an image Pillow can open, within the size
limits, turned upright and re-encoded as a JPEG of sane size.

Two steps, since decoding is the costly part: ``photo_probed`` reads only the file's header
(its format and size, a few kB) and refuses what is not a photo or has more pixels than a
phone takes, before anything is counted or waits for the machine; ``photo_checked`` and
``photo_jpeg`` decode and re-encode it, and run only inside the costly section
(``venue.costly``), counted and one at a time. A 100 kB PNG may claim 49 megapixels: decoded,
it took seconds of CPU and 300 MB, which a request refused as "too many" must never cost.
"""

from __future__ import annotations

import io
import warnings

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from PIL import Image, ImageFile, ImageOps, UnidentifiedImageError

from tournament.errors import PlacedProblem, Refused

# What a phone's camera or a browser gives (an iPhone's HEIC is turned into a JPEG by the
# browser). Other formats (GIF, BMP, TIFF, ...) are refused unopened: fewer parsers that a
# stranger's file reaches.
FORMATS = ("JPEG", "PNG", "WEBP")
# Pixels decoded at most: more than a phone's photo as sent (a 12 MP camera; the browser
# script makes it 3000 pixels long), less than a crafted "image bomb" needs to hurt.
MAX_PIXELS = 25_000_000
# The kept photo's long side: enough to read every box again by eye, a few hundred kB.
KEPT_LONG_SIDE = 2400
KEPT_QUALITY = 82


class PhotoRefusal(models.TextChoices):
    """Why an uploaded file was not read as a photo; nothing of it was stored."""

    EMPTY = "photo_empty", _("The file is empty.")
    TOO_LARGE = (
        "photo_too_large",
        _(
            "The file is too large: a photo may be at most %(max)s MB. Take it at a lower "
            "resolution, or send it from the site's page, which makes it smaller first."
        ),
    )
    NOT_IMAGE = (
        "photo_not_image",
        _(
            "This is not a photo the site can read: send a JPEG, PNG or WebP photo (on an "
            "iPhone: Settings, Camera, Formats, “Most Compatible”)."
        ),
    )
    TOO_MANY_PIXELS = (
        "photo_too_many_pixels",
        _("The photo has too many pixels to be read. Take it at a lower resolution."),
    )


def photo_max_bytes() -> int:
    """The largest photo taken: ``PHOTO_MAX_BYTES``, never more than a request may carry
    (``REQUEST_MAX_BYTES``, which the server refuses unread above)."""
    return min(int(settings.PHOTO_MAX_BYTES), int(settings.REQUEST_MAX_BYTES))


def photo_too_large() -> Refused:
    code = PhotoRefusal.TOO_LARGE
    message = str(code.label) % {"max": photo_max_bytes() // 1_000_000}
    return Refused([PlacedProblem(code=str(code), message=message)])


def _opened(data: bytes) -> Image.Image:
    """``data`` opened (its header read, nothing decoded); ``Refused`` when it is no photo of
    ``FORMATS`` or has too many pixels."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data), formats=FORMATS)
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise Refused.because(PhotoRefusal.TOO_MANY_PIXELS) from None
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError):
        raise Refused.because(PhotoRefusal.NOT_IMAGE) from None
    if image.width * image.height > MAX_PIXELS:
        raise Refused.because(PhotoRefusal.TOO_MANY_PIXELS)
    return image


def photo_probed(data: bytes) -> None:
    """Refuse ``data`` by its length and its header alone: empty, too large, no photo of
    ``FORMATS``, too many pixels. Cheap: nothing is decoded."""
    if not data:
        raise Refused.because(PhotoRefusal.EMPTY)
    if len(data) > photo_max_bytes():
        raise photo_too_large()
    _opened(data).close()


def photo_checked(data: bytes) -> Image.Image:
    """The upright image of ``data``, decoded; ``Refused`` as ``photo_probed`` says, or when
    it cannot be decoded. Costly: inside the costly section only."""
    photo_probed(data)
    image = _opened(data)
    # WeasyPrint, once a printout has imported it, makes Pillow pass truncated images for the
    # whole process; a photo broken past its header must not pass for one.
    truncated, ImageFile.LOAD_TRUNCATED_IMAGES = ImageFile.LOAD_TRUNCATED_IMAGES, False
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image.load()
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise Refused.because(PhotoRefusal.TOO_MANY_PIXELS) from None
    except (OSError, SyntaxError, ValueError):
        raise Refused.because(PhotoRefusal.NOT_IMAGE) from None
    finally:
        ImageFile.LOAD_TRUNCATED_IMAGES = truncated
    upright = ImageOps.exif_transpose(image)
    return upright if upright is not None else image


def photo_jpeg(image: Image.Image, *, long_side: int = KEPT_LONG_SIDE) -> bytes:
    """``image`` as a JPEG whose long side is at most ``long_side`` pixels."""
    kept = image.convert("RGB")
    kept.thumbnail((long_side, long_side), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    kept.save(out, format="JPEG", quality=KEPT_QUALITY, optimize=True)
    return out.getvalue()
