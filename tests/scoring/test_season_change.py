"""What a change of the evenings does to the season standings, member by member."""

from __future__ import annotations

from scoring.season import EveningResult, SeasonRow
from scoring.season_change import Move, season_change


def _row(member: int, rank: int | None, points: int, played: int = 2) -> SeasonRow[int]:
    result = EveningResult(points, 0, 0)
    return SeasonRow(rank, member, f"m{member}", points, 0, 0, played, (1,), (result,))


def test_the_season_change_says_who_moves_appears_leaves_and_drops_out():
    before = [_row(1, 1, 10), _row(2, 2, 8), _row(3, 3, 6), _row(4, 4, 4), _row(5, None, 2, 1)]
    after = [_row(2, 1, 8), _row(1, 2, 6), _row(3, 3, 6), _row(6, 4, 3), _row(4, None, 2, 1)]
    change = season_change(before, after)
    moves = {line.member: line.move for line in change.changes}
    assert moves == {
        2: Move.UP,
        1: Move.DOWN,
        6: Move.APPEARS,
        4: Move.UNRANKED,
        5: Move.LEAVES,
    }
    assert [line.member for line in change.changes] == [2, 1, 6, 4, 5]  # as after, leavers last
    assert change.unchanged == 1  # member 3: same place, same points
