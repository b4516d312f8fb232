"""Tournament statistics: bid tallies per deal and hand size, blind against the rest, bol-free
games and the best game, on hand-made sheets and on every legal sheet."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.deals import DEAL_COUNT, deal_spec
from scoring.sheet import DealEntry, Penalty, Sheet, score_sheet
from scoring.statistics import BLIND_DEAL, BidTally, Game, tournament_statistics
from tests.scoring.sheet_strategies import legal_sheets


def two_deals() -> Sheet:
    """Four seats, two deals: in deal 1 seat 0 bids 0 and takes the trick (under); in deal 2
    seat 2 bids 1 and takes nothing (over)."""
    return Sheet(
        4,
        (
            DealEntry(bids=(0, 0, 0, 0), tricks=(1, 0, 0, 0)),
            DealEntry(bids=(1, 1, 1, 0), tricks=(1, 1, 0, 0)),
        ),
    )


def one_sided_game(penalties=()) -> Sheet:
    """Three seats, all 11 deals: seat 0 takes every trick and bids it, seat 1 bids 0, seat 2
    bids 1 every time and never takes a trick. The bids never add up to the hand size."""
    deals = []
    for deal in range(1, DEAL_COUNT + 1):
        hand = deal_spec(deal).hand_size
        deals.append(DealEntry(bids=(hand, 0, 1), tricks=(hand, 0, 0)))
    return Sheet(3, tuple(deals), tuple(penalties))


def game(sheet: Sheet, *, round=1, table=1, players=None) -> Game:
    players = players or tuple(f"p{seat}" for seat in range(sheet.n_seats))
    return Game(round=round, table=table, players=tuple(players), result=score_sheet(sheet))


def test_deals_of_a_game_in_progress_are_tallied_by_how_the_bid_missed():
    stats = tournament_statistics([game(two_deals())])
    assert stats.by_deal[0] == BidTally(bids=4, kept=3, over=0, under=1)
    assert stats.by_deal[1] == BidTally(bids=4, kept=3, over=1, under=0)
    assert all(tally == BidTally() for tally in stats.by_deal[2:])
    assert stats.overall == BidTally(bids=8, kept=6, over=1, under=1)
    assert stats.overall.bol_rate == pytest.approx(0.25)
    assert stats.overall.over_rate == pytest.approx(0.125)


def test_a_game_in_progress_gives_no_bol_free_or_best_game():
    stats = tournament_statistics([game(two_deals())])
    assert stats.player_games == 0
    assert stats.bol_free == ()
    assert stats.best == ()


def test_hand_sizes_join_the_deals_of_the_same_size():
    stats = tournament_statistics([game(one_sided_game())])
    # Deals 1 and 11 have one card; 5, 5Z and 5B have five.
    assert stats.by_hand_size[1] == BidTally(bids=6, kept=4, over=2, under=0)
    assert stats.by_hand_size[5] == BidTally(bids=9, kept=6, over=3, under=0)
    assert sorted(stats.by_hand_size) == [1, 2, 3, 4, 5]
    assert stats.by_hand_size[3].bol_rate == pytest.approx(1 / 3)


def test_the_blind_deal_is_set_against_all_the_others():
    sheet = one_sided_game()
    deals = list(sheet.deals)
    # In the blind deal seat 1 also misses: bids 1, takes nothing (bids 5 + 1 + 1 = 7, not 5).
    deals[BLIND_DEAL - 1] = DealEntry(bids=(5, 1, 1), tricks=(5, 0, 0))
    stats = tournament_statistics([game(Sheet(3, tuple(deals)))])
    assert stats.blind == BidTally(bids=3, kept=1, over=2, under=0)
    assert stats.others == BidTally(bids=30, kept=20, over=10, under=0)
    assert stats.blind.accuracy == pytest.approx(1 / 3)
    assert stats.others.accuracy == pytest.approx(2 / 3)
    assert stats.overall == stats.blind + stats.others


def test_bol_free_games_are_the_complete_games_without_a_bol():
    stats = tournament_statistics([game(one_sided_game(), round=2, table=5)])
    assert stats.player_games == 3
    assert [(g.round, g.table, g.seat, g.player) for g in stats.bol_free] == [
        (2, 5, 0, "p0"),
        (2, 5, 1, "p1"),
    ]


def test_a_revoke_spoils_a_bol_free_game_but_not_the_bid_tally():
    clean = tournament_statistics([game(one_sided_game())])
    revoked = tournament_statistics([game(one_sided_game([Penalty(seat=1, deal=3)]))])
    assert [g.seat for g in revoked.bol_free] == [0]
    assert revoked.overall == clean.overall


def test_the_best_game_has_the_most_tournament_points_and_ties_are_all_listed():
    # Seat 0 kept every bid: the hand sizes (35) plus 2 for each of the 11 deals.
    first = game(one_sided_game(), round=1, table=2, players=("Ann", "Bea", "Cor"))
    second = game(one_sided_game(), round=3, table=1, players=("Dirk", "Eva", "Fien"))
    stats = tournament_statistics([second, first])
    assert [(g.player, g.round, g.table, g.tournament_points) for g in stats.best] == [
        ("Ann", 1, 2, 57),
        ("Dirk", 3, 1, 57),
    ]


def test_players_must_match_the_seats():
    with pytest.raises(ValueError, match="2 players given for a table of 3 seats"):
        tournament_statistics(
            [Game(round=1, table=1, players=("a", "b"), result=score_sheet(one_sided_game()))]
        )


def test_no_games_give_empty_tallies_and_no_rates():
    stats = tournament_statistics([])
    assert stats.overall == BidTally()
    assert stats.overall.bol_rate is None
    assert stats.blind.accuracy is None
    assert stats.best == ()


@given(st.lists(legal_sheets(), max_size=5))
def test_tallies_agree_with_the_sheet_totals(sheets):
    results = [score_sheet(sheet) for sheet in sheets]
    games = [
        Game(round=1, table=t, players=tuple(range(len(r.totals))), result=r)
        for t, r in enumerate(results, start=1)
    ]
    stats = tournament_statistics(games)
    totals = [seat for result in results for seat in result.totals]
    assert stats.overall.bids == sum(r.deals_complete * len(r.totals) for r in results)
    assert stats.overall.kept == sum(seat.correct for seat in totals)
    assert stats.overall.bollen == sum(seat.bollen - seat.penalty_bollen for seat in totals)
    assert stats.overall.kept + stats.overall.bollen == stats.overall.bids
    assert stats.overall == sum(stats.by_hand_size.values(), BidTally())
    assert stats.overall == sum(stats.by_deal, BidTally())
    assert stats.overall == stats.blind + stats.others
    assert stats.player_games == sum(len(r.totals) for r in results if r.complete)
    assert all(g.bollen == 0 for g in stats.bol_free)
    if stats.best:
        top = max(seat.tournament_points for r in results if r.complete for seat in r.totals)
        assert {g.tournament_points for g in stats.best} == {top}


@given(st.lists(legal_sheets(complete=True), min_size=1, max_size=4), st.randoms())
def test_the_order_of_the_games_does_not_matter(sheets, rng: random.Random):
    games = [game(sheet, round=1 + i % 2, table=i) for i, sheet in enumerate(sheets)]
    shuffled = games[:]
    rng.shuffle(shuffled)
    assert tournament_statistics(shuffled) == tournament_statistics(games)
