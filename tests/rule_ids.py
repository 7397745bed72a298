"""Which rule IDs of a digest no test cites.

Each system's digest (``../shared/rules/<file>.md`` beside the project) gives every rule a stable
ID such as ``MK-SIMPLE-3`` or ``SNS-VP-BOLSTER``. A system's coverage test calls
:func:`uncited` with the digest's file name, the ID prefix and the test folders that cite it,
and fails listing every ID that no test names. A test cites an ID by writing it in its name,
docstring or a comment; a test named ``test_mk_simple_3_...`` cites ``MK-SIMPLE-3`` too.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES_DIR = ROOT.parent / "shared" / "rules"
TESTS = ROOT / "tests"

# The digest of each registered system (slug -> file name under shared/rules/); the registry
# test requires an entry for every system and that no rule ID of it goes uncited.
DIGESTS = {
    "mighty-kingdoms": "mighty-kingdoms.md",
    "swords-and-stones": "swords-and-stones.md",
    "war-of-kings": "war-of-kings.md",
    "middle-sea": "middle-sea.md",
}


def digest_ids(digest: str, prefix: str) -> set[str]:
    """Every rule ID with ``prefix`` (e.g. "MK") that the digest defines or mentions.

    A bare area prefix such as ``MK-AMB`` (no number or name) is a heading, not a rule."""
    text = (RULES_DIR / digest).read_text(encoding="utf-8")
    pattern = re.compile(rf"\b{re.escape(prefix)}-[A-Z][A-Z0-9]*-[A-Z0-9]+[a-z]?\b")
    return set(pattern.findall(text))


def _expand_ranges(text: str, prefix: str) -> set[str]:
    """IDs named by a range such as ``MK-WINTER-2..5`` or ``SNS-GC-6a-d`` count as cited."""
    found: set[str] = set()
    for area, lo, hi in re.findall(
        rf"\b{re.escape(prefix)}-([A-Z][A-Z0-9]*)-(\d+)\s*(?:\.\.|–|to)\s*(\d+)\b", text
    ):
        for n in range(int(lo), int(hi) + 1):
            found.add(f"{prefix}-{area}-{n}")
    return found


def cited_ids(prefix: str, folders: list[Path]) -> set[str]:
    """IDs that the test files under ``folders`` name, in text or in a test function's name."""
    text_pattern = re.compile(rf"\b{re.escape(prefix)}-[A-Z][A-Z0-9]*-[A-Z0-9]+[a-z]?\b")
    name_pattern = re.compile(rf"\bdef test_{prefix.lower()}_([a-z][a-z0-9]*)_([a-z0-9]+)")
    cited: set[str] = set()
    for folder in folders:
        for path in folder.rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            cited.update(text_pattern.findall(text))
            cited.update(_expand_ranges(text, prefix))
            for area, number in name_pattern.findall(text):
                cited.add(f"{prefix}-{area.upper()}-{number.upper()}")
    return cited


def uncited(digest: str, prefix: str, folders: list[Path],
            areas: tuple[str, ...] | None = None) -> list[str]:
    """The digest's IDs that no test under ``folders`` cites, sorted; with ``areas`` (such as
    ``("GC", "CAP")``) only the IDs of those areas."""
    wanted = {
        rule_id for rule_id in digest_ids(digest, prefix)
        if areas is None or rule_id.split("-")[1] in areas
    }
    return sorted(wanted - cited_ids(prefix, folders))
