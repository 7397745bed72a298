"""What the pages and sheets read of a game: a kingdom's economy explained, and the standings.
Pure reads of a loaded board (``state.load``); the views and the sheets share them."""

from __future__ import annotations

from typing import Any

from campaign.systems.war_of_kings import services
from campaign.systems.war_of_kings import state as st
from campaign.systems.war_of_kings.rules import board as wb
from campaign.systems.war_of_kings.rules import economy
from campaign.systems.war_of_kings.rules.achievements import (
    empire_check,
    fort_levels,
    next_achievement,
    score,
    territory_count,
)
from campaign.systems.war_of_kings.rules.armies import support

RESOURCE_NAMES = {wb.GOLD: "Gold", wb.TIMBER: "Timber", wb.WHEAT: "Wheat",
                  wb.CATTLE: "Cattle", wb.STONE: "Stone"}


def kingdom_economy(loaded: st.Loaded, name: str) -> dict[str, Any]:
    """A kingdom's ledger by colour, gold lines, stockpile, support and AP breakdown."""
    state = loaded.state
    book = economy.ledger(state, name)
    by_colour = []
    for colour in wb.COLOURS:
        column = book.column(colour)
        sources = []
        for code in state.controlled(name):
            terr = state.map.territory(code)
            if terr.color == colour:
                out = economy.territory_output(state, code)
                sources.append({"code": code, "level": wb.SETTLEMENT_NAMES[state.lvl(code)],
                                "out": out.describe()})
        by_colour.append({"colour": colour, "amounts": [column.amount(r) for r in wb.RESOURCES],
                          "sources": sources})
    check = support(state, name)
    mine = score(state, name, loaded.holders, loaded.options)
    dice = (loaded.campaign.state or {}).get("dice") or []
    return {
        "ledger_rows": [{"resource": RESOURCE_NAMES[r],
                         "cells": [c["amounts"][i] for c in by_colour]}
                        for i, r in enumerate(wb.RESOURCES)],
        "ledger_columns": by_colour,
        "gold": book.gold,
        "gold_lines": economy.gold_report(state, name),
        "stock": [(RESOURCE_NAMES[r], state.stock(name).amount(r)) for r in st.STOCK_FIELDS],
        "support": check,
        "score": mine,
        "empire": empire_check(state, name),
        "fort_levels": fort_levels(state, name),
        "territories": territory_count(state, name),
        "needs": next_achievement(state, name, loaded.holders, loaded.options),
        "last_dice": dice,
        "last_income": economy.income(state, name, dice).describe() if len(dice) == 3 else "",
        "capital": state.capital(name),
        "armies": [{"number": int(a.id[1:]), "where": a.territory, "ready": a.ready,
                    "damage": a.damage} for a in state.armies_of(name)],
    }


def standings(loaded: st.Loaded) -> list[dict[str, Any]]:
    """Every kingdom's public figures and what it needs next (WOK-TURN-7, WOK-ACH-8)."""
    state = loaded.state
    projected = services.projected(loaded)
    rows = []
    for name in state.seats:
        kingdom = loaded.by_name[name]
        mine = score(state, name, loaded.holders, loaded.options)
        rows.append({
            "kingdom": kingdom, "score": mine,
            "gold": economy.gold_generation(state, name),
            "territories": territory_count(state, name),
            "out": name not in state.kingdoms,
            "needs": next_achievement(state, name, loaded.holders, loaded.options),
            "holds": [label for label, who in (("Master Merchant", loaded.holders.master_merchant),
                                               ("Warlord", loaded.holders.warlord))
                      if who == name],
            "projected": score(state, name, projected, loaded.options).total,
        })
    return rows
