"""Fuzzing: the sheet POST with the real form's field names and hostile values, and the
tournament file check with hostile documents. Never a server error; a refusal stores nothing."""

from __future__ import annotations

import copy
import json

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.factories import played_tournament
from tests.sheets.helpers import form_data
from tests.table.helpers import XHR, changed_cells, link_url
from tournament.errors import Refused
from tournament.models import SheetVersion
from tournament.tournament_file.exporting import tournament_export
from tournament.tournament_file.importing import tournament_import
from tournament.tournament_file.reading import tournament_file_check

pytestmark = pytest.mark.django_db

HOSTILE_TEXT = st.one_of(
    st.integers().map(str),
    st.integers(min_value=10**18, max_value=10**40).map(str),
    st.sampled_from(["", "-1", "abc", "1e3", "0x10", " 1", "\uff11", "\x00", "\u202e1", "NaN"]),
    st.text(max_size=12),
)


def _rows(table) -> tuple:
    return (
        list(
            SheetVersion.objects.filter(table=table).values_list(
                "pk", "number", "cells", "penalties"
            )
        ),
    )


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(changes=st.dictionaries(st.integers(min_value=0, max_value=200), HOSTILE_TEXT, max_size=6))
def test_the_sheet_post_never_fails_and_a_refusal_stores_nothing(client, link, table, changes):
    data = form_data(4, changed_cells(table), base_version=0)
    names = sorted(data)
    for index, value in changes.items():
        data[names[index % len(names)]] = value
    before = _rows(table)
    response = client.post(link_url(link), data, **XHR)
    assert response.status_code < 500
    if response.status_code >= 400:
        after = _rows(table)
        # A stale or refused save may keep a conflict record; nothing else changes.
        assert after[1:] == before[1:]
        assert [v for v in after[0] if v[1] is not None] == [
            v for v in before[0] if v[1] is not None
        ]


@pytest.fixture
def document(director):
    tournament = played_tournament(8, 1, director=director)
    exported = tournament_export(tournament=tournament)
    tournament.delete()
    return exported


JSON_VALUES = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.integers(min_value=2**31, max_value=10**40),
        st.floats(allow_nan=True),
        st.text(max_size=8),
        st.sampled_from(["0000-01-01", "\x00", "\u202e", "9" * 30]),
    ),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)


def _paths(node, path=()):
    yield path
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _paths(value, (*path, index))


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_the_file_check_refuses_or_accepts_and_never_fails(document, data):
    hostile = json.loads(json.dumps(document))  # as a file gives it: keys are text
    paths = [p for p in _paths(hostile) if p]
    for _ in range(data.draw(st.integers(min_value=1, max_value=3))):
        path = data.draw(st.sampled_from(paths))
        node = hostile
        try:
            for key in path[:-1]:
                node = node[key]
            node[path[-1]] = data.draw(JSON_VALUES)
        except (KeyError, IndexError, TypeError):
            continue
    try:
        tournament_file_check(copy.deepcopy(hostile))
    except Refused as refused:
        assert refused.message
        return
    with transaction.atomic():
        tournament_import(document=hostile)  # what the check accepts, the import stores
        transaction.set_rollback(True)
