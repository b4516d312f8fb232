"""The site's ``manage.py`` commands: every option is explained in ``--help``, and what a command
prints speaks one language, the active one (Dutch by default), with its plurals."""

from __future__ import annotations

import argparse
import io
import json

import pytest
from django.core.management import call_command, get_commands, load_command_class
from django.core.management.base import CommandError
from django.utils import translation

from tests.factories import played_tournament
from tests.season.conftest import NAMES, evening

# The options every Django command has; Django explains them itself.
DJANGO_OPTIONS = {
    "help",
    "version",
    "verbosity",
    "settings",
    "pythonpath",
    "traceback",
    "no_color",
    "force_color",
    "skip_checks",
}

# Words of the English output that once slipped into the Dutch (and their neighbours).
ENGLISH = (
    "Imported",
    "Wrote",
    "Written",
    "evening",
    "Evening",
    "Round",
    "table ",
    "repeated",
    "meetings",
    "Note:",
    "problem",
    "There is no",
)


def site_commands() -> list[str]:
    return sorted(name for name, app in get_commands().items() if app == "tournament")


def test_every_option_of_every_command_has_help():
    names = site_commands()
    assert {"import_tournament", "plan_seating", "print_sheets", "competition_create"} <= set(names)
    missing = []
    for name in names:
        command = load_command_class("tournament", name)
        assert str(command.help).strip(), name
        parser = command.create_parser("manage.py", name)
        for action in parser._actions:
            if action.dest in DJANGO_OPTIONS:
                continue
            if not action.help or action.help == argparse.SUPPRESS:
                missing.append(f"{name} {'/'.join(action.option_strings) or action.dest}")
    assert missing == []
    help_text = load_command_class("tournament", "export_standings").create_parser(
        "manage.py", "export_standings"
    )
    assert "--format" in help_text.format_help() and "-o OUTPUT" in help_text.format_help()


def run(*args: str) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out, stderr=out)
    return out.getvalue()


@pytest.mark.django_db
def test_the_commands_speak_dutch_with_dutch_plurals(tmp_path):
    """(The print commands' "Written: FILE" is checked in tests/printing/test_print_commands.)"""
    first = evening(1, NAMES, finished=False)
    second = evening(2, NAMES[:8], finished=False)
    file = tmp_path / "seizoen.json"
    with translation.override("nl"):
        created = run("competition_create", "--name", "Clubkampioen", "--tournament", first.slug)
        slug = created.strip().splitlines()[-1]
        added = run("competition_add", slug, "--tournament", second.slug)
        exported = run("export_competition", slug, "-o", str(file))
        document = json.loads(file.read_text(encoding="utf-8"))
        document["slug"] = "kopie"
        file.write_text(json.dumps(document), encoding="utf-8")
        imported = run("import_competition", str(file))
        planned = run("plan_seating", "--players", "9", "--rounds", "2", "--time-limit", "1")
        with pytest.raises(CommandError) as unknown:
            run("finish_tournament", "bestaat-niet")
        with pytest.raises(CommandError) as broken:
            (tmp_path / "kapot.json").write_text('{"format": "bollen-competition"}')
            run("import_competition", str(tmp_path / "kapot.json"))
    output = "\n".join(
        [created, added, exported, imported, planned, str(unknown.value), str(broken.value)]
    )
    assert exported == (
        f"Opgeslagen: {file} (het competitiebestand van “Clubkampioen” met 2 avonden).\n"
    )
    assert "Clubkampioen (1 avond)" in created
    assert f"Avond 2: {second.name}" in added
    assert "Geïmporteerd: “Clubkampioen” met 2 avonden." in imported
    assert "Ronde 2" in planned and "tafel 1 (" in planned
    assert "bestaat-niet" in str(unknown.value)
    assert "niets geïmporteerd" in str(broken.value)
    assert [word for word in ENGLISH if word in output] == []
    with translation.override("en"):
        assert "Clubkampioen 2 (1 evening)" in run(
            "competition_create", "--name", "Clubkampioen 2", "--tournament", first.slug
        )
        assert "(2 evenings)" in run(
            "competition_create", "--name", "Clubkampioen 3", "--tournament", first.slug,
            "--tournament", second.slug,
        )  # fmt: skip


@pytest.mark.django_db
def test_without_a_chosen_language_the_commands_speak_the_sites_default(settings):
    """Django activates no language for a command: the site's LANGUAGE_CODE (Dutch) speaks."""
    assert settings.LANGUAGE_CODE == "nl"
    tournament = played_tournament(8, rounds=1)
    translation.deactivate()
    with pytest.raises(CommandError, match="Er is geen toernooi"):
        call_command("finish_tournament", "bestaat-niet")
    out = run("finish_tournament", tournament.slug, "--reopen")
    assert out == f"{tournament.name} is niet afgesloten: er is niets te heropenen.\n"


def run_apart(*args: str) -> tuple[str, str]:
    """What a command writes to standard output and to standard error."""
    out, err = io.StringIO(), io.StringIO()
    call_command(*args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


@pytest.mark.django_db
def test_the_exports_say_what_they_wrote_and_where_apart_from_the_data(tmp_path):
    tournament = played_tournament(8, rounds=1)
    backup, sheet = tmp_path / "backup.json", tmp_path / "stand.xlsx"
    with translation.override("nl"):
        assert run_apart("export_tournament", tournament.slug, "-o", str(backup)) == (
            f"Opgeslagen: {backup} (het toernooibestand van “{tournament.name}”).\n",
            "",
        )
        data, said = run_apart("export_tournament", tournament.slug, "--no-site")
        assert json.loads(data)["name"] == tournament.name  # the data alone
        assert said == (
            f"Naar de standaarduitvoer geschreven: het toernooibestand van “{tournament.name}”, "
            "zonder de gegevens van de site.\n"
        )
        data, said = run_apart("export_standings", tournament.slug, "--format", "csv", "-o", "-")
        assert data.count("\n") > 8 and "Speler 1;" in data  # the rows alone
        assert said == (
            "Naar de standaarduitvoer geschreven: "
            f"het klassement van “{tournament.name}” als CSV.\n"
        )
        with pytest.raises(CommandError, match=r"-o BESTAND\.xlsx"):
            run_apart("export_standings", tournament.slug, "--format", "xlsx", "-o", "-")
        out, said = run_apart(
            "export_standings", tournament.slug, "--format", "xlsx", "-o", str(sheet)
        )
        assert (out, said) == (
            f"Opgeslagen: {sheet} (het klassement van “{tournament.name}” als Excel).\n",
            "",
        )
    assert sheet.read_bytes()[:2] == b"PK"
    with translation.override("en"):
        out, _said = run_apart("export_tournament", tournament.slug, "-o", str(backup))
    assert out == f"Written: {backup} (the tournament file of “{tournament.name}”).\n"


def refused(path) -> tuple[list[str], str]:
    """The lines an import writes to standard error, and its closing error."""
    err = io.StringIO()
    with pytest.raises(CommandError) as caught:
        call_command("import_tournament", str(path), stdout=io.StringIO(), stderr=err)
    return err.getvalue().splitlines(), str(caught.value)


@pytest.mark.django_db
def test_a_refused_file_tells_each_problem_once_with_where_it_is(tmp_path):
    """jsonschema reports each missing field apart; the same field missing from several players
    is one problem naming them all, in the file's order; fields are counted in the grammar."""
    players = [{"id": f"p{n}", "name": f"Speler {n}"} for n in range(1, 13)]
    for n in (2, 3, 5, 7, 8, 10, 11):
        del players[n]["name"]
    players[4]["naam"] = "Tikfout"
    broken = {
        "format": "bollen-tournament",
        "version": 1,
        "name": "Kapot",
        "players": players,
        "rounds": [{"number": 1, "tables": [{"seats": ["p1", "p2", "p3", "p4"]}]}],
    }
    path, empty = tmp_path / "kapot.json", tmp_path / "leeg.json"
    path.write_text(json.dumps(broken), encoding="utf-8")
    empty.write_text(json.dumps({"rounds": []}), encoding="utf-8")
    with translation.override("nl"):
        assert refused(path) == (
            [
                "Het veld name ontbreekt, op 7 plaatsen: players/2, players/3, players/5, "
                "players/7, players/8 en nog 2",
                "Speler p5: players/4: onbekend veld naam (een tikfout?)",
                "Ronde 1, tafel 1: rounds/0/tables/0: het veld number ontbreekt",
            ],
            f"{path}: 3 problemen; er is niets geïmporteerd.",
        )
        assert refused(empty) == (
            ["Het bestand: de velden format, version, name, players ontbreken"],
            f"{empty}: 1 probleem; er is niets geïmporteerd.",
        )
    with translation.override("en"):
        lines, _closing = refused(empty)
    assert lines == ["The file: the fields format, version, name, players are missing"]
