"""The one change to the pure winter rules: a new army never takes a number an earlier army
carried (MK-SETUP-6, MK-RECRUIT-2). No database."""

from __future__ import annotations

from campaign.systems.mighty_kingdoms.rules import ledger as eco
from campaign.systems.mighty_kingdoms.rules.campaign import (
    FORTRESS,
    Army,
    Kingdom,
    MapView,
    TileState,
)

RED = Kingdom("red", "Red", "C0", "C0")
TILES = MapView((TileState("F1", settlement=FORTRESS, controller="red", explored=True),))


def recruit(armies: tuple[Army, ...], last_number: int) -> eco.PurchaseOutcome:
    state = eco.KingdomWinter(RED, eco.Resources(gold=1), armies, last_number=last_number)
    return eco.apply_purchase(state, TILES, eco.Purchase(eco.RECRUIT, "F1"))


def test_mk_recruit_2_new_army_takes_the_next_number_never_used() -> None:
    armies = (Army(1, "red", 1, "F1"), Army(2, "red", 2, "F1"))
    # Army #3 and #4 were removed earlier: the new one is #5, and its ledger line says so.
    outcome = recruit(armies, last_number=4)
    assert outcome.new_army is not None and outcome.new_army.number == 5
    assert outcome.lines == (eco.IncomeLine("gold", -1, "MK-RECRUIT-2", "army #5 at F1"),)


def test_mk_recruit_2_without_history_the_next_number_follows_the_living_armies() -> None:
    outcome = recruit((Army(1, "red", 1, "F1"), Army(3, "red", 3, "F1")), last_number=0)
    assert outcome.new_army is not None and outcome.new_army.number == 4
