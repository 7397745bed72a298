"""Every rule ID of Part A of the Swords & Stones digest (the Grand Campaign) and every
ambiguity of its Parts E.1 and E.2 is cited by a Part A test under ``tests/sns``.

Only the Part A test files count (``test_gc_*``, ``test_points*``, ``test_titles*``): they are
copied to a scratch folder, so that tests of the economy citing the same IDs cannot hide a gap.
This file names no ID itself."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from tests.rule_ids import RULES_DIR, digest_ids, uncited

DIGEST = "swords-and-stones.md"
FOLDER = Path(__file__).resolve().parent
PART_A_TESTS = ("test_gc_*.py", "test_points*.py", "test_titles*.py")
PART_A_AREAS = ("GC", "CAP", "KING", "NEW", "SUP", "PTS", "VP", "VEN", "TITLE", "STAT",
                "CRATE", "RES", "SCORE")


def part_a_tests(scratch: Path) -> Path:
    """A folder holding copies of the Part A test files only."""
    copied = 0
    for pattern in PART_A_TESTS:
        for path in sorted(FOLDER.glob(pattern)):
            shutil.copy(path, scratch / path.name)
            copied += 1
    assert copied >= 8
    return scratch


def part_e_ambiguities() -> set[str]:
    """The ambiguity IDs defined by the rows of Part E.1 and E.2."""
    text = (RULES_DIR / DIGEST).read_text(encoding="utf-8")
    section = text[text.index("### E.1"):text.index("### E.3")]
    return set(re.findall(r"^\| (SNS-AMB-[0-9]+[a-z]?) \|", section, flags=re.MULTILINE))


def test_part_a_rule_ids_are_all_cited(tmp_path: Path) -> None:
    """Grand Campaign, capitals, Kings, new players, supply lines, points and their spends,
    Titles (general rules and each one), statistics, crate items, results and the score: no ID
    of these areas is left without a test."""
    assert uncited(DIGEST, "SNS", [part_a_tests(tmp_path)], areas=PART_A_AREAS) == []


def test_part_e1_and_e2_ambiguities_are_all_cited(tmp_path: Path) -> None:
    """Every ambiguity of Part E.1 and E.2 (41 of them) has a Part A test."""
    mine = part_e_ambiguities()
    assert len(mine) == 41
    assert mine <= digest_ids(DIGEST, "SNS")
    missing = [i for i in uncited(DIGEST, "SNS", [part_a_tests(tmp_path)], areas=("AMB",))
               if i in mine]
    assert missing == []
