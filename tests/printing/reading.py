"""Reading produced files back: the text and the QR codes of each PDF page."""

from __future__ import annotations

import io
import re

from PIL import Image
from pypdf import PdfReader
from pypdf.generic import ContentStream


def pdf_pages(data: bytes) -> list[str]:
    """The text of every page, with runs of white space made single spaces."""
    reader = PdfReader(io.BytesIO(data))
    return [re.sub(r"\s+", " ", page.extract_text()) for page in reader.pages]


def pdf_page_images(data: bytes) -> list[list[Image.Image]]:
    """The images each page draws (WeasyPrint shares one resource dictionary between pages, so
    the page's content stream says which of them it shows)."""
    reader = PdfReader(io.BytesIO(data))
    pages = []
    for page in reader.pages:
        drawn = [
            operands[0]
            for operands, operator in ContentStream(page.get_contents(), reader).operations
            if operator == b"Do"
        ]
        pages.append([page.images[name].image for name in drawn])
    return pages


def qr_texts(image: Image.Image) -> list[str]:
    """What a QR decoder reads in ``image`` (blown up: the PDF holds one pixel per module)."""
    import zxingcpp  # a test dependency: a real decoder, independent of the encoder

    big = image.convert("L").resize((image.width * 8, image.height * 8), Image.NEAREST)
    return [barcode.text for barcode in zxingcpp.read_barcodes(big)]
