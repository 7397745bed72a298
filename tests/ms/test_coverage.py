"""Every rule ID of the Middle Sea digest is cited by a test, and every worked example TV-MS-n is
named by a test."""

from __future__ import annotations

import re
from pathlib import Path

from tests.rule_ids import RULES_DIR, uncited

HERE = Path(__file__).resolve().parent
AREAS = (
    "EQUIP", "BOARD", "CITY", "TERM", "LEADER", "SETUP", "RES", "UNREST", "ROUND", "CONTROL",
    "REBEL", "DOM", "PROD", "BUILD", "LEAD", "MOVE", "ATK", "MIL", "MISS", "WIN", "AMB",
)


def test_ms_every_rule_id_is_cited() -> None:
    """Every MS rule ID of every area, the MS-AMB defaults included, is cited by a test."""
    assert uncited("middle-sea.md", "MS", [HERE], areas=AREAS) == []


def test_ms_every_worked_example_is_named_by_a_test() -> None:
    """Each TV-MS-n of section 18 has a test whose name starts ``test_tv_ms_<n>``."""
    digest = (RULES_DIR / "middle-sea.md").read_text(encoding="utf-8")
    examples = sorted({int(n) for n in re.findall(r"\bTV-MS-(\d+)\b", digest)})
    assert examples == [1, 2, 3, 4, 5, 6, 7]
    names = set()
    for path in HERE.glob("test_*.py"):
        names.update(re.findall(r"def (test_tv_ms_\d+)", path.read_text(encoding="utf-8")))
    missing = [n for n in examples if not any(
        re.fullmatch(rf"test_tv_ms_{n}", name) for name in names
    )]
    assert missing == []
