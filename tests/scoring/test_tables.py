"""Splitting the players of a round into tables."""

import itertools

import pytest

from scoring.errors import ErrorCode, ScoringError
from scoring.tables import TableSplit, table_split

# rules.md: with tables of 4 and 5 only these counts need a table of another size.
FALLBACKS = {
    4: {3: (3,), 6: (6,), 7: (4, 3), 11: (4, 4, 3)},
    5: {3: (3,), 6: (6,), 7: (4, 3), 11: (6, 5)},
}


def allowed_splits(n_players, sizes):
    """Every multiset of allowed sizes that adds up to n_players, by brute force."""
    most = n_players // min(sizes)
    return [
        combo
        for count in range(1, most + 1)
        for combo in itertools.combinations_with_replacement(sizes, count)
        if sum(combo) == n_players
    ]


@pytest.mark.parametrize("prefer", [4, 5])
@pytest.mark.parametrize("n_players", range(3, 201))
def test_every_count_is_seated_in_allowed_tables_or_the_documented_fallback(n_players, prefer):
    split = table_split(n_players, prefer=prefer)
    assert sum(split.sizes) == n_players
    assert list(split.sizes) == sorted(split.sizes, reverse=True)
    if n_players in FALLBACKS[prefer]:
        assert split.fallback
        assert split.sizes == FALLBACKS[prefer][n_players]
        assert split.message.startswith(f"{n_players} players cannot be split into tables of 4")
    else:
        assert not split.fallback
        assert split.message == ""
        assert set(split.sizes) <= {4, 5}


@pytest.mark.parametrize("prefer", [4, 5])
@pytest.mark.parametrize("n_players", [n for n in range(3, 61) if n not in FALLBACKS[4]])
def test_as_many_preferred_tables_as_any_allowed_split_has(n_players, prefer):
    splits = allowed_splits(n_players, (4, 5))
    assert splits
    best = max(split.count(prefer) for split in splits)
    assert table_split(n_players, prefer=prefer).sizes.count(prefer) == best


def test_the_fallback_counts_really_have_no_split_into_4_and_5():
    assert [n for n in range(3, 61) if not allowed_splits(n, (4, 5))] == sorted(FALLBACKS[4])


def test_the_examples_of_the_source():
    assert table_split(15).sizes == (5, 5, 5)
    assert table_split(16).sizes == (4, 4, 4, 4)


def test_the_preference_decides_between_splits():
    assert table_split(20, prefer=4).sizes == (4,) * 5
    assert table_split(20, prefer=5).sizes == (5,) * 4


def test_fallback_message_explains_the_split():
    assert table_split(7) == TableSplit(
        (4, 3), True, "7 players cannot be split into tables of 4 and 5; using 4+3"
    )


@pytest.mark.parametrize("n_players", [-1, 0, 1, 2])
def test_fewer_than_3_players_cannot_be_seated(n_players):
    with pytest.raises(ScoringError) as caught:
        table_split(n_players)
    assert caught.value.codes == (ErrorCode.PLAYER_COUNT,)


@pytest.mark.parametrize("sizes", [(), (2, 4), (4, 7)])
def test_sizes_outside_what_the_game_allows_are_refused(sizes):
    with pytest.raises(ScoringError) as caught:
        table_split(12, sizes=sizes)
    assert caught.value.codes == (ErrorCode.TABLE_SIZES,)


@pytest.mark.parametrize(
    ("n_players", "sizes", "prefer", "expected"),
    [
        (12, (5,), 5, (5, 4, 3)),  # two odd tables are unavoidable; keep one 5
        (13, (5,), 5, (5, 5, 3)),  # fewest odd tables first, then the most 5s
        (9, (4,), 4, (5, 4)),
        (12, (3, 4, 5, 6), 6, (6, 6)),
        (12, (4, 5, 6), 5, (6, 6)),  # no 5 fits: tables nearest 5, then fewer tables
        (10, (6,), 6, (6, 4)),
    ],
)
def test_other_table_sizes_generalise_the_fallback(n_players, sizes, prefer, expected):
    split = table_split(n_players, sizes=sizes, prefer=prefer)
    assert split.sizes == expected
    assert split.fallback == any(size not in sizes for size in expected)


@pytest.mark.parametrize("n_players", range(3, 101))
def test_every_size_the_game_allows_never_needs_a_fallback(n_players):
    split = table_split(n_players, sizes=(3, 4, 5, 6))
    assert not split.fallback
    assert sum(split.sizes) == n_players
