"""Every rule ID of the War of Kings digest is cited by a test under ``tests/wok``.

All areas are covered: setup, turns, territories, ledger, economy, market, costs, settlements,
culture, militia, roads, fortifications, armies, support, resupply, movement, exploration, events,
the Malador, battle, conquest, capitals, elimination, achievements, victory, variants, the worked
examples (TV), the ambiguities (AMB) and the v0.6 differences (V06).
"""

from __future__ import annotations

from pathlib import Path

from tests.rule_ids import digest_ids, uncited

HERE = Path(__file__).resolve().parent
AREAS = ("COMP", "BOARD", "SETUP", "TURN", "TERR", "LEDGER", "ECON", "MKT", "COST", "SET",
         "CULT", "MIL", "ROAD", "FORT", "ARMY", "SUPPORT", "RESUPPLY", "MOVE", "EXPL", "EVENT",
         "MAL", "BATTLE", "CONQ", "CAP", "ELIM", "ACH", "WIN", "VAR", "TV", "AMB", "V06")


def test_every_wok_rule_id_is_cited_by_a_test() -> None:
    """The coverage check over every area of the digest (its §0 to §31)."""
    assert uncited("war-of-kings.md", "WOK", [HERE], areas=AREAS) == []


def test_the_areas_listed_are_all_the_digests_areas() -> None:
    """No area of the digest is left out of the list above."""
    assert {rule_id.split("-")[1] for rule_id in digest_ids("war-of-kings.md", "WOK")} \
        == set(AREAS)
