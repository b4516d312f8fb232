"""Synthetic photos of one score-sheet box, for training and checking the digit reader.

A crop is what the page finder hands ``tournament.photos.digits.read_boxes``: one box of the
printed form (``tournament/printing/form.py``: 7.5 mm wide, 16.5 to 27 mm tall, a thick 0.8 mm
line on the side between deals, a grey 0.25 mm divider on the side between bid and tricks, row
lines of 0.3 mm or 0.8 mm, the dealer's boxes shaded #e0e0e0 with a bold "D") and about 1 mm
around it, photographed by a phone. So the renderer draws the form's lines and shading, puts
handwriting (an MNIST digit, or a scribble that is no digit) in the box the way a pen would,
then does what a photo does to it: misregistration by up to 1 mm, a slight tilt, uneven light
and a shadow, low contrast, blur, noise and JPEG.

Everything is drawn at twice the final resolution and shrunk by area, which anti-aliases
the print and the ink as a camera's pixels would.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

SUPERSAMPLE = 2
BOX_WIDTH = 7.5
BOX_HEIGHTS = (16.5, 19.5, 23.0, 27.0)
MARGIN = 1.0
SHADE = 0xE0 / 255
DIVIDER = 0x55 / 255
THICK, THIN, HAIR = 0.8, 0.3, 0.25
D_LEFT, D_TOP, D_HEIGHT = 1.2, 1.1, 3.2


@dataclass(frozen=True)
class Layout:
    """Where the photo puts the box: pixels per mm, the crop's size in pixels and the affine map
    from the form's mm (origin at the box's top left line centres) to supersampled pixels."""

    px_per_mm: float
    size: tuple[int, int]
    to_pixels: np.ndarray
    box_height: float

    def points(self, mm: np.ndarray) -> np.ndarray:
        """Form mm (N x 2) to supersampled pixel coordinates (N x 2)."""
        return mm @ self.to_pixels[:, :2].T + self.to_pixels[:, 2]


def random_layout(
    rng: np.random.Generator, box_height: float | None = None, px_per_mm: float | None = None
) -> Layout:
    if px_per_mm is None:
        px_per_mm = float(rng.uniform(5.5, 9.0))
    height = float(box_height if box_height is not None else rng.choice(BOX_HEIGHTS))
    size = (round((BOX_WIDTH + 2 * MARGIN) * px_per_mm), round((height + 2 * MARGIN) * px_per_mm))
    shift = np.clip(rng.normal(0.0, 0.45, 2), -1.0, 1.0)
    angle = np.deg2rad(np.clip(rng.normal(0.0, 0.3), -0.8, 0.8))
    stretch = rng.uniform(0.97, 1.03, 2)
    scale = px_per_mm * SUPERSAMPLE
    cos, sin = np.cos(angle), np.sin(angle)
    linear = scale * np.array([[cos, -sin], [sin, cos]]) * stretch
    centre = np.array([BOX_WIDTH / 2, height / 2])
    origin = scale * (np.array([MARGIN + BOX_WIDTH / 2, MARGIN + height / 2]) + shift)
    offset = origin - linear @ centre
    return Layout(px_per_mm, size, np.hstack([linear, offset[:, None]]), height)


def fill(canvas: np.ndarray, layout: Layout, polygon_mm: np.ndarray, value: float) -> None:
    """Paint a polygon given in form mm with a reflectance (0 black, 1 paper)."""
    points = np.round(layout.points(polygon_mm) * 16).astype(np.int32)
    mask = np.zeros(canvas.shape, np.uint8)
    cv2.fillPoly(mask, [points], 1, lineType=cv2.LINE_8, shift=4)
    canvas[mask > 0] = np.minimum(canvas[mask > 0], value)


def rectangle(x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], dtype=np.float64)


def d_outline(x: float, y: float) -> tuple[np.ndarray, np.ndarray]:
    """The form's bold "D" (3.2 mm high): its outline and its bowl, as polygons in mm."""
    outer_arc = [
        (x + 1.3 + 1.6 * np.sin(t), y + 1.6 - 1.6 * np.cos(t)) for t in np.linspace(0, np.pi, 24)
    ]
    inner_arc = [
        (x + 1.25 + 0.95 * np.sin(t), y + 1.6 - 0.95 * np.cos(t)) for t in np.linspace(0, np.pi, 16)
    ]
    outer = np.array([(x, y), *outer_arc, (x, y + 3.2)])
    inner = np.array([(x + 0.7, y + 0.65), *inner_arc, (x + 0.7, y + 2.55)])
    return outer, inner


def draw_form(
    rng: np.random.Generator, layout: Layout, shaded: bool | None = None
) -> tuple[np.ndarray, bool]:
    """The printed box on paper at supersampled resolution; returns it and whether it carries
    the dealer's "D"."""
    width, height = layout.size
    canvas = np.ones((height * SUPERSAMPLE, width * SUPERSAMPLE), np.float32)
    box_height = layout.box_height
    thick_left = bool(rng.random() < 0.5)
    if shaded is None:
        shaded = bool(rng.random() < 0.3)
    far = 5.0  # beyond the crop on every side
    if shaded:
        # The shading covers the deal's two boxes, so it runs on past the divider.
        x0, x1 = (0.0, BOX_WIDTH + far) if thick_left else (-far, BOX_WIDTH)
        fill(canvas, layout, rectangle(x0, 0.0, x1, box_height), SHADE)
    for y in (0.0, box_height):
        w = THICK if rng.random() < 0.15 else THIN
        fill(canvas, layout, rectangle(-far, y - w / 2, BOX_WIDTH + far, y + w / 2), 0.0)
    for x, thick in ((0.0, thick_left), (BOX_WIDTH, not thick_left)):
        w, level = (THICK, 0.0) if thick else (HAIR, DIVIDER)
        fill(canvas, layout, rectangle(x - w / 2, -far, x + w / 2, box_height + far), level)
    if shaded and thick_left:
        outer, inner = d_outline(D_LEFT, D_TOP)
        bowl = canvas.copy()
        fill(canvas, layout, outer, 0.0)
        hole = np.zeros(canvas.shape, np.uint8)
        points = np.round(layout.points(inner) * 16).astype(np.int32)
        cv2.fillPoly(hole, [points], 1, shift=4)
        canvas[hole > 0] = bowl[hole > 0]
    return canvas, shaded and thick_left


def mnist_strokes(rng: np.random.Generator, digit: np.ndarray) -> np.ndarray:
    """An MNIST digit as a pen's coverage (0/1) at 4x MNIST's size: thresholded at a random
    level and sometimes eroded or dilated, which gives strokes from a fine ballpoint to a felt
    tip. A threshold or an erosion that would break a stroke apart is not used: a pen does not
    skip, and the label would no longer be the shape."""
    big = cv2.resize(digit, (112, 112), interpolation=cv2.INTER_CUBIC).astype(np.float32) / 255
    base = (big > 0.2).astype(np.uint8)
    pieces = cv2.connectedComponents(base)[0]
    mask = (big > rng.uniform(0.2, 0.55)).astype(np.uint8)
    if cv2.connectedComponents(mask)[0] > pieces:
        mask = base
    change = int(rng.choice([-1, 0, 0, 0, 1]))
    if change:
        disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * abs(change) + 1,) * 2)
        changed = cv2.erode(mask, disc) if change < 0 else cv2.dilate(mask, disc)
        if cv2.connectedComponents(changed)[0] <= pieces and changed.sum() > 0.5 * mask.sum():
            mask = changed
    return mask


def place_ink(
    rng: np.random.Generator, layout: Layout, mask: np.ndarray, top: float = 0.0
) -> np.ndarray:
    """Warp a coverage mask into the box (below ``top`` mm, clear of a printed "D") at a written
    size (7 to 12.5 mm high), slant and place. Most digits keep clear of the lines; one in
    twelve runs up to 0.5 mm over one. Returns the coverage at supersampled resolution."""
    ys, xs = np.nonzero(mask)
    x0, x1, y0, y1 = xs.min(), xs.max() + 1, ys.min(), ys.max() + 1
    bottom = layout.box_height
    target = min(rng.uniform(7.0, 12.5), bottom - top - 1.5)
    scale = target / (y1 - y0)
    sx = scale * rng.uniform(0.85, 1.2)
    if (x1 - x0) * sx > 7.0:
        sx = 7.0 / (x1 - x0)
    shear, angle = rng.uniform(-0.25, 0.25), np.deg2rad(rng.uniform(-12, 12))
    cos, sin = np.cos(angle), np.sin(angle)
    linear = np.array([[cos, -sin], [sin, cos]]) @ np.array([[sx, shear * scale], [0, scale]])
    corners = np.array([[x0, y0], [x1, y0], [x0, y1], [x1, y1]], float)
    spread = (corners - [(x0 + x1) / 2, (y0 + y1) / 2]) @ linear.T
    half_w, half_h = spread[:, 0].max(), spread[:, 1].max()
    overshoot = 0.5 if rng.random() < 1 / 12 else -0.6
    free_x = max(0.0, BOX_WIDTH / 2 - half_w + overshoot)
    free_y = max(0.0, (bottom - top) / 2 - half_h + overshoot)
    centre = np.array(
        [
            BOX_WIDTH / 2 + rng.uniform(-free_x, free_x),
            (top + bottom) / 2 + rng.uniform(-free_y, free_y),
        ]
    )
    # Mask pixels to form mm (linear, then the chosen centre), then form mm to canvas pixels.
    offset = centre - linear @ np.array([(x0 + x1) / 2, (y0 + y1) / 2])
    form = layout.to_pixels[:, :2]
    to_px = np.hstack([form @ linear, (form @ offset + layout.to_pixels[:, 2])[:, None]])
    width, height = layout.size
    shape = (width * SUPERSAMPLE, height * SUPERSAMPLE)
    return cv2.warpAffine(mask.astype(np.float32), to_px, shape, flags=cv2.INTER_LINEAR)


def scribble(rng: np.random.Generator, layout: Layout) -> np.ndarray:
    """Ink that is no digit, at supersampled resolution: a dash, a cross-out, a cross, hatching
    or a smudge, drawn with a pen of random width."""
    width, height = layout.size
    coverage = np.zeros((height * SUPERSAMPLE, width * SUPERSAMPLE), np.float32)
    pen = max(1, round(rng.uniform(0.3, 0.8) * layout.px_per_mm * SUPERSAMPLE))
    centre = np.array([BOX_WIDTH / 2, layout.box_height / 2]) + rng.uniform(-1, 1, 2)
    kind = rng.choice(["dash", "dash", "zigzag", "cross", "hatch", "smudge"])
    if kind == "dash":
        length, tilt = rng.uniform(2.0, 6.0), np.deg2rad(rng.uniform(-10, 10))
        half = length / 2 * np.array([np.cos(tilt), np.sin(tilt)])
        strokes = [np.array([centre - half, centre + half])]
    elif kind == "zigzag":
        n = int(rng.integers(8, 18))
        spread = rng.uniform([2.5, 2.5], [6.5, 9.0])
        strokes = [centre + (rng.random((n, 2)) - 0.5) * spread]
    elif kind == "cross":
        r = rng.uniform(1.8, 3.5)
        strokes = [centre + np.array([[-r, -r], [r, r]]), centre + np.array([[-r, r], [r, -r]])]
    elif kind == "hatch":
        r, count = rng.uniform(1.5, 3.0), int(rng.integers(3, 7))
        strokes = [
            centre + np.array([[-r, -r + 2 * r * i / count], [r, -r + 2 * r * i / count + r]])
            for i in range(count)
        ]
    else:
        axes = np.round(rng.uniform(1.0, 3.0, 2) * layout.px_per_mm * SUPERSAMPLE).astype(int)
        middle = np.round(layout.points(centre[None])[0]).astype(int)
        cv2.ellipse(coverage, tuple(middle), tuple(axes), rng.uniform(0, 180), 0, 360, 1.0, -1)
        return cv2.GaussianBlur(coverage, (0, 0), layout.px_per_mm) * rng.uniform(0.5, 1.0)
    for stroke in strokes:
        points = np.round(layout.points(stroke) * 16).astype(np.int32)
        cv2.polylines(coverage, [points], False, 1.0, pen, cv2.LINE_AA, shift=4)
    return coverage


def neighbour_ink(rng: np.random.Generator, layout: Layout) -> np.ndarray:
    """A stroke of the writing in a neighbouring box that reaches into this crop's margin."""
    width, height = layout.size
    coverage = np.zeros((height * SUPERSAMPLE, width * SUPERSAMPLE), np.float32)
    side = rng.choice([-0.9, BOX_WIDTH + 0.9])
    y = rng.uniform(2, layout.box_height - 2)
    stroke = np.array([[side, y], [side + rng.uniform(-0.4, 0.4), y + rng.uniform(-4, 4)]])
    pen = max(1, round(0.5 * layout.px_per_mm * SUPERSAMPLE))
    cv2.polylines(
        coverage,
        [np.round(layout.points(stroke) * 16).astype(np.int32)],
        False,
        1.0,
        pen,
        cv2.LINE_AA,
        shift=4,
    )
    return coverage


def photograph(rng: np.random.Generator, reflectance: np.ndarray, layout: Layout) -> np.ndarray:
    """What a phone makes of the page: shrink to the camera's pixels, uneven light, a shadow,
    lowered contrast and gamma, blur, noise, JPEG."""
    width, height = layout.size
    image = cv2.resize(reflectance, (width, height), interpolation=cv2.INTER_AREA)
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    direction = rng.normal(size=2)
    ramp = (xs * direction[0] + ys * direction[1]) / max(width, height)
    light = rng.uniform(0.45, 1.0) * (1 + rng.uniform(0, 0.35) * ramp)
    if rng.random() < 0.3:
        edge = rng.normal(size=2)
        side = (xs - xs.mean()) * edge[0] + (ys - ys.mean()) * edge[1] + rng.normal(0, 10)
        soft = 1 / (1 + np.exp(-side / rng.uniform(1, 6)))
        light = light * (1 - rng.uniform(0.2, 0.5) * soft)
    black = rng.uniform(0.0, 0.15)
    image = black + (1 - black) * image * light
    image = np.clip(image, 0, 1) ** rng.uniform(0.8, 1.25)
    if rng.random() < 0.85:
        image = cv2.GaussianBlur(image, (0, 0), rng.uniform(0.3, 1.3))
    image = image * 255 + rng.normal(0, rng.uniform(0.5, 5.0), image.shape)
    photo = np.clip(image, 0, 255).astype(np.uint8)
    quality = int(rng.integers(35, 96))
    encoded = cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, quality])[1]
    return cv2.imdecode(encoded, cv2.IMREAD_GRAYSCALE)


def box_photo(
    rng: np.random.Generator,
    digit: np.ndarray | None = None,
    *,
    other: bool = False,
    shaded: bool | None = None,
    box_height: float | None = None,
    px_per_mm: float | None = None,
) -> tuple[np.ndarray, float]:
    """A photographed box holding ``digit`` (28x28 MNIST, ink bright), a non-digit scribble
    (``other``), or nothing; returns the grayscale crop and its pixels per mm."""
    layout = random_layout(rng, box_height, px_per_mm)
    canvas, printed_d = draw_form(rng, layout, shaded)
    if digit is not None:
        top = D_TOP + D_HEIGHT + 0.3 if printed_d else 0.0
        coverage = place_ink(rng, layout, mnist_strokes(rng, digit), top)
    elif other:
        coverage = scribble(rng, layout)
    else:
        coverage = None
    strength = rng.uniform(0.35, 0.55) if rng.random() < 0.1 else rng.uniform(0.6, 0.95)
    if coverage is not None:
        canvas *= 1 - strength * np.clip(coverage, 0, 1)
    if rng.random() < 0.1:
        canvas *= 1 - strength * neighbour_ink(rng, layout)
    return photograph(rng, canvas, layout), layout.px_per_mm
