"""Mighty Kingdoms setup (MK-SETUP-1..7): races, player order, capitals, first settlements and
the first army, each step a phase of the "setup" season that the GM advances."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any, Sequence

from django.db import transaction

from battles.models import Army
from campaign.chronicle import Recorder
from campaign.models import Kingdom, Visibility
from campaign.services import ServiceError
from campaign.systems.mighty_kingdoms.clock import SETUP, PhaseHandler, label, note
from campaign.systems.mighty_kingdoms.rules import campaign as mk
from campaign.systems.mighty_kingdoms.state import MKState, load_state

TEMPLATE = "campaign/systems/mighty_kingdoms/play/setup.html"


def races(state: MKState, pks: Iterable[int] | None = None) -> dict[int, str | None]:
    """Each kingdom's race (those of ``pks`` only, when given), read in one query."""
    rows = state.kingdom_rows
    found = rows.values_of("data", rows if pks is None else pks)
    return {pk: (data or {}).get("race") for pk, data in found.items()}


def races_revealed(state: MKState) -> bool:
    return bool(state.campaign.state.get("races_revealed"))


# -- A) races (MK-SETUP-1) -------------------------------------------------------------------


def _race_blockers(state: MKState) -> list[str]:
    if len(state.kingdom_rows) < 2:
        return ["Found at least two kingdoms first."]
    waiting = [k.name for pk, k in state.kingdom_rows.items() if not races(state)[pk]]
    if not waiting:
        return []
    return [f"Waiting for a race from {', '.join(sorted(waiting))} (MK-SETUP-1)."]


def _race_close(state: MKState, rec: Recorder) -> None:
    campaign = state.campaign
    rec.update(campaign, state={**campaign.state, "races_revealed": True})
    chosen = ", ".join(f"{k.name}: {races(state)[pk]}" for pk, k in
                       sorted(state.kingdom_rows.items(), key=lambda item: item[1].name))
    note(rec, f"Races revealed (MK-SETUP-1): {chosen}.")


def choose_race(kingdom: Kingdom, user: Any, race: str) -> None:
    """MK-SETUP-1: a sealed choice; only the kingdom and the GMs see it until all have chosen."""
    race = " ".join(race.split())
    if not race or len(race) > 60:
        raise ServiceError("Name your kingdom's main race (at most 60 characters).")
    with transaction.atomic():
        state = load_state(kingdom.campaign, lock=True)
        _require_step(state, "race")
        row = state.kingdom_rows[kingdom.pk]
        changed = "changed its" if (row.data or {}).get("race") else "chose a"
        # The event is public ("Red chose a race in secret") but carries no race: the choice
        # lives only on the kingdom, which its player and the GMs read until the reveal.
        with Recorder(state.campaign, user, "setup.race", f"{row.name} {changed} race in secret.",
                      kingdom=row, visibility=Visibility.PUBLIC) as rec:
            rec.update(row, data={**(row.data or {}), "race": race})


# -- B) player order (MK-SETUP-2) -------------------------------------------------------------


def _order_blockers(state: MKState) -> list[str]:
    if any(k.order_position is None for k in state.kingdom_rows.values()):
        return ["Roll for the player order (MK-SETUP-2)."]
    return []


def roll_initial_order(campaign: Any, user: Any, rolls: dict[int, int] | None = None,
                       rng: random.Random | None = None) -> list[str]:
    """MK-SETUP-2: the first player order, from dice typed in (``rolls``) or rolled here."""
    with transaction.atomic():
        state = load_state(campaign, lock=True)
        _require_step(state, "order")
        ids = sorted(state.kingdom_rows)
        source = "table" if rolls else "server"
        if rolls is None:
            rng = rng or random.SystemRandom()
            values: list[Any] = []
            for _ in ids:
                values.append([rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6)])
            # Re-roll whole sets until no two kingdoms tie (MK-SETUP-2 draws at random).
            while len({tuple(v) for v in values}) < len(values):
                values = [[rng.randint(1, 6) for _ in range(3)] for _ in ids]
        else:
            missing = [state.kingdom_rows[k].name for k in ids if k not in rolls]
            if missing:
                raise ServiceError(f"Enter a roll for {', '.join(missing)}.")
            values = [rolls[k] for k in ids]
        try:
            order = mk.initial_order(ids, values)
        except mk.RuleViolation as exc:
            raise ServiceError(str(exc)) from exc
        names = [state.kingdom_rows[k].name for k in order]
        rec = Recorder(state.campaign, user, "setup.order",
                       f"Player order drawn (MK-SETUP-2): {', '.join(names)}.")
        for pk, value in zip(ids, values):
            rec.roll(f"player order: {state.kingdom_rows[pk].name}",
                     value if isinstance(value, list) else [value], source)
        for position, pk in enumerate(order, start=1):
            rec.update(state.kingdom_rows[pk], order_position=position)
        rec.finish()
        return names


def enter_initial_order(campaign: Any, user: Any, order: Sequence[int]) -> list[str]:
    """MK-SETUP-2: the first player order as the group settled it (drawn from a cup, agreed at
    the table), typed in by the GM: kingdom ids, first player first."""
    with transaction.atomic():
        state = load_state(campaign, lock=True)
        _require_step(state, "order")
        names = {pk: row.name for pk, row in state.kingdom_rows.items()}
        try:
            entered = mk.entered_order(list(state.kingdom_rows), order, names)
        except mk.RuleViolation as exc:
            raise ServiceError(str(exc)) from exc
        listed = [names[pk] for pk in entered]
        rec = Recorder(state.campaign, user, "setup.order",
                       f"Player order entered (MK-SETUP-2): {', '.join(listed)}.")
        for position, pk in enumerate(entered, start=1):
            rec.update(state.kingdom_rows[pk], order_position=position)
        rec.finish()
        return listed


# -- C) capitals (MK-SETUP-3) -----------------------------------------------------------------


def _capital_done(state: MKState) -> set[int]:
    return {pk for pk, k in state.kingdom_rows.items() if k.capital_tile_id}


def _capital_blockers(state: MKState) -> list[str]:
    waiting = [k.name for pk, k in state.kingdom_rows.items() if pk not in _capital_done(state)]
    if not waiting:
        return []
    return [f"Waiting for a capital from {', '.join(sorted(waiting))} (MK-SETUP-3)."]


def choose_capital(kingdom: Kingdom, user: Any, label: str) -> None:
    """MK-SETUP-3: in player order, a city on a free white-circle start tile."""
    with transaction.atomic():
        state = load_state(kingdom.campaign, lock=True)
        _require_step(state, "capital")
        _require_turn(state, kingdom, mk.setup_turn(state.order, _capital_done(state)))
        try:
            mk.validate_start_tile(state.map, label)
        except mk.RuleViolation as exc:
            raise ServiceError(str(exc)) from exc
        tile = state.tile_rows[label]
        row = state.kingdom_rows[kingdom.pk]
        with Recorder(state.campaign, user, "setup.capital",
                      f"{row.name} founds its capital city at {label} (MK-SETUP-3).") as rec:
            rec.update(tile, settlement=mk.CITY, controller=row, explored=True)
            rec.update(row, start_tile=tile, capital_tile=tile)


# -- D) first settlements (MK-SETUP-4) --------------------------------------------------------


def _settled(state: MKState) -> set[int]:
    return {pk for pk in state.kingdom_rows if state.campaign.state.get(f"settled:{pk}")}


def _settle_blockers(state: MKState) -> list[str]:
    waiting = [k.name for pk, k in state.kingdom_rows.items() if pk not in _settled(state)]
    return [f"Waiting for {', '.join(sorted(waiting))} to place their first settlements "
            "(MK-SETUP-4)."] if waiting else []


def place_settlements(kingdom: Kingdom, user: Any, *, city: str, fortress: str,
                      villages: Sequence[str], markers: Sequence[str]) -> None:
    """MK-SETUP-4: 1 city, 1 fortress, 2 villages and 2 control markers around the capital."""
    with transaction.atomic():
        state = load_state(kingdom.campaign, lock=True)
        _require_step(state, "settle")
        _require_turn(state, kingdom, mk.setup_turn(state.order, _settled(state)))
        row = state.kingdom_rows[kingdom.pk]
        start = state.kingdoms[kingdom.pk].start_tile
        placement = mk.SetupPlacement(city or None, fortress or None,
                                      tuple(v for v in villages if v),
                                      tuple(m for m in markers if m))
        try:
            mk.validate_setup_placement(state.map, start, kingdom.pk, placement)
        except mk.RuleViolation as exc:
            raise ServiceError(str(exc)) from exc
        with Recorder(state.campaign, user, "setup.settle",
                      f"{row.name} settles the land around {start} (MK-SETUP-4).") as rec:
            for label, settlement in placement.assignments():
                rec.update(state.tile_rows[label], settlement=settlement, controller=row,
                           explored=True)
            campaign = state.campaign
            rec.update(campaign, state={**campaign.state, f"settled:{kingdom.pk}": True})


# -- E) first armies (MK-SETUP-5/6) -----------------------------------------------------------


def _army_done(state: MKState) -> set[int]:
    return {a.kingdom for a in state.armies}


def _army_blockers(state: MKState) -> list[str]:
    waiting = [k.name for pk, k in state.kingdom_rows.items() if pk not in _army_done(state)]
    return [f"Waiting for {', '.join(sorted(waiting))} to place their first army "
            "(MK-SETUP-5)."] if waiting else []


def place_first_army(kingdom: Kingdom, user: Any, label: str) -> None:
    """MK-SETUP-5/6: army #1 (500 points) on one of the kingdom's settlements."""
    with transaction.atomic():
        state = load_state(kingdom.campaign, lock=True)
        _require_step(state, "army")
        _require_turn(state, kingdom, mk.setup_turn(state.order, _army_done(state)))
        try:
            mk.validate_starting_army(state.map, kingdom.pk, label)
        except mk.RuleViolation as exc:
            raise ServiceError(str(exc)) from exc
        row = state.kingdom_rows[kingdom.pk]
        with Recorder(state.campaign, user, "setup.army",
                      f"{row.name} places army #1 at {label} (MK-SETUP-5).") as rec:
            rec.create(Army(campaign=state.campaign, kingdom=row, number=1,
                            tile=state.tile_rows[label], points=mk.STARTING_ARMY_POINTS))


# -- shared -----------------------------------------------------------------------------------


def _require_step(state: MKState, step: str) -> None:
    campaign = state.campaign
    if campaign.season != SETUP or campaign.phase != step:

        raise ServiceError(f"Not now: the campaign is at {label(campaign)}.")


def _require_turn(state: MKState, kingdom: Kingdom, turn: int | None) -> None:
    if turn is None:
        raise ServiceError("Everyone has done this step already.")
    if turn != kingdom.pk:
        raise ServiceError(
            f"It is {state.kingdom_rows[turn].name}'s turn: setup goes in player order "
            "(MK-SETUP-3..5)."
        )


def setup_turn(state: MKState) -> int | None:
    """Whose turn it is in the current setup step (None: anyone, or nobody)."""
    step = state.campaign.phase
    done = {"capital": _capital_done, "settle": _settled, "army": _army_done}.get(step)
    return mk.setup_turn(state.order, done(state)) if done else None


HANDLERS = {
    (SETUP, "race", ""): PhaseHandler(TEMPLATE, _race_blockers, _race_close),
    (SETUP, "order", ""): PhaseHandler(TEMPLATE, _order_blockers),
    (SETUP, "capital", ""): PhaseHandler(TEMPLATE, _capital_blockers, turn=setup_turn),
    (SETUP, "settle", ""): PhaseHandler(TEMPLATE, _settle_blockers, turn=setup_turn),
    (SETUP, "army", ""): PhaseHandler(TEMPLATE, _army_blockers, turn=setup_turn),
}


# Who has done each ordered step, for the play page.
capital_done = _capital_done
settled = _settled
army_done = _army_done
