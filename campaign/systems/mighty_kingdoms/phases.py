"""The Mighty Kingdoms clock: setup, then years of six summer months and a winter (MK-YEAR).

Each phase has a ``PhaseHandler``: what still blocks it (shown to the GM, who cannot advance
until the list is empty), what happens when it closes, and what happens when it opens. Setup
lives here; summer phases in ``summer.py``, winter phases in ``winter.py``. ``advance`` is the one
way the clock moves: in one transaction it closes the phase, moves the clock, opens the next
phase and records one chronicle event, so a GM can undo a whole phase change.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Callable

from django.db import transaction

from campaign.chronicle import Recorder
from campaign.models import Campaign, Event
from campaign.rules import mighty_kingdoms as mk
from campaign.services import ServiceError
from campaign.systems.mighty_kingdoms import standings
from campaign.systems.mighty_kingdoms.state import MKState, load_state

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


def handlers() -> dict[PhaseKey, PhaseHandler]:
    # Imported here: the summer and winter modules import this one for PhaseHandler.
    from campaign.systems.mighty_kingdoms import setup, summer, winter

    table: dict[PhaseKey, PhaseHandler] = {}
    table.update(setup.HANDLERS)
    table.update(summer.HANDLERS)
    table.update(winter.HANDLERS)
    return table


ENDED_TEMPLATE = "campaign/systems/mighty_kingdoms/play/ended.html"


def _end_blockers(state: MKState) -> list[str]:
    """MK-AMB-20: nothing moves once the campaign is over, unless the GM lengthened it."""
    if _still_over(state.campaign):
        return [standings.end_message(state.campaign)]
    return []


def _still_over(campaign: Campaign) -> bool:
    options = mk.MKOptions.from_dict(campaign.options)
    return mk.campaign_over(mk.Clock(campaign.year + 1, mk.SUMMER, 1, "A"), options)


def _resume(state: MKState, rec: Recorder) -> None:
    """The GM lengthened an ended campaign: it goes on into the next summer."""
    campaign = state.campaign
    rec.update(campaign, state={k: v for k, v in campaign.state.items() if k != "ended"})
    years = mk.MKOptions.from_dict(campaign.options).campaign_years
    note(rec, "The campaign goes on: " + (f"it now runs for {years} years" if years else
                                          "it is now open-ended") + " (MK-AMB-20).")


ENDED = PhaseHandler(ENDED_TEMPLATE, _end_blockers, _resume)


def handler_for(campaign: Campaign) -> PhaseHandler:
    if standings.ended(campaign):
        return ENDED
    handler = handlers().get(phase_key(campaign))
    if handler is None:
        raise ServiceError(f"This campaign is at an unknown phase ({label(campaign)}).")
    return handler


def blockers(state: MKState) -> list[str]:
    return handler_for(state.campaign).blockers(state)


def advance(campaign: Campaign, user: Any, tiebreak: TableDice | None = None) -> Event:
    """Close the current phase and open the next one, as one undoable event.

    Refused, with the reasons, while the phase is incomplete (MK-YEAR: the GM advances).
    ``tiebreak`` holds the table's tie-break dice for a new player order (MK-PORDER-1,
    MK-DEPLOY-2); without it the server rolls them. Bad dice refuse the whole change.
    """
    with transaction.atomic():
        state = load_state(campaign, lock=True)
        campaign = state.campaign
        handler = handler_for(campaign)
        missing = handler.blockers(state)
        if missing and handler is ENDED:
            raise ServiceError(" ".join(missing))
        if missing:
            raise ServiceError(f"{label(campaign)} is not finished: " + " ".join(missing))
        before = label(campaign)
        rec = Recorder(campaign, user, "phase.advanced", "")
        if handler.close_dice:
            handler.close(state, rec, tiebreak)  # type: ignore[call-arg]
        else:
            handler.close(state, rec)  # type: ignore[call-arg]
        campaign.refresh_from_db()
        if handler is not ENDED and _last_winter_closes(campaign):
            return _end(campaign, rec, before)
        rec.update(campaign, **next_key(campaign))
        after = label(campaign)
        fresh = load_state(campaign)
        opening = handler_for(campaign)
        if opening.enter_dice:
            opening.enter(fresh, rec, tiebreak)  # type: ignore[call-arg]
        else:
            opening.enter(fresh, rec)  # type: ignore[call-arg]
        if handler is ENDED:
            rec.summary = _notes(rec).strip() + f" Now: {after}."
        else:
            rec.summary = f"{before} is over. Now: {after}." + _notes(rec)
        return rec.finish()


def _last_winter_closes(campaign: Campaign) -> bool:
    """MK-AMB-20: the winter of the last year the group set is closing."""
    if (campaign.season, campaign.phase) != (mk.WINTER, "D"):
        return False
    return _still_over(campaign)


def _end(campaign: Campaign, rec: Recorder, before: str) -> Event:
    """MK-AMB-20: the campaign ends where the clock stopped; the chronicle tells the final
    standings (and, under a house-rule scoring, the winner)."""
    rows = standings.standings(campaign)
    scoring = mk.MKOptions.from_dict(campaign.options).scoring
    rec.update(campaign, state={**campaign.state, "ended": {"year": campaign.year}})
    rec.kind = "campaign.ended"
    rec.data["standings"] = standings.as_data(rows)
    rec.summary = (f"{before} is over, and with it the campaign: it ran for {campaign.year} "
                   f"year{'s' if campaign.year != 1 else ''}, as the group set (MK-AMB-20)."
                   + _notes(rec) + " " + standings.summary(rows, scoring))
    return rec.finish()


def _notes(rec: Recorder) -> str:
    notes = rec.data.get("notes") or []
    return (" " + " ".join(notes)) if notes else ""


def note(rec: Recorder, text: str) -> None:
    """Add a sentence to the phase-change event's summary (e.g. "Red's army #2 was destroyed")."""
    rec.data.setdefault("notes", []).append(text)
