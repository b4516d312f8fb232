"""The site's ``manage.py`` commands: every option is explained in ``--help``, and what a command
prints speaks one language, the active one (Dutch by default), with its plurals."""

from __future__ import annotations

import argparse
import datetime
import io
import json

import pytest
from django.core.management import call_command, get_commands, load_command_class
from django.core.management.base import CommandError
from django.db import transaction
from django.utils import translation

from tests.factories import played_tournament
from tests.printing.reading import pdf_page_images, qr_texts
from tests.season.conftest import NAMES, evening
from tournament.management.base import SiteCommandParser
from tournament.models import Round, Tournament
from tournament.tournament_file.site_restore import tables_text
from tournament.venue import network, server_record
from tournament.venue.server_record import BindSource, ServerBind, server_bind_record

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
        assert isinstance(parser, SiteCommandParser), name  # its mistakes in the site's language
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


# ---- where the QR codes of a printout point, said by the command ----

LAPTOP = "192.168.1.20"


@pytest.fixture
def laptop_on_wifi(monkeypatch, settings, tmp_path):
    """The club laptop: its network address, no SITE_URL, no BIND in this shell, and a key
    folder of its own (where ``make run`` records the port it listens on)."""
    monkeypatch.setattr(network, "primary_address", lambda: LAPTOP)
    monkeypatch.setattr(network, "machine_addresses", lambda: [LAPTOP])
    monkeypatch.setattr(network, "machine_names", lambda: ["clublaptop", "clublaptop.local"])
    monkeypatch.delenv("BIND", raising=False)
    settings.SITE_URL = ""
    settings.SECRET_KEY_FILE = tmp_path / "keys" / ".secret_key"
    settings.SECRET_KEY_FILE.parent.mkdir()


@pytest.mark.django_db
def test_print_sheets_uses_the_port_the_site_was_started_on_and_says_so(
    tmp_path, laptop_on_wifi, monkeypatch
):
    """`BIND=0.0.0.0:8057 make run`, then print_sheets in another window without BIND: the QR
    codes open port 8057, as the print page's do, and the command says where they point."""
    tournament = played_tournament(8, rounds=1)
    server_bind_record("0.0.0.0:8057")  # what serve records once it listens
    assert server_record.server_bind() == ServerBind("0.0.0.0:8057", BindSource.RECORDED)
    monkeypatch.setattr(server_record, "answers", lambda host, port: True)
    output = tmp_path / "f.pdf"
    out, err = run_apart("print_sheets", tournament.slug, "--round", "1", "-o", str(output))
    site = f"http://{LAPTOP}:8057"
    assert out.splitlines()[-1] == (
        f"De QR-codes wijzen naar {site}: het netwerkadres van deze laptop, met de poort waarop "
        "de site het laatst is gestart (BIND=0.0.0.0:8057)."
    )
    assert err == ""  # something answers there: nothing to warn about
    codes = [t for page in pdf_page_images(output.read_bytes()) for i in page for t in qr_texts(i)]
    assert len(codes) == 2 and all(code.startswith(f"{site}/s/") for code in codes)

    # The site is not running (or on another port): said, with how to change the address.
    monkeypatch.setattr(server_record, "answers", lambda host, port: False)
    monkeypatch.setenv("BIND", "0.0.0.0:8000")  # this shell's BIND wins over the record
    out, err = run_apart("print_seating", tournament.slug, "--round", "1", "-o", str(output))
    assert "QR" not in out  # public pages off: the seating list has no QR code
    tournament.public = True
    tournament.save(update_fields=["public"])
    out, err = run_apart("print_seating", tournament.slug, "--round", "1", "-o", str(output))
    assert out.splitlines()[-1] == (
        f"De QR-code wijst naar http://{LAPTOP}:8000: het netwerkadres van deze laptop, met de "
        "poort van BIND=0.0.0.0:8000."
    )
    assert err.startswith(f"Op http://{LAPTOP}:8000 antwoordt nu niets: draait de site wel?")
    assert "pagina ‘Adres voor telefoons’" in err  # noqa: RUF001


def test_the_record_of_the_server_is_per_database_and_survives_a_bad_file(laptop_on_wifi):
    assert server_record.recorded_bind() is None
    assert server_record.server_bind().source == BindSource.DEFAULT
    server_bind_record("[::]:8123")
    assert server_record.recorded_bind() == "[::]:8123"
    records = json.loads(server_record.record_path().read_text(encoding="utf-8"))
    assert len(records) == 1 and "[::]:8123" in str(records)
    records = {f"another database {n}": {"bind": "0.0.0.0:1"} for n in range(12)}
    server_record.record_path().write_text(json.dumps(records), encoding="utf-8")
    assert server_record.recorded_bind() is None  # another database's server is not this one's
    server_bind_record("127.0.0.1:8124")
    kept = json.loads(server_record.record_path().read_text(encoding="utf-8"))
    assert len(kept) == server_record.RECORDS_KEPT and server_record.recorded_bind() == (
        "127.0.0.1:8124"
    )
    server_record.record_path().write_text("{kapot", encoding="utf-8")
    assert server_record.recorded_bind() is None


# ---- argparse's mistakes, in the site's language ----


def test_mistakes_in_the_arguments_are_said_in_dutch(capsys):
    with translation.override("nl"):
        for args, message in [
            (["print_sheets", "t"], "Verplicht, maar niet opgegeven: -o/--output."),
            (["print_sheets", "t", "--round", "x", "-o", "f.pdf"], "--round moet een geheel "),
            (
                ["export_standings", "t", "--format", "pdf"],
                "--format: “pdf” is geen van de keuzes (json, csv, xlsx).",
            ),
            (["finish_tournament", "t", "extra"], "Onbekend argument: extra."),
        ]:
            with pytest.raises(CommandError) as caught:
                call_command(*args)
            assert str(caught.value).startswith(message), args
        # From the shell: the usage, then the mistake, and exit status 2.
        command = load_command_class("tournament", "print_sheets")
        with pytest.raises(SystemExit) as exited:
            command.run_from_argv(["manage.py", "print_sheets", "t", "--round"])
    assert exited.value.code == 2
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("Gebruik: manage.py print_sheets [-h]")
    assert err[1].startswith(" " * len("Gebruik: manage.py print_sheets "))  # lined up
    assert err[-1] == "manage.py print_sheets: --round heeft een waarde nodig."


# ---- import_tournament: the file's problems, in Dutch ----


@pytest.mark.django_db
def test_an_import_says_in_dutch_why_it_cannot_read_the_file(tmp_path):
    missing, empty, broken, shapeless = (
        tmp_path / name for name in ("geen.json", "leeg.json", "kapot.json", "vorm.json")
    )
    empty.write_text("\n", encoding="utf-8")
    broken.write_text('{"format": "bollen-tournament",}', encoding="utf-8")
    shapeless.write_text(
        json.dumps(
            {
                "format": "bollen-tournament",
                "version": 1,
                "name": "Vorm",
                "players": [{"id": "p1", "name": ""}, {"name": "Anna"}, {"id": "p3", "name": "B"}],
                "rounds": [],
            }
        ),
        encoding="utf-8",
    )
    with translation.override("nl"):
        for path, reason in [
            (missing, "dat bestand of die map bestaat niet"),
            (tmp_path, "dat is een map, geen bestand"),
        ]:
            with pytest.raises(CommandError) as caught:
                run("import_tournament", str(path))
            assert str(caught.value) == f"Kan {path} niet lezen: {reason}"
        assert refused(empty)[0] == ["Het bestand is leeg: er staat geen toernooi in."]
        assert refused(broken)[0] == [
            "Het bestand is geen geldige JSON (regel 1, kolom 32): daar hoort een veldnaam tussen "
            "dubbele aanhalingstekens te staan (een komma te veel?)."
        ]
        lines, closing = refused(shapeless)
    assert lines == [
        "Speler p1: players/0/name: moet minstens 1 teken hebben",
        "Speler Anna: players/1: het veld id ontbreekt",  # named as the player without id is
    ]
    assert closing == f"{shapeless}: 2 problemen; er is niets geïmporteerd."


def test_the_tables_of_a_note_are_grouped_by_round():
    with translation.override("nl"):
        assert tables_text({(r, t) for r in (1, 2, 3, 4) for t in range(1, 11)}) == (
            "rondes 1–4 (tafels 1–10)"  # noqa: RUF001
        )
        assert tables_text({(1, 1), (1, 2), (1, 3), (1, 5), (3, 2), (2, 7), (2, 8)}) == (
            "ronde 1 (tafels 1–3, 5), ronde 2 (tafels 7, 8) en ronde 3 (tafel 2)"  # noqa: RUF001
        )


# ---- finish_tournament: when, where the backup is, what is open ----


@pytest.mark.django_db
def test_finish_tournament_names_the_backup_the_local_time_and_each_open_round_once(
    settings, tmp_path, monkeypatch
):
    settings.BACKUP_DIR = tmp_path
    tournament = played_tournament(8, rounds=2)
    Round.objects.filter(tournament=tournament, number=2).update(published=False)
    with translation.override("nl"):
        with pytest.raises(CommandError) as caught:
            run("finish_tournament", tournament.slug)
        assert str(caught.value).splitlines() == [
            f"{tournament.name} kan nog niet worden afgesloten; nog open:",
            "  Ronde 2: Ingedeeld maar nog niet bekendgemaakt: verwijder de indeling, of maak "
            "de ronde bekend en speel hem.",
        ]
        Round.objects.filter(tournament=tournament, number=2).update(published=True)
        # The final backup is written once the finish commits, before the command goes on (a
        # test's transaction never commits: run it at once).
        monkeypatch.setattr(transaction, "on_commit", lambda func, *args, **kwargs: func())
        out = run("finish_tournament", tournament.slug)
        (backup,) = tmp_path.rglob("*final*.json")
        assert out.splitlines() == [
            f"{tournament.name} is afgesloten: de stand is definitief.",
            f"De laatste back-up: {backup}",
        ]
        # Finished at 08:12 UTC: 09:12 in the Netherlands in December, as the site writes it.
        Tournament.objects.filter(pk=tournament.pk).update(
            finished_at=datetime.datetime(2026, 12, 5, 8, 12, tzinfo=datetime.UTC)
        )
        assert run("finish_tournament", tournament.slug) == (
            f"{tournament.name} was al afgesloten, op 5 december 2026, 09:12.\n"
        )
