"""Template helpers of the game at the table: the seats of a game, and on a kingdom's Stockpile
page its trades and battles (each a card of its own, included by the pages that show them)."""

from __future__ import annotations

from typing import Any

from django import template

from campaign.systems.swords_and_stones import autoresolve_play as arp
from campaign.systems.swords_and_stones import seats, trades
from campaign.systems.swords_and_stones.models import Game, Participant
from campaign.systems.swords_and_stones.rules import autoresolve as ar
from campaign.systems.swords_and_stones.rules import economy as eco

register = template.Library()


@register.inclusion_tag("campaign/systems/swords_and_stones/table/seats.html",
                        takes_context=True)
def sns_seats(context: template.Context, game: Game) -> dict[str, Any]:
    """SNS-RES-3: who sits at the game's table, on which side, with a link to each Stockpile
    the viewer may keep, and the form to take a seat while the game is set up."""
    access = context["access"]
    parts = seats.seat_order(game)
    seated = {p.kingdom_id for p in parts}
    free = []
    if game.status == Game.Status.SETUP and len(parts) < seats.MAX_SEATS:
        if access.is_gm:
            free = [k for k in access.campaign.kingdoms.order_by("pk") if k.pk not in seated]
        elif access.kingdom is not None and access.kingdom.pk not in seated:
            free = [access.kingdom]
    leads = {seats.CHALLENGER: game.challenger.name,
             seats.DEFENDER: game.defender.name if game.defender else game.ai_name}
    return {"campaign": access.campaign, "access": access, "game": game, "free": free,
            "leads": leads, "csrf_token": context.get("csrf_token"),
            "seats": [(p, leads.get(p.side, p.side), access.can_edit_kingdom(p.kingdom),
                       p.kingdom_id in (game.challenger_id, game.defender_id)) for p in parts]}


@register.inclusion_tag("campaign/systems/swords_and_stones/table/extras.html",
                        takes_context=True)
def sns_table_extras(context: template.Context) -> dict[str, Any]:
    """SNS-ECON-57, SNS-AR-1..7: a kingdom's open trades (offers to answer, its own waiting)
    and its battles, with the form for the step each waits for."""
    game, kingdom, state = context["game"], context["kingdom"], context.get("state") or {}
    others = [p.kingdom for p in Participant.objects.filter(game=game).exclude(
        kingdom=kingdom).select_related("kingdom").order_by("pk")]
    battles = []
    units = state.get("units", {})
    for b in arp.battles_of(game, kingdom):
        attacking = b.attacker_id == kingdom.pk
        mine = {arp.DEFENCES: not attacking, arp.COMMIT: not attacking,
                arp.BUY_BACK: attacking, arp.DICE: True}.get(b.step, False)
        available = arp._available_units(units, b.data.get("committed", [])) \
            if b.step == arp.COMMIT and not attacking else []
        battles.append({"b": b, "attacking": attacking, "act": mine or context["access"].is_gm,
                        "available": available, "need": len(b.data.get("to_roll", []))})
    return {"campaign": context["campaign"], "game": game, "kingdom": kingdom, "state": state,
            "csrf_token": context.get("csrf_token"), "others": others,
            "trades": trades.open_trades(game, kingdom), "resources": eco.RESOURCES,
            "battles": battles,
            "sendable": [(c, n) for c, n in units.items() if c in ar.ARMY_POINTS_TENTHS],
            "playing": game.status == Game.Status.PLAYING and not state.get("closed")}
