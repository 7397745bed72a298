"""What the pages and sheets read of a game: a kingdom's economy explained, and the standings.
Pure reads of a loaded board (``state.load``); the views and the sheets share them."""

from __future__ import annotations

from typing import Any

from campaign.systems.war_of_kings import state as st
from campaign.systems.war_of_kings.rules import board as wb
from campaign.systems.war_of_kings.rules import economy
from campaign.systems.war_of_kings.rules.achievements import (
    Holders,
    empire_check,
    fort_levels,
    next_achievement,
    score,
    strict_losses,
    territory_count,
    update_holders,
)
from campaign.systems.war_of_kings.rules.armies import support
from campaign.systems.war_of_kings.rules.options import Options

RESOURCE_NAMES = {wb.GOLD: "Gold", wb.TIMBER: "Timber", wb.WHEAT: "Wheat",
                  wb.CATTLE: "Cattle", wb.STONE: "Stone"}


def kingdom_economy(loaded: st.Loaded, name: str) -> dict[str, Any]:
    """A kingdom's ledger by colour, gold lines, stockpile, support and AP breakdown. What the
    board alone gives (ledger, gold, AP, what it needs next, the income of the last dice) is
    worked out on ``loaded.public`` and kept with it (``Loaded.kept``); the stockpile, support
    and armies are this read's."""
    state = loaded.state
    dice = (loaded.campaign.state or {}).get("dice") or []
    figures = loaded.kept(("economy", name, loaded.holders, loaded.options, tuple(dice)),
                          lambda: _board_economy(loaded.public, name, loaded.holders,
                                                 loaded.options, dice))
    return {
        **figures,
        "stock": [(RESOURCE_NAMES[r], state.stock(name).amount(r)) for r in st.STOCK_FIELDS],
        "support": support(state, name),
        "last_dice": dice,
        "armies": [{"number": int(a.id[1:]), "where": a.territory, "ready": a.ready,
                    "damage": a.damage} for a in state.armies_of(name)],
    }


def _board_economy(state: wb.GameState, name: str, holders: Holders, options: Options,
                   dice: list[str]) -> dict[str, Any]:
    """The part of :func:`kingdom_economy` the board, the holders and the options give
    (WOK-LEDGER-3, WOK-ECON-4..8, WOK-ACH-8)."""
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
    return {
        "ledger_rows": [{"resource": RESOURCE_NAMES[r],
                         "cells": [c["amounts"][i] for c in by_colour]}
                        for i, r in enumerate(wb.RESOURCES)],
        "ledger_columns": by_colour,
        "gold": book.gold,
        "gold_lines": economy.gold_report(state, name),
        "score": score(state, name, holders, options),
        "empire": empire_check(state, name),
        "fort_levels": fort_levels(state, name),
        "territories": territory_count(state, name),
        "needs": next_achievement(state, name, holders, options),
        "last_income": economy.income(state, name, dice).describe() if len(dice) == 3 else "",
        "capital": state.capital(name),
    }


def standings(loaded: st.Loaded) -> list[dict[str, Any]]:
    """Every kingdom's public figures and what it needs next (WOK-TURN-7, WOK-ACH-8), each row
    with its kingdom (:func:`standings_figures`)."""
    by_name = loaded.by_name
    return [{"kingdom": by_name[row["name"]], **row} for row in standings_figures(loaded)]


def standings_figures(loaded: st.Loaded) -> tuple[dict[str, Any], ...]:
    """:func:`public_standings` of the loaded board, worked out on ``loaded.public`` and kept
    with it (``Loaded.kept``); read them, never change them."""
    return loaded.kept(("standings", loaded.holders, loaded.options),
                       lambda: public_standings(loaded.public, loaded.holders, loaded.options))


def public_standings(state: wb.GameState, holders: Holders,
                     options: Options) -> tuple[dict[str, Any], ...]:
    """The rows of :func:`standings` by kingdom name, in seating order: AP and where they come
    from, gold a round, territories, whether the kingdom is out, what it needs next, the
    exclusive cards it holds and its AP if the round ended now (the holders the end-of-round
    check would hand the cards to: WOK-ACH-5, WOK-ACH-6)."""
    projected = update_holders(state, strict_losses(state, holders, options), options)
    rows = []
    for name in state.seats:
        rows.append({
            "name": name, "score": score(state, name, holders, options),
            "gold": economy.gold_generation(state, name),
            "territories": territory_count(state, name),
            "out": name not in state.kingdoms,
            "needs": next_achievement(state, name, holders, options),
            "holds": tuple(label for label, who in (("Master Merchant", holders.master_merchant),
                                                    ("Warlord", holders.warlord))
                           if who == name),
            "projected": score(state, name, projected, options).total,
        })
    return tuple(rows)
