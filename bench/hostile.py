"""Benchmark: every hostile input of issue 16, with the site's answer (status and message) and
the time it took. Prints figures only; nothing here passes or fails (tests/hostile asserts the
answers).

    .venv/bin/python bench/hostile.py          # SQLite
    DATABASE_URL=postgres://… .venv/bin/python bench/hostile.py
"""

import copy
import json
import time
import uuid

import _django

_django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.files.uploadedfile import SimpleUploadedFile  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import override_settings  # noqa: E402
from django.urls import reverse  # noqa: E402
from site_pages import PLAIN_STATIC  # noqa: E402

from tests.factories import played_tournament  # noqa: E402
from tests.table.helpers import changed_cells  # noqa: E402
from tournament.errors import Refused  # noqa: E402
from tournament.models import Player, Table  # noqa: E402
from tournament.sheets.forms import sheet_form_data  # noqa: E402
from tournament.sheets.table_links import table_link_issue  # noqa: E402
from tournament.tournament_file.exporting import tournament_export  # noqa: E402
from tournament.tournament_file.importing import tournament_import  # noqa: E402
from tournament.tournament_file.reading import tournament_file_parse  # noqa: E402

XHR = {"HTTP_X_REQUESTED_WITH": "XMLHttpRequest"}


def show(case: str, answer) -> None:
    print(f"{case:<44} {answer}")


def timed(case: str, call) -> None:
    start = time.perf_counter()
    try:
        response = call()
        status = response.status_code
        body = response.content.decode("utf-8", "replace")
        if response.get("Content-Type", "").startswith("application/json"):
            message = json.loads(body).get("message") or json.loads(body).get("outcome")
        else:
            message = body[:60].replace("\n", " ") if status >= 400 else ""
    except Refused as refused:
        status, message = "refused", refused.message
    except Exception as exc:  # a crash is what the benchmark must show
        status, message = "CRASH", f"{type(exc).__name__}: {exc}"[:80]
    ms = (time.perf_counter() - start) * 1000
    show(case, f"{status!s:<8} {ms:7.1f} ms  {str(message)[:90]}")


def file_import(document=None, raw=None):
    """The file through the check and the import; returns a stand-in response."""

    class Stored:
        status_code = 200
        content = b"stored"

        def get(self, *_):
            return ""

    tournament_import(document=document if raw is None else tournament_file_parse(raw))
    return Stored()


@override_settings(STORAGES=PLAIN_STATIC)
def main() -> None:
    print(f"database: {connection.vendor}\n")
    director = get_user_model().objects.create_user(username="d", password="x", is_staff=True)  # noqa: S106
    tournament = played_tournament(8, 1, last_round=[11, 3], director=director)
    table = Table.objects.get(round__tournament=tournament, round__number=1, number=1)
    link = table_link_issue(table=table, by_user=director)
    url = reverse("table_entry", args=[link.token])
    phone = Client(HTTP_HOST="localhost")
    office = Client(HTTP_HOST="localhost")
    office.force_login(director)

    def sheet(**changes):
        data = sheet_form_data(4, changed_cells(table), base_version=1)
        data.update(changes)
        return lambda: phone.post(url, data, **XHR)

    timed("sheet: penalty-TOTAL_FORMS=1000000", sheet(**{"penalty-TOTAL_FORMS": "1000000"}))
    for count in ("0", "1", "-5", "abc"):
        timed(f"sheet: cell-TOTAL_FORMS={count}", sheet(**{"cell-TOTAL_FORMS": count}))
    for base in (10**30, 2**32):
        timed(f"sheet: base_version={base}", sheet(base_version=str(base)))
    key = str(uuid.uuid4())
    phone.post(url, sheet_form_data(4, changed_cells(table), base_version=0, key=key), **XHR)
    timed(
        "sheet: key reused with other content",
        lambda: phone.post(
            url, sheet_form_data(4, changed_cells(table, deal=10), base_version=1, key=key), **XHR
        ),
    )
    closed = played_tournament(8, 2, director=director)
    old = Table.objects.get(round__tournament=closed, round__number=1, number=1)
    old_url = reverse("table_entry", args=[table_link_issue(table=old, by_user=director).token])
    timed(
        "sheet: link of a closed round",
        lambda: phone.post(old_url, sheet_form_data(4, changed_cells(old)), **XHR),
    )
    first_dealer = reverse("table_first_dealer", args=[tournament.slug, 1, 1])
    timed("first dealer: player=abc", lambda: office.post(first_dealer, {"player": "abc"}))

    players = reverse("player_list", args=[tournament.slug])
    office.get(players)  # the page's templates compiled once, as on a running site
    timed("add player: Bel\\x07Man", lambda: office.post(players, {"name": "Bel\x07Man"}))
    timed("add player: right-to-left override", lambda: office.post(players, {"name": "A\u202eB"}))
    Player.objects.filter(pk=Player.objects.filter(tournament=tournament).first().pk).update(
        name="Bel\x07Man"
    )
    xlsx = reverse("standings_download", args=[tournament.slug, "xlsx"])
    timed("standings xlsx, control character stored", lambda: office.get(xlsx))
    workbook = reverse("print_workbook", args=[tournament.slug])
    timed("final workbook, control character stored", lambda: office.get(workbook))

    upload = reverse("player_import", args=[tournament.slug])
    csvs = {
        "UTF-16": "Naam;Club\nAnna;X\n".encode("utf-16"),
        "byte 0x81": b"Naam;Club\nAn\x81na;X\n",
        "field of 140,000 characters": b"Naam\n" + b"x" * 140_000 + b"\n",
        "NUL": b"Naam\nNul\x00Man\n",
    }
    for name, content in csvs.items():
        timed(
            f"player CSV: {name}",
            lambda c=content: office.post(upload, {"file": SimpleUploadedFile("p.csv", c)}),
        )

    document = tournament_export(tournament=closed)
    closed.delete()

    def varied(change):
        hostile = copy.deepcopy(document)
        change(hostile)
        return lambda: file_import(hostile)

    timed("file: nested 100,000 deep", lambda: file_import(raw="[" * 100_000 + "]" * 100_000))
    timed("file: integer of 5,000 digits", lambda: file_import(raw='{"a": ' + "9" * 5000 + "}"))
    timed("file: date 0000-01-01", varied(lambda d: d.update(date="0000-01-01")))
    for number in (10**30, 40_000):
        timed(
            f"file: round number {number}",
            varied(lambda d, n=number: d["rounds"][1].update(number=n)),
        )
    timed(
        "file: table number 2^40",
        varied(lambda d: d["rounds"][0]["tables"][0].update(number=2**40)),
    )
    timed(
        "file: withdrawal round 10^20",
        varied(lambda d: d["settings"].update(withdrawn={d["players"][0]["id"]: 10**20})),
    )
    for name in ("Bel\x07Man", "Nul\x00Man", "A\u200bB"):
        timed(
            f"file: player name {name!r}",
            varied(lambda d, n=name: d["players"][0].update(name=n)),
        )
    timed(
        "file: place of 10,000 characters",
        varied(lambda d: d["settings"].update(place="x" * 10_000)),
    )
    timed(
        "file: prefer_size 5, table_sizes [4]",
        varied(lambda d: d["settings"].update(prefer_size=5, table_sizes=[4])),
    )
    timed("file: rounds numbered 1, 9", varied(lambda d: d["rounds"][1].update(number=9)))
    many = copy.deepcopy(document)
    many["rounds"] = [{**many["rounds"][0], "number": n} for n in range(1, 1448)]
    raw = json.dumps(many)
    timed(f"file: 1,447 rounds ({len(raw) / 1e6:.1f} MB)", lambda: file_import(raw=raw))

    timed(
        "POST /login/ announcing 300 MB",
        lambda: Client(HTTP_HOST="localhost").post(
            "/login/", data=b"x", content_type="text/plain", CONTENT_LENGTH=str(300 * 10**6)
        ),
    )


if __name__ == "__main__":
    main()
