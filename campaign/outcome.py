"""What happened: the plain statement that ends every action on the play page.

An action that succeeds remembers its statement ("Placed settlements at 0506, 0507 and 0603.")
and the chronicle event it recorded, in the viewer's session, per campaign. The play page shows
the statement at the top of the phase while that event stands and the campaign is still at the
point of the clock it was recorded in, and, once others have acted since, only while its step is
open (so "Orders is over. Now: Resolution." goes with the next action); then it goes. While
the event is also the campaign's latest, is the viewer's own and its step is open (the rule
system's ``step_open`` hook), the statement carries a "Take it back" button
(``campaign.chronicle.take_back``).

Kept in the session rather than in a one-off message so the statement survives the page's own
refreshes (htmx after an action, the live poll of campaign.live).
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from campaign.access import Access
from campaign.chronicle import latest_standing, step_still_open, take_back_refusal
from campaign.models import Campaign, Event

CLOCK = ("year", "season", "month", "phase")


def _key(campaign: Campaign) -> str:
    return f"outcome:{campaign.pk}"


def remember(request: HttpRequest, campaign: Campaign, text: str,
             event: Event | None = None) -> None:
    """Keep ``text`` (and the event the action recorded, if any) for the play page."""
    request.session[_key(campaign)] = {"text": text, "seq": event.seq if event else None}


def forget(request: HttpRequest, campaign: Campaign) -> None:
    request.session.pop(_key(campaign), None)


def _same_clock(campaign: Campaign, event: Event) -> bool:
    return all(getattr(campaign, name) == getattr(event, name) for name in CLOCK)


def page_context(request: HttpRequest, access: Access) -> dict[str, Any]:
    """The ``outcome`` for the play page: ``text``, and ``seq`` when it may be taken back.

    No query unless the viewer has just acted; then one (or two when others acted since)."""
    campaign = access.campaign
    saved = request.session.get(_key(campaign))
    if not isinstance(saved, dict) or not isinstance(saved.get("text"), str):
        return {}
    seq = saved.get("seq")
    if not isinstance(seq, int):
        # An action that recorded nothing: say it once.
        forget(request, campaign)
        return {"outcome": {"text": saved["text"]}}
    latest = latest_standing(campaign)
    event = latest if latest is not None and latest.seq == seq else (
        campaign.events.defer("changes").filter(seq=seq).first())
    gone = event is None or event.undone_at is not None or not _same_clock(campaign, event)
    if not gone and latest is not None and latest.seq > event.seq:
        # Others acted since: a step's own action stays said while the step is open; anything
        # else (the GM closing a phase) has been overtaken.
        gone = not step_still_open(campaign, event)
    if gone:
        forget(request, campaign)
        return {}
    outcome: dict[str, Any] = {"text": saved["text"]}
    if take_back_refusal(campaign, request.user, event, latest) is None:
        outcome["seq"] = event.seq
    return {"outcome": outcome}
