"""Swords & Stones, Part A: the Grand Campaign.

The campaign map and its Territories (SNS-GC-9, SNS-GC-11), Territory states (SNS-GC-12), the
initial placement (SNS-GC-3), challenges and their outcome matrix (SNS-GC-4..8), capitals
(SNS-CAP-*), Kings and succession (SNS-KING-*), players joining a running campaign (SNS-NEW-*)
and supply lines (SNS-SUP-*). Points and what they buy are in ``points``; Titles, statistics,
Mystery Crate items and game results in ``titles``.

Everything here is a pure function over frozen dataclasses: no Django, no database, no clock and
no hidden randomness. A campaign's state is a ``CampaignState``: the ``CampaignMap`` (Territories,
their adjacency and who holds what) and the ``Player`` records (King, capital fortification,
elimination). Functions return a new state and never change the one they were given. Illegal
actions raise ``RuleViolation`` with a plain message that cites the rule.

The whole Grand Campaign chapter of the rulebook is marked as under construction (SNS-AMB-1):
every choice the digest leaves open is a field of ``Options`` with the digest's default.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from functools import cached_property
from math import comb
from typing import TYPE_CHECKING, Any

from campaign.rules.geometry import SquareGrid
from campaign.rules.options import OptionSpec, parse_options

if TYPE_CHECKING:
    from campaign.systems.swords_and_stones.rules.titles import CrateItem

PlayerId = str
TerritoryId = str


class RuleViolation(ValueError):
    """An illegal campaign action; the message says why in plain words and names the rule ID
    (e.g. "SNS-GC-3: ...")."""


# --- resources -----------------------------------------------------------------------------------

FOOD = "food"
WOOD = "wood"
STONE = "stone"
IRON = "iron"
GOLD = "gold"
FAVOR = "favor"
#: The six resources of a Stockpile, in the order sheets print them.
RESOURCES: tuple[str, ...] = (FOOD, WOOD, STONE, IRON, GOLD, FAVOR)


@dataclass(frozen=True)
class Bundle:
    """Resources added to a Stockpile at game start, plus Villager units (a supply line's
    "1 Villager" is a unit, not a resource: SNS-SUP-4)."""

    food: int = 0
    wood: int = 0
    stone: int = 0
    iron: int = 0
    gold: int = 0
    favor: int = 0
    villagers: int = 0

    def __add__(self, other: Bundle) -> Bundle:
        return Bundle(**{f.name: getattr(self, f.name) + getattr(other, f.name)
                         for f in fields(self)})

    def as_dict(self) -> dict[str, int]:
        """Every field, zeros included."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def describe(self) -> str:
        """E.g. "+3 wood, +1 Villager"; "nothing" when empty."""
        parts = [
            f"+{amount} {'Villager' if name == 'villagers' and amount == 1 else name}"
            for name, amount in self.as_dict().items() if amount
        ]
        return ", ".join(parts) or "nothing"


NOTHING = Bundle()


# --- options -------------------------------------------------------------------------------------

BY_SQUARE = "square"
BY_MAP_TYPE = "map_type"
DRAW_NO_CHANGE = "no_change"
DRAW_VENGEANCE_TO_ALL = "vengeance_to_all"
ELIMINATE = "eliminate"
REJOIN_AS_NEW = "rejoin_as_new"
TITLES_ONE = "one"
TITLES_ALL = "all"

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "territory_granularity", "What one Territory is", "choice", BY_SQUARE,
        rule_id="SNS-GC-9",
        help="Every land square of the map, or every map type drawn on it.",
        choices=((BY_SQUARE, "Each land square"), (BY_MAP_TYPE, "Each map type")),
    ),
    OptionSpec(
        "capital_counts_as_settled", "A Capital counts as settled land", "bool", True,
        rule_id="SNS-AMB-3",
        help="For counting, supply lines, Front line Advantage and new players. A Capital is "
        "never a target of Politics, Fiefdoms or Bolster either way.",
    ),
    OptionSpec(
        "outcomes_optional", "Challenge outcomes need the winner's yes", "bool", False,
        rule_id="SNS-AMB-4",
        help="Off: the outcome applies unless its beneficiary declines. On: the beneficiary "
        "must say yes or no.",
    ),
    OptionSpec(
        "ai_can_hold_territory", "Artificial players hold land", "bool", False,
        rule_id="SNS-AMB-5",
        help="On: AI kingdoms are campaign players and keep the land they win.",
    ),
    OptionSpec(
        "challenge_requires_adjacency", "Challenges only next to own land", "bool", False,
        rule_id="SNS-AMB-8",
    ),
    OptionSpec(
        "draw_policy", "What a drawn game does", "choice", DRAW_NO_CHANGE, rule_id="SNS-AMB-9",
        choices=(
            (DRAW_NO_CHANGE, "Nothing: no land changes hands, no points"),
            (DRAW_VENGEANCE_TO_ALL, "No land changes hands; every player gains 1 Vengeance"),
        ),
    ),
    OptionSpec(
        "on_last_territory_lost", "A player who loses their last land", "choice", ELIMINATE,
        rule_id="SNS-AMB-13",
        choices=((ELIMINATE, "Leaves the campaign"), (REJOIN_AS_NEW, "Rejoins as a new player")),
    ),
    OptionSpec(
        "spends_repeatable", "A points option may be bought again", "bool", True,
        rule_id="SNS-AMB-14",
        help="Off: each option at most once for the same game (or between two games).",
    ),
    OptionSpec(
        "titles_per_game_end", "Titles taken at a game's end", "choice", TITLES_ONE,
        rule_id="SNS-AMB-20",
        choices=((TITLES_ONE, "One, chosen by the player"), (TITLES_ALL, "Every Title earned")),
    ),
    OptionSpec(
        "start_bonus_slots", "Start-of-game bonuses of a King", "int", 1, rule_id="SNS-AMB-21",
        help="1: one Title or one crate item. 2: one Title and one crate item.",
        minimum=1, maximum=2,
    ),
    OptionSpec(
        "crate_carryover", "Carry a Mystery Crate item to the next game", "bool", False,
        rule_id="SNS-CRATE-5",
    ),
    OptionSpec(
        "agricultural_revolution", "Agricultural Revolution is a Mill upgrade", "bool", False,
        rule_id="SNS-AMB-22h",
        help="On: The Agriculturalist also needs this upgrade.",
    ),
)


@dataclass(frozen=True)
class Options:
    """The parsed Grand Campaign options (Part E defaults); build from stored JSON with
    ``from_dict``. SNS-GC-11: every field is a group's house rule."""

    territory_granularity: str = BY_SQUARE
    capital_counts_as_settled: bool = True
    outcomes_optional: bool = False
    ai_can_hold_territory: bool = False
    challenge_requires_adjacency: bool = False
    draw_policy: str = DRAW_NO_CHANGE
    on_last_territory_lost: str = ELIMINATE
    spends_repeatable: bool = True
    titles_per_game_end: str = TITLES_ONE
    start_bonus_slots: int = 1
    crate_carryover: bool = False
    agricultural_revolution: bool = False

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> Options:
        """Validate stored options and fill in the defaults."""
        return cls(**parse_options(OPTIONS, data))

    def as_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


DEFAULT_OPTIONS = Options()


# --- Territories and their states (SNS-GC-9, SNS-GC-12) ----------------------------------------

UNCLAIMED = "unclaimed"
CLAIMED = "claimed"
SETTLED = "settled"
CAPITAL = "capital"
STATES: tuple[str, ...] = (UNCLAIMED, CLAIMED, SETTLED, CAPITAL)
STATE_NAMES = {
    UNCLAIMED: "Unclaimed",
    CLAIMED: "Claimed",
    SETTLED: "Settled",
    CAPITAL: "Capital",
}


@dataclass(frozen=True)
class Holding:
    """SNS-GC-12: one Territory's state and owner; only unclaimed land has no owner."""

    state: str = UNCLAIMED
    owner: PlayerId | None = None

    def __post_init__(self) -> None:
        if self.state not in STATES:
            raise RuleViolation(f"SNS-GC-12: {self.state!r} is not a Territory state.")
        if (self.state == UNCLAIMED) != (self.owner is None):
            raise RuleViolation(
                "SNS-GC-12: unclaimed land has no owner, and claimed, settled or capital land "
                "has exactly one."
            )

    def describe(self) -> str:
        name = STATE_NAMES[self.state]
        return name if self.owner is None else f"{name} ({self.owner})"


FREE = Holding()


def counts_as_settled(holding: Holding, options: Options = DEFAULT_OPTIONS) -> bool:
    """SNS-GC-12, SNS-AMB-3: settled land, and a Capital unless the group says otherwise."""
    return holding.state == SETTLED or (
        holding.state == CAPITAL and options.capital_counts_as_settled
    )


@dataclass(frozen=True)
class CampaignMap:
    """The Territories of a campaign, their adjacency and their holdings.

    ``territories`` fixes the map order (used to list things deterministically); ``adjacency``
    is symmetric; ``squares`` lists the grid squares of each Territory (empty for a map drawn as
    a plain graph); ``names`` are labels for people.
    """

    territories: tuple[TerritoryId, ...]
    adjacency: Mapping[TerritoryId, frozenset[TerritoryId]]
    holdings: Mapping[TerritoryId, Holding]
    names: Mapping[TerritoryId, str] = field(default_factory=dict)
    squares: Mapping[TerritoryId, tuple[tuple[int, int], ...]] = field(default_factory=dict)

    def holding(self, territory: TerritoryId) -> Holding:
        if territory not in self.holdings:
            raise RuleViolation(f"SNS-GC-9: {territory!r} is not a Territory of this map.")
        return self.holdings[territory]

    def neighbours(self, territory: TerritoryId) -> frozenset[TerritoryId]:
        self.holding(territory)
        return self.adjacency.get(territory, frozenset())

    def name(self, territory: TerritoryId) -> str:
        return self.names.get(territory, territory)

    @cached_property
    def _by_owner(self) -> dict[PlayerId | None, tuple[TerritoryId, ...]]:
        """Each holder's Territories in map order (unclaimed land under ``None``), found once
        per map: a map never changes (``with_holdings`` makes a new one), and the standings
        ask for every player's land."""
        found: dict[PlayerId | None, list[TerritoryId]] = {}
        for t in self.territories:
            found.setdefault(self.holdings[t].owner, []).append(t)
        return {owner: tuple(ts) for owner, ts in found.items()}

    def owned_by(self, player: PlayerId, *states: str) -> tuple[TerritoryId, ...]:
        """The player's Territories in map order, optionally only those in ``states``."""
        mine = self._by_owner.get(player, ())
        if not states:
            return mine
        return tuple(t for t in mine if self.holdings[t].state in states)

    def unclaimed(self) -> tuple[TerritoryId, ...]:
        # Only unclaimed land has no owner (SNS-GC-12, ``Holding``).
        return self._by_owner.get(None, ())

    def with_holdings(self, changes: Mapping[TerritoryId, Holding]) -> CampaignMap:
        for territory in changes:
            self.holding(territory)
        return replace(self, holdings={**self.holdings, **changes})


def map_from_adjacency(
    territories: Sequence[TerritoryId],
    borders: Iterable[tuple[TerritoryId, TerritoryId]],
    names: Mapping[TerritoryId, str] | None = None,
) -> CampaignMap:
    """SNS-GC-11, SNS-AMB-2: a group's own map, drawn as Territories and their shared borders;
    every Territory starts unclaimed."""
    order = tuple(territories)
    if len(set(order)) != len(order):
        raise RuleViolation("SNS-GC-11: every Territory needs its own name.")
    adjacency: dict[TerritoryId, set[TerritoryId]] = {t: set() for t in order}
    for a, b in borders:
        if a not in adjacency or b not in adjacency:
            raise RuleViolation(f"SNS-GC-11: the border {a}-{b} names an unknown Territory.")
        if a == b:
            raise RuleViolation(f"SNS-GC-11: {a} cannot border itself.")
        adjacency[a].add(b)
        adjacency[b].add(a)
    return CampaignMap(
        territories=order,
        adjacency={t: frozenset(n) for t, n in adjacency.items()},
        holdings={t: FREE for t in order},
        names=dict(names or {}),
    )


def map_from_squares(
    width: int,
    height: int,
    land: Mapping[tuple[int, int], str],
    options: Options = DEFAULT_OPTIONS,
) -> CampaignMap:
    """SNS-GC-9: Territories of a square-grid map. ``land`` gives the map type of every land
    square (0-based ``(x, y)``); squares not listed have no land and are no Territory.

    By square, each land square is a Territory named by its grid label (``"0101"``), bordering
    the land squares that share an edge with it. By map type, all squares of one map type make
    one Territory named after the type, bordering every other type one of its squares touches.
    """
    grid = SquareGrid(width, height)
    for (x, y), map_type in land.items():
        if not grid.contains(x, y):
            raise RuleViolation(f"SNS-GC-9: square ({x}, {y}) is off the {width}x{height} map.")
        if not map_type:
            raise RuleViolation(f"SNS-GC-9: land square {grid.label(x, y)} needs a map type.")
    squares = [c for c in grid.coords() if c in land]
    if options.territory_granularity == BY_SQUARE:
        ids = {c: grid.label(*c) for c in squares}
        names = {ids[c]: f"{land[c]} {ids[c]}" for c in squares}
    else:
        ids = {c: land[c] for c in squares}
        names = {land[c]: land[c] for c in squares}
    order: list[TerritoryId] = []
    members: dict[TerritoryId, list[tuple[int, int]]] = {}
    adjacency: dict[TerritoryId, set[TerritoryId]] = {}
    for c in squares:
        territory = ids[c]
        if territory not in members:
            order.append(territory)
            members[territory] = []
            adjacency[territory] = set()
        members[territory].append(c)
        for n in grid.neighbours(*c):
            if n in ids and ids[n] != territory:
                adjacency[territory].add(ids[n])
    return CampaignMap(
        territories=tuple(order),
        adjacency={t: frozenset(n) for t, n in adjacency.items()},
        holdings={t: FREE for t in order},
        names=names,
        squares={t: tuple(m) for t, m in members.items()},
    )


def distances_from(cmap: CampaignMap, start: TerritoryId) -> dict[TerritoryId, int]:
    """SNS-AMB-6: fewest border crossings from ``start`` to every Territory it can reach."""
    cmap.holding(start)
    dist = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for there in sorted(cmap.adjacency.get(here, ()), key=cmap.territories.index):
            if there not in dist:
                dist[there] = dist[here] + 1
                queue.append(there)
    return dist


@dataclass(frozen=True)
class HoldingCount:
    """A player's land by state (SNS-GC-12). ``settled`` counts only settled land;
    ``settled_total`` adds the Capital when it counts as settled (SNS-AMB-3)."""

    capital: int
    settled: int
    claimed: int
    capital_counts: bool

    @property
    def settled_total(self) -> int:
        return self.settled + (self.capital if self.capital_counts else 0)

    @property
    def land(self) -> int:
        """Settled (the Capital as the option says) plus claimed: the SNS-NEW-2 measure."""
        return self.settled_total + self.claimed

    @property
    def territories(self) -> int:
        return self.capital + self.settled + self.claimed


def holding_count(
    cmap: CampaignMap, player: PlayerId, options: Options = DEFAULT_OPTIONS
) -> HoldingCount:
    """SNS-GC-12, SNS-AMB-3: how much land ``player`` holds, by state."""
    return HoldingCount(
        capital=len(cmap.owned_by(player, CAPITAL)),
        settled=len(cmap.owned_by(player, SETTLED)),
        claimed=len(cmap.owned_by(player, CLAIMED)),
        capital_counts=options.capital_counts_as_settled,
    )


def capital_of(cmap: CampaignMap, player: PlayerId) -> TerritoryId | None:
    """SNS-GC-12: the player's Capital, if they have one."""
    found = cmap.owned_by(player, CAPITAL)
    return found[0] if found else None


# --- players and Kings ---------------------------------------------------------------------------

ALIVE = "alive"
DEAD = "dead"
SURRENDERED = "surrendered"
FLED = "fled"
KING_OUTCOMES: tuple[str, ...] = (ALIVE, DEAD, SURRENDERED, FLED)


@dataclass(frozen=True)
class King:
    """SNS-KING-1: a player's King, who carries earned Titles (codes of the catalogue in
    ``titles``) and Mystery Crate items from game to game. ``reign`` counts the Kings of the
    kingdom: 1 for the first, 2 for the first heir."""

    name: str
    reign: int = 1
    titles: frozenset[str] = frozenset()
    crate_items: tuple[CrateItem, ...] = ()


@dataclass(frozen=True)
class Player:
    """A campaign player. ``king`` is None after a King's death until the heir is named
    (SNS-KING-3). ``capital_fortified`` is the SNS-CAP-3 flag."""

    id: PlayerId
    name: str = ""
    kingdom_name: str = ""
    is_ai: bool = False
    king: King | None = None
    past_kings: tuple[str, ...] = ()
    capital_fortified: bool = True
    eliminated: bool = False


@dataclass(frozen=True)
class CampaignState:
    """Map and players of a Grand Campaign; players keep their seating (challenge) order."""

    map: CampaignMap
    players: tuple[Player, ...]

    def player(self, player: PlayerId) -> Player:
        for p in self.players:
            if p.id == player:
                return p
        raise RuleViolation(f"SNS-GC-2: {player!r} does not play in this campaign.")

    def active(self) -> tuple[Player, ...]:
        return tuple(p for p in self.players if not p.eliminated)

    def with_player(self, updated: Player) -> CampaignState:
        self.player(updated.id)
        return replace(
            self, players=tuple(updated if p.id == updated.id else p for p in self.players)
        )

    def with_map(self, cmap: CampaignMap) -> CampaignState:
        return replace(self, map=cmap)


def start_campaign(cmap: CampaignMap, players: Sequence[Player]) -> CampaignState:
    """SNS-GC-1, SNS-GC-2: a campaign with a fixed list of players (AI players allowed); more
    may join later (SNS-NEW-1). Every player needs a King's name (SNS-KING-7)."""
    ids = [p.id for p in players]
    if not ids:
        raise RuleViolation("SNS-GC-2: a Grand Campaign needs at least one player.")
    if len(set(ids)) != len(ids):
        raise RuleViolation("SNS-GC-2: two players have the same id.")
    for p in players:
        if p.king is None or not p.king.name.strip():
            raise RuleViolation(f"SNS-KING-7: {p.id} must name their King.")
    return CampaignState(map=cmap, players=tuple(players))


@dataclass(frozen=True)
class TerritoryChange:
    """One Territory's change of state, with its cause and rule (for the chronicle)."""

    territory: TerritoryId
    before: Holding
    after: Holding
    cause: str
    rule_id: str


def _change(
    cmap: CampaignMap, territory: TerritoryId, after: Holding, cause: str, rule_id: str
) -> TerritoryChange:
    return TerritoryChange(territory, cmap.holding(territory), after, cause, rule_id)


def _apply(state: CampaignState, changes: Sequence[TerritoryChange]) -> CampaignState:
    return state.with_map(state.map.with_holdings({c.territory: c.after for c in changes}))


# --- initial placement (SNS-GC-3) ----------------------------------------------------------------


def placement_claims(state: CampaignState, capital: TerritoryId) -> tuple[TerritoryId, ...]:
    """SNS-GC-3: the unclaimed Territories bordering ``capital`` that may be claimed with it."""
    cmap = state.map
    return tuple(
        t for t in cmap.territories
        if t in cmap.neighbours(capital) and cmap.holding(t).state == UNCLAIMED
    )


def place_kingdom(
    state: CampaignState, player: PlayerId, capital: TerritoryId, claims: Sequence[TerritoryId]
) -> tuple[CampaignState, tuple[TerritoryChange, ...]]:
    """SNS-GC-3: a player's Capital on one unclaimed Territory and two claims bordering it."""
    p = state.player(player)
    cmap = state.map
    if cmap.owned_by(p.id):
        raise RuleViolation(f"SNS-GC-3: {p.id} has already placed their kingdom.")
    if cmap.holding(capital).state != UNCLAIMED:
        raise RuleViolation(f"SNS-GC-3: {cmap.name(capital)} is not free for a Capital.")
    if len(claims) != 2 or len(set(claims)) != 2:
        raise RuleViolation("SNS-GC-3: claim exactly two different Territories.")
    allowed = placement_claims(state, capital)
    for t in claims:
        if t not in allowed:
            raise RuleViolation(
                f"SNS-GC-3: {cmap.name(t)} is not a free Territory bordering the Capital."
            )
    changes = (
        _change(cmap, capital, Holding(CAPITAL, p.id), "initial_placement", "SNS-GC-3"),
        *(_change(cmap, t, Holding(CLAIMED, p.id), "initial_placement", "SNS-GC-3")
          for t in claims),
    )
    return _apply(state, changes), changes


# --- challenges (SNS-GC-4..8, SNS-CAP-1..4) ------------------------------------------------------

WIN = "win"
LOSS = "loss"
DRAW = "draw"
RESULTS: tuple[str, ...] = (WIN, LOSS, DRAW)

ROW_UNCLAIMED = "SNS-GC-6a"
ROW_CLAIMED = "SNS-GC-6b"
ROW_SETTLED = "SNS-GC-6c"
ROW_CAPITAL = "SNS-GC-6d"
_ROWS = {UNCLAIMED: ROW_UNCLAIMED, CLAIMED: ROW_CLAIMED, SETTLED: ROW_SETTLED, CAPITAL: ROW_CAPITAL}


def next_challenger(state: CampaignState, last: PlayerId | None) -> PlayerId:
    """SNS-GC-4: players take turns issuing challenges, in seating order, skipping players who
    have left the campaign."""
    active = [p.id for p in state.active()]
    if not active:
        raise RuleViolation("SNS-GC-4: nobody is left to issue a challenge.")
    if last is None:
        return active[0]
    seats = [p.id for p in state.players]
    start = seats.index(state.player(last).id)
    for step in range(1, len(seats) + 1):
        candidate = seats[(start + step) % len(seats)]
        if candidate in active:
            return candidate
    return active[0]  # pragma: no cover - the loop always finds an active player


def challenge_targets(
    state: CampaignState, challenger: PlayerId, options: Options = DEFAULT_OPTIONS
) -> tuple[TerritoryId, ...]:
    """SNS-GC-4, SNS-AMB-8: every Territory not held by the challenger; with
    ``challenge_requires_adjacency`` only those bordering the challenger's own land."""
    p = state.player(challenger)
    cmap = state.map
    own = set(cmap.owned_by(p.id))
    targets = [t for t in cmap.territories if t not in own]
    if options.challenge_requires_adjacency:
        targets = [t for t in targets if cmap.neighbours(t) & own]
    return tuple(targets)


@dataclass(frozen=True)
class Opponents:
    """SNS-GC-6, SNS-GC-8: who may take up a challenge. ``volunteers`` is true for unclaimed
    land, where any listed player may step forward; ``ai_allowed`` when an AI may play it."""

    players: tuple[PlayerId, ...]
    volunteers: bool
    ai_allowed: bool


def possible_opponents(
    state: CampaignState,
    challenger: PlayerId,
    territory: TerritoryId,
    options: Options = DEFAULT_OPTIONS,
) -> Opponents:
    """SNS-GC-6a..6d, SNS-GC-8: unclaimed land may be defended by any other player who
    volunteers (neighbour or not) or by an AI player; held land only by its holder. AI
    campaign players hold land only with ``ai_can_hold_territory`` (SNS-AMB-5)."""
    holding = state.map.holding(territory)
    if holding.owner is not None:
        return Opponents(players=(holding.owner,), volunteers=False, ai_allowed=False)
    others = tuple(
        p.id for p in state.active()
        if p.id != challenger and (not p.is_ai or options.ai_can_hold_territory)
    )
    return Opponents(players=others, volunteers=True, ai_allowed=True)


@dataclass(frozen=True)
class Challenge:
    """A challenge (SNS-GC-4): the contested Territory, its state before the game and the
    matrix row that decides the outcome. ``defender`` is None for an AI opponent that is not a
    campaign player. ``capital_advantage`` is SNS-CAP-2. ``map_type_played`` is free
    (SNS-GC-10)."""

    challenger: PlayerId
    territory: TerritoryId
    defender: PlayerId | None
    before: Holding
    row: str
    capital_advantage: bool
    map_type_played: str = ""
    game_mode: str = ""


def issue_challenge(
    state: CampaignState,
    challenger: PlayerId,
    territory: TerritoryId,
    defender: PlayerId | None,
    options: Options = DEFAULT_OPTIONS,
    map_type_played: str = "",
    game_mode: str = "",
) -> Challenge:
    """SNS-GC-4, SNS-GC-6, SNS-GC-8, SNS-GC-10, SNS-CAP-1, SNS-CAP-2, SNS-AMB-5, SNS-AMB-8:
    check a challenge and fix who defends what. The map type and game mode played are the
    group's free choice and need not match the Territory."""
    c = state.player(challenger)
    if c.eliminated:
        raise RuleViolation(f"SNS-CAP-4: {c.id} has left the campaign and cannot challenge.")
    cmap = state.map
    holding = cmap.holding(territory)
    if holding.owner == c.id:
        raise RuleViolation(
            f"SNS-AMB-8: {cmap.name(territory)} is already yours; settle your own claims with "
            "Bolster Frontier Outposts or Fiefdoms."
        )
    if territory not in challenge_targets(state, challenger, options):
        raise RuleViolation(
            f"SNS-AMB-8: this campaign only allows challenges for land bordering your own; "
            f"{cmap.name(territory)} does not."
        )
    opponents = possible_opponents(state, challenger, territory, options)
    if holding.state == UNCLAIMED:
        if defender is not None:
            d = state.player(defender)
            if d.is_ai and not options.ai_can_hold_territory:
                raise RuleViolation(
                    "SNS-AMB-5: AI players hold no land in this campaign; play the AI as an "
                    "outside opponent instead."
                )
            if defender not in opponents.players:
                raise RuleViolation(f"SNS-GC-8: {defender} cannot take up this challenge.")
    elif defender != holding.owner:
        raise RuleViolation(
            f"SNS-GC-6: {cmap.name(territory)} is held by {holding.owner}, who must be the "
            "opponent."
        )
    advantage = holding.owner is not None and holding.state == CAPITAL and (
        state.player(holding.owner).capital_fortified
    )
    return Challenge(
        challenger=c.id,
        territory=territory,
        defender=defender,
        before=holding,
        row=_ROWS[holding.state],
        capital_advantage=advantage,
        map_type_played=map_type_played,
        game_mode=game_mode,
    )


@dataclass(frozen=True)
class Fortification:
    """A defensive piece set up at game start (SNS-CAP-2, SNS-AMB-11)."""

    building: str
    count: int
    hp: int


#: SNS-CAP-2, SNS-AMB-11: the fortified Capital's pieces, complete, free and undamaged,
#: placed anywhere in the defender's map section.
CAPITAL_FORTIFICATIONS: tuple[Fortification, ...] = (
    Fortification("Stone Gate", 2, 10),
    Fortification("Stone Wall", 12, 10),
)


def fortifications(challenge: Challenge) -> tuple[Fortification, ...]:
    """SNS-CAP-1, SNS-CAP-2: what the defender sets up for free: 2 Stone Gates and 12 Stone
    Wall sections when their fortified Capital is contested, nothing otherwise."""
    return CAPITAL_FORTIFICATIONS if challenge.capital_advantage else ()


TAKE_CLAIMED = "take_claimed"
STAKE_UNCLAIMED = "stake_unclaimed"


@dataclass(frozen=True)
class CompensationOffer:
    """SNS-GC-7, SNS-AMB-6, SNS-AMB-7: what a defender of settled land or a Capital may take
    after beating the challenger.

    * ``take_claimed``: one of ``claimed_choices`` (the challenger's claimed Territories
      nearest the contested one; a tie is the beneficiary's pick).
    * ``stake_unclaimed``: ``unclaimed_count`` free Territories: all of ``unclaimed_required``
      plus the rest picked from ``unclaimed_tied``.

    ``choices`` lists the feasible ones; empty means no compensation is possible.
    """

    beneficiary: PlayerId
    from_player: PlayerId
    contested: TerritoryId
    claimed_choices: tuple[TerritoryId, ...]
    claimed_distance: int | None
    unclaimed_required: tuple[TerritoryId, ...]
    unclaimed_tied: tuple[TerritoryId, ...]
    unclaimed_count: int

    @property
    def choices(self) -> tuple[str, ...]:
        found = []
        if self.claimed_choices:
            found.append(TAKE_CLAIMED)
        if self.unclaimed_count:
            found.append(STAKE_UNCLAIMED)
        return tuple(found)


def compensation_offer(
    cmap: CampaignMap, beneficiary: PlayerId, from_player: PlayerId, contested: TerritoryId
) -> CompensationOffer:
    """SNS-GC-7, SNS-AMB-6, SNS-AMB-7: the nearest claimed land of ``from_player`` (never
    settled land or a Capital) and the two nearest unclaimed Territories, by fewest border
    crossings from ``contested``. Land that cannot be reached over borders is not near."""
    dist = distances_from(cmap, contested)
    claimed = [t for t in cmap.owned_by(from_player, CLAIMED) if t in dist]
    best = min((dist[t] for t in claimed), default=None)
    claimed_choices = tuple(t for t in claimed if dist[t] == best)
    free = sorted((t for t in cmap.unclaimed() if t in dist),
                  key=lambda t: (dist[t], cmap.territories.index(t)))
    count = min(2, len(free))
    required: tuple[TerritoryId, ...] = ()
    tied: tuple[TerritoryId, ...] = ()
    if count:
        edge = dist[free[count - 1]]
        required = tuple(t for t in free if dist[t] < edge)
        tied = tuple(t for t in free if dist[t] == edge)
        if len(required) + len(tied) == count:
            required, tied = required + tied, ()
    return CompensationOffer(
        beneficiary=beneficiary,
        from_player=from_player,
        contested=contested,
        claimed_choices=claimed_choices,
        claimed_distance=best,
        unclaimed_required=required,
        unclaimed_tied=tied,
        unclaimed_count=count,
    )


def apply_compensation(
    state: CampaignState,
    offer: CompensationOffer,
    choice: str | None,
    territories: Collection[TerritoryId] = (),
) -> tuple[CampaignState, tuple[TerritoryChange, ...]]:
    """SNS-GC-7, SNS-AMB-4, SNS-AMB-6, SNS-AMB-7: carry out the beneficiary's choice.
    ``choice`` None declines. For ``take_claimed`` name one Territory when there is a tie; for
    ``stake_unclaimed`` name the tied ones picked (the required ones may be named or not)."""
    if choice is None:
        return state, ()
    if choice not in offer.choices:
        raise RuleViolation(
            "SNS-GC-7: that compensation is not possible here"
            + (f"; choose {' or '.join(offer.choices)}." if offer.choices else "; none is.")
        )
    cmap = state.map
    picked = list(dict.fromkeys(territories))
    if choice == TAKE_CLAIMED:
        if not picked and len(offer.claimed_choices) == 1:
            picked = [offer.claimed_choices[0]]
        if len(picked) != 1 or picked[0] not in offer.claimed_choices:
            raise RuleViolation(
                "SNS-GC-7: take exactly one of the nearest claimed Territories: "
                + ", ".join(cmap.name(t) for t in offer.claimed_choices) + "."
            )
        target = picked[0]
        if cmap.holding(target) != Holding(CLAIMED, offer.from_player):
            raise RuleViolation(f"SNS-GC-7: {cmap.name(target)} is no longer claimed.")
        changes = (_change(cmap, target, Holding(CLAIMED, offer.beneficiary), "compensation",
                           "SNS-GC-7"),)
        return _apply(state, changes), changes
    extra = [t for t in picked if t not in offer.unclaimed_required]
    wanted = offer.unclaimed_count - len(offer.unclaimed_required)
    if len(extra) != wanted or any(t not in offer.unclaimed_tied for t in extra):
        raise RuleViolation(
            f"SNS-GC-7: stake {offer.unclaimed_count} of the nearest unclaimed Territories"
            + (f"; pick {wanted} of " + ", ".join(cmap.name(t) for t in offer.unclaimed_tied)
               if offer.unclaimed_tied else "")
            + "."
        )
    chosen = [*offer.unclaimed_required, *extra]
    for t in chosen:
        if cmap.holding(t).state != UNCLAIMED:
            raise RuleViolation(f"SNS-GC-7: {cmap.name(t)} is no longer unclaimed.")
    changes = tuple(
        _change(cmap, t, Holding(CLAIMED, offer.beneficiary), "compensation", "SNS-GC-7")
        for t in sorted(chosen, key=cmap.territories.index)
    )
    return _apply(state, changes), changes


@dataclass(frozen=True)
class ChallengeOutcome:
    """What a challenge game did to the campaign (SNS-GC-6a..6d).

    ``winners`` and ``losers`` are the campaign players who earn points (see
    ``points.game_points``); an AI outside the campaign earns nothing. ``beneficiary`` is who
    gained by the matrix row (or would have, when ``declined``). After a lost Capital,
    ``new_capital_for`` must pick one of ``capital_choices`` (SNS-CAP-3); ``last_land_lost``
    names a player left with nothing (SNS-CAP-4) and ``rejoin`` says they come back as new.
    """

    state: CampaignState
    challenge: Challenge
    result: str
    changes: tuple[TerritoryChange, ...]
    winners: tuple[PlayerId, ...]
    losers: tuple[PlayerId, ...]
    beneficiary: PlayerId | None = None
    declined: bool = False
    compensation: CompensationOffer | None = None
    new_capital_for: PlayerId | None = None
    capital_choices: tuple[TerritoryId, ...] = ()
    last_land_lost: PlayerId | None = None
    rejoin: bool = False
    drawn: tuple[PlayerId, ...] = ()

    @property
    def draw(self) -> bool:
        return self.result == DRAW


def resolve_challenge(
    state: CampaignState,
    challenge: Challenge,
    result: str,
    options: Options = DEFAULT_OPTIONS,
    decline: bool | None = None,
    also_won: Sequence[PlayerId] = (),
    also_lost: Sequence[PlayerId] = (),
) -> ChallengeOutcome:
    """SNS-GC-6a..6d, SNS-GC-7, SNS-CAP-3, SNS-CAP-4 with SNS-AMB-4, -5, -9, -10, -12, -13.

    ``result`` is the challenger's: win, loss or draw.

    * 6a unclaimed: a win settles it for the challenger; a loss gives it to the opponent as
      claimed (an AI outside the campaign takes nothing: it stays unclaimed).
    * 6b claimed: a win moves the claim to the challenger; a loss settles it for its holder.
    * 6c settled and 6d Capital: a win makes it the challenger's claim (a lost Capital must be
      replaced); a loss keeps it and offers the defender compensation (``compensation``).

    The outcome applies unless its beneficiary declines (``decline``); with
    ``outcomes_optional`` the beneficiary must say yes or no. A draw changes nothing. Every
    winner gets a fortified Capital back (SNS-AMB-12). ``also_won``/``also_lost`` add the other
    players of a game with more than two sides (SNS-AMB-10): they earn points but the land
    passes only between challenger and defender.
    """
    if result not in RESULTS:
        raise RuleViolation(f"SNS-RES-5: a game ends in a win, a loss or a draw, not {result!r}.")
    cmap = state.map
    if cmap.holding(challenge.territory) != challenge.before:
        raise RuleViolation(
            f"SNS-GC-6: {cmap.name(challenge.territory)} changed since the challenge was issued."
        )
    c, o = challenge.challenger, challenge.defender
    members = {p.id for p in state.players}
    if result == DRAW:
        drawn = tuple(p for p in (c, o, *also_won, *also_lost) if p in members)
        return ChallengeOutcome(state, challenge, result, (), (), (), drawn=drawn)
    winner, loser = (c, o) if result == WIN else (o, c)
    winners = tuple(p for p in (winner, *also_won) if p in members)
    losers = tuple(p for p in (loser, *also_lost) if p in members)
    t = challenge.territory
    before = challenge.before
    after: Holding | None = None
    beneficiary: PlayerId | None = winner
    if result == WIN:
        after = Holding(SETTLED, c) if before.state == UNCLAIMED else Holding(CLAIMED, c)
    elif before.state == UNCLAIMED:
        after = Holding(CLAIMED, o) if o is not None else None
        beneficiary = o
    elif before.state == CLAIMED:
        after = Holding(SETTLED, o)
    if after is not None:
        if options.outcomes_optional and decline is None:
            raise RuleViolation(
                f"SNS-AMB-4: in this campaign {beneficiary} must say whether they take "
                f"{cmap.name(t)} as {STATE_NAMES[after.state].lower()} land."
            )
    declined = bool(decline) and after is not None
    changes: tuple[TerritoryChange, ...] = ()
    if after is not None and not declined:
        cause = "challenge_win" if result == WIN else "challenge_loss"
        changes = (_change(cmap, t, after, cause, challenge.row),)
    new_state = _apply(state, changes)
    for w in winners:  # SNS-CAP-3, SNS-AMB-12: any win restores the Capital advantage.
        new_state = new_state.with_player(replace(new_state.player(w), capital_fortified=True))
    outcome = ChallengeOutcome(
        new_state, challenge, result, changes, winners, losers, beneficiary, declined
    )
    if result == LOSS and before.state in (SETTLED, CAPITAL) and o is not None:
        offer = compensation_offer(new_state.map, o, c, t)
        return replace(outcome, compensation=None if declined else offer)
    if result == WIN and before.state == CAPITAL and changes and o is not None:
        return _capital_lost(outcome, o, options)
    return outcome


def _capital_lost(
    outcome: ChallengeOutcome, player: PlayerId, options: Options
) -> ChallengeOutcome:
    """SNS-CAP-3, SNS-CAP-4, SNS-AMB-13."""
    state = outcome.state
    p = replace(state.player(player), capital_fortified=False)
    remaining = state.map.owned_by(player, SETTLED, CLAIMED)
    if remaining:
        return replace(outcome, state=state.with_player(p), new_capital_for=player,
                       capital_choices=remaining)
    p = replace(p, eliminated=True)
    return replace(outcome, state=state.with_player(p), last_land_lost=player,
                   rejoin=options.on_last_territory_lost == REJOIN_AS_NEW)


def name_new_capital(
    state: CampaignState, player: PlayerId, territory: TerritoryId
) -> tuple[CampaignState, TerritoryChange]:
    """SNS-CAP-3: after losing the Capital, the player makes one of their settled or claimed
    Territories the new Capital; it stays unfortified until the player wins a game."""
    p = state.player(player)
    cmap = state.map
    if capital_of(cmap, p.id) is not None:
        raise RuleViolation(f"SNS-CAP-3: {p.id} still has a Capital.")
    if territory not in cmap.owned_by(p.id, SETTLED, CLAIMED):
        raise RuleViolation(
            f"SNS-CAP-3: the new Capital must be one of {p.id}'s settled or claimed "
            "Territories."
        )
    change = _change(cmap, territory, Holding(CAPITAL, p.id), "capital_relocation", "SNS-CAP-3")
    return _apply(state, (change,)), change


# --- Kings (SNS-KING-*) --------------------------------------------------------------------------


@dataclass(frozen=True)
class KingLoss:
    """SNS-KING-3: what a dead King takes to the grave, and whether an heir must be named."""

    king: str
    titles: frozenset[str]
    crate_items: tuple[CrateItem, ...]
    heir_needed: bool


def king_dies(state: CampaignState, player: PlayerId) -> tuple[CampaignState, KingLoss]:
    """SNS-KING-3, SNS-TITLE-G4, SNS-CRATE-7: the King dies; every Title and crate item he
    gained is gone. Land, points and the Capital flag stay. A player with land left names an
    heir (``crown_heir``); one without falls under SNS-CAP-4."""
    p = state.player(player)
    if p.king is None:
        raise RuleViolation(f"SNS-KING-3: {p.id} has no King on the throne.")
    loss = KingLoss(
        king=p.king.name,
        titles=p.king.titles,
        crate_items=p.king.crate_items,
        heir_needed=bool(state.map.owned_by(p.id)),
    )
    dead = replace(p, king=None, past_kings=(*p.past_kings, p.king.name))
    return state.with_player(dead), loss


def crown_heir(state: CampaignState, player: PlayerId, name: str) -> CampaignState:
    """SNS-KING-3, SNS-KING-7: the heir takes the throne under a new name, with no Titles and
    no crate items; the kingdom keeps its name."""
    p = state.player(player)
    if p.king is not None:
        raise RuleViolation(f"SNS-KING-3: {p.id} already has a living King, {p.king.name}.")
    if not state.map.owned_by(p.id):
        raise RuleViolation(f"SNS-CAP-4: {p.id} holds no land, so there is no throne to take.")
    clean = name.strip()
    if not clean:
        raise RuleViolation("SNS-KING-3: the new King needs a name.")
    if clean.casefold() in {n.casefold() for n in p.past_kings}:
        raise RuleViolation(f"SNS-KING-3: the heir needs a new name, not {clean}.")
    return state.with_player(replace(p, king=King(clean, reign=len(p.past_kings) + 1)))


@dataclass(frozen=True)
class KingFate:
    """SNS-KING-3..5, SNS-AMB-23, SNS-AMB-25: what a King's end-of-game outcome means for the
    campaign records."""

    outcome: str
    game_lost: bool
    titles_lost: bool
    may_take_title: bool
    may_carry_crate_item: bool
    new_name_needed: bool


def king_fate(outcome: str) -> KingFate:
    """SNS-KING-3, SNS-KING-4, SNS-KING-5: a dead King loses the game and everything he carried,
    with no Title from this game (SNS-AMB-25) and an heir to name; a King who surrendered (and
    was accepted) or fled the table (SNS-AMB-23) survives but the game is lost; a King alive at
    the end may have won, lost or drawn."""
    if outcome not in KING_OUTCOMES:
        raise RuleViolation(f"SNS-STAT-0f: unknown King outcome {outcome!r}.")
    dead = outcome == DEAD
    return KingFate(
        outcome=outcome,
        game_lost=outcome != ALIVE,
        titles_lost=dead,
        may_take_title=not dead,
        may_carry_crate_item=not dead,
        new_name_needed=dead,
    )


WOUND_IGNORED = "ignored"
KNOCKED_OUT = "unconscious"
KILLED = "dead"
#: SNS-KING-6: turns an unconscious King sits out (die timer).
UNCONSCIOUS_TURNS = 3


def fatal_wound(unconscious: bool, hero_king: bool = False, can_ignore: bool = False) -> str:
    """SNS-KING-5, SNS-KING-6: a wound that would kill the King. An effect that ignores the
    wound (Divine Intervention, a Wish, The Undying, The Honorable) saves him outright; the Hero
    King upgrade knocks him out for ``UNCONSCIOUS_TURNS`` instead (and is spent), but a King
    knocked out while already unconscious dies."""
    if can_ignore:
        return WOUND_IGNORED
    if hero_king and not unconscious:
        return KNOCKED_OUT
    return KILLED


@dataclass(frozen=True)
class StartDeclaration:
    """SNS-KING-2, SNS-TITLE-G3, SNS-CRATE-6: the King's start-of-game bonus."""

    player: PlayerId
    title: str | None = None
    crate_item: str | None = None


def declare_start_bonus(
    player: Player,
    title: str | None = None,
    crate_item: str | None = None,
    options: Options = DEFAULT_OPTIONS,
) -> StartDeclaration:
    """SNS-KING-2, SNS-TITLE-G3, SNS-CRATE-6, SNS-AMB-21: before play the King may use one
    earned Title or one carried crate item (with ``start_bonus_slots`` 2: one of each)."""
    if player.king is None:
        raise RuleViolation(f"SNS-KING-3: {player.id} must name the new King first.")
    if title is not None and title not in player.king.titles:
        raise RuleViolation(f"SNS-TITLE-G3: King {player.king.name} does not hold {title}.")
    if crate_item is not None and crate_item not in {i.name for i in player.king.crate_items}:
        raise RuleViolation(
            f"SNS-CRATE-6: King {player.king.name} carries no crate item named {crate_item}."
        )
    if title is not None and crate_item is not None and options.start_bonus_slots < 2:
        raise RuleViolation(
            "SNS-KING-2: use one Title or one crate item at the start of a game, not both."
        )
    return StartDeclaration(player.id, title, crate_item)


AVALONIAN = "avalonian"
PAGANITE = "paganite"
DAMNED = "damned"
FACTIONS: tuple[str, ...] = (AVALONIAN, PAGANITE, DAMNED)


@dataclass(frozen=True)
class Announcement:
    """SNS-KING-7: what a player announces at setup."""

    king: str
    kingdom: str
    faction: str


def announce(player: Player, faction: str) -> Announcement:
    """SNS-KING-7: each player names the King, the Kingdom and the Faction at setup; the
    kingdom's name outlives a succession, the King's does not."""
    if faction not in FACTIONS:
        raise RuleViolation(f"SNS-KING-7: {faction!r} is not a Faction.")
    if player.king is None:
        raise RuleViolation(f"SNS-KING-3: {player.id} must name the new King first.")
    kingdom = player.kingdom_name or player.name or player.id
    return Announcement(player.king.name, kingdom, faction)


# --- new players (SNS-NEW-*) ---------------------------------------------------------------------


@dataclass(frozen=True)
class NewPlayerProposal:
    """SNS-NEW-2..5: land proposed for a newcomer, for the GM to accept or change.

    ``reference`` is the player with the least land; ``settled``/``claimed`` the entitlement;
    ``from_unclaimed`` and ``taken`` (Territory, former holder) where the land comes from;
    ``capital`` the Territory that becomes the Capital; ``state`` the campaign with all of it
    applied; ``notes`` what the GM should look at.
    """

    player: PlayerId
    reference: PlayerId
    settled: int
    claimed: int
    from_unclaimed: tuple[TerritoryId, ...]
    taken: tuple[tuple[TerritoryId, PlayerId], ...]
    capital: TerritoryId
    changes: tuple[TerritoryChange, ...]
    state: CampaignState
    notes: tuple[str, ...] = ()


def propose_new_player(
    state: CampaignState,
    newcomer: Player,
    options: Options = DEFAULT_OPTIONS,
    anchor: TerritoryId | None = None,
) -> NewPlayerProposal:
    """SNS-NEW-1..5, SNS-AMB-3, SNS-AMB-17, SNS-CAP-4: land for a player joining a running
    campaign (or coming back after losing everything, with ``rejoin_as_new``).

    The reference is the active player with the least settled plus claimed land (the Capital
    counted as settled by default); on a tie, the one with fewer settled. The newcomer gets as
    many settled and as many claimed Territories. Unclaimed land comes first, filling settled
    places first, the nearest to ``anchor`` (default: the unclaimed Territory furthest from
    everybody's land). Then claimed Territories are taken one by one from whoever holds the
    most land at that moment; they arrive settled while settled places remain, else claimed.
    One settled (else claimed) Territory becomes the Capital. The result is a proposal: the GM
    may change any of it (SNS-NEW-5).
    """
    cmap = state.map
    returning = newcomer.id in {p.id for p in state.players}
    if returning:
        old = state.player(newcomer.id)
        if not old.eliminated or cmap.owned_by(old.id):
            raise RuleViolation(f"SNS-NEW-1: {newcomer.id} already plays in this campaign.")
    if newcomer.king is None or not newcomer.king.name.strip():
        raise RuleViolation("SNS-KING-7: the new player must name their King.")
    others = [p for p in state.active() if p.id != newcomer.id and cmap.owned_by(p.id)]
    if not others:
        raise RuleViolation("SNS-NEW-2: there is no player holding land to measure against.")
    counts = {p.id: holding_count(cmap, p.id, options) for p in others}
    reference = min(others, key=lambda p: (counts[p.id].land, counts[p.id].settled_total))
    ref = counts[reference.id]
    settled_slots = ref.settled_total
    claimed_slots = ref.claimed
    notes: list[str] = []
    tied = [p.id for p in others if (counts[p.id].land, counts[p.id].settled_total)
            == (ref.land, ref.settled_total) and p.id != reference.id]
    if tied:
        notes.append(f"{reference.id} and {', '.join(tied)} hold the same land; either gives "
                     "the same entitlement.")
    need = settled_slots + claimed_slots
    free = cmap.unclaimed()
    if anchor is None and free:
        owned = [t for t in cmap.territories if cmap.holdings[t].owner is not None]
        def remoteness(t: TerritoryId) -> int:
            dist = distances_from(cmap, t)
            return min((dist.get(o, len(cmap.territories)) for o in owned),
                       default=len(cmap.territories))
        anchor = max(free, key=lambda t: (remoteness(t), -cmap.territories.index(t)))
    if anchor is not None:
        cmap.holding(anchor)
    dist = distances_from(cmap, anchor) if anchor is not None else {}
    far = len(cmap.territories) + 1

    def nearness(t: TerritoryId) -> tuple[int, int]:
        return (dist.get(t, far), cmap.territories.index(t))

    from_unclaimed = tuple(sorted(free, key=nearness)[:need])
    new: dict[TerritoryId, str] = {}
    for t in from_unclaimed:
        new[t] = SETTLED if sum(1 for s in new.values() if s == SETTLED) < settled_slots \
            else CLAIMED
    taken: list[tuple[TerritoryId, PlayerId]] = []
    work = cmap
    while len(new) < need:
        donors = [p for p in others if work.owned_by(p.id, CLAIMED)]
        if not donors:
            notes.append("Not enough land: no unclaimed land and no claimed land left to take.")
            break
        most = max(holding_count(work, p.id, options).land for p in donors)
        top = [p for p in donors if holding_count(work, p.id, options).land == most]
        if len(top) > 1:
            notes.append(f"{', '.join(p.id for p in top)} tie for the most land; the GM or the "
                         f"newcomer chooses (proposed: {top[0].id}).")
        donor = top[0]
        target = min(work.owned_by(donor.id, CLAIMED), key=nearness)
        taken.append((target, donor.id))
        new[target] = SETTLED if sum(1 for s in new.values() if s == SETTLED) < settled_slots \
            else CLAIMED
        work = work.with_holdings({target: Holding(new[target], newcomer.id)})
    if not new:
        raise RuleViolation("SNS-NEW-3: there is no land to give the new player.")
    order = [t for t in cmap.territories if t in new]
    settled_ones = [t for t in order if new[t] == SETTLED]
    pool = settled_ones or order
    capital = anchor if anchor in pool else pool[0]
    changes = tuple(
        _change(cmap, t, Holding(CAPITAL if t == capital else new[t], newcomer.id),
                "new_player", "SNS-NEW-4" if t == capital else "SNS-NEW-3")
        for t in order
    )
    player = replace(newcomer, eliminated=False, capital_fortified=True)
    new_state = _apply(state, changes)
    if returning:
        new_state = new_state.with_player(player)
    else:
        new_state = replace(new_state, players=(*new_state.players, player))
    return NewPlayerProposal(
        player=newcomer.id,
        reference=reference.id,
        settled=settled_slots,
        claimed=claimed_slots,
        from_unclaimed=from_unclaimed,
        taken=tuple(taken),
        capital=capital,
        changes=changes,
        state=new_state,
        notes=tuple(notes),
    )


# --- supply lines (SNS-SUP-*) --------------------------------------------------------------------

SUPPLY_WOOD = "WOOD"
SUPPLY_STONE = "STONE"
SUPPLY_FOOD = "FOOD"
SUPPLY_GOLD = "GOLD"
SUPPLY_IRON = "IRON"
SUPPLY_VILLAGER = "VILLAGER"

#: SNS-SUP-2: one of these per claimed Territory.
CLAIMED_SUPPLY: Mapping[str, Bundle] = {
    SUPPLY_WOOD: Bundle(wood=1),
    SUPPLY_STONE: Bundle(stone=1),
    SUPPLY_FOOD: Bundle(food=1),
}
#: SNS-SUP-3, SNS-SUP-4: one of these per settled Territory; the Villager is a unit.
SETTLED_SUPPLY: Mapping[str, Bundle] = {
    SUPPLY_VILLAGER: Bundle(villagers=1),
    SUPPLY_GOLD: Bundle(gold=1),
    SUPPLY_IRON: Bundle(iron=2),
    SUPPLY_FOOD: Bundle(food=3),
    SUPPLY_STONE: Bundle(stone=3),
    SUPPLY_WOOD: Bundle(wood=3),
}

SupplyPick = str | Bundle


@dataclass(frozen=True)
class SupplySlots:
    """SNS-SUP-1..3: the Territories that each give one supply-line choice."""

    claimed: tuple[TerritoryId, ...]
    settled: tuple[TerritoryId, ...]


def supply_slots(
    cmap: CampaignMap, player: PlayerId, options: Options = DEFAULT_OPTIONS
) -> SupplySlots:
    """SNS-SUP-1..3, SNS-AMB-3: one choice per claimed and per settled Territory; the Capital
    gives a settled choice unless the group says it is not settled land."""
    settled = tuple(t for t in cmap.owned_by(player) if counts_as_settled(cmap.holding(t), options))
    return SupplySlots(claimed=cmap.owned_by(player, CLAIMED), settled=settled)


def supply_options(
    cmap: CampaignMap, territory: TerritoryId, options: Options = DEFAULT_OPTIONS
) -> Mapping[str, Bundle]:
    """SNS-SUP-2, SNS-SUP-3: the choices one Territory offers (none for unclaimed land, nor for
    a Capital the group does not count as settled). Favor never comes from supply lines."""
    holding = cmap.holding(territory)
    if holding.state == CLAIMED:
        return CLAIMED_SUPPLY
    if counts_as_settled(holding, options):
        return SETTLED_SUPPLY
    return {}


def _supply_value(kind: str, pick: SupplyPick) -> Bundle:
    table = CLAIMED_SUPPLY if kind == CLAIMED else SETTLED_SUPPLY
    rule = "SNS-SUP-2" if kind == CLAIMED else "SNS-SUP-3"
    allowed = "; ".join(b.describe() for b in table.values())
    if isinstance(pick, Bundle):
        if pick in table.values():
            return pick
        reason = (
            "favor never comes from supply lines" if pick.favor
            else "one option per Territory, not split or combined"
        )
        raise RuleViolation(
            f"{rule}: {pick.describe()} is not a {kind} Territory's supply ({reason}); "
            f"choose one of: {allowed}."
        )
    if pick not in table:
        raise RuleViolation(
            f"{rule}: {pick} is not a {kind} Territory's supply; choose one of: {allowed}."
        )
    return table[pick]


def supply_bundle(
    claimed_count: int,
    settled_count: int,
    claimed_picks: Sequence[SupplyPick],
    settled_picks: Sequence[SupplyPick],
) -> Bundle:
    """SNS-SUP-1..4: what a player's supply-line choices add, by Territory kind. Every choice
    is one whole option (a code such as ``"IRON"`` or the exact ``Bundle`` it gives); a player
    may leave Territories unused but cannot choose more often than they hold Territories."""
    if len(claimed_picks) > claimed_count:
        raise RuleViolation(
            f"SNS-SUP-1: {len(claimed_picks)} claimed-Territory choices, but only "
            f"{claimed_count} claimed Territories."
        )
    if len(settled_picks) > settled_count:
        raise RuleViolation(
            f"SNS-SUP-1: {len(settled_picks)} settled-Territory choices, but only "
            f"{settled_count} settled Territories."
        )
    total = NOTHING
    for pick in claimed_picks:
        total = total + _supply_value(CLAIMED, pick)
    for pick in settled_picks:
        total = total + _supply_value(SETTLED, pick)
    return total


@dataclass(frozen=True)
class SupplyLine:
    """One Territory's supply-line choice and what it gives (a line of the game-start sheet)."""

    territory: TerritoryId
    kind: str
    option: str
    bundle: Bundle


def supply_from_territories(
    cmap: CampaignMap,
    player: PlayerId,
    picks: Sequence[tuple[TerritoryId, SupplyPick]],
    options: Options = DEFAULT_OPTIONS,
) -> tuple[SupplyLine, ...]:
    """SNS-SUP-1..4: one choice per named Territory of the player; a Territory chosen twice,
    someone else's, or unclaimed is refused."""
    seen: set[TerritoryId] = set()
    lines = []
    slots = supply_slots(cmap, player, options)
    for territory, pick in picks:
        holding = cmap.holding(territory)
        if territory in seen:
            raise RuleViolation(
                f"SNS-SUP-1: {cmap.name(territory)} gives one supply choice, not two."
            )
        seen.add(territory)
        if holding.owner != player:
            raise RuleViolation(f"SNS-SUP-1: {cmap.name(territory)} is not {player}'s land.")
        if territory in slots.claimed:
            kind = CLAIMED
        elif territory in slots.settled:
            kind = SETTLED
        else:
            raise RuleViolation(
                f"SNS-AMB-3: in this campaign the Capital {cmap.name(territory)} gives no "
                "supply line."
            )
        bundle = _supply_value(kind, pick)
        table = CLAIMED_SUPPLY if kind == CLAIMED else SETTLED_SUPPLY
        code = next(k for k, v in table.items() if v == bundle)
        lines.append(SupplyLine(territory, kind, code, bundle))
    return tuple(lines)


def supply_assignments(claimed_count: int, settled_count: int) -> int:
    """SNS-SUP-1..3: how many ways to choose a supply option for every Territory."""
    return len(CLAIMED_SUPPLY) ** claimed_count * len(SETTLED_SUPPLY) ** settled_count


def supply_bundles(claimed_count: int, settled_count: int) -> int:
    """SNS-SUP-1..3: how many different multisets of choices there are (order of Territories
    of one kind does not matter)."""
    c, s = len(CLAIMED_SUPPLY), len(SETTLED_SUPPLY)
    return comb(claimed_count + c - 1, c - 1) * comb(settled_count + s - 1, s - 1)


def supply_maxima(claimed_count: int, settled_count: int) -> Bundle:
    """SNS-SUP-1..4: the most of each resource (and of Villagers) supply lines alone can give."""
    best = {
        name: claimed_count * max(getattr(b, name) for b in CLAIMED_SUPPLY.values())
        + settled_count * max(getattr(b, name) for b in SETTLED_SUPPLY.values())
        for name in Bundle().as_dict()
    }
    return Bundle(**best)
