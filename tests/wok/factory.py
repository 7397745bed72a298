"""Small builders for War of Kings rule tests: territories, holdings and whole states."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from campaign.systems.war_of_kings.rules.board import (
    CONSTRUCTION,
    NORMAL,
    RED,
    TIMBER,
    Army,
    GameState,
    Holding,
    Stock,
    TerritoryDef,
    make_map,
    make_state,
)


def terr(code: str, color: str | None = RED, prim: str | None = TIMBER,
         sec: str | None = None, kind: str = NORMAL) -> TerritoryDef:
    return TerritoryDef(code, color, prim, sec, kind)


def hold(ctrl: str | None, lvl: int = 0, cult: str | None = None, fort: int = 0,
         **extra: Any) -> Holding:
    """A holding; a settlement's culture defaults to its controller."""
    if lvl and cult is None:
        cult = ctrl
    return Holding(ctrl, lvl, cult, fort, **extra)


def world(territories: Iterable[TerritoryDef | str], borders: Iterable[str],
          holdings: Mapping[str, Holding], roads: Iterable[str] = (),
          capitals: Mapping[str, str] | None = None, side: str = "summer",
          stock: Stock | None = None, armies: Iterable[Army] = (),
          phase: str = CONSTRUCTION, **extra: Any) -> GameState:
    """Borders and roads are written "A-B"."""
    terrs = [t if isinstance(t, TerritoryDef) else terr(t) for t in territories]
    game_map = make_map(terrs, [tuple(b.split("-")) for b in borders], side)  # type: ignore[misc]
    capitals = dict(capitals or {})
    state = make_state(game_map, holdings, [tuple(r.split("-")) for r in roads],  # type: ignore[misc]
                       capitals, armies=tuple(armies), phase=phase, **extra)
    if stock is not None:
        for kingdom in capitals:
            state = state.with_stock(kingdom, stock)
    return state


RICH = Stock(gold=100, timber=100, wheat=100, cattle=100, stone=100)
