"""Swords & Stones: auto-resolved ("simple") battles (SNS-AR-1..9).

Each side's score is its army score (SNS-AR-6) plus, for the defender, the kingdom defence score
(SNS-AR-7). The defender, once its advance phase is over, commits units one by one until its
total just beats the attacker's (SNS-AR-1). The higher score wins; the winner's units come home
on a 5+ each, and an attacker who wins may first buy units back with the margin (SNS-AR-2). The
loser's army is destroyed, and a defender who loses loses the game (SNS-AR-3). After a won
defence the beaten enemy's total is halved for 3 turns (SNS-AR-4). The Damned keep 70 % of their
total and Villagers count 0.4 each, both rounded up (SNS-AR-5).

Scores are worked out in tenths so that 0.4 and 0.7 round exactly. Each step is a function; the
whole battle is ``resolve_battle`` with the dice passed in.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from campaign.rules.options import OptionSpec, parse_options
from campaign.systems.swords_and_stones.rules.economy import RuleViolation

#: SNS-AR-6: army points per unit or token, in tenths of a point.
ARMY_POINTS_TENTHS: Mapping[str, int] = {
    "SWORDS": 10, "SPEARS": 10, "ARCHERS": 10, "CROSSBOWS": 10,
    "RIDERS": 20, "HORSEARCHERS": 20, "MONK": 20,
    "KNIGHTS": 30, "CASTER": 30, "CHARIOT": 30,
    "CATAPULT": 20, "RAM": 20, "CANNON": 20, "SIEGETOWER": 20, "BALLISTA": 20,
    "TREBUCHET": 20, "STEAMTANK": 20,
    "DRAGON": 40, "BONEDRAGON": 40, "MONSTER": 40, "BEAST": 40, "QUEEN": 40, "BOMB": 40,
    "VETERAN": 10,
    "VILLAGER": 4, "ZOMBIE": 4,
}
#: SNS-AR-6: siege units worth 4 to an attacker against Completed Walls.
WALL_BREAKERS = ("CATAPULT", "RAM", "CANNON", "SIEGETOWER", "TREBUCHET", "STEAMTANK")
VILLAGERS = ("VILLAGER", "ZOMBIE")

#: SNS-AR-7: kingdom defence points.
DEFENCE_POINTS: Mapping[str, int] = {
    "guard_tower": 3, "upgrade": 3, "island": 5, "palisade_wall": 5, "stone_wall": 12,
    "trench": 4, "castle": 10, "moat": 6,
}
#: SNS-AR-7: favor a defender may spend, 1 point each.
MAX_DEFENCE_FAVOR = 10
#: SNS-AR-7: buildings whose upgrades count for defence.
DEFENCE_UPGRADE_BUILDINGS = ("BARRACKS", "STABLE", "CASTLE", "UNIVERSITY", "WORKSHOP")

ATTACKER = "attacker"
DEFENDER = "defender"


@dataclass(frozen=True)
class AROptions:
    """House rules for auto-resolve: ``halving_rounds_up`` (SNS-AMB-37: the book says both;
    default down) and ``tie_goes_to`` (equal totals are not settled by the book; by default the
    attack fails, since the defender only needs to beat the attacker to win)."""

    halving_rounds_up: bool = False
    tie_goes_to: str = DEFENDER

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> AROptions:
        """Validate stored options and fill in the defaults."""
        return cls(**parse_options(AR_OPTIONS, data))

    def __post_init__(self) -> None:
        if self.tie_goes_to not in (ATTACKER, DEFENDER):
            raise ValueError("tie_goes_to is 'attacker' or 'defender'.")


#: The auto-resolve house rules as the campaign settings form shows them.
AR_OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("halving_rounds_up", "Halved enemy totals round up", "bool", False,
               rule_id="SNS-AMB-37", help="Off: round down."),
    OptionSpec("tie_goes_to", "Equal totals go to", "choice", DEFENDER, rule_id="SNS-AR-2",
               choices=((DEFENDER, "the defender"), (ATTACKER, "the attacker"))),
)

DEFAULT_AR_OPTIONS = AROptions()


def _ceil_tenths(tenths: int) -> int:
    return -(-tenths // 10)


def unit_points_tenths(code: str, *, side: str, defender_walls: bool = False) -> int:
    """SNS-AR-6: one unit's worth in tenths: attackers' wall-breaking siege units are worth 4
    against Completed Walls, and a defender's Ballistas count double."""
    if code not in ARMY_POINTS_TENTHS:
        raise RuleViolation(f"{code.title()} has no army score (SNS-AR-6).")
    points = ARMY_POINTS_TENTHS[code]
    if side == ATTACKER and defender_walls and code in WALL_BREAKERS:
        return 40
    if side == DEFENDER and code == "BALLISTA":
        return 2 * points
    return points


def army_score(units: Sequence[str], *, side: str, defender_walls: bool = False,
               damned: bool = False) -> int:
    """SNS-AR-6, SNS-AR-5: the army score of the units (and Veteran or Bomb tokens) sent:
    whole points plus 0.4 per Villager with the Villager total rounded up; the Damned then keep
    70 %, rounded up."""
    whole = sum(unit_points_tenths(c, side=side, defender_walls=defender_walls)
                for c in units if c not in VILLAGERS)
    villagers = sum(ARMY_POINTS_TENTHS[c] for c in units if c in VILLAGERS)
    total = whole // 10 + _ceil_tenths(villagers)
    return damned_total(total) if damned else total


def damned_total(total: int) -> int:
    """SNS-AR-5, SNS-FAC-10: a Damned side's total times 0.7, rounded up."""
    return _ceil_tenths(total * 7)


@dataclass(frozen=True)
class Defences:
    """What a defending kingdom has for SNS-AR-7."""

    guard_towers: int = 0
    defence_upgrades: int = 0
    attack_towers: bool = False
    island: bool = False
    palisade_wall: bool = False
    stone_wall: bool = False
    trench: bool = False
    castles: int = 0
    moat: bool = False
    favor_spent: int = 0
    damned: bool = False


def count_defence_upgrades(upgrades: Mapping[str, str], *, player: bool = True) -> int:
    """SNS-AR-7: upgrades bought at the Barracks, Stables, Castle, University or Workshop count
    for players (not for AI kingdoms); ``upgrades`` maps upgrade code to its building."""
    if not player:
        return 0
    return sum(1 for building in upgrades.values() if building in DEFENCE_UPGRADE_BUILDINGS)


def defence_score(defences: Defences) -> int:
    """SNS-AR-7: 3 per Guard Tower and per counted upgrade (and for Attack Towers), 5 for an
    island kingdom, 5 for a completed Palisade Wall, 12 for a completed Stone Wall, 4 for a
    completed Trench, 10 per Castle, 6 for a completed Moat, 1 per favor spent (at most 10); the
    Damned keep 70 %, rounded up."""
    if not 0 <= defences.favor_spent <= MAX_DEFENCE_FAVOR:
        raise RuleViolation(f"A defender spends 0 to {MAX_DEFENCE_FAVOR} favor on its defence "
                            "(SNS-AR-7).")
    d = DEFENCE_POINTS
    total = (d["guard_tower"] * defences.guard_towers
             + d["upgrade"] * (defences.defence_upgrades + int(defences.attack_towers))
             + d["island"] * defences.island + d["palisade_wall"] * defences.palisade_wall
             + d["stone_wall"] * defences.stone_wall + d["trench"] * defences.trench
             + d["castle"] * defences.castles + d["moat"] * defences.moat
             + defences.favor_spent)
    return damned_total(total) if defences.damned else total


def halved(total: int, options: AROptions = DEFAULT_AR_OPTIONS) -> int:
    """SNS-AR-4: the beaten enemy's total while the post-defence timer runs (rounded down by
    default, SNS-AMB-37)."""
    return -(-total // 2) if options.halving_rounds_up else total // 2


def attacker_total(units: Sequence[str], *, defender_walls: bool = False, damned: bool = False,
                   halving: bool = False, options: AROptions = DEFAULT_AR_OPTIONS) -> int:
    """SNS-AR-1, SNS-AR-4..6: the attacker's score: its army (70 % if Damned), halved while a
    post-defence timer against it runs."""
    total = army_score(units, side=ATTACKER, defender_walls=defender_walls, damned=damned)
    return halved(total, options) if halving else total


@dataclass(frozen=True)
class Commitment:
    """The units a defender commits and its resulting total (SNS-AR-1)."""

    units: tuple[str, ...]
    total: int
    beats: bool


def commit_defenders(attacker: int, defence: int, available: Sequence[str], *,
                     damned: bool = False) -> Commitment:
    """SNS-AR-1: after its advance phase the defender adds units, in the order it chooses, until
    its total (defence score plus the army committed) just beats the attacker's; if every unit
    is not enough, all of them are committed."""
    committed: list[str] = []
    total = defence
    for code in (None, *available):
        if code is not None:
            committed.append(code)
        total = defence + army_score(committed, side=DEFENDER, damned=damned)
        if total > attacker:
            return Commitment(tuple(committed), total, True)
    return Commitment(tuple(committed), total, False)


def winner(attacker: int, defender: int, options: AROptions = DEFAULT_AR_OPTIONS) -> str:
    """SNS-AR-2: the higher score wins (equal scores: ``AROptions.tie_goes_to``)."""
    if attacker > defender:
        return ATTACKER
    if defender > attacker:
        return DEFENDER
    return options.tie_goes_to


def buy_back(units: Sequence[str], margin: int, chosen: Sequence[str], *,
             defender_walls: bool = False) -> tuple[str, ...]:
    """SNS-AR-2: a winning attacker may bring units home for sure, spending the margin of victory
    on their army points (margin 3 = 3 Barracks units or 1 Knight). Returns the units left to
    roll for."""
    pool = list(units)
    spent = 0
    for code in chosen:
        if code not in pool:
            raise RuleViolation(f"{code.title()} was not in the army (SNS-AR-2).")
        pool.remove(code)
        spent += unit_points_tenths(code, side=ATTACKER, defender_walls=defender_walls)
    if spent > margin * 10:
        raise RuleViolation(f"The margin of {margin} does not buy back that much "
                            f"({spent / 10:g} points) (SNS-AR-2).")
    return tuple(pool)


def survivors(units: Sequence[str], dice: Sequence[int]) -> tuple[str, ...]:
    """SNS-AR-2: each unit of the winner rolls a d6 and comes home on 5+."""
    if len(dice) != len(units):
        raise ValueError(f"{len(units)} units need {len(units)} dice, got {len(dice)}.")
    for die in dice:
        if not 1 <= die <= 6:
            raise ValueError(f"A d6 shows 1 to 6, not {die}.")
    return tuple(code for code, die in zip(units, dice) if die >= 5)


@dataclass(frozen=True)
class Battle:
    """An auto-resolved battle: totals, the winner, who came home, and the consequences
    (SNS-AR-2..4)."""

    attacker_total: int
    defender_total: int
    defender_units: tuple[str, ...]
    winner: str
    margin: int
    bought_back: tuple[str, ...]
    home: tuple[str, ...]
    lost: tuple[str, ...]
    defender_loses_game: bool
    halving_timer: int


def resolve_battle(
    attackers: Sequence[str],
    defences: Defences,
    available_defenders: Sequence[str],
    *,
    survival_dice: Sequence[int],
    attacker_damned: bool = False,
    defender_walls: bool = False,
    halving: bool = False,
    buy: Sequence[str] = (),
    options: AROptions = DEFAULT_AR_OPTIONS,
) -> Battle:
    """SNS-AR-1..7: a whole auto-resolved battle. ``survival_dice`` are the winner's d6, one per
    unit left after any buy-back (``buy``, attacker only). A won defence starts the 3-turn
    halving against the attacker (timer 4, SNS-AR-4); a lost one loses the game (SNS-AR-3)."""
    a_total = attacker_total(attackers, defender_walls=defender_walls, damned=attacker_damned,
                             halving=halving, options=options)
    d_score = defence_score(defences)
    commitment = commit_defenders(a_total, d_score, available_defenders, damned=defences.damned)
    won = winner(a_total, commitment.total, options)
    margin = abs(a_total - commitment.total)
    if won == ATTACKER:
        to_roll = buy_back(attackers, margin, buy, defender_walls=defender_walls)
        bought = tuple(buy)
        loser_army = commitment.units
    else:
        if buy:
            raise RuleViolation("Only a winning attacker buys units back (SNS-AR-2).")
        to_roll, bought, loser_army = commitment.units, (), tuple(attackers)
    home = survivors(to_roll, survival_dice)
    lost_own = list(to_roll)
    for code in home:
        lost_own.remove(code)
    return Battle(a_total, commitment.total, commitment.units, won, margin, bought,
                  bought + home, tuple(lost_own) + loser_army, won == ATTACKER,
                  4 if won == DEFENDER else 0)


# --- AI opponents (SNS-AR-8, SNS-AR-9) ---------------------------------------------------------

DIFFICULTIES = ("apprentice", "veteran", "master", "legend")
#: SNS-AR-8: Scouts Report rolls by turn band; columns taken in order for the four difficulties
#: (SNS-AMB-37: the table is headed Apprentice, Veteran, Legend, God).
ARMY_LEVELS: tuple[tuple[int, tuple[int, int, int, int]], ...] = (
    (10, (0, 0, 0, 0)), (20, (0, 1, 1, 1)), (30, (1, 1, 2, 2)), (40, (1, 2, 2, 3)),
    (50, (2, 2, 3, 3)), (60, (2, 3, 3, 4)), (70, (2, 3, 4, 4)), (80, (3, 4, 4, 5)),
    (90, (3, 4, 5, 5)), (100, (3, 4, 5, 6)),
)
ARMY_LEVEL_BEYOND = (4, 5, 6, 7)
#: SNS-AR-8: the turn from which the scout die is rolled, by difficulty.
SCOUT_START = {"apprentice": 30, "veteran": 25, "master": 20, "legend": 15}


def army_level(turn: int, difficulty: str) -> int:
    """SNS-AR-8: how many Scouts Report rolls an AI army gets in this turn."""
    column = DIFFICULTIES.index(difficulty)
    for last, row in ARMY_LEVELS:
        if turn <= last:
            return row[column]
    return ARMY_LEVEL_BEYOND[column]


def enemy_spotted(turn: int, difficulty: str, die: int, *, monument_timer: bool = False) -> bool:
    """SNS-AR-8: from the difficulty's start turn, the scout die spots an enemy on a 6 (5+ while
    the player's Monument timer runs)."""
    if turn < SCOUT_START[difficulty]:
        return False
    return die >= (5 if monument_timer else 6)


#: SNS-AR-9: after-turn rows of the Enemy Kingdom Table: (level letter, garrison rolls).
ENEMY_KINGDOMS: tuple[tuple[int, tuple[tuple[str, int], ...]], ...] = (
    (10, (("F", 1), ("F", 1), ("F", 1), ("F", 1))),
    (20, (("F", 1), ("F", 1), ("E", 2), ("E", 2))),
    (30, (("F", 1), ("E", 1), ("E", 2), ("D", 2))),
    (40, (("F", 2), ("E", 2), ("D", 3), ("D", 3))),
    (50, (("E", 2), ("D", 3), ("C", 2), ("C", 3))),
    (60, (("E", 2), ("C", 2), ("C", 3), ("C", 4))),
    (70, (("D", 2), ("C", 3), ("B", 2), ("B", 3))),
    (80, (("D", 3), ("C", 4), ("B", 3), ("B", 4))),
    (90, (("D", 3), ("C", 4), ("B", 3), ("A", 3))),
    (100, (("C", 4), ("B", 3), ("A", 4), ("A", 4))),
    (110, (("C", 4), ("B", 5), ("A", 4), ("A", 5))),
)
#: SNS-AR-9: defence bonus of an AI kingdom by level letter.
KINGDOM_LEVEL_BONUS = {"A": 40, "B": 30, "C": 20, "D": 15, "E": 8, "F": 3}


def enemy_kingdom(turn: int, difficulty: str) -> tuple[str, int, int]:
    """SNS-AR-9: an AI kingdom's level letter, garrison rolls and defence bonus after ``turn``
    (the last row reached applies; before turn 10 the first row)."""
    column = DIFFICULTIES.index(difficulty)
    row = ENEMY_KINGDOMS[0][1]
    for after, cells in ENEMY_KINGDOMS:
        if turn >= after:
            row = cells
    letter, garrison = row[column]
    return letter, garrison, KINGDOM_LEVEL_BONUS[letter]
