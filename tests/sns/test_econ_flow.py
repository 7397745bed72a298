"""Swords & Stones: one turn of one kingdom from harvest to the report, the forecast and the
booking coming from the same calls (SNS-ECON-11, SNS-ECON-20..51)."""

from __future__ import annotations

from campaign.systems.swords_and_stones.rules import econ_advance as a
from campaign.systems.swords_and_stones.rules import econ_harvest as h
from campaign.systems.swords_and_stones.rules import econ_turn as t
from campaign.systems.swords_and_stones.rules import events as ev
from campaign.systems.swords_and_stones.rules.econ_stats import game_figures
from campaign.systems.swords_and_stones.rules.economy import (
    AVALONIAN,
    FOOD,
    GOLD,
    STONE,
    WOOD,
    Stockpile,
    book,
)

OPERATIONAL = {"STOCKPILE": 1, "TAVERN": 1, "FARM": 2}


def _harvest(stock: Stockpile) -> tuple[h.HarvestPhase, tuple[ev.EventOutcome, ...]]:
    forest = h.harvest_site(h.Site("forest", 4, code="F1"), (1, 4, 5))
    outcrop = h.harvest_site(h.Site("outcrop", 3, code="O2", secondary=GOLD, threshold=5),
                             (2, 6))
    event = ev.resolve_event("forest", 13, turn=12, context=ev.EventContext(stockpile=stock))
    farms = h.farm_harvest((3, 2))
    return h.harvest_phase((forest, outcrop, farms)), (event,)


def test_sns_econ_11_a_turn_forecast_equals_booking() -> None:
    """SNS-ECON-11, SNS-ECON-20, SNS-ECON-30, SNS-ECON-42..44, SNS-ECON-51: harvest (events
    resolved first), compulsory phase, then training; computing twice gives the same lines, and
    booking them gives the Stockpile and the report's figures."""
    stock = Stockpile(food=1, gold=2)
    forecast = _harvest(stock)
    assert forecast == _harvest(stock)
    phase, events = forecast
    assert phase.events == ("forest",)
    stock = book(stock, ev.event_lines(events))
    stock = book(stock, phase.lines)
    assert stock == Stockpile(food=3, wood=5, stone=1, gold=3)

    compulsory = t.compulsory_phase(stock, OPERATIONAL)
    assert compulsory.upkeep.due == 1 and compulsory.growth.rate == 2
    stock = book(stock, compulsory.upkeep.lines)
    assert stock.food == 2

    kingdom = a.Kingdom(AVALONIAN, stock, OPERATIONAL, OPERATIONAL)
    training = a.train(kingdom, "VILLAGER", 2, growth=compulsory.growth)
    stock = book(stock, training.lines)
    assert stock == Stockpile(food=0, wood=5, stone=1, gold=3)

    every_line = (*ev.event_lines(events), *phase.lines, *compulsory.upkeep.lines,
                  *training.lines)
    figures = game_figures(every_line, start_gold=2)
    assert figures.peak_gold == 3
    assert figures.units_trained == {"SNS-UNIT-VILLAGER": 2}
    assert figures.gained == {WOOD: 5, STONE: 1, GOLD: 1, FOOD: 2}
    assert figures.spent == {FOOD: 3}
