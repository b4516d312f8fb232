"""The rules engine stays plain Python: no module under scoring/ imports Django."""

import ast
from pathlib import Path

import scoring

SCORING_DIR = Path(scoring.__file__).parent


def imported_modules(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module)
    return names


def test_the_walk_sees_the_scoring_modules():
    modules = {path.name for path in SCORING_DIR.rglob("*.py")}
    assert {"__init__.py", "sheet.py", "standings.py", "tables.py"} <= modules
    assert "scoring.errors" in imported_modules(SCORING_DIR / "sheet.py")


def test_no_scoring_module_imports_django():
    offenders = [
        f"{path.relative_to(SCORING_DIR.parent)} imports {name}"
        for path in sorted(SCORING_DIR.rglob("*.py"))
        for name in imported_modules(path)
        if name == "django" or name.startswith("django.")
    ]
    assert offenders == []
