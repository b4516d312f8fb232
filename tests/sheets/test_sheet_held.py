"""Saves that never block and merged edits: the split into counted and held input, the table's
draft, the three-way merge of saves from an older version, and what the script gets back."""

from __future__ import annotations

import re
import uuid

import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from scoring.errors import ErrorCode
from tests.sheets.helpers import DEAL_1, DEAL_2, form_data, names, stored_cells, stored_penalties
from tournament.errors import RULE_MESSAGES
from tournament.models import SheetDraft, SheetVersion
from tournament.sheets.forms import cell_field
from tournament.sheets.held import held_payload
from tournament.sheets.services import sheet_record
from tournament.sheets.submission import SheetConflict, SheetSubmission

pytestmark = pytest.mark.django_db
XHR = {"headers": {"X-Requested-With": "XMLHttpRequest"}}

# Deal 3 (3 cards, dealer seat 2, bidding 3, 0, 1, 2): legal; and with tricks adding up to 2.
DEAL_3 = {(3, 0): (1, 1), (3, 1): (0, 0), (3, 2): (1, 1), (3, 3): (0, 1)}
DEAL_3_SHORT = {**DEAL_3, (3, 3): (0, 0)}
DEAL_4_BIDS = {(4, seat): (0, None) for seat in range(3)}


def record(table, cells, *, base=0, key=None, penalties=(), hold=True):
    return sheet_record(
        table=table,
        submission=SheetSubmission(
            cells=cells,
            penalties=penalties,
            base_version=base,
            idempotency_key=key or uuid.uuid4(),
            hold=hold,
        ),
    )


def url(table):
    return reverse("sheet_edit", args=[table.round.tournament.slug, 1, table.number])


def test_the_valid_deals_are_stored_and_a_bad_deal_is_held(empty_table):
    saved = record(empty_table, {**DEAL_1, **DEAL_2, **DEAL_3_SHORT})
    assert (saved.version, saved.created) == (1, True)
    assert stored_cells(empty_table) == {**DEAL_1, **DEAL_2}
    assert saved.split.held_deals == (3,)
    draft = SheetDraft.objects.get(table=empty_table)
    assert sorted(map(tuple, draft.cells)) == sorted(
        (3, seat, *DEAL_3_SHORT[3, seat]) for seat in range(4)
    )


def test_a_later_deal_after_a_bad_one_is_held_too_and_the_version_stays(empty_table):
    record(empty_table, {**DEAL_1, **DEAL_2})
    again = record(empty_table, {**DEAL_1, **DEAL_2, **DEAL_3_SHORT, **DEAL_4_BIDS}, base=1)
    assert (again.version, again.created) == (1, False)  # the counted part did not change
    assert again.split.held_deals == (3, 4)
    assert {(p.deal, p.code) for p in again.split.problems} == {(3, ErrorCode.TRICKS_SUM)}
    with translation.override("nl"):
        held = held_payload(again.split, tuple(names(empty_table)))
        waits = _("Not saved yet: finish deal %(deal)s first.") % {"deal": 3}
    assert held["deals"][1]["messages"] == [waits]


def test_the_draft_is_cleared_once_every_box_of_it_is_counted(empty_table):
    record(empty_table, {**DEAL_1, **DEAL_3})  # deal 3 before deal 2: held
    assert SheetDraft.objects.filter(table=empty_table).exists()
    record(empty_table, {**DEAL_1, **DEAL_2, **DEAL_3}, base=1)
    assert stored_cells(empty_table) == {**DEAL_1, **DEAL_2, **DEAL_3}
    assert not SheetDraft.objects.filter(table=empty_table).exists()


def test_a_bad_correction_of_a_counted_deal_keeps_the_counted_one(played_table):
    """A digit mistyped in a finished deal does not take the deal (and what follows) away."""
    before = stored_cells(played_table)
    wrong = dict(before)
    bid, tricks = wrong[1, 0]
    wrong[1, 0] = (bid, 1 - tricks)  # deal 1's tricks no longer add up to 1
    saved = record(played_table, wrong)
    assert stored_cells(played_table) == before
    assert saved.split.held_deals == (1,)


def test_a_penalty_bol_with_a_problem_is_held_and_the_rest_stored(empty_table):
    saved = record(empty_table, DEAL_1, penalties=[(1, 2), (6, 0)])
    assert stored_penalties(empty_table) == [(1, 2)]  # seat 0's bol is held, not stored
    assert saved.split.held_penalties == ((6, 0),)
    assert [(p.seat, p.deal) for p in saved.table_sheet.sheet.penalties] == [(2, 1)]
    assert SheetDraft.objects.get(table=empty_table).penalties == [[6, 0]]


def test_the_plain_form_keeps_all_or_nothing(empty_table, director_client):
    response = director_client.post(url(empty_table), form_data(4, {**DEAL_1, **DEAL_3_SHORT}))
    assert response.status_code == 422
    assert not SheetVersion.objects.filter(table=empty_table).exists()


def test_the_script_gets_held_deals_and_the_status_in_words(empty_table, director_client):
    response = director_client.post(
        url(empty_table), form_data(4, {**DEAL_1, **DEAL_2, **DEAL_3_SHORT}), **XHR
    )
    assert response.status_code == 200
    data = response.json()
    assert (data["outcome"], data["version"], data["merged"]) == ("saved", 1, False)
    (held,) = data["held"]
    with translation.override("nl"):
        tricks_sum = str(RULE_MESSAGES[ErrorCode.TRICKS_SUM]) % {"sum": 2, "hand_size": 3}
        expected = f"{_('Deals 1-%(last)s saved') % {'last': 2}} · spel 3: " + (
            tricks_sum[0].lower() + tricks_sum[1:].rstrip(".")
        )
    assert held["deal"] == 3
    assert held["messages"] == [tricks_sum]
    assert held["boxes"] == []
    assert data["status_text"] == expected
    assert data["status_text"].startswith("Spel 1-2 opgeslagen · spel 3: de slagen tellen op")
    assert data["values"][0][1] == {"bid": 1, "tricks": 1}
    assert data["values"][2][3] == {"bid": None, "tricks": None}  # deal 3 is not counted


def test_a_held_change_to_a_counted_deal_is_called_a_change(empty_table, director_client):
    record(empty_table, {**DEAL_1, **DEAL_2})
    cleared = {**{cell: (None, None) for cell in DEAL_1}, **DEAL_2}  # deal 1 taken back only
    data = director_client.post(
        url(empty_table), form_data(4, cleared, base_version=1), **XHR
    ).json()
    assert [held["deal"] for held in data["held"]] == [1]
    assert data["status_text"] == (
        "Spel 1-2 opgeslagen · de wijziging in spel 1: nog niet opgeslagen: de latere spellen "
        "zouden dan niet meer op volgorde zijn"
    )
    assert stored_cells(empty_table) == {**DEAL_1, **DEAL_2}  # deal 1 stays as saved


def test_a_held_box_problem_names_its_box(empty_table, director_client):
    forbidden = {(1, 1): (0, None), (1, 2): (0, None), (1, 3): (0, None), (1, 0): (1, None)}
    data = director_client.post(url(empty_table), form_data(4, forbidden), **XHR).json()
    assert data["outcome"] == "saved"
    (held,) = data["held"]
    assert [(b["deal"], b["seat"], b["kind"]) for b in held["boxes"]] == [(1, 0, "bid")]
    assert held["messages"][0].startswith(names(empty_table)[0] + ": ")


def test_the_draft_is_back_in_its_boxes_after_a_reload(empty_table, director_client, client):
    director_client.post(url(empty_table), form_data(4, {**DEAL_1, **DEAL_3_SHORT}), **XHR)
    page = director_client.get(url(empty_table))
    html = page.content.decode()
    assert re.search(rf'name="{cell_field(4, 3, 3, "tricks")}"[^>]* value="0"', html)
    config = page.context["config"]
    assert [h["deal"] for h in config["held"]["deals"]] == [3]
    assert config["statusText"].startswith("Spel 1 opgeslagen · spel 3:")
    assert "Nog niet opgeslagen: invoer met fouten" in html


def test_saves_of_different_deals_from_one_version_are_merged(empty_table):
    record(empty_table, DEAL_1)
    theirs = {(2, 2): (0, None), (2, 3): (0, None)}
    record(empty_table, {**DEAL_1, **theirs}, base=1)  # one device: two bids of deal 2
    mine = {(2, 2): (0, None), (2, 0): (1, None)}  # the other: the same bid, and another
    merged = record(empty_table, {**DEAL_1, **mine}, base=1)
    assert (merged.version, merged.created, merged.merged) == (3, True, True)
    assert stored_cells(empty_table) == {**DEAL_1, **theirs, **mine}


def test_a_box_changed_differently_on_both_sides_is_the_only_conflict(empty_table):
    record(empty_table, DEAL_1)
    record(empty_table, {**DEAL_1, (2, 2): (1, None), (2, 3): (0, None)}, base=1)
    with pytest.raises(SheetConflict) as conflict:
        record(empty_table, {**DEAL_1, (2, 2): (2, None), (2, 0): (1, None)}, base=1)
    assert [
        (c.deal, c.seat, c.what, c.base, c.theirs, c.yours) for c in conflict.value.conflicts
    ] == [(2, 2, "bid", None, 1, 2)]
    # The rest of both sides is in the merge the choice starts from.
    assert conflict.value.merged.cell_map == {
        **DEAL_1,
        (2, 0): (1, None),
        (2, 2): (1, None),
        (2, 3): (0, None),
    }
    assert SheetVersion.objects.filter(table=empty_table, number__isnull=True).count() == 1


def test_the_conflict_lists_only_its_boxes_and_a_choice_stores_the_merge(
    empty_table, director_client
):
    record(empty_table, DEAL_1)
    record(empty_table, {**DEAL_1, (2, 2): (1, None), (2, 3): (0, None)}, base=1)
    mine = {**DEAL_1, (2, 2): (2, None), (2, 0): (1, None)}
    response = director_client.post(url(empty_table), form_data(4, mine, base_version=1), **XHR)
    assert response.status_code == 409
    data = response.json()
    assert data["conflicts"] == [{"deal": 2, "seat": 2, "kind": "bid", "theirs": 1, "yours": 2}]
    assert data["values"][1][3] == {"bid": 0, "tricks": None}  # theirs, not conflicting
    assert data["values"][1][0] == {"bid": 1, "tricks": None}  # mine, not conflicting
    html = data["html"]
    assert html.count("<tr data-conflict=") == 1
    assert 'name="pick-2-2-bid"' in html
    # Choosing "take the other one" for that box, on the version that is in the way.
    chosen = form_data(4, {**mine, (2, 3): (0, None)}, base_version=2)
    chosen.update({"theirs-2-2-bid": "1", "pick-2-2-bid": "theirs"})
    saved = director_client.post(url(empty_table), chosen, **XHR).json()
    assert saved["outcome"] == "saved"
    assert stored_cells(empty_table) == {
        **DEAL_1,
        (2, 0): (1, None),
        (2, 2): (1, None),
        (2, 3): (0, None),
    }


def test_a_retry_of_a_merged_save_is_answered_once(empty_table):
    record(empty_table, DEAL_1)
    record(empty_table, {**DEAL_1, (2, 3): (0, None)}, base=1)
    key = uuid.uuid4()
    first = record(empty_table, {**DEAL_1, (2, 2): (1, None)}, base=1, key=key)
    again = record(empty_table, {**DEAL_1, (2, 2): (1, None)}, base=1, key=key)
    assert (first.version, first.created) == (3, True)
    assert (again.version, again.replayed) == (3, True)
    assert SheetVersion.objects.filter(table=empty_table).count() == 3


def test_no_box_on_the_sheet_pages_has_a_positive_tabindex(
    director_client, played_table, empty_table
):
    pages = [
        url(played_table),
        url(empty_table),
        reverse("sheet_history", args=[played_table.round.tournament.slug, 1, 2]),
    ]
    record(empty_table, {**DEAL_1, **DEAL_3_SHORT})
    for address in pages:
        html = director_client.get(address).content.decode()
        assert 'class="box"' in html or "history" in address
        values = [int(v) for v in re.findall(r'tabindex="(-?\d+)"', html)]
        assert all(v <= 0 for v in values), (address, values)


def test_another_devices_held_boxes_stay_in_the_draft_a_save_does_not_touch(
    empty_table, director_client
):
    """Device A's deal 3 is held (its tricks do not add up); device B, whose page did not show
    that draft, saves deal 2: A's held boxes stay on the server and come back to B, and B's
    next save (which has seen them) replaces the draft as usual."""
    record(empty_table, DEAL_1)
    device_a = record(empty_table, {**DEAL_1, **DEAL_3_SHORT}, base=1)
    assert device_a.split.held_deals == (3,)
    seen_by_a = device_a.draft_token
    assert seen_by_a
    # B started before A's draft: it sends deal 2 and empty boxes for deal 3.
    response = director_client.post(
        url(empty_table), {**form_data(4, {**DEAL_1, **DEAL_2}, base_version=1)}, **XHR
    )
    data = response.json()
    assert data["outcome"] == "saved"
    assert stored_cells(empty_table) == {**DEAL_1, **DEAL_2}
    (held,) = data["held"]
    assert held["deal"] == 3
    assert held["values"][3] == {"bid": 0, "tricks": 0}  # A's box, kept
    draft = SheetDraft.objects.get(table=empty_table)
    assert sorted(map(tuple, draft.cells)) == sorted(
        (3, seat, *DEAL_3_SHORT[3, seat]) for seat in range(4)
    )
    # B corrects A's box on the page that now shows it: counted, and the draft is gone.
    fixed = form_data(4, {**DEAL_1, **DEAL_2, **DEAL_3}, base_version=data["version"])
    fixed["draft_seen"] = data["draft_seen"]
    again = director_client.post(url(empty_table), fixed, **XHR).json()
    assert again["held"] == [] and again["draft_seen"] == ""
    assert stored_cells(empty_table) == {**DEAL_1, **DEAL_2, **DEAL_3}
    assert not SheetDraft.objects.filter(table=empty_table).exists()


def test_a_device_that_saw_the_draft_may_empty_its_boxes(empty_table, director_client):
    record(empty_table, DEAL_1)
    page = director_client.get(url(empty_table))
    assert page.context["config"]["draftSeen"] == ""
    record(empty_table, {**DEAL_1, **DEAL_3_SHORT}, base=1)
    shown = director_client.get(url(empty_table)).context["config"]
    assert shown["draftSeen"] and [h["deal"] for h in shown["held"]["deals"]] == [3]
    cleared = form_data(4, DEAL_1, base_version=1)
    cleared["draft_seen"] = shown["draftSeen"]
    data = director_client.post(url(empty_table), cleared, **XHR).json()
    assert (data["outcome"], data["held"]) == ("saved", [])
    assert not SheetDraft.objects.filter(table=empty_table).exists()
