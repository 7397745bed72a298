"""Summer actions, one POST each (mounted under /c/<slug>/mk/summer/ in the "mk" namespace).

A player acts for their own kingdom, a GM for the kingdom named in the form (``acting_kingdom``).
The services check the phase, the turn and the rules; a refusal is a 409 with its reason and
changes nothing (``run``). Entering a battle's result is for GMs only.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.urls import path
from django.views.decorators.http import require_POST

from campaign.models import Role
from campaign.parsing import ParseError, parse_id, parse_int
from campaign.systems.mighty_kingdoms import forces as battle_services
from campaign.systems.mighty_kingdoms import summer_battles, summer_orders
from campaign.systems.mighty_kingdoms.views import acting_kingdom, mk_access, run
from campaign.views.common import refuse, tabs_context


@login_required
@require_POST
def give_order(request: HttpRequest, slug: str) -> HttpResponse:
    access = mk_access(request, slug)
    kingdom = acting_kingdom(request, access)
    token = request.POST.get("token", "")
    kind = request.POST.get("kind", "")
    target = request.POST.get("target", "") or None
    return run(request, access,
               lambda: summer_orders.give_order(kingdom, request.user, token, kind, target))


@login_required
@require_POST
def pair(request: HttpRequest, slug: str) -> HttpResponse:
    access = mk_access(request, slug)
    kingdom = acting_kingdom(request, access)
    army, ship = parse_id(request.POST.get("army", "")), parse_id(request.POST.get("ship", ""))
    if army is None or ship is None:
        return refuse(request, "Say which army boards which ship.",
                      context=tabs_context(access, "play"))
    return run(request, access,
               lambda: summer_orders.pair_tokens(kingdom, request.user, army, ship))


@login_required
@require_POST
def unpair(request: HttpRequest, slug: str) -> HttpResponse:
    access = mk_access(request, slug)
    kingdom = acting_kingdom(request, access)
    ship = parse_id(request.POST.get("ship", ""))
    if ship is None:
        return refuse(request, "Say which ship the army leaves.",
                      context=tabs_context(access, "play"))
    return run(request, access,
               lambda: summer_orders.unpair_tokens(kingdom, request.user, ship))


def _dice(request: HttpRequest, first: str, second: str) -> tuple[int, int] | None:
    try:
        values = [parse_int(request.POST.get(name, ""), 1, 6, name) for name in (first, second)]
    except ParseError:
        return None
    return values[0], values[1]


@login_required
@require_POST
def resolve(request: HttpRequest, slug: str) -> HttpResponse:
    access = mk_access(request, slug)
    kingdom = acting_kingdom(request, access)
    order = parse_id(request.POST.get("order", ""))
    if order is None:
        return refuse(request, "Say which order to resolve.", context=tabs_context(access, "play"))
    source = "server" if request.POST.get("source") == "server" else "table"
    dice = reroll = None
    if source == "table" and (request.POST.get("d1") or request.POST.get("d2")):
        dice = _dice(request, "d1", "d2")
        if dice is None:
            return refuse(request, "Type in both dice, each 1 to 6.",
                          context=tabs_context(access, "play"))
        if request.POST.get("r1") or request.POST.get("r2"):
            reroll = _dice(request, "r1", "r2")
            if reroll is None:
                return refuse(request, "Type in both dice of the second roll, each 1 to 6.",
                              context=tabs_context(access, "play"))
    return run(request, access,
               lambda: summer_orders.resolve(kingdom, request.user, order, source=source,
                                             dice=dice, reroll=reroll))


@login_required
@require_POST
def choose_battle(request: HttpRequest, slug: str) -> HttpResponse:
    access = mk_access(request, slug)
    kingdom = acting_kingdom(request, access)
    label = request.POST.get("tile", "")
    opponent = parse_id(request.POST.get("opponent", ""))
    if opponent is None:
        return refuse(request, "Say which kingdom to fight.", context=tabs_context(access, "play"))
    naval = request.POST.get("naval") == "1"
    mode = request.POST.get("mode", "")
    return run(request, access,
               lambda: summer_battles.choose_battle(kingdom, request.user, label, opponent,
                                                    naval, mode))


@login_required
@require_POST
def battle_result(request: HttpRequest, slug: str, battle_id: int) -> HttpResponse:
    access = mk_access(request, slug, role=Role.GM)
    return run(request, access,
               lambda: summer_battles.enter_result(
                   battle_id, request.user, access.campaign,
                   result=request.POST.get("result", ""),
                   removed=request.POST.getlist("removed"),
                   slaughtered=request.POST.get("slaughtered", ""),
                   units=battle_services.parse_unit_results(request.POST)
                   if request.POST.get("unit_results") else None))


@login_required
@require_POST
def retreat(request: HttpRequest, slug: str, battle_id: int) -> HttpResponse:
    access = mk_access(request, slug)
    kingdom = acting_kingdom(request, access)
    choices = {key[len("retreat_"):]: value for key, value in request.POST.items()
               if key.startswith("retreat_")}
    return run(request, access,
               lambda: summer_battles.choose_retreats(kingdom, request.user, battle_id, choices))


@login_required
@require_POST
def winner_move(request: HttpRequest, slug: str, battle_id: int) -> HttpResponse:
    access = mk_access(request, slug)
    kingdom = acting_kingdom(request, access)
    token = "" if request.POST.get("stay") else request.POST.get("token", "")
    destination = request.POST.get(f"to_{token}", "") if token else ""
    return run(request, access,
               lambda: summer_battles.winner_move(kingdom, request.user, battle_id, token,
                                                  destination))


urlpatterns = [
    path("summer/order/", give_order, name="summer_order"),
    path("summer/pair/", pair, name="summer_pair"),
    path("summer/unpair/", unpair, name="summer_unpair"),
    path("summer/resolve/", resolve, name="summer_resolve"),
    path("summer/battle/", choose_battle, name="summer_battle"),
    path("summer/battle/<int:battle_id>/result/", battle_result, name="summer_battle_result"),
    path("summer/battle/<int:battle_id>/retreat/", retreat, name="summer_retreat"),
    path("summer/battle/<int:battle_id>/winner-move/", winner_move, name="summer_winner_move"),
]
