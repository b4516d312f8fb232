"""A tournament's end: the next step after the planned rounds, finishing (refused while
something is open, also from the command line), read-only once finished, reopening."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from tests.factories import played_tournament
from tests.sheets.helpers import stored_cells
from tests.table.helpers import changed_cells, save_via_link
from tournament.errors import FinishedRefusal, Refused, refusal_message
from tournament.models import Round, Tournament, TournamentFinish
from tournament.players.importing import PlayerRow
from tournament.players.services import players_register
from tournament.sheets.confirmations import sheet_confirm
from tournament.sheets.selectors import sheet_version_number
from tournament.sheets.services import sheet_record
from tournament.sheets.submission import SheetSubmission
from tournament.sheets.table_links import table_link_ensure
from tournament.standings.selectors import tournament_standings
from tournament.tournament_file.exporting import tournament_export
from tournament.tournament_file.importing import tournament_import, tournament_restore
from tournament.tournaments.finish import tournament_finish, tournament_open_items
from tournament.tournaments.services import tournament_update

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament(director):
    """Two rounds of two planned, every sheet played to the end (as imported: nothing waits
    for a confirmation)."""
    tournament = played_tournament(9, 2, director=director, public=True)
    Tournament.objects.filter(pk=tournament.pk).update(rounds_planned=2)
    tournament.refresh_from_db()
    return tournament


def _corrected(table, user):
    """The director corrects a complete sheet: a new version that waits for a confirmation."""
    return sheet_record(
        table=table,
        submission=SheetSubmission(
            cells=changed_cells(table),
            base_version=sheet_version_number(table),
            by_user=user,
        ),
    )


def test_after_the_planned_rounds_the_next_step_is_the_end(director_client, tournament):
    overview = director_client.get(reverse("tournament_detail", args=[tournament.slug]))
    html = overview.content.decode()
    assert "Volgende: de eindstand" in html
    assert reverse("tournament_finish", args=[tournament.slug]) in html
    assert "Of speel nog een ronde (ronde 3)" in html  # still possible, second
    rounds = director_client.get(reverse("round_list", args=[tournament.slug])).content.decode()
    assert "Nog een ronde spelen (ronde 3)" in rounds
    assert 'class="primary">Ronde 3 indelen' not in rounds  # no longer the primary button
    page = director_client.get(reverse("round_detail", args=[tournament.slug, 2]))
    assert "Volgende: de eindstand" in page.content.decode()
    standings = director_client.get(reverse("standings", args=[tournament.slug]))
    assert "<h1>Stand na ronde 2</h1>" in standings.content.decode()


def test_finishing_is_refused_naming_what_is_open(director_client, director, tournament):
    last = Round.objects.get(tournament=tournament, number=2)
    table = last.tables.order_by("number").first()
    _corrected(table, director)
    (item,) = tournament_open_items(tournament)
    assert (item.code, item.round, item.table) == ("sheet_unconfirmed", 2, table.number)

    response = director_client.post(reverse("tournament_finish", args=[tournament.slug]))
    assert response.status_code == 422
    html = response.content.decode()
    assert "Niet afgesloten: er staat nog 1 punt open" in html
    assert f"Ronde 2, tafel {table.number}" in html
    assert "Het formulier is nog niet bevestigd: bevestig het op de pagina van de ronde" in html
    named = f"Ronde 2, tafel {table.number}: Het formulier is nog niet bevestigd"
    with pytest.raises(CommandError, match=named):
        call_command("finish_tournament", tournament.slug)
    tournament.refresh_from_db()
    assert tournament.finished_at is None and not TournamentFinish.objects.exists()


def test_a_round_half_played_keeps_the_tournament_open(director, director_client):
    tournament = played_tournament(8, 2, last_round=[11, 6], director=director)
    Tournament.objects.filter(pk=tournament.pk).update(rounds_planned=2)
    overview = director_client.get(reverse("tournament_detail", args=[tournament.slug]))
    assert "Nu: ronde 2, de laatste geplande ronde" in overview.content.decode()
    assert "Volgende: ronde 3" not in overview.content.decode()
    items = tournament_open_items(tournament)
    assert [(i.code, i.round) for i in items] == [("table_unfinished", 2)]
    assert "6 van de 11 spellen" in items[0].message
    with pytest.raises(Refused):
        tournament_finish(tournament=tournament)

    # A file edited to say it was finished comes in open, and says why; a time the database
    # cannot hold is refused by name.
    document = tournament_export(tournament=tournament)
    document["settings"]["x-site"]["finished"] = {"at": "2026-11-29T17:02:45+00:00"}
    outcome = tournament_restore(document=document, slug="bewerkt")
    assert outcome.tournament.finished_at is None
    assert "ronde 2 is niet af: het is open ingelezen" in " ".join(outcome.notes)
    document["settings"]["x-site"]["finished"] = {"at": "9999-12-31T23:59:59+00:00"}
    with pytest.raises(Refused, match="finished/at"):
        tournament_restore(document=document, slug="te-laat")


def test_a_finished_tournament_is_final_read_only_and_can_be_reopened(
    director_client, director, tournament, settings, tmp_path, django_capture_on_commit_callbacks
):
    settings.BACKUP_DIR = tmp_path
    table = Round.objects.get(tournament=tournament, number=2).tables.order_by("number").first()
    link = table_link_ensure(table=table)
    with django_capture_on_commit_callbacks(execute=True):
        response = director_client.post(reverse("tournament_finish", args=[tournament.slug]))
    assert response["Location"] == reverse("standings", args=[tournament.slug])
    tournament.refresh_from_db()
    assert tournament.finished_by == director
    (record,) = TournamentFinish.objects.all()
    assert record.action == TournamentFinish.Action.FINISHED and record.by == director
    (backup,) = tmp_path.rglob("*-final-*.json")
    assert record.backup == backup.name
    # The final backup restores a finished tournament, by the same director, prizes kept.
    Tournament.objects.filter(pk=tournament.pk).update(prize_places=5, prize_last_place=True)
    document = tournament_export(tournament=Tournament.objects.get(pk=tournament.pk))
    restored = tournament_import(document=document, slug="terug")
    assert (restored.finished_at, restored.finished_by) == (tournament.finished_at, director)
    assert (restored.prize_places, restored.prize_last_place) == (5, True)
    assert restored.finishes.get().at == tournament.finished_at

    standings = director_client.get(reverse("standings", args=[tournament.slug])).content.decode()
    assert "<h1>Eindstand, " in standings and 'id="finished-banner"' in standings
    public = Client().get(reverse("public_home", args=[tournament.slug])).content.decode()
    assert "Het toernooi is afgelopen" in public
    assert "Waar zit ik" not in public.split('data-live="seating"')[0]
    podium = public.split('id="podium"')[1].split("</ol>")[0]
    leader = tournament_standings(tournament).rows[0]
    assert tournament.players.get(pk=leader.player).name in podium
    # Each name of the public standings opens the player's own page, after the end too.
    listed = Client().get(reverse("public_standings", args=[tournament.slug])).content.decode()
    assert reverse("public_player", args=[tournament.slug, leader.player]) in listed

    # Nothing changes: a sheet (the director's page, a table's link), seating, players.
    before = stored_cells(table)
    with pytest.raises(Refused) as refused:
        _corrected(table, director)
    assert refused.value.code == FinishedRefusal.FINISHED
    answer = save_via_link(Client(), link, changed_cells(table))
    assert answer.status_code == 409 and stored_cells(table) == before
    assert "het toernooi is afgesloten" in answer.json()["message"]
    seat = director_client.post(reverse("round_seat", args=[tournament.slug]), follow=True)
    assert refusal_message(FinishedRefusal.FINISHED) in seat.content.decode()
    assert tournament.rounds.count() == 2
    with pytest.raises(Refused):
        players_register(tournament=tournament, rows=[PlayerRow(line=1, name="Laat", club="")])
    sheet_page = director_client.get(
        reverse("sheet_edit", args=[tournament.slug, 2, table.number])
    ).content.decode()
    assert '<fieldset class="sheet-fields" disabled>' in sheet_page

    # The settings still save, but what ranks and counts the final standings does not change.
    edit = reverse("tournament_edit", args=[tournament.slug])
    form = director_client.get(edit).context["form"]
    posted = {k: v for k, v in form.initial.items() if v is not None and k != "date"}
    posted |= {"name": "Anders", "tiebreak_1": "fewer_bollen", "confirmation_rule": "none"}
    posted["table_sizes"] = [4, 5]
    assert director_client.post(edit, posted).status_code == 302
    tournament.refresh_from_db()
    assert tournament.name == "Anders" and tournament.tiebreaks[0] == "tournament_points"
    assert tournament.confirmation_rule != "none"
    with pytest.raises(Refused):
        tournament_update(tournament=tournament, tiebreaks=["fewer_bollen", "more_correct"])

    out = io.StringIO()
    call_command("finish_tournament", tournament.slug, "--reopen", stdout=out)
    assert "is weer open" in out.getvalue()
    tournament.refresh_from_db()
    assert tournament.finished_at is None
    assert list(tournament.finishes.values_list("action", flat=True)) == [
        TournamentFinish.Action.REOPENED,
        TournamentFinish.Action.FINISHED,
    ]
    _corrected(table, director)  # open again: the correction is taken
    assert stored_cells(table) != before


def test_the_command_finishes_a_complete_tournament(director, tournament, django_user_model):
    table = Round.objects.get(tournament=tournament, number=1).tables.order_by("number").first()
    saved = _corrected(table, director)
    checker = django_user_model.objects.create_user("checker")
    tournament.scorers.add(checker)  # a second person confirms the director's correction
    sheet_confirm(table=table, by_user=checker, version=saved.version)
    out = io.StringIO()
    call_command("finish_tournament", tournament.slug, "--by", "checker", stdout=out)
    assert "is afgesloten" in out.getvalue()
    tournament.refresh_from_db()
    assert tournament.finished_by == checker


def test_settings_saved_from_a_page_loaded_before_the_finish_keep_it_finished(director, tournament):
    page_copy = Tournament.objects.get(pk=tournament.pk)  # the settings page, opened earlier
    tournament_finish(tournament=tournament, by_user=director)
    tournament_update(tournament=page_copy, name="Anders")
    tournament.refresh_from_db()
    assert tournament.name == "Anders" and tournament.finished_at is not None


def test_replacing_a_finished_tournament_from_the_command_line_says_so(
    director, tournament, tmp_path
):
    finished = tournament_finish(tournament=tournament, by_user=director)
    path = tmp_path / "backup.json"
    path.write_text(json.dumps(tournament_export(tournament=finished)), encoding="utf-8")
    out = io.StringIO()
    call_command("import_tournament", str(path), "--slug", finished.slug, "--replace", stdout=out)
    assert "Het was afgesloten op" in out.getvalue()
    assert Tournament.objects.get(slug=finished.slug).finished_at == finished.finished_at
