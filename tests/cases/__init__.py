"""Test cases shared by more than one implementation of the same rules."""

import json
from pathlib import Path

import pytest

SHEET_CHECKS = Path(__file__).with_name("sheet_checks.json")


def sheet_check_cases() -> list:
    """The cases of sheet_checks.json as pytest parameters, each named by its case."""
    cases = json.loads(SHEET_CHECKS.read_text(encoding="utf-8"))["cases"]
    return [pytest.param(case, id=case["name"]) for case in cases]


def problem_key(problem: dict) -> tuple[str, int]:
    """The order of sheet_checks.json: by code, then seat (the whole deal first)."""
    return problem["code"], -1 if problem["seat"] is None else problem["seat"]
