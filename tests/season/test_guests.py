"""Guests of the club: a guest by default at the check-in, known again next evening, never
ranked, marked in the evening's standings, and made a member later with a preview of the
season's change."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.factories import played_tournament
from tournament.clubs.services import club_sole
from tournament.models import Member, Player, Tournament
from tournament.season.check_in import GUEST
from tournament.season.guests import Place, member_guest_preview, member_guest_set
from tournament.season.selectors import season_of
from tournament.standings.tables import ranked_standings

pytestmark = pytest.mark.django_db


def places(competition) -> dict[str, int | None]:
    return {row.name: row.rank for row in season_of(competition).rows}


def test_a_new_name_is_a_guest_by_default_known_again_and_never_ranked(director_client, season):
    url = reverse("check_in", args=[season.slug])
    ticked = list(Member.objects.filter(name__in=["Lid A", "Lid B", "Lid C"]).values("pk"))
    typed = {
        "name": "Avond 4",
        "date": timezone.localdate().isoformat(),
        "members": [m["pk"] for m in ticked],
        "new_people": "Gijs Gast\n",
    }
    asked = director_client.post(url, typed)
    text = asked.content.decode()
    assert "“Gijs Gast”: lid of gast?" in text
    assert f'name="kind-1" value="{GUEST}" checked' in text  # a guest unless answered otherwise
    assert not Member.objects.filter(name="Gijs Gast").exists()
    # The browser posts the answer chosen: the default.
    created = director_client.post(url, {**typed, "kind-1-name": "Gijs Gast", "kind-1": GUEST})
    assert created.status_code == 302
    gijs = Member.objects.get(name="Gijs Gast")
    assert gijs.guest
    assert Tournament.objects.get(name="Avond 4").players.filter(member=gijs).exists()

    # The next check-in offers the guest, marked as one, and knows the name when typed again.
    page = director_client.get(url)
    assert gijs.pk in page.context["form"].guests
    assert 'Gijs Gast <span class="muted guest-mark">(gast)</span>' in page.content.decode()
    again = director_client.post(
        url, {**typed, "name": "Avond 5", "new_people": "Gijs Gast\nA\nB\n"}
    )
    assert "“Gijs Gast”: bedoel je Gijs Gast (gast)?" in again.content.decode()

    standings = season_of(season)
    assert gijs.pk not in {row.member for row in standings.rows}
    assert gijs.pk in {row.member for row in standings.guests}


def test_making_a_guest_a_member_previews_the_change_and_then_ranks_them(season):
    lid_a = Member.objects.get(name="Lid A")
    member_guest_set(member=lid_a, guest=True)
    before = places(season)
    assert "Lid A" not in before

    (change,) = member_guest_preview(member=lid_a, guest=False)
    assert Member.objects.get(pk=lid_a.pk).guest  # a preview writes nothing
    assert places(season) == before

    member_guest_set(member=lid_a, guest=False)
    after = places(season)
    assert change.competition == season
    assert change.person.before == Place(guest=True)
    assert change.person.after == Place(rank=after["Lid A"], listed=True)
    moved = {m.name: (m.before.rank, m.after.rank) for m in change.others}
    assert moved == {
        name: (rank, after[name]) for name, rank in before.items() if after[name] != rank
    }
    assert moved  # Lid A played two evenings of the best two: someone moves down

    # And back: a guest again leaves the standings, everyone else as before.
    (back,) = member_guest_preview(member=lid_a, guest=True)
    assert back.person.after == Place(guest=True)
    assert {m.name: m.after.rank for m in back.others} == {n: before[n] for n in moved}


def test_the_member_page_previews_before_it_makes_a_guest_a_member(director_client, season):
    lid_a = Member.objects.get(name="Lid A")
    member_guest_set(member=lid_a, guest=True)
    url = reverse("member_edit", args=[lid_a.pk])
    assert 'href="?status=member#guest-preview"' in director_client.get(url).content.decode()

    preview = director_client.get(url, {"status": "member"})
    text = preview.content.decode()
    assert "Lid A lid maken: wat er verandert" in text
    (change,) = preview.context["preview"]
    assert f"<strong>plaats {change.person.after.rank}</strong>" in text
    assert "gast, niet in het klassement" in text
    assert Member.objects.get(pk=lid_a.pk).guest

    made = director_client.post(url, {"status": "member"})
    assert made.status_code == 302
    assert not Member.objects.get(pk=lid_a.pk).guest
    assert places(season)["Lid A"] == change.person.after.rank

    register = director_client.get(reverse("member_list"), {"kind": "guest"})
    assert register.context["members"] == []
    member_guest_set(member=lid_a, guest=True)
    register = director_client.get(reverse("member_list"), {"kind": "guest"})
    assert [m.name for m in register.context["members"]] == ["Lid A"]
    assert "(gast)</span>" in register.content.decode()


def guest_names(tournament: Tournament) -> set[str]:
    rows = ranked_standings(Tournament.objects.get(pk=tournament.pk)).rows
    return {row["name"] for row in rows if row["guest"]}


def test_guests_are_marked_in_an_evenings_standings_and_nowhere_else(
    director_client, client, season, director
):
    first = season.evenings.get(number=1).tournament
    member_guest_set(member=Member.objects.get(name="Lid A"), guest=True)
    Player.objects.filter(tournament=first, name="Lid B").update(member=None)  # tied to nobody
    assert guest_names(first) == {"Lid A", "Lid B"}
    page = director_client.get(reverse("standings", args=[first.slug]))
    assert page.content.decode().count('<span class="muted guest-mark">(gast)</span>') == 2

    Tournament.objects.filter(pk=first.pk).update(public=True)
    public = client.get(reverse("public_standings", args=[first.slug]))
    assert {row["name"] for row in public.context["rows"] if row["guest"]} == {"Lid A", "Lid B"}
    assert public.content.decode().count("guest-mark") == 2
    live = client.get(reverse("public_live", args=[first.slug])).json()
    assert {row["name"] for row in live["standings"]["rows"] if row["guest"]} == {"Lid A", "Lid B"}

    # Made a member: the mark goes at once (the cached rows know the member's state).
    member_guest_set(member=Member.objects.get(name="Lid A"), guest=False)
    assert guest_names(first) == {"Lid B"}

    alone = played_tournament(4, 1, director=director, names=["Lid A", "Lid B", "Lid C", "X"])
    Player.objects.filter(tournament=alone, name="Lid A").update(
        member=Member.objects.create(register=club_sole(), name="Gast", guest=True)
    )
    assert guest_names(alone) == set()


def test_a_player_tied_to_nobody_is_tied_on_the_questions_page(director_client, season):
    """A player added on an evening's player page is tied to nobody: the competition page
    says so, and the questions page adds them as a guest or ties them to a member."""
    evening = season.evenings.order_by("number").first().tournament
    lid_a = Member.objects.get(name="Lid A")
    Player.objects.filter(tournament=evening, member=lid_a).update(member=None)
    untied = Player.objects.get(tournament=evening, member=None)
    detail = director_client.get(reverse("competition_detail", args=[season.slug]))
    assert "1 speler is aan niemand in het ledenbestand gekoppeld" in detail.content.decode()
    url = reverse("competition_questions", args=[season.slug])
    assert untied.name in director_client.get(url).content.decode()

    # Tied to the member again: their evening counts once more.
    director_client.post(url, {"player": untied.pk, "member": lid_a.pk})
    assert Player.objects.get(pk=untied.pk).member == lid_a
    assert untied.name not in director_client.get(url).content.decode().split("untied")[-1]

    # Another untied player added as a guest: in the register as a guest, not ranked.
    Player.objects.filter(pk=untied.pk).update(member=None)
    director_client.post(url, {"player": untied.pk, "kind": "guest"})
    guest = Player.objects.get(pk=untied.pk).member
    assert guest is not None and guest.guest and guest.name == untied.name
    assert guest.pk in {row.member for row in season_of(season).guests}
