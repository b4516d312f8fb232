"""The digit reader on synthetic photos of score-sheet boxes holding handwriting it never saw.

The digits are a fixed sample of MNIST's t10k set (``handwriting-sample.npz``: 40 of each digit,
``t10k_index`` says which), written by people none of whose writing is in the training set. The
crops are drawn by ``tests/photos/boxes.py``: the form's lines, misregistered, shaded dealer
boxes with their "D", uneven light, blur, noise and JPEG.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np

from tests.photos.boxes import Box, draw_box_crop
from tournament.photos.digits import BoxReading, read_boxes

SAMPLE = Path(__file__).with_name("handwriting-sample.npz")
HEIGHTS = (16.5, 19.5, 23.0, 27.0)


@cache
def sample() -> tuple[np.ndarray, np.ndarray]:
    with np.load(SAMPLE) as data:
        return data["images"], data["labels"]


def random_box(rng: np.random.Generator, px_per_mm: float, **fixed: object) -> Box:
    """A box as a sheet photo might show it: any table size, off by up to 0.8 mm, a digit of
    8 to 12 mm somewhere near the middle, light falling off by up to 35%, some blur, JPEG."""
    values: dict[str, object] = {
        "px_per_mm": px_per_mm,
        "height": float(rng.choice(HEIGHTS)),
        "shaded": bool(rng.random() < 0.2),
        "thick_left": bool(rng.random() < 0.5),
        "shift": tuple(rng.uniform(-0.8, 0.8, 2)),
        "digit_height": float(rng.uniform(8.0, 12.0)),
        "digit_offset": (float(rng.uniform(-0.5, 0.5)), float(rng.uniform(-1.5, 1.5))),
        "ink": float(rng.uniform(0.6, 0.9)),
        "light_gradient": float(rng.uniform(0.0, 0.35)),
        "blur": float(rng.uniform(0.3, 1.0)),
        "noise": float(rng.uniform(1.0, 4.0)),
        "jpeg": int(rng.integers(60, 95)),
        "seed": int(rng.integers(1 << 30)),
    }
    values.update(fixed)
    return Box(**values)  # type: ignore[arg-type]


@cache
def sample_readings() -> tuple[list[BoxReading], np.ndarray]:
    """All 400 sample digits read in sheets of 100 boxes at 6, 7, 7.5 and 8 pixels per mm."""
    images, labels = sample()
    rng = np.random.default_rng(7)
    readings: list[BoxReading] = []
    for sheet, px_per_mm in enumerate((6.0, 7.0, 7.5, 8.0)):
        digits = images[sheet * 100 : (sheet + 1) * 100]
        crops = [draw_box_crop(random_box(rng, px_per_mm), digit) for digit in digits]
        readings += read_boxes(crops, px_per_mm)
    return readings, labels


def test_the_sample_holds_forty_of_each_digit():
    images, labels = sample()
    assert images.shape == (400, 28, 28) and images.dtype == np.uint8
    assert np.bincount(labels, minlength=10).tolist() == [40] * 10


def test_written_digits_are_read():
    readings, labels = sample_readings()
    guesses = np.array([reading.digit for reading in readings])
    assert (guesses == labels).mean() >= 0.95


def test_a_wrong_reading_is_unsure():
    """No wrong reading reaches 0.99, the level at which a site could take a reading without a
    look, and most of the right ones do."""
    readings, labels = sample_readings()
    pairs = zip(readings, labels, strict=True)
    wrong = [reading for reading, label in pairs if reading.digit != label]
    assert all(max(reading.digits) < 0.99 for reading in wrong)
    sure = [reading for reading in readings if max(reading.digits) >= 0.99]
    assert len(sure) >= 0.75 * len(readings)


def test_written_boxes_are_not_empty():
    readings, _ = sample_readings()
    assert max(reading.empty for reading in readings) < 0.05


def test_readings_are_probabilities():
    readings, _ = sample_readings()
    for reading in readings:
        assert 0.0 <= reading.empty <= 1.0
        assert abs(sum(reading.digits) + reading.other - 1.0) < 1e-6
        assert all(0.0 <= p <= 1.0 for p in reading.digits)


def test_empty_boxes_are_empty():
    """Lines only, shaded dealer boxes with their "D" among them, unevenly lit and noisy."""
    rng = np.random.default_rng(11)
    crops = [
        draw_box_crop(random_box(rng, 7.0, shaded=n % 2 == 0, thick_left=n % 4 < 2, noise=4.0))
        for n in range(40)
    ]
    readings = read_boxes(crops, 7.0)
    assert min(reading.empty for reading in readings) > 0.95


def test_a_dealer_box_with_a_digit_reads_the_digit():
    images, labels = sample()
    rng = np.random.default_rng(13)
    chosen = rng.choice(len(labels), 20, replace=False)
    crops = [
        draw_box_crop(random_box(rng, 7.0, shaded=True, thick_left=True), images[n]) for n in chosen
    ]
    readings = read_boxes(crops, 7.0)
    right = sum(reading.digit == labels[n] for reading, n in zip(readings, chosen, strict=True))
    assert right >= 19
    assert max(reading.empty for reading in readings) < 0.05


def test_a_speck_is_not_a_digit_and_a_tiny_mark_is_unsure():
    """A 0.3 mm dot reads as empty; a short 1.5 mm tick is neither surely empty nor surely
    written: the reader says it does not know rather than guessing 0 or 1."""
    images, _ = sample()
    dot = np.zeros((28, 28), np.uint8)
    dot[13:15, 13:15] = 255
    readings = read_boxes(
        [
            draw_box_crop(Box(digit_height=0.3), dot),
            draw_box_crop(Box(digit_height=1.5), images[0]),
        ],
        7.0,
    )
    assert readings[0].empty > 0.9
    assert 0.02 < readings[1].empty < 0.98


def test_no_boxes_no_readings():
    assert read_boxes([], 7.0) == []


def test_a_digit_written_into_the_printed_d_is_flagged_and_unsure_but_one_clear_of_it_is_not():
    images, labels = sample()
    four = images[list(labels).index(4)]
    # Its top at the "D": the digit's upper part runs through the blanked corner.
    into = Box(shaded=True, digit_height=9.0, digit_offset=(-1.0, -4.5))
    clear = Box(shaded=True, digit_height=9.0, digit_offset=(0.8, 3.0))
    through, beside = read_boxes([draw_box_crop(into, four), draw_box_crop(clear, four)], 7.0)
    assert through.over_mark and through.confidence < 0.6
    assert not beside.over_mark and beside.digit == 4 and beside.confidence > 0.9
