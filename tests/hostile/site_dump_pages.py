"""Run by ``test_site_dump_round_trip`` against a real PostgreSQL database, in a process of its
own (``DATABASE_URL`` names it): ``seed`` makes a site of two clubs, ``pages`` prints the pages
of both as JSON, with what differs between two requests (CSRF tokens) taken out.

    python tests/hostile/site_dump_pages.py seed|pages [SESSION-COOKIE]
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "kaart-en-bol-2026"
CLUBS = {"klaverbol": "BC De Klaverbol", "troef": "De Troefkaart"}


def _setup() -> None:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bollen.settings_test")
    import django

    django.setup()


def seed() -> None:
    from django.contrib.auth.models import User

    from tests.factories import played_tournament
    from tournament.clubs.services import club_create
    from tournament.models import Club
    from tournament.season.services import CompetitionSettings, competition_create
    from tournament.tournaments.finish import tournament_finish

    for n, (slug, name) in enumerate(CLUBS.items()):
        admin = User.objects.create_user(f"{slug}-admin", password=PASSWORD)
        club = club_create(name=name, admin=admin)
        Club.objects.filter(pk=club.pk).update(slug=slug)
        club.slug = slug
        names = [f"{name[:6]} lid {i}" for i in range(1, 10)]
        evenings = [
            tournament_finish(
                tournament=played_tournament(
                    len(names),
                    seed=10 * n + k,
                    names=names,
                    director=admin,
                    club=club,
                    public=True,
                )
            )
            for k in range(2)
        ]
        played_tournament(
            8, seed=10 * n + 5, director=admin, club=club, public=True, last_round=[6, 7]
        )
        competition_create(
            club=club,
            settings=CompetitionSettings(name="Clubkampioenschap", season="2026", public=True),
            tournaments=evenings,
        )


def _signed_in(client, username: str) -> None:
    from django.urls import reverse

    response = client.post(reverse("login"), {"username": username, "password": PASSWORD})
    assert response.status_code == 302, (username, response.status_code)


CSRF = re.compile(
    r'(name="csrfmiddlewaretoken" value=")[^"]+(")|(csrf[-_]token[^>]*content=")[^"]+'
)


# The clock time a live page was made at ("Bijgewerkt om 20:31"), for its script too.
CLOCK = re.compile(r'(data-live="status"[^>]*>[^<]*?|"time": ")\d\d:\d\d')


def _page(client, url: str) -> str:
    response = client.get(url)
    body = response.content.decode("utf-8", errors="replace")
    body = CSRF.sub(lambda m: "".join(g or "" for g in m.groups()), body)
    return f"{response.status_code}\n" + CLOCK.sub(r"\1HH:MM", body)


def pages(session: str | None) -> None:
    from django.test import Client
    from django.test.utils import setup_test_environment
    from django.urls import reverse

    from tournament.models import Competition, Tournament

    setup_test_environment()
    found: dict[str, str] = {}
    for slug in CLUBS:
        anonymous = Client()
        admin = Client()
        _signed_in(admin, f"{slug}-admin")  # the sign-in works (the password, the sessions)
        found[f"/clubs/{slug}/"] = _page(anonymous, reverse("club_public", args=[slug]))
        for tournament in Tournament.objects.filter(club__slug=slug).order_by("pk"):
            for name in ("tournament_detail", "standings"):
                url = reverse(name, args=[tournament.slug])
                found[f"{slug} {url}"] = _page(admin, url)
            url = reverse("public_standings", args=[tournament.slug])
            found[url] = _page(anonymous, url)
        for competition in Competition.objects.filter(club__slug=slug):
            url = reverse("competition_detail", args=[competition.slug])
            found[f"{slug} {url}"] = _page(admin, url)
            url = reverse("public_season", args=[competition.slug])
            found[url] = _page(anonymous, url)
        found[f"{slug} /"] = _page(admin, reverse("tournament_list"))
        found[f"{slug} club"] = _page(admin, reverse("club_page"))
        found[f"{slug} members"] = _page(admin, reverse("member_list"))
    kept = Client()
    if session:  # a sign-in from before the dump still holds after the restore
        kept.cookies["sessionid"] = session
        found["kept session"] = _page(kept, reverse("club_page"))
    else:
        _signed_in(kept, "klaverbol-admin")
        found["session"] = kept.cookies["sessionid"].value
    print(json.dumps(found, ensure_ascii=False))


if __name__ == "__main__":
    _setup()
    if sys.argv[1] == "seed":
        seed()
    else:
        pages(sys.argv[2] if len(sys.argv) > 2 else None)
