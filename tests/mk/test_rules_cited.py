"""Mighty Kingdoms rules that no other test named, each tested by its ID with exact expectations.

Most are pure rules tests over small hand-made maps; the rules that only the services carry out
(the winter phase letters of the advanced rules, ships outside the army maximum and the food
bill, the player order through winter, Reform ownership and the order count with ships on the
map, the defended Capital City of a Kings of War battle) run on the shared summer scene
(``tests/mk/test_summer_scene.py``) or TV-MK-3's winter world (``tests/mk/test_winter_world.py``).
Glossary entries (MK-GLOSS) are definitions: each test checks the code that embodies one.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from battles.models import Army as ArmyRow
from battles.models import Unit
from campaign.models import Campaign
from campaign.models import Kingdom as KingdomRow
from campaign.rules.options import OptionError
from campaign.services import ServiceError
from campaign.systems.mighty_kingdoms import SYSTEM, advanced, phases, summer_battles
from campaign.systems.mighty_kingdoms import winter_services as ws
from campaign.systems.mighty_kingdoms.models import Artefact
from campaign.systems.mighty_kingdoms.models import Ship as ShipRow
from campaign.systems.mighty_kingdoms.rules import battles as mkb
from campaign.systems.mighty_kingdoms.rules import campaign as mk
from campaign.systems.mighty_kingdoms.rules import ledger as eco
from campaign.systems.mighty_kingdoms.rules.campaign import (
    CITY,
    EMPTY,
    FORTRESS,
    MOVE,
    RAZE,
    SUMMER,
    VILLAGE,
    WINTER,
    Army,
    Clock,
    ControlChange,
    EdgeView,
    Kingdom,
    MapView,
    MKOptions,
    Mover,
    RuleViolation,
    Ship,
    TileState,
)
from campaign.systems.mighty_kingdoms.rules.ledger import (
    FOOD,
    GOLD,
    Holdings,
    IncomeLine,
    KingdomWinter,
    Purchase,
    Resources,
)
from campaign.systems.mighty_kingdoms.state import load_state
from campaign.systems.mighty_kingdoms.summer_reform import reform_plan
from tests.mk.test_quests import quest_scene, set_options, to_buy  # noqa: F401
from tests.mk.test_summer_scene import Scene, campaign, scene  # noqa: F401
from tests.mk.test_winter_world import build_tv3, grant, plain_summer, to_phase  # noqa: F401

RED, BLUE, GREEN = "red", "blue", "green"


# --- helpers -----------------------------------------------------------------------------------


def make_map(tiles: dict[str, dict[str, Any]], links: list[tuple[str, str]],
             sides: dict[tuple[str, str], tuple[str, ...]] | None = None) -> MapView:
    """Tiles with keyword attributes and plain edges between the linked pairs; ``sides`` puts
    features on one tile's side of an edge, keyed (tile, neighbour)."""
    sides = sides or {}
    edges: dict[str, list[EdgeView]] = {label: [] for label in tiles}
    for a, b in links:
        edges[a].append(EdgeView(b, frozenset(sides.get((a, b), ())),
                                 frozenset(sides.get((b, a), ()))))
        edges[b].append(EdgeView(a, frozenset(sides.get((b, a), ())),
                                 frozenset(sides.get((a, b), ()))))
    return MapView(tuple(TileState(label, edges=tuple(edges[label]), **attrs)
                         for label, attrs in tiles.items()))


def army(number: int, tile: str, kingdom: str = RED, **kw: Any) -> Army:
    return Army(number if kingdom == RED else 100 + number, kingdom, number, tile, **kw)


def ship(number: int, tile: str, kingdom: str = RED, **kw: Any) -> Ship:
    return Ship(number if kingdom == RED else 100 + number, kingdom, number, tile, **kw)


def march_map() -> MapView:
    """X: Red's plain tile with a village, on the coast; U: unexplored land; K: Blue's explored
    land; W: explored open water; M: Red's marsh. X touches all four."""
    return make_map(
        {
            "X": {"controller": RED, "explored": True, "settlement": VILLAGE,
                  "is_coastal": True},
            "U": {},
            "K": {"controller": BLUE, "explored": True},
            "W": {"explored": True, "is_open_water": True, "terrain": "open_water"},
            "M": {"controller": RED, "explored": True, "is_marsh": True, "terrain": "marsh"},
        },
        [("X", "U"), ("X", "K"), ("X", "W"), ("X", "M")],
    )


def resolve(mover: Mover, kind: str, target: str | None, tiles: MapView,
            armies: tuple[Army, ...] = (), ships: tuple[Ship, ...] = (), **kw: Any
            ) -> mk.Resolution:
    order = mk.validate_order(mover, kind, target, tiles, kw.get("options", MKOptions()))
    return mk.resolve_order(order, mover, tiles, armies, ships, **kw)


# --- MK-GEN: components and overview -----------------------------------------------------------


def test_mk_gen_1_an_army_token_is_a_force_of_at_most_500_points() -> None:
    """MK-GEN-1: every army starts at 500 points; a list of 505 points is refused, 500 is fine;
    a Simple-battle roster above 500 is refused."""
    assert mk.STARTING_ARMY_POINTS == 500
    assert army(1, "X").points == 500
    horde = mkb.UnitEntry("Horde", "horde", 300)
    assert mkb.validate_army_list([horde, mkb.UnitEntry("Spears", "regiment", 200)],
                                  starting=True) == ()
    problems = mkb.validate_army_list([horde, mkb.UnitEntry("Spears", "regiment", 205)],
                                      starting=True)
    assert problems == (mkb.ListProblem(
        "MK-SETUP-6", "The list totals 505 points; an army may have at most 500."),)
    with pytest.raises(mkb.BattleError, match=r"has 600 points.*\(MK-SIMPLE-2, MK-SETUP-6\)"):
        mkb.start_simple_battle([mkb.SimpleArmy("a1", points=600)], [mkb.SimpleArmy("b1")],
                                [3], [4])


def test_mk_gen_2_every_army_of_a_kingdom_in_the_hex_fights_together() -> None:
    """MK-GEN-2: three Red armies in Blue's hex fight as one side of one battle, on the board of
    three armies; a Simple battle rolls one die for each of them."""
    tile = mkb.TileForces("T", BLUE, (
        mkb.Token("red-1", RED), mkb.Token("red-2", RED), mkb.Token("red-3", RED),
        mkb.Token("blue-1", BLUE),
    ))
    fight = mkb.battle_type(tile, RED, BLUE)
    assert fight.kind is mkb.BattleKind.LAND
    assert fight.chooser_fighters == ("red-1", "red-2", "red-3")
    assert fight.opponent_fighters == ("blue-1",)
    assert mkb.board_size(len(fight.chooser_fighters), len(fight.opponent_fighters)).label == (
        "5'x4'")
    reds = [mkb.SimpleArmy(token) for token in fight.chooser_fighters]
    battle = mkb.start_simple_battle(reds, [mkb.SimpleArmy("blue-1")], [6, 5, 1], [2])
    assert battle.attacker.dice == (6, 5, 1)
    with pytest.raises(mkb.BattleError, match=r"3 dice, not 2 \(MK-SIMPLE-4\)"):
        mkb.start_simple_battle(reds, [mkb.SimpleArmy("blue-1")], [6, 5], [2])


def test_mk_gen_3_a_hex_map_with_start_tiles_and_six_sided_dice() -> None:
    """MK-GEN-3: the campaign is played on a hex map marked with start tiles; villages, cities
    and fortresses are the settlement tokens; every die entered is a D6 (1 to 6)."""
    assert (SYSTEM.map_style.kind, SYSTEM.map_style.start_tiles) == ("hex", True)
    assert [choice.slug for choice in SYSTEM.settlements] == ["village", "city", "fortress"]
    assert mk.exploration_result(6, 6) == mk.EXPLORE_FORTRESS
    with pytest.raises(RuleViolation, match=r"^A die shows 1 to 6, not 7\.$"):
        mk.exploration_result(6, 7)
    with pytest.raises(RuleViolation, match=r"^A die shows 1 to 6, not 0\.$"):
        mk.exploration_result(0, 3)
    with pytest.raises(mkb.BattleError, match=r"^A die shows 1 to 6, not 7 \(MK-SIMPLE-4\)\.$"):
        mkb.start_simple_battle([mkb.SimpleArmy("a1")], [mkb.SimpleArmy("b1")], [7], [4])


# --- MK-YEAR-3, MK-PORDER-3: the clock ---------------------------------------------------------


def test_mk_year_3_winter_runs_recall_gather_spend_deploy() -> None:
    """MK-YEAR-3: winter has the phases A) Recall, B) Gather resources, C) Spend resources (with
    its three sub-phases) and D) Deploy armies, and no months; then the next summer starts."""
    clock = Clock(2, WINTER, None, "A")
    seen = []
    while clock.season == WINTER:
        seen.append((clock.phase, clock.sub_phase, mk.phase_name(clock)))
        clock = mk.next_clock(clock)
    assert seen == [
        ("A", "", "Recall"),
        ("B", "", "Gather resources"),
        ("C", "tithe", "Spend resources"),
        ("C", "buy", "Spend resources"),
        ("C", "feed", "Spend resources"),
        ("D", "", "Deploy armies"),
    ]
    assert clock == Clock(3, SUMMER, 1, "A")
    assert mk.clock_label(Clock(2, WINTER, None, "D")) == "Year 2, winter, D) Deploy armies"
    with pytest.raises(RuleViolation, match=r"^Winter has no months \(MK-YEAR-3\)\.$"):
        Clock(2, WINTER, 1, "A")


def test_mk_porder_3_after_reform_the_next_month_or_winter() -> None:
    """MK-PORDER-3: after Reform the next month starts at A) Orders; after month 6's Reform
    comes winter A) Recall."""
    assert mk.next_clock(Clock(1, SUMMER, 3, "D")) == Clock(1, SUMMER, 4, "A")
    assert mk.next_clock(Clock(1, SUMMER, 6, "D")) == Clock(1, WINTER, None, "A")


# --- MK-SIMPLE-3 ------------------------------------------------------------------------------


def test_mk_simple_3_a_defending_army_gets_one_more_defence() -> None:
    """MK-SIMPLE-3: Defend adds 1 to Defence (500 points: 5, defending 6), so a 5 misses the
    defending army and hits the other; an army on its side gets no Defence at all."""
    assert (mkb.simple_defence(500), mkb.simple_defence(500, True)) == (5, 6)
    assert mkb.simple_defence(300, True) == 4
    blues = [mkb.SimpleArmy("b1", defending=True), mkb.SimpleArmy("b2"),
             mkb.SimpleArmy("b3", defending=True, upright=False)]
    battle = mkb.start_simple_battle([mkb.SimpleArmy("a1")], blues, [5], [1, 1])
    assert [(a.id, a.start_defence, a.defending) for a in battle.defender.armies] == [
        ("b1", 6, True), ("b2", 5, False), ("b3", 0, False)]
    miss = mkb.allocate(battle, mkb.Side.ATTACKER, 0, "b1").steps[-1]
    assert (miss.target_defence, miss.hit, miss.target_points_after) == (6, False, 500)
    hit = mkb.allocate(battle, mkb.Side.ATTACKER, 0, "b2").steps[-1]
    assert (hit.target_defence, hit.hit, hit.target_points_after) == (5, True, 400)


# --- MK-DEF-4 ----------------------------------------------------------------------------------


def test_mk_def_4_a_capital_city_uses_the_city_row() -> None:
    """MK-DEF-4, MK-AMB-27: a defended Capital City gives what a city gives: 2 blocking or
    difficult pieces, 2 obstacles and 1 objective worth 1 Victory Point."""
    city_row = mkb.DefenceAllowance(mkb.Settlement.CITY, 0, 2, 2, 1, 1)
    assert mkb.defence_allowance("capital") == city_row
    assert mkb.defence_allowance(mkb.Settlement.CITY) == city_row
    benefit = mkb.defended_tile_benefit("capital", RED, [RED])
    assert benefit == mkb.DefendedTile(RED, city_row)
    assert mkb.describe_allowance(benefit.allowance) == (
        "add up to 2 blocking or difficult pieces and up to 2 obstacles anywhere, and place "
        "1 objective marker in its own half, worth 1 Victory Point each to whoever controls it "
        "at the end, on top of the scenario's scoring")


@pytest.mark.django_db
def test_mk_def_4_a_battle_at_a_defended_capital_gets_the_city_allowance(scene: Scene) -> None:
    """MK-DEF-4: Blue army #2 stands in Red's capital 0303, where Red army #1 took Defend; the
    Kings of War battle Blue chooses there sets up a 4'x4' board and gives Red the City row."""
    red, blue = scene.red, scene.blue
    ArmyRow.objects.filter(kingdom=red, number=1).update(defending=True)
    scene.army(blue, 2, "0303")
    state = load_state(scene.refresh())
    forces = summer_battles.forces(state)["0303"]
    setup = summer_battles.battle_setup(state, forces, blue.pk, red.pk, mkb.BattleKind.LAND,
                                        "kow")
    assert setup == {"board": "4'x4'", "defended": {
        "kingdom": red.pk, "row": "city", "adjust_pieces": 0, "blocking_or_difficult": 2,
        "obstacles": 2, "objectives": 1, "objective_vp": 1}}


# --- MK-EXP-3, MK-WIZ-4 ------------------------------------------------------------------------


def test_mk_exp_3_a_double_calls_for_a_second_roll_only_with_towers_on() -> None:
    """MK-EXP-3: with the Wizard's tower module on, 4+4 needs a second 2D6 roll (refused
    without it); a non-double or the module off needs none."""
    assert mk.exploration_needs_reroll(4, 4, wizard_towers=True) is True
    assert mk.exploration_needs_reroll(3, 4, wizard_towers=True) is False
    assert mk.exploration_needs_reroll(4, 4, wizard_towers=False) is False
    assert mk.exploration_result(4, 4) == mk.EXPLORE_VILLAGE
    with pytest.raises(RuleViolation, match=r"4\+4 is a double: roll 2D6 again .*\(MK-WIZ-1\)"):
        mk.exploration_result(4, 4, wizard_towers=True)
    assert mk.exploration_result(4, 4, (1, 3), wizard_towers=True) == mk.EXPLORE_VILLAGE
    tiles = march_map()
    mover = Mover.of_army(army(1, "X"))
    with pytest.raises(RuleViolation, match=r"\(MK-WIZ-1\)"):
        resolve(mover, MOVE, "U", tiles, (army(1, "X"),), dice=(4, 4),
                options=MKOptions(module_wizard_towers=True))


def test_mk_wiz_4_no_kingdom_ever_owns_a_wizards_tower() -> None:
    """MK-WIZ-4: the explorer of a tower gains no control; an army standing on a tower at
    Reform takes no control; a tower cannot take a setup marker or a settlement purchase."""
    tiles = march_map()
    red_one = army(1, "X")
    res = resolve(Mover.of_army(red_one), MOVE, "U", tiles, (red_one,), dice=(5, 5),
                  reroll=(2, 2), options=MKOptions(module_wizard_towers=True))
    assert (res.wizard_tower, res.explored, res.control, res.tile, res.pushed_back) == (
        True, "U", None, "X", True)
    towered = tiles.with_tile("U", explored=True, wizard_tower=True)
    assert mk.reform_ownership(towered, [army(2, "U")]) == ()
    start = towered.with_tile("X", settlement=CITY, is_start=True)
    assert mk.legal_setup_tiles(start, "X", RED) == ("M",)
    state = KingdomWinter(Kingdom(RED, "Red", "X", "X"), Resources(5, 5))
    with pytest.raises(RuleViolation, match=r"You do not control U.*\(MK-SETTLE-1\)"):
        eco.check_purchase(state, towered, Purchase(eco.SETTLE, "U", VILLAGE))


# --- MK-RES-2 ----------------------------------------------------------------------------------


def test_mk_res_2_open_water_is_never_controlled_and_holds_no_settlement() -> None:
    """MK-RES-2: a ship entering explored open water takes no control; an army aboard a ship
    there takes none at Reform; a win at sea changes no control; open water cannot take a
    starting settlement."""
    tiles = march_map()
    boat = ship(1, "X")
    res = resolve(Mover.of_ship(boat), MOVE, "W", tiles, (), (boat,))
    assert (res.rule_id, res.tile, res.control, res.settlement, res.explored) == (
        "MK-RES-2", "W", None, None, None)
    aboard = army(1, "W", paired_ship=1)
    assert mk.reform_ownership(tiles, [aboard]) == ()
    sea = mkb.TileForces("W", None, (mkb.Token("red-s1", RED, mkb.TokenKind.SHIP),
                                      mkb.Token("blue-s1", BLUE, mkb.TokenKind.SHIP)))
    won = mkb.battle_results(sea, {RED: mkb.Result.WIN, BLUE: mkb.Result.LOSS}, [],
                             open_water=True)
    assert (won.controller_before, won.controller_after, won.winner) == (None, None, RED)
    start = tiles.with_tile("X", settlement=CITY, is_start=True)
    with pytest.raises(RuleViolation, match=r"W is open water: .*\(MK-AMB-34, MK-RES-2\)"):
        mk.validate_setup_placement(start, "X", RED, mk.SetupPlacement(None, "W"))


# --- MK-SHIP-1, MK-SHIP-5 ----------------------------------------------------------------------


def test_mk_ship_1_ships_take_orders_in_the_same_cycles_as_armies() -> None:
    """MK-SHIP-1: a lone ship is a token of the order cycle like an army: once the army has its
    order, the ship still needs one and Red keeps its turn; the ship's Move is checked like any
    order."""
    tiles = march_map()
    tokens = mk.movers([army(1, "X")], [ship(1, "X")])
    assert [(m.kind, m.key) for m in tokens] == [("army", "army:1"), ("ship", "ship:1")]
    waiting = mk.tokens_needing_orders(tokens, {"army:1"})
    assert [m.key for m in waiting] == ["ship:1"]
    assert mk.order_turn([RED, BLUE], BLUE, {RED: len(waiting), BLUE: 0}) == RED
    assert mk.legal_orders(waiting[0], tiles) == (MOVE, RAZE)
    assert mk.validate_order(waiting[0], MOVE, "W", tiles) == mk.Order("ship:1", MOVE, "W")
    assert mk.order_turn([RED, BLUE], RED, {RED: 0, BLUE: 0}) is None


def test_mk_ship_5_each_ship_token_docks_alone_in_a_city() -> None:
    """MK-SHIP-5, MK-RECALL-5: a ship token is a whole fleet, so two cannot share one city at
    Recall; with one coastal city for two ships, the second is removed."""
    tiles = make_map(
        {"C0": {"controller": RED, "settlement": CITY, "is_coastal": True, "explored": True},
         "C2": {"controller": RED, "settlement": CITY, "explored": True}},
        [("C0", "C2")],
    )
    ships = [ship(1, "C0"), ship(2, "C0")]
    with pytest.raises(RuleViolation, match=r"Ships #1 and #2 both dock at C0: one ship per city"):
        mk.validate_docking(RED, tiles, ships, {1: "C0", 2: "C0"})
    assert mk.validate_docking(RED, tiles, ships, {1: "C0"}) == (2,)


# --- MK-SETTLE-2, MK-SETTLE-6 ------------------------------------------------------------------


def settle_map() -> tuple[MapView, KingdomWinter]:
    tiles = make_map(
        {"C0": {"controller": RED, "settlement": CITY, "explored": True},
         "V1": {"controller": RED, "settlement": VILLAGE, "explored": True},
         "E1": {"controller": RED, "explored": True}},
        [("C0", "V1"), ("C0", "E1")],
    )
    return tiles, KingdomWinter(Kingdom(RED, "Red", "C0", "C0"), Resources(3, 2))


def test_mk_settle_2_a_new_settlement_replaces_the_old_one() -> None:
    """MK-SETTLE-2: a city built on a village replaces it: the tile holds the city alone, and
    next winter it yields 1 gold instead of 1 food."""
    tiles, state = settle_map()
    before = eco.totals(eco.winter_income(Holdings(RED, tiles.controlled_by(RED), "C0")))
    assert before == Resources(gold=2, food=1)
    done = eco.apply_purchase(state, tiles, Purchase(eco.SETTLE, "V1", CITY))
    assert done.tiles.tile("V1").settlement == CITY
    assert done.lines == (IncomeLine(GOLD, -1, "MK-SETTLE-3", "city at V1"),
                          IncomeLine(FOOD, -1, "MK-SETTLE-3", "city at V1"))
    after = eco.totals(eco.winter_income(Holdings(RED, done.tiles.controlled_by(RED), "C0")))
    assert after == Resources(gold=3, food=0)
    fort = eco.apply_purchase(state, tiles, Purchase(eco.SETTLE, "V1", FORTRESS))
    assert fort.tiles.tile("V1").settlement == FORTRESS


@pytest.mark.parametrize("several", [True, False])
def test_mk_settle_6_several_purchases_on_one_tile(several: bool) -> None:
    """MK-SETTLE-6, MK-AMB-19: Empty to Village, then Village to City on E1, as two purchases
    costing 2 gold and 1 food in all; the house rule of one purchase per tile refuses the
    second."""
    tiles, state = settle_map()
    options = MKOptions(multiple_upgrades_per_tile=several)
    first = eco.apply_purchase(state, tiles, Purchase(eco.SETTLE, "E1", VILLAGE), options)
    assert first.lines == (IncomeLine(GOLD, -1, "MK-SETTLE-3", "village at E1"),)
    if not several:
        with pytest.raises(RuleViolation, match=r"one purchase per tile .*\(MK-AMB-19"):
            eco.apply_purchase(first.state, first.tiles, Purchase(eco.SETTLE, "E1", CITY),
                               options)
        return
    second = eco.apply_purchase(first.state, first.tiles, Purchase(eco.SETTLE, "E1", CITY),
                                options)
    assert second.tiles.tile("E1").settlement == CITY
    assert state.stock - second.state.stock == Resources(gold=2, food=1)
    assert second.state.stock == Resources(gold=1, food=1)


# --- MK-SHIPYARD-3 -----------------------------------------------------------------------------


def test_mk_shipyard_3_ships_eat_nothing_and_leave_room_for_armies() -> None:
    """MK-SHIPYARD-3: with 5 armies and ships docked in both coastal cities, Red may still
    recruit a 6th army (the maximum); the food bill is 6, one per army."""
    tiles = make_map(
        {"C0": {"controller": RED, "settlement": CITY, "is_coastal": True, "explored": True},
         "C1": {"controller": RED, "settlement": CITY, "has_river": True, "explored": True},
         "F1": {"controller": RED, "settlement": FORTRESS, "explored": True}},
        [("C0", "C1"), ("C0", "F1")],
    )
    state = KingdomWinter(Kingdom(RED, "Red", "C0", "C0"), Resources(1, 6),
                          armies=tuple(army(n, "C0") for n in range(1, 6)),
                          docked=frozenset({"C0", "C1"}))
    done = eco.apply_purchase(state, tiles, Purchase(eco.RECRUIT, "F1"))
    assert [a.number for a in done.state.armies] == [1, 2, 3, 4, 5, 6]
    assert eco.food_needed(len(done.state.armies)) == 6
    fed = eco.feed_armies(done.state.armies, 6, range(1, 7))
    assert (fed.unfed, fed.food_left) == ((), 0)


@pytest.mark.django_db
def test_mk_shipyard_3_through_the_winter_services(gm: User, plain_summer: None) -> None:
    """MK-SHIPYARD-3 on TV-MK-3's world with at most 4 armies: Red (3 armies, ship S1 docked at
    C0) builds a ship at C1 and still recruits army #4 at F1; 4 food feeds the 4 armies and
    both ships are still on the map after Feed."""
    world = build_tv3(gm, options={"max_armies": 4})
    to_phase(world, ("winter", "C", "buy"))
    red = world.k("Red")
    assert world.stock("Red") == (4, 3)
    ws.buy(red, gm, Purchase(eco.SHIP, world.t("C1")))
    ws.pass_turn(world.k("Blue"), gm, mk.SUB_BUY)
    ws.pass_turn(world.k("Green"), gm, mk.SUB_BUY)
    ws.buy(red, gm, Purchase(eco.RECRUIT, world.t("F1")))
    assert world.army_numbers("Red") == [1, 2, 3, 4]
    assert ShipRow.objects.filter(kingdom=red, tile__isnull=False).count() == 2
    grant(world, "Red", food=1)
    to_phase(world, ("winter", "C", "feed"))
    ws.feed(red, gm, [1, 2, 3, 4])
    ws.feed(world.k("Blue"), gm, [1])
    ws.feed(world.k("Green"), gm, [1])
    assert world.stock("Red") == (2, 0)
    phases.advance(world.fresh(), gm, {world.kingdoms["Blue"].pk: [5],
                                       world.kingdoms["Green"].pk: [2]})
    assert world.army_numbers("Red") == [1, 2, 3, 4]
    assert sorted(ShipRow.objects.filter(kingdom=red, tile__isnull=False)
                  .values_list("tile__label", flat=True)) == sorted([world.t("C0"),
                                                                     world.t("C1")])


# --- MK-PORDER-2, MK-AMB-38: what counts at Reform ---------------------------------------------


def test_mk_porder_2_armies_count_once_ships_not_at_all() -> None:
    """MK-PORDER-2, MK-AMB-29: a paired army counts as one army and an army on its side counts;
    the counts are of armies alone."""
    armies = [army(1, "W", paired_ship=1), army(2, "X", on_side=True), army(1, "K", BLUE)]
    assert mk.army_counts([RED, BLUE, GREEN], armies) == {RED: 2, BLUE: 1, GREEN: 0}
    assert mk.player_order({RED: 2, BLUE: 1, GREEN: 0}) == (RED, BLUE, GREEN)


def test_mk_amb_38_reform_ownership_counts_on_side_and_paired_armies() -> None:
    """MK-AMB-38, MK-REFORM-4: Red's army on its side takes Blue's K; Red's paired army on
    Blue's coastal B takes it; nothing happens on open water W nor where Blue stands too."""
    tiles = make_map(
        {"K": {"controller": BLUE, "explored": True},
         "B": {"controller": BLUE, "explored": True, "is_coastal": True},
         "W": {"explored": True, "is_open_water": True},
         "T": {"controller": BLUE, "explored": True}},
        [("K", "B"), ("B", "W"), ("K", "T")],
    )
    armies = [army(1, "K", on_side=True), army(2, "B", paired_ship=1),
              army(3, "W", paired_ship=2), army(4, "T"), army(1, "T", BLUE, on_side=True)]
    assert mk.reform_ownership(tiles, armies) == (
        ControlChange("B", BLUE, RED, "MK-REFORM-4"),
        ControlChange("K", BLUE, RED, "MK-REFORM-4"),
    )


@pytest.mark.django_db
def test_mk_amb_38_mk_porder_2_lone_ships_neither_take_tiles_nor_count(scene: Scene) -> None:
    """MK-AMB-38, MK-PORDER-2 at Reform on the summer scene: Blue's two lone ships on Red's
    village 0302 leave it Red's and do not count for the order; Red army #2, on its side alone
    on Blue's 0604, takes it. Counts: Red 2, Blue 1."""
    red, blue = scene.red, scene.blue
    scene.ship(blue, 1, "0302")
    scene.ship(blue, 2, "0302")
    ArmyRow.objects.filter(kingdom=red, number=2).update(tile=scene.tile("0604"), on_side=True)
    scene.at("D")
    plan = reform_plan(load_state(scene.refresh()))
    assert plan.ownership == (ControlChange("0604", blue.pk, red.pk, "MK-REFORM-4"),)
    assert plan.counts == {red.pk: 2, blue.pk: 1}
    assert plan.tied == ()


# --- MK-PORDER-3 through winter ----------------------------------------------------------------


@pytest.mark.django_db
def test_mk_porder_3_month_6_order_holds_until_winter_deploy(gm: User,
                                                             plain_summer: None) -> None:
    """MK-PORDER-3, MK-DEPLOY-2: the order at the end of month 6 (Green, Blue, Red) runs the
    tithe and buy cycles of winter C, though Red has the most armies; at D) it is set again
    by army count: Red (3), then Blue and Green (1 each) by their tie-break dice 5 and 2."""
    world = build_tv3(gm)
    for position, name in enumerate(("Green", "Blue", "Red"), start=1):
        KingdomRow.objects.filter(pk=world.kingdoms[name].pk).update(order_position=position)
    green, blue, red = (world.kingdoms[n].pk for n in ("Green", "Blue", "Red"))
    world.advance()  # month 6 D) -> winter A) Recall
    assert world.phase() == ("winter", "A", "")
    to_phase(world, ("winter", "C", "tithe"))
    assert list(world.state().order) == [green, blue, red]
    assert ws.cycle(world.state(), mk.SUB_TITHE)[1] == green
    to_phase(world, ("winter", "C", "buy"))
    assert ws.cycle(world.state(), mk.SUB_BUY)[1] == green
    to_phase(world, ("winter", "C", "feed"))
    ws.feed(world.k("Red"), gm, [1, 2, 3])
    ws.feed(world.k("Blue"), gm, [1])
    ws.feed(world.k("Green"), gm, [1])
    phases.advance(world.fresh(), gm, {blue: [5], green: [2]})
    assert world.phase() == ("winter", "D", "")
    assert list(world.state().order) == [red, blue, green]


# --- MK-AMB-21: the winter letters of the advanced rules ---------------------------------------


@pytest.mark.django_db
def test_mk_amb_21_quests_in_c_spend_and_artefacts_at_d_deploy(quest_scene: Scene) -> None:
    """MK-AMB-21: the advanced rules' "B) Spend" is winter C) 2. Build and recruit, their
    "C) Deploy" is winter D) Deploy: a quest is open in C) buy only; an artefact is given to a
    unit at D) only."""
    scene = quest_scene
    wrong = "A quest is a purchase of winter C) 2. Build and recruit (MK-BUY-2, MK-AMB-22)."
    assert advanced.quest_choice(load_state(scene.refresh()), scene.red).reason == ""
    crown = Artefact.objects.create(campaign=scene.campaign, name="Crown of Dusk", points=25,
                                    in_pool=False, held_by_capital_of=scene.red)
    garrek = Unit.objects.get(name="Garrek")
    with pytest.raises(ServiceError, match=r"given to units at winter D\) Deploy .*MK-ART-2"):
        advanced.assign_artefact(scene.red, scene.player, crown.pk, garrek.pk)
    for phase, sub_phase in (("B", ""), ("C", mk.SUB_TITHE), ("C", mk.SUB_FEED), ("D", "")):
        Campaign.objects.filter(pk=scene.campaign.pk).update(phase=phase, sub_phase=sub_phase)
        assert advanced.quest_choice(load_state(scene.refresh()), scene.red).reason == wrong
    advanced.assign_artefact(scene.red, scene.player, crown.pk, garrek.pk)
    crown.refresh_from_db()
    assert (crown.holder_unit_id, crown.held_by_capital_of_id) == (garrek.pk, None)


# --- MK-AMB-23, MK-AMB-36 ----------------------------------------------------------------------


def test_mk_amb_23_the_advanced_rules_swamp_is_the_marsh() -> None:
    """MK-AMB-23: the map's marsh is the advanced rules' swamp: Red's marsh M beside fortress F
    lets it recruit monsters (not war machines), and armies still cannot march into M."""
    tiles = make_map(
        {"F": {"controller": RED, "settlement": FORTRESS, "explored": True},
         "M": {"controller": RED, "explored": True, "is_marsh": True, "terrain": "marsh"}},
        [("F", "M")],
    )
    assert "marsh" in [t.slug for t in SYSTEM.terrains]
    assert "swamp" not in [t.slug for t in SYSTEM.terrains]
    allowance = mk.recruit_allowance("F", RED, tiles, MKOptions(module_terrain_recruit=True))
    assert (allowance.monsters, allowance.war_machines, allowance.magic_items) == (
        True, False, False)
    assert allowance.reasons[0] == "monsters allowed: mountains or marsh at M (MK-ADV-3)"
    assert mk.legal_move_destinations(Mover.of_army(army(1, "F")), tiles) == ()
    blue_marsh = tiles.with_tile("M", controller=BLUE)
    assert mk.recruit_allowance("F", RED, blue_marsh,
                                MKOptions(module_terrain_recruit=True)).monsters is False


def test_mk_amb_36_recall_goes_to_the_capital_the_kingdom_holds_now() -> None:
    """MK-AMB-36, MK-RECALL-1/2: Red recalls to its capital S while it holds it; with Blue in S,
    to one of Red's cities; with a replacement capital C2, to C2 even after retaking S."""
    tiles = make_map(
        {"S": {"controller": RED, "settlement": CITY, "explored": True, "is_start": True},
         "C2": {"controller": RED, "settlement": CITY, "explored": True},
         "V": {"controller": RED, "settlement": VILLAGE, "explored": True}},
        [("S", "C2"), ("C2", "V")],
    )
    red = Kingdom(RED, "Red", "S", "S")
    assert mk.recall_destination(red, tiles) == mk.RecallPlan("capital", ("S",), "MK-RECALL-1")
    taken = tiles.with_tile("S", controller=BLUE)
    assert mk.recall_destination(red, taken) == mk.RecallPlan("city", ("C2",), "MK-RECALL-2")
    with pytest.raises(RuleViolation, match=r"one of your cities \(MK-RECALL-2\)"):
        mk.validate_recall_choice(red, taken, "S")
    rebuilt = Kingdom(RED, "Red", "S", "C2")
    assert mk.recall_destination(rebuilt, tiles) == mk.RecallPlan(
        "capital", ("C2",), "MK-RECALL-1")
    razed = tiles.with_tile("S", settlement=EMPTY)
    assert mk.recall_destination(red, razed) == mk.RecallPlan("city", ("C2",), "MK-RECALL-2")


# --- MK-ADV-1 ----------------------------------------------------------------------------------


def test_mk_adv_1_mines_and_bridges_have_no_module() -> None:
    """MK-ADV-1: the advanced modules are terrain recruiting, Wizard's towers and artefacts;
    the announced but unwritten mines and bridges are no option a campaign can turn on."""
    modules = [spec.name for spec in mk.OPTIONS if spec.name.startswith("module_")]
    assert modules == ["module_terrain_recruit", "module_wizard_towers", "module_artefacts"]
    with pytest.raises(OptionError, match=r"^Unknown option\(s\): module_mines\.$"):
        MKOptions.from_dict({"module_mines": True})
    with pytest.raises(OptionError, match=r"^Unknown option\(s\): bridges\.$"):
        MKOptions.from_dict({"bridges": True})


# --- the glossary (MK-GLOSS) -------------------------------------------------------------------


def test_mk_gloss_1_an_unexplored_tile_is_explored_by_the_first_visit() -> None:
    """MK-GLOSS-1: moving into unexplored U needs the exploration roll and explores it; moving
    into an explored tile (Blue's K) rolls nothing."""
    tiles = march_map()
    red_one = army(1, "X")
    mover = Mover.of_army(red_one)
    assert (tiles.tile("U").explored, tiles.tile("K").explored) == (False, True)
    with pytest.raises(RuleViolation, match=r"^Roll 2D6 to explore U \(MK-EXP-1\)\.$"):
        resolve(mover, MOVE, "U", tiles, (red_one,))
    found = resolve(mover, MOVE, "U", tiles, (red_one,), dice=(3, 4))
    assert (found.rule_id, found.explored, found.exploration) == ("MK-RES-4", "U", "empty")
    visit = resolve(mover, MOVE, "K", tiles, (red_one,))
    assert (visit.rule_id, visit.explored, visit.exploration) == ("MK-RES-5", None, None)


def test_mk_gloss_2_controlled_tiles_change_hands_but_are_never_let_go() -> None:
    """MK-GLOSS-2: exploring U makes it Red's; razing Red's village in X leaves X Red's; a
    tile its armies left stays its controller's at Reform; Red takes K only by standing there."""
    tiles = march_map()
    red_one = army(1, "X")
    found = resolve(Mover.of_army(red_one), MOVE, "U", tiles, (red_one,), dice=(2, 3))
    assert found.control == ControlChange("U", None, RED, "MK-EXP-2")
    razed = resolve(Mover.of_army(red_one), RAZE, None, tiles, (red_one,))
    assert (razed.raze, razed.control) == ("razed", None)
    assert mk.reform_ownership(tiles, []) == ()
    assert mk.reform_ownership(tiles, [army(1, "K")]) == (
        ControlChange("K", BLUE, RED, "MK-REFORM-4"),)


def test_mk_gloss_3_a_kingdom_is_all_its_tiles_touching_or_not() -> None:
    """MK-GLOSS-3: Red's village A and city C are one kingdom though Blue's B lies between;
    both count for Red's income (1 gold, 1 food)."""
    tiles = make_map(
        {"A": {"controller": RED, "settlement": VILLAGE, "explored": True},
         "B": {"controller": BLUE, "explored": True},
         "C": {"controller": RED, "settlement": CITY, "explored": True}},
        [("A", "B"), ("B", "C")],
    )
    red = Kingdom(RED, "Red", "S", None)
    assert [t.label for t in tiles.controlled_by(RED)] == ["A", "C"]
    lines = eco.winter_income(Holdings.of(red, tiles))
    assert [line.source for line in lines] == ["village at A", "city at C"]
    assert eco.totals(lines) == Resources(gold=1, food=1)


def test_mk_gloss_4_a_control_marker_alone_marks_an_owned_tile() -> None:
    """MK-GLOSS-4: exploring 3+4 places only Red's control marker (no settlement); the two
    spare tiles around a capital get markers; a marker yields no income."""
    tiles = march_map()
    red_one = army(1, "X")
    found = resolve(Mover.of_army(red_one), MOVE, "U", tiles, (red_one,), dice=(3, 4))
    assert (found.settlement, found.control.new) == (EMPTY, RED)
    placement = mk.SetupPlacement("A", "B", ("C", "D"), ("E", "F"))
    assert placement.assignments() == (
        ("A", CITY), ("B", FORTRESS), ("C", VILLAGE), ("D", VILLAGE), ("E", EMPTY), ("F", EMPTY))
    marker = TileState("E", settlement=EMPTY, controller=RED, explored=True)
    assert eco.winter_income(Holdings(RED, (marker,))) == ()


def test_mk_gloss_5_settlements_are_villages_cities_and_fortresses() -> None:
    """MK-GLOSS-5: the settlements are village, city and fortress; a Capital City is a city
    (a tile cannot hold a "capital"), so a kingdom with its capital, 1 city, 1 fortress and 2
    villages has 5 settlements."""
    assert mk.SETTLEMENTS == (EMPTY, VILLAGE, CITY, FORTRESS)
    with pytest.raises(ValueError, match=r"^Unknown settlement 'capital' on S\.$"):
        TileState("S", settlement="capital")
    tally = mk.KingdomTally(RED, "Red", tiles=7, villages=2, cities=2, fortresses=1,
                            own_capital=True)
    assert mk.Standing(tally).settlements == 5


def test_mk_gloss_6_a_summer_month_is_orders_resolution_battle_reform() -> None:
    """MK-GLOSS-6: a summer month runs Orders, Resolution, Battle and Reform, six times a
    summer; tokens are paired for moving only in a month's Orders phase."""
    clock = Clock(1, SUMMER, 2, "A")
    names = []
    while clock.month == 2:
        names.append(mk.phase_name(clock))
        clock = mk.next_clock(clock)
    assert names == ["Orders", "Resolution", "Battle", "Reform"]
    assert mk.SUMMER_MONTHS == 6
    boat, soldier = ship(1, "X"), army(1, "X")
    assert mk.pair_tokens(soldier, boat, Clock(1, SUMMER, 2, "A"))[0].paired_ship == 1
    with pytest.raises(RuleViolation, match=r"only in the Orders phase \(MK-SHIP-2\)"):
        mk.pair_tokens(soldier, boat, Clock(1, WINTER, None, "D"))


def test_mk_gloss_7_an_enemy_is_whatever_another_player_owns() -> None:
    """MK-GLOSS-7: Red's own second army and ship do not stop its Raze; a Blue ship does; every
    other kingdom in a tile is a possible opponent."""
    tiles = march_map()
    red_one = army(1, "X")
    mover = Mover.of_army(red_one)
    own = resolve(mover, RAZE, None, tiles, (red_one, army(2, "X")), (ship(1, "X"),))
    assert own.raze == "razed"
    enemy = resolve(mover, RAZE, None, tiles, (red_one,), (ship(1, "X", BLUE),))
    assert enemy.raze == "failed"
    tile = mkb.TileForces("X", RED, (mkb.Token("red-1", RED), mkb.Token("blue-1", BLUE),
                                     mkb.Token("green-1", GREEN)))
    assert mkb.legal_opponents(tile, RED) == (BLUE, GREEN)


def test_mk_gloss_8_a_capital_is_a_capital_only_for_its_founder() -> None:
    """MK-GLOSS-8, MK-WINTER-5: Blue holding Red's capital S gets 1 gold and room for 2 armies
    there, as from any city; its own capital BC gives it 2 gold and room for 3; Red has no
    capital while Blue holds S."""
    tiles = make_map(
        {"S": {"controller": BLUE, "settlement": CITY, "explored": True, "is_start": True},
         "BC": {"controller": BLUE, "settlement": CITY, "explored": True, "is_start": True}},
        [("S", "BC")],
    )
    red = Kingdom(RED, "Red", "S", "S")
    blue = Kingdom(BLUE, "Blue", "BC", "BC")
    assert mk.current_capital(red, tiles) is None
    lines = eco.winter_income(Holdings.of(blue, tiles, [red, blue]))
    assert [(line.rule_id, line.source) for line in lines] == [
        ("MK-AMB-2", "own capital at BC, as a city"),
        ("MK-WINTER-2", "own capital at BC"),
        ("MK-WINTER-5", "captured capital at S"),
    ]
    assert eco.totals(lines) == Resources(gold=3, food=0)
    assert mk.deployment_capacity(blue, tiles) == {"BC": 3, "S": 2}
