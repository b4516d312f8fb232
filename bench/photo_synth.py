"""Synthetic photos of filled-in score sheets, for ``bench/photos.py``.

Three steps, each seeded by the caller's ``random.Random``:

1. ``random_game``: a rule-abiding game for one table (bids 0..hand size that never add up to
   the hand size, tricks that always do), sometimes only the first deals played, sometimes a
   last deal with bids but no tricks yet.
2. ``write_game``: that game written into the boxes of the printed page (rendered by PDFium) in
   held-out MNIST handwriting: one writer per sheet (ink colour, darkness, digit height, stroke
   weight), each digit at a random place in its box, now and then touching its edge.
3. ``photograph``: the written page as a phone photographs it (perspective, rotation, the table
   around the page, uneven light, blur, sensor noise, JPEG) or as a flatbed scanner scans it.

The page is drawn at ``PX_PER_MM`` (about 305 dpi), finer than any photo made of it.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from scoring.deals import DEAL_COUNT, deal_spec
from scoring.simulate import simulate_deal

PX_PER_MM = 12.0
"""The written page's resolution (about 305 dpi)."""

Key = tuple[int, int, str]
"""A box: (deal, row, kind), row 1 the top row, kind "bid" or "tricks"."""
Game = dict[Key, int | None]
"""Every box of a sheet and what is written in it (None: left empty)."""

KINDS = ("tilt", "rotation", "shadow", "blur", "low-res", "scanner", "upside-down")
"""The distortion each photo stresses (every phone photo has a little of all of them)."""


# The game ---------------------------------------------------------------------------------


def random_game(n_seats: int, rng: random.Random) -> Game:
    """A game as far as a table has got: 0 to 11 deals played (all 11 half the time) and, a
    third of the time, one more deal with its bids written but no tricks yet."""
    played = DEAL_COUNT if rng.random() < 0.5 else rng.randrange(DEAL_COUNT)
    bids_only = played < DEAL_COUNT and rng.random() < 0.35
    game: Game = {}
    for deal in range(1, DEAL_COUNT + 1):
        bids, tricks = simulate_deal(deal, n_seats, rng, accuracy=rng.uniform(0.4, 0.8))
        for seat in range(n_seats):
            written_bid = deal <= played or (bids_only and deal == played + 1)
            game[(deal, seat + 1, "bid")] = bids[seat] if written_bid else None
            game[(deal, seat + 1, "tricks")] = tricks[seat] if deal <= played else None
    assert game_problems(game, n_seats) == [], game_problems(game, n_seats)
    return game


def game_problems(game: Game, n_seats: int) -> list[str]:
    """What breaks the rules in ``game`` (empty: nothing): per deal every bid filled or none,
    bids 0..hand size not adding up to it, tricks 0..hand size adding up to it exactly, and no
    tricks without bids."""
    problems = []
    for deal in range(1, DEAL_COUNT + 1):
        hand = deal_spec(deal).hand_size
        for kind in ("bid", "tricks"):
            values = [game[(deal, row, kind)] for row in range(1, n_seats + 1)]
            if all(v is None for v in values):
                continue
            if any(v is None for v in values):
                problems.append(f"deal {deal}: some {kind} boxes empty")
                continue
            numbers = [v for v in values if v is not None]
            if any(not 0 <= v <= hand for v in numbers):
                problems.append(f"deal {deal}: {kind} outside 0..{hand}")
            if kind == "bid" and sum(numbers) == hand:
                problems.append(f"deal {deal}: bids add up to {hand}")
            if kind == "tricks" and sum(numbers) != hand:
                problems.append(f"deal {deal}: tricks add up to {sum(numbers)}, not {hand}")
        if game[(deal, 1, "tricks")] is not None and game[(deal, 1, "bid")] is None:
            problems.append(f"deal {deal}: tricks without bids")
    return problems


# Handwriting --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Writer:
    """One person filling in a whole sheet: the same pen and the same hand throughout."""

    ink: tuple[float, float, float]
    """RGB, 0..255: blue ballpoint to black."""
    darkness: float
    """How much of the paper the ink covers where the stroke is solid (0.6 faint, 1 full)."""
    height_mm: float
    """The usual digit height."""
    weight: float
    """Where the stroke's edge is cut from the scaled-up MNIST grey (high: thin strokes)."""


INKS = ((25, 40, 125), (30, 38, 80), (22, 22, 28), (40, 45, 70), (15, 30, 110))


def random_writer(rng: random.Random) -> Writer:
    return Writer(
        ink=rng.choice(INKS),
        darkness=rng.uniform(0.75, 1.0),
        height_mm=rng.uniform(7.0, 13.0),
        weight=rng.uniform(0.45, 0.8),
    )


class DigitBank:
    """Held-out MNIST digits by label: ``images`` uint8 [N, 28, 28] (ink bright on black)."""

    def __init__(self, images: np.ndarray, labels: np.ndarray) -> None:
        self.images = images
        self.by_label = [np.flatnonzero(labels == d) for d in range(10)]

    def sample(self, digit: int, rng: random.Random) -> np.ndarray:
        indices = self.by_label[digit]
        return self.images[indices[rng.randrange(len(indices))]]


def digit_alpha(image: np.ndarray, height_px: int, max_width_px: float, weight: float):
    """The ink coverage (float 0..1) of an MNIST digit cropped to its strokes and scaled to
    ``height_px`` tall (narrower if it would be wider than ``max_width_px``)."""
    ys, xs = np.nonzero(image > 40)
    crop = image[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1].astype(np.float32) / 255
    crop = np.pad(crop, 1)
    scale = height_px / crop.shape[0]
    if crop.shape[1] * scale > max_width_px:
        scale = max_width_px / crop.shape[1]
    size = (max(2, round(crop.shape[1] * scale)), max(2, round(crop.shape[0] * scale)))
    grey = cv2.resize(crop, size, interpolation=cv2.INTER_CUBIC)
    # A pen's edge: a steep ramp around the writer's cut, then a half-pixel of smoothing.
    alpha = np.clip((grey - weight) / 0.12 + 0.5, 0.0, 1.0)
    return cv2.GaussianBlur(alpha, (0, 0), 0.6)


def write_digit(
    page: np.ndarray, rect_mm: list[float], alpha: np.ndarray, writer: Writer, rng: random.Random
) -> None:
    """Ink ``alpha`` into ``page`` (float RGB, 0..255) somewhere in the box ``rect_mm``; a
    quarter of the digits stray up to 0.8 mm over the box's edge."""
    x, y, w, h = (v * PX_PER_MM for v in rect_mm)
    stray = rng.uniform(0.2, 0.8) * PX_PER_MM if rng.random() < 0.25 else 0.0
    dh, dw = alpha.shape
    left = x - stray + rng.betavariate(2, 2) * max(0.0, w + 2 * stray - dw)
    top = y - stray + rng.betavariate(2, 2) * max(0.0, h + 2 * stray - dh)
    left, top = round(left), round(top)
    strength = writer.darkness * rng.uniform(0.85, 1.0)
    region = page[top : top + dh, left : left + dw]
    a = (alpha[: region.shape[0], : region.shape[1]] * strength)[..., None]
    region *= 1.0 - a * (1.0 - np.asarray(writer.ink, np.float32) / 255.0)


def write_game(
    page_rgb: np.ndarray,
    boxes: list[dict[str, Any]],
    game: Game,
    writer: Writer,
    bank: DigitBank,
    rng: random.Random,
) -> np.ndarray:
    """The page (uint8 RGB at ``PX_PER_MM``) with every digit of ``game`` written in."""
    page = page_rgb.astype(np.float32)
    for box in boxes:
        digit = game[(box["deal"], box["row"], box["kind"])]
        if digit is None:
            continue
        _x, _y, w, h = box["rect_mm"]
        height_mm = min(writer.height_mm * rng.uniform(0.88, 1.12), h * 0.9)
        alpha = digit_alpha(
            bank.sample(digit, rng),
            round(height_mm * PX_PER_MM),
            w * rng.uniform(0.8, 1.0) * PX_PER_MM,
            writer.weight,
        )
        write_digit(page, box["rect_mm"], alpha, writer, rng)
    return np.clip(page, 0, 255).astype(np.uint8)


# Photographing ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Shot:
    """How one photo is taken: every parameter ``photograph`` uses, for the record."""

    kind: str
    long_side: int
    """The frame's long side in pixels (a phone's 3000-4000, or 1600)."""
    portrait: bool
    """The frame held upright (the landscape sheet then lies across it)."""
    fill: float
    """The page's share of the frame's width or height, whichever it fills first."""
    roll: float
    """In-plane rotation in degrees (180: upside down)."""
    tilt: float
    """Camera tilt off the perpendicular in degrees, towards ``tilt_direction``."""
    tilt_direction: float
    bend_mm: float
    """How far the paper's gentle bend moves a point, at most."""
    gradient: float
    """Light falling off across the frame: the darkest side at 1 - gradient."""
    vignette: float
    shadow: float
    """A soft shadow band's darkening (0: none)."""
    blur_sigma: float
    """Defocus, as a Gaussian sigma in pixels of the frame."""
    motion_px: float
    """Shake: the length of a straight motion blur in pixels (0: none)."""
    noise: float
    """Sensor noise sigma on 0..255."""
    jpeg_quality: int
    background: str

    def describe(self) -> str:
        return (
            f"{self.kind}: {self.long_side}px{' portrait' if self.portrait else ''} "
            f"fill {self.fill:.2f} roll {self.roll:.1f} tilt {self.tilt:.1f} "
            f"bend {self.bend_mm:.1f}mm light {self.gradient:.2f}/{self.shadow:.2f} "
            f"blur {self.blur_sigma:.1f}+{self.motion_px:.0f}px noise {self.noise:.1f} "
            f"q{self.jpeg_quality} on {self.background}"
        )


BACKGROUNDS = {
    "light wood": (190, 150, 105),
    "dark wood": (95, 62, 42),
    "green felt": (40, 95, 55),
    "grey table": (125, 125, 120),
    "white table": (228, 228, 222),
    "black table": (32, 32, 35),
    "red cloth": (140, 40, 40),
}


def random_shot(kind: str, rng: random.Random) -> Shot:
    """A phone photo (or a scan) that stresses ``kind`` and has a little of everything else."""
    if kind == "scanner":
        # A4 glass: a landscape sheet lies on it upright half the time (the scan turned).
        portrait = rng.random() < 0.5
        return Shot(
            kind=kind,
            long_side=round(297 / 25.4 * rng.choice((150, 200, 300))),
            portrait=portrait,
            fill=rng.uniform(0.96, 0.99),
            roll=rng.uniform(-1.0, 1.0) + (rng.choice((90.0, -90.0)) if portrait else 0.0),
            tilt=0.0,
            tilt_direction=0.0,
            bend_mm=0.0,
            gradient=rng.uniform(0.0, 0.04),
            vignette=0.0,
            shadow=0.0,
            blur_sigma=rng.uniform(0.3, 0.7),
            motion_px=0.0,
            noise=rng.uniform(0.5, 2.0),
            jpeg_quality=rng.randint(80, 92),
            background="scanner lid",
        )
    roll = rng.uniform(-5.0, 5.0)
    portrait = False
    if kind == "rotation":
        roll = rng.uniform(-20.0, 20.0)
        if rng.random() < 0.4:
            roll += rng.choice((90.0, -90.0))
            portrait = True
    elif kind == "upside-down":
        roll = 180.0 + rng.uniform(-8.0, 8.0)
    strong_blur = kind == "blur"
    motion = strong_blur and rng.random() < 0.5
    return Shot(
        kind=kind,
        long_side=1600 if kind == "low-res" else rng.choice((3000, 3264, 4000)),
        portrait=portrait,
        fill=rng.uniform(0.62, 0.92),
        roll=roll,
        tilt=rng.uniform(12.0, 20.0) if kind == "tilt" else rng.uniform(0.0, 8.0),
        tilt_direction=rng.uniform(0.0, 360.0),
        bend_mm=rng.uniform(0.0, 1.2),
        gradient=rng.uniform(0.25, 0.45) if kind == "shadow" else rng.uniform(0.0, 0.2),
        vignette=rng.uniform(0.0, 0.25),
        shadow=rng.uniform(0.3, 0.55) if kind == "shadow" else 0.0,
        blur_sigma=(rng.uniform(1.5, 3.0) if strong_blur and not motion else rng.uniform(0.3, 1.0)),
        motion_px=rng.uniform(6.0, 14.0) if motion else 0.0,
        noise=rng.uniform(2.0, 6.0),
        jpeg_quality=rng.randint(70, 92),
        background=rng.choice(list(BACKGROUNDS)),
    )


def frame_size(shot: Shot) -> tuple[int, int]:
    """(width, height) of the photo: 4:3, or A4's shape for a scan."""
    ratio = 210 / 297 if shot.kind == "scanner" else 0.75
    short = round(shot.long_side * ratio)
    return (short, shot.long_side) if shot.portrait else (shot.long_side, short)


def page_corners_in_frame(
    page_w: float, page_h: float, shot: Shot, frame: tuple[int, int], rng: random.Random
) -> np.ndarray:
    """Where a pinhole camera (a phone's 65 degree wide lens) sees the page's corners (top-left,
    top-right, bottom-right, bottom-left), tilted and rolled as ``shot`` says, then scaled and
    moved so the page fills ``shot.fill`` of the frame and lies wholly inside it."""
    fw, fh = frame
    corners = np.array(
        [
            [-page_w / 2, -page_h / 2, 0],
            [page_w / 2, -page_h / 2, 0],
            [page_w / 2, page_h / 2, 0],
            [-page_w / 2, page_h / 2, 0],
        ],
        dtype=np.float64,
    )
    axis_angle = math.radians(shot.tilt_direction)
    axis = np.array([math.cos(axis_angle), math.sin(axis_angle), 0.0])
    tilt, _ = cv2.Rodrigues(axis * math.radians(shot.tilt))
    roll, _ = cv2.Rodrigues(np.array([0.0, 0.0, math.radians(shot.roll)]))
    focal = max(fw, fh) / (2 * math.tan(math.radians(65 / 2)))
    points = corners @ (tilt @ roll).T
    distance = focal * max(page_w, page_h) / (0.8 * max(fw, fh))
    projected = focal * points[:, :2] / (points[:, 2:] + distance)
    low, high = projected.min(axis=0), projected.max(axis=0)
    scale = shot.fill * min(fw / (high[0] - low[0]), fh / (high[1] - low[1]))
    projected = (projected - low) * scale
    size = (high - low) * scale
    room = np.array([fw, fh]) - size
    offset = np.array([rng.uniform(0.1, 0.9) * room[0], rng.uniform(0.1, 0.9) * room[1]])
    if shot.kind == "scanner":
        offset = room / 2 + np.array([rng.uniform(-1, 1), rng.uniform(-1, 1)]) * room / 3
    return (projected + offset).astype(np.float32)


def bent(page: np.ndarray, bend_px: float, rng: random.Random) -> np.ndarray:
    """The page with a gentle, smooth bend (paper that was folded or curls a little)."""
    if bend_px < 0.5:
        return page
    h, w = page.shape[:2]
    ys, xs = np.mgrid[0:h:8, 0:w:8].astype(np.float32)
    phase_x, phase_y = rng.uniform(0, 2 * math.pi), rng.uniform(0, 2 * math.pi)
    wave_x, wave_y = rng.uniform(0.5, 1.5), rng.uniform(0.5, 1.5)
    dx = bend_px * np.sin(2 * math.pi * wave_y * ys / h + phase_y) * 0.5
    dy = bend_px * np.sin(2 * math.pi * wave_x * xs / w + phase_x)
    map_x = cv2.resize(xs + dx, (w, h), interpolation=cv2.INTER_LINEAR)
    map_y = cv2.resize(ys + dy, (w, h), interpolation=cv2.INTER_LINEAR)
    return cv2.remap(page, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def smooth_noise(size: tuple[int, int], sigma: float, nprng: np.random.Generator) -> np.ndarray:
    """Noise of ``size`` (width, height) smoothed over ``sigma`` pixels, scaled to -1..1."""
    noise = nprng.normal(0, 1, (size[1], size[0])).astype(np.float32)
    noise = cv2.GaussianBlur(noise, (0, 0), sigma)
    return noise / (np.abs(noise).max() + 1e-6)


def background_image(name: str, frame: tuple[int, int], rng: random.Random) -> np.ndarray:
    """A table top (float RGB): its colour, blotches, and for wood an uneven grain."""
    fw, fh = frame
    if name == "scanner lid":
        return np.full((fh, fw, 3), rng.uniform(235, 250), np.float32)
    colour = np.array(BACKGROUNDS[name], np.float32) * rng.uniform(0.85, 1.15)
    nprng = np.random.default_rng(rng.randrange(2**32))
    small = (max(16, fw // 4), max(16, fh // 4))
    texture = 1.0 + 0.08 * smooth_noise(small, 24, nprng)
    if "wood" in name:
        ys, xs = np.mgrid[0 : small[1], 0 : small[0]].astype(np.float32)
        angle = rng.uniform(0, math.pi)
        across = -xs * math.sin(angle) + ys * math.cos(angle)
        warp = smooth_noise(small, 40, nprng) * rng.uniform(4, 12)
        grain = np.sin(across * rng.uniform(0.3, 0.9) + warp)
        strength = 0.06 + 0.06 * smooth_noise(small, 30, nprng)
        texture *= 1.0 + strength * grain + 0.04 * smooth_noise(small, 2, nprng)
    texture = cv2.resize(texture, (fw, fh), interpolation=cv2.INTER_LINEAR)
    return texture[..., None] * colour


def light_field(shot: Shot, frame: tuple[int, int], rng: random.Random) -> np.ndarray:
    """The light over the frame (float, 1 = full): a gradient, a vignette, a shadow band."""
    fw, fh = frame
    step = 8
    ys, xs = np.mgrid[0:fh:step, 0:fw:step].astype(np.float32)
    u, v = xs / fw - 0.5, ys / fh - 0.5
    angle = rng.uniform(0, 2 * math.pi)
    along = u * math.cos(angle) + v * math.sin(angle)
    light = 1.0 - shot.gradient * (along - along.min()) / (np.ptp(along) + 1e-6)
    light *= 1.0 - shot.vignette * (u * u + v * v) / 0.5
    if shot.shadow > 0:
        # A band (an arm's or the phone's shadow) across the frame, with soft edges.
        angle = rng.uniform(0, math.pi)
        across = (-u * math.sin(angle) + v * math.cos(angle)) + rng.uniform(-0.25, 0.25)
        half, soft = rng.uniform(0.06, 0.18), rng.uniform(0.02, 0.08)
        inside = np.clip((half - np.abs(across)) / soft + 0.5, 0.0, 1.0)
        light *= 1.0 - shot.shadow * inside
    light = cv2.GaussianBlur(light, (0, 0), 2)
    return cv2.resize(light, (fw, fh), interpolation=cv2.INTER_LINEAR)


def blurred(image: np.ndarray, shot: Shot, rng: random.Random) -> np.ndarray:
    if shot.blur_sigma > 0:
        image = cv2.GaussianBlur(image, (0, 0), shot.blur_sigma)
    if shot.motion_px >= 2:
        length = round(shot.motion_px)
        kernel = np.zeros((length, length), np.float32)
        kernel[length // 2, :] = 1.0
        turn = cv2.getRotationMatrix2D(
            (length / 2 - 0.5, length / 2 - 0.5), rng.uniform(0, 180), 1.0
        )
        kernel = cv2.warpAffine(kernel, turn, (length, length))
        image = cv2.filter2D(image, -1, kernel / kernel.sum())
    return image


def photograph(page_rgb: np.ndarray, shot: Shot, rng: random.Random) -> bytes:
    """The written page (uint8 RGB at ``PX_PER_MM``) as the JPEG bytes of ``shot``."""
    frame = frame_size(shot)
    page = bent(page_rgb, shot.bend_mm * PX_PER_MM, rng)
    page_h, page_w = page.shape[:2]
    corners = page_corners_in_frame(page_w, page_h, shot, frame, rng)
    # Shrink the page first (area averaging) to about the size it has in the photo, so that
    # the perspective warp does not alias fine print and strokes.
    shown = max(np.linalg.norm(corners[1] - corners[0]), np.linalg.norm(corners[2] - corners[3]))
    shrink = min(1.0, 1.3 * shown / page_w)
    if shrink < 1.0:
        page = cv2.resize(page, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
    page_h, page_w = page.shape[:2]
    source = np.array([[0, 0], [page_w, 0], [page_w, page_h], [0, page_h]], np.float32)
    homography = cv2.getPerspectiveTransform(source, corners)
    paper = np.array([1.0, rng.uniform(0.97, 1.0), rng.uniform(0.93, 1.0)])
    warped = cv2.warpPerspective(
        (page.astype(np.float32) * paper.astype(np.float32)),
        homography,
        frame,
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
    )
    mask = cv2.warpPerspective(
        np.ones((page_h, page_w), np.float32), homography, frame, flags=cv2.INTER_LINEAR
    )[..., None]
    scene = background_image(shot.background, frame, rng)
    if shot.kind != "scanner":
        # The sheet's own faint shadow on the table, to one side.
        reach = max(frame) / 400
        shade = cv2.GaussianBlur(mask[..., 0], (0, 0), reach * 2)
        shade = np.roll(shade, (round(reach), round(reach)), axis=(0, 1))[..., None]
        scene *= 1.0 - 0.35 * shade
    scene = scene * (1.0 - mask) + warped * mask
    warmth = rng.uniform(-1.0, 1.0)  # warm lamp light to cool daylight
    white_balance = np.array([1.0 + 0.04 * warmth, 1.0, 1.0 - 0.08 * warmth], np.float32)
    scene *= light_field(shot, frame, rng)[..., None] * white_balance
    scene = blurred(scene, shot, rng)
    nprng = np.random.default_rng(rng.randrange(2**32))
    scene += nprng.standard_normal(scene.shape, dtype=np.float32) * np.float32(shot.noise)
    photo = np.clip(scene, 0, 255).astype(np.uint8)
    ok, data = cv2.imencode(
        ".jpg",
        cv2.cvtColor(photo, cv2.COLOR_RGB2BGR),
        [cv2.IMWRITE_JPEG_QUALITY, shot.jpeg_quality],
    )
    assert ok
    return data.tobytes()
