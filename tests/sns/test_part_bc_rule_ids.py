"""Every rule ID of Parts B and C of the Swords & Stones digest (the economy of a game, battle
facts, auto-resolve, ledger state, the early-end score) and every ambiguity of Part E.3 is cited
by an economy test under ``tests/sns``.

Only the economy test files count (``test_econ_*``, ``test_autoresolve*``, ``test_events*``):
they are copied to a scratch folder, so that Part A tests citing the same IDs cannot hide a gap.
This file names no ID itself."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from tests.rule_ids import RULES_DIR, digest_ids, uncited

DIGEST = "swords-and-stones.md"
FOLDER = Path(__file__).resolve().parent
PART_BC_TESTS = ("test_econ_*.py", "test_autoresolve*.py", "test_events*.py")
PART_BC_AREAS = ("ECON", "FAC", "BLD", "UPG", "UNIT", "EVT", "MAP", "AR", "STATE", "CBT",
                 "SCORE")
#: The two ambiguities of Part E.1 about the early-end score, which Part C's score counts use.
SCORE_AMBIGUITIES = {"SNS-AMB-26", "SNS-AMB-27"}


def part_bc_tests(scratch: Path) -> Path:
    """A folder holding copies of the economy test files only."""
    copied = 0
    for pattern in PART_BC_TESTS:
        for path in sorted(FOLDER.glob(pattern)):
            shutil.copy(path, scratch / path.name)
            copied += 1
    assert copied >= 9
    return scratch


def part_e3_ambiguities() -> set[str]:
    """The ambiguity IDs defined by the rows of Part E.3."""
    text = (RULES_DIR / DIGEST).read_text(encoding="utf-8")
    section = text[text.index("### E.3"):text.index("## Part F")]
    return set(re.findall(r"^\| (SNS-AMB-[0-9]+[a-z]?) \|", section, flags=re.MULTILINE))


def test_every_part_bc_rule_id_is_cited(tmp_path: Path) -> None:
    """No rule ID of the economy, faction, building, upgrade, unit, event, map, auto-resolve,
    state, battle or score areas is left without a test."""
    assert uncited(DIGEST, "SNS", [part_bc_tests(tmp_path)], areas=PART_BC_AREAS) == []


def test_every_part_e3_ambiguity_is_cited(tmp_path: Path) -> None:
    """Every ambiguity of Part E.3 (and the two about the score) has a test choosing its
    default."""
    wanted = part_e3_ambiguities() | SCORE_AMBIGUITIES
    assert len(wanted) == 18
    missing = set(uncited(DIGEST, "SNS", [part_bc_tests(tmp_path)], areas=("AMB",)))
    assert sorted(wanted & missing) == []


def test_the_areas_are_not_empty() -> None:
    """The digest still defines IDs in each area this coverage test watches."""
    ids = digest_ids(DIGEST, "SNS")
    counts = {area: sum(1 for i in ids if i.split("-")[1] == area) for area in PART_BC_AREAS}
    assert counts == {"ECON": 45, "FAC": 10, "BLD": 34, "UPG": 76, "UNIT": 20, "EVT": 5,
                      "MAP": 9, "AR": 9, "STATE": 7, "CBT": 15, "SCORE": 3}
