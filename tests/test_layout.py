"""The shape of the code base: no module of ``tournament/`` grows past what a reader takes in at
once. A module over the limit is split by what its parts are about (see how ``sheets/page.py``
or ``tournament_file/site.py`` became several modules), not by line count."""

from __future__ import annotations

from pathlib import Path

TOURNAMENT = Path(__file__).resolve().parent.parent / "tournament"
MAX_LINES = 450


def module_lengths() -> dict[str, int]:
    """Every Python module of ``tournament/`` but the migrations, with its number of lines."""
    return {
        path.relative_to(TOURNAMENT).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
        for path in sorted(TOURNAMENT.rglob("*.py"))
        if "migrations" not in path.relative_to(TOURNAMENT).parts
    }


def test_the_modules_are_found():
    lengths = module_lengths()
    assert "models/__init__.py" in lengths
    assert "sheets/page.py" in lengths
    assert not any(name.startswith("migrations/") for name in lengths)


def test_no_module_of_tournament_is_over_the_limit():
    too_long = {name: lines for name, lines in module_lengths().items() if lines > MAX_LINES}
    assert not too_long, (
        f"modules of tournament/ over {MAX_LINES} lines (split them by what their parts are "
        "about): " + ", ".join(f"{name} ({lines})" for name, lines in sorted(too_long.items()))
    )
