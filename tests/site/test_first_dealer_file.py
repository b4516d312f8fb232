"""The portable file carries the drawn first dealer and the closed round.

v1 says ``seats[0]`` deals deal 1; the site keeps the rows as printed and stores the row the
table drew. So a table whose first dealer is row k is written turned (its seats, sheet rows,
penalties and, in ``x-site``, every version and conflict record start at row k), and ``x-site``
keeps the rule, each table's drawn row and the closed rounds, so an import puts back the rows in
their printed order with the first dealer the table drew.
"""

import copy
import io
import json
import random
import uuid

import pytest
from django.core.management import call_command
from django.utils import translation
from jsonschema import Draft202012Validator

from scoring import Sheet, check_sheet, round_scores, score_sheet, standings
from scoring.simulate import simulate_deal
from tests.factories import played_tournament
from tests.site.test_backups import cells_of
from tournament.adapter import table_sheet
from tournament.errors import Refused
from tournament.models import Round, SheetVersion, Table, Tournament
from tournament.rounds.services import round_close
from tournament.sheets.confirmations import sheet_confirm
from tournament.sheets.first_dealer import table_first_dealer
from tournament.sheets.services import sheet_record
from tournament.sheets.submission import SheetConflict, SheetSubmission
from tournament.sheets.table_links import table_link_ensure
from tournament.tournament_file.exporting import tournament_export
from tournament.tournament_file.importing import tournament_import
from tournament.tournament_file.reading import SCHEMA_PATH, file_table_sheet
from tournament.tournament_file.site import SITE_SCHEMA_PATH

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def save(table, cells, *, base, user, penalties=()):
    return sheet_record(
        table=table,
        submission=SheetSubmission(
            cells=cells,
            penalties=list(penalties),
            base_version=base,
            idempotency_key=uuid.uuid4(),
            by_user=user,
            via=SheetVersion.Via.TABLE_LINK,
            ip="192.168.1.31",
        ),
    )


def tables_of(tournament, number):
    """The round's tables, the one of 4 first, then the one of 5."""
    tables = Table.objects.filter(round__tournament=tournament, round__number=number)
    return sorted(tables, key=lambda t: t.seats.count())


@pytest.fixture
def drawn(django_user_model):
    """Nine players (a table of 4 and one of 5 a round), the tables draw the first dealer.

    Round 1 (played, closed): the table of 5 drew row 2 and has a history with a penalty and a
    confirmation, the table of 4 drew row 0. Round 2: the table of 4 drew row 2 (through the
    site's own service) and is half played: versions, penalties, a conflict record, bids of a
    deal under way, a table link; the table of 5 has not drawn yet (null) and is empty.
    """
    director = django_user_model.objects.create_user(username="directeur", password="x" * 12)
    scorer = django_user_model.objects.create_user(username="anna", password="y" * 12)
    tournament = played_tournament(9, rounds=2, last_round=[0, 0], director=director)
    tournament.first_dealer_rule = Tournament.FirstDealerRule.DRAWN
    tournament.scorers.add(scorer)
    tournament.save()

    four, five = tables_of(tournament, 1)
    # Round 1 was entered after the draw; the file that made it knew no first dealer.
    Table.objects.filter(pk=five.pk).update(first_dealer_seat=2)
    Table.objects.filter(pk=four.pk).update(first_dealer_seat=0)
    five.refresh_from_db()
    full = cells_of(five)
    save(five, {p: v for p, v in full.items() if p[0] < 11}, base=0, user=scorer)
    save(five, full, base=1, user=scorer, penalties=[(3, 0), (8, 3)])
    sheet_confirm(table=five, version=2, by_user=director)
    round_close(round_=Round.objects.get(tournament=tournament, number=1))

    four, _five = tables_of(tournament, 2)
    table_first_dealer(table=four, seat=2)
    rng = random.Random(5)
    cells = {}
    for deal in range(1, 6):
        bids, tricks = simulate_deal(deal, 4, rng)
        cells.update({(deal, seat): (bids[seat], tricks[seat]) for seat in range(4)})
    save(four, cells, base=0, user=scorer, penalties=[(2, 1), (4, 3)])  # version 1
    bid, tricks = cells[5, 0]
    clash = {(5, 0): ((bid + 1) % 6, tricks), (6, 0): (0, None)}  # deal 5 typed differently
    with pytest.raises(SheetConflict):
        save(four, cells | clash, base=0, user=director)  # a conflict record
    save(four, cells | {(6, 3): (1, None)}, base=1, user=scorer, penalties=[(2, 1), (4, 3)])
    table_link_ensure(table=four, by_user=director)
    return tournament


def site_state(tournament):
    """What the restore must give back as the site had it: each table's first dealer and its
    players by printed row, each round's close, the rule."""
    tables = {
        (t.round.number, t.number): (
            t.first_dealer_seat,
            [s.player.file_id for s in t.seats.order_by("position")],
        )
        for t in Table.objects.filter(round__tournament=tournament).select_related("round")
    }
    closed = dict(tournament.rounds.values_list("number", "closed_at"))
    return tournament.first_dealer_rule, tables, closed


def standings_json(slug):
    out = io.StringIO()
    call_command("export_standings", slug, "--format", "json", stdout=out)
    return json.loads(out.getvalue())


def schema(path):
    return Draft202012Validator(json.loads(path.read_text(encoding="utf-8")))


def test_export_import_export_keeps_first_dealers_and_the_closed_round(drawn):
    original = tournament_export(tournament=drawn)
    state = site_state(drawn)
    table_standings = standings_json(drawn.slug)
    assert state[0] == "drawn"
    assert sorted(first for first, _rows in state[1].values() if first is not None) == [0, 2, 2]
    assert None in {first for first, _rows in state[1].values()}
    assert state[2][1] is not None and state[2][2] is None

    schema(SCHEMA_PATH).validate(original)
    schema(SITE_SCHEMA_PATH).validate(original["settings"]["x-site"])

    slug = drawn.slug
    drawn.delete()
    restored = tournament_import(document=copy.deepcopy(original), slug=slug)
    assert site_state(restored) == state
    assert tournament_export(tournament=restored) == original
    assert standings_json(slug) == table_standings
    # The restored sheets deal as the tables drew: deal 1 from the drawn row.
    four, _five = tables_of(restored, 2)
    assert table_sheet(four).sheet.first_dealer == 2
    # The bids of deal 6 under way (not in the v1 part) are back in their printed rows.
    deal_6 = table_sheet(four).sheet.deals[5]
    assert [i for i, bid in enumerate(deal_6.bids) if bid is not None] == [3]


def test_a_drawn_table_is_written_turned_so_the_v1_part_reads_right(drawn):
    document = tournament_export(tournament=drawn)
    site = document["settings"]["x-site"]
    assert site["first_dealer_rule"] == "drawn"
    assert site["rounds"] == [{"round": 1, "closed_at": site["rounds"][0]["closed_at"]}]
    four, five = tables_of(drawn, 2)
    entries = {e["table"]: e for e in site["tables"] if e["round"] == 2}
    assert entries[four.number]["first_dealer"] == 2
    assert "first_dealer" not in entries.get(five.number, {})  # not drawn yet

    printed = [s.player.file_id for s in four.seats.order_by("position")]
    (table,) = [t for t in document["rounds"][1]["tables"] if t["number"] == four.number]
    assert table["seats"] == printed[2:] + printed[:2]  # the first dealer first
    stored = table_sheet(four).sheet
    for deal_no, deal in enumerate(table["deals"], start=1):
        for index, player in enumerate(table["seats"]):
            seat = printed.index(player)
            entry = stored.deals[deal_no - 1]
            assert (deal["bids"][index], deal["tricks"][index]) == (
                entry.bids[seat],
                entry.tricks[seat],
            )
    assert sorted((p["player"], p["deal"]) for p in table["penalties"]) == sorted(
        [(printed[1], 2), (printed[3], 4)]
    )

    versions = entries[four.number]["versions"]
    conflict = next(v for v in versions if v["number"] is None)
    stored = SheetVersion.objects.get(table=four, number=None)
    assert conflict["cells"] == [row[2:] + row[:2] for row in stored.cells]
    assert conflict["cells"][5][2] == [0, None]  # printed row 0's bid: file index 2
    latest = max((v for v in versions if v["number"] is not None), key=lambda v: v["number"])
    assert sorted(map(tuple, latest["penalties"])) == [(1, 4), (3, 2)]  # rows 3, 1 turned by 2


def other_tool_standings(document):
    """The standings another tool reads from the v1 part alone: seats[0] deals deal 1."""
    players = {p["id"]: p["name"] for p in document["players"]}
    scores = []
    for round_ in document["rounds"]:
        for table in round_["tables"]:
            sheet = file_table_sheet(table)
            assert isinstance(sheet, Sheet) and sheet.first_dealer == 0
            assert check_sheet(sheet) == []
            if sheet.started:
                result = score_sheet(sheet)
                scores += round_scores(table["seats"], result, round=round_["number"])
    rows = standings(scores, players=players, names=players)
    return {
        row.player: (row.tournament_points, row.bollen, row.correct, dict(row.per_round))
        for row in rows
    }


def test_the_v1_part_alone_scores_as_our_standings_and_imports_as_the_site_rule(drawn):
    document = tournament_export(tournament=drawn)
    plain = copy.deepcopy(document)
    del plain["settings"]["x-site"]
    schema(SCHEMA_PATH).validate(plain)

    ours = standings_json(drawn.slug)
    rounds = len(document["rounds"])
    mine = {
        row["player"]: (
            row["points"],
            row["bollen"],
            row["correct"],
            {n + 1: p for n, p in enumerate(row["per_round"][:rounds]) if p is not None},
        )
        for row in ours["standings"]
    }
    assert other_tool_standings(plain) == mine

    copy_of = tournament_import(document=plain)
    assert copy_of.first_dealer_rule == Tournament.FirstDealerRule.SITE
    assert not Table.objects.filter(
        round__tournament=copy_of, first_dealer_seat__isnull=False
    ).exists()
    assert not copy_of.rounds.filter(closed_at__isnull=False).exists()
    assert standings_json(copy_of.slug)["standings"] == ours["standings"]
    # Seat 0 of the plain copy is the player who dealt deal 1 at the original table.
    four, _five = tables_of(drawn, 2)
    copy_four = Table.objects.get(round__tournament=copy_of, round__number=2, number=four.number)
    assert (
        copy_four.seats.get(position=0).player.file_id == four.seats.get(position=2).player.file_id
    )


SPOILED = {
    "a first dealer beyond the seats": (
        lambda site, four: next(e for e in site["tables"] if e["round"] == 2).update(
            first_dealer=4 if four else 5
        ),
        "first_dealer",
    ),
    "a closed round the file does not have": (
        lambda site, four: site["rounds"].append(
            {"round": 9, "closed_at": site["rounds"][0]["closed_at"]}
        ),
        "no round 9",
    ),
    "a closing time that is not a time": (
        lambda site, four: site["rounds"][0].update(closed_at="yesterday"),
        "closed_at must be a date and time",
    ),
    "a round closed twice": (
        lambda site, four: site["rounds"].append(dict(site["rounds"][0])),
        "listed more than once",
    ),
    "an unknown rule": (
        lambda site, four: site.update(first_dealer_rule="coin"),
        "first_dealer_rule",
    ),
}


@pytest.mark.parametrize("case", SPOILED)
def test_bad_first_dealers_and_closed_rounds_are_refused_with_their_place(drawn, case):
    document = tournament_export(tournament=drawn)
    site = document["settings"]["x-site"]
    entry = next(e for e in site["tables"] if e["round"] == 2)
    (table,) = [t for t in document["rounds"][1]["tables"] if t["number"] == entry["table"]]
    spoil, expected = SPOILED[case]
    spoil(site, len(table["seats"]) == 4)
    before = Tournament.objects.count()
    with pytest.raises(Refused) as refused:
        tournament_import(document=document)
    text = "\n".join(refused.value.lines())
    assert expected in text, text
    assert "settings/x-site" in text
    assert Tournament.objects.count() == before
