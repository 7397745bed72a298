"""The Mighty Kingdoms clock: setup, then years of six summer months and a winter (MK-YEAR).

The lowest layer of the system's services: the clock's names and labels and the shape of a
``PhaseHandler`` (what still blocks a phase, what happens when it closes and when it opens).
The handlers themselves live with their season (``setup``, ``summer``, ``winter``); ``phases``
gathers them and moves the clock. Nothing here imports those modules, so they may import this.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Callable

from campaign.chronicle import Recorder
from campaign.models import Campaign
from campaign.systems.mighty_kingdoms import standings
from campaign.systems.mighty_kingdoms.rules import campaign as mk
from campaign.systems.mighty_kingdoms.state import MKState

# Setup steps, in order (MK-SETUP-1..5): the clock's phase while the season is "setup".
SETUP = mk.SETUP_SEASON
SETUP_STEPS = mk.SETUP_STEPS
SETUP_STEP_NAMES = {
    "race": "A) Choose races",
    "order": "B) Player order",
    "capital": "C) Capitals",
    "settle": "D) First settlements",
    "army": "E) First armies",
}

Blockers = Callable[[MKState], list[str]]
Action = Callable[[MKState, Recorder], None]
# Tie-break dice typed in with a phase change: kingdom id -> dice, first roll first (None: the
# server rolls). Passed to the close or enter action that sets a new player order.
TableDice = Mapping[int, Sequence[int]]
DiceAction = Callable[[MKState, Recorder, "TableDice | None"], None]
OrderCounts = Callable[[MKState], dict[int, int]]


def _no_blockers(state: MKState) -> list[str]:
    return []


def _nothing(state: MKState, rec: Recorder) -> None:
    return None


@dataclass(frozen=True)
class PhaseHandler:
    """How one phase behaves. ``template`` is the play page's partial for the phase.

    A phase change that sets a new player order (Reform's close, MK-PORDER-1; Deploy's opening,
    MK-DEPLOY-2) breaks ties with dice: ``order_counts`` gives the GM's page, before the change,
    the army counts that order will use, so it can ask for the table's dice for the kingdoms that
    will be level; ``close_dice``/``enter_dice`` say that ``close``/``enter`` take those dice as a
    third argument (None: the server rolls).
    """

    template: str
    blockers: Blockers = _no_blockers
    close: Action | DiceAction = _nothing
    enter: Action | DiceAction = _nothing
    turn: Callable[[MKState], int | None] | None = None
    order_counts: OrderCounts | None = None
    order_rule: str = ""
    close_dice: bool = False
    enter_dice: bool = False
    # The first n blockers and how many there are in all, for a player's phone: a phase whose
    # blockers grow with the campaign counts the rest instead of reading them.
    brief: Callable[[MKState, int], tuple[list[str], int]] | None = None


PhaseKey = tuple[str, str, str]


def phase_key(campaign: Campaign) -> PhaseKey:
    return (campaign.season, campaign.phase, campaign.sub_phase)


def in_setup(campaign: Campaign) -> bool:
    return campaign.season == SETUP


def clock_fields(clock: mk.Clock) -> dict[str, Any]:
    return {"year": clock.year, "season": clock.season, "month": clock.month,
            "phase": clock.phase, "sub_phase": clock.sub_phase}


def label(campaign: Campaign) -> str:
    """MK-YEAR: "Year 2, summer month 3, B) Resolution", or the setup step, or the end."""
    if standings.ended(campaign):
        return f"Year {campaign.year}: the campaign is over"
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


def _notes(rec: Recorder) -> str:
    notes = rec.data.get("notes") or []
    return (" " + " ".join(notes)) if notes else ""


def note(rec: Recorder, text: str) -> None:
    """Add a sentence to the phase-change event's summary (e.g. "Red's army #2 was destroyed")."""
    rec.data.setdefault("notes", []).append(text)
