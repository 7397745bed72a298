"""Mighty Kingdoms: the campaign-side rules.

Options, the clock, setup, summer orders and their resolution, Reform and player order, winter
recall and deployment, and terrain-restricted recruiting. Battles live in ``battles/rules/`` and the
winter economy in ``ledger/rules/mighty_kingdoms.py``.

Everything here is a pure function over frozen dataclasses: no Django, no database, no clock and no
hidden randomness (dice and tie-break rolls are arguments). Map adjacency is data: each tile lists
its neighbours and the features on both sides of every shared edge. Every docstring cites the IDs of
the Mighty Kingdoms rules digest; illegal actions raise ``RuleViolation`` with a plain message that
cites the rule.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any

from campaign.rules.options import OptionSpec, parse_options

KingdomId = int | str
TokenId = int | str


class RuleViolation(ValueError):
    """An illegal action; the message explains why in plain words and cites the rule ID
    (e.g. "... (MK-SETTLE-3)")."""


# --- vocabulary --------------------------------------------------------------------------------

EMPTY = ""
VILLAGE = "village"
CITY = "city"
FORTRESS = "fortress"
SETTLEMENTS = (EMPTY, VILLAGE, CITY, FORTRESS)
#: Purchase target and deployment class only: a Capital City is a city plus
#: ``Kingdom.capital_tile``.
CAPITAL = "capital"

WATER = "water"
COAST = "coast"
MOUNTAIN = "mountain"
FOREST = "forest"
RIVER = "river"
EDGE_FEATURES = frozenset({WATER, COAST, MOUNTAIN, FOREST, RIVER})
_WATERWAY = frozenset({WATER, COAST, RIVER})

MOVE = "move"
DEFEND = "defend"
RAZE = "raze"
REGROUP = "regroup"
ORDER_KINDS = (MOVE, DEFEND, RAZE, REGROUP)
ORDER_NAMES = {MOVE: "Move", DEFEND: "Defend", RAZE: "Raze", REGROUP: "Regroup"}

ARMY = "army"
SHIP = "ship"
PAIR = "pair"

EXPLORE_EMPTY = "empty"
EXPLORE_VILLAGE = "village"
EXPLORE_CITY = "city"
EXPLORE_FORTRESS = "fortress"
EXPLORE_TOWER = "wizard_tower"
#: Settlement placed by each exploration result (MK-EXP-1); a tower is no settlement (MK-WIZ-4).
EXPLORATION_SETTLEMENT = {
    EXPLORE_EMPTY: EMPTY,
    EXPLORE_VILLAGE: VILLAGE,
    EXPLORE_CITY: CITY,
    EXPLORE_FORTRESS: FORTRESS,
    EXPLORE_TOWER: EMPTY,
}
#: MK-EXP-1: inclusive 2D6 ranges of the exploration table.
EXPLORATION_TABLE: tuple[tuple[int, int, str], ...] = (
    (2, 7, EXPLORE_EMPTY),
    (8, 9, EXPLORE_VILLAGE),
    (10, 10, EXPLORE_CITY),
    (11, 12, EXPLORE_FORTRESS),
)

STARTING_ARMY_POINTS = 500
SETUP_SETTLEMENTS = (CITY, FORTRESS, VILLAGE, VILLAGE)

#: MK-DEPLOY-4: most armies deployed on one settlement (an enemy's captured capital is a city).
DEPLOY_LIMITS = {VILLAGE: 1, CITY: 2, CAPITAL: 3, FORTRESS: 3}

REMOVE_OWNER = "owner"
REMOVE_NEWEST = "newest"


# MK-AMB-20: the house-rule scorings a group may pick for the end of the campaign.
SCORE_NONE = "none"
SCORE_TILES = "tiles"
SCORE_SETTLEMENTS = "settlements"
SCORE_ARMY_POINTS = "army_points"
SCORING_CHOICES = (
    (SCORE_NONE, "Nobody: the standings only"),
    (SCORE_TILES, "The kingdom with the most tiles"),
    (SCORE_SETTLEMENTS, "The kingdom with the most settlements"),
    (SCORE_ARMY_POINTS, "The kingdom with the most army points"),
)

# --- options (MK-CFG, MK-AMB) ------------------------------------------------------------------

_SURPLUS_CHOICES = (
    (REMOVE_OWNER, "The owner chooses which go"),
    (REMOVE_NEWEST, "The highest-numbered go first"),
)

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "battle_mode", "Battle mode", "choice", "kow", rule_id="MK-CFG-1",
        help="Kings of War tabletop games, or Simple battles fought with dice only.",
        choices=(("kow", "Kings of War battles"), ("simple", "Simple battles")),
    ),
    OptionSpec(
        "max_armies", "Most armies per kingdom", "int", 6, rule_id="MK-CFG-2",
        help="Raise it for big or long campaigns (MK-RECRUIT-7).", minimum=1, maximum=20,
    ),
    OptionSpec(
        "module_terrain_recruit", "Terrain-restricted recruiting", "bool", False,
        rule_id="MK-ADV-2",
        help="Winter recruits need mountains, marsh or forest nearby for monsters and war "
        "machines.",
    ),
    OptionSpec(
        "module_wizard_towers", "Wizard's towers and quests", "bool", False, rule_id="MK-WIZ-1",
        help="A double on an exploration roll, then any double, makes a Wizard's Tower.",
    ),
    OptionSpec(
        "module_artefacts", "Magical artefacts", "bool", False, rule_id="MK-ART-1",
        help="Artefacts won on quests and captured in battle.",
    ),
    OptionSpec(
        "simple_defence", "Simple battles: Defence after a hit", "choice", "dynamic",
        rule_id="MK-AMB-1",
        help="Recompute Defence from the army's points after each hit, or keep it fixed.",
        choices=(("dynamic", "Recomputed after each hit"), ("fixed", "Fixed for the battle")),
    ),
    OptionSpec(
        "allow_mode_per_battle", "Choose the battle mode per battle", "bool", False,
        rule_id="MK-AMB-30",
        help="Mix Simple and Kings of War battles in one campaign.",
    ),
    OptionSpec(
        "campaign_years", "Campaign length in years", "int", None, rule_id="MK-AMB-20",
        help="The campaign ends when the last year's winter closes. Leave empty for an "
        "open-ended campaign.", minimum=1, maximum=100, nullable=True,
    ),
    OptionSpec(
        "scoring", "Who wins when the campaign ends", "choice", SCORE_NONE, rule_id="MK-AMB-20",
        help="The rules name no winner: by default the standings are shown and nobody is "
        "declared the winner. A house rule may crown the kingdom with the most of one measure.",
        choices=SCORING_CHOICES,
    ),
    OptionSpec(
        "sealed_orders", "Sealed orders", "bool", True, rule_id="MK-ORD-1",
        help="Orders stay hidden from other players until the Orders phase ends.",
    ),
    OptionSpec(
        "own_capital_double_gold", "Own capital also counts as a city", "bool", True,
        rule_id="MK-AMB-2",
        help="On: an own Capital City yields 2 gold (1 as a city, 1 extra). Off: 1 gold.",
    ),
    OptionSpec(
        "multiple_upgrades_per_tile", "Several purchases on one tile per winter", "bool", True,
        rule_id="MK-AMB-19",
        help="On: Empty to Village to City in one winter, one purchase per step.",
    ),
    OptionSpec(
        "deploy_surplus", "Armies that find no room at deployment", "choice", REMOVE_OWNER,
        rule_id="MK-AMB-17", choices=_SURPLUS_CHOICES,
    ),
    OptionSpec(
        "dock_surplus", "Ships that find no city to dock in", "choice", REMOVE_OWNER,
        rule_id="MK-AMB-18", choices=_SURPLUS_CHOICES,
    ),
    OptionSpec(
        "strict_waterways", "Ships follow connected waterways", "bool", False, rule_id="MK-AMB-39",
        help="On: a ship may only cross an edge with water, coast or river on both sides.",
    ),
    OptionSpec(
        "lone_ship_takes_control", "A lone ship takes control of explored tiles", "bool", False,
        rule_id="MK-AMB-9",
        help="Off: only a token carrying an army takes an explored tile by moving in.",
    ),
    OptionSpec(
        "enemy_ship_blocks_control", "Enemy ships stop a change of control", "bool", False,
        rule_id="MK-AMB-10",
        help="Off: only enemy armies stop a Move from taking control of a tile.",
    ),
    OptionSpec(
        "voluntary_unfed", "Armies may be left unfed on purpose", "bool", True,
        rule_id="MK-AMB-33",
        help="Off: every army that food can feed must be fed.",
    ),
)


@dataclass(frozen=True)
class MKOptions:
    """The parsed options of a Mighty Kingdoms campaign (MK-CFG-1..4 and the MK-AMB defaults).

    The defaults below equal the ``OPTIONS`` defaults; build from stored JSON with ``from_dict``.
    """

    battle_mode: str = "kow"
    max_armies: int = 6
    module_terrain_recruit: bool = False
    module_wizard_towers: bool = False
    module_artefacts: bool = False
    simple_defence: str = "dynamic"
    allow_mode_per_battle: bool = False
    campaign_years: int | None = None
    scoring: str = SCORE_NONE
    sealed_orders: bool = True
    own_capital_double_gold: bool = True
    multiple_upgrades_per_tile: bool = True
    deploy_surplus: str = REMOVE_OWNER
    dock_surplus: str = REMOVE_OWNER
    strict_waterways: bool = False
    lone_ship_takes_control: bool = False
    enemy_ship_blocks_control: bool = False
    voluntary_unfed: bool = True

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> MKOptions:
        """MK-CFG-4: validate stored options (``parse_options``) and fill in defaults."""
        return cls(**parse_options(OPTIONS, data))

    def as_dict(self) -> dict[str, Any]:
        """The options as stored on the campaign."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


DEFAULT_OPTIONS = MKOptions()


def campaign_over(clock: Clock, options: MKOptions) -> bool:
    """MK-AMB-20: true once the clock has passed the last year set by the group (if any)."""
    return options.campaign_years is not None and clock.year > options.campaign_years


@dataclass(frozen=True)
class KingdomTally:
    """What a kingdom holds, for the standings (MK-AMB-20): its controlled tiles, its
    settlements by type (``cities`` counts every city it controls, its own capital included),
    whether it holds its own capital, and the points of each of its armies in play."""

    kingdom: KingdomId
    name: str
    tiles: int = 0
    villages: int = 0
    cities: int = 0
    fortresses: int = 0
    own_capital: bool = False
    army_points: tuple[int, ...] = ()


@dataclass(frozen=True)
class Standing:
    """One row of the standings; ``place`` and ``score`` only under a house-rule scoring."""

    tally: KingdomTally
    score: int | None = None
    place: int | None = None

    @property
    def settlements(self) -> int:
        """MK-GLOSS-5: villages, cities (a Capital City is a city) and fortresses."""
        return self.tally.villages + self.tally.cities + self.tally.fortresses

    @property
    def armies(self) -> int:
        return len(self.tally.army_points)

    @property
    def points(self) -> int:
        return sum(self.tally.army_points)

    @property
    def winner(self) -> bool:
        return self.place == 1


def _measure(standing: Standing, scoring: str) -> int:
    if scoring == SCORE_TILES:
        return standing.tally.tiles
    if scoring == SCORE_SETTLEMENTS:
        return standing.settlements
    if scoring == SCORE_ARMY_POINTS:
        return standing.points
    raise RuleViolation(f"There is no scoring {scoring!r} (MK-AMB-20).")


def standings(tallies: Iterable[KingdomTally], scoring: str = SCORE_NONE) -> tuple[Standing, ...]:
    """MK-AMB-20, MK-GEN-5: the standings: tiles, settlements by type, armies and their points.

    The rules define no winner: by default (``SCORE_NONE``) the rows come most tiles first (then
    most settlements, most army points, name) and nobody has a place. Under a house-rule scoring
    the measure it names is each kingdom's score, the rows come highest score first, and kingdoms
    with the same score share a place (so several may share first place).
    """
    rows = [Standing(t) for t in tallies]
    if scoring == SCORE_NONE:
        return tuple(sorted(rows, key=lambda s: (-s.tally.tiles, -s.settlements, -s.points,
                                                 s.tally.name)))
    scored = sorted((replace(s, score=_measure(s, scoring)) for s in rows),
                    key=lambda s: (-(s.score or 0), s.tally.name))
    placed = []
    for index, row in enumerate(scored):
        same = placed and placed[-1].score == row.score
        placed.append(replace(row, place=placed[-1].place if same else index + 1))
    return tuple(placed)


# --- the clock (MK-YEAR, MK-GEN-4) -------------------------------------------------------------

SUMMER = "summer"
WINTER = "winter"
PHASES = ("A", "B", "C", "D")
SUMMER_PHASE_NAMES = {"A": "Orders", "B": "Resolution", "C": "Battle", "D": "Reform"}
WINTER_PHASE_NAMES = {
    "A": "Recall", "B": "Gather resources", "C": "Spend resources", "D": "Deploy armies",
}
SUB_TITHE = "tithe"
SUB_BUY = "buy"
SUB_FEED = "feed"
SPEND_SUB_PHASES = (SUB_TITHE, SUB_BUY, SUB_FEED)
SUB_PHASE_NAMES = {SUB_TITHE: "Tithe", SUB_BUY: "Build and recruit", SUB_FEED: "Feed armies"}
SUMMER_MONTHS = 6


@dataclass(frozen=True)
class Clock:
    """MK-GEN-4, MK-YEAR-1..4: where the campaign stands.

    Summer: ``month`` 1..6, ``phase`` A..D, no sub-phase. Winter: ``month`` is None, ``phase`` A..D,
    and in phase C the ``sub_phase`` is tithe, buy or feed (MK-WINTER-1).
    """

    year: int
    season: str
    month: int | None
    phase: str
    sub_phase: str = ""

    def __post_init__(self) -> None:
        if self.year < 1:
            raise RuleViolation("The campaign starts in year 1 (MK-YEAR-1).")
        if self.phase not in PHASES:
            raise RuleViolation(
                f"Phase {self.phase!r} does not exist: phases are A to D (MK-YEAR-2)."
            )
        if self.season == SUMMER:
            if self.month is None or not 1 <= self.month <= SUMMER_MONTHS:
                raise RuleViolation("A summer has months 1 to 6 (MK-YEAR-1).")
            if self.sub_phase:
                raise RuleViolation("Summer phases have no sub-phases (MK-YEAR-2).")
        elif self.season == WINTER:
            if self.month is not None:
                raise RuleViolation("Winter has no months (MK-YEAR-3).")
            if (self.phase == "C") != (self.sub_phase in SPEND_SUB_PHASES):
                raise RuleViolation(
                    "Only winter C) Spend resources has the sub-phases tithe, buy and feed "
                    "(MK-WINTER-1)."
                )
        else:
            raise RuleViolation(
                f"Season {self.season!r} does not exist: summer or winter (MK-YEAR-1)."
            )

    def sort_key(self) -> tuple[int, int, int, int, int]:
        """A key that orders clocks in play order (for the chronicle)."""
        season = 0 if self.season == SUMMER else 1
        sub = SPEND_SUB_PHASES.index(self.sub_phase) + 1 if self.sub_phase else 0
        return (self.year, season, self.month or 0, PHASES.index(self.phase), sub)


FIRST_CLOCK = Clock(1, SUMMER, 1, "A")


def initial_clock() -> Clock:
    """MK-YEAR-1, MK-SETUP: after setup the campaign opens at year 1, summer month 1, A) Orders."""
    return FIRST_CLOCK


def next_clock(clock: Clock) -> Clock:
    """MK-YEAR-2..4, MK-WINTER-1, MK-PORDER-3: the step that follows ``clock``.

    Summer phases run A..D; after month 6's Reform comes winter A) Recall; winter runs A, B, C
    (tithe, buy, feed), D; after winter D) Deploy comes the next year's month 1, A) Orders.
    """
    if clock.season == SUMMER:
        assert clock.month is not None
        if clock.phase != "D":
            return Clock(clock.year, SUMMER, clock.month, PHASES[PHASES.index(clock.phase) + 1])
        if clock.month < SUMMER_MONTHS:
            return Clock(clock.year, SUMMER, clock.month + 1, "A")
        return Clock(clock.year, WINTER, None, "A")
    if clock.phase == "A":
        return Clock(clock.year, WINTER, None, "B")
    if clock.phase == "B":
        return Clock(clock.year, WINTER, None, "C", SUB_TITHE)
    if clock.phase == "C":
        position = SPEND_SUB_PHASES.index(clock.sub_phase)
        if position + 1 < len(SPEND_SUB_PHASES):
            return Clock(clock.year, WINTER, None, "C", SPEND_SUB_PHASES[position + 1])
        return Clock(clock.year, WINTER, None, "D")
    return Clock(clock.year + 1, SUMMER, 1, "A")


def phase_name(clock: Clock) -> str:
    """MK-YEAR-2/3: the phase's name as players know it (e.g. "Resolution", "Deploy armies")."""
    names = SUMMER_PHASE_NAMES if clock.season == SUMMER else WINTER_PHASE_NAMES
    return names[clock.phase]


# Setup (MK-SETUP-1..5) comes before the first summer: the clock's season is "setup" and its
# phase the setup step, in year 1, with neither month nor sub-phase.
SETUP_SEASON = "setup"
SETUP_STEPS = ("race", "order", "capital", "settle", "army")


def validate_clock(year: int, season: str, month: int | None, phase: str,
                   sub_phase: str = "") -> None:
    """MK-YEAR-1..3, MK-SETUP: refuse (``RuleViolation``, saying why) a clock a Mighty Kingdoms
    campaign can never be at: a setup step, or a summer or winter phase as ``Clock`` checks."""
    if season == SETUP_SEASON:
        if phase not in SETUP_STEPS:
            raise RuleViolation(
                f"Setup step {phase!r} does not exist: the steps are "
                f"{', '.join(SETUP_STEPS)} (MK-SETUP-1..5)."
            )
        if year != 1 or month is not None or sub_phase:
            raise RuleViolation("Setup happens in year 1, without months (MK-SETUP).")
        return
    Clock(year, season, month, phase, sub_phase)


def clock_label(clock: Clock) -> str:
    """MK-YEAR-1..3: a label for display, e.g. "Year 2, summer month 3, B) Resolution"."""
    if clock.season == SUMMER:
        return f"Year {clock.year}, summer month {clock.month}, {clock.phase}) {phase_name(clock)}"
    label = f"Year {clock.year}, winter, {clock.phase}) {phase_name(clock)}"
    if clock.sub_phase:
        number = SPEND_SUB_PHASES.index(clock.sub_phase) + 1
        label += f": {number}. {SUB_PHASE_NAMES[clock.sub_phase]}"
    return label


# --- map and tokens ----------------------------------------------------------------------------


@dataclass(frozen=True)
class EdgeView:
    """One shared edge seen from a tile: the neighbour's label and the features on each side.

    ``water`` means a fully blue side (MK-ORD-6), ``coast`` a partly blue one; ``mountain`` and
    ``forest`` slow armies at Reform (MK-REFORM-1).
    """

    neighbour: str
    this_side: frozenset[str] = frozenset()
    other_side: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        if not self.this_side and not self.other_side:
            return  # most edges show nothing: nothing to check
        unknown = (self.this_side | self.other_side) - EDGE_FEATURES
        if unknown:
            raise ValueError(f"Unknown edge feature(s): {', '.join(sorted(unknown))}.")

    @property
    def features(self) -> frozenset[str]:
        """Features on either side of the edge."""
        return self.this_side | self.other_side


@dataclass(frozen=True)
class TileState:
    """One map tile as the rules see it (MK-GLOSS-1/2, section 15 of the digest).

    ``controller`` is a kingdom id or None; ``settlement`` is "", "village", "city" or "fortress"
    (a Capital City is a city: ``Kingdom.capital_tile`` says whose). ``edges`` lists every
    neighbour, including labels that are off the map.
    """

    label: str
    terrain: str = "plain"
    settlement: str = EMPTY
    controller: KingdomId | None = None
    explored: bool = False
    is_start: bool = False
    has_river: bool = False
    is_coastal: bool = False
    is_open_water: bool = False
    is_marsh: bool = False
    has_forest: bool = False
    has_mountains: bool = False
    wizard_tower: bool = False
    raze_pending: bool = False
    edges: tuple[EdgeView, ...] = ()

    def __post_init__(self) -> None:
        if self.settlement not in SETTLEMENTS:
            raise ValueError(f"Unknown settlement {self.settlement!r} on {self.label}.")

    @property
    def neighbours(self) -> tuple[str, ...]:
        """Labels of the adjacent tiles, as given by the map data."""
        return tuple(edge.neighbour for edge in self.edges)

    def edge_to(self, label: str) -> EdgeView | None:
        """The shared edge with ``label``, or None if the tiles are not adjacent."""
        for edge in self.edges:
            if edge.neighbour == label:
                return edge
        return None


@dataclass(frozen=True)
class MapView:
    """The tiles of a campaign map, looked up by label (MK-GEN-3: any hex map will do)."""

    tiles: tuple[TileState, ...]
    _by_label: Mapping[str, TileState] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_label", {tile.label: tile for tile in self.tiles})

    def get(self, label: str) -> TileState | None:
        """The tile, or None if ``label`` is off the map."""
        return self._by_label.get(label)

    def tile(self, label: str) -> TileState:
        """The tile; an unknown label is a RuleViolation."""
        tile = self._by_label.get(label)
        if tile is None:
            raise RuleViolation(f"There is no tile {label} on this map.")
        return tile

    def __contains__(self, label: object) -> bool:
        return label in self._by_label

    def controlled_by(self, kingdom: KingdomId) -> tuple[TileState, ...]:
        """MK-GLOSS-3: the kingdom's tiles, in label order."""
        return tuple(sorted((t for t in self.tiles if t.controller == kingdom), key=_label_key))

    def with_tile(self, label: str, **changes: Any) -> MapView:
        """A copy with one tile changed."""
        self.tile(label)
        return MapView(
            tuple(replace(t, **changes) if t.label == label else t for t in self.tiles)
        )


def _label_key(tile: TileState) -> str:
    return tile.label


@dataclass(frozen=True)
class Kingdom:
    """A player's kingdom; ``capital_tile`` is the current capital (MK-AMB-8), None if none."""

    id: KingdomId
    name: str
    start_tile: str
    capital_tile: str | None


@dataclass(frozen=True)
class Army:
    """An army token (MK-GEN-1). ``number`` is unique within the kingdom; ``points`` is the Simple
    roster value (MK-SETUP-6). A paired army stands on its ship's tile (MK-SHIP-2)."""

    id: TokenId | None
    kingdom: KingdomId
    number: int
    tile: str
    on_side: bool = False
    defending: bool = False
    paired_ship: TokenId | None = None
    points: int = STARTING_ARMY_POINTS
    is_allied: bool = False


@dataclass(frozen=True)
class Ship:
    """A ship token, a small fleet (MK-SHIP-5)."""

    id: TokenId | None
    kingdom: KingdomId
    number: int
    tile: str
    on_side: bool = False
    paired_army: TokenId | None = None


@dataclass(frozen=True)
class Mover:
    """What takes one order (MK-ORD-1, MK-SHIP-1/2): an unpaired army, a lone ship or a pair."""

    kind: str
    kingdom: KingdomId
    tile: str
    army: Army | None = None
    ship: Ship | None = None

    @classmethod
    def of_army(cls, army: Army) -> Mover:
        """An unpaired army."""
        return cls(ARMY, army.kingdom, army.tile, army=army)

    @classmethod
    def of_ship(cls, ship: Ship, army: Army | None = None) -> Mover:
        """A lone ship, or the pair of ``ship`` and the army it carries."""
        return cls(PAIR if army else SHIP, ship.kingdom, ship.tile, army=army, ship=ship)

    @property
    def key(self) -> str:
        """A stable key for orders: "army:<id>", "ship:<id>" or "pair:<ship id>"."""
        if self.kind == ARMY:
            assert self.army is not None
            return f"army:{self.army.id}"
        assert self.ship is not None
        return f"{self.kind}:{self.ship.id}"

    @property
    def on_side(self) -> bool:
        """MK-AMB-15 (b): a pair lies on its side if its army (or its ship) does."""
        return any(token.on_side for token in (self.army, self.ship) if token is not None)

    @property
    def name(self) -> str:
        """How players call the token, e.g. "ship #2 carrying army #3"."""
        if self.kind == ARMY:
            assert self.army is not None
            return f"army #{self.army.number}"
        assert self.ship is not None
        if self.kind == SHIP:
            return f"ship #{self.ship.number}"
        assert self.army is not None
        return f"ship #{self.ship.number} carrying army #{self.army.number}"


def movers(armies: Iterable[Army], ships: Iterable[Ship]) -> tuple[Mover, ...]:
    """MK-SHIP-1/2: the tokens that take orders, with each pair as one token."""
    ship_list = list(ships)
    army_list = list(armies)
    ships_by_id = {ship.id: ship for ship in ship_list}
    armies_by_id = {army.id: army for army in army_list}
    result: list[Mover] = []
    for army in army_list:
        if army.paired_ship is None:
            result.append(Mover.of_army(army))
            continue
        ship = ships_by_id.get(army.paired_ship)
        if ship is None or ship.paired_army != army.id or ship.tile != army.tile:
            raise RuleViolation(
                f"Army #{army.number} is listed aboard a ship that does not carry it (MK-SHIP-2)."
            )
    for ship in ship_list:
        if ship.paired_army is None:
            result.append(Mover.of_ship(ship))
            continue
        army = armies_by_id.get(ship.paired_army)
        if army is None or army.paired_ship != ship.id or army.kingdom != ship.kingdom:
            raise RuleViolation(
                f"Ship #{ship.number} is listed carrying an army that is not aboard (MK-SHIP-2)."
            )
        result.append(Mover.of_ship(ship, army))
    return tuple(result)


def current_capital(kingdom: Kingdom, tiles: MapView) -> str | None:
    """MK-GLOSS-8, MK-AMB-8, MK-AMB-36: the kingdom's capital tile if it holds it now as a city."""
    if kingdom.capital_tile is None:
        return None
    tile = tiles.get(kingdom.capital_tile)
    if tile is None or tile.controller != kingdom.id or tile.settlement != CITY:
        return None
    return tile.label


def capital_tile_after(kingdom: Kingdom, tiles: MapView) -> str | None:
    """MK-AMB-8: the capital pointer to store after a change on the map.

    A capital that is merely held by an enemy stays the kingdom's capital (it counts again as soon
    as the founder retakes it, unless a replacement was made). A razed capital is gone.
    """
    if kingdom.capital_tile is None:
        return None
    tile = tiles.get(kingdom.capital_tile)
    if tile is None or tile.settlement != CITY:
        return None
    return kingdom.capital_tile


# --- turn cycles (MK-ORD-1/3, MK-RES-1, MK-SETUP-3..5, MK-DEPLOY-4) ----------------------------


def cycle_turn(
    player_order: Sequence[KingdomId],
    last_actor: KingdomId | None,
    pending: Collection[KingdomId],
) -> KingdomId | None:
    """MK-ORD-1/3, MK-RES-1, MK-DEPLOY-4/5: whose turn it is in a cycle that skips finished players.

    Play goes round ``player_order``; the player after ``last_actor`` who still has something
    ``pending`` acts next (the first such player when nobody has acted). None: the cycle is over.
    """
    waiting = set(pending)
    unknown = waiting - set(player_order)
    if unknown:
        raise RuleViolation("Every kingdom with tokens must have a place in the player order.")
    if not waiting:
        return None
    start = 0 if last_actor is None else list(player_order).index(last_actor) + 1
    count = len(player_order)
    for step in range(count):
        candidate = player_order[(start + step) % count]
        if candidate in waiting:
            return candidate
    return None


def order_turn(
    player_order: Sequence[KingdomId],
    last_actor: KingdomId | None,
    unordered: Mapping[KingdomId, int],
) -> KingdomId | None:
    """MK-ORD-1/3: who gives the next order; players without unordered tokens are skipped."""
    return cycle_turn(player_order, last_actor, [k for k, n in unordered.items() if n > 0])


def resolution_turn(
    player_order: Sequence[KingdomId],
    last_actor: KingdomId | None,
    unresolved: Mapping[KingdomId, int],
) -> KingdomId | None:
    """MK-RES-1: who resolves the next order; players with nothing left are skipped."""
    return cycle_turn(player_order, last_actor, [k for k, n in unresolved.items() if n > 0])


def setup_turn(player_order: Sequence[KingdomId], done: Collection[KingdomId]) -> KingdomId | None:
    """MK-SETUP-3/4/5: the first player in order who has not taken this setup step yet."""
    for kingdom in player_order:
        if kingdom not in done:
            return kingdom
    return None


# --- setup (MK-SETUP, MK-AMB-34) ---------------------------------------------------------------


def races_revealed(
    kingdom_ids: Collection[KingdomId], choices: Mapping[KingdomId, str | None]
) -> bool:
    """MK-SETUP-1: races are revealed together once every kingdom has chosen one."""
    return all(choices.get(kingdom) for kingdom in kingdom_ids)


def visible_races(
    kingdom_ids: Sequence[KingdomId],
    choices: Mapping[KingdomId, str | None],
    viewer: KingdomId | None,
) -> dict[KingdomId, str | None]:
    """MK-SETUP-1: the races a viewer may see: their own, and everyone's after the reveal."""
    revealed = races_revealed(kingdom_ids, choices)
    return {
        kingdom: choices.get(kingdom) if revealed or kingdom == viewer else None
        for kingdom in kingdom_ids
    }


def _roll_key(roll: int | Sequence[int]) -> tuple[int, ...]:
    return (roll,) if isinstance(roll, int) else tuple(roll)


def initial_order(
    kingdom_ids: Sequence[KingdomId], rolls: Sequence[int | Sequence[int]]
) -> tuple[KingdomId, ...]:
    """MK-SETUP-2: the first player order, highest roll first.

    ``rolls[i]`` belongs to ``kingdom_ids[i]``; a roll may be a tuple (a first roll followed by
    re-rolls) so that ties can be settled. Equal rolls are refused: roll again for those players.
    """
    if len(rolls) != len(kingdom_ids):
        raise RuleViolation(
            "Every player needs exactly one roll for the player order (MK-SETUP-2)."
        )
    keys = [_roll_key(roll) for roll in rolls]
    _refuse_ties(kingdom_ids, keys, "MK-SETUP-2")
    ranked = sorted(range(len(kingdom_ids)), key=lambda i: keys[i], reverse=True)
    return tuple(kingdom_ids[i] for i in ranked)


def entered_order(
    kingdom_ids: Collection[KingdomId],
    entered: Sequence[KingdomId],
    names: Mapping[KingdomId, str] | None = None,
) -> tuple[KingdomId, ...]:
    """MK-SETUP-2: the first player order as the group settled it and the GM typed it in (an
    alternative to rolling): every kingdom exactly once, first player first."""
    name = _namer(names)
    seen: set[KingdomId] = set()
    for kingdom in entered:
        if kingdom not in kingdom_ids:
            raise RuleViolation(f"{name(kingdom)} is not a kingdom of this campaign.")
        if kingdom in seen:
            raise RuleViolation(
                f"{name(kingdom)} is listed twice: each kingdom takes one place in the player "
                "order (MK-SETUP-2)."
            )
        seen.add(kingdom)
    missing = [name(k) for k in kingdom_ids if k not in seen]
    if missing:
        raise RuleViolation(
            f"Give {_listing(sorted(missing))} a place in the player order too (MK-SETUP-2)."
        )
    return tuple(entered)


def _namer(names: Mapping[KingdomId, str] | None) -> Callable[[KingdomId], str]:
    return lambda kingdom: (names or {}).get(kingdom, str(kingdom))


def _listing(items: Sequence[str]) -> str:
    """"Red", "Red and Blue", "Red, Blue and Green"."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def _refuse_ties(
    kingdom_ids: Sequence[KingdomId], keys: Sequence[tuple[int, ...]], rule_id: str
) -> None:
    seen: dict[tuple[int, ...], KingdomId] = {}
    for kingdom, key in zip(kingdom_ids, keys):
        if key in seen:
            raise RuleViolation(
                f"{seen[key]} and {kingdom} rolled the same: roll again for them ({rule_id})."
            )
        seen[key] = kingdom


def legal_start_tiles(tiles: MapView) -> tuple[str, ...]:
    """MK-SETUP-3, MK-AMB-34: start tiles (white circles) nobody has taken or claimed yet."""
    return tuple(
        t.label
        for t in sorted(tiles.tiles, key=_label_key)
        if t.is_start and t.controller is None and not t.is_open_water and not t.settlement
    )


def validate_start_tile(tiles: MapView, label: str) -> None:
    """MK-SETUP-3: a capital goes on a free start tile."""
    tile = tiles.tile(label)
    if not tile.is_start:
        raise RuleViolation(
            f"{label} has no white circle: a capital starts on a start tile (MK-SETUP-3)."
        )
    if tile.controller is not None or tile.settlement:
        raise RuleViolation(f"{label} is already taken: pick another start tile (MK-SETUP-3).")


def _setup_block_reason(
    tiles: MapView, start: TileState, label: str, kingdom: KingdomId
) -> str | None:
    if start.edge_to(label) is None:
        return f"{label} does not touch your capital at {start.label} (MK-SETUP-4)."
    tile = tiles.get(label)
    if tile is None:
        return f"{label} is off the map: it cannot take a settlement or marker (MK-AMB-34)."
    if tile.is_open_water:
        return (
            f"{label} is open water: it cannot take a settlement or marker "
            "(MK-AMB-34, MK-RES-2)."
        )
    if tile.controller is not None and tile.controller != kingdom:
        return f"{label} already belongs to another kingdom and stays theirs (MK-AMB-34)."
    if tile.wizard_tower:
        return f"{label} is a Wizard's Tower: no kingdom can own it (MK-WIZ-4)."
    return None


def legal_setup_tiles(tiles: MapView, start_tile: str, kingdom: KingdomId) -> tuple[str, ...]:
    """MK-SETUP-4, MK-AMB-34: the capital's neighbours that can take a settlement or marker.

    Open water, off-map and tiles already claimed by an earlier player are left out; marsh is
    allowed (the digest only excludes open water and off-map tiles).
    """
    start = tiles.tile(start_tile)
    return tuple(
        sorted(
            label
            for label in start.neighbours
            if _setup_block_reason(tiles, start, label, kingdom) is None
        )
    )


def setup_warnings(tiles: MapView, start_tile: str) -> tuple[str, ...]:
    """MK-AMB-34: awkward neighbours of a start tile, for the GM to see before play."""
    start = tiles.tile(start_tile)
    warnings = []
    for label in start.neighbours:
        tile = tiles.get(label)
        if tile is None:
            warnings.append(f"{label} is off the map (MK-AMB-34).")
        elif tile.is_open_water:
            warnings.append(f"{label} is open water (MK-AMB-34).")
        elif tile.controller is not None:
            warnings.append(f"{label} is already claimed (MK-AMB-34).")
        elif tile.is_start:
            warnings.append(f"{label} is another start tile (MK-AMB-34).")
        elif tile.is_marsh:
            warnings.append(f"{label} is a marsh: armies cannot enter it (MK-AMB-34, MK-ORD-6).")
    return tuple(warnings)


@dataclass(frozen=True)
class SetupPlacement:
    """MK-SETUP-4: one player's placement around the capital."""

    city: str | None
    fortress: str | None
    villages: tuple[str, ...] = ()
    markers: tuple[str, ...] = ()

    def assignments(self) -> tuple[tuple[str, str], ...]:
        """(label, settlement) pairs, "" for a control marker, in label order."""
        pairs = [(label, VILLAGE) for label in self.villages]
        pairs += [(label, EMPTY) for label in self.markers]
        if self.city:
            pairs.append((self.city, CITY))
        if self.fortress:
            pairs.append((self.fortress, FORTRESS))
        return tuple(sorted(pairs))


def validate_setup_placement(
    tiles: MapView, start_tile: str, kingdom: KingdomId, placement: SetupPlacement
) -> None:
    """MK-SETUP-4, MK-AMB-34: 1 city, 1 fortress, 2 villages and 2 control markers on the six
    tiles touching the capital, one thing per tile, every usable neighbour used.

    On an awkward map (fewer than six usable neighbours) the settlements come first: as many of
    the four as fit, then markers on what is left.
    """
    start = tiles.tile(start_tile)
    if start.controller != kingdom or start.settlement != CITY:
        raise RuleViolation(
            f"{start_tile} is not your capital: pick a start tile first (MK-SETUP-3)."
        )
    labels = [label for label, _ in placement.assignments()]
    for label in labels:
        if labels.count(label) > 1:
            raise RuleViolation(
                f"{label} is used twice: each tile takes one settlement or marker (MK-SETUP-4)."
            )
        reason = _setup_block_reason(tiles, start, label, kingdom)
        if reason:
            raise RuleViolation(reason)
    if len(placement.villages) > 2 or len(placement.markers) > 2:
        raise RuleViolation("Place at most 2 villages and 2 control markers (MK-SETUP-4).")
    usable = legal_setup_tiles(tiles, start_tile, kingdom)
    missing = sorted(set(usable) - set(labels))
    if missing:
        raise RuleViolation(
            f"{missing[0]} belongs to your starting kingdom too: put a settlement or a control "
            "marker on it (MK-SETUP-4)."
        )
    settlements = len(placement.villages) + (placement.city is not None) + (
        placement.fortress is not None
    )
    if settlements < min(len(SETUP_SETTLEMENTS), len(usable)):
        raise RuleViolation(
            "Place 1 city, 1 fortress and 2 villages before any control marker (MK-SETUP-4)."
        )


def starting_kingdom_problems(tiles: MapView, kingdom: Kingdom) -> tuple[str, ...]:
    """MK-SETUP-4 check: the kingdom is its capital plus the usable neighbours, holding 1 city,
    1 fortress, 2 villages and markers on the rest. Returns the problems (empty when all is
    well)."""
    problems: list[str] = []
    start = tiles.tile(kingdom.start_tile)
    if start.controller != kingdom.id or start.settlement != CITY:
        problems.append(f"The capital at {start.label} is missing (MK-SETUP-3).")
    if kingdom.capital_tile != kingdom.start_tile:
        problems.append(f"The capital should be the start tile {start.label} (MK-SETUP-3).")
    usable = set(legal_setup_tiles(tiles, kingdom.start_tile, kingdom.id))
    owned = {t.label for t in tiles.controlled_by(kingdom.id)} - {start.label}
    for label in sorted(owned - usable):
        problems.append(f"{label} does not touch the capital (MK-SETUP-4).")
    for label in sorted(usable - owned):
        problems.append(f"{label} touches the capital but is not yours (MK-SETUP-4).")
    counts = {s: 0 for s in SETTLEMENTS}
    for label in owned:
        counts[tiles.tile(label).settlement] += 1
    expected_settlements = min(len(SETUP_SETTLEMENTS), len(usable))
    expected = {CITY: 1, FORTRESS: 1, VILLAGE: 2} if expected_settlements == 4 else None
    if expected is not None:
        for settlement, number in expected.items():
            if counts[settlement] != number:
                problems.append(
                    f"Expected {number} {settlement} beside the capital, found "
                    f"{counts[settlement]} "
                    "(MK-SETUP-4)."
                )
    elif counts[VILLAGE] + counts[CITY] + counts[FORTRESS] != expected_settlements:
        problems.append(
            f"Expected {expected_settlements} settlements beside the capital (MK-AMB-34)."
        )
    return tuple(problems)


def legal_starting_army_tiles(tiles: MapView, kingdom: KingdomId) -> tuple[str, ...]:
    """MK-SETUP-5: the starting army goes on a tile of the kingdom that holds a settlement."""
    return tuple(t.label for t in tiles.controlled_by(kingdom) if t.settlement)


def validate_starting_army(tiles: MapView, kingdom: KingdomId, label: str) -> None:
    """MK-SETUP-5: refuse a starting army placement off the kingdom's settlements."""
    tile = tiles.tile(label)
    if tile.controller != kingdom:
        raise RuleViolation(
            f"{label} is not yours: place your army in your own kingdom (MK-SETUP-5)."
        )
    if not tile.settlement:
        raise RuleViolation(
            f"{label} has no settlement: the starting army goes on one of your settlements "
            "(MK-SETUP-5)."
        )


# --- orders (MK-ORD, MK-SHIP) ------------------------------------------------------------------


@dataclass(frozen=True)
class Order:
    """MK-ORD-4: an order given to a token (``token`` is ``Mover.key``); ``target`` for Move."""

    token: str
    kind: str
    target: str | None = None


def _move_block_reason(mover: Mover, dest: str, tiles: MapView, options: MKOptions) -> str | None:
    origin = tiles.tile(mover.tile)
    edge = origin.edge_to(dest)
    if edge is None:
        return f"{dest} is not next to {origin.label}: a Move goes to an adjacent tile (MK-ORD-5)."
    target = tiles.get(dest)
    if target is None:
        return f"{dest} is off the map (MK-ORD-5)."
    if target.wizard_tower:
        return f"{dest} is a Wizard's Tower: no army may ever enter it (MK-WIZ-3)."
    if mover.kind == ARMY:
        if WATER in edge.features:
            return (
                f"The edge between {origin.label} and {dest} is all water: an army needs a ship "
                "to cross it (MK-ORD-6)."
            )
        if target.is_open_water:
            return f"{dest} is open water: an army needs a ship to go there (MK-ORD-6, MK-SHIP-2)."
        if target.is_marsh:
            return f"{dest} is a marsh: armies cannot enter marsh tiles (MK-ORD-6)."
        return None
    if target.is_marsh:
        return f"{dest} is a marsh: ships cannot enter marsh tiles (MK-SHIP-4)."
    if not (target.is_coastal or target.is_open_water or target.has_river):
        return (
            f"{dest} is not coastal, open ocean or a river tile: ships cannot go there "
            "(MK-SHIP-4)."
        )
    waterway = bool(edge.this_side & _WATERWAY and edge.other_side & _WATERWAY)
    if options.strict_waterways and not waterway:
        return (
            f"No waterway runs across the edge between {origin.label} and {dest} "
            "(MK-AMB-39, house rule)."
        )
    return None


def legal_move_destinations(
    mover: Mover, tiles: MapView, options: MKOptions = DEFAULT_OPTIONS
) -> tuple[str, ...]:
    """MK-ORD-5/6, MK-SHIP-4, MK-WIZ-3, MK-AMB-39: the adjacent tiles the token may move into.

    Armies: not across a fully water edge, not into open water, marsh or a Wizard's Tower. Ships
    and pairs: coastal, open-ocean or river tiles, never marsh (nor a tower).
    """
    if mover.on_side:
        return ()
    origin = tiles.tile(mover.tile)
    return tuple(
        sorted(
            label
            for label in origin.neighbours
            if _move_block_reason(mover, label, tiles, options) is None
        )
    )


def legal_orders(
    mover: Mover, tiles: MapView, options: MKOptions = DEFAULT_OPTIONS
) -> tuple[str, ...]:
    """MK-ORD-4..9 and the legality matrix (5.3), MK-AMB-15: the orders this token may take.

    On its side: Regroup only. Upright army: Move (if any destination), Defend, Raze on a
    settlement. Upright ship or pair: Move, Raze on a settlement; never Defend.
    """
    if mover.on_side:
        return (REGROUP,)
    result = []
    if legal_move_destinations(mover, tiles, options):
        result.append(MOVE)
    if mover.kind == ARMY:
        result.append(DEFEND)
    if tiles.tile(mover.tile).settlement:
        result.append(RAZE)
    return tuple(result)


def validate_order(
    mover: Mover,
    kind: str,
    target: str | None,
    tiles: MapView,
    options: MKOptions = DEFAULT_OPTIONS,
) -> Order:
    """MK-ORD-4..9, MK-SHIP-4: check an order for a token and return it; illegal ones raise."""
    if kind not in ORDER_KINDS:
        raise RuleViolation(f"{kind!r} is not an order: Move, Defend, Raze or Regroup (MK-ORD-4).")
    name = mover.name.capitalize()
    if mover.on_side and kind != REGROUP:
        raise RuleViolation(f"{name} lies on its side: it can only Regroup (MK-ORD-4).")
    if kind == REGROUP and not mover.on_side:
        raise RuleViolation(
            f"{name} is upright: Regroup is only for a token lying on its side (MK-ORD-9)."
        )
    if kind != MOVE and target is not None:
        raise RuleViolation("Only a Move order names a destination (MK-ORD-5).")
    if kind == DEFEND and mover.kind != ARMY:
        raise RuleViolation("Ships and ship/army pairs cannot Defend (MK-ORD-7).")
    if kind == RAZE and not tiles.tile(mover.tile).settlement:
        raise RuleViolation(f"There is no settlement on {mover.tile} to raze (MK-ORD-8).")
    if kind == MOVE:
        if target is None:
            raise RuleViolation("Choose the adjacent tile to move into (MK-ORD-5).")
        reason = _move_block_reason(mover, target, tiles, options)
        if reason:
            raise RuleViolation(reason)
    return Order(mover.key, kind, target)


def tokens_needing_orders(
    all_movers: Iterable[Mover], ordered: Collection[str]
) -> tuple[Mover, ...]:
    """MK-ORD-1/3: tokens without an order yet (their owners may not pass)."""
    return tuple(m for m in all_movers if m.key not in ordered)


def _require_orders_phase(clock: Clock, rule_id: str) -> None:
    if clock.season != SUMMER or clock.phase != "A":
        raise RuleViolation(f"Ships are boarded and left only in the Orders phase ({rule_id}).")


def pair_tokens(
    army: Army, ship: Ship, clock: Clock, ordered: Collection[str] = ()
) -> tuple[Army, Ship]:
    """MK-SHIP-2: an army boards a ship on its tile, before either has an order this month.

    A ship carries at most one army. Returns both tokens, now paired.
    """
    _require_orders_phase(clock, "MK-SHIP-2")
    if army.kingdom != ship.kingdom:
        raise RuleViolation("An army can only board a ship of its own kingdom (MK-SHIP-2).")
    if army.tile != ship.tile:
        raise RuleViolation(
            f"Army #{army.number} is on {army.tile} and ship #{ship.number} on {ship.tile}: "
            "they must share a tile to pair (MK-SHIP-2)."
        )
    if ship.paired_army is not None:
        raise RuleViolation(
            f"Ship #{ship.number} already carries an army: one per ship (MK-SHIP-2)."
        )
    if army.paired_ship is not None:
        raise RuleViolation(f"Army #{army.number} is already aboard a ship (MK-SHIP-2).")
    if Mover.of_army(army).key in ordered or Mover.of_ship(ship).key in ordered:
        raise RuleViolation("A token that already has an order this month cannot pair (MK-ORD-2).")
    return replace(army, paired_ship=ship.id), replace(ship, paired_army=army.id)


def can_split(pair: Mover, tiles: MapView) -> bool:
    """MK-SHIP-3: a pair may split, except on open ocean."""
    return pair.kind == PAIR and not tiles.tile(pair.tile).is_open_water


def unpair_tokens(
    army: Army, ship: Ship, tiles: MapView, clock: Clock, ordered: Collection[str] = ()
) -> tuple[Army, Ship]:
    """MK-SHIP-3, MK-AMB-15: split a pair at the start of the Orders phase, never on open ocean.

    "Start of the phase" is read as: before the pair has been given its order this month.
    """
    _require_orders_phase(clock, "MK-SHIP-3")
    if army.paired_ship != ship.id or ship.paired_army != army.id:
        raise RuleViolation(f"Army #{army.number} is not aboard ship #{ship.number} (MK-SHIP-2).")
    pair = Mover.of_ship(ship, army)
    if pair.key in ordered:
        raise RuleViolation("This pair already has its order this month (MK-SHIP-3, MK-ORD-2).")
    if not can_split(pair, tiles):
        raise RuleViolation(
            f"{ship.tile} is open ocean: the army cannot leave its ship here (MK-SHIP-3)."
        )
    return replace(army, paired_ship=None), replace(ship, paired_army=None)


# --- resolution and exploration (MK-RES, MK-EXP, MK-WIZ) ---------------------------------------


def _check_die(value: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
        raise RuleViolation(f"A die shows 1 to 6, not {value!r}.")


def exploration_needs_reroll(d1: int, d2: int, wizard_towers: bool) -> bool:
    """MK-EXP-3, MK-WIZ-1: with towers on, a double calls for a second 2D6 roll."""
    return wizard_towers and d1 == d2


def exploration_result(
    d1: int, d2: int, reroll: tuple[int, int] | None = None, wizard_towers: bool = False
) -> str:
    """MK-EXP-1, MK-WIZ-1: the exploration result of a 2D6 roll (TV-MK-5).

    2-7 empty, 8-9 village, 10 city, 11-12 fortress. With the Wizard's tower module on, a double
    needs ``reroll``; a double on the reroll makes a Wizard's Tower instead. A reroll that is not
    needed is ignored.
    """
    _check_die(d1)
    _check_die(d2)
    total = d1 + d2
    base = next(result for low, high, result in EXPLORATION_TABLE if low <= total <= high)
    if not exploration_needs_reroll(d1, d2, wizard_towers):
        return base
    if reroll is None:
        raise RuleViolation(
            f"{d1}+{d2} is a double: roll 2D6 again to see if a Wizard's Tower appears (MK-WIZ-1)."
        )
    _check_die(reroll[0])
    _check_die(reroll[1])
    return EXPLORE_TOWER if reroll[0] == reroll[1] else base


@dataclass(frozen=True)
class ControlChange:
    """A tile changing hands, or staying (MK-RES-4/5, MK-REFORM-4): ``old`` and ``new``
    controller and the rule that decided it."""

    tile: str
    old: KingdomId | None
    new: KingdomId | None
    rule_id: str

    @property
    def changed(self) -> bool:
        """Whether the controller differs afterwards."""
        return self.old != self.new


@dataclass(frozen=True)
class Resolution:
    """What resolving one order does, as data for the services to write (MK-RES-4..8).

    ``tile`` is where the token stands afterwards; ``moved`` says whether it changed tile by its
    Move (for MK-REFORM-1). ``explored``/``exploration``/``settlement`` describe a tile explored by
    this order; ``control`` the resulting control of the target tile (None: not affected).
    ``raze`` is "razed" or "failed" for a Raze.
    """

    token: str
    kingdom: KingdomId
    kind: str
    rule_id: str
    tile: str
    summary: str
    moved: bool = False
    pushed_back: bool = False
    explored: str | None = None
    exploration: str | None = None
    settlement: str | None = None
    wizard_tower: bool = False
    control: ControlChange | None = None
    raze: str | None = None
    defend: bool = False
    stood_up: bool = False


def _enemy_armies_on(label: str, kingdom: KingdomId, armies: Iterable[Army]) -> bool:
    return any(a.tile == label and a.kingdom != kingdom for a in armies)


def _enemy_ships_on(label: str, kingdom: KingdomId, ships: Iterable[Ship]) -> bool:
    return any(s.tile == label and s.kingdom != kingdom for s in ships)


def resolve_order(
    order: Order,
    mover: Mover,
    tiles: MapView,
    armies: Sequence[Army],
    ships: Sequence[Ship],
    options: MKOptions = DEFAULT_OPTIONS,
    dice: tuple[int, int] | None = None,
    reroll: tuple[int, int] | None = None,
) -> Resolution:
    """MK-RES-2..9, MK-EXP-1..3, MK-WIZ-1..4, MK-AMB-7/9/10/25/42: resolve one order.

    The row used is the one that fits the target tile now (MK-RES-3). ``armies`` and ``ships``
    are the tokens on the map as they stand now, at least those on the token's tile and its
    target (a token with an unresolved Move still stands in its start tile, MK-ORD-5).
    ``dice`` is the exploration 2D6 (needed only when exploring land), ``reroll`` the second
    roll after a double with the tower module on.
    """
    if order.token != mover.key:
        raise RuleViolation("This order belongs to another token.")
    kingdom = mover.kingdom
    here = tiles.tile(mover.tile)
    if mover.on_side and order.kind != REGROUP:
        raise RuleViolation(
            f"{mover.name.capitalize()} lies on its side: it can only Regroup (MK-ORD-4)."
        )

    if order.kind == REGROUP:
        if not mover.on_side:
            raise RuleViolation(f"{mover.name.capitalize()} is already upright (MK-ORD-9).")
        return Resolution(
            mover.key, kingdom, REGROUP, "MK-RES-6", here.label,
            f"{mover.name.capitalize()} stands up again on {here.label}.", stood_up=True,
        )

    if order.kind == DEFEND:
        if mover.kind != ARMY:
            raise RuleViolation("Ships and ship/army pairs cannot Defend (MK-ORD-7).")
        return Resolution(
            mover.key, kingdom, DEFEND, "MK-RES-8", here.label,
            f"{mover.name.capitalize()} digs in to defend {here.label} until the end of Reform "
            "(MK-AMB-7).",
            defend=True,
        )

    if order.kind == RAZE:
        if not here.settlement:
            return Resolution(
                mover.key, kingdom, RAZE, "MK-RES-7", here.label,
                f"Nothing is left to raze on {here.label}.", raze="failed",
            )
        if _enemy_armies_on(here.label, kingdom, armies) or _enemy_ships_on(
            here.label, kingdom, ships
        ):
            return Resolution(
                mover.key, kingdom, RAZE, "MK-RES-7", here.label,
                f"Enemy tokens on {here.label} stop the burning: the {here.settlement} stands "
                "until Reform turns it back up (MK-REFORM-3).",
                raze="failed",
            )
        return Resolution(
            mover.key, kingdom, RAZE, "MK-RES-7", here.label,
            f"The {here.settlement} on {here.label} is burnt to the ground; control does not "
            "change.",
            raze="razed",
        )

    if order.kind != MOVE or order.target is None:
        raise RuleViolation(f"{order.kind!r} is not an order (MK-ORD-4).")
    dest = tiles.tile(order.target)
    if here.edge_to(dest.label) is None:
        raise RuleViolation(f"{dest.label} is not next to {here.label} (MK-ORD-5).")

    if dest.wizard_tower:
        return Resolution(
            mover.key, kingdom, MOVE, "MK-WIZ-2", here.label,
            f"{dest.label} is a Wizard's Tower: {mover.name} is turned back to {here.label}.",
            pushed_back=True,
        )

    if dest.is_open_water:
        rule = "MK-AMB-25" if not dest.explored else "MK-RES-2"
        return Resolution(
            mover.key, kingdom, MOVE, rule, dest.label,
            f"{mover.name.capitalize()} sails into open water at {dest.label}; nobody controls it.",
            moved=True, explored=None if dest.explored else dest.label,
        )

    if not dest.explored:
        if dice is None:
            raise RuleViolation(f"Roll 2D6 to explore {dest.label} (MK-EXP-1).")
        result = exploration_result(dice[0], dice[1], reroll, options.module_wizard_towers)
        if result == EXPLORE_TOWER:
            return Resolution(
                mover.key, kingdom, MOVE, "MK-WIZ-1", here.label,
                f"A Wizard's Tower rises on {dest.label}: nobody owns it and {mover.name} is "
                f"pushed back to {here.label} (MK-WIZ-2, MK-WIZ-4).",
                pushed_back=True, explored=dest.label, exploration=result, wizard_tower=True,
            )
        settlement = EXPLORATION_SETTLEMENT[result]
        found = f"a {settlement}" if settlement else "empty land"
        return Resolution(
            mover.key, kingdom, MOVE, "MK-RES-4", dest.label,
            f"{mover.name.capitalize()} explores {dest.label} and finds {found}; the tile joins "
            "the kingdom.",
            moved=True, explored=dest.label, exploration=result, settlement=settlement,
            control=ControlChange(dest.label, None, kingdom, "MK-EXP-2"),
        )

    # MK-RES-5: an explored tile, whoever controls it.
    if mover.kind == SHIP and not options.lone_ship_takes_control:
        control = ControlChange(dest.label, dest.controller, dest.controller, "MK-AMB-9")
        note = "a ship alone does not take control (MK-AMB-9)"
    elif _enemy_armies_on(dest.label, kingdom, armies):
        control = ControlChange(dest.label, dest.controller, dest.controller, "MK-RES-5")
        note = "enemy armies hold it, so control does not change and a battle will follow"
    elif options.enemy_ship_blocks_control and _enemy_ships_on(dest.label, kingdom, ships):
        control = ControlChange(dest.label, dest.controller, dest.controller, "MK-AMB-10")
        note = "enemy ships hold it, so control does not change (MK-AMB-10, house rule)"
    else:
        control = ControlChange(dest.label, dest.controller, kingdom, "MK-RES-5")
        note = ("control of the tile passes to its kingdom (MK-RES-5)" if control.changed
                else "the tile is already its kingdom's")
    return Resolution(
        mover.key, kingdom, MOVE, "MK-RES-5", dest.label,
        f"{mover.name.capitalize()} moves into {dest.label}; {note}.",
        moved=True, control=control,
    )


# --- reform (MK-REFORM-1..4) and player order (MK-PORDER) --------------------------------------


@dataclass(frozen=True)
class MoveRecord:
    """A token's Move this month, from ``origin`` into ``destination`` (MK-REFORM-1, MK-AMB-14)."""

    origin: str
    destination: str


@dataclass(frozen=True)
class TerrainCheck:
    """The Reform terrain verdict for one token (MK-REFORM-1/2), with the rule and a reason."""

    on_side: bool
    rule_id: str
    reason: str


def terrain_check(kind: str, move: MoveRecord | None, tiles: MapView) -> TerrainCheck:
    """MK-REFORM-1/2, MK-AMB-14/15/42: is a token laid on its side by the terrain it crossed?

    Only a Move order of this month counts (pushed-back, retreating and defending tokens pass
    ``move=None``). Mountains or forest on either side of the crossed edge lay armies and pairs on
    their side; moving into a river tile lays an army (not a pair) on its side; lone ships never.
    """
    if move is None:
        return TerrainCheck(False, "MK-AMB-14", "did not move by a Move order this month")
    if kind == SHIP:
        return TerrainCheck(False, "MK-AMB-15", "a lone ship is never slowed by terrain")
    origin = tiles.tile(move.origin)
    edge = origin.edge_to(move.destination)
    if edge is None:
        raise RuleViolation(f"{move.destination} is not next to {move.origin} (MK-REFORM-1).")
    slow = sorted(edge.features & {MOUNTAIN, FOREST})
    if slow:
        rule = "MK-REFORM-1" if kind == ARMY else "MK-AMB-15"
        return TerrainCheck(
            True, rule,
            f"crossed {' and '.join(slow)} between {move.origin} and {move.destination}",
        )
    if tiles.tile(move.destination).has_river:
        if kind == PAIR:
            return TerrainCheck(False, "MK-REFORM-2", "ships sail rivers freely")
        return TerrainCheck(True, "MK-REFORM-1", f"moved into the river tile {move.destination}")
    return TerrainCheck(False, "MK-REFORM-1", "no difficult terrain crossed")


def raze_flip_back(tiles: MapView) -> tuple[str, ...]:
    """MK-REFORM-3: settlements left upside down by a failed Raze are turned back up."""
    return tuple(t.label for t in sorted(tiles.tiles, key=_label_key) if t.raze_pending)


def reform_ownership(tiles: MapView, armies: Iterable[Army]) -> tuple[ControlChange, ...]:
    """MK-REFORM-4, MK-AMB-38/40: tiles where armies of one kingdom alone stand become theirs.

    Armies on their side and paired armies count; lone ships do not; open water and Wizard's
    Towers never change hands. Only actual changes are returned, in label order.
    """
    present: dict[str, set[KingdomId]] = {}
    for army in armies:
        present.setdefault(army.tile, set()).add(army.kingdom)
    changes = []
    for label in sorted(present):
        kingdoms = present[label]
        tile = tiles.tile(label)
        if len(kingdoms) != 1 or tile.is_open_water or tile.wizard_tower:
            continue
        (owner,) = kingdoms
        if tile.controller != owner:
            changes.append(ControlChange(label, tile.controller, owner, "MK-REFORM-4"))
    return tuple(changes)


def army_counts(kingdom_ids: Iterable[KingdomId], armies: Iterable[Army]) -> dict[KingdomId, int]:
    """MK-PORDER-2, MK-AMB-29: armies per kingdom (on-side and paired armies count, ships not)."""
    counts = {kingdom: 0 for kingdom in kingdom_ids}
    for army in armies:
        counts[army.kingdom] = counts.get(army.kingdom, 0) + 1
    return counts


def tied_groups(
    army_counts_by_kingdom: Mapping[KingdomId, int],
) -> tuple[tuple[KingdomId, ...], ...]:
    """MK-PORDER-1: the groups of kingdoms with equal army counts, which need tie-break rolls."""
    groups: dict[int, list[KingdomId]] = {}
    for kingdom, count in army_counts_by_kingdom.items():
        groups.setdefault(count, []).append(kingdom)
    return tuple(
        tuple(groups[count]) for count in sorted(groups, reverse=True) if len(groups[count]) > 1
    )


def check_tiebreak_rolls(
    army_counts_by_kingdom: Mapping[KingdomId, int],
    rolls: Mapping[KingdomId, Sequence[int]],
    names: Mapping[KingdomId, str] | None = None,
    rule_id: str = "MK-PORDER-1",
) -> dict[KingdomId, tuple[int, ...]]:
    """MK-PORDER-1, MK-DEPLOY-2: tie-break dice rolled at the table and typed in.

    A tied group with a die typed in for any of its kingdoms needs at least one D6 (1 to 6) for
    every one of them; kingdoms still level roll again, and their new die is entered after the
    first (e.g. 4 then 2). A group with no die typed in is left to the server's dice. Returns the
    typed rolls of the tied kingdoms (dice entered for kingdoms that are not tied do not count);
    refuses missing dice, dice outside 1..6 and a group still level.
    """
    name = _namer(names)
    used: dict[KingdomId, tuple[int, ...]] = {}
    for group in tied_groups(army_counts_by_kingdom):
        if not any(rolls.get(k) for k in group):
            continue
        count = army_counts_by_kingdom[group[0]]
        missing = [name(k) for k in group if not rolls.get(k)]
        if missing:
            raise RuleViolation(
                f"{_listing([name(k) for k in group])} have {count} "
                f"arm{'y' if count == 1 else 'ies'} each: enter a tie-break die for "
                f"{_listing(missing)} ({rule_id})."
            )
        for kingdom in group:
            values = tuple(rolls[kingdom])
            if any(not 1 <= value <= 6 for value in values):
                raise RuleViolation(
                    f"A tie-break die for {name(kingdom)} shows 1 to 6 ({rule_id})."
                )
            used[kingdom] = values
        _refuse_level(group, used, 0, name, rule_id)
    return used


def _refuse_level(group: Sequence[KingdomId], rolls: Mapping[KingdomId, tuple[int, ...]],
                  depth: int, name: Callable[[KingdomId], str], rule_id: str) -> None:
    """Kingdoms whose dice are equal up to ``depth`` each need one more die to tell them apart."""
    short = [k for k in group if len(rolls[k]) <= depth]
    if short:
        shown = "-".join(str(v) for v in rolls[group[0]][:depth])
        raise RuleViolation(
            f"{_listing([name(k) for k in group])} are still level ({shown}): they roll "
            f"again, and the new die goes after the first ({rule_id})."
        )
    buckets: dict[int, list[KingdomId]] = {}
    for kingdom in group:
        buckets.setdefault(rolls[kingdom][depth], []).append(kingdom)
    for bucket in buckets.values():
        if len(bucket) > 1:
            _refuse_level(bucket, rolls, depth + 1, name, rule_id)


def player_order(
    army_counts_by_kingdom: Mapping[KingdomId, int],
    tiebreak_rolls: Mapping[KingdomId, int | Sequence[int]] | None = None,
) -> tuple[KingdomId, ...]:
    """MK-PORDER-1/2, MK-DEPLOY-2: most armies first; ties broken by the stored random rolls.

    Every kingdom in a tied group needs a roll (higher goes first); equal rolls must be rerolled
    (pass a tuple: first roll, then rerolls). Kingdoms that are not tied need no roll.
    """
    rolls = dict(tiebreak_rolls or {})
    for group in tied_groups(army_counts_by_kingdom):
        missing = [kingdom for kingdom in group if kingdom not in rolls]
        if missing:
            raise RuleViolation(
                f"{', '.join(str(k) for k in group)} have the same number of armies: each needs a "
                "tie-break roll (MK-PORDER-1)."
            )
        _refuse_ties(group, [_roll_key(rolls[k]) for k in group], "MK-PORDER-1")
    kingdoms = list(army_counts_by_kingdom)
    return tuple(
        sorted(
            kingdoms,
            key=lambda k: (army_counts_by_kingdom[k], _roll_key(rolls.get(k, 0))),
            reverse=True,
        )
    )


# --- winter: recall and docking (MK-RECALL) ----------------------------------------------------


@dataclass(frozen=True)
class RecallPlan:
    """MK-RECALL-1..3: where a kingdom's armies go at Recall.

    ``kind`` is "capital", "city", "village" or "destroyed"; ``choices`` the tiles the owner may
    pick from (one for a capital, none when the armies are destroyed).
    """

    kind: str
    choices: tuple[str, ...]
    rule_id: str


def recall_destination(kingdom: Kingdom, tiles: MapView) -> RecallPlan:
    """MK-RECALL-1..3, MK-AMB-36: capital if held, else a city, else a village, else destroyed."""
    capital = current_capital(kingdom, tiles)
    if capital is not None:
        return RecallPlan(CAPITAL, (capital,), "MK-RECALL-1")
    owned = tiles.controlled_by(kingdom.id)
    cities = tuple(t.label for t in owned if t.settlement == CITY)
    if cities:
        return RecallPlan(CITY, cities, "MK-RECALL-2")
    villages = tuple(t.label for t in owned if t.settlement == VILLAGE)
    if villages:
        return RecallPlan(VILLAGE, villages, "MK-RECALL-2")
    return RecallPlan("destroyed", (), "MK-RECALL-3")


def validate_recall_choice(kingdom: Kingdom, tiles: MapView, label: str | None) -> None:
    """MK-RECALL-1..3: the whole army goes to one tile of the right class."""
    plan = recall_destination(kingdom, tiles)
    if plan.kind == "destroyed":
        if label is not None:
            raise RuleViolation(
                "You hold no capital, city or village: your armies cannot winter anywhere "
                "(MK-RECALL-3)."
            )
        return
    if label not in plan.choices:
        where = {
            CAPITAL: f"your capital at {plan.choices[0]}",
            CITY: "one of your cities",
            VILLAGE: "one of your villages",
        }[plan.kind]
        raise RuleViolation(f"Your armies must winter at {where} ({plan.rule_id}).")


def recall_army(army: Army, label: str) -> Army:
    """MK-RECALL-1/4: the army is picked up, leaves any ship, and is put on ``label``."""
    return replace(army, tile=label, paired_ship=None)


def docking_cities(kingdom: KingdomId, tiles: MapView) -> tuple[str, ...]:
    """MK-RECALL-5: the kingdom's cities on the coast or on a river, one ship each."""
    return tuple(
        t.label
        for t in tiles.controlled_by(kingdom)
        if t.settlement == CITY and (t.is_coastal or t.has_river)
    )


def surplus_count(tokens: int, room: int) -> int:
    """MK-AMB-17/18: how many tokens find no room."""
    return max(0, tokens - room)


def choose_surplus(
    numbers: Sequence[int], surplus: int, mode: str, chosen: Collection[int] | None, rule_id: str
) -> tuple[int, ...]:
    """MK-AMB-17/18: which token numbers are removed when ``surplus`` find no room.

    Mode "owner": the owner's ``chosen`` numbers (exactly ``surplus`` of their tokens). Mode
    "newest": the highest numbers, no choice asked.
    """
    if mode == REMOVE_NEWEST:
        return tuple(sorted(numbers)[len(numbers) - surplus:]) if surplus else ()
    picked = tuple(sorted(chosen or ()))
    if len(set(picked)) != surplus:
        raise RuleViolation(f"Choose exactly {surplus} token(s) to remove ({rule_id}).")
    strangers = [n for n in picked if n not in numbers]
    if strangers:
        raise RuleViolation(f"Token #{strangers[0]} is not one of yours ({rule_id}).")
    return picked


def validate_docking(
    kingdom: KingdomId,
    tiles: MapView,
    ships: Sequence[Ship],
    plan: Mapping[int, str],
    options: MKOptions = DEFAULT_OPTIONS,
) -> tuple[int, ...]:
    """MK-RECALL-5, MK-AMB-18: check where each ship (by number) docks; return the removed ones.

    Each docked ship goes to its own coastal or river city, one ship per city; every ship that can
    dock must dock; the ships left over are removed (owner's choice, or newest first by option).
    """
    cities = docking_cities(kingdom, tiles)
    numbers = [ship.number for ship in ships]
    used: dict[str, int] = {}
    for number, label in plan.items():
        if number not in numbers:
            raise RuleViolation(f"Ship #{number} is not one of yours (MK-RECALL-5).")
        if label not in cities:
            raise RuleViolation(
                f"Ship #{number} can only dock at one of your cities on the coast or a river; "
                f"{label} is not one (MK-RECALL-5)."
            )
        if label in used:
            raise RuleViolation(
                f"Ships #{used[label]} and #{number} both dock at {label}: one ship per city "
                "(MK-RECALL-5)."
            )
        used[label] = number
    undocked = [n for n in numbers if n not in plan]
    surplus = surplus_count(len(numbers), len(cities))
    if len(undocked) > surplus:
        free = sorted(set(cities) - set(used))
        raise RuleViolation(f"Ship #{undocked[0]} can still dock at {free[0]} (MK-RECALL-5).")
    expected = choose_surplus(numbers, surplus, options.dock_surplus, undocked, "MK-AMB-18")
    if tuple(sorted(undocked)) != expected:
        raise RuleViolation(
            f"The highest-numbered ships go first: remove #{', #'.join(map(str, expected))} "
            "(MK-AMB-18, house rule)."
        )
    return expected


# --- winter: deployment (MK-DEPLOY) ------------------------------------------------------------


def deployment_limit(kingdom: Kingdom, tiles: MapView, label: str) -> int:
    """MK-DEPLOY-4, MK-WINTER-5: armies that may deploy on a tile (0 if it is not a settlement of
    the kingdom). Own capital 3; any other city, a captured capital included, 2."""
    tile = tiles.tile(label)
    if tile.controller != kingdom.id or not tile.settlement:
        return 0
    if tile.settlement == CITY and current_capital(kingdom, tiles) == label:
        return DEPLOY_LIMITS[CAPITAL]
    return DEPLOY_LIMITS[tile.settlement]


def deployment_capacity(kingdom: Kingdom, tiles: MapView) -> dict[str, int]:
    """MK-DEPLOY-4: the kingdom's deployment tiles and their limits, in label order."""
    return {
        t.label: deployment_limit(kingdom, tiles, t.label)
        for t in tiles.controlled_by(kingdom.id)
        if t.settlement
    }


def total_capacity(kingdom: Kingdom, tiles: MapView) -> int:
    """MK-DEPLOY-4/5: how many armies the kingdom can deploy in all (TV-MK-8: 10 at the start)."""
    return sum(deployment_capacity(kingdom, tiles).values())


def legal_deploy_tiles(
    kingdom: Kingdom, tiles: MapView, placed: Mapping[str, int]
) -> tuple[str, ...]:
    """MK-DEPLOY-4: where the next army may go, given armies already placed this winter."""
    return tuple(
        label
        for label, limit in deployment_capacity(kingdom, tiles).items()
        if placed.get(label, 0) < limit
    )


def validate_deployment_plan(
    kingdom: Kingdom, tiles: MapView, plan: Mapping[str, int], army_count: int
) -> int:
    """MK-DEPLOY-4/5, MK-AMB-17: check armies per tile; return how many armies find no room.

    Every army must be placed while there is room; armies beyond the total capacity are removed.
    """
    capacity = deployment_capacity(kingdom, tiles)
    for label, count in sorted(plan.items()):
        if count < 0:
            raise RuleViolation(f"{label}: a negative number of armies makes no sense.")
        if count == 0:
            continue
        tile = tiles.tile(label)
        if label not in capacity:
            if tile.controller != kingdom.id:
                raise RuleViolation(
                    f"{label} is not yours: deploy on your own settlements (MK-DEPLOY-4)."
                )
            raise RuleViolation(
                f"{label} has no settlement: armies deploy on settlements (MK-DEPLOY-4)."
            )
        if count > capacity[label]:
            is_capital = capacity[label] == DEPLOY_LIMITS[CAPITAL] and tile.settlement == CITY
            kind = "Capital City" if is_capital else tile.settlement
            raise RuleViolation(
                f"A {kind} takes at most {capacity[label]} "
                f"{'army' if capacity[label] == 1 else 'armies'} at deployment: {count} planned at "
                f"{label} (MK-DEPLOY-4)."
            )
    placed = sum(plan.values())
    room = sum(capacity.values())
    if placed > army_count:
        raise RuleViolation(f"You have {army_count} armies but plan to deploy {placed}.")
    should_place = min(army_count, room)
    if placed < should_place:
        raise RuleViolation(
            f"Place all {should_place} armies that have room before passing (MK-DEPLOY-5)."
        )
    return surplus_count(army_count, room)


def deployed_army(army: Army, label: str) -> Army:
    """MK-DEPLOY-6, MK-AMB-41: a deployed army stands upright, unpaired, with no defend marker."""
    return replace(army, tile=label, on_side=False, defending=False, paired_ship=None)


# --- advanced recruiting (MK-ADV, MK-AMB-23/24) ------------------------------------------------


@dataclass(frozen=True)
class RecruitAllowance:
    """MK-ADV-2..5: what a new army raised at a fortress may include."""

    monsters: bool
    war_machines: bool
    magic_items: bool
    reasons: tuple[str, ...] = ()


def recruit_allowance(
    fortress: str,
    kingdom: KingdomId,
    tiles: MapView,
    options: MKOptions = DEFAULT_OPTIONS,
    starting_army: bool = False,
) -> RecruitAllowance:
    """MK-ADV-2..5, MK-AMB-23/24: monsters need a controlled mountain or marsh (swamp) tile in or
    next to the fortress, war machines a controlled forest tile; magic items are never allowed.

    Without the module, or for the starting army, nothing is restricted here.
    """
    if not options.module_terrain_recruit or starting_army:
        return RecruitAllowance(True, True, True, ("no terrain restrictions (MK-AMB-24)",))
    home = tiles.tile(fortress)
    if home.controller != kingdom or home.settlement != FORTRESS:
        raise RuleViolation(f"{fortress} is not one of your fortresses (MK-RECRUIT-1).")
    nearby = [home] + [
        t for t in (tiles.get(label) for label in home.neighbours)
        if t is not None and t.controller == kingdom
    ]
    mountains = sorted(t.label for t in nearby if t.has_mountains or t.is_marsh)
    forests = sorted(t.label for t in nearby if t.has_forest)
    reasons = []
    reasons.append(
        f"monsters allowed: mountains or marsh at {', '.join(mountains)} (MK-ADV-3)"
        if mountains else "no monsters: no mountains or marsh of yours in or next to it (MK-ADV-2)"
    )
    reasons.append(
        f"war machines allowed: forest at {', '.join(forests)} (MK-ADV-4)"
        if forests else "no war machines: no forest of yours in or next to it (MK-ADV-2)"
    )
    reasons.append("no magic items (MK-ADV-5)")
    return RecruitAllowance(bool(mountains), bool(forests), False, tuple(reasons))


def validate_recruit_contents(
    allowance: RecruitAllowance, *, monsters: bool, war_machines: bool, magic_items: bool
) -> None:
    """MK-ADV-2..5: refuse a new army list holding what the fortress's terrain does not allow."""
    if monsters and not allowance.monsters:
        raise RuleViolation(
            "This fortress has no mountains or marsh of yours in or next to it: no monsters "
            "(MK-ADV-3)."
        )
    if war_machines and not allowance.war_machines:
        raise RuleViolation(
            "This fortress has no forest of yours in or next to it: no war machines (MK-ADV-4)."
        )
    if magic_items and not allowance.magic_items:
        raise RuleViolation("Winter recruits may not carry magic items (MK-ADV-2, MK-ADV-5).")
