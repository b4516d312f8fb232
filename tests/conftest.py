"""Fixtures shared by the whole suite."""

import pytest


@pytest.fixture
def director(django_user_model):
    """A signed-in tournament director's account."""
    return django_user_model.objects.create_user(
        username="director", password="correct-horse-battery", is_staff=True
    )


@pytest.fixture
def director_client(client, director):
    client.force_login(director)
    return client
