"""An account's e-mail address: set on the account page or when joining with an invitation,
one account per address (in any case), refused with a clear message, never half stored."""

from __future__ import annotations

import contextlib
import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connections
from django.urls import reverse

from tournament.errors import Refused
from tournament.mail import addresses
from tournament.mail.addresses import AddressRefusal, account_address_set
from tournament.team.services import team_invitation_create

pytestmark = pytest.mark.django_db

PASSWORD = "kaart-tafel-2026"


@pytest.fixture
def bert(django_user_model):
    return django_user_model.objects.create_user("bert", email="bert@club.example")


def test_a_signed_in_person_sets_changes_and_removes_their_address(
    director_client, director, bert, email_off
):
    change_page = director_client.get(reverse("password_change")).content.decode()
    assert reverse("account_email") in change_page
    page = director_client.get(reverse("account_email"))
    assert page.status_code == 200
    assert "Deze site verstuurt op dit moment geen e-mail" in page.content.decode()

    saved = director_client.post(reverse("account_email"), {"email": " Directeur@Club.Example "})
    assert saved.status_code == 302
    director.refresh_from_db()
    assert director.email == "Directeur@club.example"

    taken = director_client.post(reverse("account_email"), {"email": "BERT@club.example"})
    assert taken.status_code == 422
    assert "Een ander account heeft dit e-mailadres al" in taken.content.decode()
    bad = director_client.post(reverse("account_email"), {"email": "directeur@@club"})
    assert bad.status_code == 422
    assert "Dat is geen e-mailadres" in bad.content.decode()
    director.refresh_from_db()
    assert director.email == "Directeur@club.example"  # neither was stored

    # Your own address in another case is yours, not "taken".
    assert (
        director_client.post(
            reverse("account_email"), {"email": "directeur@CLUB.example"}
        ).status_code
        == 302
    )
    removed = director_client.post(reverse("account_email"), {"email": ""}, follow=True)
    assert "Je e-mailadres is verwijderd." in removed.content.decode()
    director.refresh_from_db()
    assert director.email == ""
    assert get_user_model().objects.get(pk=bert.pk).email == "bert@club.example"


def test_the_service_refuses_a_taken_address_in_any_case(director, bert):
    with pytest.raises(Refused) as refused:
        account_address_set(user=director, address="Bert@Club.example")
    assert refused.value.code == AddressRefusal.TAKEN
    director.refresh_from_db()
    assert director.email == ""


def test_joining_with_an_invitation_may_give_an_address(client, director, club, bert):
    issued = team_invitation_create(club=club, role="club_director", by_user=director)
    url = reverse("team_join", args=[issued.token])
    form = client.get(url).content.decode()
    assert 'name="email"' in form and "E-mailadres (mag leeg blijven)" in form

    taken = client.post(
        url,
        {
            "username": "dirk",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "email": "BERT@club.example",
        },
    )
    assert taken.status_code == 422
    assert "Een ander account heeft dit e-mailadres al" in taken.content.decode()
    assert not get_user_model().objects.filter(username="dirk").exists()  # nothing half stored

    joined = client.post(
        url,
        {
            "username": "dirk",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "email": "dirk@club.example",
        },
    )
    assert joined.status_code == 302
    assert get_user_model().objects.get(username="dirk").email == "dirk@club.example"


def test_joining_without_an_address_is_fine(client, director, club):
    issued = team_invitation_create(club=club, role="club_director", by_user=director)
    joined = client.post(
        reverse("team_join", args=[issued.token]),
        {"username": "eva", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert joined.status_code == 302
    assert get_user_model().objects.get(username="eva").email == ""


@pytest.mark.django_db(transaction=True)
def test_two_accounts_claiming_one_address_at_once_one_gets_it(django_user_model, monkeypatch):
    """The address's lock (PostgreSQL) or the one writer (SQLite) lets exactly one claim it.
    Each claim waits (up to half a second) after its check for the other's check: without the
    lock both would find the address free and both store it."""
    people = [django_user_model.objects.create_user(n) for n in ("pa", "pb")]
    address = "gedeeld@club.example"
    start, checked = threading.Barrier(2), threading.Barrier(2, timeout=0.5)
    outcomes: list[object] = [None, None]
    taken = addresses.address_taken

    def taken_then_wait(*args, **kwargs):
        found = taken(*args, **kwargs)
        # Broken: the other claim waits for the lock, as it should.
        with contextlib.suppress(threading.BrokenBarrierError):
            checked.wait()
        return found

    monkeypatch.setattr(addresses, "address_taken", taken_then_wait)

    def claim(index: int) -> None:
        try:
            start.wait()
            outcomes[index] = account_address_set(user=people[index], address=address)
        except Refused as refused:
            outcomes[index] = refused.code
        except BaseException as error:  # reported by the assertions below
            outcomes[index] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=claim, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(map(str, outcomes)) == sorted([address, AddressRefusal.TAKEN]), outcomes
    assert django_user_model.objects.filter(email__iexact=address).count() == 1


def test_a_look_alike_of_a_taken_address_is_taken(director, bert):
    """A long s (U+017F), a ligature, another case, the domain in Unicode or in Punycode: the mail
    would go to the same inbox, so the address is taken."""
    from tournament.mail.addresses import address_key, address_taken

    account_address_set(user=bert, address="alice@alpha.test")
    assert address_taken("alice@alpha.te\u017ft", by_other_than=director)
    assert address_taken("ALICE@alpha.TEST", by_other_than=director)
    with pytest.raises(Refused):
        account_address_set(user=director, address="alice@alpha.te\u017ft")
    account_address_set(user=bert, address="ﬁne@bücher.example")
    assert bert.email == "fine@bücher.example"  # stored in NFKC form
    assert address_key("FINE@xn--bcher-kva.example") == address_key(bert.email)
    assert address_taken("fine@xn--bcher-kva.example", by_other_than=director)
    assert address_taken("Fine@BÜCHER.example", by_other_than=director)
    assert not address_taken("fine@bucher.example", by_other_than=director)
    # An address stored before this check (Django's admin stores it as typed) counts too.
    get_user_model().objects.filter(pk=bert.pk).update(email="\u017fam@club.example")
    assert address_taken("sam@club.example", by_other_than=director)
