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
        run("export_competition", slug, "-o", str(file))
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
    output = "\n".join([created, added, imported, planned, str(unknown.value), str(broken.value)])
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
