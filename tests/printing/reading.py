"""Reading produced files back: the text, the pictures and the QR codes of each PDF page."""

from __future__ import annotations

import io
import re

from PIL import Image
from pypdf import PdfReader
from pypdf.generic import ContentStream

SCAN_DPI = 150
"""A plain office scan of a printed sheet: what a QR code on paper must survive."""


def pdf_pages(data: bytes) -> list[str]:
    """The text of every page, with runs of white space made single spaces."""
    reader = PdfReader(io.BytesIO(data))
    return [re.sub(r"\s+", " ", page.extract_text()) for page in reader.pages]


def pdf_raster_images(data: bytes) -> list[list[Image.Image]]:
    """The raster images each page draws (WeasyPrint shares one resource dictionary between
    pages, so the page's content stream says which of them it shows)."""
    reader = PdfReader(io.BytesIO(data))
    return [
        [page.images[name].image for name in _drawn_images(reader, page)] for page in reader.pages
    ]


def pdf_page_scans(data: bytes, dpi: int = SCAN_DPI) -> list[Image.Image]:
    """Every page as a scan of the printed sheet sees it: drawn by PDFium at ``dpi``."""
    import pypdfium2  # a dependency of the site (the shared result's PNG)

    document = pypdfium2.PdfDocument(data)
    try:
        return [page.render(scale=dpi / 72).to_pil() for page in document]
    finally:
        document.close()


def pdf_qr_codes(data: bytes) -> list[list[str]]:
    """What a QR decoder reads on each page scanned at 150 dpi, top to bottom."""
    return [qr_texts(scan) for scan in pdf_page_scans(data)]


def pdf_page_images(data: bytes) -> list[list[Image.Image]]:
    """The pictures of each page as a reader of its QR codes needs them: the raster images it
    draws, and, when it draws a figure in vectors (a QR code is an SVG), the page scanned at
    150 dpi, once. A page without any figure (text and rules only) has none."""
    reader = PdfReader(io.BytesIO(data))
    rasters = pdf_raster_images(data)
    scans: list[Image.Image] | None = None
    pages = []
    for number, page in enumerate(reader.pages):
        pictures = list(rasters[number])
        if _draws_vector_figure(reader, page):
            scans = scans if scans is not None else pdf_page_scans(data)
            pictures.append(scans[number])
        pages.append(pictures)
    return pages


def qr_texts(image: Image.Image) -> list[str]:
    """What a QR decoder reads in ``image``, top to bottom. A code stored with one pixel per
    module (a PNG of a screen page) is blown up first; a scan is read as it is."""
    import zxingcpp  # a test dependency: a real decoder, independent of the encoder

    grey = image.convert("L")
    if max(grey.size) < 200:
        grey = grey.resize((grey.width * 8, grey.height * 8), Image.NEAREST)
    found = sorted(zxingcpp.read_barcodes(grey), key=lambda code: code.position.top_left.y)
    return [barcode.text for barcode in found]


def _drawn_images(reader: PdfReader, page) -> list[str]:
    """The names of the raster images the page's content draws, in drawing order."""
    stored = set(page.images.keys())
    return [
        operands[0]
        for operands, operator in ContentStream(page.get_contents(), reader).operations
        if operator == b"Do" and operands[0] in stored
    ]


def _draws_vector_figure(reader: PdfReader, page) -> bool:
    """Whether the tagged page has a figure drawn with paths rather than an image."""
    inside, depth, drew_image = False, 0, False
    for operands, operator in ContentStream(page.get_contents(), reader).operations:
        if operator in (b"BDC", b"BMC"):
            if inside:
                depth += 1
            elif operands and operands[0] == "/Figure":
                inside, depth, drew_image = True, 0, False
        elif operator == b"EMC" and inside:
            if depth:
                depth -= 1
            else:
                if not drew_image:
                    return True
                inside = False
        elif operator == b"Do" and inside:
            drew_image = True
    return False


def data_uri_qr_texts(data_uri: str) -> list[str]:
    """What a QR decoder reads in a page's QR code (an SVG data URI): printed on A4 by
    WeasyPrint, 40 mm wide, and scanned at 150 dpi, as a sheet with it would be."""
    from weasyprint import HTML

    assert data_uri.startswith("data:image/svg+xml"), data_uri[:40]
    pdf = HTML(string=f'<img src="{data_uri}" style="width: 40mm">').write_pdf()
    return [text for page in pdf_qr_codes(pdf) for text in page]
