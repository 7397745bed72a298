"""Swords & Stones: end-of-game figures drawn from a game's ledger lines, and the counts the
early-end score needs (SNS-SCORE-1).

Peak gold (SNS-STAT-18), units trained, foundations laid, upgrades bought (SNS-STAT-22) and
spells cast with the favor spent on them (SNS-STAT-31) all come from the lines the economy booked,
so the post-game report never needs a separate tally. The score itself is computed by
``titles.score_total``; ``score_counts`` turns a kingdom's end state into what it counts.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from campaign.systems.swords_and_stones.rules.catalogue import (
    DEFAULT_CATALOGUE,
    DEFENSIVE,
    Catalogue,
)
from campaign.systems.swords_and_stones.rules.economy import FAVOR, GOLD, LedgerLine

TRAINING_RULES = ("SNS-ECON-51", "SNS-ECON-52", "SNS-UNIT-MERC")


@dataclass(frozen=True)
class GameFigures:
    """What a game's ledger says for the post-game report."""

    peak_gold: int
    units_trained: Mapping[str, int]
    foundations_laid: Mapping[str, int]
    upgrades_purchased: int
    upgrades: tuple[str, ...]
    spells_cast: Mapping[str, int]
    favor_spent_on_spells: int
    gained: Mapping[str, int]
    spent: Mapping[str, int]

    @property
    def total_units_trained(self) -> int:
        return sum(self.units_trained.values())


def _add(tally: dict[str, int], key: str, n: int) -> None:
    tally[key] = tally.get(key, 0) + n


def game_figures(lines: Iterable[LedgerLine], start_gold: int = 0) -> GameFigures:
    """SNS-STAT-18, SNS-STAT-22, SNS-STAT-31: read the figures off the game's lines in booking
    order. Peak gold is the highest running gold balance (from ``start_gold``); a training,
    foundation, upgrade or spell is counted by the ``count`` on the first line of its action.
    Only upgrades bought with resources are on the ledger, so free ones are not counted, as the
    Title rule wants."""
    gold = peak = start_gold
    trained: dict[str, int] = {}
    laid: dict[str, int] = {}
    upgrades: list[str] = []
    spells: dict[str, int] = {}
    spell_favor = 0
    gained: dict[str, int] = {}
    spent: dict[str, int] = {}
    for line in lines:
        if line.resource == GOLD:
            gold += line.amount
            peak = max(peak, gold)
        if line.amount > 0:
            _add(gained, line.resource, line.amount)
        elif line.amount < 0:
            _add(spent, line.resource, -line.amount)
        if not line.count:
            if line.rule_id == "SNS-STATE-2" and line.resource == FAVOR:
                spell_favor -= line.amount
            continue
        if line.rule_id in TRAINING_RULES:
            _add(trained, line.subject, line.count)
        elif line.rule_id == "SNS-ECON-53":
            _add(laid, line.subject, line.count)
        elif line.rule_id == "SNS-ECON-56":
            upgrades.append(line.subject)
        elif line.rule_id == "SNS-STATE-2":
            _add(spells, line.subject, line.count)
            if line.resource == FAVOR:
                spell_favor -= line.amount
    return GameFigures(peak, trained, laid, len(upgrades), tuple(upgrades), spells, spell_favor,
                       gained, spent)


def score_counts(
    units: Mapping[str, int],
    operational: Mapping[str, int],
    *,
    favor: int,
    upgrades: int,
    units_off_table: int = 0,
    monsters: int = 0,
    dragons: int = 0,
    unique_units: int = 0,
    veteran_or_bomb_units: int = 0,
    completed_walls: int = 0,
    monuments: int = 0,
    catalogue: Catalogue = DEFAULT_CATALOGUE,
) -> dict[str, int]:
    """SNS-SCORE-1: the counts of the early-end score from a kingdom's end state (keys as
    ``titles.SCORE_TABLE``). ``units`` counts own units by catalogue code, ``operational`` the
    operational buildings by code; monsters, dragons and unique units are counted by the GM.
    Every unit and every favor scores; military units on land on the table score again; Knights,
    monsters other than Dragons and unique units again; ships 3 more; operational buildings that
    are not defensive 4; Guard Towers, upgrades, Castles, Completed Walls and Monuments by their
    own lines (the blank numbers follow SNS-AMB-27)."""
    ships = sum(n for code, n in units.items() if catalogue.unit(code).score_class == "ship")
    military_land = sum(
        n for code, n in units.items()
        if catalogue.unit(code).military and catalogue.unit(code).score_class != "ship"
    )
    buildings = sum(
        n for code, n in operational.items()
        if catalogue.building(code).category != DEFENSIVE and code != "MONUMENT"
    )
    return {
        "units": sum(units.values()) + monsters + dragons,
        "favor": favor,
        "military_on_land": max(0, military_land - units_off_table),
        "elite_units": units.get("KNIGHTS", 0) + monsters + unique_units,
        "ships": ships,
        "veteran_or_bomb_units": veteran_or_bomb_units,
        "operational_buildings": buildings,
        "towers": operational.get("GUARDTOWER", 0),
        "upgrades": upgrades,
        "dragons_queens_casters": dragons + units.get("QUEEN", 0) + units.get("CASTER", 0),
        "castles": operational.get("CASTLE", 0),
        "completed_walls": completed_walls,
        "monuments": monuments,
    }
