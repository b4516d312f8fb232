"""The QR code of an address phones open: a table's link on its printed sheet, an invitation,
the public pages, the test link of the address for phones."""

from __future__ import annotations

import segno

QR_MASK = 0


def qr_data_uri(url: str) -> str:
    """A QR code of ``url`` as an SVG data URI (vectors, with the quiet zone), on a screen and on
    paper alike (a screen page gets printed too): a printer smooths a small PNG stretched over
    26 mm until a scan of the sheet no longer reads; vectors stay sharp at any size. Without a
    size of its own, it takes the size the page gives its ``<img>``."""
    return segno.make_qr(url, error="m", mask=QR_MASK).svg_data_uri(border=4, omitsize=True)
