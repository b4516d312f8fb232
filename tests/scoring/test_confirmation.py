"""The confirmation rule with plain values: who may confirm a sheet, and how."""

from __future__ import annotations

import pytest

from scoring.confirmation import (
    ConfirmationRule,
    ConfirmMethod,
    ConfirmRefusal,
    SheetState,
    confirm_methods,
    confirm_refusal,
    rule_in_force,
)

SAVER, OTHER = 1, 2
SAVED = SheetState(saved=True, complete=True, saved_by=SAVER)


@pytest.mark.parametrize(
    ("team_size", "expected"),
    [(0, ConfirmationRule.RETYPE), (1, ConfirmationRule.RETYPE), (2, ConfirmationRule.OTHER_PERSON),
     (7, ConfirmationRule.OTHER_PERSON)],
)  # fmt: skip
def test_auto_asks_another_person_of_a_team_and_retyping_of_one_alone(team_size, expected):
    assert rule_in_force(ConfirmationRule.AUTO, team_size) is expected


@pytest.mark.parametrize("rule", ["other", "retype", "none"])
def test_a_chosen_rule_does_not_depend_on_the_team(rule):
    assert rule_in_force(rule, 1) == rule_in_force(rule, 5) == ConfirmationRule(rule)


def test_another_person_confirms_either_way_but_never_the_one_who_saved():
    rule = ConfirmationRule.OTHER_PERSON
    assert confirm_methods(rule=rule, sheet=SAVED, user=OTHER) == (
        ConfirmMethod.LOOK,
        ConfirmMethod.RETYPE,
    )
    assert confirm_methods(rule=rule, sheet=SAVED, user=SAVER) == ()
    for method in ConfirmMethod:
        assert (
            confirm_refusal(rule=rule, sheet=SAVED, user=SAVER, method=method)
            is ConfirmRefusal.OWN_SHEET
        )


def test_retyping_confirms_even_for_the_one_who_saved_but_looking_over_does_not():
    rule = ConfirmationRule.RETYPE
    assert confirm_methods(rule=rule, sheet=SAVED, user=SAVER) == (ConfirmMethod.RETYPE,)
    assert (
        confirm_refusal(rule=rule, sheet=SAVED, user=SAVER, method=ConfirmMethod.LOOK)
        is ConfirmRefusal.RETYPE_OWN_SHEET
    )
    assert confirm_methods(rule=rule, sheet=SAVED, user=OTHER) == tuple(ConfirmMethod)


def test_a_sheet_saved_by_nobody_known_is_anyones_to_confirm():
    at_table = SheetState(saved=True, complete=True, saved_by=None)
    for rule in (ConfirmationRule.OTHER_PERSON, ConfirmationRule.RETYPE):
        assert confirm_methods(rule=rule, sheet=at_table, user=SAVER) == tuple(ConfirmMethod)


def test_no_confirmation_means_nothing_to_confirm_for_anyone():
    for user in (SAVER, OTHER):
        assert confirm_methods(rule=ConfirmationRule.NONE, sheet=SAVED, user=user) == ()
        assert (
            confirm_refusal(
                rule=ConfirmationRule.NONE, sheet=SAVED, user=user, method=ConfirmMethod.RETYPE
            )
            is ConfirmRefusal.NOT_NEEDED
        )


@pytest.mark.parametrize(
    ("sheet", "refusal"),
    [
        (SheetState(saved=False, complete=False), ConfirmRefusal.NOTHING),
        (SheetState(saved=True, complete=False, saved_by=OTHER), ConfirmRefusal.NOT_COMPLETE),
    ],
)
@pytest.mark.parametrize("rule", [ConfirmationRule.OTHER_PERSON, ConfirmationRule.RETYPE])
def test_only_a_saved_complete_sheet_can_be_confirmed(sheet, refusal, rule):
    for method in ConfirmMethod:
        assert confirm_refusal(rule=rule, sheet=sheet, user=SAVER, method=method) is refusal


def test_auto_must_be_resolved_first():
    with pytest.raises(ValueError):
        confirm_refusal(
            rule=ConfirmationRule.AUTO, sheet=SAVED, user=OTHER, method=ConfirmMethod.LOOK
        )
