"""Every rule ID of the Mighty Kingdoms digest is cited by a test, and every worked example
(TV-MK-n) is named by a test function, in its name or its docstring."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.rule_ids import ROOT, RULES_DIR, digest_ids, uncited

DIGEST = "mighty-kingdoms.md"
#: The test folders that test Mighty Kingdoms.
FOLDERS = [ROOT / "tests" / name for name in ("mk", "rules", "battles", "print", "ledger")]
EXAMPLE = re.compile(r"\bTV-MK-\d+\b")


def worked_examples() -> set[str]:
    """The worked examples (test vectors) of the digest."""
    return set(EXAMPLE.findall((RULES_DIR / DIGEST).read_text(encoding="utf-8")))


def named_examples(folders: list[Path]) -> set[str]:
    """The worked examples that a test function names: ``test_tv_mk_3_...`` (or ``3a``) in its
    name, or TV-MK-3 in its docstring. A comment or a module docstring does not count."""
    named: set[str] = set()
    for folder in folders:
        for path in folder.rglob("test_*.py"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    continue
                if not node.name.startswith("test_"):
                    continue
                match = re.match(r"test_tv_mk_(\d+)", node.name)
                if match:
                    named.add(f"TV-MK-{match.group(1)}")
                named.update(EXAMPLE.findall(ast.get_docstring(node) or ""))
    return named


def test_every_mighty_kingdoms_rule_id_is_cited_by_a_test() -> None:
    """Every MK-<AREA>-<n> of the digest, MK-AMB and MK-GLOSS included."""
    assert uncited(DIGEST, "MK", FOLDERS) == []


def test_the_coverage_check_sees_uncited_ids() -> None:
    """Without test folders every ID is uncited: the check above is not empty by accident."""
    missing = uncited(DIGEST, "MK", [])
    assert {"MK-GEN-1", "MK-GLOSS-8", "MK-AMB-42", "MK-YEAR-3"} <= set(missing)
    assert missing == sorted(digest_ids(DIGEST, "MK"))
    assert len(missing) >= 200


def test_every_worked_example_is_named_by_a_test() -> None:
    """TV-MK-1 to TV-MK-12 each have a test function that names them."""
    examples = worked_examples()
    assert {f"TV-MK-{n}" for n in range(1, 13)} <= examples
    assert sorted(examples - named_examples(FOLDERS)) == []
