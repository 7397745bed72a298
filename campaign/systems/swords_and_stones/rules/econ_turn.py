"""Swords & Stones: the compulsory phase (SNS-ECON-40..46, SNS-STATE-3).

In order: every die timer ticks down, units working foundations remove Build Points, upkeep is
computed and paid (a shortfall lowers growth), and the growth rate (how many units may be trained
this turn) is worked out. ``compulsory_phase`` does all four; each step is also a function of its
own so a service can show it alone.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from campaign.systems.swords_and_stones.rules.catalogue import TIMERS, UPKEEP_BUILDINGS
from campaign.systems.swords_and_stones.rules.economy import (
    DEFAULT_OPTIONS,
    FOOD,
    EconOptions,
    LedgerLine,
    RuleViolation,
    Stockpile,
)

# --- die timers (SNS-ECON-40, SNS-STATE-3) -----------------------------------------------------


@dataclass(frozen=True)
class Timer:
    """A die timer on the ledger (SNS-STATE-3): the effect runs while ``remaining`` > 0."""

    name: str
    remaining: int
    rule_id: str = "SNS-STATE-3"
    subject: str = ""


def start_timer(name: str, value: int | None = None, *, subject: str = "") -> Timer:
    """SNS-STATE-3: a die timer set to its printed start (or ``value`` for computed ones)."""
    if value is None:
        if name not in TIMERS:
            raise ValueError(f"No printed start for the timer {name!r} (SNS-STATE-3).")
        value = TIMERS[name]
    if value < 1:
        raise ValueError("A timer starts at 1 or more (SNS-STATE-3).")
    return Timer(name, value, subject=subject)


def flood_timer(current_turn: int) -> int:
    """SNS-STATE-3 (A Dire Warning): the flood comes in (80 - current turn) / 3 turns, rounded
    up, and never sooner than 8."""
    return max(8, math.ceil((80 - current_turn) / 3))


def tick_timers(timers: Sequence[Timer]) -> tuple[tuple[Timer, ...], tuple[Timer, ...]]:
    """SNS-ECON-40: every timer counts down by 1 in the compulsory phase; those reaching 0
    expire. Returns (still running, expired)."""
    running: list[Timer] = []
    expired: list[Timer] = []
    for timer in timers:
        ticked = replace(timer, remaining=timer.remaining - 1)
        (expired if ticked.remaining <= 0 else running).append(ticked)
    return tuple(running), tuple(expired)


# --- Build Points (SNS-ECON-41) ----------------------------------------------------------------


@dataclass(frozen=True)
class Foundation:
    """A building under construction: its BP die (SNS-ECON-41, SNS-ECON-53)."""

    building: str
    bp_remaining: int
    bp_full: int
    in_own_section: bool = True

    @property
    def complete(self) -> bool:
        return self.bp_remaining <= 0


def work_foundation(foundation: Foundation, workers: int, *, treadmill_crane: bool = False
                    ) -> Foundation:
    """SNS-ECON-41: each working unit removes 1 BP; at 0 the building is complete. With the
    Treadmill Crane a foundation finishes at 1 BP, except Farms and buildings outside the own map
    section (SNS-UPG-TREADMILL). A completed building that needs staff takes one of the units
    touching it (SNS-ECON-54)."""
    if workers < 0:
        raise ValueError("Workers cannot be negative.")
    remaining = max(0, foundation.bp_remaining - workers)
    if (treadmill_crane and remaining == 1 and foundation.building != "FARM"
            and foundation.in_own_section):
        remaining = 0
    return replace(foundation, bp_remaining=remaining)


# --- upkeep (SNS-ECON-42/43/45) ----------------------------------------------------------------


def upkeep_due(operational: Mapping[str, int]) -> int:
    """SNS-ECON-42: 1 food a turn per operational Tavern, Town Center, Arena and Temple, less 1
    per Commune, never below 0. Non-operational buildings cost nothing, and units never cost
    upkeep (SNS-ECON-45). ``operational`` counts operational buildings by code."""
    gross = sum(operational.get(code, 0) for code in UPKEEP_BUILDINGS)
    return max(0, gross - operational.get("COMMUNE", 0))


@dataclass(frozen=True)
class Upkeep:
    """Upkeep of one turn: the food lines paid and the food short (SNS-ECON-43)."""

    due: int
    lines: tuple[LedgerLine, ...]
    shortfall: int


def pay_upkeep(stockpile: Stockpile, due: int, options: EconOptions = DEFAULT_OPTIONS) -> Upkeep:
    """SNS-ECON-42/43: pay what food there is; every food short is -1 growth this turn. A
    Stockpile that is not operational cannot pay anything (SNS-ECON-4). Charged at the end of the
    compulsory phase by default (SNS-AMB-33); ``upkeep_when="advance"`` only relabels the line."""
    paid = min(due, stockpile.food) if stockpile.operational else 0
    when = "start of the advance phase" if options.upkeep_when == "advance" else "compulsory phase"
    lines = (LedgerLine(FOOD, -paid, "SNS-ECON-42", f"upkeep ({when})"),) if paid else ()
    return Upkeep(due, lines, due - paid)


# --- growth (SNS-ECON-44/46) -------------------------------------------------------------------


@dataclass(frozen=True)
class GrowthLine:
    """One source of growth (positive) or a penalty (negative), citing its rule (SNS-ECON-44)."""

    amount: int
    rule_id: str
    reason: str


TAXATION_PENALTY = GrowthLine(-1, "SNS-UPG-TAXATION", "Taxation")
CRIME_AND_PUNISHMENT_PENALTY = GrowthLine(-1, "SNS-UPG-CRIMEPUNISH", "Crime and Punishment")
FESTAG = GrowthLine(1, "SNS-UPG-FESTAG", "Festag")
MASS_FUNERAL = GrowthLine(1, "SNS-UPG-MASSFUNERAL", "Mass Funeral Service")
BLOOD_SPORTS = GrowthLine(1, "SNS-UPG-BLOODSPORTS", "Blood Sports")
WOUNDED_HERO = GrowthLine(-2, "SNS-CBT-12", "a Caster or Queen was wounded")


@dataclass(frozen=True)
class Growth:
    """The growth rate of a turn and its breakdown. ``rate`` is ``None`` when growth is ignored
    (training unlimited: Kingdom of Bone, Esoteric Erotica)."""

    lines: tuple[GrowthLine, ...]
    rate: int | None


def upgrade_growth_penalties(upgrades: Sequence[str]) -> tuple[GrowthLine, ...]:
    """SNS-ECON-44: standing penalties from owned upgrades (Taxation, Crime and Punishment)."""
    out: list[GrowthLine] = []
    if "TAXATION" in upgrades:
        out.append(TAXATION_PENALTY)
    if "CRIMEPUNISH" in upgrades:
        out.append(CRIME_AND_PUNISHMENT_PENALTY)
    return tuple(out)


def growth_rate(
    operational: Mapping[str, int],
    *,
    shortfall: int = 0,
    modifiers: Sequence[GrowthLine] = (),
    besieged: bool = False,
    fixed: int | None = None,
    fixed_by: str = "",
    ignored: bool = False,
) -> Growth:
    """SNS-ECON-44: +1 for an operational Stockpile, +1 per operational Tavern, Town Center,
    Temple and Arena, then the modifiers (upgrades, abilities, events, rituals), -1 per food of
    upkeep short (SNS-ECON-43) and -1 while besieged (SNS-ECON-46). Never below 0 (SNS-AMB-34).
    ``fixed`` sets the rate outright (Revolt 1, The Long Shadow 0, The Dreadful 0); ``ignored``
    lifts the limit (Kingdom of Bone, SNS-FAC-9; Esoteric Erotica)."""
    lines: list[GrowthLine] = []
    if operational.get("STOCKPILE", 0):
        lines.append(GrowthLine(1, "SNS-ECON-44", "Stockpile"))
    for code in UPKEEP_BUILDINGS:
        count = operational.get(code, 0)
        if count:
            lines.append(GrowthLine(count, "SNS-ECON-44", code.lower()))
    lines.extend(modifiers)
    if shortfall:
        lines.append(GrowthLine(-shortfall, "SNS-ECON-43", "upkeep unpaid"))
    if besieged:
        lines.append(GrowthLine(-1, "SNS-ECON-46", "besieged"))
    if ignored:
        return Growth(tuple(lines), None)
    if fixed is not None:
        return Growth(tuple(lines) + (GrowthLine(0, "SNS-ECON-44", f"set by {fixed_by}"),),
                      max(0, fixed))
    return Growth(tuple(lines), max(0, sum(line.amount for line in lines)))


# --- the whole phase ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Compulsory:
    """The result of the compulsory phase (SNS-ECON-11 phase 2)."""

    timers: tuple[Timer, ...]
    expired: tuple[Timer, ...]
    foundations: tuple[Foundation, ...]
    completed: tuple[str, ...]
    upkeep: Upkeep
    growth: Growth


def compulsory_phase(
    stockpile: Stockpile,
    operational: Mapping[str, int],
    *,
    timers: Sequence[Timer] = (),
    foundations: Sequence[tuple[Foundation, int]] = (),
    treadmill_crane: bool = False,
    modifiers: Sequence[GrowthLine] = (),
    besieged: bool = False,
    fixed: int | None = None,
    fixed_by: str = "",
    ignored: bool = False,
    options: EconOptions = DEFAULT_OPTIONS,
) -> Compulsory:
    """SNS-ECON-40..44: tick timers, work foundations (pairs of foundation and working units),
    pay upkeep and compute growth, in that order. Buildings completed here count from the next
    turn (they were not operational when the phase began)."""
    running, expired = tick_timers(timers)
    worked = tuple(work_foundation(f, n, treadmill_crane=treadmill_crane) for f, n in foundations)
    completed = tuple(f.building for f in worked if f.complete)
    upkeep = pay_upkeep(stockpile, upkeep_due(operational), options)
    growth = growth_rate(operational, shortfall=upkeep.shortfall, modifiers=modifiers,
                         besieged=besieged, fixed=fixed, fixed_by=fixed_by, ignored=ignored)
    return Compulsory(running, expired, tuple(f for f in worked if not f.complete), completed,
                      upkeep, growth)


def check_training_allowed(growth: Growth, already_trained: int, more: int) -> None:
    """SNS-ECON-51: units trained this turn may not exceed the growth rate."""
    if growth.rate is None:
        return
    if already_trained + more > growth.rate:
        raise RuleViolation(
            f"Your growth rate is {growth.rate} and {already_trained} units were already trained "
            f"this turn, so {more} more cannot be trained (SNS-ECON-51, SNS-ECON-44)."
        )
