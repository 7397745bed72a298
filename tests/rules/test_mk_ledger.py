"""Mighty Kingdoms winter economy, tested against the digest's rule IDs and TV-MK-3."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from campaign.systems.mighty_kingdoms.rules import campaign as mk
from campaign.systems.mighty_kingdoms.rules import ledger as led
from campaign.systems.mighty_kingdoms.rules.campaign import (
    CITY,
    FORTRESS,
    VILLAGE,
    Army,
    EdgeView,
    Kingdom,
    MapView,
    MKOptions,
    RuleViolation,
    TileState,
)
from campaign.systems.mighty_kingdoms.rules.ledger import (
    CycleAction,
    Holdings,
    IncomeLine,
    KingdomWinter,
    Purchase,
    Resources,
    Tithe,
)

RED, BLUE, GREEN = "red", "blue", "green"


def make_map(
    tiles: dict[str, dict[str, Any]], links: Sequence[tuple[str, str]] = ()
) -> MapView:
    edges: dict[str, list[EdgeView]] = {label: [] for label in tiles}
    for a, b in links:
        edges[a].append(EdgeView(b))
        edges[b].append(EdgeView(a))
    return MapView(
        tuple(
            TileState(label, edges=tuple(edges[label]), **attrs) for label, attrs in tiles.items()
        )
    )


def tv3_map() -> MapView:
    """TV-MK-3: Red holds C0 (own capital, coastal), C1 (river), C2, V1-V3, F1, E1-E3.
    Blue holds its capital B0 and a village; Green holds its capital G0."""
    red = {"controller": RED, "explored": True}
    return make_map(
        {
            "C0": {**red, "settlement": CITY, "is_coastal": True},
            "C1": {**red, "settlement": CITY, "has_river": True},
            "C2": {**red, "settlement": CITY},
            "V1": {**red, "settlement": VILLAGE},
            "V2": {**red, "settlement": VILLAGE},
            "V3": {**red, "settlement": VILLAGE},
            "F1": {**red, "settlement": FORTRESS},
            "E1": {**red},
            "E2": {**red},
            "E3": {**red},
            "B0": {"controller": BLUE, "explored": True, "settlement": CITY},
            "BV": {"controller": BLUE, "explored": True, "settlement": VILLAGE},
            "G0": {"controller": GREEN, "explored": True, "settlement": CITY},
        }
    )


RED_K = Kingdom(RED, "Red", "C0", "C0")
BLUE_K = Kingdom(BLUE, "Blue", "B0", "B0")
GREEN_K = Kingdom(GREEN, "Green", "G0", "G0")
KINGDOMS = (RED_K, BLUE_K, GREEN_K)
ORDER = (RED, BLUE, GREEN)


def red_armies() -> tuple[Army, ...]:
    return (
        Army(1, RED, 1, "C0", points=300),
        Army(2, RED, 2, "C0"),
        Army(3, RED, 3, "C0"),
    )


DEFAULTS = MKOptions()


def income(
    kingdom: Kingdom, tiles: MapView, options: MKOptions = DEFAULTS
) -> tuple[IncomeLine, ...]:
    return led.winter_income(Holdings.of(kingdom, tiles, KINGDOMS), options)


def red_state(stock: Resources, **kw: Any) -> KingdomWinter:
    return KingdomWinter(RED_K, stock, kw.pop("armies", red_armies()), frozenset({"C0"}), **kw)


# --- TV-MK-3 end to end ------------------------------------------------------------------------


def test_tv_mk_3_winter_for_red_end_to_end() -> None:
    tiles = tv3_map()

    # 1. Recall: armies to C0, S1 docks at C0 (C0 and C1 eligible).
    assert mk.recall_destination(RED_K, tiles).choices == ("C0",)
    assert mk.docking_cities(RED, tiles) == ("C0", "C1")
    assert mk.validate_docking(RED, tiles, [mk.Ship(11, RED, 1, "E3")], {1: "C0"}) == ()

    # 2. Gather: 3 food, 4 gold, itemised by rule then tile.
    gathered = income(RED_K, tiles)
    assert gathered == (
        IncomeLine("gold", 1, "MK-AMB-2", "own capital at C0, as a city"),
        IncomeLine("gold", 1, "MK-WINTER-2", "own capital at C0"),
        IncomeLine("gold", 1, "MK-WINTER-2", "city at C1"),
        IncomeLine("gold", 1, "MK-WINTER-2", "city at C2"),
        IncomeLine("food", 1, "MK-WINTER-2", "village at V1"),
        IncomeLine("food", 1, "MK-WINTER-2", "village at V2"),
        IncomeLine("food", 1, "MK-WINTER-2", "village at V3"),
    )
    stock = led.totals(gathered)
    assert stock == Resources(gold=4, food=3)

    # 3. Tithe: Red gives Green 1 gold; Blue gives Red 1 food; then everyone passes.
    to_green = Tithe(RED, GREEN, gold=1)
    led.validate_tithe(to_green, stock, [], ORDER)
    to_red = Tithe(BLUE, RED, food=1)
    led.validate_tithe(to_red, Resources(2, 1), [to_green], ORDER)
    stock = stock + led.totals(led.tithe_lines(to_green)[RED]) + led.totals(
        led.tithe_lines(to_red)[RED]
    )
    assert stock == Resources(gold=3, food=4)
    tithe_turns = [
        CycleAction(RED, False), CycleAction(BLUE, False), CycleAction(GREEN, True),
        CycleAction(RED, True), CycleAction(BLUE, True),
    ]
    assert led.spend_cycle_state(ORDER, tithe_turns) == led.CycleState(None, True, 3)

    # 4. Build and recruit.
    state = red_state(stock)
    recruited = led.apply_purchase(state, tiles, Purchase("recruit", "F1"))
    assert recruited.state.stock == Resources(gold=2, food=4)
    assert recruited.new_army == Army(None, RED, 4, "F1", points=500)
    assert recruited.lines == (IncomeLine("gold", -1, "MK-RECRUIT-2", "army #4 at F1"),)
    with pytest.raises(RuleViolation, match=r"A ship is already docked at C0"):
        led.check_purchase(recruited.state, tiles, Purchase("ship", "C0"))
    shipped = led.apply_purchase(recruited.state, tiles, Purchase("ship", "C1"))
    assert shipped.state.stock == Resources(gold=1, food=4)
    assert shipped.state.docked == {"C0", "C1"}
    assert shipped.lines == (IncomeLine("gold", -1, "MK-SHIPYARD-1", "ship at C1"),)
    built = led.apply_purchase(shipped.state, tiles, Purchase("settle", "E1", VILLAGE))
    assert built.state.stock == Resources(gold=0, food=4)
    assert built.tiles.tile("E1").settlement == VILLAGE
    assert built.lines == (IncomeLine("gold", -1, "MK-SETTLE-3", "village at E1"),)
    tiles = built.tiles
    buy_turns = [
        CycleAction(RED, False), CycleAction(BLUE, True), CycleAction(GREEN, True),
        CycleAction(RED, False), CycleAction(BLUE, True), CycleAction(GREEN, True),
        CycleAction(RED, False), CycleAction(BLUE, True), CycleAction(GREEN, True),
        CycleAction(RED, True),
    ]
    assert led.spend_cycle_state(ORDER, buy_turns) == led.CycleState(None, True, 3)

    # 5. Feed: 4 armies, 4 food, nothing left and nothing lost.
    armies = built.state.armies
    assert led.food_needed(len(armies)) == 4
    assert led.armies_to_remove(len(armies), built.state.stock.food) == 0
    fed = led.feed_armies(armies, built.state.stock.food, {1, 2, 3, 4})
    assert (fed.fed, fed.unfed, fed.food_left) == ((1, 2, 3, 4), (), 0)
    assert led.totals(fed.lines) == Resources(food=-4)
    assert led.leftover_lines(Resources(0, fed.food_left)) == ()

    # 6. Deploy limits.
    assert mk.deployment_capacity(RED_K, tiles) == {
        "C0": 3, "C1": 2, "C2": 2, "E1": 1, "F1": 3, "V1": 1, "V2": 1, "V3": 1,
    }

    # Next winter, unchanged: 4 food and 4 gold.
    assert led.totals(income(RED_K, tiles)) == Resources(gold=4, food=4)


def test_tv_mk_3_variant_blue_holds_c0() -> None:
    tiles = tv3_map().with_tile("C0", controller=BLUE)
    assert led.totals(income(RED_K, tiles)) == Resources(gold=2, food=3)
    blue = income(BLUE_K, tiles)
    assert [line for line in blue if line.source.endswith("C0")] == [
        IncomeLine("gold", 1, "MK-WINTER-5", "captured capital at C0"),
    ]
    assert led.totals(blue) == Resources(gold=3, food=1)


def test_tv_mk_3_starting_kingdom_gathers_three_gold_two_food() -> None:
    red = {"controller": RED, "explored": True}
    tiles = make_map(
        {
            "K0": {**red, "settlement": CITY},
            "K1": {**red, "settlement": CITY},
            "KF": {**red, "settlement": FORTRESS},
            "KV": {**red, "settlement": VILLAGE},
            "KW": {**red, "settlement": VILLAGE},
            "KE": {**red},
            "KM": {**red},
        }
    )
    lines = led.winter_income(Holdings.of(Kingdom(RED, "Red", "K0", "K0"), tiles))
    assert led.totals(lines) == Resources(gold=3, food=2)


def test_mk_amb_2_house_rule_own_capital_gives_one_gold() -> None:
    lines = income(RED_K, tv3_map(), MKOptions(own_capital_double_gold=False))
    assert led.totals(lines) == Resources(gold=3, food=3)
    assert not any(line.rule_id == "MK-AMB-2" for line in lines)


def test_mk_winter_2_fortresses_and_empty_tiles_give_nothing() -> None:
    tiles = make_map(
        {"F": {"controller": RED, "settlement": FORTRESS}, "E": {"controller": RED}}
    )
    assert led.winter_income(Holdings.of(Kingdom(RED, "Red", "X", None), tiles)) == ()


def test_mk_winter_5_own_capital_lost_then_retaken_counts_again() -> None:
    tiles = tv3_map().with_tile("C0", controller=BLUE).with_tile("C0", controller=RED)
    assert led.totals(income(RED_K, tiles)) == Resources(gold=4, food=3)


def test_mk_winter_2_totals_helper() -> None:
    lines = [
        IncomeLine("gold", 2, "MK-WINTER-2", "x"),
        IncomeLine("food", 1, "MK-WINTER-2", "y"),
        IncomeLine("gold", -1, "MK-BUY-3", "z"),
    ]
    assert led.totals(lines) == Resources(gold=1, food=1)
    assert led.totals([]) == Resources()
    with pytest.raises(ValueError):
        led.totals([IncomeLine("wood", 1, "MK-WINTER-2", "q")])


def test_mk_winter_4_leftovers_are_lost() -> None:
    assert led.leftover_lines(Resources(gold=2, food=1)) == (
        IncomeLine("gold", -2, "MK-WINTER-4", "unspent at the end of winter"),
        IncomeLine("food", -1, "MK-WINTER-4", "unspent at the end of winter"),
    )
    assert led.leftover_lines(Resources()) == ()


# --- the tithe / buy cycle (MK-TITHE-1/5, MK-BUY-1) --------------------------------------------


def test_mk_tithe_5_cycle_turns_and_closing() -> None:
    assert led.spend_cycle_state(ORDER, []) == led.CycleState(RED, False, 0)
    partial = [CycleAction(RED, True), CycleAction(BLUE, True)]
    assert led.spend_cycle_state(ORDER, partial) == led.CycleState(GREEN, False, 2)
    # Green acts: the passes so far no longer count, and Red (who passed) may act again.
    back_in = partial + [CycleAction(GREEN, False)]
    assert led.spend_cycle_state(ORDER, back_in) == led.CycleState(RED, False, 0)
    again = back_in + [CycleAction(RED, False), CycleAction(BLUE, True), CycleAction(GREEN, True)]
    assert led.spend_cycle_state(ORDER, again) == led.CycleState(RED, False, 2)
    closed = again + [CycleAction(RED, True)]
    assert led.spend_cycle_state(ORDER, closed).closed
    assert led.spend_cycle_state((), []) == led.CycleState(None, True, 0)


def test_mk_buy_1_out_of_turn_and_after_closing_are_refused() -> None:
    with pytest.raises(RuleViolation, match=r"It was red's turn, not blue's \(MK-BUY-1\)"):
        led.spend_cycle_state(ORDER, [CycleAction(BLUE, False)])
    closed = [CycleAction(k, True) for k in ORDER]
    with pytest.raises(RuleViolation, match=r"closed.*MK-TITHE-5"):
        led.spend_cycle_state(ORDER, closed + [CycleAction(RED, False)])
    state = led.spend_cycle_state(ORDER, [CycleAction(RED, False)])
    led.validate_turn(state, BLUE)
    with pytest.raises(RuleViolation, match=r"It is blue's turn"):
        led.validate_turn(state, RED)
    with pytest.raises(RuleViolation, match=r"sub-phase is over"):
        led.validate_turn(led.spend_cycle_state(ORDER, closed), RED)


@settings(deadline=None)
@given(st.lists(st.booleans(), max_size=30))
def test_mk_buy_1_cycle_closes_exactly_after_a_full_round_of_passes(passes: list[bool]) -> None:
    actions: list[CycleAction] = []
    run = 0
    for index, passed in enumerate(passes):
        if run >= len(ORDER):
            break
        actions.append(CycleAction(ORDER[index % len(ORDER)], passed))
        run = run + 1 if passed else 0
    state = led.spend_cycle_state(ORDER, actions)
    assert state.closed == (run >= len(ORDER))
    assert state.passes_in_row == run
    if not state.closed:
        assert state.turn == ORDER[len(actions) % len(ORDER)]


# --- tithes (MK-TITHE) -------------------------------------------------------------------------


def test_mk_tithe_1_valid_gifts() -> None:
    led.validate_tithe(Tithe(RED, BLUE, gold=1, food=1), Resources(1, 1), [], ORDER)
    earlier = [Tithe(RED, BLUE, gold=1)]
    led.validate_tithe(Tithe(RED, GREEN, food=1), Resources(0, 1), earlier, ORDER)
    led.validate_tithe(Tithe(BLUE, RED, gold=1), Resources(1, 0), earlier, ORDER)
    assert led.tithe_lines(Tithe(RED, BLUE, gold=1, food=1)) == {
        RED: (
            IncomeLine("gold", -1, "MK-TITHE-1", "tithe to blue"),
            IncomeLine("food", -1, "MK-TITHE-1", "tithe to blue"),
        ),
        BLUE: (
            IncomeLine("gold", 1, "MK-TITHE-1", "tithe from red"),
            IncomeLine("food", 1, "MK-TITHE-1", "tithe from red"),
        ),
    }


@pytest.mark.parametrize(
    "tithe, stock, earlier, message",
    [
        (Tithe(RED, RED, gold=1), Resources(3, 3), [], r"another player \(MK-TITHE-1\)"),
        (Tithe(RED, "nobody", gold=1), Resources(3, 3), [], r"not a player.*MK-AMB-32"),
        (Tithe(RED, BLUE, gold=2), Resources(3, 3), [], r"at most 1 gold.*MK-TITHE-1"),
        (Tithe(RED, BLUE, food=-1), Resources(3, 3), [], r"at most 1 gold.*MK-TITHE-1"),
        (Tithe(RED, BLUE), Resources(3, 3), [], r"nothing is a pass.*MK-AMB-32"),
        (
            Tithe(RED, BLUE, food=1), Resources(3, 3), [Tithe(RED, BLUE, gold=1)],
            r"already tithed to blue.*MK-TITHE-3",
        ),
        (Tithe(RED, BLUE, gold=1, food=1), Resources(1, 0), [], r"You have 1 gold.*MK-TITHE-6"),
        (Tithe(RED, BLUE, gold=1), Resources(0, 0), [],
         r"^You have 0 gold and 0 food, and this tithe is 1 gold: .*MK-TITHE-6"),
    ],
)
def test_mk_tithe_illegal_gifts_say_why(
    tithe: Tithe, stock: Resources, earlier: list[Tithe], message: str
) -> None:
    with pytest.raises(RuleViolation, match=message):
        led.validate_tithe(tithe, stock, earlier, ORDER)


# --- purchases (MK-BUY, MK-SETTLE, MK-SHIPYARD, MK-RECRUIT) ------------------------------------


def test_mk_settle_3_cost_table() -> None:
    assert led.SETTLEMENT_COSTS == {
        ("", "village"): Resources(gold=1),
        ("village", "city"): Resources(gold=1, food=1),
        ("village", "fortress"): Resources(gold=2),
        ("city", "capital"): Resources(gold=1, food=1),
    }
    assert led.SHIP_COST == Resources(gold=1)
    assert led.RECRUIT_COST == Resources(gold=1)


@pytest.mark.parametrize(
    "tile, target, cost",
    [
        ("E1", VILLAGE, Resources(gold=1)),
        ("V1", CITY, Resources(gold=1, food=1)),
        ("V1", FORTRESS, Resources(gold=2)),
    ],
)
def test_mk_settle_3_each_upgrade_costs_exactly(tile: str, target: str, cost: Resources) -> None:
    purchase = Purchase("settle", tile, target)
    outcome = led.apply_purchase(red_state(Resources(5, 5)), tv3_map(), purchase)
    assert outcome.state.stock == Resources(5, 5) - cost
    assert outcome.tiles.tile(tile).settlement == target
    assert led.totals(outcome.lines) == Resources() - cost


def test_mk_settle_4_new_capital_only_after_the_old_is_taken_or_razed() -> None:
    new_capital = Purchase("settle", "C1", "capital")
    with pytest.raises(RuleViolation, match=r"still hold your Capital City at C0.*MK-SETTLE-4"):
        led.check_purchase(red_state(Resources(5, 5)), tv3_map(), new_capital)
    taken = tv3_map().with_tile("C0", controller=BLUE)
    outcome = led.apply_purchase(red_state(Resources(1, 1)), taken, new_capital)
    assert outcome.state.stock == Resources(0, 0)
    assert outcome.state.kingdom.capital_tile == "C1"
    assert outcome.lines == (
        IncomeLine("gold", -1, "MK-SETTLE-3", "Capital City at C1"),
        IncomeLine("food", -1, "MK-SETTLE-3", "Capital City at C1"),
    )
    new_red = outcome.state.kingdom
    assert mk.current_capital(new_red, taken) == "C1"
    assert mk.deployment_limit(new_red, taken, "C1") == 3
    # MK-AMB-8: retaking the old start city now gives a regular city.
    retaken = taken.with_tile("C0", controller=RED)
    lines = led.winter_income(Holdings.of(new_red, retaken, (BLUE_K, GREEN_K)))
    assert IncomeLine("gold", 1, "MK-WINTER-2", "city at C0") in lines
    assert led.totals(lines) == Resources(gold=4, food=3)  # C0 1, capital C1 2, C2 1
    razed = tv3_map().with_tile("C0", settlement="")
    led.check_purchase(red_state(Resources(1, 1)), razed, Purchase("settle", "C2", "capital"))


def test_mk_amb_19_several_upgrades_of_one_tile_in_one_winter() -> None:
    state = red_state(Resources(2, 1))
    first = led.apply_purchase(state, tv3_map(), Purchase("settle", "E1", VILLAGE))
    second = led.apply_purchase(first.state, first.tiles, Purchase("settle", "E1", CITY))
    assert second.tiles.tile("E1").settlement == CITY
    assert second.state.stock == Resources(0, 0)
    strict = MKOptions(multiple_upgrades_per_tile=False)
    with pytest.raises(RuleViolation, match=r"E1 was already built on this winter.*MK-AMB-19"):
        led.check_purchase(first.state, first.tiles, Purchase("settle", "E1", CITY), strict)


ILLEGAL_PURCHASES = [
    (Purchase("settle", "B0", CITY), r"You do not control B0.*MK-SETTLE-1"),
    (
        Purchase("settle", "V1", VILLAGE),
        r"^A village already stands on V1: build a city or fortress instead \(MK-SETTLE-3\)\.$",
    ),
    (Purchase("settle", "E1", CITY), r"E1 is empty: build a village first.*MK-SETTLE-3"),
    (Purchase("settle", "E1", "capital"), r"E1 is empty: build a village first"),
    (Purchase("settle", "V1", "capital"), r"village on V1 can become a city or a fortress"),
    (Purchase("settle", "C2", FORTRESS), r"A city stands on C2: it can only become a Capital City"),
    (Purchase("settle", "F1", CITY), r"A fortress stands on F1.*MK-SETTLE-5"),
    (Purchase("settle", "V1", "castle"), r"'castle' is not a settlement you can build"),
    (Purchase("ship", "C2"), r"neither on the coast nor on a river.*MK-SHIPYARD-2"),
    (Purchase("ship", "V1"), r"V1 is not one of your cities.*MK-SHIPYARD-2"),
    (Purchase("ship", "B0"), r"B0 is not one of your cities"),
    (Purchase("ship", "C0"), r"A ship is already docked at C0.*MK-SHIPYARD-2"),
    (Purchase("recruit", "C1"), r"C1 is not one of your fortresses.*MK-RECRUIT-1"),
    (Purchase("recruit", "F1", disband=1), r"still have room.*MK-RECRUIT-8"),
    (Purchase("bribe", "F1"), r"'bribe' is not a purchase.*MK-BUY-2"),
]


@pytest.mark.parametrize("purchase, message", ILLEGAL_PURCHASES)
def test_mk_buy_2_illegal_purchases_say_why(purchase: Purchase, message: str) -> None:
    state = red_state(Resources(5, 5))
    with pytest.raises(RuleViolation, match=message):
        led.check_purchase(state, tv3_map(), purchase)


def test_mk_recruit_1_one_army_per_fortress_per_winter() -> None:
    state = red_state(Resources(5, 5))
    first = led.apply_purchase(state, tv3_map(), Purchase("recruit", "F1"))
    with pytest.raises(RuleViolation, match=r"F1 has already recruited this winter.*MK-RECRUIT-1"):
        led.check_purchase(first.state, tv3_map(), Purchase("recruit", "F1"))


def test_mk_recruit_1_fortress_built_this_winter_may_recruit() -> None:
    state = red_state(Resources(3, 0))
    built = led.apply_purchase(state, tv3_map(), Purchase("settle", "V1", FORTRESS))
    recruited = led.apply_purchase(built.state, built.tiles, Purchase("recruit", "V1"))
    assert recruited.state.stock == Resources(0, 0)
    assert recruited.new_army is not None and recruited.new_army.tile == "V1"


def test_mk_recruit_7_8_army_cap_and_disbanding_to_make_room() -> None:
    armies = tuple(Army(n, RED, n, "C0") for n in range(1, 7))
    state = red_state(Resources(2, 0), armies=armies)
    with pytest.raises(RuleViolation, match=r"already have 6 armies.*MK-RECRUIT-7, MK-RECRUIT-8"):
        led.check_purchase(state, tv3_map(), Purchase("recruit", "F1"))
    with pytest.raises(RuleViolation, match=r"Army #9 is not one of yours.*MK-RECRUIT-8"):
        led.check_purchase(state, tv3_map(), Purchase("recruit", "F1", disband=9))
    outcome = led.apply_purchase(state, tv3_map(), Purchase("recruit", "F1", disband=2))
    assert outcome.disbanded == 2
    assert [a.number for a in outcome.state.armies] == [1, 3, 4, 5, 6, 7]
    assert outcome.state.stock == Resources(1, 0)
    bigger = MKOptions(max_armies=7)
    led.check_purchase(state, tv3_map(), Purchase("recruit", "F1"), bigger)


def test_mk_recruit_5_allied_army_prerequisites() -> None:
    two = red_state(Resources(5, 5), armies=red_armies()[:2])
    with pytest.raises(RuleViolation, match=r"3 or more of your own armies first; you have 2"):
        led.check_purchase(two, tv3_map(), Purchase("recruit", "F1", allied=True))
    state = red_state(Resources(5, 5))
    allied = led.apply_purchase(state, tv3_map(), Purchase("recruit", "F1", allied=True))
    assert allied.new_army is not None and allied.new_army.is_allied
    two_forts = tv3_map().with_tile("V1", settlement=FORTRESS)
    with pytest.raises(RuleViolation, match=r"only 1 allied army.*MK-RECRUIT-5"):
        led.check_purchase(allied.state, two_forts, Purchase("recruit", "V1", allied=True))


@pytest.mark.parametrize(
    "purchase, stock, message",
    [
        (
            Purchase("settle", "V1", CITY), Resources(1, 0),
            r"^This costs 1 gold and 1 food; you have 1 gold \(MK-BUY-3\)\.$",
        ),
        (
            Purchase("settle", "V1", FORTRESS), Resources(1, 5),
            r"costs 2 gold; you have 1 gold and 5 food",
        ),
        (Purchase("recruit", "F1"), Resources(0, 3), r"costs 1 gold; you have 3 food \(MK-BUY-3\)"),
        (Purchase("ship", "C1"), Resources(0, 0), r"costs 1 gold; you have nothing"),
    ],
)
def test_mk_buy_3_purchases_are_paid_in_full(
    purchase: Purchase, stock: Resources, message: str
) -> None:
    with pytest.raises(RuleViolation, match=message):
        led.check_purchase(red_state(stock), tv3_map(), purchase)


def small_kingdom() -> tuple[MapView, Kingdom]:
    red = {"controller": RED, "explored": True}
    tiles = make_map(
        {
            "K0": {**red, "settlement": CITY},
            "K1": {**red, "settlement": CITY, "is_coastal": True},
            "KE": {**red},
            "KF": {**red, "settlement": FORTRESS},
            "KV": {**red, "settlement": VILLAGE},
        }
    )
    return tiles, Kingdom(RED, "Red", "K0", "K0")


def test_mk_buy_2_what_can_i_afford() -> None:
    tiles, kingdom = small_kingdom()
    state = KingdomWinter(kingdom, Resources(gold=1), (Army(1, RED, 1, "K0"),))
    options = led.affordable_purchases(state, tiles)
    assert [(o.purchase, o.cost, o.affordable, o.rule_id) for o in options] == [
        (Purchase("settle", "KE", VILLAGE), Resources(gold=1), True, "MK-SETTLE-3"),
        (Purchase("settle", "KV", CITY), Resources(gold=1, food=1), False, "MK-SETTLE-3"),
        (Purchase("settle", "KV", FORTRESS), Resources(gold=2), False, "MK-SETTLE-3"),
        (Purchase("ship", "K1"), Resources(gold=1), True, "MK-SHIPYARD-1"),
        (Purchase("recruit", "KF"), Resources(gold=1), True, "MK-RECRUIT-2"),
    ]
    docked = replace(state, docked=frozenset({"K1"}), used_fortresses=frozenset({"KF"}))
    assert [o.purchase.kind for o in led.affordable_purchases(docked, tiles)] == ["settle"] * 3


def test_mk_recruit_8_affordable_list_marks_recruits_needing_a_disband() -> None:
    tiles, kingdom = small_kingdom()
    armies = tuple(Army(n, RED, n, "K0") for n in range(1, 7))
    state = KingdomWinter(kingdom, Resources(gold=1), armies)
    recruits = [o for o in led.affordable_purchases(state, tiles) if o.purchase.kind == "recruit"]
    assert [(o.purchase, o.needs_disband) for o in recruits] == [
        (Purchase("recruit", "KF"), True),
        (Purchase("recruit", "KF", allied=True), True),
    ]


def test_mk_amb_8_capital_upgrade_is_offered_only_without_a_capital() -> None:
    tiles, kingdom = small_kingdom()
    state = KingdomWinter(kingdom, Resources(1, 1))
    assert not any(o.purchase.to_state == "capital" for o in led.affordable_purchases(state, tiles))
    lost = tiles.with_tile("K0", controller=BLUE)
    offered = led.affordable_purchases(state, lost)
    capitals = [o for o in offered if o.purchase.to_state == "capital"]
    assert [(o.purchase.tile, o.cost, o.affordable) for o in capitals] == [
        ("K1", Resources(1, 1), True),
    ]


# --- feeding (MK-FEED, MK-WINTER-3/4, MK-AMB-33) -----------------------------------------------


def test_mk_feed_1_food_needed_and_armies_to_remove() -> None:
    assert led.food_needed(4) == 4
    assert led.armies_to_remove(5, 3) == 2
    assert led.armies_to_remove(2, 5) == 0
    assert led.armies_to_remove(0, 0) == 0


@settings(deadline=None)
@given(st.integers(0, 30), st.integers(0, 30))
def test_mk_winter_3_removal_is_the_shortfall(armies: int, food: int) -> None:
    removed = led.armies_to_remove(armies, food)
    assert removed == max(0, armies - food)
    assert armies - removed <= food


def test_mk_feed_2_owner_chooses_who_goes_hungry() -> None:
    armies = red_armies()
    outcome = led.feed_armies(armies, 2, {1, 3})
    assert (outcome.fed, outcome.unfed, outcome.food_left) == ((1, 3), (2,), 0)
    assert outcome.lines == (
        IncomeLine("food", -1, "MK-FEED-1", "army #1 fed"),
        IncomeLine("food", -1, "MK-FEED-1", "army #3 fed"),
    )
    with pytest.raises(RuleViolation, match=r"You have 2 food: you can feed at most 2 armies"):
        led.feed_armies(armies, 2, {1, 2, 3})
    with pytest.raises(RuleViolation, match=r"Army #7 is not one of yours"):
        led.feed_armies(armies, 3, {7})


def test_mk_amb_33_leaving_armies_unfed_on_purpose() -> None:
    armies = red_armies()
    voluntary = led.feed_armies(armies, 3, {2})
    assert (voluntary.unfed, voluntary.food_left) == ((1, 3), 2)
    strict = MKOptions(voluntary_unfed=False)
    with pytest.raises(RuleViolation, match=r"food for 3 armies: feed that many.*MK-AMB-33"):
        led.feed_armies(armies, 3, {2}, strict)
    assert led.feed_armies(armies, 2, {1, 2}, strict).unfed == (3,)
    assert led.leftover_lines(Resources(0, voluntary.food_left)) == (
        IncomeLine("food", -2, "MK-WINTER-4", "unspent at the end of winter"),
    )
