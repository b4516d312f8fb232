"""The shape of the code base: no module of ``tournament/`` grows past what a reader takes in at
once, and its packages have one direction.

A module over the limit is split by what its parts are about (see how ``sheets/page.py`` or
``tournament_file/site.py`` became several modules), not by line count. A package imports only
the packages below it (README, "How the site is laid out"; the contracts under
``[tool.importlinter]`` in ``pyproject.toml``): what two packages both need goes to the lower
one, never into an import hidden in a function."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOURNAMENT = ROOT / "tournament"
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


def lint_imports() -> subprocess.CompletedProcess[str]:
    """Import Linter's check of the contracts in ``pyproject.toml``, on the code as it is now."""
    return subprocess.run(
        [Path(sys.executable).with_name("lint-imports"), "--no-cache", "--no-logo"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_the_packages_of_tournament_keep_their_direction():
    result = lint_imports()
    broken = re.findall(r"^(.+) BROKEN$", result.stdout, flags=re.MULTILINE)
    assert not broken, (
        "broken import contracts (pyproject.toml, [tool.importlinter]): "
        + "; ".join(broken)
        + "\n"
        + result.stdout
    )
    assert result.returncode == 0, result.stdout + result.stderr
    kept = re.search(r"^Contracts: (\d+) kept, 0 broken\.$", result.stdout, flags=re.MULTILINE)
    assert kept is not None and int(kept.group(1)) >= 2, result.stdout
