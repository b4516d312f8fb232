"""A curled sheet's lines are found where they are, not where a flat page has them."""

from __future__ import annotations

import numpy as np

from tournament.photos.grid import refined_rects

MM = 8.0
COLUMNS = [68.0 + 15 * d for d in range(12)]
ROWS = [59.0 + 19.5 * r for r in range(6)]


def page_with_lines(shift_x: float, shift_y: float, *, hidden_column: int | None = None):
    """A page with the form's thick deal lines and row lines drawn ``shift`` mm off."""
    image = np.full((round(210 * MM), round(297 * MM)), 240, np.uint8)
    for index, x in enumerate(COLUMNS):
        if index != hidden_column:
            left = round((x + shift_x - 0.4) * MM)
            image[round(ROWS[0] * MM) : round(ROWS[-1] * MM), left : left + round(0.8 * MM)] = 20
    for y in ROWS:
        top = round((y + shift_y - 0.15) * MM)
        image[top : top + 3, round(COLUMNS[0] * MM) : round(COLUMNS[-1] * MM)] = 30
    return image


def test_lines_a_curl_moved_are_found_where_they_are():
    columns, rows = refined_rects(page_with_lines(1.5, -1.2), MM, columns=COLUMNS, rows=ROWS)
    assert np.allclose(columns, np.array(COLUMNS) + 1.5, atol=0.2)
    assert np.allclose(rows, np.array(ROWS) - 1.2, atol=0.2)


def test_a_line_that_cannot_be_seen_takes_its_neighbours_shift():
    image = page_with_lines(1.0, 0.0, hidden_column=5)
    columns, _ = refined_rects(image, MM, columns=COLUMNS, rows=ROWS)
    assert np.allclose(columns, np.array(COLUMNS) + 1.0, atol=0.2)


def test_a_line_further_off_than_the_search_keeps_the_flat_page_s_place():
    image = np.full((round(210 * MM), round(297 * MM)), 240, np.uint8)  # no lines at all
    columns, rows = refined_rects(image, MM, columns=COLUMNS, rows=ROWS)
    assert np.allclose(columns, [COLUMNS] * 5) and np.allclose(rows, [ROWS] * 11)
