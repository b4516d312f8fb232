"""The handwriting in one box of a photographed score sheet, framed the way MNIST frames a digit.

A crop holds one box of the printed form (7.5 mm wide, 16.5 to 27 mm tall) and about 1 mm of
margin around it, so it shows parts of the printed lines: a thick black line (0.8 mm) on the
side that parts two deals, a thin grey divider (0.25 mm, #555) on the side between a deal's bid
and tricks boxes, and row lines (0.3 mm, or 0.8 mm at the frame) above and below. The dealer's
boxes are shaded (#e0e0e0) and the deal's left box carries a bold printed "D" in its top left
corner (``tournament/printing/form.py``). The photo may be unevenly lit, blurred, JPEG-compressed
and off by up to about 1 mm, so nothing here trusts a fixed position or a fixed grey level:

1. the paper's brightness is estimated around every pixel (a grey closing wider than any pen
   stroke), and ink is measured as darkness relative to it, which cancels shadows and shading;
2. the box lines are found where a dark column (or row) runs along nearly the whole crop, near
   where the form puts them, and everything from a line outwards is dropped: the margin, the
   lines, the neighbouring boxes (ink that crosses a line loses its few pixels beyond it);
3. ink is darkness above a low threshold joined to darkness above a high one (hysteresis), and
   what is left of the lines, the printed "D" and specks is removed by shape and place;
4. the amount and extent of ink give the probability that something is written, and the ink's
   bounding box is scaled into 20x20 pixels and centred by mass in 28x28, as in MNIST, after
   thin strokes are thickened to MNIST's stroke width, so that a ballpoint and a marker look
   alike to the network.

The training script (``scripts/train_digits.py``) feeds its synthetic boxes through
:func:`box_ink` too, so the network learns exactly what this module hands it.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

MARGIN_MM = 1.0
"""The margin around the box that the page finder includes on every side."""
LINE_SEARCH_MM = 2.6
"""How far from a crop's edge a box line is looked for: the margin, a 0.8 mm line, ~1 mm of
misregistration."""
LINE_MIN_DARKNESS = 0.12
"""A column darker than this along ~80% of the crop is a printed line (the grey divider,
blurred, stays above it; paper and shading, relative to the paper, stay below)."""
LINE_CLEARANCE_MM = 0.2
"""Kept clear inside a line's found edge: blur and a slight tilt of the photo widen it."""
PAPER_KERNEL_MM = 2.5
"""Wider than any pen stroke or printed line, so the closing sees the paper around them."""
PAPER_FLOOR = 48.0
"""The darkest paper whose contrast is trusted in full (grey levels of 255)."""
INK_STRONG = 0.33
"""Darkness relative to the paper that is certainly ink (a ballpoint is 0.5 or more)."""
INK_WEAK = 0.18
"""Darkness that is ink when it touches certain ink: a stroke's blurred edges and faint parts."""
D_BOX_MM = (0.8, 4.5, 0.7, 4.7)
"""Left, right, top, bottom of the printed "D" (1.2-4.1 by 1.1-4.3 mm from the line centres of
the deal's top left corner), with 0.4 mm to spare."""
D_WINDOW_MM = (0.4, 5.2, 0.3, 5.4)
"""An ink component entirely inside this window is the "D" (or a part of it), not handwriting."""
SHADE_RATIO = 0.95
"""Paper inside the box darker than this fraction of the paper beyond its row lines is shaded
(#e0e0e0 is 0.88 of white)."""
SPECK_MM2 = 0.05
"""Ink components smaller than this are dust, JPEG ringing or a pen's dot, not writing."""
STROKE_PX = 2.2
"""MNIST's typical stroke width in its 20x20 frame (twice area over perimeter): thinner strokes
are thickened to it."""


@dataclass(frozen=True, slots=True)
class BoxInk:
    """What a box holds: ``written`` is the probability that anything is written in it;
    ``image`` is the ink in MNIST's frame (28x28, 0.0 paper to 1.0 ink), None without ink;
    ``over_mark``: the writing runs into the printed "D", whose corner is blanked, so a part of
    it may be gone with the "D" (a 4 whose left stroke lay on the "D" looks like a 1)."""

    written: float
    image: np.ndarray | None
    over_mark: bool = False


@dataclass(frozen=True, slots=True)
class Line:
    """A printed line across the crop: its centre and the first and last pixel it darkens."""

    centre: float
    start: int
    end: int


def odd(pixels: float) -> int:
    return max(3, round(pixels) | 1)


def relative_darkness(gray: np.ndarray, px_per_mm: float) -> np.ndarray:
    """How much darker each pixel is than the paper around it: 0.0 paper, 1.0 black.

    A grey closing removes every dark feature narrower than its kernel and keeps the brightness
    of the paper under it, shading and shadows included; dividing by it cancels them. Paper
    in deep shadow is divided by ``PAPER_FLOOR`` instead, so that sensor noise and JPEG blocks
    on it do not pass for ink.
    """
    size = odd(PAPER_KERNEL_MM * px_per_mm)
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (size, size))
    paper = cv2.morphologyEx(gray, cv2.MORPH_CLOSE, kernel)
    paper = cv2.blur(paper, (size, size)).astype(np.float32)
    contrast = (paper - gray.astype(np.float32)) / np.maximum(paper, PAPER_FLOOR)
    return np.clip(contrast, 0.0, 1.0)


def line_profile(darkness: np.ndarray, along: int) -> np.ndarray:
    """For each column (``along=0``) or row (``along=1``), the darkness that 80% of the crop's
    length reaches along it: high for a printed line, low for a digit's stroke, which covers
    less of the crop. A 3-pixel maximum across the line forgives a slight tilt."""
    field = darkness if along == 0 else darkness.T
    length = field.shape[0]
    middle = field[length // 6 : length - length // 6]
    widened = cv2.dilate(middle, np.ones((1, 3), np.uint8))
    rank = max(0, int(0.2 * len(widened)) - 1)
    return np.asarray(np.partition(widened, rank, axis=0)[rank])


def find_line(profile: np.ndarray, lo: int, hi: int, nominal: float, half: float) -> Line:
    """The darkest line in ``profile[lo:hi]``, or the form's nominal place when there is none."""
    lo, hi = max(0, lo), min(len(profile), hi)
    if hi > lo:
        peak = lo + int(np.argmax(profile[lo:hi]))
        level = float(profile[peak])
        if level >= LINE_MIN_DARKNESS:
            start, end = peak, peak
            while start > 0 and profile[start - 1] > 0.4 * level:
                start -= 1
            while end < len(profile) - 1 and profile[end + 1] > 0.4 * level:
                end += 1
            return Line((start + end) / 2, start, end)
    return Line(nominal, int(np.floor(nominal - half)), int(np.ceil(nominal + half)))


def find_lines(darkness: np.ndarray, px_per_mm: float) -> tuple[Line, Line, Line, Line]:
    """The box's left, right, top and bottom lines."""
    height, width = darkness.shape
    search = round(LINE_SEARCH_MM * px_per_mm)
    margin, half = MARGIN_MM * px_per_mm, 0.4 * px_per_mm
    columns = line_profile(darkness, 0)
    left = find_line(columns, 0, search, margin, half)
    right = find_line(columns, width - search, width, width - 1 - margin, half)
    inside = darkness[:, left.end + 1 : max(left.end + 2, right.start)]
    rows = line_profile(inside, 1)
    top = find_line(rows, 0, search, margin, half)
    bottom = find_line(rows, height - search, height, height - 1 - margin, half)
    return left, right, top, bottom


def paper_ratio(outside: np.ndarray, inside: np.ndarray) -> float | None:
    """The median of ``inside`` over the median of ``outside``, None if either strip is too thin
    to tell (the line sits at the crop's edge)."""
    if outside.shape[0] < 2 or inside.shape[0] < 2 or outside.shape[1] < 2:
        return None
    return float(np.median(inside)) / max(1.0, float(np.median(outside)))


def is_shaded(gray: np.ndarray, top: Line, bottom: Line, columns: slice, mm: float) -> bool:
    """Whether the box is a dealer's: its paper darker than the paper beyond its row lines (the
    neighbouring rows are never shaded). Medians ignore the odd stroke; the strips are close
    enough together that a gradient of light does not matter."""
    band = max(2, round(0.8 * mm))
    above = gray[max(0, top.start - band) : top.start, columns]
    below_top = gray[top.end + 2 : top.end + 2 + band, columns]
    below = gray[bottom.end + 1 : bottom.end + 1 + band, columns]
    above_bottom = gray[max(0, bottom.start - 1 - band) : max(0, bottom.start - 1), columns]
    ratios = [paper_ratio(above, below_top), paper_ratio(below, above_bottom)]
    known = [ratio for ratio in ratios if ratio is not None]
    return bool(known) and min(known) < SHADE_RATIO


def hysteresis(darkness: np.ndarray) -> tuple[int, np.ndarray, np.ndarray]:
    """Ink as components: darkness above ``INK_WEAK`` joined to darkness above ``INK_STRONG``.
    Returns the number of labels, the labels and their stats (cv2's), strong components only."""
    weak = (darkness > INK_WEAK).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(weak, connectivity=8)
    strong = np.zeros(count, dtype=bool)
    strong[np.unique(labels[darkness > INK_STRONG])] = True
    strong[0] = False
    return count, labels, np.where(strong[:, None], stats, 0)


def is_printed(
    stats: np.ndarray, size: tuple[int, int], d_window: tuple[int, int, int, int], mm: float
) -> bool:
    """Whether a component is what is left of the print: a sliver hugging a side of the box (a
    line the photo tilts or bends), or a shape inside the "D"'s corner."""
    x, y, w, h, area = (int(v) for v in stats)
    height, width = size
    hug = 0.5 * mm
    if area < SPECK_MM2 * mm * mm:
        return True
    if (x + w <= hug or x >= width - hug) and h >= 1.5 * mm:
        return True
    if (y + h <= hug or y >= height - hug) and w >= 1.5 * mm:
        return True
    left, right, top, bottom = d_window
    return x >= left and x + w <= right and y >= top and y + h <= bottom


def written_probability(darkness: np.ndarray, mask: np.ndarray, mm: float) -> float:
    """How likely the kept ink is writing rather than nothing: from its area (darkness-weighted,
    in mm², so a faint trace counts for less) and its extent (mm). A digit has several mm² over
    several mm; a speck or smudge a fraction of both; in between the answer is honestly unsure.
    """
    if not mask.any():
        return 0.001
    area = float(np.minimum(darkness[mask] / 0.5, 1.0).sum()) / (mm * mm)
    ys, xs = np.nonzero(mask)
    extent = max(int(xs.max() - xs.min()), int(ys.max() - ys.min())) / mm
    score = 2.0 * np.log(max(area, 1e-3) / 0.5) + 1.5 * np.log(max(extent, 1e-2) / 1.5)
    return float(np.clip(1.0 / (1.0 + np.exp(-score)), 0.001, 0.999))


def stroke_width(mask: np.ndarray) -> float:
    """The mean width of the strokes in pixels: twice the area over the outline's length."""
    contours, _ = cv2.findContours(mask, cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)
    outline = sum(cv2.arcLength(contour, True) for contour in contours)
    return 2.0 * float(mask.sum()) / max(outline, 1.0)


def mnist_frame(mask: np.ndarray) -> np.ndarray:
    """The ink (a 0/1 mask cut to its bounding box) as MNIST frames a digit: thin strokes
    thickened to MNIST's width, scaled to fit 20x20 keeping its aspect, its centre of mass at
    the centre of 28x28. Values from 0.0 (paper) to 1.0 (ink)."""
    height, width = mask.shape
    scale = 20.0 / max(height, width)
    grow = round((STROKE_PX / scale - stroke_width(mask)) / 2)
    if grow > 0:
        mask = cv2.copyMakeBorder(mask, grow, grow, grow, grow, cv2.BORDER_CONSTANT, value=0)
        disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * grow + 1, 2 * grow + 1))
        mask = cv2.dilate(mask, disc)
        height, width = mask.shape
        scale = 20.0 / max(height, width)
    size = (max(1, round(width * scale)), max(1, round(height * scale)))
    small = cv2.resize(mask.astype(np.float32), size, interpolation=cv2.INTER_AREA)
    total = max(float(small.sum()), 1e-6)
    centre_y = float(small.sum(axis=1) @ np.arange(size[1])) / total
    centre_x = float(small.sum(axis=0) @ np.arange(size[0])) / total
    top = int(np.clip(round(13.5 - centre_y), 0, 28 - size[1]))
    left = int(np.clip(round(13.5 - centre_x), 0, 28 - size[0]))
    frame = np.zeros((28, 28), dtype=np.float32)
    frame[top : top + size[1], left : left + size[0]] = small
    return frame


def box_ink(gray: np.ndarray, px_per_mm: float) -> BoxInk:
    """The handwriting in one box's crop (grayscale uint8, the box with ~1 mm around it)."""
    mm = float(px_per_mm)
    gray = np.ascontiguousarray(gray, dtype=np.uint8)
    darkness = relative_darkness(gray, mm)
    left, right, top, bottom = find_lines(darkness, mm)
    clear = max(1, round(LINE_CLEARANCE_MM * mm))
    x0, x1 = left.end + 1 + clear, right.start - clear
    y0, y1 = top.end + 1 + clear, bottom.start - clear
    if x1 - x0 < 2 * mm or y1 - y0 < 2 * mm:
        return BoxInk(0.001, None)
    inner = darkness[y0:y1, x0:x1]

    def d_box(edges: tuple[float, float, float, float]) -> tuple[int, int, int, int]:
        """A rectangle in mm from the box's top left line centres, in ``inner``'s pixels."""
        return (
            int(left.centre + edges[0] * mm) - x0,
            int(np.ceil(left.centre + edges[1] * mm)) - x0,
            int(top.centre + edges[2] * mm) - y0,
            int(np.ceil(top.centre + edges[3] * mm)) - y0,
        )

    # Only the deal's left box, whose thick line is on its left, carries the "D".
    thick_left = left.end - left.start > right.end - right.start
    blanked: tuple[int, int, int, int] | None = None
    if thick_left and is_shaded(gray, top, bottom, slice(x0, x1), mm):
        d_left, d_right, d_top, d_bottom = (max(0, edge) for edge in d_box(D_BOX_MM))
        inner = inner.copy()
        inner[d_top:d_bottom, d_left:d_right] = 0.0
        blanked = (d_left, d_right, d_top, d_bottom)
    count, labels, stats = hysteresis(inner)
    window = d_box(D_WINDOW_MM)
    kept = [
        label
        for label in range(1, count)
        if stats[label, 4] and not is_printed(stats[label], inner.shape, window, mm)
    ]
    if kept:
        largest = max(int(stats[label, 4]) for label in kept)
        kept = [label for label in kept if stats[label, 4] >= 0.1 * largest]
    keep = np.zeros(count, dtype=bool)
    keep[kept] = True
    mask = keep[labels]
    written = written_probability(inner, mask, mm)
    if not kept:
        return BoxInk(written, None)
    ys, xs = np.nonzero(mask)
    cut = mask[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1].astype(np.uint8)
    return BoxInk(written, mnist_frame(cut), over_mark=_touches(mask, blanked, mm))


def _touches(mask: np.ndarray, blanked: tuple[int, int, int, int] | None, mm: float) -> bool:
    """Whether the kept ink reaches the blanked "D" (within 0.3 mm of its rectangle)."""
    if blanked is None:
        return False
    reach = max(1, round(0.3 * mm))
    left, right, top, bottom = blanked
    ring = mask[max(0, top - reach) : bottom + reach, max(0, left - reach) : right + reach]
    return bool(ring.any())
