"""Summer months (MK-YEAR-2): A) Orders, B) Resolution, C) Battle, D) Reform.

The phase handlers below tell ``phases.advance`` what blocks each phase, whose turn it is, and
what happens when it closes. The services live in ``summer_orders`` (A and B), ``summer_battles``
(C) and ``summer_reform`` (D); the views in ``summer_views``. ``play_context`` and
``kingdom_context`` give the play page and the kingdom page what this viewer may see: with sealed
orders, another kingdom's orders stay hidden until the Orders phase closes.
"""

from __future__ import annotations

from typing import Any

from campaign.models import Kingdom
from campaign.rules import mighty_kingdoms as mk
from campaign.systems.mighty_kingdoms import battle_views, summer_views
from campaign.systems.mighty_kingdoms.phases import PhaseHandler
from campaign.systems.mighty_kingdoms.state import MKState
from campaign.systems.mighty_kingdoms.summer_battles import (
    battle_blockers,
    battle_context,
    battle_turn,
    choose_battle,
    choose_retreats,
    enter_result,
)
from campaign.systems.mighty_kingdoms.summer_common import (
    label_of,
    month_orders,
    orders_sealed,
)
from campaign.systems.mighty_kingdoms.summer_orders import (
    close_orders,
    give_order,
    needs_exploration,
    order_blockers,
    order_text,
    order_turn,
    pair_tokens,
    resolution_blockers,
    resolution_turn,
    resolve,
    unordered,
    unpair_tokens,
)
from campaign.systems.mighty_kingdoms.summer_reform import close_reform, reform_plan

__all__ = [
    "HANDLERS", "urlpatterns", "play_context", "kingdom_context", "give_order", "pair_tokens",
    "unpair_tokens", "resolve", "choose_battle", "enter_result", "choose_retreats",
]

TEMPLATE = "campaign/systems/mighty_kingdoms/play/summer.html"

HANDLERS = {
    ("summer", "A", ""): PhaseHandler(TEMPLATE, order_blockers, close_orders, turn=order_turn),
    ("summer", "B", ""): PhaseHandler(TEMPLATE, resolution_blockers, turn=resolution_turn),
    ("summer", "C", ""): PhaseHandler(TEMPLATE, battle_blockers, turn=battle_turn),
    ("summer", "D", ""): PhaseHandler(TEMPLATE, close=close_reform),
}

urlpatterns = [*summer_views.urlpatterns, *battle_views.battle_urls]

TURNS = {"A": order_turn, "B": resolution_turn, "C": battle_turn}


def _actor(state: MKState, access: Any, turn: int | None) -> Kingdom | None:
    """Who this viewer may act for now: a player on their turn, or a GM for whoever's turn."""
    if turn is None:
        return None
    if access.is_gm:
        return state.kingdom_rows.get(turn)
    if access.kingdom is not None and access.kingdom.pk == turn:
        return state.kingdom_rows.get(turn)
    return None


def _order_rows(state: MKState, access: Any) -> list[dict[str, Any]]:
    """This month's orders this viewer may read: all for a GM or once revealed; else their own."""
    mine = access.kingdom.pk if access.kingdom is not None else None
    hidden = orders_sealed(state) and not access.is_gm
    rows = []
    for order in month_orders(state):
        if hidden and order.kingdom_id != mine:
            continue
        outcome = order.outcome or {}
        rows.append({
            "pk": order.pk, "kingdom": state.kingdom_rows.get(order.kingdom_id),
            "token": outcome.get("token_name", order.token),
            "from": label_of(state, order.from_tile_id), "text": order_text(state, order),
            "resolved": order.resolved_seq is not None, "summary": outcome.get("summary", ""),
            "dice": outcome.get("dice"), "reroll": outcome.get("reroll"),
            "source": outcome.get("source"),
        })
    return rows


def _pairing(state: MKState, kingdom: Kingdom | None, tiles: mk.MapView) -> dict[str, Any]:
    """MK-SHIP-2/3: armies that may board a ship on their tile, and pairs that may split
    (``tiles`` holds the kingdom's tokens' tiles)."""
    if kingdom is None:
        return {}
    ordered = {o.token for o in month_orders(state)}
    armies = [a for a in state.armies_of(kingdom.pk)
              if a.paired_ship is None and f"army:{a.id}" not in ordered]
    ships = [s for s in state.ships_of(kingdom.pk)
             if s.paired_army is None and f"ship:{s.id}" not in ordered]
    board = [{"army": a, "ship": s} for a in armies for s in ships if a.tile == s.tile]
    leave = [{"mover": m, "ship": m.ship} for m in state.movers_of(kingdom.pk)
             if m.kind == mk.PAIR and m.key not in ordered and mk.can_split(m, tiles)]
    return {"summer_board": board, "summer_leave": leave, "summer_pair_kingdom": kingdom}


def play_context(state: MKState, access: Any) -> dict[str, Any]:
    """The summer part of the play page for this viewer (no query per token)."""
    campaign = state.campaign
    if campaign.season != mk.SUMMER:
        return {}
    phase = campaign.phase
    turn_of = TURNS.get(phase)
    turn = turn_of(state) if turn_of else None
    actor = _actor(state, access, turn)
    context: dict[str, Any] = {
        "summer_phase": phase, "summer_actor": actor,
        "summer_sealed": orders_sealed(state), "summer_orders": _order_rows(state, access),
        "summer_mode": state.options.battle_mode,
        "summer_towers": state.options.module_wizard_towers,
    }
    if phase == "A":
        tokens = []
        pair_kingdom = actor if access.is_gm else access.kingdom
        movers = unordered(state)[actor.pk] if actor is not None else []
        # MK-ORD-5/6, MK-SHIP-3: a token's choices depend only on its tile and the tiles around
        # it: one query for the tokens of the actor and of the viewer's kingdom.
        around = [m.tile for m in movers]
        if pair_kingdom is not None:
            around += [m.tile for m in state.movers_of(pair_kingdom.pk)]
        tiles = state.map_around(around) if around else mk.MapView(())
        if actor is not None:
            for mover in movers:
                legal = mk.legal_orders(mover, tiles, state.options)
                tokens.append({
                    "key": mover.key, "name": mover.name, "tile": mover.tile,
                    "on_side": mover.on_side,
                    "destinations": (mk.legal_move_destinations(mover, tiles, state.options)
                                     if mk.MOVE in legal else ()),
                    "others": [(kind, mk.ORDER_NAMES[kind]) for kind in legal if kind != mk.MOVE],
                })
        waiting = [(state.kingdom_rows[pk], len(left)) for pk, left in unordered(state).items()
                   if left]
        given: dict[int, int] = {}
        for order in month_orders(state):
            given[order.kingdom_id] = given.get(order.kingdom_id, 0) + 1
        context.update({
            "summer_tokens": tokens, "summer_waiting": waiting,
            "summer_given": [(state.kingdom_rows[pk], given.get(pk, 0)) for pk in state.order
                             if pk in state.kingdom_rows],
        })
        context.update(_pairing(state, pair_kingdom, tiles))
    elif phase == "B":
        mine = []
        if actor is not None:
            todo = [o for o in month_orders(state)
                    if o.kingdom_id == actor.pk and o.resolved_seq is None]
            targets = [label_of(state, o.target_id) for o in todo if o.target_id]
            tiles = state.map_around(targets, 0) if targets else None
            for order in todo:
                mine.append({
                    "pk": order.pk,
                    "token": (order.outcome or {}).get("token_name", order.token),
                    "from": label_of(state, order.from_tile_id),
                    "text": order_text(state, order),
                    "needs_dice": needs_exploration(state, order, tiles),
                })
        context["summer_to_resolve"] = mine
    elif phase == "C":
        context.update(battle_context(state, access, actor))
    elif phase == "D":
        plan = reform_plan(state)
        context["summer_reform"] = {
            "slowed": plan.slowed,
            "flip_back": plan.flip_back,
            "ownership": [(c.tile, state.kingdom_rows.get(c.new)) for c in plan.ownership],
            "defenders": len(plan.defenders),
            "counts": sorted(((state.kingdom_rows[k], n) for k, n in plan.counts.items()),
                             key=lambda item: -item[1]),
            "tied": [[state.kingdom_rows[k] for k in group] for group in plan.tied],
        }
    return context


def kingdom_context(state: MKState, access: Any, kingdom: Kingdom) -> dict[str, Any]:
    """The summer part of a kingdom's page: its capital, its tokens and where they stand, and
    this month's orders (its own player and GMs always; others once the orders are revealed)."""
    campaign = state.campaign
    if campaign.season != mk.SUMMER:
        return {}
    own = access.is_gm or (access.kingdom is not None and access.kingdom.pk == kingdom.pk)
    show_orders = own or not orders_sealed(state)
    orders = {o.token: o for o in month_orders(state) if o.kingdom_id == kingdom.pk}
    tokens = []
    for mover in state.movers_of(kingdom.pk):
        order = orders.get(mover.key) if show_orders else None
        tokens.append({
            "name": mover.name, "tile": mover.tile, "on_side": mover.on_side,
            "defending": bool(mover.army and mover.army.defending),
            "order": order_text(state, order) if order else "",
            "resolved": bool(order and order.resolved_seq is not None),
            "summary": (order.outcome or {}).get("summary", "") if order else "",
        })
    info = state.kingdoms.get(kingdom.pk)
    capital = info.capital_tile if info else None
    return {"summer_k": {
        "phase": campaign.phase,
        "phase_name": mk.SUMMER_PHASE_NAMES.get(campaign.phase, ""),
        "month": campaign.month,
        "capital": capital,
        "capital_held": bool(info and info.capital_tile and mk.current_capital(
            info, state.map_around([info.capital_tile], 0))),
        "tokens": tokens,
        "own": own,
        "show_orders": show_orders,
        "needs_orders": campaign.phase == "A" and own,
    }}
