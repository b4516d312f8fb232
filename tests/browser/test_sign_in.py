"""A director signs in through the real login page in Chromium."""

import pytest

pytestmark = pytest.mark.django_db(transaction=True)


def test_director_signs_in_and_sees_the_tournament_list(signed_in, screenshot):
    assert signed_in.get_by_role("heading", name="Toernooien").is_visible()
    assert signed_in.get_by_role("link", name="Nieuw toernooi").is_visible()
    screenshot(signed_in, "tournament-list")
