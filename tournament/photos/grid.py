"""Where the form's lines really are on a straightened page, box by box.

The corner marks fix the page as a flat sheet; a sheet that was folded, or lies curled on the
table, bends between them, and its middle boxes end up a millimetre or two from where a flat
page has them: enough for a box's own line to look like a stroke of the digit (a 1 beside its
line reads as a 7). So each box is moved onto the lines found around it: the thick lines
between the deals (full rows high, the darkest columns of the form) and the row lines (full
deals wide), each looked for within ``SEARCH_MM`` of where the flat page has it.
"""

from __future__ import annotations

import itertools

import numpy as np

SEARCH_MM = 2.5
"""How far a line is looked for: more than a curled sheet moves it, less than half a box."""
MIN_CONTRAST = 0.25
"""A line is taken only when it stands out this much (darkness, 0-1) from the paper next to
it; otherwise the flat page's place is kept."""


def _darkness(image: np.ndarray) -> np.ndarray:
    return 1.0 - image.astype(np.float32) / 255.0


def _found(profile: np.ndarray, expected: int, reach: int) -> int | None:
    """The index of the darkest place of ``profile`` within ``reach`` of ``expected``, if it
    stands out from the profile around it."""
    low, high = max(0, expected - reach), min(len(profile), expected + reach + 1)
    if high - low < 3:
        return None
    window = profile[low:high]
    best = int(np.argmax(window))
    peak = float(window[best])
    if peak - float(np.median(window)) < MIN_CONTRAST:
        return None
    # The middle of the line, not its first darkest column: a 0.8 mm line is flat on top.
    start, end = best, best
    while start > 0 and window[start - 1] >= peak - 0.1:
        start -= 1
    while end < len(window) - 1 and window[end + 1] >= peak - 0.1:
        end += 1
    return low + (start + end) // 2


def _shift(
    darkness: np.ndarray, *, across: slice, along: int, vertical: bool, reach: int
) -> int | None:
    """How far the line at ``along`` (a column if ``vertical``, else a row) lies from there,
    judged over the stretch ``across`` of the other axis."""
    band = darkness[across, :] if vertical else darkness[:, across]
    profile = band.mean(axis=0 if vertical else 1)
    found = _found(profile, along, reach)
    return None if found is None else found - along


def _smoothed(shifts: list[int | None]) -> list[float]:
    """Missing shifts from their neighbours, and each the median of itself and its two
    neighbours: one line hidden under a digit, or a stroke taken for one, does not move a box."""
    known = [s for s in shifts if s is not None]
    if not known:
        return [0.0] * len(shifts)
    filled = []
    for index, value in enumerate(shifts):
        if value is not None:
            filled.append(float(value))
            continue
        near = [s for s in shifts[max(0, index - 2) : index + 3] if s is not None]
        filled.append(float(np.median(near)) if near else float(np.median(known)))
    return [float(np.median(filled[max(0, i - 1) : i + 2])) for i in range(len(filled))]


def refined_rects(
    image: np.ndarray,
    px_per_mm: float,
    *,
    columns: list[float],
    rows: list[float],
) -> tuple[list[list[float]], list[list[float]]]:
    """Where the lines are for each box: ``columns`` are the thick lines between the deals (mm,
    left to right) and ``rows`` the row lines (mm, top to bottom) of a flat page. Returns the
    found column lines per row band (``[row band][column]``) and the found row lines per deal
    (``[deal][row line]``), in mm."""
    darkness = _darkness(image)
    reach = round(SEARCH_MM * px_per_mm)

    def px(mm: float) -> int:
        return round(mm * px_per_mm)

    found_columns = []
    for top, bottom in itertools.pairwise(rows):
        height = bottom - top
        across = slice(px(top + 0.2 * height), px(bottom - 0.2 * height))
        shifts = [
            _shift(darkness, across=across, along=px(x), vertical=True, reach=reach)
            for x in columns
        ]
        found_columns.append(
            [x + s / px_per_mm for x, s in zip(columns, _smoothed(shifts), strict=True)]
        )
    found_rows = []
    for left, right in itertools.pairwise(columns):
        width = right - left
        across = slice(px(left + 0.2 * width), px(right - 0.2 * width))
        shifts = [
            _shift(darkness, across=across, along=px(y), vertical=False, reach=reach) for y in rows
        ]
        found_rows.append([y + s / px_per_mm for y, s in zip(rows, _smoothed(shifts), strict=True)])
    return found_columns, found_rows
