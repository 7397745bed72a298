"""Mighty Kingdoms campaign rules, tested against the digest's rule IDs and worked examples."""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import fields, replace
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from campaign.rules.options import OptionError
from campaign.systems.mighty_kingdoms.rules import campaign as mk
from campaign.systems.mighty_kingdoms.rules.campaign import (
    ARMY,
    CITY,
    DEFEND,
    FIRST_CLOCK,
    FORTRESS,
    MOVE,
    OPTIONS,
    PAIR,
    RAZE,
    REGROUP,
    SHIP,
    VILLAGE,
    Army,
    Clock,
    EdgeView,
    Kingdom,
    MapView,
    MKOptions,
    Mover,
    MoveRecord,
    Order,
    RuleViolation,
    SetupPlacement,
    Ship,
    TileState,
)

# --- helpers -----------------------------------------------------------------------------------

Link = tuple[str, str, tuple[str, ...], tuple[str, ...]]


def make_map(tiles: dict[str, dict[str, Any]], links: list[Link]) -> MapView:
    """Tiles with keyword attributes, and edges (a, b, features on a's side, on b's side)."""
    edges: dict[str, list[EdgeView]] = {label: [] for label in tiles}
    for a, b, a_side, b_side in links:
        if a in edges:
            edges[a].append(EdgeView(b, frozenset(a_side), frozenset(b_side)))
        if b in edges:
            edges[b].append(EdgeView(a, frozenset(b_side), frozenset(a_side)))
    return MapView(
        tuple(
            TileState(label, edges=tuple(edges[label]), **attrs) for label, attrs in tiles.items()
        )
    )


def link(a: str, b: str, a_side: tuple[str, ...] = (), b_side: tuple[str, ...] = ()) -> Link:
    return (a, b, a_side, b_side)


RED, BLUE, GREEN, GOLD = "red", "blue", "green", "gold"
SUMMER_A = Clock(1, "summer", 3, "A")

START = "0505"
RING = ("0404", "0405", "0504", "0506", "0604", "0605")


def setup_map(**overrides: dict[str, Any]) -> MapView:
    """A start tile 0505 whose six neighbours are plain land, plus a second start tile 0909."""
    tiles: dict[str, dict[str, Any]] = {START: {"is_start": True}, "0909": {"is_start": True}}
    for label in RING:
        tiles[label] = {}
    for label, attrs in overrides.items():
        tiles.setdefault(label, {}).update(attrs)
    return make_map(tiles, [link(START, label) for label in RING])


def with_capital(tiles: MapView, kingdom: str = RED) -> MapView:
    return tiles.with_tile(START, settlement=CITY, controller=kingdom, explored=True)


GOOD_PLACEMENT = SetupPlacement(
    city="0404", fortress="0405", villages=("0504", "0506"), markers=("0604", "0605")
)


# --- options (MK-CFG, MK-AMB) ------------------------------------------------------------------


def test_mk_cfg_4_defaults_of_options_and_mkoptions_agree() -> None:
    assert MKOptions.from_dict({}) == MKOptions()
    assert MKOptions.from_dict(None) == MKOptions()
    assert [spec.name for spec in OPTIONS] == [f.name for f in fields(MKOptions)]
    assert {spec.name: spec.default for spec in OPTIONS} == MKOptions().as_dict()


def test_mk_cfg_4_every_option_cites_a_rule() -> None:
    assert all(spec.rule_id.startswith("MK-") for spec in OPTIONS)
    by_name = {spec.name: spec.rule_id for spec in OPTIONS}
    assert by_name["simple_defence"] == "MK-AMB-1"
    assert by_name["own_capital_double_gold"] == "MK-AMB-2"
    assert by_name["multiple_upgrades_per_tile"] == "MK-AMB-19"
    assert by_name["deploy_surplus"] == "MK-AMB-17"
    assert by_name["dock_surplus"] == "MK-AMB-18"
    assert by_name["strict_waterways"] == "MK-AMB-39"
    assert by_name["allow_mode_per_battle"] == "MK-AMB-30"
    assert by_name["campaign_years"] == "MK-AMB-20"


def test_mk_cfg_1_2_3_default_values() -> None:
    options = MKOptions()
    assert options.battle_mode == "kow"
    assert options.max_armies == 6
    assert not options.module_terrain_recruit
    assert not options.module_wizard_towers
    assert not options.module_artefacts
    assert options.simple_defence == "dynamic"
    assert not options.allow_mode_per_battle
    assert options.campaign_years is None
    assert options.sealed_orders
    assert options.own_capital_double_gold
    assert options.multiple_upgrades_per_tile
    assert options.deploy_surplus == "owner"
    assert options.dock_surplus == "owner"
    assert not options.strict_waterways


def test_mk_cfg_parses_stored_values() -> None:
    options = MKOptions.from_dict(
        {"battle_mode": "simple", "max_armies": 20, "simple_defence": "fixed", "campaign_years": 5}
    )
    assert (options.battle_mode, options.max_armies) == ("simple", 20)
    assert (options.simple_defence, options.campaign_years) == ("fixed", 5)


@pytest.mark.parametrize(
    "data",
    [
        {"max_armies": 0},
        {"max_armies": 21},
        {"battle_mode": "chess"},
        {"simple_defence": "sometimes"},
        {"sealed_orders": "yes"},
        {"no_such_option": True},
    ],
)
def test_mk_cfg_2_bad_option_values_are_refused(data: dict[str, Any]) -> None:
    with pytest.raises(OptionError):
        MKOptions.from_dict(data)


def _tally(name: str, tiles: int, settlements: tuple[int, int, int], points: tuple[int, ...],
           capital: bool = True) -> mk.KingdomTally:
    villages, cities, fortresses = settlements
    return mk.KingdomTally(name.lower(), name, tiles, villages, cities, fortresses, capital,
                           points)


STANDING_TALLIES = (
    _tally("Red", 9, (2, 2, 1), (500, 300)),
    _tally("Blue", 12, (1, 1, 0), (500,), capital=False),
    _tally("Green", 9, (3, 2, 1), (500,)),
    _tally("Gold", 9, (3, 2, 1), (400, 400)),
)


def test_mk_amb_20_standings_without_a_winner() -> None:
    rows = mk.standings(STANDING_TALLIES)
    # Most tiles first, then most settlements, most army points, name; nobody has a place.
    assert [r.tally.name for r in rows] == ["Blue", "Gold", "Green", "Red"]
    assert [(r.settlements, r.armies, r.points) for r in rows] == [
        (2, 1, 500), (6, 2, 800), (6, 1, 500), (5, 2, 800)]
    assert {(r.place, r.score, r.winner) for r in rows} == {(None, None, False)}


@pytest.mark.parametrize("scoring, expected", [
    ("tiles", [("Blue", 12, 1), ("Gold", 9, 2), ("Green", 9, 2), ("Red", 9, 2)]),
    ("settlements", [("Gold", 6, 1), ("Green", 6, 1), ("Red", 5, 3), ("Blue", 2, 4)]),
    ("army_points", [("Gold", 800, 1), ("Red", 800, 1), ("Blue", 500, 3), ("Green", 500, 3)]),
])
def test_mk_amb_20_house_rule_scoring_places_kingdoms(scoring: str,
                                                      expected: list[tuple[str, int, int]]) -> None:
    rows = mk.standings(STANDING_TALLIES, scoring)
    assert [(r.tally.name, r.score, r.place) for r in rows] == expected
    assert [r.tally.name for r in rows if r.winner] == [n for n, _s, p in expected if p == 1]


def test_mk_amb_20_scoring_option_and_unknown_scoring() -> None:
    spec = next(s for s in OPTIONS if s.name == "scoring")
    assert (spec.default, spec.rule_id) == ("none", "MK-AMB-20")
    assert [c for c, _label in spec.choices] == ["none", "tiles", "settlements", "army_points"]
    assert MKOptions().scoring == "none"
    with pytest.raises(RuleViolation, match=r"no scoring 'votes' \(MK-AMB-20\)"):
        mk.standings(STANDING_TALLIES, "votes")
    assert mk.standings((), "tiles") == ()


def test_mk_amb_20_campaign_over_after_the_last_year() -> None:
    options = MKOptions(campaign_years=2)
    assert not mk.campaign_over(Clock(2, "winter", None, "D"), options)
    assert mk.campaign_over(Clock(3, "summer", 1, "A"), options)
    assert not mk.campaign_over(Clock(99, "summer", 1, "A"), MKOptions())


# --- clock (MK-YEAR, MK-GEN-4) -----------------------------------------------------------------


def test_mk_year_1_to_4_one_full_year_in_order() -> None:
    steps = [FIRST_CLOCK]
    while len(steps) < 31:
        steps.append(mk.next_clock(steps[-1]))
    summer = [Clock(1, "summer", m, p) for m in range(1, 7) for p in "ABCD"]
    winter = [
        Clock(1, "winter", None, "A"),
        Clock(1, "winter", None, "B"),
        Clock(1, "winter", None, "C", "tithe"),
        Clock(1, "winter", None, "C", "buy"),
        Clock(1, "winter", None, "C", "feed"),
        Clock(1, "winter", None, "D"),
    ]
    assert steps == summer + winter + [Clock(2, "summer", 1, "A")]
    assert mk.initial_clock() == FIRST_CLOCK == Clock(1, "summer", 1, "A")
    keys = [clock.sort_key() for clock in steps]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)


def test_mk_year_2_3_phase_names_and_labels() -> None:
    assert [mk.phase_name(Clock(1, "summer", 1, p)) for p in "ABCD"] == [
        "Orders", "Resolution", "Battle", "Reform",
    ]
    assert mk.phase_name(Clock(1, "winter", None, "A")) == "Recall"
    assert mk.phase_name(Clock(1, "winter", None, "D")) == "Deploy armies"
    assert mk.clock_label(Clock(2, "summer", 3, "B")) == "Year 2, summer month 3, B) Resolution"
    assert mk.clock_label(Clock(2, "winter", None, "C", "buy")) == (
        "Year 2, winter, C) Spend resources: 2. Build and recruit"
    )
    assert mk.clock_label(Clock(1, "winter", None, "B")) == "Year 1, winter, B) Gather resources"


@pytest.mark.parametrize(
    "args",
    [
        (0, "summer", 1, "A", ""),
        (1, "summer", 7, "A", ""),
        (1, "summer", None, "A", ""),
        (1, "summer", 1, "E", ""),
        (1, "summer", 1, "C", "buy"),
        (1, "winter", 3, "A", ""),
        (1, "winter", None, "C", ""),
        (1, "winter", None, "B", "tithe"),
        (1, "autumn", None, "A", ""),
    ],
)
def test_mk_year_impossible_clocks_are_refused(args: tuple[Any, ...]) -> None:
    with pytest.raises(RuleViolation):
        Clock(*args)


# --- setup (MK-SETUP, MK-AMB-34) ---------------------------------------------------------------


def test_mk_setup_3_legal_start_tiles_are_free_white_circles() -> None:
    tiles = setup_map()
    assert mk.legal_start_tiles(tiles) == ("0505", "0909")
    assert mk.legal_start_tiles(with_capital(tiles)) == ("0909",)
    mk.validate_start_tile(tiles, "0909")
    with pytest.raises(RuleViolation, match=r"no white circle.*MK-SETUP-3"):
        mk.validate_start_tile(tiles, "0404")
    with pytest.raises(RuleViolation, match=r"already taken.*MK-SETUP-3"):
        mk.validate_start_tile(with_capital(tiles), START)


def test_mk_setup_3_turn_goes_round_player_order_once() -> None:
    assert mk.setup_turn((BLUE, RED), ()) == BLUE
    assert mk.setup_turn((BLUE, RED), {BLUE}) == RED
    assert mk.setup_turn((BLUE, RED), {BLUE, RED}) is None


def test_mk_setup_4_legal_tiles_are_the_six_neighbours() -> None:
    tiles = with_capital(setup_map())
    assert mk.legal_setup_tiles(tiles, START, RED) == tuple(sorted(RING))


def test_mk_amb_34_open_water_off_map_and_claimed_are_excluded_marsh_allowed() -> None:
    tiles = setup_map(
        **{
            "0404": {"is_open_water": True},
            "0405": {"controller": BLUE},
            "0504": {"is_marsh": True},
        }
    )
    tiles = MapView(tuple(t for t in tiles.tiles if t.label != "0605"))  # 0605 off the map
    tiles = with_capital(tiles)
    assert mk.legal_setup_tiles(tiles, START, RED) == ("0504", "0506", "0604")
    warnings = mk.setup_warnings(tiles, START)
    assert "0404 is open water (MK-AMB-34)." in warnings
    assert "0605 is off the map (MK-AMB-34)." in warnings
    assert "0405 is already claimed (MK-AMB-34)." in warnings


def test_mk_setup_4_valid_placement() -> None:
    tiles = with_capital(setup_map())
    mk.validate_setup_placement(tiles, START, RED, GOOD_PLACEMENT)
    assert GOOD_PLACEMENT.assignments() == (
        ("0404", CITY), ("0405", FORTRESS), ("0504", VILLAGE), ("0506", VILLAGE),
        ("0604", ""), ("0605", ""),
    )


@pytest.mark.parametrize(
    "placement, message",
    [
        (replace(GOOD_PLACEMENT, markers=("0604", "0404")), r"0404 is used twice.*MK-SETUP-4"),
        (replace(GOOD_PLACEMENT, markers=("0604",)), r"0605 belongs to your starting kingdom"),
        (replace(GOOD_PLACEMENT, markers=("0604", "0909")), r"0909 does not touch your capital"),
        (
            SetupPlacement(None, "0405", ("0504", "0506"), ("0604", "0605", "0404")),
            r"at most 2 villages and 2 control markers",
        ),
        (
            SetupPlacement("0404", "0405", ("0504", "0506", "0604"), ("0605",)),
            r"at most 2 villages",
        ),
    ],
)
def test_mk_setup_4_bad_placements_are_refused(placement: SetupPlacement, message: str) -> None:
    tiles = with_capital(setup_map())
    with pytest.raises(RuleViolation, match=message):
        mk.validate_setup_placement(tiles, START, RED, placement)


def test_mk_setup_4_placement_needs_own_capital_first() -> None:
    with pytest.raises(RuleViolation, match=r"not your capital.*MK-SETUP-3"):
        mk.validate_setup_placement(setup_map(), START, RED, GOOD_PLACEMENT)


def test_mk_amb_34_five_usable_neighbours_take_four_settlements_and_one_marker() -> None:
    tiles = with_capital(setup_map(**{"0605": {"is_open_water": True}}))
    five = SetupPlacement("0404", "0405", ("0504", "0506"), ("0604",))
    mk.validate_setup_placement(tiles, START, RED, five)
    three_settlements = SetupPlacement("0404", "0405", ("0504",), ("0506", "0604"))
    with pytest.raises(RuleViolation, match=r"1 city, 1 fortress and 2 villages.*MK-SETUP-4"):
        mk.validate_setup_placement(tiles, START, RED, three_settlements)
    with pytest.raises(RuleViolation, match=r"0605 is open water"):
        mk.validate_setup_placement(tiles, START, RED, replace(five, markers=("0604", "0605")))


def placed_kingdom() -> tuple[MapView, Kingdom]:
    tiles = with_capital(setup_map())
    for label, settlement in GOOD_PLACEMENT.assignments():
        tiles = tiles.with_tile(label, settlement=settlement, controller=RED, explored=True)
    return tiles, Kingdom(RED, "Red", START, START)


def test_mk_setup_4_starting_kingdom_check() -> None:
    tiles, kingdom = placed_kingdom()
    assert mk.starting_kingdom_problems(tiles, kingdom) == ()
    broken = tiles.with_tile("0604", settlement=VILLAGE)
    assert mk.starting_kingdom_problems(broken, kingdom) == (
        "Expected 2 village beside the capital, found 3 (MK-SETUP-4).",
    )
    stray = tiles.with_tile("0909", controller=RED)
    assert mk.starting_kingdom_problems(stray, kingdom) == (
        "0909 does not touch the capital (MK-SETUP-4).",
    )


def test_mk_setup_5_starting_army_goes_on_an_own_settlement() -> None:
    tiles, _ = placed_kingdom()
    assert mk.legal_starting_army_tiles(tiles, RED) == ("0404", "0405", "0504", "0505", "0506")
    mk.validate_starting_army(tiles, RED, "0405")
    with pytest.raises(RuleViolation, match=r"0604 has no settlement.*MK-SETUP-5"):
        mk.validate_starting_army(tiles, RED, "0604")
    with pytest.raises(RuleViolation, match=r"0909 is not yours.*MK-SETUP-5"):
        mk.validate_starting_army(tiles, RED, "0909")
    assert mk.STARTING_ARMY_POINTS == 500


def test_mk_setup_2_initial_order_from_rolls() -> None:
    assert mk.initial_order((RED, BLUE, GREEN), (3, 6, 1)) == (BLUE, RED, GREEN)
    assert mk.initial_order((RED, BLUE), ((4, 2), (4, 5))) == (BLUE, RED)
    with pytest.raises(RuleViolation, match=r"red and blue rolled the same.*MK-SETUP-2"):
        mk.initial_order((RED, BLUE), (4, 4))
    with pytest.raises(RuleViolation, match=r"exactly one roll"):
        mk.initial_order((RED, BLUE), (4,))


@settings(deadline=None)
@given(st.lists(st.integers(1, 10**6), min_size=1, max_size=8, unique=True))
def test_mk_setup_2_initial_order_is_a_permutation_by_roll(rolls: list[int]) -> None:
    ids = [f"k{i}" for i in range(len(rolls))]
    order = mk.initial_order(ids, rolls)
    assert sorted(order) == sorted(ids)
    by_id = dict(zip(ids, rolls))
    assert [by_id[k] for k in order] == sorted(rolls, reverse=True)


def test_mk_setup_1_races_revealed_only_when_all_have_chosen() -> None:
    choices = {RED: "Elves", BLUE: None}
    assert not mk.races_revealed((RED, BLUE), choices)
    assert mk.visible_races((RED, BLUE), choices, viewer=BLUE) == {RED: None, BLUE: None}
    assert mk.visible_races((RED, BLUE), choices, viewer=RED) == {RED: "Elves", BLUE: None}
    done = {RED: "Elves", BLUE: "Dwarfs"}
    assert mk.races_revealed((RED, BLUE), done)
    assert mk.visible_races((RED, BLUE), done, viewer=None) == done


# --- orders (MK-ORD, MK-SHIP) ------------------------------------------------------------------
#
#   Map for orders and resolution, all around X (plain, explored, Red):
#   F  forest edge on X's side     W  fully water edge        M  marsh
#   T  wizard's tower              O  open water (coastal)    R  river tile
#   U  unexplored plain            C  coastal land (Blue)     P  plain, inland


def order_map() -> MapView:
    tiles = {
        "X": {"explored": True, "controller": RED, "settlement": VILLAGE, "is_coastal": True},
        "F": {"explored": True, "controller": RED},
        "W": {"explored": True, "controller": RED, "is_coastal": True},
        "M": {"explored": True, "controller": RED, "is_marsh": True, "is_coastal": True},
        "T": {"explored": True, "wizard_tower": True, "is_coastal": True},
        "O": {"is_open_water": True},
        "R": {"explored": True, "controller": BLUE, "has_river": True},
        "U": {},
        "C": {"explored": True, "controller": BLUE, "is_coastal": True},
        "P": {"explored": True, "controller": BLUE},
    }
    links = [
        link("X", "F", ("forest",), ()),
        link("X", "W", ("water",), ("water",)),
        link("X", "M"),
        link("X", "T"),
        link("X", "O", ("water",), ("water",)),
        link("X", "R"),
        link("X", "U"),
        link("X", "C", ("coast",), ("coast",)),
        link("X", "P"),
        link("O", "C", ("water",), ("coast",)),
    ]
    return make_map(tiles, links)


def army(number: int = 1, kingdom: str = RED, tile: str = "X", **kw: Any) -> Army:
    return Army(kw.pop("id", number), kingdom, number, tile, **kw)


def ship(number: int = 1, kingdom: str = RED, tile: str = "X", **kw: Any) -> Ship:
    return Ship(kw.pop("id", 100 + number), kingdom, number, tile, **kw)


def pair(on_side: bool = False, tile: str = "X") -> Mover:
    a = army(1, tile=tile, paired_ship=101, on_side=on_side)
    s = ship(1, tile=tile, paired_army=1)
    return Mover.of_ship(s, a)


def test_mk_ord_6_army_destinations_avoid_water_edges_marsh_towers_and_open_water() -> None:
    tiles = order_map()
    assert mk.legal_move_destinations(Mover.of_army(army()), tiles) == ("C", "F", "P", "R", "U")


def test_mk_ord_6_reasons_for_refused_army_moves() -> None:
    tiles = order_map()
    mover = Mover.of_army(army())
    cases = {
        "W": r"all water: an army needs a ship.*MK-ORD-6",
        "M": r"M is a marsh.*MK-ORD-6",
        "T": r"Wizard's Tower.*MK-WIZ-3",
        "O": r"edge between X and O is all water.*MK-ORD-6",
        "Z": r"Z is not next to X.*MK-ORD-5",
    }
    for target, message in cases.items():
        with pytest.raises(RuleViolation, match=message):
            mk.validate_order(mover, MOVE, target, tiles)
    flooded = tiles.with_tile("C", is_open_water=True)
    with pytest.raises(RuleViolation, match=r"C is open water: an army needs a ship.*MK-ORD-6"):
        mk.validate_order(mover, MOVE, "C", flooded)
    assert mk.validate_order(mover, MOVE, "C", tiles) == Order("army:1", MOVE, "C")


def test_mk_ship_4_ship_destinations_are_coastal_ocean_or_river_never_marsh() -> None:
    tiles = order_map()
    assert mk.legal_move_destinations(Mover.of_ship(ship()), tiles) == ("C", "O", "R", "W")
    assert mk.legal_move_destinations(pair(), tiles) == ("C", "O", "R", "W")
    with pytest.raises(RuleViolation, match=r"marsh.*MK-SHIP-4"):
        mk.validate_order(Mover.of_ship(ship()), MOVE, "M", tiles)
    with pytest.raises(RuleViolation, match=r"P is not coastal, open ocean or a river.*MK-SHIP-4"):
        mk.validate_order(Mover.of_ship(ship()), MOVE, "P", tiles)


def test_mk_amb_39_strict_waterways_checks_the_shared_edge() -> None:
    tiles = order_map()
    strict = MKOptions(strict_waterways=True)
    assert mk.legal_move_destinations(Mover.of_ship(ship()), tiles, strict) == ("C", "O", "W")
    with pytest.raises(RuleViolation, match=r"No waterway.*MK-AMB-39"):
        mk.validate_order(Mover.of_ship(ship()), MOVE, "R", tiles, strict)


def test_mk_ord_4_legality_matrix() -> None:
    tiles = order_map()
    assert mk.legal_orders(Mover.of_army(army()), tiles) == (MOVE, DEFEND, RAZE)
    assert mk.legal_orders(Mover.of_army(army(tile="F")), tiles) == (MOVE, DEFEND)
    assert mk.legal_orders(Mover.of_army(army(on_side=True)), tiles) == (REGROUP,)
    assert mk.legal_orders(Mover.of_ship(ship()), tiles) == (MOVE, RAZE)
    assert mk.legal_orders(Mover.of_ship(ship(on_side=True)), tiles) == (REGROUP,)
    assert mk.legal_orders(pair(), tiles) == (MOVE, RAZE)


def test_mk_amb_15_pair_with_army_on_its_side_can_only_regroup() -> None:
    tiles = order_map()
    on_side_pair = pair(on_side=True)
    assert on_side_pair.on_side
    assert mk.legal_orders(on_side_pair, tiles) == (REGROUP,)
    assert mk.legal_move_destinations(on_side_pair, tiles) == ()


@pytest.mark.parametrize(
    "mover, kind, target, message",
    [
        (Mover.of_army(army(on_side=True)), MOVE, "C", r"lies on its side: it can only Regroup"),
        (Mover.of_army(army()), REGROUP, None, r"is upright: Regroup.*MK-ORD-9"),
        (Mover.of_ship(ship()), DEFEND, None, r"cannot Defend \(MK-ORD-7\)"),
        (pair(), DEFEND, None, r"cannot Defend \(MK-ORD-7\)"),
        (Mover.of_army(army(tile="F")), RAZE, None, r"no settlement on F to raze.*MK-ORD-8"),
        (Mover.of_army(army()), MOVE, None, r"Choose the adjacent tile.*MK-ORD-5"),
        (Mover.of_army(army()), DEFEND, "C", r"Only a Move order names a destination"),
        (Mover.of_army(army()), "charge", None, r"not an order.*MK-ORD-4"),
    ],
)
def test_mk_ord_4_to_9_illegal_orders_say_why(
    mover: Mover, kind: str, target: str | None, message: str
) -> None:
    with pytest.raises(RuleViolation, match=message):
        mk.validate_order(mover, kind, target, order_map())


def test_mk_ord_1_3_order_cycle_skips_players_without_tokens() -> None:
    order = (GREEN, RED, BLUE)
    assert mk.order_turn(order, None, {GREEN: 2, RED: 1, BLUE: 3}) == GREEN
    assert mk.order_turn(order, GREEN, {GREEN: 1, RED: 1, BLUE: 3}) == RED
    assert mk.order_turn(order, RED, {GREEN: 1, RED: 0, BLUE: 3}) == BLUE
    assert mk.order_turn(order, BLUE, {GREEN: 1, RED: 0, BLUE: 2}) == GREEN
    assert mk.order_turn(order, GREEN, {GREEN: 0, RED: 0, BLUE: 2}) == BLUE
    assert mk.order_turn(order, BLUE, {GREEN: 0, RED: 0, BLUE: 1}) == BLUE
    assert mk.order_turn(order, BLUE, {GREEN: 0, RED: 0, BLUE: 0}) is None


def test_mk_ord_1_tokens_needing_orders() -> None:
    tokens = mk.movers([army(1), army(2)], [ship(1)])
    assert [m.key for m in tokens] == ["army:1", "army:2", "ship:101"]
    left = mk.tokens_needing_orders(tokens, {"army:2"})
    assert [m.key for m in left] == ["army:1", "ship:101"]


def test_mk_ship_2_movers_treat_a_pair_as_one_token() -> None:
    a = army(1, paired_ship=101)
    s = ship(1, paired_army=1)
    tokens = mk.movers([a, army(2)], [s])
    assert [(m.kind, m.key) for m in tokens] == [(ARMY, "army:2"), (PAIR, "pair:101")]
    assert tokens[1].name == "ship #1 carrying army #1"
    with pytest.raises(RuleViolation, match=r"MK-SHIP-2"):
        mk.movers([a], [ship(1)])


def test_mk_ship_2_pairing_one_army_per_ship_same_tile() -> None:
    a, s = mk.pair_tokens(army(1), ship(1), SUMMER_A)
    assert (a.paired_ship, s.paired_army) == (101, 1)
    with pytest.raises(RuleViolation, match=r"already carries an army: one per ship"):
        mk.pair_tokens(army(2), s, SUMMER_A)
    with pytest.raises(RuleViolation, match=r"must share a tile"):
        mk.pair_tokens(army(2, tile="F"), ship(2), SUMMER_A)
    with pytest.raises(RuleViolation, match=r"own kingdom"):
        mk.pair_tokens(army(2, kingdom=BLUE), ship(2), SUMMER_A)
    with pytest.raises(RuleViolation, match=r"already has an order"):
        mk.pair_tokens(army(2), ship(2), SUMMER_A, ordered={"army:2"})
    with pytest.raises(RuleViolation, match=r"Orders phase"):
        mk.pair_tokens(army(2), ship(2), Clock(1, "summer", 3, "B"))


def test_mk_ship_3_split_allowed_except_on_open_ocean() -> None:
    tiles = order_map()
    a, s = mk.pair_tokens(army(1), ship(1), SUMMER_A)
    assert mk.can_split(Mover.of_ship(s, a), tiles)
    free_army, free_ship = mk.unpair_tokens(a, s, tiles, SUMMER_A)
    assert (free_army.paired_ship, free_ship.paired_army) == (None, None)
    at_sea_army, at_sea_ship = replace(a, tile="O"), replace(s, tile="O")
    assert not mk.can_split(Mover.of_ship(at_sea_ship, at_sea_army), tiles)
    with pytest.raises(RuleViolation, match=r"O is open ocean.*MK-SHIP-3"):
        mk.unpair_tokens(at_sea_army, at_sea_ship, tiles, SUMMER_A)
    with pytest.raises(RuleViolation, match=r"already has its order"):
        mk.unpair_tokens(a, s, tiles, SUMMER_A, ordered={"pair:101"})
    with pytest.raises(RuleViolation, match=r"Orders phase"):
        mk.unpair_tokens(a, s, tiles, Clock(1, "summer", 3, "D"))


def test_mk_amb_15_on_side_pair_may_split_on_land() -> None:
    a = army(1, paired_ship=101, on_side=True)
    s = ship(1, paired_army=1)
    free_army, _ = mk.unpair_tokens(a, s, order_map(), SUMMER_A)
    assert free_army.on_side and free_army.paired_ship is None


# --- resolution and exploration (MK-RES, MK-EXP, MK-WIZ) ---------------------------------------


@pytest.mark.parametrize(
    "d1, d2, reroll, off, on",
    [
        (3, 4, None, "empty", "empty"),
        (4, 4, (1, 3), "village", "village"),
        (5, 5, (2, 2), "city", "wizard_tower"),
        (6, 6, (6, 5), "fortress", "fortress"),
        (1, 1, (3, 3), "empty", "wizard_tower"),
    ],
)
def test_tv_mk_5_exploration_rows(
    d1: int, d2: int, reroll: tuple[int, int] | None, off: str, on: str
) -> None:
    assert mk.exploration_result(d1, d2, reroll, wizard_towers=False) == off
    assert mk.exploration_result(d1, d2, reroll, wizard_towers=True) == on


def test_mk_exp_1_table_boundaries() -> None:
    assert [mk.exploration_result(1, t - 1) for t in range(2, 8)] == ["empty"] * 6
    assert mk.exploration_result(3, 5) == mk.exploration_result(4, 5) == "village"
    assert mk.exploration_result(4, 6) == "city"
    assert mk.exploration_result(5, 6) == mk.exploration_result(6, 6) == "fortress"


def test_mk_exp_1_probabilities_over_all_36_rolls() -> None:
    counts = Counter(mk.exploration_result(a, b) for a in range(1, 7) for b in range(1, 7))
    assert counts == {"empty": 21, "village": 9, "city": 3, "fortress": 3}


def test_mk_wiz_1_probabilities_with_towers() -> None:
    counts: Counter[str] = Counter()
    for a, b, c, d in itertools.product(range(1, 7), repeat=4):
        counts[mk.exploration_result(a, b, (c, d), wizard_towers=True)] += 1
    total = 6**4
    shares = {result: Fraction(n, total) for result, n in counts.items()}
    assert shares == {
        "wizard_tower": Fraction(1, 36),
        "empty": Fraction(123, 216),
        "village": Fraction(53, 216),
        "city": Fraction(17, 216),
        "fortress": Fraction(17, 216),
    }


@settings(deadline=None)
@given(st.integers(1, 6), st.integers(1, 6))
def test_mk_exp_1_every_roll_gives_a_table_result(d1: int, d2: int) -> None:
    result = mk.exploration_result(d1, d2)
    low, high = {"empty": (2, 7), "village": (8, 9), "city": (10, 10), "fortress": (11, 12)}[result]
    assert low <= d1 + d2 <= high


def test_mk_wiz_1_double_needs_a_second_roll_and_dice_are_checked() -> None:
    assert mk.exploration_needs_reroll(2, 2, True)
    assert not mk.exploration_needs_reroll(2, 2, False)
    with pytest.raises(RuleViolation, match=r"double: roll 2D6 again.*MK-WIZ-1"):
        mk.exploration_result(2, 2, wizard_towers=True)
    with pytest.raises(RuleViolation, match=r"1 to 6"):
        mk.exploration_result(0, 7)


def resolve(
    mover: Mover,
    kind: str,
    target: str | None = None,
    tiles: MapView | None = None,
    armies: list[Army] | None = None,
    ships: list[Ship] | None = None,
    **kw: Any,
) -> mk.Resolution:
    return mk.resolve_order(
        Order(mover.key, kind, target), mover, tiles or order_map(), armies or [], ships or [], **kw
    )


def test_mk_res_4_exploring_places_the_result_under_the_mover() -> None:
    result = resolve(Mover.of_army(army()), MOVE, "U", dice=(4, 5))
    assert result.rule_id == "MK-RES-4"
    assert (result.tile, result.moved, result.explored) == ("U", True, "U")
    assert (result.exploration, result.settlement) == ("village", VILLAGE)
    assert result.control == mk.ControlChange("U", None, RED, "MK-EXP-2")
    empty = resolve(Mover.of_army(army()), MOVE, "U", dice=(1, 2))
    assert (empty.exploration, empty.settlement) == ("empty", "")
    with pytest.raises(RuleViolation, match=r"Roll 2D6 to explore U.*MK-EXP-1"):
        resolve(Mover.of_army(army()), MOVE, "U")


def test_mk_amb_9_a_lone_ship_exploring_gains_control() -> None:
    tiles = order_map().with_tile("U", is_coastal=True)
    result = resolve(Mover.of_ship(ship()), MOVE, "U", tiles, dice=(6, 4))
    assert (result.settlement, result.control.new if result.control else None) == (CITY, RED)


def test_mk_amb_25_exploring_open_water_has_no_roll_and_no_control() -> None:
    result = resolve(Mover.of_ship(ship()), MOVE, "O")
    assert result.rule_id == "MK-AMB-25"
    assert (result.tile, result.explored) == ("O", "O")
    assert (result.exploration, result.control) == (None, None)


def test_mk_wiz_2_tower_pushes_the_token_back_unowned() -> None:
    tower = resolve(
        Mover.of_army(army()), MOVE, "U", dice=(5, 5), reroll=(2, 2),
        options=MKOptions(module_wizard_towers=True),
    )
    assert (tower.tile, tower.moved, tower.pushed_back) == ("X", False, True)
    assert (tower.wizard_tower, tower.explored, tower.control) == (True, "U", None)
    old_tower = resolve(Mover.of_ship(ship()), MOVE, "T")
    assert (old_tower.rule_id, old_tower.tile, old_tower.pushed_back) == ("MK-WIZ-2", "X", True)


def test_mk_res_5_moving_into_a_tile_without_enemy_armies_takes_it() -> None:
    result = resolve(Mover.of_army(army()), MOVE, "C")
    assert result.control == mk.ControlChange("C", BLUE, RED, "MK-RES-5")
    assert result.control.changed
    assert result.summary.endswith("control of the tile passes to its kingdom (MK-RES-5).")
    own = resolve(Mover.of_army(army()), MOVE, "F")
    assert own.control is not None and not own.control.changed


def test_mk_res_5_enemy_army_blocks_the_change_of_control() -> None:
    result = resolve(Mover.of_army(army()), MOVE, "C", armies=[army(7, BLUE, "C", on_side=True)])
    assert result.control == mk.ControlChange("C", BLUE, BLUE, "MK-RES-5")
    assert result.tile == "C" and result.moved


def test_mk_amb_10_enemy_ship_alone_does_not_block_unless_house_rule() -> None:
    ships = [ship(4, BLUE, "C")]
    taken = resolve(Mover.of_army(army()), MOVE, "C", ships=ships)
    assert taken.control == mk.ControlChange("C", BLUE, RED, "MK-RES-5")
    blocked = resolve(
        Mover.of_army(army()), MOVE, "C", ships=ships,
        options=MKOptions(enemy_ship_blocks_control=True),
    )
    assert blocked.control == mk.ControlChange("C", BLUE, BLUE, "MK-AMB-10")


def test_mk_amb_9_lone_ship_entering_a_controlled_tile_does_not_take_it() -> None:
    lone = resolve(Mover.of_ship(ship()), MOVE, "C")
    assert lone.control == mk.ControlChange("C", BLUE, BLUE, "MK-AMB-9")
    with_army = resolve(pair(), MOVE, "C")
    assert with_army.control == mk.ControlChange("C", BLUE, RED, "MK-RES-5")
    house_rule = MKOptions(lone_ship_takes_control=True)
    house = resolve(Mover.of_ship(ship()), MOVE, "C", options=house_rule)
    assert house.control == mk.ControlChange("C", BLUE, RED, "MK-RES-5")


def test_mk_res_3_row_is_chosen_by_the_tile_state_at_resolution() -> None:
    tiles = order_map()
    first = resolve(Mover.of_army(army(1)), MOVE, "U", tiles, dice=(3, 3))
    assert first.rule_id == "MK-RES-4"
    tiles = tiles.with_tile("U", explored=True, controller=RED)
    second = resolve(Mover.of_army(army(2, BLUE)), MOVE, "U", tiles, armies=[army(1, RED, "U")])
    assert second.rule_id == "MK-RES-5" and second.explored is None
    assert second.control == mk.ControlChange("U", RED, RED, "MK-RES-5")


def test_mk_res_7_raze_succeeds_without_enemies_and_fails_with_an_enemy_ship() -> None:
    result = resolve(Mover.of_army(army()), RAZE, armies=[army(1)])
    assert (result.rule_id, result.raze, result.control) == ("MK-RES-7", "razed", None)
    failed = resolve(Mover.of_army(army()), RAZE, ships=[ship(3, BLUE, "X")])
    assert failed.raze == "failed" and "MK-REFORM-3" in failed.summary
    failed_army = resolve(Mover.of_army(army()), RAZE, armies=[army(3, BLUE, "X", on_side=True)])
    assert failed_army.raze == "failed"
    gone = resolve(Mover.of_army(army()), RAZE, tiles=order_map().with_tile("X", settlement=""))
    assert gone.raze == "failed"


def test_mk_res_8_defend_and_mk_res_6_regroup() -> None:
    defend = resolve(Mover.of_army(army()), DEFEND)
    assert (defend.rule_id, defend.defend) == ("MK-RES-8", True)
    assert (defend.tile, defend.moved) == ("X", False)
    regroup = resolve(Mover.of_army(army(on_side=True)), REGROUP)
    assert (regroup.rule_id, regroup.stood_up) == ("MK-RES-6", True)
    with pytest.raises(RuleViolation, match=r"already upright"):
        resolve(Mover.of_army(army()), REGROUP)
    with pytest.raises(RuleViolation, match=r"MK-ORD-7"):
        resolve(Mover.of_ship(ship()), DEFEND)
    with pytest.raises(RuleViolation, match=r"lies on its side"):
        resolve(Mover.of_army(army(on_side=True)), MOVE, "C")


def test_mk_res_1_resolution_turn_skips_players_with_nothing_left() -> None:
    order = (RED, BLUE, GOLD)
    assert mk.resolution_turn(order, None, {RED: 0, BLUE: 2, GOLD: 1}) == BLUE
    assert mk.resolution_turn(order, BLUE, {RED: 0, BLUE: 1, GOLD: 1}) == GOLD
    assert mk.resolution_turn(order, GOLD, {RED: 0, BLUE: 1, GOLD: 0}) == BLUE
    assert mk.resolution_turn(order, BLUE, {RED: 0, BLUE: 0, GOLD: 0}) is None


# --- reform (MK-REFORM) and player order (MK-PORDER) -------------------------------------------


def reform_map() -> MapView:
    tiles = {
        "X": {}, "Y": {}, "R1": {"has_river": True}, "R2": {"has_river": True},
        "Y2": {}, "Y3": {},
    }
    links = [
        link("X", "Y", (), ("forest",)),
        link("X", "Y2", ("mountain",), ()),
        link("R1", "Y3"),
        link("R1", "R2", ("river",), ("river",)),
    ]
    return make_map(tiles, links)


@pytest.mark.parametrize(
    "kind, move, on_side",
    [
        (ARMY, MoveRecord("X", "Y"), True),
        (ARMY, MoveRecord("X", "Y2"), True),
        (ARMY, MoveRecord("R1", "Y3"), False),
        (ARMY, MoveRecord("R1", "R2"), True),
        (PAIR, MoveRecord("R1", "R2"), False),
        (ARMY, None, False),
    ],
    ids=["forest-dest-side", "mountain-start-side", "leave-river", "river-to-river", "pair-river",
         "defend-in-river"],
)
def test_tv_mk_11_reform_terrain(kind: str, move: MoveRecord | None, on_side: bool) -> None:
    assert mk.terrain_check(kind, move, reform_map()).on_side is on_side


def test_mk_amb_15_pairs_slowed_by_forest_lone_ships_never() -> None:
    tiles = reform_map()
    assert mk.terrain_check(PAIR, MoveRecord("X", "Y"), tiles) == mk.TerrainCheck(
        True, "MK-AMB-15", "crossed forest between X and Y"
    )
    assert not mk.terrain_check(SHIP, MoveRecord("X", "Y"), tiles).on_side
    assert mk.terrain_check(ARMY, MoveRecord("R1", "R2"), tiles).rule_id == "MK-REFORM-1"
    assert mk.terrain_check(PAIR, MoveRecord("R1", "R2"), tiles).rule_id == "MK-REFORM-2"
    with pytest.raises(RuleViolation):
        mk.terrain_check(ARMY, MoveRecord("X", "R2"), tiles)


def test_mk_reform_3_failed_razes_are_turned_back() -> None:
    tiles = order_map().with_tile("X", raze_pending=True).with_tile("C", raze_pending=True)
    assert mk.raze_flip_back(tiles) == ("C", "X")


def test_mk_reform_4_tiles_with_one_kingdoms_armies_become_theirs() -> None:
    tiles = order_map()
    armies = [
        army(1, RED, "C", on_side=True),  # alone on Blue's C: taken
        army(2, RED, "P"), army(3, BLUE, "P"),  # two kingdoms: unchanged
        army(4, BLUE, "R"),  # already Blue's
        army(5, RED, "O", paired_ship=105),  # open water: never owned
        army(6, RED, "F"),  # already Red's
    ]
    assert mk.reform_ownership(tiles, armies) == (mk.ControlChange("C", BLUE, RED, "MK-REFORM-4"),)
    assert mk.reform_ownership(tiles, []) == ()


def test_tv_mk_9_player_order_with_a_tie_favouring_green() -> None:
    counts = {RED: 4, BLUE: 2, GREEN: 4, GOLD: 1}
    assert mk.tied_groups(counts) == ((RED, GREEN),)
    assert mk.player_order(counts, {GREEN: 5, RED: 2}) == (GREEN, RED, BLUE, GOLD)
    assert mk.player_order(counts, {GREEN: 1, RED: 6}) == (RED, GREEN, BLUE, GOLD)
    with pytest.raises(RuleViolation, match=r"tie-break roll.*MK-PORDER-1"):
        mk.player_order(counts, {GREEN: 5})
    with pytest.raises(RuleViolation, match=r"rolled the same.*MK-PORDER-1"):
        mk.player_order(counts, {GREEN: 3, RED: 3})
    assert mk.player_order(counts, {GREEN: (3, 1), RED: (3, 6)})[:2] == (RED, GREEN)


NAMES = {RED: "Red", BLUE: "Blue", GREEN: "Green", GOLD: "Gold"}


def test_mk_porder_1_tie_break_dice_typed_in_from_the_table() -> None:
    counts = {RED: 4, BLUE: 2, GREEN: 4, GOLD: 2}
    # Only the tied kingdoms' dice count; a die for Blue alone would be ignored.
    rolls = mk.check_tiebreak_rolls(counts, {RED: [2], GREEN: [5], BLUE: [3], GOLD: [6]}, NAMES)
    assert rolls == {RED: (2,), GREEN: (5,), BLUE: (3,), GOLD: (6,)}
    assert mk.player_order(counts, rolls) == (GREEN, RED, GOLD, BLUE)
    # Level again: the new die goes after the first; the first die still decides the rest.
    three = {RED: 3, BLUE: 3, GREEN: 3, GOLD: 0}
    rolls = mk.check_tiebreak_rolls(three, {RED: [4, 1], BLUE: [4, 6], GREEN: [2]}, NAMES)
    assert mk.player_order(three, rolls) == (BLUE, RED, GREEN, GOLD)
    assert mk.check_tiebreak_rolls({RED: 2, BLUE: 1}, {}, NAMES) == {}
    with pytest.raises(RuleViolation, match=r"^Red, Blue and Green are still level \(4\)"):
        mk.check_tiebreak_rolls(three, {RED: [4], BLUE: [4], GREEN: [4]}, NAMES)
    with pytest.raises(RuleViolation, match=r"^Red, Blue and Green have 3 armies each: enter a "
                                            r"tie-break die for Blue and Green"):
        mk.check_tiebreak_rolls(three, {RED: [4]}, NAMES)


@pytest.mark.parametrize("rolls, message", [
    ({RED: [4]}, "Red and Green have 4 armies each: enter a tie-break die for Green "
                 "(MK-PORDER-1)."),
    ({RED: [4], GREEN: [7]}, "A tie-break die for Green shows 1 to 6 (MK-PORDER-1)."),
    ({RED: [0], GREEN: [3]}, "A tie-break die for Red shows 1 to 6 (MK-PORDER-1)."),
    ({RED: [4], GREEN: [4]}, "Red and Green are still level (4): they roll again, and the new "
                             "die goes after the first (MK-PORDER-1)."),
    ({RED: [4, 2], GREEN: [4]}, "Red and Green are still level (4): they roll again"),
    ({RED: [4, 2], GREEN: [4, 2]}, "Red and Green are still level (4-2)"),
])
def test_mk_porder_1_bad_tie_break_dice_are_refused(rolls: dict[Any, list[int]],
                                                    message: str) -> None:
    counts = {RED: 4, BLUE: 2, GREEN: 4}
    with pytest.raises(RuleViolation) as refused:
        mk.check_tiebreak_rolls(counts, rolls, NAMES)
    assert str(refused.value).startswith(message)


def test_mk_deploy_2_tie_break_messages_cite_the_deploy_rule() -> None:
    with pytest.raises(RuleViolation, match=r"Red and Blue have 1 army each.*\(MK-DEPLOY-2\)"):
        mk.check_tiebreak_rolls({RED: 1, BLUE: 1}, {BLUE: [3]}, NAMES, "MK-DEPLOY-2")


def test_mk_porder_1_a_tie_without_typed_dice_is_left_to_the_server() -> None:
    counts = {RED: 4, BLUE: 2, GREEN: 4, GOLD: 2}
    assert mk.check_tiebreak_rolls(counts, {}, NAMES) == {}
    assert mk.check_tiebreak_rolls(counts, {BLUE: [2], GOLD: [5]}, NAMES) == {
        BLUE: (2,), GOLD: (5,)}


def test_mk_setup_2_entered_order_takes_every_kingdom_once() -> None:
    assert mk.entered_order((RED, BLUE, GREEN), (GREEN, RED, BLUE), NAMES) == (GREEN, RED, BLUE)
    with pytest.raises(RuleViolation, match=r"^Red is listed twice.*\(MK-SETUP-2\)"):
        mk.entered_order((RED, BLUE), (RED, RED), NAMES)
    with pytest.raises(RuleViolation, match=r"^Give Blue and Green a place in the player order"):
        mk.entered_order((RED, BLUE, GREEN), (RED,), NAMES)
    with pytest.raises(RuleViolation, match=r"^Gold is not a kingdom of this campaign"):
        mk.entered_order((RED, BLUE), (RED, BLUE, GOLD), NAMES)
    with pytest.raises(RuleViolation, match=r"^Give Blue and Red a place"):
        mk.entered_order((RED, BLUE), (), NAMES)


def test_mk_amb_29_army_counts_include_on_side_and_paired_armies_not_ships() -> None:
    armies = [army(1), army(2, on_side=True), army(3, paired_ship=103), army(1, BLUE)]
    assert mk.army_counts((RED, BLUE, GOLD), armies) == {RED: 3, BLUE: 1, GOLD: 0}


@settings(deadline=None)
@given(
    st.dictionaries(st.sampled_from("ABCDEFGH"), st.integers(0, 6), min_size=1),
    st.lists(st.integers(1, 10**6), min_size=8, max_size=8, unique=True),
)
def test_mk_porder_1_order_is_a_permutation_sorted_by_count(
    counts: dict[str, int], roll_values: list[int]
) -> None:
    rolls = dict(zip(counts, roll_values))
    order = mk.player_order(counts, rolls)
    assert sorted(order) == sorted(counts)
    assert [counts[k] for k in order] == sorted(counts.values(), reverse=True)
    for first, second in zip(order, order[1:]):
        if counts[first] == counts[second]:
            assert rolls[first] > rolls[second]


# --- winter: recall, docking, deployment (MK-RECALL, MK-DEPLOY) --------------------------------


def winter_map() -> MapView:
    """TV-MK-3: Red holds C0 (own capital, coastal), C1 (river), C2, V1-V3, F1 and E1-E3."""
    red = {"controller": RED, "explored": True}
    tiles = {
        "C0": {**red, "settlement": CITY, "is_coastal": True},
        "C1": {**red, "settlement": CITY, "has_river": True},
        "C2": {**red, "settlement": CITY},
        "V1": {**red, "settlement": VILLAGE},
        "V2": {**red, "settlement": VILLAGE},
        "V3": {**red, "settlement": VILLAGE},
        "F1": {**red, "settlement": FORTRESS, "has_forest": True},
        "E1": {**red},
        "E2": {**red, "has_mountains": True},
        "E3": {**red},
        "B0": {"controller": BLUE, "explored": True, "settlement": CITY, "is_coastal": True},
        "BM": {"controller": BLUE, "explored": True, "has_mountains": True},
    }
    return make_map(tiles, [link("F1", "E1"), link("F1", "BM"), link("F1", "V1")])


RED_KINGDOM = Kingdom(RED, "Red", "C0", "C0")
BLUE_KINGDOM = Kingdom(BLUE, "Blue", "B0", "B0")


def test_tv_mk_3_recall_to_own_capital() -> None:
    plan = mk.recall_destination(RED_KINGDOM, winter_map())
    assert plan == mk.RecallPlan("capital", ("C0",), "MK-RECALL-1")
    mk.validate_recall_choice(RED_KINGDOM, winter_map(), "C0")
    with pytest.raises(RuleViolation, match=r"your capital at C0 \(MK-RECALL-1\)"):
        mk.validate_recall_choice(RED_KINGDOM, winter_map(), "C1")
    moved = mk.recall_army(army(1, tile="E3", paired_ship=101), "C0")
    assert (moved.tile, moved.paired_ship) == ("C0", None)


def test_mk_recall_2_3_without_capital_a_city_then_a_village_then_destroyed() -> None:
    tiles = winter_map().with_tile("C0", controller=BLUE)
    assert mk.recall_destination(RED_KINGDOM, tiles) == mk.RecallPlan(
        "city", ("C1", "C2"), "MK-RECALL-2"
    )
    for label in ("C1", "C2"):
        tiles = tiles.with_tile(label, controller=BLUE)
    assert mk.recall_destination(RED_KINGDOM, tiles) == mk.RecallPlan(
        "village", ("V1", "V2", "V3"), "MK-RECALL-2"
    )
    with pytest.raises(RuleViolation, match=r"one of your villages"):
        mk.validate_recall_choice(RED_KINGDOM, tiles, "F1")
    for label in ("V1", "V2", "V3"):
        tiles = tiles.with_tile(label, settlement="")
    destroyed = mk.RecallPlan("destroyed", (), "MK-RECALL-3")
    assert mk.recall_destination(RED_KINGDOM, tiles) == destroyed
    mk.validate_recall_choice(RED_KINGDOM, tiles, None)
    with pytest.raises(RuleViolation, match=r"MK-RECALL-3"):
        mk.validate_recall_choice(RED_KINGDOM, tiles, "F1")


def test_mk_amb_8_capital_pointer_survives_capture_but_not_razing() -> None:
    taken = winter_map().with_tile("C0", controller=BLUE)
    assert mk.current_capital(RED_KINGDOM, taken) is None
    assert mk.capital_tile_after(RED_KINGDOM, taken) == "C0"
    retaken = taken.with_tile("C0", controller=RED)
    assert mk.current_capital(RED_KINGDOM, retaken) == "C0"
    razed = winter_map().with_tile("C0", settlement="")
    assert mk.capital_tile_after(RED_KINGDOM, razed) is None


def test_tv_mk_3_docking_cities_are_coastal_or_river_cities() -> None:
    tiles = winter_map()
    assert mk.docking_cities(RED, tiles) == ("C0", "C1")
    assert mk.validate_docking(RED, tiles, [ship(1)], {1: "C0"}) == ()
    with pytest.raises(RuleViolation, match=r"C2 is not one \(MK-RECALL-5\)"):
        mk.validate_docking(RED, tiles, [ship(1)], {1: "C2"})
    with pytest.raises(RuleViolation, match=r"both dock at C0: one ship per city"):
        mk.validate_docking(RED, tiles, [ship(1), ship(2)], {1: "C0", 2: "C0"})
    with pytest.raises(RuleViolation, match=r"Ship #2 can still dock at C1"):
        mk.validate_docking(RED, tiles, [ship(1), ship(2)], {1: "C0"})


def test_mk_amb_18_surplus_ships_are_removed() -> None:
    tiles = winter_map()
    ships = [ship(1), ship(2), ship(3)]
    assert mk.validate_docking(RED, tiles, ships, {2: "C0", 3: "C1"}) == (1,)
    newest = MKOptions(dock_surplus="newest")
    assert mk.validate_docking(RED, tiles, ships, {1: "C0", 2: "C1"}, newest) == (3,)
    with pytest.raises(RuleViolation, match=r"highest-numbered ships go first: remove #3"):
        mk.validate_docking(RED, tiles, ships, {2: "C0", 3: "C1"}, newest)


def start_kingdom_map() -> MapView:
    red = {"controller": RED, "explored": True}
    return make_map(
        {
            "K0": {**red, "settlement": CITY},
            "K1": {**red, "settlement": CITY},
            "KF": {**red, "settlement": FORTRESS},
            "KV": {**red, "settlement": VILLAGE},
            "KW": {**red, "settlement": VILLAGE},
            "KE": {**red},
            "XC": {"controller": BLUE, "explored": True, "settlement": CITY},
        },
        [],
    )


START_KINGDOM = Kingdom(RED, "Red", "K0", "K0")


def test_tv_mk_8_deployment_capacity_is_ten() -> None:
    tiles = start_kingdom_map()
    assert mk.deployment_capacity(START_KINGDOM, tiles) == {
        "K0": 3, "K1": 2, "KF": 3, "KV": 1, "KW": 1,
    }
    assert mk.total_capacity(START_KINGDOM, tiles) == 10


def test_tv_mk_8_plans() -> None:
    tiles = start_kingdom_map()
    assert mk.validate_deployment_plan(START_KINGDOM, tiles, {"K0": 3, "KF": 3}, 6) == 0
    with pytest.raises(RuleViolation, match=r"A village takes at most 1 army.*2 planned at KV"):
        mk.validate_deployment_plan(START_KINGDOM, tiles, {"KV": 2, "K0": 3}, 5)
    with pytest.raises(RuleViolation, match=r"A city takes at most 2 armies.*3 planned at K1"):
        mk.validate_deployment_plan(START_KINGDOM, tiles, {"K1": 3}, 3)
    with pytest.raises(RuleViolation, match=r"A Capital City takes at most 3 armies"):
        mk.validate_deployment_plan(START_KINGDOM, tiles, {"K0": 4}, 4)
    with pytest.raises(RuleViolation, match=r"KE has no settlement"):
        mk.validate_deployment_plan(START_KINGDOM, tiles, {"KE": 1}, 1)
    with pytest.raises(RuleViolation, match=r"XC is not yours"):
        mk.validate_deployment_plan(START_KINGDOM, tiles, {"XC": 1}, 1)
    with pytest.raises(RuleViolation, match=r"Place all 6 armies.*MK-DEPLOY-5"):
        mk.validate_deployment_plan(START_KINGDOM, tiles, {"K0": 3, "KF": 2}, 6)


def test_tv_mk_8_captured_enemy_capital_adds_two() -> None:
    tiles = start_kingdom_map().with_tile("XC", controller=RED)
    kingdoms_capital = Kingdom(BLUE, "Blue", "XC", "XC")
    assert mk.current_capital(kingdoms_capital, tiles) is None
    assert mk.deployment_limit(START_KINGDOM, tiles, "XC") == 2
    assert mk.total_capacity(START_KINGDOM, tiles) == 12


def test_mk_amb_17_armies_beyond_capacity_are_removed() -> None:
    tiles = make_map({"V": {"controller": RED, "settlement": VILLAGE}}, [])
    small = Kingdom(RED, "Red", "V", None)
    assert mk.validate_deployment_plan(small, tiles, {"V": 1}, 3) == 2
    assert mk.choose_surplus([1, 2, 3], 2, "owner", [1, 3], "MK-AMB-17") == (1, 3)
    assert mk.choose_surplus([1, 2, 3], 2, "newest", None, "MK-AMB-17") == (2, 3)
    with pytest.raises(RuleViolation, match=r"exactly 2 token"):
        mk.choose_surplus([1, 2, 3], 2, "owner", [1], "MK-AMB-17")
    with pytest.raises(RuleViolation, match=r"#9 is not one of yours"):
        mk.choose_surplus([1, 2, 3], 2, "owner", [1, 9], "MK-AMB-17")


def test_mk_deploy_4_legal_tiles_shrink_as_armies_are_placed() -> None:
    tiles = start_kingdom_map()
    assert mk.legal_deploy_tiles(START_KINGDOM, tiles, {}) == ("K0", "K1", "KF", "KV", "KW")
    assert mk.legal_deploy_tiles(START_KINGDOM, tiles, {"KV": 1, "K1": 2, "K0": 2}) == (
        "K0", "KF", "KW",
    )


def test_mk_amb_41_deployed_army_is_upright_unpaired_without_defend() -> None:
    weary = army(1, on_side=True, defending=True, paired_ship=101, points=300)
    deployed = mk.deployed_army(weary, "K0")
    assert deployed == army(1, tile="K0", points=300)


# --- advanced recruiting (MK-ADV) --------------------------------------------------------------


def test_mk_adv_2_module_off_or_starting_army_has_no_restriction() -> None:
    tiles = winter_map()
    free = mk.recruit_allowance("F1", RED, tiles)
    assert (free.monsters, free.war_machines, free.magic_items) == (True, True, True)
    on = MKOptions(module_terrain_recruit=True)
    start = mk.recruit_allowance("F1", RED, tiles, on, starting_army=True)
    assert (start.monsters, start.war_machines, start.magic_items) == (True, True, True)


def test_mk_adv_3_4_5_terrain_in_or_next_to_the_fortress() -> None:
    on = MKOptions(module_terrain_recruit=True)
    tiles = winter_map()
    # F1 has forest itself; its mountain neighbour BM belongs to Blue, so no monsters.
    allowance = mk.recruit_allowance("F1", RED, tiles, on)
    assert not allowance.monsters
    assert allowance.war_machines
    assert not allowance.magic_items
    captured = tiles.with_tile("BM", controller=RED)
    assert mk.recruit_allowance("F1", RED, captured, on).monsters
    marsh = tiles.with_tile("E1", is_marsh=True)
    assert mk.recruit_allowance("F1", RED, marsh, on).monsters
    no_forest = tiles.with_tile("F1", has_forest=False)
    assert not mk.recruit_allowance("F1", RED, no_forest, on).war_machines
    with pytest.raises(RuleViolation, match=r"MK-RECRUIT-1"):
        mk.recruit_allowance("C1", RED, tiles, on)


def test_mk_adv_5_magic_items_are_never_allowed_and_contents_are_checked() -> None:
    allowance = mk.RecruitAllowance(monsters=False, war_machines=True, magic_items=False)
    mk.validate_recruit_contents(allowance, monsters=False, war_machines=True, magic_items=False)
    with pytest.raises(RuleViolation, match=r"no monsters \(MK-ADV-3\)"):
        mk.validate_recruit_contents(
            allowance, monsters=True, war_machines=False, magic_items=False
        )
    with pytest.raises(RuleViolation, match=r"MK-ADV-5"):
        mk.validate_recruit_contents(
            allowance, monsters=False, war_machines=False, magic_items=True
        )
    no_machines = mk.RecruitAllowance(monsters=True, war_machines=False, magic_items=False)
    with pytest.raises(RuleViolation, match=r"no war machines \(MK-ADV-4\)"):
        mk.validate_recruit_contents(
            no_machines, monsters=True, war_machines=True, magic_items=False
        )
