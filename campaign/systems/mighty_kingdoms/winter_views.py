"""Winter actions (MK-RECALL, MK-TITHE, MK-BUY, MK-FEED, MK-DEPLOY): one POST each.

A player acts for their own kingdom, a GM for the kingdom named in the form. Input that is not
even well formed is refused with 400; a refusal by the rules or the services with 409 and the
reason; nothing is changed either way. Success: the play page's phase fragment for htmx, else a
redirect to the play page with the event's summary.
"""

from __future__ import annotations

from typing import Callable

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_POST

from campaign.access import Access
from campaign.chronicle import recording
from campaign.parsing import ParseError, parse_id, parse_int
from campaign.services import ServiceError
from campaign.systems.mighty_kingdoms import standings
from campaign.systems.mighty_kingdoms import winter_services as ws
from campaign.systems.mighty_kingdoms.rules import campaign as mk
from campaign.systems.mighty_kingdoms.rules import ledger as eco
from campaign.systems.mighty_kingdoms.views import acting_kingdom, done, mk_access
from campaign.views.common import refuse, tabs_context

BadInput = ParseError


def _number(request: HttpRequest, name: str, *, default: int | None = None) -> int:
    """A count or an army number (0 to 999,999); an id goes through ``_id``."""
    return parse_int(request.POST.get(name, ""), 0, 999_999, name, default=default)


def _id(request: HttpRequest, name: str) -> int:
    pk = parse_id(request.POST.get(name, ""))
    if pk is None:
        raise BadInput(f"“{name}” must be a whole number (an id from the form).")
    return pk


def _act(request: HttpRequest, access: Access, action: Callable[[], str]) -> HttpResponse:
    """Run a service; its summary becomes the success message, a refusal a 409 page. Once the
    campaign is over (MK-AMB-20) every action is refused."""
    if standings.ended(access.campaign):
        return refuse(request, standings.end_message(access.campaign), status=409,
                      context=tabs_context(access, "play"))
    try:
        with recording() as events:
            summary = action()
    except (ServiceError, mk.RuleViolation) as exc:
        return refuse(request, str(exc), status=409, context=tabs_context(access, "play"))
    # The campaign row was read before the action changed its running state (whose turn it
    # is): read it again so the fragment htmx gets back shows the state after the action.
    access.campaign.refresh_from_db()
    return done(request, access, summary, events)


def _bad(request: HttpRequest, access: Access, exc: BadInput) -> HttpResponse:
    return refuse(request, str(exc), status=400, context=tabs_context(access, "play"))


@login_required
@require_POST
def recall(request: HttpRequest, slug: str) -> HttpResponse:
    """MK-RECALL-2/5, MK-AMB-18: where the armies winter; where each ship docks."""
    access = mk_access(request, slug)
    kingdom = acting_kingdom(request, access)
    tile = request.POST.get("tile", "").strip() or None
    docks: dict[int, str] = {}
    try:
        for raw in request.POST.getlist("ships"):
            number = parse_id(raw)
            if number is None:
                raise BadInput("Ship numbers are whole numbers.")
            where = request.POST.get(f"dock_{raw}", "").strip()
            if where:
                docks[number] = where
    except BadInput as exc:
        return _bad(request, access, exc)
    return _act(request, access,
                lambda: ws.choose_recall(kingdom, request.user, tile=tile, docks=docks))


@login_required
@require_POST
def tithe(request: HttpRequest, slug: str) -> HttpResponse:
    """MK-TITHE-1: up to 1 gold and up to 1 food to another player."""
    access = mk_access(request, slug)
    kingdom = acting_kingdom(request, access)
    try:
        receiver = _id(request, "receiver")
        gold = _number(request, "gold", default=0)
        food = _number(request, "food", default=0)
    except BadInput as exc:
        return _bad(request, access, exc)
    return _act(request, access,
                lambda: ws.give_tithe(kingdom, request.user, receiver, gold, food))


@login_required
@require_POST
def pass_turn(request: HttpRequest, slug: str) -> HttpResponse:
    """MK-TITHE-1/5, MK-BUY-1: pass in the sub-phase the page was showing (``sub``)."""
    access = mk_access(request, slug)
    kingdom = acting_kingdom(request, access)
    sub = request.POST.get("sub", "")
    return _act(request, access, lambda: ws.pass_turn(kingdom, request.user, sub))


@login_required
@require_POST
def buy(request: HttpRequest, slug: str) -> HttpResponse:
    """MK-BUY-2: a settlement, a ship or a recruit (optionally disbanding an army first)."""
    access = mk_access(request, slug)
    kingdom = acting_kingdom(request, access)
    kind = request.POST.get("kind", "")
    tile = request.POST.get("tile", "").strip()
    if kind not in (eco.SETTLE, eco.SHIP, eco.RECRUIT) or not tile:
        return _bad(request, access, BadInput("Say what to buy and where."))
    try:
        disband = (_number(request, "disband") if request.POST.get("disband", "").strip()
                   else None)
    except BadInput as exc:
        return _bad(request, access, exc)
    purchase = eco.Purchase(
        kind, tile,
        to_state=request.POST.get("to", "") if kind == eco.SETTLE else "",
        disband=disband if kind == eco.RECRUIT else None,
        allied=kind == eco.RECRUIT and request.POST.get("allied") == "1",
    )
    return _act(request, access, lambda: ws.buy(kingdom, request.user, purchase))


@login_required
@require_POST
def feed(request: HttpRequest, slug: str) -> HttpResponse:
    """MK-FEED-1/2: the armies (by number) to feed; the others go unfed."""
    access = mk_access(request, slug)
    kingdom = acting_kingdom(request, access)
    fed = []
    for raw in request.POST.getlist("fed"):
        number = parse_id(raw)
        if number is None:
            return _bad(request, access, BadInput("Army numbers are whole numbers."))
        fed.append(number)
    return _act(request, access, lambda: ws.feed(kingdom, request.user, fed))


@login_required
@require_POST
def deploy(request: HttpRequest, slug: str) -> HttpResponse:
    """MK-DEPLOY-4: one army onto one of your settlements."""
    access = mk_access(request, slug)
    kingdom = acting_kingdom(request, access)
    try:
        number = _number(request, "army")
    except BadInput as exc:
        return _bad(request, access, exc)
    tile = request.POST.get("tile", "").strip()
    return _act(request, access, lambda: ws.deploy_army(kingdom, request.user, number, tile))
