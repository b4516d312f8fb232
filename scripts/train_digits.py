"""Train the score sheets' digit reader and export it to ``tournament/photos/digits.npz``.

Run from the project's root (about 5 minutes on two idle cores, 1-2 more for the evaluation;
PyTorch is needed only here, the site reads the exported weights with numpy)::

    python3.11 -m venv /tmp/torchvenv
    /tmp/torchvenv/bin/pip install torch==2.13.0 numpy opencv-python-headless
    /tmp/torchvenv/bin/python scripts/train_digits.py            # train, export, evaluate
    /tmp/torchvenv/bin/python scripts/train_digits.py --evaluate # evaluate the exported file

What it does, and why:

* Data: MNIST's training set only (``scripts/digits_data.py``), split into training and a
  validation part; the t10k set, written by other people, is touched only by ``--evaluate``
  and by the evaluation after export, never to choose anything.
* Every training digit is drawn into a synthetic photo of a score-sheet box
  (``scripts/digit_boxes.py``: the form's lines, shading and "D", a pen's stroke width, slant,
  size and place, light, shadow, blur, noise, JPEG) and framed by the site's own
  ``tournament.photos.ink.box_ink``, so the network learns from exactly what it will see.
  A random small affine warp of the framed digits per batch adds variety at no cost.
* An 11th class, "no digit" (dashes, cross-outs, crosses, hatching, smudges), gives the reader a
  place to put ink that is not a digit instead of forcing it onto one.
* The network is small (three 3x3/5x5 convolutions with batch norm and pooling, two dense
  layers, 99,051 parameters, 10 epochs), exported as float16 with batch norm folded into the
  convolutions.
* Temperature scaling on the validation part calibrates the probabilities.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from multiprocessing import Pool
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "scripts")]

from digit_boxes import BOX_HEIGHTS, box_photo  # noqa: E402
from digits_data import held_out_set, training_set  # noqa: E402

from tournament.photos.ink import box_ink  # noqa: E402

EXPORT = ROOT / "tournament" / "photos" / "digits.npz"
OTHER = 10
VALIDATION = 5000
OTHERS_PER_DIGIT_IMAGE = 0.1
EPOCHS = 10
BATCH = 128
SEED = 20260601


def frame_chunk(job: tuple[int, np.ndarray, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Photograph and frame one chunk of digits (label OTHER with an empty image: a scribble).
    Boxes in which the reader finds no ink at all are dropped: there is nothing to learn."""
    import cv2

    cv2.setNumThreads(1)
    seed, digits, labels = job
    rng = np.random.default_rng(seed)
    frames, kept = [], []
    for digit, label in zip(digits, labels, strict=True):
        crop, px_per_mm = (
            box_photo(rng, None, other=True) if label == OTHER else box_photo(rng, digit)
        )
        ink = box_ink(crop, px_per_mm)
        if ink.image is not None:
            frames.append(np.round(ink.image * 255).astype(np.uint8))
            kept.append(label)
    return np.array(frames).reshape(-1, 28, 28), np.array(kept, dtype=np.int64)


def framed_set(
    digits: np.ndarray, labels: np.ndarray, others: int, seed: int
) -> tuple[np.ndarray, np.ndarray]:
    """The digits plus ``others`` scribbles, each photographed in a box and framed, on all cores."""
    digits = np.concatenate([digits, np.zeros((others, 28, 28), np.uint8)])
    labels = np.concatenate([labels.astype(np.int64), np.full(others, OTHER)])
    chunks = np.array_split(np.arange(len(labels)), max(1, len(labels) // 500))
    jobs = [(seed * 10_000 + n, digits[chunk], labels[chunk]) for n, chunk in enumerate(chunks)]
    with Pool(os.cpu_count() or 1) as pool:
        results = pool.map(frame_chunk, jobs)
    return np.concatenate([r[0] for r in results]), np.concatenate([r[1] for r in results])


def build_model():  # type: ignore[no-untyped-def]
    import torch
    from torch import nn

    def block(inputs: int, outputs: int, size: int) -> list[nn.Module]:
        return [
            nn.Conv2d(inputs, outputs, size, padding=size // 2),
            nn.BatchNorm2d(outputs),
            nn.ReLU(),
            nn.MaxPool2d(2),
        ]

    torch.manual_seed(SEED)
    return nn.Sequential(
        *block(1, 16, 5),  # 28 -> 14
        *block(16, 32, 3),  # 14 -> 7
        *block(32, 64, 3),  # 7 -> 3
        nn.Flatten(),
        nn.Linear(64 * 3 * 3, 128),
        nn.ReLU(),
        nn.Dropout(0.3),
        nn.Linear(128, OTHER + 1),
    )


def jitter(batch):  # type: ignore[no-untyped-def]
    """A small random affine warp of framed digits: rotation, scale, shear and shift."""
    import torch
    import torch.nn.functional as F

    n = len(batch)
    angle = torch.empty(n).uniform_(-0.14, 0.14)
    scale = torch.empty(n).uniform_(0.9, 1.1)
    shear = torch.empty(n).uniform_(-0.12, 0.12)
    shift = torch.empty(n, 2).uniform_(-0.08, 0.08)
    cos, sin = torch.cos(angle) / scale, torch.sin(angle) / scale
    theta = torch.stack(
        [
            torch.stack([cos, -sin + shear, shift[:, 0]], 1),
            torch.stack([sin, cos, shift[:, 1]], 1),
        ],
        1,
    )
    grid = F.affine_grid(theta, list(batch.shape), align_corners=False)
    return F.grid_sample(batch, grid, align_corners=False, padding_mode="zeros")


def train(frames: np.ndarray, labels: np.ndarray, mean: float, std: float):  # type: ignore[no-untyped-def]
    import torch
    import torch.nn.functional as F

    torch.set_num_threads(os.cpu_count() or 1)
    model = build_model()
    x = (torch.from_numpy(frames).float().unsqueeze(1) / 255 - mean) / std
    y = torch.from_numpy(labels)
    steps = EPOCHS * (len(y) // BATCH)
    optimiser = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=3e-3, total_steps=steps)
    background = (0 - mean) / std
    generator = torch.Generator().manual_seed(SEED)
    for epoch in range(EPOCHS):
        model.train()
        order = torch.randperm(len(y), generator=generator)
        total, started = 0.0, time.time()
        for step in range(len(y) // BATCH):
            index = order[step * BATCH : (step + 1) * BATCH]
            # Warp the ink (0 outside), not the normalised values, so the border stays paper.
            batch = jitter(x[index] - background) + background
            loss = F.cross_entropy(model(batch), y[index])
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            total += loss.item()
        print(f"epoch {epoch + 1}: loss {total / (step + 1):.4f} ({time.time() - started:.0f} s)")
    model.eval()
    return model


def scores(model, frames: np.ndarray, mean: float, std: float) -> np.ndarray:  # type: ignore[no-untyped-def]
    import torch

    with torch.no_grad():
        x = (torch.from_numpy(frames).float().unsqueeze(1) / 255 - mean) / std
        return torch.cat([model(part) for part in x.split(2048)]).numpy()


def fit_temperature(logits: np.ndarray, labels: np.ndarray) -> float:
    """The temperature that minimises the validation set's negative log-likelihood."""

    def nll(temperature: float) -> float:
        z = logits / temperature
        z = z - z.max(axis=1, keepdims=True)
        log_p = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
        return float(-log_p[np.arange(len(labels)), labels].mean())

    grid = np.exp(np.linspace(np.log(0.3), np.log(5.0), 400))
    return float(grid[int(np.argmin([nll(t) for t in grid]))])


def export(model, mean: float, std: float, temperature: float) -> None:  # type: ignore[no-untyped-def]
    """Weights as float16 with batch norm folded into each convolution; the constants as
    float64 scalars; ``conv_layers``/``dense_layers`` say how many of each there are."""
    from torch import nn

    arrays: dict[str, np.ndarray] = {}
    layers = list(model)
    convolutions = [n for n, layer in enumerate(layers) if isinstance(layer, nn.Conv2d)]
    for number, n in enumerate(convolutions, 1):
        conv, norm = layers[n], layers[n + 1]
        factor = (norm.weight / (norm.running_var + norm.eps).sqrt()).detach()
        weight = conv.weight.detach() * factor[:, None, None, None]
        bias = (conv.bias.detach() - norm.running_mean) * factor + norm.bias.detach()
        arrays[f"conv{number}.weight"] = weight.numpy().astype(np.float16)
        arrays[f"conv{number}.bias"] = bias.numpy().astype(np.float16)
    dense = [layer for layer in layers if isinstance(layer, nn.Linear)]
    for number, layer in enumerate(dense, 1):
        arrays[f"dense{number}.weight"] = layer.weight.detach().numpy().astype(np.float16)
        arrays[f"dense{number}.bias"] = layer.bias.detach().numpy().astype(np.float16)
    np.savez_compressed(
        EXPORT,
        conv_layers=np.array(len(convolutions)),
        dense_layers=np.array(len(dense)),
        mean=np.array(mean),
        std=np.array(std),
        temperature=np.array(temperature),
        **arrays,
    )
    count = sum(p.numel() for p in model.parameters())
    print(f"exported {EXPORT} ({EXPORT.stat().st_size / 1024:.0f} kB, {count} parameters)")


def main_train() -> None:
    started = time.time()
    images, labels = training_set()
    order = np.random.default_rng(SEED).permutation(len(labels))
    validation, training = order[:VALIDATION], order[VALIDATION:]
    others = int(OTHERS_PER_DIGIT_IMAGE * len(training))
    train_frames, train_labels = framed_set(images[training], labels[training], others, 1)
    valid_frames, valid_labels = framed_set(
        images[validation], labels[validation], int(OTHERS_PER_DIGIT_IMAGE * VALIDATION), 2
    )
    print(f"framed {len(train_labels)} + {len(valid_labels)} boxes ({time.time() - started:.0f} s)")
    mean = float(train_frames.mean() / 255)
    std = float(train_frames.std() / 255)
    model = train(train_frames, train_labels, mean, std)
    valid_scores = scores(model, valid_frames, mean, std)
    accuracy = float((valid_scores.argmax(1) == valid_labels).mean())
    temperature = fit_temperature(valid_scores, valid_labels)
    print(f"validation accuracy {accuracy:.4f}, temperature {temperature:.3f}")
    export(model, mean, std, temperature)
    print(f"trained in {time.time() - started:.0f} s")


def main_evaluate() -> None:
    """The exported reader (numpy, the site's code path) on all of t10k, drawn into boxes."""
    from tournament.photos import digits

    digits.network.cache_clear()
    images, labels = held_out_set()
    rng = np.random.default_rng(SEED + 1)
    readings, elapsed, sheets = [], 0.0, 0
    for start in range(0, len(images), 110):
        # One sheet: its boxes share a resolution and a table size.
        px_per_mm, height = float(rng.uniform(5.5, 9.0)), float(rng.choice(BOX_HEIGHTS))
        crops = [
            box_photo(rng, image, box_height=height, px_per_mm=px_per_mm)[0]
            for image in images[start : start + 110]
        ]
        began = time.perf_counter()
        readings += digits.read_boxes(crops, px_per_mm)
        elapsed += time.perf_counter() - began
        sheets += 1
    report_digits(readings, labels)
    print(f"read_boxes: {1000 * elapsed / sheets:.0f} ms per sheet of 110 boxes")
    for name, other in (("empty boxes", False), ("scribbles", True)):
        readings = []
        for _ in range(10):
            px_per_mm = float(rng.uniform(5.5, 9.0))
            crops = [box_photo(rng, other=other, px_per_mm=px_per_mm)[0] for _ in range(100)]
            readings += digits.read_boxes(crops, px_per_mm)
        empty = np.array([r.empty for r in readings])
        no_digit = np.array([r.other for r in readings])
        print(
            f"1000 {name}: P(empty) min {empty.min():.3f} median {np.median(empty):.3f}, "
            f"< 0.5 in {(empty < 0.5).sum()}; P(no digit | written) > 0.5 in "
            f"{(no_digit > 0.5).sum()}"
        )


def report_digits(readings: list, labels: np.ndarray) -> None:  # type: ignore[type-arg]
    probabilities = np.array([r.digits for r in readings])
    written = np.array([1 - r.empty for r in readings])
    guess = probabilities.argmax(1)
    top = probabilities.max(1)
    right = guess == labels
    print(
        f"t10k in boxes: digit accuracy {right.mean():.4f} "
        f"({(~right).sum()} wrong of {len(labels)})"
    )
    print(
        f"  written with P >= 0.99: {(written >= 0.99).mean():.4f}; top class is 'other' in "
        f"{(np.array([r.other for r in readings]) > top).sum()}"
    )
    for threshold in (0.99, 0.95, 0.9):
        sure = top >= threshold
        print(
            f"  top digit probability >= {threshold}: {sure.mean():.4f} of boxes, "
            f"error rate among them {(~right[sure]).mean():.5f} ({(~right[sure]).sum()} wrong)"
        )
    bins = np.linspace(0, 1, 11)
    which = np.clip(np.digitize(top, bins) - 1, 0, 9)
    for b in range(10):
        chosen = which == b
        if chosen.sum():
            print(
                f"  top in [{bins[b]:.1f}, {bins[b + 1]:.1f}): {chosen.sum():5d} boxes, "
                f"accuracy {right[chosen].mean():.3f}, mean top {top[chosen].mean():.3f}"
            )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--evaluate", action="store_true", help="only evaluate the export")
    if parser.parse_args().evaluate:
        main_evaluate()
    else:
        main_train()
        main_evaluate()
