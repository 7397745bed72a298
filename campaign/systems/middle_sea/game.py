"""Reading a Middle Sea game and writing one action of it.

``read_game`` gives the position of a campaign for the pages (no lock). ``perform`` is the one
way an action is written: under the campaign's locks it reads the position, checks who acts,
calls the pure rules, lets the game run on through what nobody decides (dominance without a tie,
production), and records one chronicle event holding the new position, the ledger lines of every
change of goods, gold and unrest (each citing its MS rule), the map's territories that changed
and the campaign clock. Undoing that event puts all of it back.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from django.db import transaction
from django.utils import timezone

from campaign.chronicle import Recorder
from campaign.locking import lock_campaign, lock_kingdoms
from campaign.models import Campaign, Event, Kingdom, Map, Tile, Visibility
from campaign.services import ConflictError, ServiceError
from campaign.systems.middle_sea.models import Game
from campaign.systems.middle_sea.rules import layout, phases
from campaign.systems.middle_sea.rules.board import RuleViolation
from campaign.systems.middle_sea.rules.dominance import dominance_ties
from campaign.systems.middle_sea.rules.economy import ProductionReport
from campaign.systems.middle_sea.rules.state import (
    DOMINANCE,
    GOLD,
    GOODS,
    PRODUCTION,
    GameState,
    MSOptions,
    rename_player,
)
from ledger.services import post

UNREST = "unrest"
RESOURCES = (GOODS, GOLD, UNREST)


class GameRefused(ServiceError):
    """An action the rules refuse (the message names the rule); nothing was written."""


@dataclass(frozen=True)
class Line:
    """One ledger line (ledger.services.Line): a change of one resource citing its rule."""

    resource: str
    amount: int
    rule_id: str
    source: str


@dataclass
class Note:
    """What an action did, for its event: the summary, ledger lines it explains itself (player,
    line), the rule each remaining change of a resource cites, and data for the chronicle."""

    summary: str
    rules: Mapping[str, str] = field(default_factory=dict)
    lines: list[tuple[str, Line]] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)
    pending: dict[str, Any] | None = None
    # Other fields of the game row the action changes (the timed game's clock).
    game: dict[str, Any] = field(default_factory=dict)


@dataclass
class Loaded:
    """A campaign's game as read: the row, the position (kingdom names as player names) and the
    kingdoms by player name."""

    campaign: Campaign
    game: Game
    state: GameState
    kingdoms: dict[str, Kingdom]

    def kingdom_of(self, name: str) -> Kingdom:
        try:
            return self.kingdoms[name]
        except KeyError:
            raise ServiceError(f"The kingdom playing as {name} is gone; the game cannot go on "
                               "until a GM restores it.") from None

    def name_of(self, kingdom: Kingdom | None) -> str | None:
        if kingdom is None:
            return None
        return next((n for n, k in self.kingdoms.items() if k.pk == kingdom.pk), None)


@dataclass(frozen=True)
class Acting:
    """Who sends an action: the user, whether they act as GM, and their own kingdom."""

    user: Any
    is_gm: bool
    kingdom: Kingdom | None


def _position(game: Game, kingdoms: Mapping[int, Kingdom],
              options: Mapping[str, Any] | None = None) -> tuple[GameState, dict[str, Kingdom]]:
    """The position with the players named as their kingdoms are now, and the house rules as
    the campaign's settings say now (a change on the Settings page applies from the next
    action on)."""
    state = GameState.from_dict(game.state)
    if options is not None:
        try:
            state = replace(state, options=MSOptions.from_dict(options))
        except ValueError:
            pass  # settings the options cannot read leave the game's own
    seats = list(zip(game.seats, [p.name for p in state.players]))
    by_name: dict[str, Kingdom] = {}
    renames = []
    for kingdom_id, name in seats:
        kingdom = kingdoms.get(kingdom_id)
        if kingdom is None:
            continue
        if kingdom.name != name:
            renames.append((name, kingdom.name))
        by_name[kingdom.name] = kingdom
    # Two kingdoms may have swapped names: rename through names nobody has first.
    for i, (old, _new) in enumerate(renames):
        state = rename_player(state, old, f"\x00{i}")
    for i, (_old, new) in enumerate(renames):
        state = rename_player(state, f"\x00{i}", new)
    return state, by_name


def read_game(campaign: Campaign,
              read_kingdoms: Iterable[Kingdom] | None = None) -> Loaded | None:
    """The campaign's game for a page, or None before the GM sets it up (two queries, one when
    the page passes the campaign's kingdoms it has already read). Only the seated kingdoms
    are read: nobody else plays."""
    game = Game.objects.filter(campaign=campaign).first()
    if game is None:
        return None
    if read_kingdoms is not None:
        kingdoms = {k.pk: k for k in read_kingdoms}
    else:
        seats = [pk for pk in game.seats or [] if isinstance(pk, int)]
        kingdoms = {k.pk: k for k in Kingdom.objects.filter(campaign=campaign, pk__in=seats)}
    state, by_name = _position(game, kingdoms, campaign.options)
    return Loaded(campaign, game, state, by_name)


def lock_game(campaign: Campaign) -> Loaded:
    """The game under the writers' locks: the campaign, the kingdoms by id, then the game row."""
    locked = lock_campaign(campaign)
    kingdoms = lock_kingdoms(locked)
    game = Game.objects.select_for_update().filter(campaign=locked).first()
    if game is None:
        raise ConflictError("The game is not set up yet.")
    state, by_name = _position(game, kingdoms, locked.options)
    return Loaded(locked, game, state, by_name)


def require_actor(loaded: Loaded, acting: Acting, name: str, rule: str) -> None:
    """Only ``name``'s player (or a GM) may take this action; anyone else is told whose it
    is, citing ``rule``."""
    if acting.is_gm:
        return
    mine = loaded.name_of(acting.kingdom)
    if mine != name:
        raise GameRefused(f"This is for {name} to decide, not {mine or 'you'} ({rule}).")


def clock_ran_out(game: Game, now: dt.datetime) -> bool:
    """MS-WIN-3: whether the timed game's clock has run out."""
    if game.time_limit_minutes is None or game.clock_started_at is None:
        return False
    return now >= game.clock_started_at + dt.timedelta(minutes=game.time_limit_minutes)


def run_on(state: GameState) -> tuple[GameState, list[str], list[tuple[str, Line]]]:
    """MS-ROUND-1, MS-DOM-2..6, MS-PROD-1..6, MS-AMB-8: resolve the phases nobody decides:
    dominance when no tie below 1st needs the first player's choice, then production. Returns
    the position, what was done in words, and the production's ledger lines."""
    said: list[str] = []
    lines: list[tuple[str, Line]] = []
    if state.phase == DOMINANCE and not state.ended and not dominance_ties(state):
        state = phases.resolve_dominance(state)
        said.append("Dominance order: " + ", ".join(state.order) + ".")
    if state.phase == PRODUCTION and not state.ended:
        state, reports = phases.resolve_production(state)
        for report in reports:
            lines += production_lines(report)
            said.append(f"{report.name} produces {report.goods} goods and {report.gold} gold.")
    return state, said, lines


def production_lines(report: ProductionReport) -> list[tuple[str, Line]]:
    """MS-PROD-1, MS-PROD-2: the Capital's income and each producing market or mine."""
    lines = [
        (report.name, Line(GOODS, report.capital_goods, "MS-PROD-1", "Capital")),
        (report.name, Line(GOLD, report.capital_gold, "MS-PROD-1", "Capital")),
    ]
    for line in report.lines:
        if line.goods:
            lines.append((report.name, Line(GOODS, line.goods, "MS-PROD-2",
                                            f"{line.city} at {line.space}")))
        if line.gold:
            lines.append((report.name, Line(GOLD, line.gold, "MS-PROD-2",
                                            f"{line.city} at {line.space}")))
    return lines


def _amounts(state: GameState) -> dict[tuple[str, str], int]:
    return {(p.name, resource): value for p in state.players
            for resource, value in ((GOODS, p.goods), (GOLD, p.gold), (UNREST, p.unrest))}


def ledger_lines(before: GameState, after: GameState, note: Note,
                 extra: Iterable[tuple[str, Line]] = ()) -> list[tuple[str, Line]]:
    """The lines that take the ledger from ``before`` to ``after``: those the action explains,
    and for what remains of each change the rule the action names for that resource."""
    lines = list(note.lines) + list(extra)
    explained: dict[tuple[str, str], int] = {}
    for name, line in lines:
        explained[(name, line.resource)] = explained.get((name, line.resource), 0) + line.amount
    old, new = _amounts(before), _amounts(after)
    for key in sorted(new):
        rest = new[key] - old.get(key, 0) - explained.get(key, 0)
        if rest:
            rule = note.rules.get(key[1]) or note.rules.get("*") or "MS-RES-1"
            lines.append((key[0], Line(key[1], rest, rule, note.summary[:120])))
    return lines


def sync_map(rec: Recorder, campaign: Campaign, state: GameState,
             kingdoms: Mapping[str, Kingdom]) -> None:
    """Bring the map's territories in line with the position (what each space holds, who
    controls it, roads and ports), writing only the tiles that changed."""
    game_map = Map.objects.filter(campaign=campaign).first()
    if game_map is None:
        return
    views = layout.board_view(state)
    for tile in Tile.objects.select_for_update().filter(map=game_map).order_by("pk"):
        view = views.get(tile.label)
        if view is None:
            continue
        owner = kingdoms.get(view.controller) if view.controller else None
        wanted = {
            "terrain": view.terrain,
            "settlement": view.settlement,
            "name": view.name[:60],
            "controller_id": owner.pk if owner is not None else None,
            "features": list(view.features),
            "edges": {other: [layout.ROAD] for other in view.roads},
            "data": {key: value for key, value in view.data},
            "explored": True,
        }
        changed = {k: v for k, v in wanted.items() if getattr(tile, k) != v}
        if changed:
            rec.update(tile, **changed)


def write(rec: Recorder, loaded: Loaded, before: GameState, after: GameState, note: Note,
          extra: Iterable[tuple[str, Line]] = ()) -> None:
    """Write the new position, its ledger lines, the map and the clock in ``rec``'s event."""
    campaign, game = loaded.campaign, loaded.game
    values: dict[str, Any] = {"state": after.to_dict()}
    if note.pending is not None or game.pending:
        values["pending"] = note.pending or {}
    values.update(note.game)
    rec.update(game, **values)
    lines = ledger_lines(before, after, note, extra)
    post(rec, [(loaded.kingdom_of(name), line) for name, line in lines])
    sync_map(rec, campaign, after, loaded.kingdoms)
    clock = {"year": after.round, "phase": after.phase}
    if any(getattr(campaign, k) != v for k, v in clock.items()):
        rec.update(campaign, **clock)


def perform(campaign: Campaign, acting: Acting, kind: str, step: Callable[[Loaded], Any],
            *, now: dt.datetime | None = None) -> Event:
    """Run one action: ``step(loaded)`` checks who acts and returns ``(state, note)`` from the
    pure rules (a ``RuleViolation`` becomes a refusal that writes nothing). A timed game whose
    clock ran out has time called first (MS-WIN-3)."""
    with transaction.atomic():
        loaded = lock_game(campaign)
        before = loaded.state
        if before.ended:
            raise GameRefused("The game is over; no more actions are played (MS-AMB-21).")
        start = before
        said: list[str] = []
        if clock_ran_out(loaded.game, now or timezone.now()) and not before.time_called:
            start = phases.call_time(before)
            said.append("Time is up: this round is the last (MS-WIN-3).")
        loaded.state = start
        try:
            after, note = step(loaded)
            after, more, produced = run_on(after)
        except RuleViolation as exc:
            raise GameRefused(str(exc)) from None
        summary = " ".join([note.summary, *said, *more])
        if after.ended:
            summary += " " + ending_words(after)
        with Recorder(loaded.campaign, acting.user, kind, summary,
                      data={"middle_sea": note.data},
                      visibility=Visibility.PUBLIC) as rec:
            write(rec, loaded, before, after, note, produced)
        assert rec.event is not None
        return rec.event


def ending_words(state: GameState) -> str:
    """MS-WIN-1..6: how the game ended, in words."""
    reasons = {
        "capital_lost": "a Capital fell", "king_lost": "a king was defeated",
        "civil_war": "civil war broke out", "trade": "a trade victory",
        "conquest": "a victory by conquest", "timed": "the time limit",
    }
    winners = " and ".join(state.winners) or "nobody"
    return (f"The game is over ({reasons.get(state.end_reason, state.end_reason)}): "
            f"{winners} {'wins' if len(state.winners) == 1 else 'win'}.")
