"""The team page and its one-time invitation links: joining with a username and password of
one's own, single use, expiry, withdrawal, a race for one link, and removing someone."""

from __future__ import annotations

import datetime
import hashlib
import re
import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connections
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.factories import played_tournament
from tournament.errors import Refused
from tournament.models import TeamInvitation
from tournament.team.services import (
    TeamRefusal,
    team_invitation_create,
    team_join,
    team_join_new_account,
    team_member_remove,
)

pytestmark = pytest.mark.django_db

PASSWORD = "kaart-tafel-2026"


@pytest.fixture
def tournament(director):
    return played_tournament(8, 1, director=director)


def invite(tournament, director, role="scorer"):
    return team_invitation_create(tournament=tournament, role=role, by_user=director)


def join_url(issued) -> str:
    return reverse("team_join", args=[issued.token])


def join_new(client, issued, username="teller", password=PASSWORD, again=None):
    return client.post(
        join_url(issued),
        {"username": username, "password1": password, "password2": again or password},
    )


def test_a_director_invites_a_scorer_who_joins_with_a_password_of_their_own(
    director_client, director, tournament, settings
):
    settings.SITE_URL = "http://192.168.1.20:8000"  # the address phones open
    page = director_client.post(reverse("team_invite", args=[tournament.slug]), {"role": "scorer"})
    assert page.status_code == 200
    html = page.content.decode()
    url = re.search(r'id="invitation-url" rel="noreferrer">([^<]+)<', html)[1]
    assert url.startswith("http://192.168.1.20:8000/join/")
    assert 'src="data:image/svg+xml' in html  # the QR code
    token = url.rstrip("/").rsplit("/", 1)[1]
    invitation = TeamInvitation.objects.get()
    assert invitation.token_hash == hashlib.sha256(token.encode()).hexdigest()
    assert token not in invitation.token_hash  # only the hash is kept
    assert invitation.expires_at - timezone.now() > datetime.timedelta(hours=47)
    # Shown once: the team page afterwards lists the invitation without its link.
    assert (
        token not in director_client.get(reverse("team", args=[tournament.slug])).content.decode()
    )

    phone = Client()
    form = phone.get(url)
    assert form.status_code == 200
    assert "Je bent uitgenodigd voor Testtoernooi als teller." in form.content.decode()
    response = phone.post(url, {"username": "teller", "password1": PASSWORD, "password2": PASSWORD})
    assert response.status_code == 302
    assert response["Location"] == reverse("tournament_detail", args=[tournament.slug])
    scorer = get_user_model().objects.get(username="teller")
    assert scorer.check_password(PASSWORD)
    assert list(tournament.scorers.all()) == [scorer]
    assert not tournament.directors.filter(pk=scorer.pk).exists()
    invitation.refresh_from_db()
    assert (invitation.used_by, invitation.used_at is not None) == (scorer, True)
    # Signed in at once, on the tournament's (reduced) page.
    assert phone.get(response["Location"]).status_code == 200
    team_page = director_client.get(reverse("team", args=[tournament.slug])).content.decode()
    assert 'data-member="teller"' in team_page


def test_a_link_works_once(director, tournament):
    issued = invite(tournament, director)
    assert join_new(Client(), issued).status_code == 302
    second = Client()
    page = second.get(join_url(issued))
    assert page.status_code == 410
    html = page.content.decode()
    assert str(TeamRefusal.USED.label) in html
    assert "Vraag wie je uitnodigde (de toernooileider of de clubbeheerder)" in html
    assert join_new(second, issued, username="ander").status_code == 410
    assert not get_user_model().objects.filter(username="ander").exists()


def test_an_expired_link_opens_nothing(director, tournament):
    issued = invite(tournament, director)
    TeamInvitation.objects.filter(pk=issued.invitation.pk).update(
        expires_at=timezone.now() - datetime.timedelta(seconds=1)
    )
    client = Client()
    page = client.get(join_url(issued))
    assert page.status_code == 410
    assert str(TeamRefusal.EXPIRED.label) in page.content.decode()
    assert join_new(client, issued).status_code == 410
    assert not tournament.scorers.exists()


def test_a_withdrawn_link_opens_nothing(director_client, director, tournament):
    issued = invite(tournament, director)
    revoke = reverse("team_invitation_revoke", args=[tournament.slug, issued.invitation.pk])
    team_page = director_client.get(reverse("team", args=[tournament.slug])).content.decode()
    assert revoke in team_page
    assert director_client.post(revoke).status_code == 302
    page = Client().get(join_url(issued))
    assert page.status_code == 410
    assert str(TeamRefusal.REVOKED.label) in page.content.decode()
    team_page = director_client.get(reverse("team", args=[tournament.slug])).content.decode()
    assert revoke not in team_page


def test_an_unknown_link_is_not_found(client):
    page = client.get(reverse("team_join", args=["nietsbijzonders"]))
    assert page.status_code == 404
    assert str(TeamRefusal.UNKNOWN.label) in page.content.decode()


def test_another_tournaments_director_cannot_withdraw_an_invitation(
    django_user_model, director, tournament
):
    issued = invite(tournament, director)
    other_director = django_user_model.objects.create_user("ander", password=PASSWORD)
    other = played_tournament(8, 1, director=other_director)
    client = Client()
    client.force_login(other_director)
    revoke = reverse("team_invitation_revoke", args=[other.slug, issued.invitation.pk])
    assert client.post(revoke).status_code == 404
    issued.invitation.refresh_from_db()
    assert issued.invitation.revoked_at is None


def test_the_password_is_checked_and_typed_twice(director, tournament):
    issued = invite(tournament, director)
    client = Client()
    assert join_new(client, issued, password="12345678901").status_code == 422  # numeric
    assert join_new(client, issued, again="iets-anders-2026").status_code == 422
    assert join_new(client, issued, username="director").status_code == 422  # taken
    assert (
        "Die gebruikersnaam is al in gebruik"
        in join_new(client, issued, username="Director").content.decode()
    )
    assert not TeamInvitation.objects.get().used_at
    assert join_new(client, issued).status_code == 302


def test_a_weak_password_is_told_under_the_password_and_the_page_opens_at_it(director, tournament):
    """Django tells a too short or too common password under the confirmation; the person
    chose it in the password field, so it is told there, and in the summary the page opens at
    (not the username, which would otherwise take the focus)."""
    issued = invite(tournament, director)
    for weak in ("kort", "wachtwoord"):
        response = join_new(Client(), issued, password=weak)
        assert response.status_code == 422
        errors = response.context["form"].errors
        assert list(errors) == ["password1"], weak
        html = response.content.decode()
        summary = html[html.index('id="error-summary"') : html.index('for="id_username"')]
        assert f'<a href="#id_password1">Wachtwoord</a>: {errors["password1"][0]}' in summary
        field = html[html.index('for="id_password1"') : html.index('for="id_password2"')]
        assert 'class="errorlist"' in field and errors["password1"][0] in field
        assert "autofocus" not in html
    mismatch = join_new(Client(), issued, again="iets-anders-2026")
    assert list(mismatch.context["form"].errors) == ["password2"]
    assert "autofocus" in Client().get(join_url(issued)).content.decode()


def test_someone_signed_in_joins_with_their_account(django_user_model, director, tournament):
    friend = django_user_model.objects.create_user("vriend", password=PASSWORD)
    issued = invite(tournament, director, role="director")
    client = Client()
    client.force_login(friend)
    page = client.get(join_url(issued)).content.decode()
    assert "Doe mee als vriend" in page
    response = client.post(join_url(issued), {"as": "current"})
    assert response.status_code == 302
    assert tournament.directors.filter(pk=friend.pk).exists()
    assert client.get(reverse("player_list", args=[tournament.slug])).status_code == 200


def test_a_scorer_invited_as_director_becomes_one(django_user_model, director, tournament):
    scorer = django_user_model.objects.create_user("teller", password=PASSWORD)
    tournament.scorers.add(scorer)
    team_join(token=invite(tournament, director, role="director").token, user=scorer)
    assert tournament.directors.filter(pk=scorer.pk).exists()
    assert not tournament.scorers.filter(pk=scorer.pk).exists()


def test_joining_a_team_one_is_on_already_keeps_the_link(director, tournament):
    issued = invite(tournament, director)
    with pytest.raises(Refused) as refused:
        team_join(token=issued.token, user=director)
    assert refused.value.code == TeamRefusal.ALREADY_MEMBER
    issued.invitation.refresh_from_db()
    assert issued.invitation.used_at is None


def test_a_director_removes_a_scorer_but_not_the_last_director(
    director_client, director, django_user_model, tournament
):
    scorer = django_user_model.objects.create_user("teller", password=PASSWORD)
    tournament.scorers.add(scorer)
    remove = reverse("team_remove", args=[tournament.slug])
    response = director_client.post(remove, {"user": scorer.pk, "role": "scorer"})
    assert response.status_code == 302
    assert not tournament.scorers.exists()
    scorer_client = Client()
    scorer_client.force_login(scorer)
    refused = scorer_client.get(reverse("round_list", args=[tournament.slug]))
    assert refused.status_code == 403
    assert "je account hoort daar niet bij" in refused.content.decode()

    # Removing yourself takes "leave"; the last director cannot leave.
    team_page = director_client.get(reverse("team", args=[tournament.slug])).content.decode()
    assert 'name="leaving"' not in team_page and "de enige toernooileider" in team_page
    director_client.post(remove, {"user": director.pk, "role": "director"})
    assert tournament.directors.filter(pk=director.pk).exists()
    with pytest.raises(Refused) as refused:
        team_member_remove(
            tournament=tournament, member=director, role="director", by_user=director, leaving=True
        )
    assert refused.value.code == TeamRefusal.LAST_DIRECTOR
    page = director_client.post(
        remove, {"user": director.pk, "role": "director", "leaving": "1"}, follow=True
    )
    assert str(TeamRefusal.LAST_DIRECTOR.label) in page.content.decode()
    assert tournament.directors.filter(pk=director.pk).exists()


def test_a_co_director_removes_the_other_and_may_leave(director, django_user_model, tournament):
    co = django_user_model.objects.create_user("mede", password=PASSWORD)
    tournament.directors.add(co)
    client = Client()
    client.force_login(co)
    remove = reverse("team_remove", args=[tournament.slug])
    response = client.post(remove, {"user": co.pk, "role": "director", "leaving": "1"})
    assert response.status_code == 302 and response["Location"] == reverse("tournament_list")
    assert list(tournament.directors.all()) == [director]
    assert client.get(reverse("tournament_detail", args=[tournament.slug])).status_code == 403


def race_for(token: str, usernames: list[str]) -> list[object]:
    """Each username tries the link in its own thread and connection, all released at once;
    what each got: the new account, or the refusal's code."""
    start = threading.Barrier(len(usernames))
    outcomes: list[object] = [None] * len(usernames)

    def use(index: int) -> None:
        try:
            start.wait()
            outcomes[index] = team_join_new_account(
                token=token, username=usernames[index], password=PASSWORD
            )
        except Refused as refused:
            outcomes[index] = refused.code
        except BaseException as error:  # reported by the test's assertions
            outcomes[index] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=use, args=(i,)) for i in range(len(usernames))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


@pytest.mark.django_db(transaction=True)
def test_two_people_using_one_link_at_once_one_joins(director):
    """The invitation's row lock lets exactly one join; the other is told it was used."""
    tournament = played_tournament(8, 1, director=director)
    for repetition in range(5):
        issued = invite(tournament, director)
        outcomes = race_for(issued.token, [f"teller{repetition}a", f"teller{repetition}b"])
        joined = [o for o in outcomes if isinstance(o, get_user_model())]
        assert len(joined) == 1, outcomes
        assert [o for o in outcomes if o not in joined] == [TeamRefusal.USED]
        invitation = TeamInvitation.objects.get(pk=issued.invitation.pk)
        assert invitation.used_by == joined[0]
    assert tournament.scorers.count() == 5
    assert get_user_model().objects.filter(username__startswith="teller").count() == 5


def test_the_invitation_page_reloaded_goes_back_to_the_team_page(director_client, tournament):
    page = director_client.get(reverse("team_invite", args=[tournament.slug]))
    assert page.status_code == 302
    assert page["Location"] == reverse("team", args=[tournament.slug])


def test_a_scorer_is_the_role_offered_first(director_client, tournament):
    html = director_client.get(reverse("team", args=[tournament.slug])).content.decode()
    select = html[html.index('name="role"') :]
    assert select.index('value="scorer"') < select.index('value="director"')
    assert 'value="scorer" selected' in select


def test_an_invitation_to_a_loopback_address_is_warned_about(director_client, tournament, settings):
    settings.SITE_URL = "http://127.0.0.1:8000"
    page = director_client.post(reverse("team_invite", args=[tournament.slug]), {"role": "scorer"})
    html = page.content.decode()
    assert 'id="site-address-warning"' in html
    assert "http://127.0.0.1:8000/join/" in html
