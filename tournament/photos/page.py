"""Finding the printed page in a photo: its four alignment marks, the perspective that maps the
page's millimetres onto the photo, the page straightened, and the QR code that says which
table's sheet it is.

NumPy and OpenCV only (no Django): a photo in, a straightened page or a reason out.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

import cv2
import numpy as np
import zxingcpp
from PIL import Image

from tournament.printing.sheet_layout import MARKS, PAGE_HEIGHT, PAGE_WIDTH, QR_RECT

PX_PER_MM = 8.0
"""The straightened page's resolution: a 7.5 mm box is 60 pixels wide."""
FIND_SIDE = 2000
"""The marks are looked for in the photo scaled down to this many pixels on its long side (a
phone's 12 megapixels take seconds; the marks are 8 mm, some 50 pixels at this size)."""
MIN_MARKS = 3
"""Marks needed: three corners fix the page's perspective (12 points)."""
MIN_SHARPNESS = 12.0
"""The variance of the straightened page's Laplacian below which it is too blurred to read
(a sharp phone photo gives 200 or more; at 12 the box lines have melted into grey)."""
MIN_PHOTO_SHARPNESS = 10.0
"""The same, over the whole photo at FIND_SIDE, when the marks are not found: below it the
photo is too blurred to say whether a sheet is on it (a shaken photo of a sheet gives 30-60)."""
SHAKEN_PHOTO_SHARPNESS = 80.0
"""The same when one or two marks were found: a photo that sharp would have shown all four."""
MAX_PIXELS = 60_000_000
"""More pixels than any phone takes: a decompression bomb, not a photo."""


class PageProblem(Exception):
    """The photo cannot be read; ``code`` says why (``messages`` in ``reading`` words it)."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


@dataclass(frozen=True, slots=True)
class Page:
    """A photographed page, straightened: ``image`` (grey, PX_PER_MM pixels per mm, A4
    landscape), ``qr_text`` (what its QR code says, ``""`` if it cannot be read) and
    ``sharpness``."""

    image: np.ndarray
    qr_text: str
    sharpness: float

    def crop(self, rect_mm: list[float], margin_mm: float) -> np.ndarray:
        """The part of the page at ``[x, y, w, h]`` mm, ``margin_mm`` wider on every side."""
        x, y, w, h = rect_mm
        left = max(0, round((x - margin_mm) * PX_PER_MM))
        top = max(0, round((y - margin_mm) * PX_PER_MM))
        right = round((x + w + margin_mm) * PX_PER_MM)
        bottom = round((y + h + margin_mm) * PX_PER_MM)
        return self.image[top:bottom, left:right]


def decode_photo(data: bytes) -> np.ndarray:
    """The photo as a grey image (JPEG, PNG, WebP, TIFF, BMP: what OpenCV reads). Its size is
    read from its header first: a small file may claim a billion pixels."""
    try:
        with Image.open(io.BytesIO(data)) as header:
            width, height = header.size
    except Image.DecompressionBombError as exc:
        raise PageProblem("too_large") from exc
    except (OSError, ValueError) as exc:
        raise PageProblem("not_an_image") from exc
    if width * height > MAX_PIXELS:
        raise PageProblem("too_large")
    array = np.frombuffer(data, dtype=np.uint8)
    try:
        image = cv2.imdecode(array, cv2.IMREAD_GRAYSCALE)
    except cv2.error as exc:  # e.g. more pixels than OpenCV allows
        raise PageProblem("not_an_image") from exc
    if image is None or image.size == 0:
        raise PageProblem("not_an_image")
    return image


def _page_points() -> dict[int, np.ndarray]:
    return {mark.id: np.array(mark.corners, dtype=np.float32) for mark in MARKS}


def _detector() -> cv2.aruco.ArucoDetector:
    parameters = cv2.aruco.DetectorParameters()
    parameters.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    return cv2.aruco.ArucoDetector(dictionary, parameters)


def find_marks(photo: np.ndarray) -> dict[int, np.ndarray]:
    """The page's marks found in ``photo``: their four corners in the photo's pixels, by id."""
    scale = min(1.0, FIND_SIDE / max(photo.shape))
    small = (
        photo
        if scale == 1.0
        else cv2.resize(photo, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    )
    corners, ids, _ = _detector().detectMarkers(small)
    wanted = {mark.id for mark in MARKS}
    found: dict[int, np.ndarray] = {}
    listed: list[int] = [] if ids is None else [int(i) for i in np.ravel(ids)]
    for mark_id, points in zip(listed, corners, strict=True):
        if mark_id in wanted and mark_id not in found:
            found[mark_id] = points.reshape(4, 2) / scale
    if scale != 1.0 and found:
        # Back on the full photo, each corner to its sharpest place.
        criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.01)
        window = max(3, round(2 / scale))
        for mark_id, points in found.items():
            refined = points.astype(np.float32).reshape(-1, 1, 2)
            cv2.cornerSubPix(photo, refined, (window, window), (-1, -1), criteria)
            found[mark_id] = refined.reshape(4, 2)
    return found


def page_transform(marks: dict[int, np.ndarray]) -> np.ndarray:
    """The homography from the page's millimetres to the photo's pixels."""
    if len(marks) < MIN_MARKS:
        raise PageProblem("no_page" if not marks else "marks_hidden")
    model = _page_points()
    source = np.concatenate([model[i] for i in sorted(marks)])
    target = np.concatenate([marks[i] for i in sorted(marks)]).astype(np.float32)
    matrix, _ = cv2.findHomography(source, target, 0)
    if matrix is None:
        raise PageProblem("no_page")
    return np.asarray(matrix)


def straighten(
    photo: np.ndarray, transform: np.ndarray, px_per_mm: float = PX_PER_MM
) -> np.ndarray:
    """The page as if scanned flat: ``px_per_mm`` pixels per mm."""
    scale = np.diag([1 / px_per_mm, 1 / px_per_mm, 1.0])
    size = (round(PAGE_WIDTH * px_per_mm), round(PAGE_HEIGHT * px_per_mm))
    return cv2.warpPerspective(
        photo,
        transform @ scale,
        size,
        flags=cv2.INTER_AREA | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REPLICATE,
    )


QR_FORMATS = zxingcpp.BarcodeFormats(zxingcpp.BarcodeFormat.QRCode)


def _qr_square(photo: np.ndarray, transform: np.ndarray, px_per_mm: float) -> np.ndarray:
    """The sheet's QR code (and 3 mm around it) straightened at ``px_per_mm``."""
    x, y, w, h = QR_RECT
    margin = 3.0
    shift = np.array([[1, 0, x - margin], [0, 1, y - margin], [0, 0, 1]], dtype=np.float64)
    scale = np.diag([1 / px_per_mm, 1 / px_per_mm, 1.0])
    size = (round((w + 2 * margin) * px_per_mm), round((h + 2 * margin) * px_per_mm))
    return cv2.warpPerspective(
        photo,
        transform @ shift @ scale,
        size,
        flags=cv2.INTER_AREA | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REPLICATE,
    )


def _qr_variants(square: np.ndarray) -> list[np.ndarray]:
    """The code as it is, sharpened (a shaken or unfocused photo) and thresholded locally (a
    shadow across it): each reads some photos the others miss."""
    sharpened = cv2.addWeighted(square, 2.0, cv2.GaussianBlur(square, (0, 0), 2.0), -1.0, 0)
    local = cv2.adaptiveThreshold(
        square, 255, cv2.ADAPTIVE_THRESH_GAUSSIAN_C, cv2.THRESH_BINARY, 31, 5
    )
    return [square, sharpened, local]


def read_qr(photo: np.ndarray, transform: np.ndarray) -> str:
    """The text of the sheet's QR code, straightened on its own at a few resolutions."""
    for px_per_mm in (12.0, 8.0, 6.0):
        for image in _qr_variants(_qr_square(photo, transform, px_per_mm)):
            for result in zxingcpp.read_barcodes(image, formats=QR_FORMATS):
                if result.text:
                    return str(result.text)
    return ""


def sharpness(image: np.ndarray) -> float:
    """How sharp the page is: the variance of its Laplacian over the form's part of the page."""
    form = image[image.shape[0] // 5 : image.shape[0] * 4 // 5, :]
    return float(cv2.Laplacian(form, cv2.CV_64F).var())


def _blurred(photo: np.ndarray, limit: float = MIN_PHOTO_SHARPNESS) -> bool:
    """Whether the whole photo is too blurred for its marks to show (its Laplacian's variance,
    at the size the marks are looked for: a sharp phone photo gives hundreds)."""
    scale = min(1.0, FIND_SIDE / max(photo.shape))
    small = cv2.resize(photo, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    has_something = float(small.std()) > 20  # not a blank wall: a sheet, softened
    return has_something and float(cv2.Laplacian(small, cv2.CV_64F).var()) < limit


def find_page(data: bytes) -> Page:
    """The page in the photo ``data``, straightened, with its QR code's text."""
    photo = decode_photo(data)
    marks = find_marks(photo)
    # Not "no sheet" nor "corners hidden": the marks are there, but melted (a shaken photo
    # that still shows one or two of them is soft all over).
    limit = SHAKEN_PHOTO_SHARPNESS if marks else MIN_PHOTO_SHARPNESS
    if len(marks) < MIN_MARKS and _blurred(photo, limit):
        raise PageProblem("blurred")
    transform = page_transform(marks)
    image = straighten(photo, transform)
    page = Page(image=image, qr_text=read_qr(photo, transform), sharpness=sharpness(image))
    if page.sharpness < MIN_SHARPNESS:
        raise PageProblem("blurred")
    return page
