"""Season arithmetic with plain values: best K, the average, minimum attendance, ties, absences,
merges, guests apart."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.season import (
    EveningResult,
    Ranking,
    SeasonCode,
    SeasonError,
    SeasonRule,
    counted_evenings,
    season_guests,
    season_merge,
    season_standings,
)

E = EveningResult
EVENINGS = (1, 2, 3, 4, 5)


def by_member(rows):
    return {row.member: row for row in rows}


def test_all_evenings_count_by_default():
    rows = season_standings(
        {"ann": {1: E(30, 1, 20), 2: E(10, 3, 15)}, "bob": {1: E(25, 0, 22)}},
        evenings=(1, 2),
    )
    assert [(r.member, r.rank, r.points, r.counted) for r in rows] == [
        ("ann", 1, 40, (1, 2)),
        ("bob", 2, 25, (1,)),
    ]
    assert rows[1].per_evening == (E(25, 0, 22), None)


def test_best_k_counts_the_highest_evenings_and_lists_them_in_evening_order():
    results = {"ann": {1: E(5, 4, 10), 2: E(30, 1, 20), 3: E(20, 2, 18)}}
    (row,) = season_standings(results, evenings=(1, 2, 3), rule=SeasonRule(best=2))
    assert row.counted == (2, 3)
    assert (row.points, row.bollen, row.correct) == (50, 3, 38)
    assert row.played == 3


def test_equal_evenings_choose_fewer_bollen_then_the_earlier_one():
    assert counted_evenings({1: E(10, 3, 5), 2: E(10, 1, 5), 3: E(10, 1, 5)}, 1) == (2,)
    assert counted_evenings({4: E(10, 1, 5), 2: E(10, 1, 5)}, 1) == (2,)


def test_members_below_the_minimum_are_listed_unranked_after_the_ranked():
    rows = season_standings(
        {"ann": {1: E(90, 0, 30)}, "bob": {1: E(10, 2, 5), 2: E(10, 2, 5)}},
        evenings=(1, 2),
        rule=SeasonRule(min_evenings=2),
    )
    assert [(r.member, r.rank) for r in rows] == [("bob", 1), ("ann", None)]
    assert not rows[1].ranked


def test_ties_go_to_fewer_bollen_then_more_correct_then_a_shared_rank():
    rows = season_standings(
        {
            "a": {1: E(20, 2, 10)},
            "b": {1: E(20, 1, 9)},
            "c": {1: E(20, 2, 11)},
            "d": {1: E(20, 2, 10)},
            "e": {1: E(5, 0, 0)},
        },
        evenings=(1,),
    )
    assert [(r.member, r.rank) for r in rows] == [("b", 1), ("c", 2), ("a", 3), ("d", 3), ("e", 5)]


def test_shared_ranks_are_listed_by_name_key():
    rows = season_standings(
        {"x": {1: E(1, 0, 0)}, "y": {1: E(1, 0, 0)}},
        evenings=(1,),
        names={"x": "Zoë", "y": "Anna"},
    )
    assert [(r.name, r.rank) for r in rows] == [("Anna", 1), ("Zoë", 1)]


def test_the_average_ranks_by_points_per_evening_played_with_every_evening_counting():
    rows = season_standings(
        {
            "ann": {1: E(30, 2, 10), 2: E(33, 1, 12)},  # 31.5
            "bob": {1: E(40, 0, 15), 2: E(10, 3, 4), 3: E(13, 0, 4)},  # 21
            "cor": {3: E(63, 2, 20)},  # 63, one evening: below the minimum
            "dik": {},  # no result yet: no average
        },
        evenings=(1, 2, 3),
        rule=SeasonRule(best=1, min_evenings=2, ranking=Ranking.AVERAGE),
    )
    assert [(r.member, r.rank, r.average, r.points, r.counted) for r in rows] == [
        ("ann", 1, Fraction(63, 2), 63, (1, 2)),
        ("bob", 2, Fraction(21), 63, (1, 2, 3)),
        ("cor", None, Fraction(63), 63, (3,)),
        ("dik", None, None, 0, ()),
    ]


def test_an_equal_average_goes_to_fewer_bollen_per_evening_then_a_shared_rank():
    rows = season_standings(
        {
            "a": {1: E(20, 2, 10), 2: E(20, 2, 10)},  # 2 bollen per evening
            "b": {1: E(20, 1, 9)},  # 1 per evening: first, though fewer points in all
            "c": {2: E(20, 2, 10)},  # as a, per evening: shares a's rank
        },
        evenings=(1, 2),
        rule=SeasonRule(ranking=Ranking.AVERAGE),
    )
    assert [(r.member, r.rank) for r in rows] == [("b", 1), ("a", 2), ("c", 2)]


def test_guests_are_listed_apart_by_name_with_every_evening_added_up():
    rows = season_guests(
        {"g1": {2: E(12, 1, 5)}, "g2": {1: E(8, 0, 3), 2: E(-2, 4, 1)}},
        evenings=(1, 2),
        names={"g1": "Wim", "g2": "Ans"},
    )
    assert [(r.name, r.points, r.bollen, r.played, r.per_evening) for r in rows] == [
        ("Ans", 6, 4, 2, (E(8, 0, 3), E(-2, 4, 1))),
        ("Wim", 12, 1, 1, (None, E(12, 1, 5))),
    ]
    with pytest.raises(SeasonError) as caught:
        season_guests({"g": {3: E(1, 0, 0)}}, evenings=(1, 2))
    assert caught.value.code == SeasonCode.EVENING_UNKNOWN


def test_a_member_merged_mid_season_counts_as_one_person():
    before = {1: E(10, 1, 5), 2: E(12, 0, 6)}
    after = {3: E(30, 0, 9)}
    merged = season_merge(before, after)
    (row,) = season_standings({"jan": merged}, evenings=(1, 2, 3), rule=SeasonRule(best=2))
    assert row.points == 42 and row.counted == (2, 3) and row.played == 3


def test_merging_two_records_of_one_evening_is_refused():
    with pytest.raises(SeasonError) as caught:
        season_merge({1: E(1, 0, 0), 2: E(1, 0, 0)}, {2: E(3, 0, 0)})
    assert caught.value.code == SeasonCode.MERGE_OVERLAP
    assert caught.value.evening == 2


def test_a_result_of_an_unknown_evening_is_refused():
    with pytest.raises(SeasonError) as caught:
        season_standings({"a": {7: E(1, 0, 0)}}, evenings=(1, 2))
    assert caught.value.code == SeasonCode.EVENING_UNKNOWN
    assert caught.value.evening == 7


@pytest.mark.parametrize(
    ("rule", "code"),
    [({"best": 0}, SeasonCode.BEST_COUNT), ({"min_evenings": -1}, SeasonCode.MIN_EVENINGS)],
)
def test_impossible_rules_are_refused(rule, code):
    with pytest.raises(SeasonError) as caught:
        SeasonRule(**rule)
    assert caught.value.code == code


# Properties -------------------------------------------------------------------------------

results_strategy = st.builds(
    E,
    points=st.integers(-20, 60),
    bollen=st.integers(0, 11),
    correct=st.integers(0, 30),
)
season_strategy = st.dictionaries(
    st.sampled_from("abcdefgh"),
    st.dictionaries(st.sampled_from(EVENINGS), results_strategy, max_size=len(EVENINGS)),
    max_size=8,
)
rule_strategy = st.builds(
    SeasonRule,
    best=st.one_of(st.none(), st.integers(1, len(EVENINGS) + 1)),
    min_evenings=st.integers(0, len(EVENINGS) + 1),
)


@given(season_strategy, rule_strategy)
def test_points_are_the_sum_of_the_counted_evenings(season, rule):
    for row in season_standings(season, evenings=EVENINGS, rule=rule):
        results = season[row.member]
        assert row.points == sum(results[n].points for n in row.counted)
        assert row.bollen == sum(results[n].bollen for n in row.counted)
        assert set(row.counted) <= set(results)
        expected = len(results) if rule.best is None else min(rule.best, len(results))
        assert len(row.counted) == expected


@given(st.dictionaries(st.sampled_from(EVENINGS), results_strategy), st.integers(1, 5))
def test_best_k_is_never_less_than_any_other_choice_of_k(results, best):
    chosen = counted_evenings(results, best)
    total = sum(results[n].points for n in chosen)
    size = min(best, len(results))
    for other in itertools.combinations(results, size):
        assert total >= sum(results[n].points for n in other)


@given(season_strategy, rule_strategy)
def test_an_evening_nobody_played_changes_nothing(season, rule):
    before = season_standings(season, evenings=EVENINGS, rule=rule)
    after = season_standings(season, evenings=(*EVENINGS, 99), rule=rule)
    assert [(r.member, r.rank, r.points, r.counted) for r in before] == [
        (r.member, r.rank, r.points, r.counted) for r in after
    ]
    assert all(r.per_evening[-1] is None for r in after)


@given(season_strategy, rule_strategy)
def test_ranked_members_played_the_minimum_and_come_first(season, rule):
    rows = season_standings(season, evenings=EVENINGS, rule=rule)
    for row in rows:
        assert row.ranked == (row.played >= rule.min_evenings)
    flags = [row.ranked for row in rows]
    assert flags == sorted(flags, reverse=True)


@given(season_strategy, rule_strategy)
def test_ranks_are_shared_exactly_when_every_tie_break_is_equal(season, rule):
    ranked = [r for r in season_standings(season, evenings=EVENINGS, rule=rule) if r.ranked]
    for position, row in enumerate(ranked, start=1):
        if position == 1:
            assert row.rank == 1
            continue
        before = ranked[position - 2]
        same = (before.points, before.bollen, before.correct) == (
            row.points,
            row.bollen,
            row.correct,
        )
        assert row.rank == (before.rank if same else position)
        assert (-before.points, before.bollen, -before.correct) <= (
            -row.points,
            row.bollen,
            -row.correct,
        )


@given(season_strategy, rule_strategy)
def test_the_order_results_come_in_does_not_matter(season, rule):
    forward = season_standings(season, evenings=EVENINGS, rule=rule)
    backward = season_standings(
        dict(reversed(list(season.items()))), evenings=tuple(reversed(EVENINGS)), rule=rule
    )
    assert forward == backward
