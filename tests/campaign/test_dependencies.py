"""The lock file holds every installed package to one version, in step with the pins."""

from __future__ import annotations

import re
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PIN = re.compile(r"^([A-Za-z0-9_.\-]+)(?:\[[^\]]*\])?==([^\s;#]+)")


def _pins(name: str) -> dict[str, str]:
    pins = {}
    for line in (ROOT / name).read_text(encoding="utf-8").splitlines():
        found = PIN.match(line.strip())
        if found:
            pins[_canonical(found.group(1))] = found.group(2)
    return pins


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def test_every_pin_is_in_the_lock_at_the_same_version() -> None:
    lock = _pins("requirements.lock")
    for source in ("requirements.txt", "requirements-dev.txt"):
        for name, version in _pins(source).items():
            assert lock.get(name) == version, f"{source}: {name}=={version}, lock {lock.get(name)}"


def test_every_requirement_line_is_pinned() -> None:
    for source in ("requirements.txt", "requirements-dev.txt"):
        for line in (ROOT / source).read_text(encoding="utf-8").splitlines():
            line = line.strip()
            if line and not line.startswith(("#", "-r ")):
                assert PIN.match(line), f"{source}: {line!r} is not pinned with =="


def test_the_environment_matches_the_lock() -> None:
    """What the tests run with is what the lock says (the Makefile installs with -c)."""
    lock = _pins("requirements.lock")
    assert len(lock) > 20
    installed = {_canonical(d.metadata["Name"]): d.version for d in metadata.distributions()}
    wrong = {name: (version, installed.get(name)) for name, version in lock.items()
             if installed.get(name) != version}
    assert wrong == {}
    # Every dependency of the pinned packages is locked too.
    missing = sorted(set(installed) - set(lock) - {"setuptools"})
    assert missing == []
