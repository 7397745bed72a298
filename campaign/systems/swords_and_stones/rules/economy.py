"""Swords & Stones: the economy of one game at the table (digest Part B), core pieces.

The six resources and the Stockpile, ledger lines, paying and receiving, the options a group may
set for its economy, the starting bundle of a game, the Resource Site pool and the turn's phase
order. Harvest lives in ``econ_harvest``, the compulsory phase in ``econ_turn``, advance-phase
actions in ``econ_advance``, damage and spell state in ``econ_damage``, end-of-game figures in
``econ_stats``, the event tables in ``events`` and auto-resolved battles in ``autoresolve``; the
catalogues (buildings, units, upgrades, maps) are data in ``catalogue``.

Every movement of a resource is a ``LedgerLine`` citing its rule. The function that forecasts a
movement is the one that books it: a service shows the lines, then applies them with ``book``.
Pure functions over frozen dataclasses; dice come in as arguments. Illegal actions raise
``RuleViolation`` with a plain message that names the rule ID.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any, Protocol

from campaign.rules.options import OptionError, OptionSpec, parse_options

FOOD = "food"
WOOD = "wood"
STONE = "stone"
IRON = "iron"
GOLD = "gold"
FAVOR = "favor"
#: SNS-ECON-1: the six resources, in the order the rulebook lists them.
RESOURCES: tuple[str, ...] = (FOOD, WOOD, STONE, IRON, GOLD, FAVOR)

AVALONIAN = "avalonian"
PAGANITE = "paganite"
DAMNED = "damned"
#: SNS-FAC-1: the factions a player may take (the Damned are reached by the Dark Ritual).
FACTIONS: tuple[str, ...] = (AVALONIAN, PAGANITE, DAMNED)
#: Catalogue letters for faction-only items (SNS-FAC-1).
FACTION_LETTER = {AVALONIAN: "A", PAGANITE: "P", DAMNED: "D"}


class RuleViolation(ValueError):
    """An action the rules forbid. The message is plain words and names the rule ID
    (for example "... (SNS-ECON-3)")."""


# --- ledger lines ------------------------------------------------------------------------------


@dataclass(frozen=True)
class LedgerLine:
    """One movement of one resource (SNS-ECON-2): positive gains, negative spending or losses.

    ``rule_id`` is the rule that moves it and ``reason`` says why in words. ``subject`` names the
    catalogue entry involved (a unit, building, upgrade or spell ID) and ``count`` how many of it
    the action made; ``count`` sits on the first line of an action only, so that end-of-game
    figures can be counted from the lines (SNS-STAT-18/22/26).
    """

    resource: str
    amount: int
    rule_id: str
    reason: str
    subject: str = ""
    count: int = 0

    def __post_init__(self) -> None:
        if self.resource not in RESOURCES:
            raise ValueError(f"Unknown resource {self.resource!r}.")


def lines_for(
    amounts: Mapping[str, int],
    rule_id: str,
    reason: str,
    *,
    sign: int = 1,
    subject: str = "",
    count: int = 0,
    keep_empty: bool = False,
) -> tuple[LedgerLine, ...]:
    """The ledger lines of a bundle of resources, in the rulebook's resource order (SNS-ECON-1).

    ``sign=-1`` turns a cost into spending lines. With ``keep_empty`` a bundle with nothing in it
    still gives one zero line, so that a free purchase is on the record."""
    out: list[LedgerLine] = []
    for resource in RESOURCES:
        amount = amounts.get(resource, 0)
        if amount:
            out.append(LedgerLine(resource, sign * amount, rule_id, reason, subject,
                                  count if not out else 0))
    unknown = set(amounts) - set(RESOURCES)
    if unknown:
        raise ValueError(f"Unknown resource {sorted(unknown)[0]!r}.")
    if not out and keep_empty:
        out.append(LedgerLine(FOOD, 0, rule_id, reason, subject, count))
    return tuple(out)


def net(lines: Iterable[LedgerLine]) -> dict[str, int]:
    """SNS-ECON-2: the net change per resource of some ledger lines (every resource listed)."""
    result = {resource: 0 for resource in RESOURCES}
    for line in lines:
        result[line.resource] += line.amount
    return result


# --- the Stockpile -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Stockpile:
    """The player's resource counter and the building that holds it (SNS-ECON-2, SNS-ECON-4).

    ``hp`` is the Stockpile building's hit points (5 at most, never below 1, SNS-BLD-STOCKPILE).
    It is operational unless it sits at 1 HP, an enemy unit touches it or it has no staff
    (SNS-ECON-4, SNS-ECON-55): ``operational`` is set by whoever knows the table."""

    food: int = 0
    wood: int = 0
    stone: int = 0
    iron: int = 0
    gold: int = 0
    favor: int = 0
    operational: bool = True

    def __post_init__(self) -> None:
        for resource in RESOURCES:
            if getattr(self, resource) < 0:
                raise ValueError(f"A Stockpile cannot hold negative {resource} (SNS-ECON-3).")

    def get(self, resource: str) -> int:
        if resource not in RESOURCES:
            raise ValueError(f"Unknown resource {resource!r}.")
        return int(getattr(self, resource))

    def as_dict(self) -> dict[str, int]:
        return {resource: self.get(resource) for resource in RESOURCES}

    def covers(self, cost: Mapping[str, int]) -> bool:
        """SNS-ECON-3: holds at least ``cost`` of every resource."""
        return all(self.get(resource) >= amount for resource, amount in cost.items())


def check_operational(stockpile: Stockpile, lines: Iterable[LedgerLine], action: str) -> None:
    """SNS-ECON-4: a non-operational Stockpile neither pays nor receives anything but favor."""
    if stockpile.operational:
        return
    blocked = sorted({line.resource for line in lines
                      if line.resource != FAVOR and line.amount != 0},
                     key=RESOURCES.index)
    if blocked:
        raise RuleViolation(
            f"Your Stockpile is not working (it is at 1 HP, unstaffed or touched by an enemy), so "
            f"you cannot {action} {', '.join(blocked)}; only favor still moves (SNS-ECON-4)."
        )


def book(stockpile: Stockpile, lines: Iterable[LedgerLine], *, forced: bool = False) -> Stockpile:
    """SNS-ECON-2/3/4: the Stockpile after the lines.

    Refuses to go below zero in any resource ("pay first", SNS-ECON-3) and refuses to move any
    resource but favor through a non-operational Stockpile (SNS-ECON-4). ``forced`` books losses
    that nobody chose (events, raids), which the Stockpile cannot refuse; gains still need a
    working Stockpile."""
    lines = tuple(lines)
    if forced:
        check_operational(stockpile, [line for line in lines if line.amount > 0], "receive")
    else:
        check_operational(stockpile, lines, "move")
    balance = stockpile.as_dict()
    for line in lines:
        balance[line.resource] += line.amount
    short = [resource for resource in RESOURCES if balance[resource] < 0]
    if short:
        need = {resource: -balance[resource] for resource in short}
        raise RuleViolation(
            "Not enough in the Stockpile: short by "
            + ", ".join(f"{amount} {resource}" for resource, amount in need.items())
            + "; resources are paid before anything is placed (SNS-ECON-3)."
        )
    return replace(stockpile, **balance)


def pay(
    stockpile: Stockpile,
    cost: Mapping[str, int],
    rule_id: str,
    reason: str,
    *,
    subject: str = "",
    count: int = 1,
) -> tuple[LedgerLine, ...]:
    """SNS-ECON-3/4: the spending lines of ``cost``, refused when the Stockpile cannot pay it or
    is not operational. The same call gives the forecast and the booking."""
    lines = lines_for(cost, rule_id, reason, sign=-1, subject=subject, count=count,
                      keep_empty=True)
    check_operational(stockpile, lines, "spend")
    if not stockpile.covers(cost):
        missing = {r: a - stockpile.get(r) for r, a in cost.items() if stockpile.get(r) < a}
        raise RuleViolation(
            f"{reason}: you need "
            + ", ".join(f"{amount} more {resource}" for resource, amount in missing.items())
            + " first; resources are paid before anything is placed (SNS-ECON-3)."
        )
    return lines


def lose_up_to(
    stockpile: Stockpile, resource: str, amount: int, rule_id: str, reason: str
) -> tuple[LedgerLine, ...]:
    """A forced loss (an event, a raid) takes what there is and no more (SNS-ECON-3)."""
    taken = min(amount, stockpile.get(resource))
    return (LedgerLine(resource, -taken, rule_id, reason),) if taken else ()


# --- options -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class EconOptions:
    """House rules for the economy. Defaults follow the digest's recommendations.

    * ``map_type`` (SNS-MAP-1..9, SNS-AMB-35): the map of this game, or ``None`` for a plain table;
      its economic effects (Farm costs, Docks, Site pool) follow from ``catalogue.MAP_TYPES``.
    * ``monument_cost_source`` (SNS-AMB-29): ``"profile"`` (20, 20, 10, 10) or ``"summary"``.
    * ``temple_die_units`` (SNS-AMB-39): Avalonian Temple dice per 3 ``"non_military"`` units or per
      3 ``"villagers"`` only.
    * ``guild_cap_stacks`` (SNS-AMB-41): whether The Noble and Envoy from Afar add up at the
      Merchant's Guild (cap 5) or not (cap 4).
    * ``market_price_resource``, ``coinage_resource``, ``totem_loss_resource``,
      ``masons_guild_resource`` (SNS-AMB-30): the resource a lost symbol most probably stood for;
      a group with the printed book may change them.
    * ``upkeep_when`` (SNS-AMB-33): ``"compulsory"`` (last compulsory step) or ``"advance"`` (start
      of the advance phase); the same food and growth either way, only the phase on the line.
    * ``spear_against_queen`` (SNS-AMB-36): the combat table's Spear-against-Queen value, 5 or 3.

    Build from a campaign's stored JSON with ``from_dict`` (specs: ``ECON_OPTIONS``).
    """

    map_type: str | None = None
    monument_cost_source: str = "profile"
    temple_die_units: str = "non_military"
    guild_cap_stacks: bool = False
    market_price_resource: str = GOLD
    coinage_resource: str = GOLD
    totem_loss_resource: str = FAVOR
    masons_guild_resource: str = STONE
    upkeep_when: str = "compulsory"
    spear_against_queen: int = 5

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> EconOptions:
        """Validate stored options and fill in the defaults."""
        try:
            return cls(**parse_options(ECON_OPTIONS, data))
        except OptionError:
            raise
        except ValueError as exc:
            raise OptionError(str(exc)) from None

    def as_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def __post_init__(self) -> None:
        if self.monument_cost_source not in ("profile", "summary"):
            raise ValueError("monument_cost_source is 'profile' or 'summary' (SNS-AMB-29).")
        if self.temple_die_units not in ("non_military", "villagers"):
            raise ValueError("temple_die_units is 'non_military' or 'villagers' (SNS-AMB-39).")
        if self.upkeep_when not in ("compulsory", "advance"):
            raise ValueError("upkeep_when is 'compulsory' or 'advance' (SNS-AMB-33).")
        if self.spear_against_queen not in (3, 5):
            raise ValueError("spear_against_queen is 5 or 3 (SNS-AMB-36).")
        for name in ("market_price_resource", "coinage_resource", "totem_loss_resource",
                     "masons_guild_resource"):
            if getattr(self, name) not in RESOURCES:
                raise ValueError(f"{name} must be one of the six resources (SNS-AMB-30).")


_RESOURCE_CHOICES = tuple((r, r.title()) for r in RESOURCES)
#: The economy's house rules as the campaign settings form shows them.
ECON_OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("map_type", "Map type of the game", "choice", None, rule_id="SNS-MAP-1",
               nullable=True, choices=tuple((code, code.replace("_", " ").title()) for code in (
                   "ice_lands", "lonely_mountain", "black_forest", "isle_of_gold",
                   "great_plains", "gold_coast", "the_gaps", "great_sandy", "mountains")),
               help="Maps change Farms, Docks and Sites (SNS-MAP-1..9; names as best read, "
                    "SNS-AMB-35)."),
    OptionSpec("monument_cost_source", "Monument cost", "choice", "profile",
               rule_id="SNS-AMB-29", choices=(("profile", "20, 20, 10, 10 (profile)"),
                                              ("summary", "20, 20, 10 (summary table)"))),
    OptionSpec("temple_die_units", "Avalonian Temple dice count", "choice", "non_military",
               rule_id="SNS-AMB-39", choices=(("non_military", "every 3 non-military units"),
                                              ("villagers", "every 3 Villagers"))),
    OptionSpec("guild_cap_stacks", "The Noble and an Envoy from Afar add up at the Guild",
               "bool", False, rule_id="SNS-AMB-41"),
    OptionSpec("market_price_resource", "Price resource at Market and Tavern", "choice", GOLD,
               rule_id="SNS-AMB-30", choices=_RESOURCE_CHOICES),
    OptionSpec("coinage_resource", "What Coinage turns favor into", "choice", GOLD,
               rule_id="SNS-AMB-30", choices=_RESOURCE_CHOICES),
    OptionSpec("totem_loss_resource", "What a destroyed Totem costs", "choice", FAVOR,
               rule_id="SNS-AMB-30", choices=_RESOURCE_CHOICES),
    OptionSpec("masons_guild_resource", "What the Mason's Guild saves", "choice", STONE,
               rule_id="SNS-AMB-30", choices=_RESOURCE_CHOICES),
    OptionSpec("upkeep_when", "When upkeep is charged", "choice", "compulsory",
               rule_id="SNS-AMB-33", choices=(("compulsory", "end of the compulsory phase"),
                                              ("advance", "start of the advance phase"))),
    OptionSpec("spear_against_queen", "Spear against Queen on the combat table", "int", 5,
               rule_id="SNS-AMB-36", minimum=3, maximum=5,
               help="5: the copy printed with the rules; 3: the other copy."),
)

DEFAULT_OPTIONS = EconOptions()


# --- turn structure (SNS-ECON-11..14) ----------------------------------------------------------

HARVEST = "harvest"
COMPULSORY = "compulsory"
ADVANCE = "advance"
MOVE_COMBAT = "move_combat"
#: SNS-ECON-11: the four phases of a turn, in order.
PHASES: tuple[str, ...] = (HARVEST, COMPULSORY, ADVANCE, MOVE_COMBAT)
#: SNS-ECON-13, SNS-EVT-3: event tables are rolled from this turn on.
FIRST_EVENT_TURN = 10
#: SNS-ECON-13: players with fewer games than this are advised to play one at a time to turn 10.
BEGINNER_GAMES = 5


def next_phase(turn: int, phase: str) -> tuple[int, str]:
    """SNS-ECON-11: the phase after ``phase`` (the turn counter moves on after Move & Combat)."""
    if phase not in PHASES:
        raise ValueError(f"Unknown phase {phase!r}.")
    index = PHASES.index(phase)
    if index == len(PHASES) - 1:
        return turn + 1, PHASES[0]
    return turn, PHASES[index + 1]


def simultaneous_play(phase: str, at_war: bool) -> bool:
    """SNS-ECON-12: in peace every phase is played by all at once; at war, Move & Combat is
    played side by side in turn, the declaring side first."""
    return not (at_war and phase == MOVE_COMBAT)


def war_turn_order(declaring_side: str, other_side: str, ai_sides: Sequence[str] = ()) -> tuple[
        str, ...]:
    """SNS-ECON-12: Move & Combat order once war is declared: AI skirmishers first, then the
    side that declared, then the other."""
    return (*ai_sides, declaring_side, other_side)


def advise_one_at_a_time(turn: int, games_played: int) -> bool:
    """SNS-ECON-13: beginners (under 5 games) take turns one player at a time until turn 10."""
    return games_played < BEGINNER_GAMES and turn < FIRST_EVENT_TURN


def check_one_action_each(actions: Sequence[tuple[str, str]]) -> None:
    """SNS-ECON-14: each unit acts at most once a turn (fight, work 1 Build Point, or harvest).
    ``actions`` are (unit, action) pairs."""
    seen: dict[str, str] = {}
    for unit, action in actions:
        if unit in seen:
            raise RuleViolation(
                f"{unit} already acted this turn ({seen[unit]}); a unit takes one action a turn: "
                f"fight, work on a foundation or harvest (SNS-ECON-14)."
            )
        seen[unit] = action


# --- setup and the starting bundle (SNS-ECON-5..10) --------------------------------------------

STANDARD = "standard"
DEATHMATCH = "deathmatch"
INVADERS = "invaders"
KING_OF_THE_HILL = "deathmatch_king_of_the_hill"
VILLAGER_LEAGUE = "villager_league"
GAME_MODES: tuple[str, ...] = (STANDARD, DEATHMATCH, INVADERS, KING_OF_THE_HILL, VILLAGER_LEAGUE)


class _BundleLike(Protocol):
    def as_dict(self) -> dict[str, int]: ...


class _StartLineLike(Protocol):
    source: str
    rule_id: str
    bundle: _BundleLike


class _StartLike(Protocol):
    lines: tuple[_StartLineLike, ...]
    extra_turn: bool


@dataclass(frozen=True)
class StartItem:
    """The kit of a game mode (SNS-ECON-5, SNS-ECON-9): resources, units and buildings."""

    label: str
    rule_id: str
    resources: Mapping[str, int] = field(default_factory=dict)
    units: Mapping[str, int] = field(default_factory=dict)
    buildings: Mapping[str, int] = field(default_factory=dict)


def base_kit(mode: str = STANDARD, *, invading: bool = False) -> StartItem:
    """SNS-ECON-5, SNS-ECON-9: the kit of a game mode.

    Standard: a Stockpile, 3 Villagers and the King, every resource at 0. Deathmatch (also King of
    the Hill and Villager League): 10 Villagers, a King, a Barracks, a Town Center, a Merchant's
    Guild, a Mill, 3 Farms and a Market, and 20 of every resource but favor. Invaders: the
    Deathmatch kit, with 10 more gold for each player of the attacking team."""
    if mode == STANDARD:
        return StartItem("standard start", "SNS-ECON-5", {},
                         {"VILLAGER": 3, "KING": 1}, {"STOCKPILE": 1})
    if mode in (DEATHMATCH, INVADERS, KING_OF_THE_HILL, VILLAGER_LEAGUE):
        resources = {r: 20 for r in RESOURCES if r != FAVOR}
        if mode == INVADERS and invading:
            resources[GOLD] += 10
        return StartItem(
            f"{mode.replace('_', ' ')} kit", "SNS-ECON-9", resources,
            {"VILLAGER": 10, "KING": 1},
            {"STOCKPILE": 1, "BARRACKS": 1, "TOWNCENTER": 1, "MERCHANTSGUILD": 1, "MILL": 1,
             "FARM": 3, "MARKET": 1},
        )
    raise ValueError(f"Unknown game mode {mode!r}.")


@dataclass(frozen=True)
class Opening:
    """A player's state when a game begins, line by line (SNS-ECON-10): turn 1, growth 1,
    upkeep 0 (SNS-ECON-5), and a turn 0 first with Front line Advantage."""

    lines: tuple[LedgerLine, ...]
    units: Mapping[str, int]
    buildings: Mapping[str, int]
    turn_zero: bool = False
    turn: int = 1
    growth_rate: int = 1
    upkeep: int = 0

    def totals(self) -> dict[str, int]:
        return net(self.lines)

    def stockpile(self) -> Stockpile:
        return Stockpile(**self.totals())


def opening(start: _StartLike | None = None, mode: str = STANDARD, *,
            invading: bool = False) -> Opening:
    """SNS-ECON-10: the ledger lines a game opens with, one source after another: the game
    mode's kit (SNS-ECON-5/9), then the campaign's lines in their order (supply lines, start
    spends, the King's one Title or crate item, as ``points.starting_stockpile`` lists them).
    The campaign's own base line is replaced by the kit. Supply-line Villagers are units, not
    resources (SNS-SUP-4)."""
    kit = base_kit(mode, invading=invading)
    lines = list(lines_for(kit.resources, kit.rule_id, kit.label))
    units = dict(kit.units)
    for item in (start.lines if start is not None else ()):
        if item.rule_id == "SNS-ECON-5":
            continue
        amounts = item.bundle.as_dict()
        villagers = amounts.pop("villagers", 0)
        lines.extend(lines_for(amounts, item.rule_id, item.source))
        if villagers:
            units["VILLAGER"] += villagers
    return Opening(tuple(lines), units, dict(kit.buildings),
                   turn_zero=bool(start is not None and start.extra_turn))


def site_pool(players: int, map_type: str | None = None) -> dict[str, int]:
    """SNS-ECON-6 (with SNS-MAP-4, SNS-MAP-8): the Resource Sites in play at the start.

    Each player brings 6 Forests and 6 Outcrops and secretly takes 1 Outcrop out; on Isle of Gold
    nobody removes one, on Great Sandy each removes a Forest instead. (Where they go on the table,
    SNS-ECON-7, is the players' business.)"""
    if players < 1:
        raise ValueError("At least one player.")
    forests, outcrops = 6 * players, 6 * players
    if map_type == "isle_of_gold":
        pass
    elif map_type == "great_sandy":
        forests -= players
    else:
        outcrops -= players
    return {"forest": forests, "outcrop": outcrops}


def training_food_factor(outside_own_section: bool) -> int:
    """SNS-ECON-8, SNS-ECON-51: training at a building outside one's map section doubles food."""
    return 2 if outside_own_section else 1
