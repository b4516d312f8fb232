"""The lock files hold what pyproject.toml asks for: every dependency of the site, its extras and
the test tools pinned, at a version pyproject.toml allows, with hashes (scripts/lock.sh makes
them; scripts/bootstrap.sh installs from them with --require-hashes)."""

import re
import tomllib
from pathlib import Path

import pytest
from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def _pins(lock: Path) -> dict[str, str]:
    """``{name: version}`` of the lock; every pinned package carries at least one hash."""
    pins: dict[str, str] = {}
    hashes: dict[str, int] = {}
    name = ""
    for line in lock.read_text().splitlines():
        if pinned := re.match(r"([A-Za-z0-9_.-]+)==([^\s;]+)", line):
            name = canonicalize_name(pinned[1])
            pins[name] = pinned[2]
            hashes[name] = 0
        elif re.match(r"\s+--hash=sha256:[0-9a-f]{64}", line):
            hashes[name] += 1
    assert pins and all(hashes.values()), "pip --require-hashes refuses a pin without a hash"
    return pins


@pytest.mark.parametrize(
    ("lock", "extras"),
    [("site.txt", ["postgres", "server"]), ("test.txt", ["postgres", "server", "test"])],
)
def test_the_lock_pins_every_dependency_of_pyproject_at_an_allowed_version(lock, extras):
    pins = _pins(ROOT / "requirements" / lock)
    wanted = [*PROJECT["dependencies"]]
    for extra in extras:
        wanted += PROJECT["optional-dependencies"][extra]
    environment = default_environment()
    for line in wanted:
        requirement = Requirement(line)
        name = canonicalize_name(requirement.name)
        if name == canonicalize_name(PROJECT["name"]):
            continue  # the project's own extras, listed above
        if requirement.marker and not requirement.marker.evaluate(environment):
            continue
        assert name in pins, f"{name} is not in requirements/{lock}: run scripts/lock.sh"
        assert requirement.specifier.contains(pins[name], prereleases=True), (
            f"requirements/{lock} pins {name}=={pins[name]}, pyproject.toml asks "
            f"{requirement.specifier}: run scripts/lock.sh"
        )


def test_the_test_lock_keeps_the_site_pins():
    site = _pins(ROOT / "requirements" / "site.txt")
    test = _pins(ROOT / "requirements" / "test.txt")
    assert {name: test.get(name) for name in site} == site
