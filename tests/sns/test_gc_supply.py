"""Swords & Stones Grand Campaign: supply lines (SNS-SUP-1..4, SNS-AMB-3) and the worked
example D.1 (3 claimed and 2 settled Territories)."""

from __future__ import annotations

import pytest

from campaign.systems.swords_and_stones.rules import grand_campaign as gc
from tests.sns.test_gc_map import campaign, sq

B = gc.Bundle


def test_sns_sup_2_and_sns_sup_3_option_tables() -> None:
    """SNS-SUP-2, SNS-SUP-3, SNS-SUP-4: claimed land gives 1 wood, stone or food; settled land
    1 Villager (a unit), 1 gold, 2 iron or 3 food, stone or wood; favor never."""
    assert dict(gc.CLAIMED_SUPPLY) == {
        "WOOD": B(wood=1), "STONE": B(stone=1), "FOOD": B(food=1),
    }
    assert dict(gc.SETTLED_SUPPLY) == {
        "VILLAGER": B(villagers=1), "GOLD": B(gold=1), "IRON": B(iron=2),
        "FOOD": B(food=3), "STONE": B(stone=3), "WOOD": B(wood=3),
    }
    assert all(b.favor == 0 for b in (*gc.CLAIMED_SUPPLY.values(), *gc.SETTLED_SUPPLY.values()))


def test_d1_counts_of_choices_and_maxima() -> None:
    """D.1 (SNS-SUP-1..3): 3 claimed and 2 settled Territories allow 3^3 x 6^2 = 972
    assignments and C(5,3) x C(7,2) = 210 different bundles; supply alone gives at most
    3 x 1 + 2 x 3 = 9 food (likewise wood and stone), 4 iron, 2 gold, 2 Villagers and no favor.
    The digest prints 11 for food, wood and stone, but its own sum 3 x 1 + 2 x 3 is 9."""
    assert gc.supply_assignments(3, 2) == 972
    assert gc.supply_bundles(3, 2) == 210
    assert gc.supply_maxima(3, 2) == B(food=9, wood=9, stone=9, iron=4, gold=2, villagers=2)


@pytest.mark.parametrize(
    ("case", "claimed", "settled", "expected"),
    [
        ("V1", ["WOOD", "WOOD", "FOOD"], ["IRON", "VILLAGER"], B(wood=2, food=1, iron=2,
                                                                 villagers=1)),
        ("V2", ["FOOD", "FOOD", "FOOD"], ["FOOD", "FOOD"], B(food=9)),
        ("V3", ["STONE", "WOOD", "FOOD"], ["GOLD", "STONE"], B(stone=4, wood=1, food=1, gold=1)),
        ("V4", [], [], B()),
    ],
)
def test_d1_valid_choices(case: str, claimed: list[str], settled: list[str],
                          expected: gc.Bundle) -> None:
    """D.1 V1-V4 (SNS-SUP-1, SNS-SUP-2, SNS-SUP-3, SNS-SUP-4): valid choices and what they add;
    taking none is allowed. V2 is 3 x 1 + 2 x 3 = 9 food (the digest's "+11" miscounts)."""
    assert gc.supply_bundle(3, 2, claimed, settled) == expected


@pytest.mark.parametrize(
    ("case", "claimed", "settled", "message"),
    [
        ("I1", ["WOOD", "WOOD", "GOLD"], [], "SNS-SUP-2: GOLD is not a claimed Territory"),
        ("I2", [], [B(food=1, stone=2)], "SNS-SUP-3: .* not split or combined"),
        ("I3", [], [B(iron=3)], "SNS-SUP-3: \\+3 iron is not a settled"),
        ("I4", ["WOOD"] * 4, [], "SNS-SUP-1: 4 claimed-Territory choices, but only 3"),
        ("I5", [], [B(villagers=2)], "SNS-SUP-3: \\+2 villagers is not"),
        ("I6", [], [B(favor=3)], "SNS-SUP-3: .*favor never comes from supply lines"),
    ],
)
def test_d1_invalid_choices(case: str, claimed: list[gc.SupplyPick],
                            settled: list[gc.SupplyPick], message: str) -> None:
    """D.1 I1-I6 (SNS-SUP-1, SNS-SUP-2, SNS-SUP-3, SNS-SUP-4): gold from claimed land, a split
    option, 3 iron, a fourth claimed choice, 2 Villagers and favor are all refused."""
    with pytest.raises(gc.RuleViolation, match=message):
        gc.supply_bundle(3, 2, claimed, settled)


def test_sns_sup_1_a_bundle_naming_an_option_exactly_is_that_option() -> None:
    """SNS-SUP-1, SNS-SUP-3: a choice may be written as the exact resources it gives."""
    assert gc.supply_bundle(0, 1, [], [B(iron=2)]) == B(iron=2)
    with pytest.raises(gc.RuleViolation, match="SNS-SUP-1: 1 settled-Territory choices"):
        gc.supply_bundle(3, 0, [], ["IRON"])


def test_sns_sup_3_slots_per_territory_capital_counts_as_settled() -> None:
    """SNS-SUP-1, SNS-SUP-3, SNS-AMB-3: the Capital gives a settled choice by default, none
    when the group does not count it as settled; unclaimed land gives nothing."""
    state = campaign(3, 3, {
        "A1": (gc.CAPITAL, "red"), "A3": (gc.SETTLED, "red"),
        "B1": (gc.CLAIMED, "red"), "C3": (gc.CLAIMED, "red"), "C1": (gc.CAPITAL, "blue"),
    })
    slots = gc.supply_slots(state.map, "red")
    assert slots == gc.SupplySlots(claimed=(sq("B1"), sq("C3")), settled=(sq("A1"), sq("A3")))
    off = gc.Options(capital_counts_as_settled=False)
    assert gc.supply_slots(state.map, "red", off).settled == (sq("A3"),)
    assert gc.supply_options(state.map, sq("A1")) == gc.SETTLED_SUPPLY
    assert gc.supply_options(state.map, sq("A1"), off) == {}
    assert gc.supply_options(state.map, sq("B1")) == gc.CLAIMED_SUPPLY
    assert gc.supply_options(state.map, sq("B2")) == {}


def test_sns_sup_1_choices_by_territory() -> None:
    """SNS-SUP-1..4 (D.4's picks): A1 3 wood, A3 2 iron, B1 1 food, C3 1 stone; a Territory
    chosen twice, someone else's, or a Capital not counted as settled is refused."""
    state = campaign(3, 3, {
        "A1": (gc.CAPITAL, "red"), "A3": (gc.SETTLED, "red"),
        "B1": (gc.CLAIMED, "red"), "C3": (gc.CLAIMED, "red"), "C1": (gc.CAPITAL, "blue"),
    })
    lines = gc.supply_from_territories(state.map, "red", [
        (sq("A1"), "WOOD"), (sq("A3"), B(iron=2)), (sq("B1"), "FOOD"), (sq("C3"), "STONE"),
    ])
    assert [(line.territory, line.kind, line.option, line.bundle) for line in lines] == [
        (sq("A1"), gc.SETTLED, "WOOD", B(wood=3)),
        (sq("A3"), gc.SETTLED, "IRON", B(iron=2)),
        (sq("B1"), gc.CLAIMED, "FOOD", B(food=1)),
        (sq("C3"), gc.CLAIMED, "STONE", B(stone=1)),
    ]
    with pytest.raises(gc.RuleViolation, match="SNS-SUP-1: .* one supply choice, not two"):
        gc.supply_from_territories(state.map, "red", [(sq("B1"), "FOOD"), (sq("B1"), "WOOD")])
    with pytest.raises(gc.RuleViolation, match="SNS-SUP-1: .* is not red's land"):
        gc.supply_from_territories(state.map, "red", [(sq("C1"), "GOLD")])
    with pytest.raises(gc.RuleViolation, match="SNS-SUP-2"):
        gc.supply_from_territories(state.map, "red", [(sq("B1"), "IRON")])
    with pytest.raises(gc.RuleViolation, match="SNS-AMB-3"):
        gc.supply_from_territories(state.map, "red", [(sq("A1"), "GOLD")],
                                   gc.Options(capital_counts_as_settled=False))
