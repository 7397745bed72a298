"""How the Mighty Kingdoms clock moves: every phase's handler, and ``advance``.

Each season's module (``setup``, ``summer``, ``winter``) declares the ``PhaseHandler`` of its
phases (see ``clock``); this module gathers them. ``advance`` is the one way the clock moves: in
one transaction it closes the phase, moves the clock, opens the next phase and records one
chronicle event, so a GM can undo a whole phase change. The clock's names and labels are
re-exported from ``clock`` for the views and the shell.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from campaign import words
from campaign.chronicle import Recorder
from campaign.models import Campaign, Event
from campaign.services import ServiceError
from campaign.systems.mighty_kingdoms import setup, standings, summer, winter
from campaign.systems.mighty_kingdoms.clock import (  # noqa: F401  (the views' names)
    SETUP,
    SETUP_STEP_NAMES,
    SETUP_STEPS,
    PhaseHandler,
    PhaseKey,
    TableDice,
    _notes,
    clock_fields,
    in_setup,
    label,
    next_key,
    note,
    phase_key,
)
from campaign.systems.mighty_kingdoms.rules import campaign as mk
from campaign.systems.mighty_kingdoms.state import MKState, load_state


def handlers() -> dict[PhaseKey, PhaseHandler]:
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
    rec.summary = (f"{before} is over, and with it the campaign: it ran for "
                   f"{words.counted(campaign.year, 'year')}, as the group set (MK-AMB-20)."
                   + _notes(rec) + " " + standings.summary(rows, scoring))
    return rec.finish()

