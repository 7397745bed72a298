"""The Middle Sea's section of a campaign file (campaign/transfer/sections.py).

Version 1::

    {"version": 1, "game": null | {
        "seats": ["Red", "Blue", ...],          # kingdoms by name, in seat order
        "state": {...},                          # rules.state.GameState.to_dict()
        "pending": {...},                        # a declared attack awaiting its defender, or {}
        "time_limit_minutes": 90 | null,
        "clock_started_at": "2026-01-01T10:00:00+00:00" | null}}

Players in ``state`` are named by their kingdoms' names, so the file needs no ids. An import
checks the position as the rules would (every piece where it may be, one controller per city,
seats and players alike) before anything is written.
"""

from __future__ import annotations

from typing import Any

from campaign.models import Campaign
from campaign.systems.middle_sea.game import read_game
from campaign.systems.middle_sea.models import Game
from campaign.systems.middle_sea.rules.board import RuleViolation
from campaign.systems.middle_sea.rules.state import GameState, check_board
from campaign.transfer.base import ImportRefused, Node, Refs, iso
from campaign.transfer.sections import PlanContext, WriteContext

SECTION_VERSION = 1
PENDING_KEYS = {"attacker", "kind", "leader", "target", "place", "hires", "defender"}


def export_section(campaign: Campaign, refs: Refs) -> dict[str, Any]:
    loaded = read_game(campaign)
    if loaded is None:
        return {"game": None}
    game = loaded.game
    names = {k.pk: name for name, k in loaded.kingdoms.items()}
    return {"game": {
        "seats": [names.get(pk) for pk in game.seats],
        "state": loaded.state.to_dict(),
        "pending": dict(game.pending or {}),
        "time_limit_minutes": game.time_limit_minutes,
        "clock_started_at": iso(game.clock_started_at),
    }}


def plan_section(node: Node, context: PlanContext) -> dict[str, Any] | None:
    raw = node.raw("game", None)
    if raw is None:
        return None
    game = node.node("game")
    seats = game.array("seats")
    for i, name in enumerate(seats):
        if not isinstance(name, str) or name not in context.kingdoms:
            raise ImportRefused(f"{game.at('seats')}[{i}]: no kingdom named {name!r}.")
    if len(set(seats)) != len(seats):
        raise ImportRefused(f"{game.at('seats')}: a kingdom takes one seat.")
    try:
        state = GameState.from_dict(game.obj("state"))
        check_board(state)
    except ImportRefused:
        raise
    except (RuleViolation, KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ImportRefused(f"{game.at('state')}: not a position of the game ({exc}).") from None
    if [p.name for p in state.players] != seats:
        raise ImportRefused(f"{game.at('seats')}: the seats must be the players of the "
                            "position, in the same order.")
    pending = game.obj("pending", default={})
    if pending and set(pending) != PENDING_KEYS:
        raise ImportRefused(f"{game.at('pending')}: a declared attack names "
                            f"{', '.join(sorted(PENDING_KEYS))}.")
    limit = game.integer("time_limit_minutes", minimum=1, maximum=1440, default=None,
                         null=True)
    started = game.timestamp("clock_started_at", null=True)
    return {"seats": seats, "state": state.to_dict(), "pending": pending,
            "time_limit_minutes": limit, "clock_started_at": started}


def write_section(plan: dict[str, Any] | None, context: WriteContext) -> None:
    if plan is None:
        return
    Game.objects.create(
        campaign=context.campaign, state=plan["state"],
        seats=[context.kingdoms[name].pk for name in plan["seats"]],
        pending=plan["pending"], time_limit_minutes=plan["time_limit_minutes"],
        clock_started_at=plan["clock_started_at"],
    )
