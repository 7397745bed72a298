"""The battle page: a pending battle fought in the app (Simple, naval, land/water); a Kings of
War battle's table facts (board size, defended tile), both sides' revealed lists and the GM's
one form for the result and every unit's rout events; or a slaughter, where the slaughtered
kingdom's player picks the token it gives up.

Mounted in the "mk" namespace under /c/<slug>/mk/summer/battle/<id>/play/. Every action is a POST
by the side's own player or a GM; an htmx POST gets the battle fragment back, a plain POST is
redirected to the battle page, and a refusal is a 409 with its reason that changes nothing.
"""

from __future__ import annotations

from typing import Any, Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path
from django.views.decorators.http import require_GET, require_POST

from battles.models import Battle
from campaign.chronicle import recording
from campaign.models import Kingdom, Role
from campaign.parsing import ParseError, parse_dice, parse_int
from campaign.services import ServiceError
from campaign.systems.mighty_kingdoms import battle_play, summer_battles
from campaign.systems.mighty_kingdoms import forces as battle_services
from campaign.systems.mighty_kingdoms.state import load_state
from campaign.systems.mighty_kingdoms.views import mk_access, said
from campaign.views.common import refuse, tabs_context

PAGE = "campaign/systems/mighty_kingdoms/battle/page.html"
FRAGMENT = "campaign/systems/mighty_kingdoms/battle/fragment.html"


def _actor(access: Any) -> Kingdom | None:
    """A GM acts for either side (None); a player for their own kingdom only."""
    return None if access.is_gm else access.kingdom


def _context(request: HttpRequest, access: Any, battle_id: int) -> dict[str, Any]:
    state = load_state(access.campaign)
    battle = Battle.objects.filter(campaign=access.campaign, pk=battle_id).first()
    if battle is None:
        raise Http404("No such battle.")
    return {**tabs_context(access, "play"), **battle_play.page_context(state, battle, access)}


@login_required
@require_GET
def battle_page(request: HttpRequest, slug: str, battle_id: int) -> HttpResponse:
    access = mk_access(request, slug)
    template = FRAGMENT if request.htmx else PAGE
    return render(request, template, _context(request, access, battle_id))


def _outsider(request: HttpRequest, slug: str) -> HttpResponse | None:
    """Who may ask comes before what they asked: a 404 for someone outside the campaign, a 403
    for a member with no kingdom to fight with (an observer), else None."""
    access = mk_access(request, slug)
    if not access.is_gm and access.kingdom is None:
        return refuse(request, "You have no kingdom in this battle.", status=403,
                      context=tabs_context(access, "play"))
    return None


def _act(request: HttpRequest, slug: str, battle_id: int,
         action: Callable[[Any, Kingdom | None], Any], message: str) -> HttpResponse:
    refused = _outsider(request, slug)
    if refused is not None:
        return refused
    access = mk_access(request, slug)
    try:
        with recording() as events:
            action(access, _actor(access))
    except ServiceError as exc:
        return refuse(request, str(exc), status=409, context=tabs_context(access, "play"))
    # What happened, in the words of the event the action recorded (the dice, the losses).
    text = said(access, events) if events else message
    if request.htmx:
        response = render(request, FRAGMENT,
                          {**_context(request, access, battle_id), "battle_outcome": text})
        response["HX-Trigger"] = "campaign-changed"
        return response
    messages.success(request, text)
    return redirect("mk:battle_play", slug, battle_id)


def _dice(raw: str) -> list[int] | None | bool:
    """Typed-in dice ("6 5", "6,5" or "65"); None for a server roll; False when unreadable."""
    try:
        return parse_dice(raw) or None
    except ParseError:
        return False


def _side(request: HttpRequest) -> str:
    return request.POST.get("side", "")


@login_required
@require_POST
def start(request: HttpRequest, slug: str, battle_id: int) -> HttpResponse:
    return _act(request, slug, battle_id,
                lambda access, k: battle_play.start_simple(battle_id, request.user,
                                                           access.campaign, k),
                "The battle is set up.")


@login_required
@require_POST
def roll(request: HttpRequest, slug: str, battle_id: int) -> HttpResponse:
    refused = _outsider(request, slug)
    if refused is not None:
        return refused
    values = None
    if request.POST.get("source") == "table":
        values = _dice(request.POST.get("dice", ""))
        if not values:
            return refuse(request, "Type in the dice, each 1 to 6 (e.g. 6 5 3).", status=409)
    side = _side(request)

    def action(access: Any, k: Kingdom | None) -> Any:
        battle = Battle.objects.filter(campaign=access.campaign, pk=battle_id).first()
        kind = battle_play.play_type(battle) if battle else None
        call = {battle_play.SIMPLE: battle_play.roll_simple,
                battle_play.NAVAL: battle_play.roll_naval,
                battle_play.LAND_WATER: battle_play.roll_land_water}.get(kind)
        if call is None:
            raise ServiceError("This battle is not fought with the app's dice.")
        return call(battle_id, request.user, access.campaign, k, side, values)

    return _act(request, slug, battle_id, action, "Dice rolled.")


@login_required
@require_POST
def allocate(request: HttpRequest, slug: str, battle_id: int) -> HttpResponse:
    refused = _outsider(request, slug)
    if refused is not None:
        return refused
    try:
        die = parse_int(request.POST.get("die", ""), 0, 999, "die")
    except ParseError:
        return refuse(request, "Tap one of your dice first, then the army it goes to.",
                      status=409)
    return _act(request, slug, battle_id,
                lambda access, k: battle_play.allocate(
                    battle_id, request.user, access.campaign, k, _side(request), die,
                    request.POST.get("target", "")),
                "Die allocated.")


@login_required
@require_POST
def automatic(request: HttpRequest, slug: str, battle_id: int) -> HttpResponse:
    """A GM resolves a Simple battle with the documented allocation strategy (MK-SIMPLE)."""
    mk_access(request, slug, role=Role.GM)  # players get a 403, outsiders a 404
    return _act(request, slug, battle_id,
                lambda access, k: battle_play.resolve_automatically(
                    battle_id, request.user, access.campaign, k),
                "Battle resolved automatically.")


@login_required
@require_POST
def naval_losses(request: HttpRequest, slug: str, battle_id: int) -> HttpResponse:
    return _act(request, slug, battle_id,
                lambda access, k: battle_play.choose_naval_losses(
                    battle_id, request.user, access.campaign, k, _side(request),
                    request.POST.getlist("lost")),
                "Losses chosen.")


@login_required
@require_POST
def concede(request: HttpRequest, slug: str, battle_id: int) -> HttpResponse:
    return _act(request, slug, battle_id,
                lambda access, k: battle_play.concede_naval(
                    battle_id, request.user, access.campaign, k, _side(request)),
                "Battle conceded.")


@login_required
@require_POST
def kow_result(request: HttpRequest, slug: str, battle_id: int) -> HttpResponse:
    """MK-RESULT, MK-US-1..4: after a Kings of War game the GM enters the result, the tokens
    the battle took off and each unit's rout events, in one form and one chronicle entry."""
    mk_access(request, slug, role=Role.GM)  # who may ask comes before what they asked
    return _act(request, slug, battle_id,
                lambda access, k: summer_battles.enter_result(
                    battle_id, request.user, access.campaign,
                    result=request.POST.get("result", ""),
                    removed=request.POST.getlist("removed"),
                    units=battle_services.parse_unit_results(request.POST)),
                "Battle result entered.")


@login_required
@require_POST
def slaughter(request: HttpRequest, slug: str, battle_id: int) -> HttpResponse:
    """MK-LAND-4, MK-AMB-6: the slaughtered kingdom's player (or a GM) gives up one token."""
    return _act(request, slug, battle_id,
                lambda access, k: summer_battles.give_up_token(
                    k, request.user, access.campaign, battle_id,
                    request.POST.get("slaughtered", "")),
                "The slaughter is over.")


battle_urls = [
    path("summer/battle/<int:battle_id>/play/", battle_page, name="battle_play"),
    path("summer/battle/<int:battle_id>/play/start/", start, name="battle_start"),
    path("summer/battle/<int:battle_id>/play/roll/", roll, name="battle_roll"),
    path("summer/battle/<int:battle_id>/play/allocate/", allocate, name="battle_allocate"),
    path("summer/battle/<int:battle_id>/play/auto/", automatic, name="battle_auto"),
    path("summer/battle/<int:battle_id>/play/losses/", naval_losses, name="battle_losses"),
    path("summer/battle/<int:battle_id>/play/concede/", concede, name="battle_concede"),
    path("summer/battle/<int:battle_id>/play/result/", kow_result, name="battle_kow_result"),
    path("summer/battle/<int:battle_id>/play/slaughter/", slaughter, name="battle_slaughter"),
]
