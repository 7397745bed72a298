"""The Mighty Kingdoms clock: setup, then years of six summer months and a winter (MK-YEAR).

Each phase has a ``PhaseHandler``: what still blocks it (shown to the GM, who cannot advance
until the list is empty), what happens when it closes, and what happens when it opens. Setup
lives here; summer phases in ``summer.py``, winter phases in ``winter.py``. ``advance`` is the one
way the clock moves: in one transaction it closes the phase, moves the clock, opens the next
phase and records one chronicle event, so a GM can undo a whole phase change.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from django.db import transaction

from campaign.chronicle import Recorder
from campaign.models import Campaign, Event
from campaign.rules import mighty_kingdoms as mk
from campaign.services import ServiceError
from campaign.systems.mighty_kingdoms.state import MKState, load_state

SETUP = "setup"
# Setup steps, in order (MK-SETUP-1..5): the clock's phase while the season is "setup".
SETUP_STEPS = ("race", "order", "capital", "settle", "army")
SETUP_STEP_NAMES = {
    "race": "A) Choose races",
    "order": "B) Player order",
    "capital": "C) Capitals",
    "settle": "D) First settlements",
    "army": "E) First armies",
}

Blockers = Callable[[MKState], list[str]]
Action = Callable[[MKState, Recorder], None]


def _no_blockers(state: MKState) -> list[str]:
    return []


def _nothing(state: MKState, rec: Recorder) -> None:
    return None


@dataclass(frozen=True)
class PhaseHandler:
    """How one phase behaves. ``template`` is the play page's partial for the phase."""

    template: str
    blockers: Blockers = _no_blockers
    close: Action = _nothing
    enter: Action = _nothing
    turn: Callable[[MKState], int | None] | None = None


PhaseKey = tuple[str, str, str]


def phase_key(campaign: Campaign) -> PhaseKey:
    return (campaign.season, campaign.phase, campaign.sub_phase)


def in_setup(campaign: Campaign) -> bool:
    return campaign.season == SETUP


def clock_fields(clock: mk.Clock) -> dict[str, Any]:
    return {"year": clock.year, "season": clock.season, "month": clock.month,
            "phase": clock.phase, "sub_phase": clock.sub_phase}


def label(campaign: Campaign) -> str:
    """MK-YEAR: "Year 2, summer month 3, B) Resolution", or the setup step."""
    if in_setup(campaign):
        return f"Setup, {SETUP_STEP_NAMES.get(campaign.phase, campaign.phase)}"
    try:
        return mk.clock_label(mk.Clock(campaign.year, campaign.season, campaign.month,
                                       campaign.phase, campaign.sub_phase))
    except mk.RuleViolation:
        return f"Year {campaign.year}"


def next_key(campaign: Campaign) -> dict[str, Any]:
    """The clock after the current phase (MK-YEAR-2..4, MK-WINTER-1)."""
    if in_setup(campaign):
        position = SETUP_STEPS.index(campaign.phase)
        if position + 1 < len(SETUP_STEPS):
            return {"year": 1, "season": SETUP, "month": None,
                    "phase": SETUP_STEPS[position + 1], "sub_phase": ""}
        return clock_fields(mk.initial_clock())
    clock = mk.Clock(campaign.year, campaign.season, campaign.month, campaign.phase,
                     campaign.sub_phase)
    return clock_fields(mk.next_clock(clock))


def handlers() -> dict[PhaseKey, PhaseHandler]:
    # Imported here: the summer and winter modules import this one for PhaseHandler.
    from campaign.systems.mighty_kingdoms import setup, summer, winter

    table: dict[PhaseKey, PhaseHandler] = {}
    table.update(setup.HANDLERS)
    table.update(summer.HANDLERS)
    table.update(winter.HANDLERS)
    return table


def handler_for(campaign: Campaign) -> PhaseHandler:
    handler = handlers().get(phase_key(campaign))
    if handler is None:
        raise ServiceError(f"This campaign is at an unknown phase ({label(campaign)}).")
    return handler


def blockers(state: MKState) -> list[str]:
    return handler_for(state.campaign).blockers(state)


def advance(campaign: Campaign, user: Any) -> Event:
    """Close the current phase and open the next one, as one undoable event.

    Refused, with the reasons, while the phase is incomplete (MK-YEAR: the GM advances).
    """
    with transaction.atomic():
        state = load_state(campaign, lock=True)
        campaign = state.campaign
        handler = handler_for(campaign)
        missing = handler.blockers(state)
        if missing:
            raise ServiceError(f"{label(campaign)} is not finished: " + " ".join(missing))
        before = label(campaign)
        rec = Recorder(campaign, user, "phase.advanced", "")
        handler.close(state, rec)
        campaign.refresh_from_db()
        rec.update(campaign, **next_key(campaign))
        after = label(campaign)
        fresh = load_state(campaign)
        handler_for(campaign).enter(fresh, rec)
        rec.summary = f"{before} is over. Now: {after}." + _notes(rec)
        return rec.finish()


def _notes(rec: Recorder) -> str:
    notes = rec.data.get("notes") or []
    return (" " + " ".join(notes)) if notes else ""


def note(rec: Recorder, text: str) -> None:
    """Add a sentence to the phase-change event's summary (e.g. "Red's army #2 was destroyed")."""
    rec.data.setdefault("notes", []).append(text)
