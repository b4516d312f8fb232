"""Reading the handwritten digit in each box of a photographed score sheet.

The page finder cuts one crop per box (the box and ~1 mm around it, grayscale, perspective
corrected); :func:`read_boxes` turns a whole sheet's crops into one :class:`BoxReading` each.
``ink.box_ink`` removes the print and frames the handwriting like an MNIST digit; a small
convolutional network (trained by ``scripts/train_digits.py`` on MNIST's training writers and
synthetic non-digits, exported to ``digits.npz`` beside this module) gives the probabilities,
softened by the temperature fitted on a validation split so that they mean what they say.

The network runs here in numpy (an im2col convolution is a matrix product), so the site needs
no deep-learning library: on two cores its one pass for the ~110 boxes of a sheet takes about
30 ms, and the whole sheet, the cleaning of every crop included, about 0.1-0.15 s.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from tournament.photos.ink import box_ink

WEIGHTS = Path(__file__).with_name("digits.npz")
DIGITS = 10
"""The network's classes are the digits 0-9 and, last, "no digit" (a dash, a cross-out, a
smudge)."""


@dataclass(frozen=True, slots=True)
class BoxReading:
    """What one box holds.

    ``empty`` is the probability that nothing is written in the box. Given that something is
    written, ``digits[d]`` is the probability that it is the digit ``d`` and ``other`` the
    probability that it is no digit (a dash, a cross-out, a scribble): together they sum to 1.
    So the probability that the box holds the digit ``d`` is ``(1 - empty) * digits[d]``.
    When the box holds no ink at all, ``digits`` and ``other`` are uniform (1/11 each).
    """

    empty: float
    digits: tuple[float, ...]
    other: float
    over_mark: bool = False
    """Written into the printed "D" (``ink.BoxInk.over_mark``): its probabilities are
    halfway to uniform, and the sheet's reader points the box out whatever they say."""

    @property
    def digit(self) -> int:
        """The most likely digit, if something written is a digit."""
        return int(np.argmax(self.digits))

    @property
    def confidence(self) -> float:
        """The probability that the box holds :attr:`digit`: written, a digit, and that one."""
        return (1.0 - self.empty) * max(self.digits)


@dataclass(frozen=True)
class Network:
    """The exported weights: convolutions (batch norm folded in) and two dense layers."""

    convolutions: tuple[tuple[np.ndarray, np.ndarray], ...]
    dense: tuple[tuple[np.ndarray, np.ndarray], ...]
    mean: float
    std: float
    temperature: float


@cache
def network() -> Network:
    """The weights, read once per process (float16 on disk, float32 to compute)."""
    with np.load(WEIGHTS) as data:

        def layer(name: str) -> tuple[np.ndarray, np.ndarray]:
            return data[f"{name}.weight"].astype(np.float32), data[f"{name}.bias"].astype(
                np.float32
            )

        convolutions = tuple(layer(f"conv{n}") for n in range(1, int(data["conv_layers"]) + 1))
        dense = tuple(layer(f"dense{n}") for n in range(1, int(data["dense_layers"]) + 1))
        return Network(
            convolutions,
            dense,
            float(data["mean"]),
            float(data["std"]),
            float(data["temperature"]),
        )


def convolve(images: np.ndarray, weight: np.ndarray, bias: np.ndarray) -> np.ndarray:
    """A 'same' convolution of channels-last images [N, H, W, C] with torch's weight layout
    [out, C, k, k], as one matrix product over every image's patches (im2col)."""
    out_channels, _, size, _ = weight.shape
    pad = size // 2
    padded = np.pad(images, ((0, 0), (pad, pad), (pad, pad), (0, 0)))
    patches = np.lib.stride_tricks.sliding_window_view(padded, (size, size), axis=(1, 2))
    count, height, width = patches.shape[:3]
    columns = patches.reshape(count * height * width, -1)  # C, ky, kx: torch's order
    result = columns @ weight.reshape(out_channels, -1).T + bias
    return np.asarray(result.reshape(count, height, width, out_channels))


def pool(images: np.ndarray) -> np.ndarray:
    """2x2 max pooling of channels-last images, dropping an odd last row and column (as torch)."""
    count, height, width, channels = images.shape
    half_h, half_w = height // 2, width // 2
    trimmed = images[:, : 2 * half_h, : 2 * half_w]
    return np.asarray(trimmed.reshape(count, half_h, 2, half_w, 2, channels).max(axis=(2, 4)))


def logits(frames: np.ndarray) -> np.ndarray:
    """The network's scores (before the temperature) for MNIST-framed ink [N, 28, 28] in 0-1."""
    net = network()
    x = ((frames.astype(np.float32) - net.mean) / net.std)[..., None]
    for weight, bias in net.convolutions:
        x = pool(np.maximum(convolve(x, weight, bias), 0.0))
    x = x.transpose(0, 3, 1, 2).reshape(len(x), -1)  # flattened as torch does: C, H, W
    for weight, bias in net.dense[:-1]:
        x = np.maximum(x @ weight.T + bias, 0.0)
    weight, bias = net.dense[-1]
    return np.asarray(x @ weight.T + bias)


def probabilities(frames: np.ndarray) -> np.ndarray:
    """Calibrated class probabilities [N, 11] (digits 0-9, then "no digit")."""
    scores = logits(frames) / network().temperature
    scores -= scores.max(axis=1, keepdims=True)
    exp = np.exp(scores)
    return np.asarray(exp / exp.sum(axis=1, keepdims=True))


def read_boxes(crops: list[np.ndarray], px_per_mm: float) -> list[BoxReading]:
    """Read every box of a sheet: ``crops`` are grayscale uint8 images of one box each with
    ~1 mm around it, at ``px_per_mm`` pixels per millimetre. One network pass for all boxes."""
    inks = [box_ink(crop, px_per_mm) for crop in crops]
    images = [ink.image for ink in inks if ink.image is not None]
    classes = iter(probabilities(np.stack(images)) if images else ())
    uniform = np.full(DIGITS + 1, 1.0 / (DIGITS + 1))
    readings = []
    for ink in inks:
        p = next(classes) if ink.image is not None else uniform
        if ink.over_mark:
            p = (p + uniform) / 2
        readings.append(
            BoxReading(
                empty=1.0 - ink.written,
                digits=tuple(float(v) for v in p[:DIGITS]),
                other=float(p[DIGITS]),
                over_mark=ink.over_mark,
            )
        )
    return readings
