"""Mighty Kingdoms: battles, army lists, Unit Strength, Wizard's quests and magical artefacts.

Pure rules over frozen dataclasses. Nothing here touches Django, the database or the clock, and
nothing rolls dice: every die comes in as an argument, and where a person would choose (which
ship sinks, where a token retreats) the choice comes in too and is validated. The few automatic
strategies (``suggest_allocation``, ``suggest_naval_losses``) are deterministic.

Map information arrives as plain data (tile labels, controlling kingdom ids, neighbour labels and
whether an army or a ship may enter them); no geometry is computed here.

Rule IDs refer to the Mighty Kingdoms digest (``rules/mighty-kingdoms.md``); every public function
cites the rules it implements. Illegal input raises ``BattleError`` with a message a player can act
on, ending with the rule that forbids it.

Areas, in file order:

1. Tokens and battle selection (MK-BSEL, MK-AMB-40)
2. Battle type (MK-BTYPE, MK-AMB-11, MK-AMB-13, MK-LAND-4)
3. Simple battles (MK-SIMPLE, MK-AMB-1/3/4/5)
4. Naval battles (MK-NAVAL, MK-AMB-12)
5. Land/water battles (MK-LW)
6. Slaughter (MK-LAND-4, MK-AMB-6)
7. Board size and defended tiles (MK-BOARD, MK-DEF, MK-AMB-26/27)
8. Unit Strength (MK-US, MK-REFORM-5..7, MK-AMB-31)
9. Results (MK-RESULT, MK-AMB-6/14/15/16/28/35)
10. Army lists (MK-SETUP-6/7, MK-RECRUIT-4..6, MK-ADV-2..5)
11. Wizard's quests and magical artefacts (MK-QUEST, MK-ART, MK-AMB-22/37)
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Iterable, Mapping, Sequence, TypeAlias, TypeVar

KingdomId: TypeAlias = int | str
"""A kingdom is identified by whatever the caller uses (a primary key or a slug)."""

_E = TypeVar("_E", bound=StrEnum)


class BattleError(ValueError):
    """An illegal battle, list or quest input; the message cites the rule (MK-...) that forbids
    it, for example: That army is on its side and cannot be targeted (MK-SIMPLE-1)."""


def _enum(kind: type[_E], value: object, what: str, rule: str) -> _E:
    try:
        return kind(value)
    except ValueError:
        allowed = ", ".join(member.value for member in kind)
        raise BattleError(
            f"{value!r} is not a known {what}; use one of {allowed} ({rule})."
        ) from None


def _die(value: object, rule: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
        raise BattleError(f"A die shows 1 to 6, not {value!r} ({rule}).")
    return value


# ---------------------------------------------------------------------------------------------
# 1. Tokens and battle selection
# ---------------------------------------------------------------------------------------------


class TokenKind(StrEnum):
    """MK-SHIP-2: an army, a ship, or a ship carrying one army (a pair, moving as one token)."""

    ARMY = "army"
    SHIP = "ship"
    PAIR = "pair"


class Side(StrEnum):
    """MK-BSEL-6, MK-AMB-3: the kingdom that chose the battle is the attacker."""

    ATTACKER = "attacker"
    DEFENDER = "defender"

    @property
    def other(self) -> Side:
        return Side.DEFENDER if self is Side.ATTACKER else Side.ATTACKER


class Result(StrEnum):
    """MK-RESULT-1..3: a kingdom's battle result."""

    WIN = "win"
    LOSS = "loss"
    DRAW = "draw"


@dataclass(frozen=True)
class Token:
    """An army, ship or pair in a tile (MK-BSEL-3, MK-SHIP-2).

    ``upright`` is False for a token lying on its side; a pair lies on its side when its army does
    (MK-AMB-15). ``id`` must be unique within a tile (e.g. ``"red-2"``), since two kingdoms may
    both number an army 2.
    """

    id: str
    kingdom: KingdomId
    kind: TokenKind = TokenKind.ARMY
    upright: bool = True

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", _enum(TokenKind, self.kind, "token kind", "MK-SHIP-2"))

    @property
    def is_ship(self) -> bool:
        """A lone ship or a pair (MK-SHIP-2: a pair moves and fights as a ship)."""
        return self.kind is not TokenKind.ARMY

    @property
    def is_unpaired_army(self) -> bool:
        return self.kind is TokenKind.ARMY


@dataclass(frozen=True)
class TileForces:
    """One tile's label, controller and tokens (MK-BSEL-1). The controller is None for open
    water and wizard's towers, which nobody controls (MK-RES-2, MK-WIZ-4)."""

    label: str
    controller: KingdomId | None
    tokens: tuple[Token, ...] = ()

    def __post_init__(self) -> None:
        tokens = tuple(self.tokens)
        object.__setattr__(self, "tokens", tokens)
        seen = Counter(token.id for token in tokens)
        doubled = sorted(token_id for token_id, count in seen.items() if count > 1)
        if doubled:
            raise BattleError(
                f"Tile {self.label} lists token {doubled[0]} more than once; give every token in "
                "a tile its own id (MK-BSEL-3)."
            )

    @property
    def kingdoms(self) -> tuple[KingdomId, ...]:
        """MK-BSEL-1: kingdoms with tokens here, in the order their tokens are listed."""
        return tuple(dict.fromkeys(token.kingdom for token in self.tokens))

    def tokens_of(self, kingdom: KingdomId) -> tuple[Token, ...]:
        return tuple(token for token in self.tokens if token.kingdom == kingdom)

    def upright_of(self, kingdom: KingdomId) -> tuple[Token, ...]:
        return tuple(token for token in self.tokens_of(kingdom) if token.upright)


def is_contested(tile: TileForces) -> bool:
    """MK-BSEL-5: a tile holds armies or ships of more than one kingdom."""
    return len(tile.kingdoms) > 1


def contested_tiles(tiles: Iterable[TileForces]) -> tuple[str, ...]:
    """MK-BSEL-5: labels of the tiles holding tokens of more than one kingdom."""
    return tuple(tile.label for tile in tiles if is_contested(tile))


def may_choose_battle_in(tile: TileForces, kingdom: KingdomId) -> bool:
    """MK-BSEL-1, MK-AMB-40: the kingdom has an upright army or ship here and an enemy has any."""
    has_upright = any(token.upright for token in tile.tokens_of(kingdom))
    has_enemy = any(token.kingdom != kingdom for token in tile.tokens)
    return has_upright and has_enemy


def choosers_in_tile(tile: TileForces) -> tuple[KingdomId, ...]:
    """MK-BSEL-1, MK-AMB-40: the kingdoms that may choose a battle in this tile."""
    return tuple(k for k in tile.kingdoms if may_choose_battle_in(tile, k))


def eligible_tiles(tiles: Iterable[TileForces], kingdom: KingdomId) -> tuple[str, ...]:
    """MK-BSEL-1: labels of the tiles where this kingdom may choose a battle."""
    return tuple(tile.label for tile in tiles if may_choose_battle_in(tile, kingdom))


def legal_opponents(tile: TileForces, chooser: KingdomId) -> tuple[KingdomId, ...]:
    """MK-BSEL-2: the enemy kingdoms the chooser may fight in this tile.

    Priority 1: if any enemy has an upright army or ship, only such enemies. Priority 2: among
    those, the tile's controller if it is one of them (then it is the only legal opponent).
    """
    if not may_choose_battle_in(tile, chooser):
        raise BattleError(
            f"Kingdom {chooser} cannot choose a battle in tile {tile.label}: it needs an upright "
            "army or ship there and an enemy in the tile (MK-BSEL-1)."
        )
    enemies = [k for k in tile.kingdoms if k != chooser]
    upright_enemies = [k for k in enemies if tile.upright_of(k)]
    allowed = upright_enemies or enemies
    if tile.controller is not None and tile.controller in allowed:
        return (tile.controller,)
    return tuple(allowed)


def validate_battle_choice(tile: TileForces, chooser: KingdomId, opponent: KingdomId) -> None:
    """MK-BSEL-1/2: raise unless the chooser may fight this opponent in this tile."""
    allowed = legal_opponents(tile, chooser)
    if opponent in allowed:
        return
    if opponent == chooser:
        raise BattleError("A kingdom cannot fight itself (MK-BSEL-2).")
    if opponent not in tile.kingdoms:
        raise BattleError(f"Kingdom {opponent} has no tokens in tile {tile.label} (MK-BSEL-2).")
    names = ", ".join(str(k) for k in allowed)
    raise BattleError(
        f"In tile {tile.label} kingdom {chooser} must fight {names}: an enemy with upright tokens "
        "comes first, and among those the tile's controller (MK-BSEL-2)."
    )


def battle_phase_over(tiles: Iterable[TileForces]) -> bool:
    """MK-BSEL-5, MK-AMB-40: the Battle phase ends when no kingdom has an eligible tile."""
    return not any(choosers_in_tile(tile) for tile in tiles)


def next_chooser(
    tiles: Sequence[TileForces],
    player_order: Sequence[KingdomId],
    previous: KingdomId | None = None,
) -> KingdomId | None:
    """MK-BSEL-1/5: whose turn it is to choose a battle, or None when the phase is over.

    Turns go round ``player_order`` starting with the first player (``previous=None``) or with
    the player after ``previous``; players without an eligible tile are skipped (MK-BSEL-5).
    """
    order = list(player_order)
    if len(set(order)) != len(order):
        raise BattleError("The player order lists a kingdom twice (MK-PORDER-1).")
    missing = [k for tile in tiles for k in tile.kingdoms if k not in order]
    if missing:
        raise BattleError(
            f"Kingdom {missing[0]} has tokens on the map but no place in the player order "
            "(MK-PORDER-1)."
        )
    if previous is None:
        start = 0
    elif previous in order:
        start = order.index(previous) + 1
    else:
        raise BattleError(f"Kingdom {previous} is not in the player order (MK-PORDER-1).")
    for step in range(len(order)):
        kingdom = order[(start + step) % len(order)]
        if eligible_tiles(tiles, kingdom):
            return kingdom
    return None


# ---------------------------------------------------------------------------------------------
# 2. Battle type
# ---------------------------------------------------------------------------------------------


class BattleKind(StrEnum):
    """MK-BTYPE-1, MK-LAND-4. A land battle is fought as Kings of War or Simple per MK-CFG-1."""

    NAVAL = "naval"
    LAND = "land"
    LAND_WATER = "land_water"
    SLAUGHTER = "slaughter"


@dataclass(frozen=True)
class BattleType:
    """The battle the chooser gets (``kind``), what it could have called (``legal_kinds``) and
    which tokens fight; every other token of the two kingdoms follows the result (MK-BSEL-4)."""

    kind: BattleKind
    legal_kinds: tuple[BattleKind, ...]
    chooser_fighters: tuple[str, ...]
    opponent_fighters: tuple[str, ...]


def fighting_tokens(tokens: Iterable[Token], kind: BattleKind) -> tuple[Token, ...]:
    """MK-BSEL-4, MK-AMB-11, MK-AMB-13: the tokens that fight in a battle of this kind.

    Only upright tokens fight. Naval: ships and pairs. Land: unpaired armies (a paired army is at
    sea). Land/water: every upright token. Slaughter: nobody.
    """
    upright = [token for token in tokens if token.upright]
    if kind is BattleKind.NAVAL:
        return tuple(token for token in upright if token.is_ship)
    if kind is BattleKind.LAND:
        return tuple(token for token in upright if token.is_unpaired_army)
    if kind is BattleKind.LAND_WATER:
        return tuple(upright)
    return ()


def legal_battle_kinds(
    tile: TileForces, chooser: KingdomId, opponent: KingdomId
) -> tuple[BattleKind, ...]:
    """MK-BTYPE-1/2 with the decision procedure of MK-AMB-11 (and MK-LAND-4, MK-AMB-13).

    1. Both have upright ships (lone or paired): naval may be called.
    2. Otherwise both have upright unpaired armies: land.
    3. Otherwise one side's upright tokens are only ships/pairs and the other's only unpaired
       armies: land/water.
    4. The opponent has nothing upright: slaughter (the only kind).
    """
    validate_battle_choice(tile, chooser, opponent)
    mine = tile.upright_of(chooser)
    theirs = tile.upright_of(opponent)
    if not theirs:
        return (BattleKind.SLAUGHTER,)
    kinds: list[BattleKind] = []
    if any(t.is_ship for t in mine) and any(t.is_ship for t in theirs):
        kinds.append(BattleKind.NAVAL)
    if any(t.is_unpaired_army for t in mine) and any(t.is_unpaired_army for t in theirs):
        kinds.append(BattleKind.LAND)
    elif (all(t.is_ship for t in mine) and all(t.is_unpaired_army for t in theirs)) or (
        all(t.is_unpaired_army for t in mine) and all(t.is_ship for t in theirs)
    ):
        kinds.append(BattleKind.LAND_WATER)
    return tuple(kinds)


def battle_type(
    tile: TileForces, chooser: KingdomId, opponent: KingdomId, *, call_naval: bool = False
) -> BattleType:
    """MK-BTYPE-1, MK-BTYPE-2, MK-AMB-11, MK-LAND-1: the battle fought when ``chooser`` picks
    ``opponent`` here. Every fighting token of each kingdom in the tile takes part, as one
    battle (MK-LAND-1, MK-BSEL-3); mixed sides follow MK-AMB-11 (MK-BTYPE-2).

    Naval is fought when the chooser calls it (``call_naval``) or when it is the only legal kind
    (e.g. a lone pair against a lone ship); otherwise the land or land/water battle of MK-AMB-11
    steps 2-3 applies, or a slaughter when the opponent has nothing upright.
    """
    kinds = legal_battle_kinds(tile, chooser, opponent)
    if call_naval:
        if BattleKind.NAVAL not in kinds:
            raise BattleError(
                "A naval battle needs upright ships (or pairs) on both sides (MK-BTYPE-1, "
                "MK-AMB-11)."
            )
        kind = BattleKind.NAVAL
    else:
        others = [k for k in kinds if k is not BattleKind.NAVAL]
        kind = others[0] if others else BattleKind.NAVAL
    return BattleType(
        kind=kind,
        legal_kinds=kinds,
        chooser_fighters=tuple(t.id for t in fighting_tokens(tile.tokens_of(chooser), kind)),
        opponent_fighters=tuple(t.id for t in fighting_tokens(tile.tokens_of(opponent), kind)),
    )


# ---------------------------------------------------------------------------------------------
# Outcomes shared by every battle type
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """MK-RESULT: each side's result, what decided it (``rule``) and each side's score on it:
    reductions caused (Simple), tokens sunk (naval), dice total (land/water)."""

    attacker: Result
    defender: Result
    rule: str
    attacker_score: int = 0
    defender_score: int = 0

    @property
    def winner(self) -> Side | None:
        if self.attacker is Result.WIN:
            return Side.ATTACKER
        if self.defender is Result.WIN:
            return Side.DEFENDER
        return None

    def result_of(self, side: Side) -> Result:
        return self.attacker if side is Side.ATTACKER else self.defender

    def by_kingdom(
        self, attacker: KingdomId, defender: KingdomId
    ) -> dict[KingdomId, Result]:
        """The per-kingdom results that ``battle_results`` takes (MK-RESULT)."""
        return {attacker: self.attacker, defender: self.defender}


def _decided(attacker_score: int, defender_score: int, rule: str) -> Outcome:
    if attacker_score > defender_score:
        results = (Result.WIN, Result.LOSS)
    elif attacker_score < defender_score:
        results = (Result.LOSS, Result.WIN)
    else:
        results = (Result.DRAW, Result.DRAW)
    return Outcome(results[0], results[1], rule, attacker_score, defender_score)


def _won_by(side: Side, rule: str, attacker_score: int = 0, defender_score: int = 0) -> Outcome:
    if side is Side.ATTACKER:
        return Outcome(Result.WIN, Result.LOSS, rule, attacker_score, defender_score)
    return Outcome(Result.LOSS, Result.WIN, rule, attacker_score, defender_score)


# ---------------------------------------------------------------------------------------------
# 3. Simple battles
# ---------------------------------------------------------------------------------------------


class DefenceMode(StrEnum):
    """MK-SIMPLE-8, MK-AMB-1: Defence recomputed after every hit (default) or fixed at the start."""

    DYNAMIC = "dynamic"
    FIXED = "fixed"


SIMPLE_POINTS_PER_HIT = 100
SIMPLE_MAX_POINTS = 500


@dataclass(frozen=True)
class SimpleArmy:
    """An army entering a Simple battle (MK-SIMPLE-1..3): roster points, this month's Defend
    (MK-AMB-7), upright or not."""

    id: str
    points: int = SIMPLE_MAX_POINTS
    defending: bool = False
    upright: bool = True


@dataclass(frozen=True)
class SimpleArmyState:
    """An army during a Simple battle. ``upright`` is fixed at the start (MK-AMB-5): an army on
    its side takes no part, gets no Defence (``start_defence`` 0) and cannot be targeted."""

    id: str
    start_points: int
    points: int
    defending: bool
    upright: bool
    start_defence: int

    @property
    def standing(self) -> bool:
        """Takes part and has not been destroyed (MK-SIMPLE-1, MK-SIMPLE-6)."""
        return self.upright and self.points > 0

    @property
    def destroyed(self) -> bool:
        """MK-SIMPLE-6: reduced to 0 points in this battle."""
        return self.upright and self.points == 0


@dataclass(frozen=True)
class SimpleSide:
    """One side's armies and its dice pool (MK-SIMPLE-4: the pool is not tied to armies)."""

    armies: tuple[SimpleArmyState, ...]
    dice: tuple[int, ...]
    used: tuple[bool, ...]

    def army(self, army_id: str) -> SimpleArmyState:
        for army in self.armies:
            if army.id == army_id:
                return army
        raise KeyError(army_id)

    @property
    def unused(self) -> tuple[int, ...]:
        """MK-SIMPLE-5: indices of the dice not yet allocated."""
        return tuple(i for i, used in enumerate(self.used) if not used)

    @property
    def standing(self) -> tuple[SimpleArmyState, ...]:
        return tuple(army for army in self.armies if army.standing)


@dataclass(frozen=True)
class SimpleStep:
    """One allocated die and its effect (MK-SIMPLE-5/6)."""

    number: int
    side: Side
    die_index: int
    die: int
    target: str
    target_defence: int
    hit: bool
    target_points_after: int
    destroyed: bool


@dataclass(frozen=True)
class SimpleBattle:
    """The state of a Simple battle (MK-SIMPLE); every change returns a new state."""

    attacker: SimpleSide
    defender: SimpleSide
    defence_mode: DefenceMode = DefenceMode.DYNAMIC
    steps: tuple[SimpleStep, ...] = ()

    def side(self, side: Side) -> SimpleSide:
        return self.attacker if side is Side.ATTACKER else self.defender


@dataclass(frozen=True)
class Allocation:
    """MK-SIMPLE-5: a die to allocate: which side, which die of its pool, which enemy army."""

    side: Side
    die_index: int
    target: str


def simple_defence(points: int, defending: bool = False) -> int:
    """MK-SIMPLE-2/3: Defence = points / 100, +1 for a Defend order this month (MK-AMB-7)."""
    return points // SIMPLE_POINTS_PER_HIT + (1 if defending else 0)


def _simple_side(armies: Sequence[SimpleArmy], dice: Sequence[int], side: Side) -> SimpleSide:
    armies = tuple(armies)
    seen = Counter(army.id for army in armies)
    doubled = [army_id for army_id, count in seen.items() if count > 1]
    if doubled:
        raise BattleError(f"Army {doubled[0]} is listed twice on the {side} side (MK-SIMPLE-2).")
    for army in armies:
        points = army.points
        if (
            isinstance(points, bool)
            or not isinstance(points, int)
            or points % SIMPLE_POINTS_PER_HIT
            or not SIMPLE_POINTS_PER_HIT <= points <= SIMPLE_MAX_POINTS
        ):
            raise BattleError(
                f"Army {army.id} has {points!r} points; Simple-battle armies have whole hundreds "
                "from 100 to 500 points (MK-SIMPLE-2, MK-SETUP-6)."
            )
    upright = [army for army in armies if army.upright]
    if not upright:
        raise BattleError(
            f"The {side} has no upright army, so there is no Simple battle to fight "
            "(MK-SIMPLE-1, MK-SIMPLE-2)."
        )
    values = tuple(_die(value, "MK-SIMPLE-4") for value in dice)
    if len(values) != len(upright):
        raise BattleError(
            f"The {side} rolls one die per upright army: {len(upright)} dice, not {len(values)} "
            "(MK-SIMPLE-4)."
        )
    states = tuple(
        SimpleArmyState(
            id=army.id,
            start_points=army.points,
            points=army.points,
            defending=army.defending and army.upright,
            upright=army.upright,
            start_defence=simple_defence(army.points, army.defending) if army.upright else 0,
        )
        for army in armies
    )
    return SimpleSide(armies=states, dice=values, used=(False,) * len(values))


def start_simple_battle(
    attacker_armies: Sequence[SimpleArmy],
    defender_armies: Sequence[SimpleArmy],
    attacker_dice: Sequence[int],
    defender_dice: Sequence[int],
    *,
    defence_mode: DefenceMode | str = DefenceMode.DYNAMIC,
) -> SimpleBattle:
    """MK-SIMPLE-1..4, MK-AMB-1/5: set up a Simple battle.

    Only upright armies take part; each gets Defence = points/100 (+1 for Defend). Each side
    rolls one die per upright army; the values come in here. ``defence_mode`` is the campaign's
    ``simple_defence`` option (MK-AMB-1).
    """
    return SimpleBattle(
        attacker=_simple_side(attacker_armies, attacker_dice, Side.ATTACKER),
        defender=_simple_side(defender_armies, defender_dice, Side.DEFENDER),
        defence_mode=_enum(DefenceMode, defence_mode, "Defence option", "MK-AMB-1"),
    )


def current_defence(battle: SimpleBattle, army: SimpleArmyState) -> int:
    """MK-SIMPLE-8, MK-AMB-1: the Defence a die is compared with right now."""
    if battle.defence_mode is DefenceMode.FIXED:
        return army.start_defence
    return simple_defence(army.points, army.defending)


def _can_allocate(battle: SimpleBattle, side: Side) -> bool:
    return bool(battle.side(side).unused) and bool(battle.side(side.other).standing)


def next_to_allocate(battle: SimpleBattle) -> Side | None:
    """MK-SIMPLE-5, MK-AMB-3: whose turn it is to allocate a die, or None when all are resolved.

    The attacker goes first, then the sides alternate. A side without unused dice, or with no
    enemy army left to target, is passed over, so the other side allocates the rest in a row.
    """
    first = battle.steps[-1].side.other if battle.steps else Side.ATTACKER
    for side in (first, first.other):
        if _can_allocate(battle, side):
            return side
    return None


def simple_battle_over(battle: SimpleBattle) -> bool:
    """MK-SIMPLE-5/9: every die is used, or the dice left have no enemy army to go to."""
    return next_to_allocate(battle) is None


def allocate(battle: SimpleBattle, side: Side | str, die_index: int, target: str) -> SimpleBattle:
    """MK-SIMPLE-5..8: allocate one die to one enemy army and resolve it at once.

    A die equal to or above the target's current Defence hits and takes 100 points; an army at 0
    points is destroyed (MK-SIMPLE-6). A destroyed army's unused die stays in its side's pool
    (MK-SIMPLE-7). Returns the new state.
    """
    side = _enum(Side, side, "battle side", "MK-BSEL-6")
    turn = next_to_allocate(battle)
    if turn is None:
        raise BattleError(
            "Every die has been resolved; the Simple battle is over (MK-SIMPLE-5, MK-SIMPLE-9)."
        )
    if side is not turn:
        raise BattleError(f"It is the {turn}'s turn to allocate a die (MK-SIMPLE-5).")
    own = battle.side(side)
    if isinstance(die_index, bool) or not isinstance(die_index, int) or not (
        0 <= die_index < len(own.dice)
    ):
        raise BattleError(
            f"The {side} has dice numbered 0 to {len(own.dice) - 1}; there is no die "
            f"{die_index!r} (MK-SIMPLE-4)."
        )
    if own.used[die_index]:
        raise BattleError(
            f"That die (a {own.dice[die_index]}) has already been used (MK-SIMPLE-5)."
        )
    enemy = battle.side(side.other)
    try:
        victim = enemy.army(target)
    except KeyError:
        if any(army.id == target for army in own.armies):
            raise BattleError(
                f"Army {target} is on your own side; dice go to an opposing army (MK-SIMPLE-5)."
            ) from None
        raise BattleError(
            f"Army {target} is not an enemy army in this battle (MK-SIMPLE-5)."
        ) from None
    if not victim.upright:
        raise BattleError(
            f"Army {target} is on its side and cannot be targeted (MK-SIMPLE-1, MK-AMB-5)."
        )
    if victim.destroyed:
        raise BattleError(
            f"Army {target} has been destroyed and cannot be targeted (MK-SIMPLE-6)."
        )
    value = own.dice[die_index]
    defence = current_defence(battle, victim)
    hit = value >= defence
    after = victim.points - SIMPLE_POINTS_PER_HIT if hit else victim.points
    new_victim = replace(victim, points=after)
    new_enemy = replace(
        enemy, armies=tuple(new_victim if a.id == target else a for a in enemy.armies)
    )
    new_own = replace(own, used=tuple(u or i == die_index for i, u in enumerate(own.used)))
    step = SimpleStep(
        number=len(battle.steps) + 1,
        side=side,
        die_index=die_index,
        die=value,
        target=target,
        target_defence=defence,
        hit=hit,
        target_points_after=after,
        destroyed=hit and after == 0,
    )
    sides = {side: new_own, side.other: new_enemy}
    return replace(
        battle,
        attacker=sides[Side.ATTACKER],
        defender=sides[Side.DEFENDER],
        steps=battle.steps + (step,),
    )


def hits_scored(battle: SimpleBattle, side: Side) -> int:
    """MK-SIMPLE-5: how many of this side's dice hit."""
    return sum(1 for step in battle.steps if step.side is side and step.hit)


def reductions_caused(battle: SimpleBattle, side: Side) -> int:
    """MK-SIMPLE-9: points of reduction this side caused, 100 per hit."""
    return SIMPLE_POINTS_PER_HIT * hits_scored(battle, side)


def discarded_dice(battle: SimpleBattle, side: Side) -> tuple[int, ...]:
    """MK-SIMPLE-5: values of this side's dice left unused because no enemy army remained."""
    if not simple_battle_over(battle):
        return ()
    own = battle.side(side)
    return tuple(own.dice[i] for i in own.unused)


def outcome(battle: SimpleBattle | NavalBattle) -> Outcome:
    """The result of a finished Simple battle (MK-SIMPLE-9) or naval battle (MK-NAVAL-4/5).

    Simple: if only one side still has participating armies it wins; otherwise (both have, or
    neither has: MK-AMB-4) the side that caused more reductions wins, equal is a draw.
    """
    if isinstance(battle, NavalBattle):
        return naval_outcome(battle)
    if not simple_battle_over(battle):
        raise BattleError(
            f"The Simple battle is not over: the {next_to_allocate(battle)} still has a die to "
            "allocate (MK-SIMPLE-5, MK-SIMPLE-9)."
        )
    scores = reductions_caused(battle, Side.ATTACKER), reductions_caused(battle, Side.DEFENDER)
    attacker_left = bool(battle.attacker.standing)
    defender_left = bool(battle.defender.standing)
    if attacker_left and not defender_left:
        return _won_by(Side.ATTACKER, "MK-SIMPLE-9 (only one side has armies left)", *scores)
    if defender_left and not attacker_left:
        return _won_by(Side.DEFENDER, "MK-SIMPLE-9 (only one side has armies left)", *scores)
    if not attacker_left:
        return _decided(*scores, "MK-SIMPLE-9, MK-AMB-4 (both wiped out: reductions caused)")
    return _decided(*scores, "MK-SIMPLE-9 (reductions caused)")


def suggest_allocation(battle: SimpleBattle) -> Allocation:
    """The deterministic choice behind "resolve automatically" (MK-SIMPLE-5 ASSIST).

    For the side whose turn it is:

    1. take the lowest unused die that can hit some standing enemy army (lower index on equal
       values), keeping high dice for hard targets;
    2. send it to the army it can hit that it would destroy, else the one with the lowest current
       Defence, then the most points, then the earliest listed (roster order);
    3. if no die can hit anything, the lowest die goes to the enemy with the highest Defence
       (earliest listed on ties): it misses either way.
    """
    side = next_to_allocate(battle)
    if side is None:
        raise BattleError("Every die has been resolved; nothing is left to allocate (MK-SIMPLE-5).")
    own = battle.side(side)
    targets = list(enumerate(battle.side(side.other).standing))
    dice = sorted(own.unused, key=lambda i: (own.dice[i], i))
    for index in dice:
        value = own.dice[index]
        hittable = [(n, a) for n, a in targets if value >= current_defence(battle, a)]
        if hittable:
            _, army = min(
                hittable,
                key=lambda na: (
                    na[1].points > SIMPLE_POINTS_PER_HIT,
                    current_defence(battle, na[1]),
                    -na[1].points,
                    na[0],
                ),
            )
            return Allocation(side, index, army.id)
    _, army = min(targets, key=lambda na: (-current_defence(battle, na[1]), na[0]))
    return Allocation(side, dice[0], army.id)


def auto_allocate(battle: SimpleBattle) -> SimpleBattle:
    """MK-SIMPLE-5: allocate the next die by ``suggest_allocation``."""
    choice = suggest_allocation(battle)
    return allocate(battle, choice.side, choice.die_index, choice.target)


def finish_automatically(battle: SimpleBattle) -> SimpleBattle:
    """MK-SIMPLE-5: allocate every remaining die by ``suggest_allocation``."""
    while not simple_battle_over(battle):
        battle = auto_allocate(battle)
    return battle


def resolve_simple_battle(
    attacker_armies: Sequence[SimpleArmy],
    defender_armies: Sequence[SimpleArmy],
    attacker_dice: Sequence[int],
    defender_dice: Sequence[int],
    *,
    defence_mode: DefenceMode | str = DefenceMode.DYNAMIC,
) -> SimpleBattle:
    """MK-SIMPLE-1..9: the whole battle, every die allocated by ``suggest_allocation``.

    Read the result with ``outcome`` and the new roster points from the returned state.
    """
    return finish_automatically(
        start_simple_battle(
            attacker_armies, defender_armies, attacker_dice, defender_dice,
            defence_mode=defence_mode,
        )
    )


# ---------------------------------------------------------------------------------------------
# 4. Naval battles
# ---------------------------------------------------------------------------------------------

NAVAL_SINKS_ON = 4


def naval_modifier(carries_army: bool, river: bool) -> int:
    """MK-NAVAL-2: +1 for a ship carrying a paired army, -1 for every die on a river tile."""
    return (1 if carries_army else 0) - (1 if river else 0)


def naval_roll_needed(carries_army: bool, river: bool) -> int:
    """MK-NAVAL-3: the natural roll that sinks an enemy token (modified 4+)."""
    return NAVAL_SINKS_ON - naval_modifier(carries_army, river)


NAVAL_ROLL_TABLE: tuple[tuple[str, int, int], ...] = tuple(
    (label, naval_roll_needed(carries, False), naval_roll_needed(carries, True))
    for label, carries in (("Without army", False), ("Carrying a paired army", True))
)
"""MK-NAVAL-3: rows of (ship, natural roll needed at sea or on a coast, on a river tile)."""


@dataclass(frozen=True)
class NavalRoll:
    """One ship's die in a round (MK-NAVAL-1..3)."""

    ship: str
    natural: int
    modifier: int
    total: int
    hit: bool


@dataclass(frozen=True)
class NavalRound:
    """A round of simultaneous rolls and the tokens each owner chose to lose (MK-AMB-12)."""

    number: int
    attacker_rolls: tuple[NavalRoll, ...]
    defender_rolls: tuple[NavalRoll, ...]
    attacker_lost: tuple[str, ...]
    defender_lost: tuple[str, ...]


@dataclass(frozen=True)
class NavalBattle:
    """A naval battle (MK-NAVAL): the ships still afloat, those sunk, the rounds, a concession."""

    river: bool
    attacker: tuple[Token, ...]
    defender: tuple[Token, ...]
    attacker_sunk: tuple[str, ...] = ()
    defender_sunk: tuple[str, ...] = ()
    rounds: tuple[NavalRound, ...] = ()
    conceded_by: Side | None = None

    def fleet(self, side: Side) -> tuple[Token, ...]:
        return self.attacker if side is Side.ATTACKER else self.defender


def _fleet(tokens: Sequence[Token], side: Side) -> tuple[Token, ...]:
    for token in tokens:
        if not token.is_ship:
            raise BattleError(
                f"Army {token.id} is ashore and cannot fight at sea; only ships and pairs roll "
                "(MK-NAVAL-1, MK-AMB-13)."
            )
    fleet = tuple(token for token in tokens if token.upright)
    if not fleet:
        raise BattleError(
            f"The {side} has no upright ship, so there is no naval battle (MK-NAVAL-1, MK-BTYPE-1)."
        )
    if len({token.id for token in fleet}) != len(fleet):
        raise BattleError(f"The {side} lists a ship twice (MK-NAVAL-1).")
    return fleet


def start_naval_battle(
    attacker_ships: Sequence[Token], defender_ships: Sequence[Token], *, river: bool = False
) -> NavalBattle:
    """MK-NAVAL-1/2: set up a naval battle; ships and pairs on their side take no part."""
    return NavalBattle(
        river=river,
        attacker=_fleet(attacker_ships, Side.ATTACKER),
        defender=_fleet(defender_ships, Side.DEFENDER),
    )


def naval_battle_over(battle: NavalBattle) -> bool:
    """MK-NAVAL-4: a side conceded, or a side has no ships left."""
    return battle.conceded_by is not None or not battle.attacker or not battle.defender


def roll_naval_dice(
    battle: NavalBattle, side: Side | str, dice: Mapping[str, int]
) -> tuple[NavalRoll, ...]:
    """MK-NAVAL-1..3: one die per ship afloat (keyed by ship id), modified, 4+ sinks."""
    side = _enum(Side, side, "battle side", "MK-BSEL-6")
    fleet = battle.fleet(side)
    expected = {token.id for token in fleet}
    given = set(dice)
    if given != expected:
        wanted = ", ".join(token.id for token in fleet)
        raise BattleError(
            f"The {side} rolls exactly one die for each of its ships afloat ({wanted}) "
            "(MK-NAVAL-1)."
        )
    rolls = []
    for token in fleet:
        natural = _die(dice[token.id], "MK-NAVAL-1")
        modifier = naval_modifier(token.kind is TokenKind.PAIR, battle.river)
        total = natural + modifier
        rolls.append(NavalRoll(token.id, natural, modifier, total, total >= NAVAL_SINKS_ON))
    return tuple(rolls)


def suggest_naval_losses(battle: NavalBattle, side: Side, hits: int) -> tuple[str, ...]:
    """MK-NAVAL-3 ASSIST: a pre-filled choice of losses, lone ships before pairs, in list order."""
    fleet = sorted(battle.fleet(side), key=lambda token: token.kind is TokenKind.PAIR)
    return tuple(token.id for token in fleet[: max(0, hits)])


def _check_losses(
    battle: NavalBattle, side: Side, losses: Sequence[str], hits: int
) -> tuple[str, ...]:
    fleet_ids = [token.id for token in battle.fleet(side)]
    due = min(hits, len(fleet_ids))
    losses = tuple(losses)
    if len(losses) != due or len(set(losses)) != len(losses):
        raise BattleError(
            f"The {side} must choose exactly {due} different ship(s) to lose this round "
            "(MK-NAVAL-3)."
        )
    for ship in losses:
        if ship not in fleet_ids:
            raise BattleError(
                f"{ship} is not one of the {side}'s ships afloat and cannot be sunk (MK-NAVAL-3)."
            )
    return losses


def naval_round(
    battle: NavalBattle,
    attacker_dice: Mapping[str, int],
    defender_dice: Mapping[str, int],
    *,
    attacker_losses: Sequence[str],
    defender_losses: Sequence[str],
) -> NavalBattle:
    """MK-NAVAL-1..4, MK-AMB-12: one round, all dice rolled before any removal.

    Each side's hits sink that many enemy tokens (all of them if there are more hits); the owner
    chooses which (``attacker_losses`` are the attacker's own ships, chosen by the attacker). A
    sunk pair takes its army down with it (MK-NAVAL-3).
    """
    if naval_battle_over(battle):
        raise BattleError("The naval battle is already over (MK-NAVAL-4).")
    attacker_rolls = roll_naval_dice(battle, Side.ATTACKER, attacker_dice)
    defender_rolls = roll_naval_dice(battle, Side.DEFENDER, defender_dice)
    attacker_lost = _check_losses(
        battle, Side.ATTACKER, attacker_losses, sum(r.hit for r in defender_rolls)
    )
    defender_lost = _check_losses(
        battle, Side.DEFENDER, defender_losses, sum(r.hit for r in attacker_rolls)
    )
    return replace(
        battle,
        attacker=tuple(t for t in battle.attacker if t.id not in attacker_lost),
        defender=tuple(t for t in battle.defender if t.id not in defender_lost),
        attacker_sunk=battle.attacker_sunk + attacker_lost,
        defender_sunk=battle.defender_sunk + defender_lost,
        rounds=battle.rounds
        + (
            NavalRound(
                len(battle.rounds) + 1, attacker_rolls, defender_rolls, attacker_lost, defender_lost
            ),
        ),
    )


def concede_naval_battle(battle: NavalBattle, side: Side | str) -> NavalBattle:
    """MK-NAVAL-4, MK-AMB-12: after a round, a side may declare itself the loser."""
    side = _enum(Side, side, "battle side", "MK-BSEL-6")
    if naval_battle_over(battle):
        raise BattleError("The naval battle is already over (MK-NAVAL-4).")
    if not battle.rounds:
        raise BattleError(
            "A side may concede only after all dice of a round are resolved (MK-NAVAL-4)."
        )
    return replace(battle, conceded_by=side)


def naval_outcome(battle: NavalBattle) -> Outcome:
    """MK-NAVAL-4/5, MK-AMB-12: the result of a finished naval battle.

    A concession loses. A side left without ships loses. If both lose their last ship in the same
    round, more tokens sunk over the battle wins; equal is the only naval draw. Scores are the
    enemy tokens each side sank.
    """
    scores = len(battle.defender_sunk), len(battle.attacker_sunk)
    if battle.conceded_by is not None:
        return _won_by(battle.conceded_by.other, "MK-NAVAL-4 (concession)", *scores)
    if battle.attacker and battle.defender:
        raise BattleError(
            "The naval battle is not over: both sides still have ships and nobody conceded "
            "(MK-NAVAL-4)."
        )
    if battle.attacker:
        return _won_by(Side.ATTACKER, "MK-NAVAL-4 (no enemy ships left)", *scores)
    if battle.defender:
        return _won_by(Side.DEFENDER, "MK-NAVAL-4 (no enemy ships left)", *scores)
    return _decided(*scores, "MK-NAVAL-5, MK-AMB-12 (both fleets sunk: tokens sunk)")


# ---------------------------------------------------------------------------------------------
# 5. Land/water battles
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LandWaterBattle:
    """MK-LW-1..3: the dice, totals and outcome. Nothing is damaged by the roll itself."""

    attacker_dice: tuple[int, ...]
    defender_dice: tuple[int, ...]
    outcome: Outcome

    @property
    def attacker_total(self) -> int:
        return sum(self.attacker_dice)

    @property
    def defender_total(self) -> int:
        return sum(self.defender_dice)


def land_water_dice_count(tokens: Iterable[Token]) -> int:
    """MK-LW-1: one die per upright army or ship, two for an upright pair."""
    return sum(2 if t.kind is TokenKind.PAIR else 1 for t in tokens if t.upright)


def land_water_battle(
    attacker_tokens: Sequence[Token],
    defender_tokens: Sequence[Token],
    attacker_dice: Sequence[int],
    defender_dice: Sequence[int],
) -> LandWaterBattle:
    """MK-LW-1/2, MK-AMB-11: add each side's dice; the higher total wins, equal is a draw.

    One side's upright tokens must be only ships/pairs and the other's only unpaired armies.
    """
    sides = {Side.ATTACKER: attacker_tokens, Side.DEFENDER: defender_tokens}
    upright = {side: [t for t in tokens if t.upright] for side, tokens in sides.items()}
    afloat = {side: all(t.is_ship for t in ts) for side, ts in upright.items()}
    ashore = {side: all(t.is_unpaired_army for t in ts) for side, ts in upright.items()}
    if not all(upright.values()) or not (
        (afloat[Side.ATTACKER] and ashore[Side.DEFENDER])
        or (ashore[Side.ATTACKER] and afloat[Side.DEFENDER])
    ):
        raise BattleError(
            "A land/water battle is fought between one side with only upright ships or pairs and "
            "one with only upright unpaired armies (MK-LW-1, MK-AMB-11)."
        )
    rolled = {}
    for side, dice in ((Side.ATTACKER, attacker_dice), (Side.DEFENDER, defender_dice)):
        values = tuple(_die(value, "MK-LW-1") for value in dice)
        needed = land_water_dice_count(sides[side])
        if len(values) != needed:
            raise BattleError(
                f"The {side} rolls {needed} dice (one per upright army or ship, two per pair), "
                f"not {len(values)} (MK-LW-1)."
            )
        rolled[side] = values
    return LandWaterBattle(
        attacker_dice=rolled[Side.ATTACKER],
        defender_dice=rolled[Side.DEFENDER],
        outcome=_decided(sum(rolled[Side.ATTACKER]), sum(rolled[Side.DEFENDER]), "MK-LW-2"),
    )


# ---------------------------------------------------------------------------------------------
# 6. Slaughter
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Slaughter:
    """MK-LAND-4, MK-AMB-6: the removed token, those that take the Loss, and the outcome."""

    removed: str
    loss_tokens: tuple[str, ...]
    outcome: Outcome


def slaughter(opponent_tokens: Sequence[Token], removed: str) -> Slaughter:
    """MK-LAND-4, MK-AMB-6: every enemy token in the tile is on its side, so no game is played.

    The owner picks one token to remove; the rest take the Loss result (MK-RESULT-1). The
    chooser (attacker) wins and takes control through ``battle_results``.
    """
    tokens = tuple(opponent_tokens)
    if not tokens:
        raise BattleError("There is no enemy token to slaughter (MK-LAND-4).")
    upright = [t.id for t in tokens if t.upright]
    if upright:
        raise BattleError(
            f"{upright[0]} is upright, so this is a battle, not a slaughter (MK-LAND-4)."
        )
    if removed not in {t.id for t in tokens}:
        raise BattleError(
            f"{removed} is not one of the defeated kingdom's tokens in the tile (MK-LAND-4)."
        )
    return Slaughter(
        removed=removed,
        loss_tokens=tuple(t.id for t in tokens if t.id != removed),
        outcome=Outcome(Result.WIN, Result.LOSS, "MK-LAND-4, MK-AMB-6"),
    )


# ---------------------------------------------------------------------------------------------
# 7. Board size and defended tiles (Kings of War mode)
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BoardSize:
    """MK-BOARD-1, MK-AMB-26: table size in feet."""

    width_ft: int
    depth_ft: int

    @property
    def label(self) -> str:
        return f"{self.width_ft}'x{self.depth_ft}'"


BOARD_SIZES: tuple[tuple[int, int, BoardSize], ...] = (
    (1, 2, BoardSize(4, 4)),
    (3, 3, BoardSize(5, 4)),
    (4, 5, BoardSize(6, 4)),
    (6, 6, BoardSize(8, 4)),
)
"""MK-BOARD-1: (fewest armies, most armies on the larger side, board)."""


def board_size(attacker_armies: int, defender_armies: int) -> BoardSize:
    """MK-BOARD-1, MK-AMB-26: board from the larger side's count of fighting (upright) armies.

    A campaign that raises the army cap (MK-CFG-2) can bring more than 6 armies to one side; the
    rules give no larger table, so 7 or more armies keep the 8'x4' board.
    """
    for count in (attacker_armies, defender_armies):
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise BattleError(
                "Each side of a Kings of War battle needs at least one upright army "
                "(MK-LAND-2, MK-BOARD-1)."
            )
    larger = max(attacker_armies, defender_armies)
    for low, high, size in BOARD_SIZES:
        if low <= larger <= high:
            return size
    return BOARD_SIZES[-1][2]


class Settlement(StrEnum):
    """MK-DEF-2, MK-DEF-4: what stands on a tile, for the defended-tile table.

    An empty tile may also be given as ``""`` or ``"empty"``, as the map rules store it.
    """

    NONE = "none"
    VILLAGE = "village"
    CITY = "city"
    CAPITAL = "capital"
    FORTRESS = "fortress"

    @classmethod
    def _missing_(cls, value: object) -> Settlement | None:
        return cls.NONE if value in ("", "empty") else None


@dataclass(frozen=True)
class DefenceAllowance:
    """MK-DEF-2: what the defender may change on the table before deployment.

    ``adjust_pieces``: pieces the defender may add, remove or move (no settlement).
    ``blocking_or_difficult`` and ``obstacles``: pieces the defender may add anywhere.
    ``objectives``: markers in the defender's half, each worth ``objective_vp`` Victory Points.
    """

    row: Settlement
    adjust_pieces: int
    blocking_or_difficult: int
    obstacles: int
    objectives: int
    objective_vp: int = 1


DEFENCE_ALLOWANCES: Mapping[Settlement, DefenceAllowance] = {
    Settlement.NONE: DefenceAllowance(Settlement.NONE, 1, 0, 0, 0),
    Settlement.VILLAGE: DefenceAllowance(Settlement.VILLAGE, 0, 1, 2, 0),
    Settlement.CITY: DefenceAllowance(Settlement.CITY, 0, 2, 2, 1),
    Settlement.FORTRESS: DefenceAllowance(Settlement.FORTRESS, 0, 2, 4, 2),
}


def defence_allowance(settlement: Settlement | str) -> DefenceAllowance:
    """MK-DEF-2/4, MK-AMB-27: the table row for a settlement; a Capital City uses the City row."""
    settlement = _enum(Settlement, settlement, "settlement", "MK-DEF-2")
    if settlement is Settlement.CAPITAL:
        settlement = Settlement.CITY
    return DEFENCE_ALLOWANCES[settlement]


def _count(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


def describe_allowance(allowance: DefenceAllowance) -> str:
    """MK-DEF-2: the defender's allowance in words, as the battle page and packet show it,
    e.g. "add up to 1 blocking or difficult piece and up to 2 obstacles anywhere"."""
    if allowance.adjust_pieces:
        return f"add, remove or move {_count(allowance.adjust_pieces, 'terrain piece')}"
    text = (f"add up to {_count(allowance.blocking_or_difficult, 'blocking or difficult piece')}"
            f" and up to {_count(allowance.obstacles, 'obstacle')} anywhere")
    if allowance.objectives:
        text += (f", and place {_count(allowance.objectives, 'objective marker')} in its own "
                 f"half, worth {allowance.objective_vp} Victory Point"
                 f"{'' if allowance.objective_vp == 1 else 's'} each to whoever controls it at "
                 "the end, on top of the scenario's scoring")
    return text


DEFENCE_PIECE_SIZES = (
    'An obstacle is about 6" long (several may be joined); a blocking or difficult piece is '
    'about 6"x6" (several may be merged). Blocking terrain stays more than 3" from the centre '
    "circle and from every objective marker; difficult ground may be flat."
)
"""MK-DEF-3, TABLE: the sizes of the pieces the defender places. The app only shows them; the
players measure at the table."""


@dataclass(frozen=True)
class DefendedTile:
    """MK-DEF-1: the kingdom that gets the terrain advantage and what it may do."""

    kingdom: KingdomId
    allowance: DefenceAllowance


def defended_tile_benefit(
    settlement: Settlement | str,
    controller: KingdomId | None,
    defending: Iterable[KingdomId],
) -> DefendedTile | None:
    """MK-DEF-1..4, MK-AMB-27: who gets the defended-tile advantage in a Kings of War battle.

    ``defending`` lists the battling kingdoms with an army that took Defend this month
    (MK-AMB-7). One defender gets it; if both defend, only the tile's controller does, and
    neither does when neither controls the tile.
    """
    allowance = defence_allowance(settlement)
    kingdoms = tuple(dict.fromkeys(defending))
    if len(kingdoms) > 2:
        raise BattleError("Only the two battling kingdoms can defend in a battle (MK-DEF-1).")
    if not kingdoms:
        return None
    if len(kingdoms) == 1:
        return DefendedTile(kingdoms[0], allowance)
    if controller in kingdoms:
        return DefendedTile(controller, allowance)
    return None


# ---------------------------------------------------------------------------------------------
# 8. Unit Strength (Kings of War mode)
# ---------------------------------------------------------------------------------------------

US_BATTLE_MIN = 0
US_BATTLE_MAX = 3
US_DESTROYED_AT = -2


def _base_us(base: object) -> int:
    if isinstance(base, bool) or not isinstance(base, int) or base < 0:
        raise BattleError(
            f"A unit's base Unit Strength is a whole number of 0 or more, not {base!r} (MK-US-5)."
        )
    return base


def unit_strength_total(base: int, deltas: Iterable[int]) -> int:
    """MK-US-5: base Unit Strength plus every recorded +1 and -1, kept exactly (below 0 or
    above 3 included)."""
    total = _base_us(base)
    for delta in deltas:
        if delta not in (1, -1) or isinstance(delta, bool):
            raise BattleError(
                f"Unit Strength changes one step at a time (+1 or -1), not {delta!r} (MK-US-1, "
                "MK-US-2)."
            )
        total += delta
    return total


def battle_unit_strength(total: int) -> int:
    """MK-US-6, MK-AMB-31: the Unit Strength used in a battle, the total clamped to 0..3."""
    return max(US_BATTLE_MIN, min(US_BATTLE_MAX, total))


def destroyed_by_unit_strength(total: int) -> bool:
    """MK-US-7, MK-REFORM-5: a total of -2 or lower destroys the unit at Reform."""
    return total <= US_DESTROYED_AT


@dataclass(frozen=True)
class UnitBattleRecord:
    """One unit in one Kings of War battle, as entered after the game (MK-US-1..3).

    ``routed_enemy``: this unit was credited with the first enemy it damaged and routed (one unit
    per routed enemy, the owner picks: MK-US-3). ``routed``: this unit was routed (MK-US-2).
    """

    unit_id: str
    routed_enemy: bool = False
    routed: bool = False

    @property
    def deltas(self) -> tuple[int, ...]:
        """MK-US-1/2: +1 (at most once per battle) then -1; effective from the next battle."""
        return ((1,) if self.routed_enemy else ()) + ((-1,) if self.routed else ())


def battle_unit_strength_deltas(
    records: Sequence[UnitBattleRecord], *, enemy_units_routed: int | None = None
) -> dict[str, tuple[int, ...]]:
    """MK-US-1..4, MK-AMB-31: the Unit Strength changes one battle gives each unit.

    One record per unit per battle, so no unit gains more than +1 (MK-US-1). When the number of
    enemy units routed is known, no more units than that may be credited (MK-US-3).
    """
    counts = Counter(record.unit_id for record in records)
    doubled = [unit for unit, count in counts.items() if count > 1]
    if doubled:
        raise BattleError(
            f"Unit {doubled[0]} is entered twice for one battle; a unit gains at most +1 Unit "
            "Strength per battle (MK-US-1)."
        )
    credited = sum(1 for record in records if record.routed_enemy)
    if enemy_units_routed is not None and credited > enemy_units_routed:
        raise BattleError(
            f"{credited} units are credited with routing an enemy but only {enemy_units_routed} "
            "enemy units were routed; each routed enemy credits one unit (MK-US-3)."
        )
    return {record.unit_id: record.deltas for record in records if record.deltas}


@dataclass(frozen=True)
class UnitStrength:
    """A unit's Unit Strength record: base from its profile and every change since (MK-US-4/5)."""

    unit_id: str
    base: int
    deltas: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "deltas", tuple(self.deltas))
        unit_strength_total(self.base, self.deltas)

    @property
    def total(self) -> int:
        """MK-US-5."""
        return unit_strength_total(self.base, self.deltas)

    @property
    def in_battle(self) -> int:
        """MK-US-6: the value the unit fights at in its next battle."""
        return battle_unit_strength(self.total)

    @property
    def destroyed_at_reform(self) -> bool:
        """MK-US-7, MK-REFORM-5."""
        return destroyed_by_unit_strength(self.total)

    def after_battle(self, record: UnitBattleRecord) -> UnitStrength:
        """MK-US-1..4: the record with one battle's changes added."""
        if record.unit_id != self.unit_id:
            raise BattleError(
                f"That battle record is for unit {record.unit_id}, not {self.unit_id} (MK-US-4)."
            )
        return replace(self, deltas=self.deltas + record.deltas)


@dataclass(frozen=True)
class UnitStrengthStep:
    """MK-US-5/6: one battle in a unit's history: the US it fought at and its total after."""

    battle: int
    fought_at: int
    deltas: tuple[int, ...]
    total_after: int


def unit_strength_history(
    base: int, battles: Sequence[UnitBattleRecord]
) -> tuple[UnitStrengthStep, ...]:
    """MK-US-1..6, MK-AMB-31: battle by battle, the clamped US fought at and the new total."""
    total = _base_us(base)
    steps = []
    for number, record in enumerate(battles, start=1):
        fought_at = battle_unit_strength(total)
        total += sum(record.deltas)
        steps.append(UnitStrengthStep(number, fought_at, record.deltas, total))
    return tuple(steps)


@dataclass(frozen=True)
class ReformCheck:
    """MK-REFORM-5..7: units destroyed, units left, and whether the army itself is removed."""

    destroyed: tuple[str, ...]
    surviving: tuple[str, ...]
    army_removed: bool


def reform_unit_strength(units: Sequence[UnitStrength]) -> ReformCheck:
    """MK-REFORM-5..7, MK-US-7: destroy units at -2 or lower; an army with no unit left is removed.

    A list left illegal by the losses stays as it is (MK-REFORM-6).
    """
    destroyed = tuple(u.unit_id for u in units if u.destroyed_at_reform)
    surviving = tuple(u.unit_id for u in units if not u.destroyed_at_reform)
    return ReformCheck(destroyed, surviving, army_removed=not surviving)


# ---------------------------------------------------------------------------------------------
# 9. Results
# ---------------------------------------------------------------------------------------------


class Fate(StrEnum):
    """MK-RESULT-1..3: what happens to a token after a battle."""

    STAY = "stay"
    RETREAT = "retreat"
    DESTROYED = "destroyed"


@dataclass(frozen=True)
class Neighbour:
    """A tile next to the battle tile, as plain map data (MK-AMB-16).

    ``army_can_enter``: an army could cross into it (no fully blue edge, not marsh, not a
    wizard's tower). ``ship_can_enter``: coastal, open ocean or river and not marsh
    (MK-SHIP-4, MK-AMB-39). ``ship_kingdoms``: kingdoms with ships or pairs there.
    ``kingdoms_present``: kingdoms with any token there (a retreat into them is allowed but may
    start another battle, MK-AMB-16).
    """

    label: str
    controller: KingdomId | None = None
    army_can_enter: bool = True
    ship_can_enter: bool = False
    open_water: bool = False
    ship_kingdoms: frozenset[KingdomId] = frozenset()
    kingdoms_present: frozenset[KingdomId] = frozenset()

    def __post_init__(self) -> None:
        object.__setattr__(self, "ship_kingdoms", frozenset(self.ship_kingdoms))
        object.__setattr__(self, "kingdoms_present", frozenset(self.kingdoms_present))


def _can_enter(token: Token, tile: Neighbour) -> bool:
    return tile.ship_can_enter if token.is_ship else tile.army_can_enter


def legal_retreat_tiles(token: Token, neighbours: Sequence[Neighbour]) -> tuple[str, ...]:
    """MK-RESULT-1/2, MK-AMB-16: where a token may go when the result moves it.

    Adjacent tiles its own kingdom controls that it may enter; ships and pairs may also take an
    adjacent open-water tile holding no enemy ships.
    """
    options = []
    for tile in neighbours:
        own = tile.controller == token.kingdom and not tile.open_water and _can_enter(token, tile)
        water = token.is_ship and tile.open_water and not (tile.ship_kingdoms - {token.kingdom})
        if own or water:
            options.append(tile.label)
    return tuple(options)


def winner_move_tiles(token: Token, neighbours: Sequence[Neighbour]) -> tuple[str, ...]:
    """MK-RESULT-3, MK-AMB-28: where the winner's one optional move may go (adjacent, own
    controlled, enterable; open water is never controlled so it is not a destination)."""
    return tuple(
        tile.label
        for tile in neighbours
        if tile.controller == token.kingdom and not tile.open_water and _can_enter(token, tile)
    )


@dataclass(frozen=True)
class TokenFate:
    """One token's obligation after a battle.

    ``options``: tiles it may retreat to (RETREAT only). ``on_side_after``: whether it lies on
    its side once the result is applied. ``crowded_options``: options holding enemy tokens, to
    warn about (MK-AMB-16).
    """

    token_id: str
    kingdom: KingdomId
    fate: Fate
    on_side_after: bool
    options: tuple[str, ...] = ()
    crowded_options: tuple[str, ...] = ()


@dataclass(frozen=True)
class BattleResults:
    """MK-RESULT-1..5: every obligation a battle leaves behind."""

    tile: str
    results: tuple[tuple[KingdomId, Result], ...]
    controller_before: KingdomId | None
    controller_after: KingdomId | None
    fates: tuple[TokenFate, ...]
    winner: KingdomId | None
    winner_move_options: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def result_of(self, kingdom: KingdomId) -> Result:
        return dict(self.results)[kingdom]

    def fate_of(self, token_id: str) -> TokenFate:
        for fate in self.fates:
            if fate.token_id == token_id:
                return fate
        raise KeyError(token_id)

    @property
    def must_retreat(self) -> tuple[str, ...]:
        return tuple(f.token_id for f in self.fates if f.fate is Fate.RETREAT)

    @property
    def destroyed(self) -> tuple[str, ...]:
        return tuple(f.token_id for f in self.fates if f.fate is Fate.DESTROYED)

    @property
    def control_changed(self) -> bool:
        return self.controller_after != self.controller_before


def _check_results(outcomes: Mapping[KingdomId, Result]) -> dict[KingdomId, Result]:
    results = {k: _enum(Result, r, "battle result", "MK-RESULT") for k, r in outcomes.items()}
    pair = sorted(r.value for r in results.values())
    if len(results) != 2 or pair not in (["loss", "win"], ["draw", "draw"]):
        raise BattleError(
            "A battle has two kingdoms whose results are a win and a loss, or a draw for both "
            "(MK-RESULT-1..3)."
        )
    return results


def battle_results(
    tile: TileForces,
    outcomes: Mapping[KingdomId, Result],
    neighbours: Sequence[Neighbour],
    *,
    open_water: bool = False,
) -> BattleResults:
    """MK-RESULT-1..5 with MK-AMB-6/14/15/16/28/35: apply a battle result to a tile.

    ``tile`` holds the tokens still in play after the battle (sunk ships, destroyed Simple armies
    and a slaughtered token already removed); only the two battling kingdoms' tokens are
    affected, on their side or not (MK-BSEL-4).

    - Loss: every token must retreat to a legal tile and is then laid on its side, ships too
      (MK-RESULT-1, MK-AMB-15); with no legal tile it is destroyed.
    - Draw: tokens of the tile's controller stay; the other's must retreat, staying as they are
      (MK-RESULT-2). On a third kingdom's tile both go (MK-RESULT-4).
    - Win: the winner takes control (also with only ships, MK-AMB-35; never of open water,
      MK-RES-2) and may move one of its tokens there, upright or on its side, to an adjacent
      tile it controls (MK-RESULT-3, MK-AMB-28).
    """
    results = _check_results(outcomes)
    neighbour_labels = [n.label for n in neighbours]
    if len(set(neighbour_labels)) != len(neighbour_labels):
        raise BattleError(f"Tile {tile.label} lists a neighbour twice (MK-AMB-16).")
    fates = []
    for token in tile.tokens:
        result = results.get(token.kingdom)
        if result is None:
            continue
        stays = result is Result.WIN or (result is Result.DRAW and tile.controller == token.kingdom)
        if stays:
            fates.append(TokenFate(token.id, token.kingdom, Fate.STAY, not token.upright))
            continue
        options = legal_retreat_tiles(token, neighbours)
        if not options:
            fates.append(TokenFate(token.id, token.kingdom, Fate.DESTROYED, False))
            continue
        crowded = tuple(
            n.label
            for n in neighbours
            if n.label in options and n.kingdoms_present - {token.kingdom}
        )
        on_side = result is Result.LOSS or not token.upright
        fates.append(TokenFate(token.id, token.kingdom, Fate.RETREAT, on_side, options, crowded))
    winner = next((k for k, r in results.items() if r is Result.WIN), None)
    controller_after = tile.controller
    moves: tuple[tuple[str, tuple[str, ...]], ...] = ()
    if winner is not None:
        if not open_water:
            controller_after = winner
        # MK-RESULT-3 says "1 of its armies or ships": on its side or not (it stays as it is).
        moves = tuple(
            (token.id, winner_move_tiles(token, neighbours)) for token in tile.tokens_of(winner)
        )
    return BattleResults(
        tile=tile.label,
        results=tuple(results.items()),
        controller_before=tile.controller,
        controller_after=controller_after,
        fates=tuple(fates),
        winner=winner,
        winner_move_options=moves,
    )


def validate_retreats(results: BattleResults, choices: Mapping[str, str]) -> None:
    """MK-RESULT-1/2/5, MK-AMB-16: check the owners' chosen retreat tile for every token that
    must move; tokens that stay or are destroyed get no destination."""
    must_move = {f.token_id: f for f in results.fates if f.fate is Fate.RETREAT}
    for token_id, destination in choices.items():
        fate = must_move.get(token_id)
        if fate is None:
            raise BattleError(
                f"{token_id} does not retreat after this battle, so it takes no retreat tile "
                "(MK-RESULT-1, MK-RESULT-2)."
            )
        if destination not in fate.options:
            allowed = ", ".join(fate.options)
            raise BattleError(
                f"{token_id} cannot retreat to {destination}; it may go to {allowed}: an adjacent "
                "tile its kingdom controls and it may enter, or open water without enemy ships "
                "for a ship (MK-RESULT-1, MK-AMB-16)."
            )
    missing = [token_id for token_id in must_move if token_id not in choices]
    if missing:
        raise BattleError(
            f"{missing[0]} must retreat; choose one of its tiles (MK-RESULT-1, MK-RESULT-5)."
        )


def validate_winner_move(results: BattleResults, token_id: str, destination: str) -> None:
    """MK-RESULT-3, MK-AMB-28: the winner's single optional move after the battle."""
    if results.winner is None:
        raise BattleError("Only the winner of a battle gets a move afterwards (MK-RESULT-3).")
    options = dict(results.winner_move_options)
    if token_id not in options:
        raise BattleError(
            f"{token_id} is not an army or ship of the winner in this tile (MK-RESULT-3, "
            "MK-AMB-28)."
        )
    if destination not in options[token_id]:
        raise BattleError(
            f"{token_id} may only move to an adjacent tile its kingdom controls and it can enter "
            f"(MK-RESULT-3); {destination} is not one."
        )


# ---------------------------------------------------------------------------------------------
# 10. Army lists (Kings of War mode)
# ---------------------------------------------------------------------------------------------

ARMY_POINTS_LIMIT = 500
ALLIED_ARMY_NEEDS = 3
MAX_ALLIED_ARMIES = 1


def _norm(text: str) -> str:
    return " ".join(text.lower().replace("_", " ").replace("-", " ").split())


@dataclass(frozen=True)
class UnitEntry:
    """One unit of a Kings of War army list, as the player enters it (MK-SETUP-6).

    ``unit_type`` is free text such as "regiment", "hero (infantry)", "monster" or "war engine";
    ``keywords`` add what the type does not say. A unit is a hero, monster or war machine when
    its type or a keyword says so (see the properties). ``allied`` marks a unit taken as an ally
    inside the list, which Mighty Kingdoms forbids (MK-SETUP-6, MK-RECRUIT-4).
    """

    name: str
    unit_type: str
    points: int
    base_us: int | None = None
    keywords: frozenset[str] = frozenset()
    magic_item: str | None = None
    living_legend: bool = False
    allied: bool = False
    stats: str = ""  # the unit's stat line, as the player writes it (printed, never checked)
    special_rules: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "keywords", frozenset(_norm(k) for k in self.keywords))

    def _says(self, *words: str) -> bool:
        kind = _norm(self.unit_type)
        return any(re.search(rf"\b{w}\b", kind) or w in self.keywords for w in words)

    @property
    def is_hero(self) -> bool:
        """MK-QUEST-3: heroes go on quests."""
        return self._says("hero")

    @property
    def is_monster(self) -> bool:
        """MK-ADV-2/3: monsters and titans (a hero riding one counts)."""
        return self._says("monster", "titan")

    @property
    def is_war_machine(self) -> bool:
        """MK-ADV-2/4: war engines / war machines."""
        return self._says("war engine", "war machine")


@dataclass(frozen=True)
class ArmyList:
    """Another army's list in the same kingdom, for the kingdom-wide checks (MK-RECRUIT-4/5)."""

    label: str
    units: tuple[UnitEntry, ...]
    allied: bool = False


@dataclass(frozen=True)
class ListProblem:
    """One reason a list is not acceptable, with its ``rule`` (e.g. MK-RECRUIT-4); ``unit`` is
    the 0-based unit index when the problem is one unit's."""

    rule: str
    message: str
    unit: int | None = None


def list_points(units: Iterable[UnitEntry]) -> int:
    """MK-SETUP-6, MK-ART-4: a list's points (artefacts never count)."""
    return sum(unit.points for unit in units)


def validate_army_list(
    units: Sequence[UnitEntry],
    *,
    starting: bool = False,
    kingdom_other_lists: Sequence[ArmyList] = (),
    allied_army: bool = False,
    non_allied_army_count: int | None = None,
    advanced_module: bool = False,
    terrain_allows_monsters: bool = False,
    terrain_allows_war_machines: bool = False,
) -> tuple[ListProblem, ...]:
    """Every problem with a new army list, each with its rule (empty when the list is fine).

    - MK-SETUP-6 / MK-RECRUIT-4: at least one unit, positive points, at most 500 points, no
      allied units inside a list; a starting army is never an allied army.
    - MK-RECRUIT-5: one allied army per kingdom, and only with 3+ non-allied armies already
      (``non_allied_army_count``; counted from ``kingdom_other_lists`` when not given).
    - MK-RECRUIT-4: Living Legends and magic items unique across the kingdom's armies.
    - MK-ADV-2..5 (``advanced_module``, winter recruits only: MK-AMB-24): no monsters unless the
      fortress terrain allows them, no war machines unless it allows them, never magic items.

    Full Kings of War list legality needs the Kings of War rules and stays with the players.
    """
    rule = "MK-SETUP-6" if starting else "MK-RECRUIT-4"
    problems: list[ListProblem] = []
    units = tuple(units)
    if not units:
        problems.append(ListProblem(rule, "An army list needs at least one unit."))
    for index, unit in enumerate(units):
        label = unit.name or f"unit {index + 1}"
        points = unit.points
        if isinstance(points, bool) or not isinstance(points, int) or points <= 0:
            problems.append(
                ListProblem(rule, f"{label}: points must be a whole number above 0.", index)
            )
        if unit.base_us is not None and (
            isinstance(unit.base_us, bool) or not isinstance(unit.base_us, int) or unit.base_us < 0
        ):
            problems.append(
                ListProblem("MK-US-5", f"{label}: base Unit Strength must be 0 or more.", index)
            )
        if unit.allied:
            problems.append(
                ListProblem(
                    rule,
                    f"{label} is an allied unit; allies come only as a whole allied army, never "
                    "inside a list.",
                    index,
                )
            )
    if all(isinstance(u.points, int) for u in units):
        total = list_points(units)
        if total > ARMY_POINTS_LIMIT:
            problems.append(
                ListProblem(
                    rule, f"The list totals {total} points; an army may have at most "
                    f"{ARMY_POINTS_LIMIT}."
                )
            )
    if allied_army:
        if starting:
            problems.append(
                ListProblem("MK-SETUP-6", "The starting army cannot be an allied army.")
            )
        else:
            allied_now = sum(1 for other in kingdom_other_lists if other.allied)
            if allied_now >= MAX_ALLIED_ARMIES:
                problems.append(
                    ListProblem("MK-RECRUIT-5", "The kingdom already has its one allied army.")
                )
            count = (
                non_allied_army_count
                if non_allied_army_count is not None
                else sum(1 for other in kingdom_other_lists if not other.allied)
            )
            if count < ALLIED_ARMY_NEEDS:
                problems.append(
                    ListProblem(
                        "MK-RECRUIT-5",
                        f"An allied army needs {ALLIED_ARMY_NEEDS} or more non-allied armies "
                        f"already; the kingdom has {count}.",
                    )
                )
    problems.extend(_uniqueness_problems(units, kingdom_other_lists))
    if advanced_module and not starting:
        for index, unit in enumerate(units):
            label = unit.name or f"unit {index + 1}"
            if unit.is_monster and not terrain_allows_monsters:
                problems.append(
                    ListProblem(
                        "MK-ADV-3",
                        f"{label} is a monster; only a fortress in or next to a controlled "
                        "mountain or swamp tile may recruit monsters.",
                        index,
                    )
                )
            if unit.is_war_machine and not terrain_allows_war_machines:
                problems.append(
                    ListProblem(
                        "MK-ADV-4",
                        f"{label} is a war machine; only a fortress in or next to a controlled "
                        "forest tile may recruit war machines.",
                        index,
                    )
                )
            if unit.magic_item:
                problems.append(
                    ListProblem(
                        "MK-ADV-5",
                        f"{label} carries a magic item; armies recruited in winter may take "
                        "none.",
                        index,
                    )
                )
    return tuple(problems)


def _uniqueness_problems(
    units: Sequence[UnitEntry], others: Sequence[ArmyList]
) -> list[ListProblem]:
    """MK-RECRUIT-4: Living Legends and magic items once per kingdom."""
    problems = []
    taken_legends = {_norm(u.name): o.label for o in others for u in o.units if u.living_legend}
    taken_items = {_norm(u.magic_item): o.label for o in others for u in o.units if u.magic_item}
    seen_legends: set[str] = set()
    seen_items: set[str] = set()
    for index, unit in enumerate(units):
        if unit.living_legend:
            key = _norm(unit.name)
            if key in taken_legends:
                problems.append(
                    ListProblem(
                        "MK-RECRUIT-4",
                        f"{unit.name} is a Living Legend already in army {taken_legends[key]}; "
                        "each appears once per kingdom.",
                        index,
                    )
                )
            elif key in seen_legends:
                problems.append(
                    ListProblem(
                        "MK-RECRUIT-4",
                        f"{unit.name} is a Living Legend and appears twice in this list.",
                        index,
                    )
                )
            seen_legends.add(key)
        if unit.magic_item:
            key = _norm(unit.magic_item)
            if key in taken_items:
                problems.append(
                    ListProblem(
                        "MK-RECRUIT-4",
                        f"{unit.magic_item} is already carried in army {taken_items[key]}; magic "
                        "items are unique across the kingdom.",
                        index,
                    )
                )
            elif key in seen_items:
                problems.append(
                    ListProblem(
                        "MK-RECRUIT-4",
                        f"{unit.magic_item} appears twice in this list; magic items are unique "
                        "across the kingdom.",
                        index,
                    )
                )
            seen_items.add(key)
    return problems


@dataclass(frozen=True)
class ParsedList:
    """MK-SETUP-6: the units of a pasted list, or every bad line as (line number, message).

    When any line is bad, ``units`` is empty: the whole text is rejected. Line 0 stands for the
    text as a whole.
    """

    units: tuple[UnitEntry, ...]
    errors: tuple[tuple[int, str], ...]

    @property
    def ok(self) -> bool:
        return not self.errors


_POINTS = re.compile(r"^(\d+)\s*(?:pts?|points?)?$", re.IGNORECASE)
_US = re.compile(r"^us\s*[:=]?\s*(-?\S+)$", re.IGNORECASE)
_ITEM = re.compile(r"^(?:magic\s+)?item\s*[:=]?\s*(.*)$", re.IGNORECASE)
_KEYWORDS = re.compile(r"^keywords?\s*[:=]?\s*(.*)$", re.IGNORECASE)
_STATS = re.compile(r"^stats?\s*[:=]?\s*(.*)$", re.IGNORECASE)
_RULES = re.compile(r"^(?:special\s+)?rules?\s*[:=]?\s*(.*)$", re.IGNORECASE)
_LEGEND_MARK = re.compile(r"\s*\[1\]\s*$")


def parse_plain_list(text: str) -> ParsedList:
    """MK-SETUP-6, MK-SETUP-7: read a pasted army list, one unit per line.

    Format (blank lines and lines starting with ``#`` are ignored)::

        name, type, points [; option]...

    The last two commas end the name, so a name may contain commas. Points may be written
    ``145``, ``145 pts`` or ``145 points``. Options, in any order, each at most once:

    - ``US 2`` (or ``US: 2``, ``US=2``): base Unit Strength;
    - ``item NAME`` (or ``item: NAME``, ``magic item: NAME``): the unit's magic item;
    - ``legend`` or ``living legend`` (or ``[1]`` after the name): a Living Legend;
    - ``ally`` or ``allied``: a unit taken as an ally (then refused by ``validate_army_list``);
    - ``keywords a, b``: extra keywords such as ``hero``, ``monster``, ``war engine``;
    - ``stats TEXT``: the unit's stat line (``stats Sp 4 Me 4+ Ra - De 5+ Att 12 Ne 14/16``);
    - ``rules A, B`` (or ``special rules: A, B``): its special rules.

    Stat lines and special rules are kept as written, for the printed roster.

    Example: ``Ironguard, regiment, 145; US 2`` or ``Garrek [1], hero (infantry), 100; item
    Blessing of the Gods``.
    """
    units: list[UnitEntry] = []
    errors: list[tuple[int, str]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        head, *options = [part.strip() for part in line.split(";")]
        fields = [part.strip() for part in head.rsplit(",", 2)]
        if len(fields) != 3:
            errors.append((number, "Write each unit as: name, type, points."))
            continue
        name, unit_type, points_text = fields
        line_errors = []
        legend = False
        if _LEGEND_MARK.search(name):
            legend = True
            name = _LEGEND_MARK.sub("", name)
        if not name:
            line_errors.append("The unit has no name.")
        if not unit_type:
            line_errors.append("The unit has no type.")
        match = _POINTS.match(points_text)
        points = int(match.group(1)) if match else 0
        if not match:
            line_errors.append(f"{points_text!r} is not a points value.")
        elif points <= 0:
            line_errors.append("Points must be above 0.")
        base_us: int | None = None
        item: str | None = None
        allied = False
        keywords: frozenset[str] = frozenset()
        stats = special_rules = ""
        seen: set[str] = set()
        for option in options:
            if not option:
                continue
            lowered = _norm(option)
            if us := _US.match(option):
                kind = "us"
                try:
                    base_us = int(us.group(1))
                except ValueError:
                    line_errors.append(f"Unit Strength {us.group(1)!r} is not a whole number.")
                else:
                    if base_us < 0:
                        line_errors.append("Base Unit Strength must be 0 or more.")
            elif lowered in ("legend", "living legend"):
                kind, legend = "legend", True
            elif lowered in ("ally", "allied"):
                kind, allied = "ally", True
            elif found := _KEYWORDS.match(option):
                kind = "keywords"
                keywords = frozenset(k.strip() for k in found.group(1).split(",") if k.strip())
            elif found := _STATS.match(option):
                kind, stats = "stats", " ".join(found.group(1).split())[:120]
            elif found := _RULES.match(option):
                kind, special_rules = "rules", " ".join(found.group(1).split())[:300]
            elif found := _ITEM.match(option):
                kind = "item"
                item = found.group(1).strip() or None
                if item is None:
                    line_errors.append("The magic item has no name.")
            else:
                line_errors.append(
                    f"Unknown option {option!r}; use US n, item NAME, legend, ally, keywords, "
                    "stats or rules."
                )
                continue
            if kind in seen:
                line_errors.append(f"The option {kind!r} is given twice.")
            seen.add(kind)
        if line_errors:
            errors.extend((number, message) for message in line_errors)
            continue
        units.append(
            UnitEntry(
                name=name,
                unit_type=unit_type,
                points=points,
                base_us=base_us,
                keywords=keywords,
                magic_item=item,
                living_legend=legend,
                allied=allied,
                stats=stats,
                special_rules=special_rules,
            )
        )
    if not units and not errors:
        errors.append((0, "The list has no units."))
    if errors:
        return ParsedList((), tuple(errors))
    return ParsedList(tuple(units), ())


# ---------------------------------------------------------------------------------------------
# 11. Wizard's quests and magical artefacts
# ---------------------------------------------------------------------------------------------


class QuestResult(StrEnum):
    """MK-QUEST-4: the rows of the quest table."""

    HERO_LOST = "hero_lost"
    INJURED = "injured"
    NOTHING = "nothing"
    ARTEFACT = "artefact"
    GREAT_ARTEFACT = "great_artefact"
    RARE_ARTEFACT = "rare_artefact"


@dataclass(frozen=True)
class ArtefactBand:
    """MK-QUEST-4: the points range of an artefact a quest brings back."""

    low: int
    high: int

    def __contains__(self, points: object) -> bool:
        return isinstance(points, int) and self.low <= points <= self.high


ARTEFACT_BANDS: Mapping[QuestResult, ArtefactBand] = {
    QuestResult.ARTEFACT: ArtefactBand(5, 15),
    QuestResult.GREAT_ARTEFACT: ArtefactBand(20, 30),
    QuestResult.RARE_ARTEFACT: ArtefactBand(35, 50),
}

QUEST_TABLE: Mapping[int, QuestResult] = {
    1: QuestResult.HERO_LOST,
    2: QuestResult.INJURED,
    3: QuestResult.NOTHING,
    4: QuestResult.ARTEFACT,
    5: QuestResult.GREAT_ARTEFACT,
    6: QuestResult.RARE_ARTEFACT,
}
"""MK-QUEST-4: modified roll to result; 6 stands for 6 or more."""


def quest_modifier(hero_cost: int) -> int:
    """MK-QUEST-3: +1 for every full 100 points the Hero costs."""
    if isinstance(hero_cost, bool) or not isinstance(hero_cost, int) or hero_cost < 0:
        raise BattleError(
            f"A Hero's cost is a whole number of points, not {hero_cost!r} (MK-QUEST-3)."
        )
    return hero_cost // 100


@dataclass(frozen=True)
class QuestRoll:
    """MK-QUEST-3/4: the die, modifier, total and result; ``band`` for an artefact result."""

    hero_cost: int
    die: int
    modifier: int
    total: int
    result: QuestResult
    band: ArtefactBand | None


def quest_result(hero_cost: int, die: int) -> QuestRoll:
    """MK-QUEST-3/4/6: roll 1 D6 plus floor(cost/100) on the quest table.

    So a Hero of 100+ points never scores 1 and one of 500+ always scores 6+ (MK-QUEST-6).
    """
    modifier = quest_modifier(hero_cost)
    value = _die(die, "MK-QUEST-3")
    total = value + modifier
    result = QUEST_TABLE[min(total, 6)]
    return QuestRoll(hero_cost, value, modifier, total, result, ARTEFACT_BANDS.get(result))


@dataclass(frozen=True)
class WizardTower:
    """A Wizard's Tower tile and the controllers of the tiles around it (MK-WIZ-4, MK-QUEST-1)."""

    label: str
    neighbour_controllers: tuple[KingdomId | None, ...]


@dataclass(frozen=True)
class QuestRecord:
    """A quest sent this winter (MK-QUEST-1/2)."""

    kingdom: KingdomId
    tower: str
    hero_id: str


def quest_towers(kingdom: KingdomId, towers: Iterable[WizardTower]) -> tuple[str, ...]:
    """MK-QUEST-1: towers next to at least one tile the kingdom controls."""
    return tuple(tower.label for tower in towers if kingdom in tower.neighbour_controllers)


def validate_quest(
    kingdom: KingdomId,
    tower: WizardTower,
    hero_id: str,
    hero: UnitEntry,
    quests_this_winter: Sequence[QuestRecord],
    *,
    wizard_module: bool = True,
    kings_of_war_mode: bool = True,
) -> QuestRecord:
    """MK-QUEST-1/2/3/7, MK-AMB-22: check a quest and return its record.

    Module on and Kings of War mode; a Hero unit; a controlled tile next to the tower; one quest
    per tower per kingdom each winter; one quest per Hero each winter. Heroes of other kingdoms
    may quest at the same tower.
    """
    if not wizard_module:
        raise BattleError("Wizard's quests need the Wizard's towers module (MK-CFG-3, MK-WIZ-5).")
    if not kings_of_war_mode:
        raise BattleError(
            "Wizard's quests need Hero units, so they exist only in Kings of War mode "
            "(MK-QUEST-7, MK-AMB-22)."
        )
    if not hero.is_hero:
        raise BattleError(f"{hero.name} is not a Hero; only Heroes go on quests (MK-QUEST-3).")
    if kingdom not in tower.neighbour_controllers:
        raise BattleError(
            f"Your kingdom controls no tile next to the tower at {tower.label} (MK-QUEST-1)."
        )
    for quest in quests_this_winter:
        if quest.kingdom != kingdom:
            continue
        if quest.hero_id == hero_id:
            raise BattleError(
                f"{hero.name} has already been on a quest this winter (MK-QUEST-2)."
            )
        if quest.tower == tower.label:
            raise BattleError(
                f"Your kingdom has already sent a Hero to the tower at {tower.label} this winter "
                "(MK-QUEST-1)."
            )
    return QuestRecord(kingdom, tower.label, hero_id)


def apply_quest_injury(unit: UnitStrength) -> tuple[UnitStrength, bool]:
    """MK-QUEST-4 (result 2), MK-AMB-31: -1 Unit Strength, then the Reform destruction check at
    once. Returns the new record and whether the Hero is destroyed."""
    injured = replace(unit, deltas=unit.deltas + (-1,))
    return injured, injured.destroyed_at_reform


@dataclass(frozen=True)
class Artefact:
    """MK-ART-1/4: a campaign-wide unique magical artefact; its points never count for a unit."""

    name: str
    points: int


@dataclass(frozen=True)
class ArtefactHolder:
    """Where an artefact is (MK-ART-1/2/6/7): a unit of a kingdom, a kingdom's capital
    (``unit_id`` None), or the pool of quest rewards (``kingdom`` None)."""

    kingdom: KingdomId | None = None
    unit_id: str | None = None

    def __post_init__(self) -> None:
        if self.kingdom is None and self.unit_id is not None:
            raise BattleError("An artefact on a unit belongs to that unit's kingdom (MK-ART-2).")

    @property
    def in_pool(self) -> bool:
        return self.kingdom is None

    @property
    def at_capital(self) -> bool:
        return self.kingdom is not None and self.unit_id is None


POOL = ArtefactHolder()


def validate_artefact_holdings(holdings: Iterable[tuple[str, ArtefactHolder]]) -> None:
    """MK-ART-1: no artefact is held in two places in the campaign."""
    seen = Counter(name for name, holder in holdings if not holder.in_pool)
    doubled = [name for name, count in seen.items() if count > 1]
    if doubled:
        raise BattleError(
            f"{doubled[0]} is held twice; each artefact is unique across the campaign (MK-ART-1)."
        )


def available_artefacts(
    catalogue: Iterable[Artefact],
    holdings: Mapping[str, ArtefactHolder],
    result: QuestResult,
) -> tuple[Artefact, ...]:
    """MK-QUEST-4, MK-ART-1: artefacts in the pool whose points fit the quest result's band,
    sorted by name so a drawn index always means the same artefact."""
    band = ARTEFACT_BANDS.get(result)
    if band is None:
        raise BattleError(f"A quest result of {result} brings back no artefact (MK-QUEST-4).")
    free = [a for a in catalogue if holdings.get(a.name, POOL).in_pool and a.points in band]
    return tuple(sorted(free, key=lambda a: a.name))


def draw_artefact(
    catalogue: Iterable[Artefact],
    holdings: Mapping[str, ArtefactHolder],
    result: QuestResult,
    pick: int,
) -> Artefact | None:
    """MK-QUEST-4, MK-ART-1: the artefact at position ``pick`` (0-based, from a roll made
    outside) among those available; None when the band is empty."""
    candidates = available_artefacts(catalogue, holdings, result)
    if not candidates:
        return None
    if isinstance(pick, bool) or not isinstance(pick, int) or not 0 <= pick < len(candidates):
        raise BattleError(
            f"Pick a number from 0 to {len(candidates) - 1} to draw an artefact (MK-QUEST-4)."
        )
    return candidates[pick]


def route_artefact(
    new_owner: KingdomId, unit_id: str | None, owner_holds_capital: bool
) -> ArtefactHolder:
    """MK-ART-5..8, MK-AMB-37: a suitable unit of the new owner's army if one was named, else
    the owner's Capital City if held, else back to the pool."""
    if unit_id is not None:
        return ArtefactHolder(new_owner, unit_id)
    if owner_holds_capital:
        return ArtefactHolder(new_owner)
    return POOL


def capture_artefact(
    holder: ArtefactHolder,
    *,
    carrier_routed: bool,
    carrier_result: Result,
    winner: KingdomId,
    winner_unit: str | None,
    winner_holds_capital: bool,
) -> ArtefactHolder:
    """MK-ART-5..7: an artefact changes hands only if its unit was routed in a battle its side
    lost; it then goes to a suitable unit of the winning army, else the winner's capital, else
    the pool. Otherwise the holder is unchanged."""
    if holder.unit_id is None:
        raise BattleError(
            "Only an artefact carried by a unit can be captured in battle (MK-ART-5)."
        )
    if holder.kingdom == winner:
        raise BattleError("The winner cannot capture its own artefact (MK-ART-5).")
    if not (carrier_routed and carrier_result is Result.LOSS):
        return holder
    return route_artefact(winner, winner_unit, winner_holds_capital)


def capital_taken(
    holder: ArtefactHolder,
    *,
    taker: KingdomId,
    taker_unit: str | None,
    taker_holds_own_capital: bool,
) -> ArtefactHolder:
    """MK-ART-8, MK-AMB-37: an artefact kept in a Capital City that an enemy takes goes to a
    unit of an army that took part in the takeover, else the taker's own capital, else the pool."""
    if not holder.at_capital:
        raise BattleError("Only an artefact kept in a Capital City passes with it (MK-ART-8).")
    if holder.kingdom == taker:
        raise BattleError("A kingdom cannot take its own Capital City (MK-ART-8).")
    return route_artefact(taker, taker_unit, taker_holds_own_capital)


def destroyed_carrier_artefact(
    holder: ArtefactHolder,
    *,
    carrier_result: Result,
    winner: KingdomId | None,
    winner_holds_capital: bool,
    owner_holds_capital: bool,
) -> tuple[ArtefactHolder, bool]:
    """MK-ART-5..7, MK-AMB-37: where an artefact goes when the army of the unit carrying it is
    destroyed in a battle (sunk, reduced to 0 points, slaughtered, or with no retreat tile).

    A destroyed unit of the losing side counts as routed: the winner captures the artefact
    (held by the winner's Capital City until given to a unit of the winning army, or back to
    the pool when the winner holds no capital, MK-ART-5..7). When the carrier's side did not
    lose (a draw, or a winner's army lost on the way), nobody captures it: it has no unit left,
    so it waits in its owner's Capital City as after MK-ART-6, or is lost to the pool as in
    MK-ART-7. Returns the new holder and whether it was captured.
    """
    if holder.unit_id is None or holder.kingdom is None:
        raise BattleError("Only an artefact carried by a unit goes down with its army (MK-ART-2).")
    if carrier_result is Result.LOSS and winner is not None and winner != holder.kingdom:
        return route_artefact(winner, None, winner_holds_capital), True
    return route_artefact(holder.kingdom, None, owner_holds_capital), False
