"""Seating rounds on the site: plan, check, adjust, publish, lock once play starts."""

import uuid
from collections import Counter
from itertools import combinations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from scoring.deals import dealer_seat
from scoring.tables import table_split
from tests.factories import played_tournament, round_completed, sheet_version_stored
from tests.sheets.helpers import stored_cells
from tournament.adapter import started_table_ids
from tournament.errors import Refused
from tournament.models import ApartPair, Round, Seat, Table, TableLink, Tournament
from tournament.rounds.seating import round_move, round_seat, round_swap
from tournament.rounds.seating_options import SeatingOption
from tournament.sheets.services import sheet_record
from tournament.sheets.submission import SheetProblems, SheetSubmission
from tournament.sheets.table_links import table_links_ensure

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament(director):
    return played_tournament(16, rounds=0, director=director)


def tables_of(round_):
    tables = {}
    for seat in Seat.objects.filter(round=round_).order_by("table__number", "position"):
        tables.setdefault(seat.table.number, []).append(seat.player_id)
    return list(tables.values())


def test_seating_two_rounds_of_sixteen_repeats_nobody(tournament):
    first, _ = round_seat(tournament=tournament)
    round_completed(first)
    second, _ = round_seat(tournament=tournament)
    pairs = [
        frozenset(p) for r in (first, second) for t in tables_of(r) for p in combinations(t, 2)
    ]
    assert len(pairs) == len(set(pairs))
    assert [len(t) for t in tables_of(second)] == [4, 4, 4, 4]
    assert second.state == Round.State.DRAFT


def test_seat_view_warns_before_seating_over_missing_sheets(director_client, director):
    tournament = played_tournament(8, rounds=1, last_round=[11, 4], director=director)
    url = reverse("round_seat", args=[tournament.slug])
    response = director_client.post(url, follow=True)
    assert tournament.rounds.count() == 1
    assert any("1" in str(m) for m in response.context["messages"])
    director_client.post(url, {"confirm": "1"})
    assert tournament.rounds.count() == 2


def test_swap_two_players_between_tables(tournament):
    round_, _ = round_seat(tournament=tournament)
    (a, *_), (b, *_) = tables_of(round_)[:2]
    player_a = tournament.players.get(pk=a)
    player_b = tournament.players.get(pk=b)
    round_swap(round_=round_, player_a=player_a, player_b=player_b)
    tables = tables_of(round_)
    assert tables[0][0] == b and tables[1][0] == a


def test_late_arrival_is_put_at_a_table_of_four(tournament, director_client):
    round_, _ = round_seat(tournament=tournament)
    director_client.post(reverse("player_list", args=[tournament.slug]), {"name": "Laatkomer"})
    late = tournament.players.get(name="Laatkomer")
    assert late.joined_round == 1  # round 1 has not started: the late arrival can still play
    response = director_client.get(reverse("round_detail", args=[tournament.slug, 1]))
    assert late in response.context["unseated"]
    round_move(round_=round_, player=late, table_number=2)
    assert [len(t) for t in tables_of(round_)] == [4, 5, 4, 4]


def test_move_that_leaves_a_table_of_three_is_refused(tournament):
    round_, _ = round_seat(tournament=tournament)
    mover = tournament.players.get(pk=tables_of(round_)[0][0])
    with pytest.raises(Refused, match="3"):
        round_move(round_=round_, player=mover, table_number=2)
    assert [len(t) for t in tables_of(round_)] == [4, 4, 4, 4]


def test_seating_is_locked_once_play_starts(tournament, director_client):
    round_, _ = round_seat(tournament=tournament)
    seat = Seat.objects.filter(round=round_).order_by("table", "position").first()
    sheet_version_stored(seat.table, {(1, 0): (0, None)})
    other = Seat.objects.filter(round=round_).exclude(table=seat.table).first()
    with pytest.raises(Refused):
        round_swap(round_=round_, player_a=seat.player, player_b=other.player)
    response = director_client.post(
        reverse("round_adjust", args=[tournament.slug, 1]),
        {"action": "swap", "player": seat.player_id, "other": other.player_id},
        follow=True,
    )
    assert any("locked" in str(m) or "vast" in str(m) for m in response.context["messages"])


def test_the_round_page_says_why_the_seating_is_locked_in_words_of_its_state(
    director_client, director
):
    tournament = played_tournament(8, rounds=2, last_round=[11, 5], director=director)
    page = {
        number: director_client.get(reverse("round_detail", args=[tournament.slug, number]))
        for number in (1, 2)
    }
    with translation.override("nl"):
        assert page[1].context["round"].state == Round.State.COMPLETE
        assert "Alle formulieren van deze ronde zijn compleet" in page[1].content.decode()
        assert "Het spelen is begonnen" not in page[1].content.decode()
        assert page[2].context["round"].state == Round.State.PLAYING
        assert "Het spelen is begonnen: de indeling staat vast." in page[2].content.decode()
        # What comes next once it is complete: imported sheets wait for no confirmation.
        assert "Nu: sluit de ronde (hieronder) en deel dan de volgende ronde in." in (
            page[1].content.decode()
        )
        assert 'id="round-next"' not in page[2].content.decode()
        table = Table.objects.get(round__tournament=tournament, round__number=1, number=1)
        sheet_version_stored(table, stored_cells(table))  # saved on the site: to confirm
        again = director_client.get(reverse("round_detail", args=[tournament.slug, 1]))
        assert "Nu: bevestig 1 formulier (hieronder), sluit de ronde" in again.content.decode()


def test_repeats_that_cannot_be_avoided_are_said_to_be_so(director_client, director):
    """Ten players at two tables of five: in round 2 at least 8 pairs meet again, whatever
    the seating; the page says that fewer is not possible, not just that 8 pairs repeat."""
    tournament = played_tournament(10, rounds=2, director=director)
    response = director_client.get(reverse("round_detail", args=[tournament.slug, 2]))
    quality = response.context["quality"]
    assert quality.repeats == quality.lower_bound == response.context["repeats_this_round"] == 8
    with translation.override("nl"):
        assert "Minder kan niet: na de vorige rondes heeft geen indeling" in (
            response.content.decode()
        )
    first = director_client.get(reverse("round_detail", args=[tournament.slug, 1]))
    assert "Minder kan niet" not in first.content.decode()  # nobody met anyone before
    assert "onvermijdelijk" not in first.content.decode()


def test_a_worse_seating_says_how_many_repeats_cannot_be_avoided(director_client, director):
    tournament = played_tournament(10, rounds=1, director=director)
    round_2, _ = round_seat(tournament=tournament)
    group = {
        seat.player_id: seat.table.number
        for seat in Seat.objects.filter(round__tournament=tournament, round__number=1)
    }
    at = {seat.player_id: seat.table.number for seat in Seat.objects.filter(round=round_2)}
    # Move a player of the table's smaller round-1 group over to the other table: 4 + 1 and
    # 1 + 4 instead of 3 + 2 and 2 + 3, so 12 repeats where 8 are unavoidable.
    table_1 = Counter(group[p] for p, t in at.items() if t == 1)
    minority = min(table_1, key=table_1.get)
    a = next(p for p, t in at.items() if t == 1 and group[p] == minority)
    b = next(p for p, t in at.items() if t == 2 and group[p] != minority)
    round_swap(
        round_=round_2,
        player_a=tournament.players.get(pk=a),
        player_b=tournament.players.get(pk=b),
    )
    response = director_client.get(reverse("round_detail", args=[tournament.slug, 2]))
    quality = response.context["quality"]
    assert (response.context["repeats_this_round"], quality.lower_bound) == (12, 8)
    with translation.override("nl"):
        assert "Minstens 8 daarvan zijn onvermijdelijk" in response.content.decode()
        assert "voorkomt er hoogstens 4." in response.content.decode()
        assert "Minder kan niet" not in response.content.decode()


def test_round_page_shows_seat_order_quality_and_publish(tournament, director_client):
    round_seat(tournament=tournament)
    url = reverse("round_detail", args=[tournament.slug, 1])
    response = director_client.get(url)
    assert response.status_code == 200
    assert response.context["repeats_this_round"] == 0
    assert len(response.context["tables"]) == 4
    director_client.post(reverse("round_publish", args=[tournament.slug, 1]))
    assert tournament.rounds.get(number=1).state == Round.State.SEATED


def test_publishing_makes_every_tables_link_at_once_and_printing_reuses_them(
    tournament, director_client
):
    round_seat(tournament=tournament)
    round_ = tournament.rounds.get(number=1)
    assert not TableLink.objects.filter(table__round=round_).exists()
    with CaptureQueriesContext(connection) as queries:
        director_client.post(reverse("round_publish", args=[tournament.slug, 1]))
    made = [
        q["sql"]
        for q in queries
        if q["sql"].startswith("INSERT") and TableLink._meta.db_table in q["sql"]
    ]
    assert len(made) == 1  # one bulk insert for the four tables
    links = {link.table_id: link.token for link in TableLink.objects.filter(table__round=round_)}
    table_ids = list(round_.tables.values_list("pk", flat=True))
    assert sorted(links) == sorted(table_ids) and len(table_ids) == 4
    page = director_client.get(reverse("round_detail", args=[tournament.slug, 1]))
    with translation.override("nl"):
        none = translation.gettext("Table link (none)")
        link = translation.gettext("Table link")
    assert none not in page.content.decode() and link in page.content.decode()
    # Printing the sheets asks for the links: the same ones, nothing new.
    printed = table_links_ensure(table_ids=table_ids)
    assert {table_id: link.token for table_id, link in printed.items()} == links
    # Publishing again (a second click) makes nothing new either.
    director_client.post(reverse("round_publish", args=[tournament.slug, 1]))
    assert TableLink.objects.filter(table__round=round_).count() == 4


def test_unseat_removes_a_draft_seating(tournament, director_client):
    round_seat(tournament=tournament)
    director_client.post(reverse("round_unseat", args=[tournament.slug, 1]))
    assert not tournament.rounds.exists()


def test_next_round_waits_for_the_draft_to_be_published(tournament):
    round_seat(tournament=tournament)
    with pytest.raises(Refused) as refused:
        round_seat(tournament=tournament)
    assert refused.value.problems[0].code == "previous_draft"
    assert tournament.rounds.count() == 1


def test_a_sheet_cannot_be_entered_on_a_draft_round(tournament):
    round_, _ = round_seat(tournament=tournament)
    table = round_.tables.get(number=1)
    with pytest.raises(SheetProblems) as refused:
        sheet_record(
            table=table,
            submission=SheetSubmission(
                cells={(1, 0): (0, None)},
                penalties=(),
                base_version=0,
                idempotency_key=uuid.uuid4(),
            ),
        )
    assert refused.value.problems[0].code == "round_draft"
    assert not started_table_ids(round_.tables.all())
    assert tournament.rounds.get().state == Round.State.DRAFT


def deals_dealt_in(tournament, rounds: int) -> Counter:
    """Seat ``rounds`` rounds (each played at once) and count the deals each player dealt."""
    dealt = Counter()
    for _ in range(rounds):
        round_, _note = round_seat(tournament=tournament)
        round_completed(round_)
        for table in tables_of(round_):
            for seat, player in enumerate(table):
                dealt[player] += sum(dealer_seat(deal, len(table)) == seat for deal in range(1, 12))
    return dealt


def test_dealing_evens_out_over_the_rounds(tournament):
    """The site's own seating, through the database (tables of 4 and 5, both balances:
    tests/scoring/test_dealing.py)."""
    dealt = deals_dealt_in(tournament, 4)
    # 16 players at tables of 4 for 4 rounds: a table deals 3, 3, 3 and 2 deals, so everyone
    # sits once where only two are dealt and deals 11 in all.
    assert set(dealt.values()) == {11}
    assert set(dealt) == set(tournament.players.values_list("pk", flat=True))


def test_swapping_a_player_with_themselves_is_refused(tournament):
    round_, _ = round_seat(tournament=tournament)
    player = tournament.players.first()
    with pytest.raises(Refused):
        round_swap(round_=round_, player_a=player, player_b=player)


def test_fallback_split_is_explained_in_the_directors_language(director):
    tournament = played_tournament(7, rounds=0, director=director)
    _round, note = round_seat(tournament=tournament)
    assert "7" in note and "4 + 3" in note


def test_the_first_dealer_drawn_at_the_table_is_stored_and_the_seats_stay(
    director_client, director
):
    """The rows never move (the printed sheet stays right): the drawn dealer is stored as a
    seat. (It used to turn the seats, which asked for a reprint.)"""
    tournament = played_tournament(8, rounds=1, last_round=[0, 3], director=director)
    table = tournament.rounds.get().tables.get(number=1)
    before = [s.player_id for s in table.seats.order_by("position")]
    drawn = tournament.players.get(pk=before[2])
    url = reverse("table_first_dealer", args=[tournament.slug, 1, 1])
    response = director_client.post(url, {"player": drawn.pk}, follow=True)
    assert [s.player_id for s in table.seats.order_by("position")] == before
    table.refresh_from_db()
    assert table.first_dealer_seat == 2
    (told,) = [str(m) for m in response.context["messages"]]
    assert told == f"{drawn.name} deelt als eerste aan tafel 1."

    started = tournament.rounds.get().tables.get(number=2)
    response = director_client.post(
        reverse("table_first_dealer", args=[tournament.slug, 1, 2]), {"seat": 3}, follow=True
    )
    (told,) = [str(m) for m in response.context["messages"]]
    assert "spel 1" in told.lower()
    started.refresh_from_db()
    assert started.first_dealer_seat is None


def complete(round_):
    round_completed(round_)


def test_the_draft_shows_what_each_balance_gives(director, director_client):
    tournament = played_tournament(17, rounds=0, director=director)
    tournament.rounds_planned = 5
    tournament.save(update_fields=["rounds_planned"])
    round_, _note = round_seat(tournament=tournament)
    assert set(round_.seating_options) == {"even", "repeats"}
    response = director_client.get(reverse("round_detail", args=[tournament.slug, 1]))
    even, repeats = response.context["seating_choices"]
    assert even.chosen and not repeats.chosen
    assert even.summary.startswith("Gelijk verdeeld: ")
    assert "herhaalde ontmoetingen, iedereen 1-2× aan een tafel van 5." in even.summary  # noqa: RUF001
    assert repeats.summary.startswith("Minste herhalingen: ")
    planned = round_.seating_options["even"]["tables"]
    assert [set(t) for t in tables_of(round_)] == [set(t) for t in planned]


def test_two_balances_with_the_same_figures_offer_no_choice(director, director_client):
    tournament = played_tournament(17, rounds=0, director=director)
    round_, _note = round_seat(tournament=tournament)
    even = round_.seating_options["even"]
    round_.seating_options["repeats"] |= {
        k: even[k] for k in ("repeats", "fewest", "most", "most_player", "spread")
    }
    round_.save(update_fields=["seating_options"])
    response = director_client.get(reverse("round_detail", args=[tournament.slug, 1]))
    (only,) = response.context["seating_choices"]
    assert only.summary.startswith("Beide verdelingen geven hetzelfde: ")
    page = response.content.decode()
    assert 'name="balance"' not in page and "(deze indeling)" not in page


def test_the_directors_choice_of_balance_is_kept_for_the_next_round(director, director_client):
    tournament = played_tournament(17, rounds=0, director=director)
    tournament.rounds_planned = 3
    tournament.save(update_fields=["rounds_planned"])
    first, _note = round_seat(tournament=tournament)
    director_client.post(
        reverse("round_balance", args=[tournament.slug, 1]), {"balance": "repeats"}
    )
    tournament.refresh_from_db()
    assert tournament.seating_balance == Tournament.SeatingBalance.REPEATS
    planned = first.seating_options["repeats"]["tables"]
    assert [set(t) for t in tables_of(first)] == [set(t) for t in planned]
    complete(first)
    second, _note = round_seat(tournament=tournament)
    planned = second.seating_options["repeats"]["tables"]
    assert [set(t) for t in tables_of(second)] == [set(t) for t in planned]


def test_one_table_size_offers_no_choice_of_balance(tournament):
    round_, _note = round_seat(tournament=tournament)
    assert round_.seating_options == {}


def seat_clubs(director, clubs: list[str], *, apart: bool = True):
    tournament = played_tournament(len(clubs), rounds=0, director=director)
    for player, club in zip(tournament.players.order_by("pk"), clubs, strict=True):
        player.club = club
        player.save(update_fields=["club"])
    tournament.clubs_apart_first_round = apart
    tournament.save(update_fields=["clubs_apart_first_round"])
    round_, _note = round_seat(tournament=tournament)
    club = dict(tournament.players.values_list("pk", "club"))
    return [[club[pk] for pk in table] for table in tables_of(round_)]


@pytest.mark.parametrize("n_players", [16, 18, 21])
def test_round_one_seats_the_players_of_a_club_at_different_tables(director, n_players):
    # Four clubs with a player for every table, listed club by club as an import would have
    # them; the others play for no club.
    tables = len(table_split(n_players).sizes)
    clubs = [f"club {i // tables}" if i < 4 * tables else "" for i in range(n_players)]
    for table in seat_clubs(director, clubs):
        members = [club for club in table if club]
        assert len(set(members)) == len(members)


def test_a_club_larger_than_the_number_of_tables_is_spread_over_all_tables(director):
    clubs = ["Groot"] * 9 + [""] * 7  # nine players of one club, four tables
    for table in seat_clubs(director, clubs):
        assert table.count("Groot") in (2, 3)


def test_round_one_is_never_seated_in_import_order(director):
    # The design for 16 seats point p at table p mod 4: in import order, that would put
    # players 1, 5, 9 and 13 together; and with clubs in that order, club mates together.
    clubs = [f"club {i % 4}" for i in range(16)]
    tables = seat_clubs(director, clubs, apart=False)
    assert any(len(set(table)) > 1 for table in tables)


def test_the_options_are_told_as_the_director_reads_them():
    even = SeatingOption("even", 24, 1, 2, 7, 1, 5)
    fewest = SeatingOption("repeats", 10, 0, 5, 7, 5, 5)
    with translation.override("nl"):
        told = " ".join(o.summary({7: "Anna"}, [even, fewest]) for o in (even, fewest))
    assert told == (
        "Gelijk verdeeld: 24 herhaalde ontmoetingen, iedereen 1-2× aan een tafel van 5. "  # noqa: RUF001
        "Minste herhalingen: 10 herhaalde ontmoetingen, maar ongelijk: 0-5× aan een tafel van 5 "  # noqa: RUF001
        "(Anna 5×)."  # noqa: RUF001
    )


def test_without_options_the_other_balance_is_refused(tournament, director_client):
    round_seat(tournament=tournament)  # 16 players at tables of 4: nothing to choose
    url = reverse("round_balance", args=[tournament.slug, 1])
    response = director_client.post(url, {"balance": "repeats"}, follow=True)
    assert any("opnieuw in" in str(m) for m in response.context["messages"])
    assert director_client.post(url, {"balance": "sideways"}).status_code == 404
    tournament.refresh_from_db()
    assert tournament.seating_balance == Tournament.SeatingBalance.EVEN


def keep_apart(tournament, a: int, b: int):
    low, high = sorted((a, b))
    return ApartPair.objects.create(tournament=tournament, player_a_id=low, player_b_id=high)


def test_a_swap_that_seats_a_pair_kept_apart_together_is_refused(tournament, director_client):
    round_, _ = round_seat(tournament=tournament)
    before = tables_of(round_)
    (a, *_), (b, partner, *_) = before[:2]
    keep_apart(tournament, a, partner)
    response = director_client.post(
        reverse("round_adjust", args=[tournament.slug, 1]),
        {"action": "swap", "player": a, "other": b},
        follow=True,
    )
    (told,) = [str(m) for m in response.context["messages"]]
    names = dict(tournament.players.values_list("pk", "name"))
    assert names[a] in told and names[partner] in told
    assert "nooit aan één tafel" in told
    assert tables_of(round_) == before


def test_a_move_that_seats_a_pair_kept_apart_together_is_refused(tournament, director_client):
    round_, _ = round_seat(tournament=tournament)
    director_client.post(reverse("player_list", args=[tournament.slug]), {"name": "Laatkomer"})
    late = tournament.players.get(name="Laatkomer")
    keep_apart(tournament, late.pk, tables_of(round_)[1][0])
    with pytest.raises(Refused) as refused:
        round_move(round_=round_, player=late, table_number=2)
    assert refused.value.problems[0].code == "apart_pair"
    round_move(round_=round_, player=late, table_number=3)  # another table is fine
    assert late.pk in tables_of(round_)[2]


def test_a_swap_within_one_table_ignores_pairs_kept_apart(tournament):
    round_, _ = round_seat(tournament=tournament)
    a, b, *_ = tables_of(round_)[0]
    keep_apart(tournament, a, tables_of(round_)[1][0])
    round_swap(
        round_=round_, player_a=tournament.players.get(pk=a), player_b=tournament.players.get(pk=b)
    )
    assert tables_of(round_)[0][:2] == [b, a]


def test_a_published_round_offers_no_other_balance(director, director_client):
    tournament = played_tournament(17, rounds=0, director=director)
    tournament.rounds_planned = 5
    tournament.save(update_fields=["rounds_planned"])
    round_, _note = round_seat(tournament=tournament)
    director_client.post(reverse("round_publish", args=[tournament.slug, 1]))
    before = tables_of(round_)
    page = director_client.get(reverse("round_detail", args=[tournament.slug, 1]))
    assert page.context["seating_choices"] == []
    assert reverse("round_balance", args=[tournament.slug, 1]) not in page.content.decode()
    response = director_client.post(
        reverse("round_balance", args=[tournament.slug, 1]), {"balance": "repeats"}, follow=True
    )
    assert any("bekend" in str(m) for m in response.context["messages"])
    assert tables_of(round_) == before
    tournament.refresh_from_db()
    assert tournament.seating_balance == Tournament.SeatingBalance.EVEN


def test_round_one_does_not_let_the_first_club_typed_deal_first_everywhere(director):
    # Four clubs of four, typed club by club; clubs apart puts one of each club at every table.
    clubs = [f"club {i // 4}" for i in range(16)]
    tables = seat_clubs(director, clubs)
    assert all(sorted(table) == sorted(set(clubs)) for table in tables)
    first_dealers = [table[0] for table in tables]
    assert len(set(first_dealers)) > 1


def test_round_one_seat_order_is_the_same_for_the_same_seed(director):
    orders = []
    for _ in range(2):
        tournament = played_tournament(13, rounds=0, director=director)
        round_, _note = round_seat(tournament=tournament, seed=7)
        first = min(tournament.players.values_list("pk", flat=True))
        orders.append([[pk - first for pk in table] for table in tables_of(round_)])
    assert orders[0] == orders[1]
    assert any(table != sorted(table) for table in orders[0])


def with_clubs(tournament, clubs: list[str]):
    for player, club in zip(tournament.players.order_by("pk"), clubs, strict=True):
        player.club = club
        player.save(update_fields=["club"])


def test_the_round_page_shows_each_players_club(tournament, director_client):
    with_clubs(tournament, ["BC De Bol"] * 4 + ["Troef"] * 4 + [""] * 8)
    round_seat(tournament=tournament)
    page = director_client.get(reverse("round_detail", args=[tournament.slug, 1]))
    html = page.content.decode()
    assert html.count('<span class="muted club">BC De Bol</span>') == 4
    assert html.count('<span class="muted club">Troef</span>') == 4


def test_seating_round_one_says_when_a_club_cannot_be_kept_apart(tournament, director_client):
    url = reverse("round_list", args=[tournament.slug])
    apart = "Spelers van één club zitten aan verschillende tafels."
    assert apart not in director_client.get(url).content.decode()  # no clubs known
    with_clubs(tournament, ["BC De Bol"] * 4 + ["Troef"] * 4 + [""] * 8)
    assert apart in director_client.get(url).content.decode()
    with_clubs(tournament, ["BC De Bol"] * 9 + ["Troef"] * 4 + [""] * 3)
    html = director_client.get(url).content.decode()
    assert apart not in html
    assert "aan 4 tafels: BC De Bol (9) heeft meer spelers dan dat" in html


def test_after_a_swap_the_balance_box_says_its_figures_are_the_plans(director, director_client):
    tournament = played_tournament(17, rounds=0, director=director)
    tournament.rounds_planned = 5
    tournament.save(update_fields=["rounds_planned"])
    round_, _note = round_seat(tournament=tournament)
    url = reverse("round_detail", args=[tournament.slug, 1])
    assert not director_client.get(url).context["changed_by_hand"]
    (a, *_), (b, *_) = tables_of(round_)[:2]
    round_swap(
        round_=round_, player_a=tournament.players.get(pk=a), player_b=tournament.players.get(pk=b)
    )
    page = director_client.get(url)
    assert page.context["changed_by_hand"]
    assert "met de hand veranderd: deze cijfers zijn die van het plan" in page.content.decode()


def test_the_balance_help_text_says_when_it_matters(director_client, tournament):
    page = director_client.get(reverse("tournament_edit", args=[tournament.slug]))
    assert "Alleen van belang bij tafels van twee grootten (4 én 5)" in page.content.decode()


def test_the_tie_break_choices_say_what_each_criterion_counts(director_client, tournament):
    page = director_client.get(reverse("tournament_edit", args=[tournament.slug])).content.decode()
    assert "Toernooipunten: bod + 2 voor een goed bod, -2 voor een bol of strafbol." in page
    assert 'aria-describedby="id_tiebreak_1_helptext"' in page
    assert "deelt de plaats (1, 2, 2, 4)" in page


@pytest.mark.parametrize("players,said", [(10, False), (9, True)])
def test_the_table_balance_is_mentioned_only_for_tables_of_two_sizes(
    director_client, director, players, said
):
    tournament = played_tournament(players, rounds=0, director=director)
    page = director_client.get(reverse("round_list", args=[tournament.slug])).content.decode()
    with translation.override("nl"):
        sentence = translation.gettext(
            "Everyone sits at a larger table about equally often; the draft shows what fewest "
            "repeats would give instead."
        )
    assert (sentence in page) is said  # 10: two tables of 5; 9: a table of 5 and one of 4


def test_the_round_page_leads_to_its_score_sheets_with_their_qr_codes(director_client, director):
    tournament = played_tournament(8, rounds=1, last_round=[0, 0], director=director)
    page = director_client.get(reverse("round_detail", args=[tournament.slug, 1]))
    sheets = reverse("print_sheets", args=[tournament.slug, 1])
    assert f'href="{sheets}"' in page.content.decode()
    pdf = director_client.get(sheets)
    assert (pdf.status_code, pdf["Content-Type"]) == (200, "application/pdf")
