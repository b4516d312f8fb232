"""Automatic backups after every completed round, and restoring one with the site's records:
sheet history, confirmations, table links with their tokens, and the team."""

import io
import json
import random
import uuid

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse
from django.utils import translation
from jsonschema import Draft202012Validator

from scoring.simulate import simulate_deal
from tests.factories import played_tournament, sheet_version_stored
from tournament.adapter import load_table_sheets, sheet_scores_refresh, table_sheet
from tournament.errors import FileCode, Refused
from tournament.models import (
    SheetConfirmation,
    SheetVersion,
    Table,
    TableLink,
    Tournament,
)
from tournament.sheets.confirmations import sheet_confirm
from tournament.sheets.content import SheetContent
from tournament.sheets.services import sheet_record, sheet_restore
from tournament.sheets.submission import SheetConflict, SheetSubmission
from tournament.sheets.table_links import table_link_ensure, table_link_issue
from tournament.tournament_file.backups import round_backup_when_complete
from tournament.tournament_file.exporting import tournament_export
from tournament.tournament_file.importing import tournament_import
from tournament.tournament_file.reading import SCHEMA_PATH

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    """The messages these tests read, in English (the site's default is Dutch)."""
    with translation.override("en"):
        yield


def finish_round(tournament, number):
    """Enter the missing deals of every table of a round (a version each, without the save
    service: the caller asks for the backup)."""
    rng = random.Random(7)
    for table in Table.objects.filter(round__tournament=tournament, round__number=number):
        sheet = table_sheet(table).sheet
        played = sum(deal.is_complete for deal in sheet.deals)
        cells = cells_of(table)
        for deal in range(played + 1, 12):
            bids, tricks = simulate_deal(deal, sheet.n_seats, rng)
            for seat, (bid, won) in enumerate(zip(bids, tricks, strict=True)):
                cells[deal, seat] = (bid, won)
        sheet_version_stored(table, cells, [(p.deal, p.seat) for p in sheet.penalties])


def test_completing_a_round_writes_a_backup_that_restores_exactly(
    settings, tmp_path, django_capture_on_commit_callbacks
):
    settings.BACKUP_DIR = tmp_path
    tournament = played_tournament(8, rounds=2, last_round=[11, 5])
    assert not list(tmp_path.rglob("*.json"))  # importing is not a completed round

    finish_round(tournament, 2)
    with django_capture_on_commit_callbacks(execute=True):
        sheet_scores_refresh(tournament=tournament)
        round_backup_when_complete(tournament.rounds.get(number=2))
    (backup,) = tmp_path.rglob("*.json")
    assert "round-2" in backup.name

    original = tournament_export(tournament=tournament)
    tournament.delete()
    call_command("import_tournament", str(backup), "--slug", original_slug(backup))
    restored = Tournament.objects.get()
    assert tournament_export(tournament=restored) == original
    assert json.loads(backup.read_text(encoding="utf-8")) == original


def original_slug(path):
    return path.parent.name


def test_restore_refuses_a_slug_in_use(tmp_path, capsys):
    tournament = played_tournament(8, rounds=1)
    path = tmp_path / "t.json"
    path.write_text(json.dumps(tournament_export(tournament=tournament)), encoding="utf-8")
    with pytest.raises(CommandError):
        call_command("import_tournament", str(path), "--slug", tournament.slug)
    assert tournament.slug in capsys.readouterr().err
    assert Tournament.objects.count() == 1


# ---- the site's records in a backup: history, confirmations, table links, team ----


def cells_of(table):
    """The table's cells as ``sheet_record`` takes them, read from the stored sheet."""
    return SheetContent.of_sheet(table_sheet(table).sheet).cell_map


def save(table, cells, *, base, user, key=None, ip="192.168.1.31"):
    return sheet_record(
        table=table,
        submission=SheetSubmission(
            cells=cells,
            penalties=[],
            base_version=base,
            idempotency_key=key or uuid.uuid4(),
            by_user=user,
            via=SheetVersion.Via.TABLE_LINK,
            ip=ip,
        ),
    )


@pytest.fixture
def team(django_user_model):
    """The director and a scorer, as accounts of this database."""
    director = django_user_model.objects.create_user(username="directeur", password="x" * 12)
    scorer = django_user_model.objects.create_user(username="anna", password="y" * 12)
    return director, scorer


@pytest.fixture
def busy_tournament(team):
    """A tournament in its second round with everything a backup must keep: a history with
    version 0, a conflict record, a restore and bids still being made; a confirmation; table
    links (one revoked); co-director and scorer; a confirmation rule of its own."""
    director, scorer = team
    tournament = played_tournament(8, rounds=2, last_round=[5, 5], director=director)
    tournament.scorers.add(scorer)
    tournament.confirmation_rule = Tournament.ConfirmationRule.RETYPE
    tournament.count_unconfirmed = False
    tournament.save()
    round1 = Table.objects.filter(round__tournament=tournament, round__number=1)
    done = round1.get(number=1)
    full = cells_of(done)
    shorter = {place: value for place, value in full.items() if place[0] < 11}
    save(done, shorter, base=0, user=scorer)  # versions 0 (as imported) and 1
    save(done, full, base=1, user=scorer)  # version 2
    sheet_confirm(table=done, version=2, by_user=director)

    playing = Table.objects.get(round__tournament=tournament, round__number=2, number=1)
    rng = random.Random(3)
    cells = cells_of(playing)
    bids, tricks = simulate_deal(6, 4, rng)
    cells.update({(6, seat): (bids[seat], tricks[seat]) for seat in range(4)})
    save(playing, cells | {(7, 0): (0, None)}, base=0, user=scorer)  # versions 0 and 1
    with pytest.raises(SheetConflict):  # the same box typed differently from version 0
        save(playing, cells_of(playing) | {(7, 0): (1, None)}, base=0, user=director)
    conflict = SheetVersion.objects.get(table=playing, number=None)
    sheet_restore(
        table=playing,
        version_id=conflict.pk,
        submission=SheetSubmission(base_version=1, idempotency_key=uuid.uuid4(), by_user=director),
    )  # version 2: the conflict record applied, bids of deal 7 under way
    table_link_issue(table=playing, by_user=director)
    table_link_issue(table=playing, by_user=director)  # the first one is revoked now
    table_link_ensure(table=done, by_user=director)
    return tournament


def restore_command(path, *args):
    out = io.StringIO()
    call_command("import_tournament", str(path), *args, stdout=out)
    return out.getvalue()


def write_backup(tmp_path, tournament):
    path = tmp_path / f"{tournament.slug}.json"
    path.write_text(json.dumps(tournament_export(tournament=tournament)), encoding="utf-8")
    return path


def test_a_backup_is_a_valid_v1_file():
    """Other tools read backups with the v1 schema: the site's records must not break it."""
    tournament = played_tournament(8, rounds=1)
    document = tournament_export(tournament=tournament)
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    assert "x-site" in document["settings"]
    Draft202012Validator(schema).validate(document)


def test_restore_keeps_history_confirmations_links_and_team(busy_tournament, tmp_path, client):
    tournament = busy_tournament
    original = tournament_export(tournament=tournament)
    sheets_before = [s.sheet for s in load_table_sheets(tournament=tournament)]
    link = TableLink.objects.get(table__round__number=2, table__number=1, revoked_at=None)
    path = write_backup(tmp_path, tournament)
    slug = tournament.slug
    tournament.delete()

    output = restore_command(path, "--slug", slug)

    restored = Tournament.objects.get(slug=slug)
    assert output.strip().splitlines()[-1] == slug
    assert "Note:" not in output
    assert tournament_export(tournament=restored) == original
    assert [s.sheet for s in load_table_sheets(tournament=restored)] == sheets_before
    playing = Table.objects.get(round__tournament=restored, round__number=2, number=1)
    versions = list(SheetVersion.objects.filter(table=playing))
    assert [v.number for v in versions] == [0, 1, None, 2]
    assert versions[3].restored_from == versions[2]
    assert versions[1].user.username == "anna"
    assert versions[1].ip == "192.168.1.31"
    confirmation = SheetConfirmation.objects.get(version__table__round__tournament=restored)
    assert (confirmation.version.number, confirmation.user.username) == (2, "directeur")
    assert sorted(u.username for u in restored.directors.all()) == ["directeur"]
    assert [u.username for u in restored.scorers.all()] == ["anna"]
    assert restored.confirmation_rule == Tournament.ConfirmationRule.RETYPE
    assert restored.count_unconfirmed is False
    # The printed QR code of the table still opens it.
    response = client.get(reverse("table_entry", args=[link.token]))
    assert response.status_code == 200
    assert response.context["table"].pk == playing.pk


def test_a_restore_lists_missing_accounts_and_creates_none(
    busy_tournament, tmp_path, django_user_model
):
    path = write_backup(tmp_path, busy_tournament)
    busy_tournament.delete()
    django_user_model.objects.filter(username="anna").delete()

    output = restore_command(path, "--slug", "hersteld")

    assert "anna (team: scorer, saved a sheet)" in output
    assert not django_user_model.objects.filter(username="anna").exists()
    restored = Tournament.objects.get(slug="hersteld")
    assert not restored.scorers.exists()
    saved = SheetVersion.objects.filter(table__round__tournament=restored, number__gt=0)
    assert saved.filter(user=None).count() == 3  # anna's three saves, now without an account


def test_restoring_beside_the_original_gives_the_copy_new_links(busy_tournament, tmp_path, client):
    path = write_backup(tmp_path, busy_tournament)
    tokens = set(TableLink.objects.values_list("token", flat=True))

    output = restore_command(path)

    copy = Tournament.objects.exclude(pk=busy_tournament.pk).get()
    # The two tables with a link that is not revoked, in one note.
    assert output.count("Note:") == 1
    assert "The table links of rounds 1, 2 (table 1) are still in use" in output
    assert f"({busy_tournament.slug})" in output
    copied = set(
        TableLink.objects.filter(table__round__tournament=copy).values_list("token", flat=True)
    )
    assert len(copied) == 3 and not copied & tokens
    # The printed codes keep opening the original.
    link = TableLink.objects.get(
        table__round__tournament=busy_tournament, revoked_at=None, table__round__number=2
    )
    response = client.get(reverse("table_entry", args=[link.token]))
    assert response.context["table"].round.tournament_id == busy_tournament.pk


def test_replace_restores_in_place_of_the_original_with_its_tokens(busy_tournament, tmp_path):
    original = tournament_export(tournament=busy_tournament)
    path = write_backup(tmp_path, busy_tournament)
    round_two = Table.objects.get(round__tournament=busy_tournament, round__number=2, number=2)
    save(round_two, cells_of(round_two) | {(6, 0): (0, None)}, base=0, user=None)  # made later

    output = restore_command(path, "--slug", busy_tournament.slug, "--replace")

    assert "Deleted the tournament" in output and "Note:" not in output
    restored = Tournament.objects.get()
    assert restored.pk != busy_tournament.pk
    assert tournament_export(tournament=restored) == original


def test_replace_keeps_the_original_when_the_file_is_refused(busy_tournament, tmp_path):
    document = tournament_export(tournament=busy_tournament)
    document["settings"]["x-site"]["tables"][0]["versions"][0]["cells"][0][0] = [9, 9]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(CommandError):
        restore_command(path, "--slug", busy_tournament.slug, "--replace")
    assert Tournament.objects.get().pk == busy_tournament.pk


def test_replace_needs_a_slug(busy_tournament, tmp_path):
    path = write_backup(tmp_path, busy_tournament)
    with pytest.raises(CommandError, match="--slug"):
        restore_command(path, "--replace")


def test_bad_site_records_are_refused_with_their_places_and_nothing_is_stored(busy_tournament):
    document = tournament_export(tournament=busy_tournament)
    site = document["settings"]["x-site"]
    first, second = site["tables"][0], site["tables"][1]  # round 1 table 1, round 2 table 1
    assert (first["round"], first["table"], second["round"], second["table"]) == (1, 1, 2, 1)
    first["versions"][2]["confirmation"] = {"method": "look"}
    first["versions"][1]["cells"][0] = first["versions"][1]["cells"][0][:3]  # a seat short
    second["versions"][2]["confirmation"] = {"method": "look"}  # the conflict record
    second["versions"][1]["saved_at"] = "yesterday"
    second["links"][1]["token"] = first["links"][0]["token"]  # one token, two links
    del second["links"][0]["revoked_at"]  # two links that are not revoked
    site["tables"].append({"round": 9, "table": 1})
    count = Tournament.objects.count()

    with pytest.raises(Refused) as refused:
        tournament_import(document=document)

    places = {(p.round, p.table, p.message.split(": ")[-1]) for p in refused.value.problems}
    assert all(p.code == FileCode.SITE for p in refused.value.problems)
    messages = "\n".join(str(p) for p in refused.value.problems)
    assert "do not fit the 4 seats" in messages
    assert "a conflict record cannot be confirmed" in messages
    assert "saved_at must be a date and time" in messages
    assert "more than one link" in messages
    assert "at most one link that is not revoked" in messages
    assert (9, 1, "the file has no such table in this round.") in places
    assert all(p.round is not None and p.table is not None for p in refused.value.problems)
    assert Tournament.objects.count() == count


def test_a_latest_version_that_differs_from_the_sheet_is_refused(busy_tournament):
    document = tournament_export(tournament=busy_tournament)
    document["rounds"][0]["tables"][0]["deals"].pop()  # the sheet lost deal 11, history not
    with pytest.raises(Refused) as refused:
        tournament_import(document=document)
    (problem,) = refused.value.problems
    assert (problem.round, problem.table) == (1, 1)
    assert "latest version (2)" in problem.message


def test_the_schema_of_site_records_names_the_place(busy_tournament):
    document = tournament_export(tournament=busy_tournament)
    document["settings"]["x-site"]["tables"][1]["links"][0]["token"] = "kort"
    with pytest.raises(Refused) as refused:
        tournament_import(document=document)
    (problem,) = refused.value.problems
    assert (problem.round, problem.table) == (2, 1)
    assert "settings/x-site/tables/1/links/0/token" in problem.message


def test_export_without_site_records_leaves_them_out(busy_tournament, tmp_path):
    path = tmp_path / "plain.json"
    call_command("export_tournament", busy_tournament.slug, "--no-site", "-o", str(path))
    document = json.loads(path.read_text(encoding="utf-8"))
    assert "x-site" not in document["settings"]
    copy = tournament_import(document=document)
    # Each sheet is its version 0, as the file has it; no history, no conflict records.
    versions = SheetVersion.objects.filter(table__round__tournament=copy)
    assert set(versions.values_list("number", flat=True)) == {0}
    assert not TableLink.objects.filter(table__round__tournament=copy).exists()
