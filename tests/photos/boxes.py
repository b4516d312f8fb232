"""Synthetic crops of one score-sheet box, as the page finder hands them to the digit reader.

The box is drawn as ``tournament/printing/form.py`` prints it (7.5 mm wide; a thick 0.8 mm
black line on the side between deals, a 0.25 mm #555 divider on the side between bid and
tricks, 0.3 mm row lines; a dealer's box shaded #e0e0e0 with a bold "D" 3.2 mm high at 1.2 mm
from the left and 1.1 mm from the top), with 1 mm of margin around it (shifted by up to ~1 mm
for a page finder's misregistration), then a handwritten MNIST digit is pasted in dark ink and
the result is lit unevenly, blurred, noised and JPEG-compressed.

Drawn independently of the training script's renderer (``scripts/digit_boxes.py``) on purpose,
so the tests do not merely replay what the network was trained on.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

BOX_WIDTH = 7.5
MARGIN = 1.0
SCALE = 4
"""Drawn at four times the crop's resolution, shrunk by area (anti-aliasing, as a camera)."""


@dataclass(frozen=True)
class Box:
    """How one crop is drawn; lengths in mm."""

    px_per_mm: float = 7.0
    height: float = 19.5
    shaded: bool = False
    thick_left: bool = True
    shift: tuple[float, float] = (0.0, 0.0)
    digit_height: float = 10.0
    digit_offset: tuple[float, float] = (0.0, 0.0)
    ink: float = 0.85
    light_gradient: float = 0.0
    blur: float = 0.6
    noise: float = 2.0
    jpeg: int = 80
    seed: int = 0
    """Of the sensor noise."""


def draw_box_crop(box: Box, digit: np.ndarray | None = None) -> np.ndarray:
    """The grayscale uint8 crop of ``box`` holding ``digit`` (28x28 MNIST, ink bright) or none."""
    mm = box.px_per_mm * SCALE
    width = round((BOX_WIDTH + 2 * MARGIN) * box.px_per_mm) * SCALE
    height = round((box.height + 2 * MARGIN) * box.px_per_mm) * SCALE
    left, top = (MARGIN + box.shift[0]) * mm, (MARGIN + box.shift[1]) * mm
    right, bottom = left + BOX_WIDTH * mm, top + box.height * mm
    page = np.ones((height, width), np.float32)

    def band(x0: float, y0: float, x1: float, y1: float, level: float) -> None:
        page[max(0, round(y0)) : max(0, round(y1)), max(0, round(x0)) : max(0, round(x1))] = level

    if box.shaded:
        band(left, top, right, bottom, 0xE0 / 255)
    for y in (top, bottom):
        band(0, y - 0.15 * mm, width, y + 0.15 * mm, 0.0)
    thick, thin = (left, right) if box.thick_left else (right, left)
    band(thick - 0.4 * mm, 0, thick + 0.4 * mm, height, 0.0)
    band(thin - 0.125 * mm, 0, thin + 0.125 * mm, height, 0x55 / 255)
    if box.shaded and box.thick_left:
        draw_d(page, left + 1.2 * mm, top + 1.1 * mm, mm)
    if digit is not None:
        paste_digit(page, digit, box, (left + right) / 2, (top + bottom) / 2, mm)
    return photograph(page, box)


def draw_d(page: np.ndarray, x: float, y: float, mm: float) -> None:
    """The form's bold "D": a 1.3 mm stem and a half disc of 1.6 mm, its bowl left open."""
    shape = np.zeros(page.shape, np.uint8)
    bowl = np.zeros(page.shape, np.uint8)
    cv2.rectangle(shape, (round(x), round(y)), (round(x + 1.3 * mm), round(y + 3.2 * mm)), 1, -1)
    centre = (round(x + 1.3 * mm), round(y + 1.6 * mm))
    cv2.ellipse(shape, centre, (round(1.6 * mm), round(1.6 * mm)), 0, -90, 90, 1, -1)
    corner = (round(x + 0.7 * mm), round(y + 0.65 * mm))
    cv2.rectangle(bowl, corner, (round(x + 1.25 * mm), round(y + 2.55 * mm)), 1, -1)
    centre = (round(x + 1.25 * mm), round(y + 1.6 * mm))
    cv2.ellipse(bowl, centre, (round(0.95 * mm), round(0.95 * mm)), 0, -90, 90, 1, -1)
    page[(shape > 0) & (bowl == 0)] = 0.0


def paste_digit(
    page: np.ndarray, digit: np.ndarray, box: Box, x: float, y: float, mm: float
) -> None:
    """Scale the digit's ink to ``box.digit_height`` (at most 6 mm wide, 80% of the box) and
    darken the page under it; MNIST's anti-aliased edges are cut back to a pen's stroke."""
    ys, xs = np.nonzero(digit > 30)
    ink = digit[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1].astype(np.float32) / 255
    scale = box.digit_height * mm / ink.shape[0]
    scale = min(scale, 6.0 * mm / ink.shape[1])
    size = (max(1, round(ink.shape[1] * scale)), max(1, round(ink.shape[0] * scale)))
    ink = np.clip((cv2.resize(ink, size, interpolation=cv2.INTER_CUBIC) - 0.3) / 0.4, 0, 1)
    x0 = round(x + box.digit_offset[0] * mm - size[0] / 2)
    y0 = round(y + box.digit_offset[1] * mm - size[1] / 2)
    area = page[y0 : y0 + size[1], x0 : x0 + size[0]]
    area *= 1 - box.ink * ink[: area.shape[0], : area.shape[1]]


def photograph(page: np.ndarray, box: Box) -> np.ndarray:
    """Shrink to the camera's pixels, light unevenly, blur, add noise, JPEG-compress."""
    height, width = page.shape[0] // SCALE, page.shape[1] // SCALE
    image = cv2.resize(page, (width, height), interpolation=cv2.INTER_AREA)
    ramp = np.linspace(1.0, 1.0 - box.light_gradient, height, dtype=np.float32)[:, None]
    image = 0.9 * image * ramp
    if box.blur:
        image = cv2.GaussianBlur(image, (0, 0), box.blur)
    noise = np.random.default_rng(box.seed).normal(0, box.noise, image.shape)
    photo = np.clip(image * 255 + noise, 0, 255).astype(np.uint8)
    encoded = cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, box.jpeg])[1]
    return cv2.imdecode(encoded, cv2.IMREAD_GRAYSCALE)
