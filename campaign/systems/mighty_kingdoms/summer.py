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
from campaign.systems.mighty_kingdoms import map_actions
from campaign.systems.mighty_kingdoms.clock import PhaseHandler
from campaign.systems.mighty_kingdoms.rules import campaign as mk
from campaign.systems.mighty_kingdoms.state import MKState
from campaign.systems.mighty_kingdoms.summer_battles import (
    battle_blockers,
    battle_context,
    battle_turn,
    choose_battle,
    choose_retreats,
    enter_result,
    read_battle_tiles,
)
from campaign.systems.mighty_kingdoms.summer_common import (
    PHONE_ROWS,
    kingdom_orders,
    label_of,
    month_orders,
    mover_counts,
    order_stats,
    orders_sealed,
)
from campaign.systems.mighty_kingdoms.summer_orders import (
    close_orders,
    give_order,
    needs_exploration,
    order_blockers,
    order_brief,
    order_text,
    order_turn,
    pair_tokens,
    resolution_blockers,
    resolution_brief,
    resolution_turn,
    resolve,
    unordered_of,
    unpair_tokens,
    unresolved_of,
)
from campaign.systems.mighty_kingdoms.summer_reform import close_reform, reform_plan

__all__ = [
    "HANDLERS", "PHONE_ROWS", "play_context", "kingdom_context", "give_order", "pair_tokens",
    "unpair_tokens", "resolve", "choose_battle", "enter_result", "choose_retreats",
]

TEMPLATE = "campaign/systems/mighty_kingdoms/play/summer.html"

HANDLERS = {
    ("summer", "A", ""): PhaseHandler(TEMPLATE, order_blockers, close_orders, turn=order_turn,
                                      brief=order_brief),
    ("summer", "B", ""): PhaseHandler(TEMPLATE, resolution_blockers, turn=resolution_turn,
                                      brief=resolution_brief),
    ("summer", "C", ""): PhaseHandler(TEMPLATE, battle_blockers, turn=battle_turn),
    ("summer", "D", ""): PhaseHandler(TEMPLATE, close=close_reform, close_dice=True,
                                      order_counts=lambda state: reform_plan(state).counts,
                                      order_rule="MK-PORDER-1"),
}


TURNS = {"A": order_turn, "B": resolution_turn, "C": battle_turn}

PHONE_ORDERS = 48


def _actor(state: MKState, access: Any, turn: int | None) -> Kingdom | None:
    """Who this viewer may act for now: a player on their turn, or a GM for whoever's turn."""
    if turn is None:
        return None
    if access.is_gm:
        return state.kingdom_rows.get(turn)
    if access.kingdom is not None and access.kingdom.pk == turn:
        return state.kingdom_rows.get(turn)
    return None


def _order_rows(state: MKState, access: Any) -> tuple[list[dict[str, Any]], int]:
    """This month's orders this viewer reads on the play page, and how many others there are.

    A GM reads them all. A player or observer reads their own kingdom's, and every order once
    revealed (MK-ORD-1) while the campaign is small enough for a phone (``PHONE_ORDERS``);
    beyond that the other kingdoms' orders are counted, and the kingdom pages show them."""
    mine = access.kingdom.pk if access.kingdom is not None else None
    total = sum(order_stats(state).given.values())
    hidden = not access.is_gm and (orders_sealed(state) or total > PHONE_ORDERS)
    if hidden:
        orders = kingdom_orders(state, mine) if mine is not None else []
        others = total - len(orders)
    else:
        orders, others = month_orders(state), 0
    rows = []
    for order in orders:
        outcome = order.outcome or {}
        rows.append({
            "pk": order.pk, "kingdom": state.kingdom_rows.get(order.kingdom_id),
            "token": outcome.get("token_name", order.token),
            "from": label_of(state, order.from_tile_id), "text": order_text(state, order),
            "resolved": order.resolved_seq is not None, "summary": outcome.get("summary", ""),
            "dice": outcome.get("dice"), "reroll": outcome.get("reroll"),
            "source": outcome.get("source"),
        })
    return rows, others


def _pairing(state: MKState, kingdom: Kingdom | None, tiles: mk.MapView) -> dict[str, Any]:
    """MK-SHIP-2/3: armies that may board a ship on their tile, and pairs that may split
    (``tiles`` holds the kingdom's tokens' tiles)."""
    if kingdom is None:
        return {}
    ordered = {o.token for o in kingdom_orders(state, kingdom.pk)}
    armies = [a for a in state.armies_of(kingdom.pk)
              if a.paired_ship is None and f"army:{a.id}" not in ordered]
    ships = [s for s in state.ships_of(kingdom.pk)
             if s.paired_army is None and f"ship:{s.id}" not in ordered]
    board = [{"army": a, "ship": s} for a in armies for s in ships if a.tile == s.tile]
    leave = [{"mover": m, "ship": m.ship} for m in state.movers_of(kingdom.pk)
             if m.kind == mk.PAIR and m.key not in ordered and mk.can_split(m, tiles)]
    return {"summer_board": board, "summer_leave": leave, "summer_pair_kingdom": kingdom}


def read_page(state: MKState) -> None:
    """Read at once what the play page of the battle step (C) shows of the map, before its
    turn and its parts ask (see ``summer_battles.read_battle_tiles``), and this month's orders
    (one query): their counts, which decide whether a phone lists every order, come from them
    (that step reads every token anyway, and a month has at most an order per token)."""
    campaign = state.campaign
    if campaign.season == mk.SUMMER and campaign.phase == "C":
        read_battle_tiles(state)
        month_orders(state)


def play_context(state: MKState, access: Any) -> dict[str, Any]:
    """The summer part of the play page for this viewer (no query per token)."""
    campaign = state.campaign
    if campaign.season != mk.SUMMER:
        return {}
    phase = campaign.phase
    turn_of = TURNS.get(phase)
    turn = turn_of(state) if turn_of else None
    actor = _actor(state, access, turn)
    orders, others = _order_rows(state, access)
    context: dict[str, Any] = {
        "summer_phase": phase, "summer_actor": actor,
        "summer_sealed": orders_sealed(state), "summer_orders": orders,
        "summer_other_orders": others,
        "summer_mode": state.options.battle_mode,
        "summer_towers": state.options.module_wizard_towers,
    }
    if phase == "A":
        tokens = []
        pair_kingdom = actor if access.is_gm else access.kingdom
        if not access.is_gm:
            # A player's phone reads the tokens of the kingdom acting and of their own only.
            state.read_tokens_of(k.pk for k in (actor, pair_kingdom) if k is not None)
        movers = unordered_of(state, actor.pk) if actor is not None else []
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
        # Each destination read with its terrain, settlement and who is there: the tokens
        # around the tokens this page speaks of, read at once whoever's turn it is.
        if around:
            state.tokens_at([t.label for t in tiles.tiles])
        described = {c: c for c in map_actions.choices(
            state, [d for t in tokens for d in t["destinations"]], tiles)}
        for t in tokens:
            t["destinations"] = [described[d] for d in t["destinations"]]
        given = order_stats(state).given
        counts = mover_counts(state)
        waiting = sum(1 for pk in state.order if counts.get(pk, 0) > given.get(pk, 0))
        listed = [pk for pk in state.order if pk in state.kingdom_rows]
        context.update({
            "summer_tokens": tokens, "summer_waiting": waiting,
            "summer_done": len(listed) - waiting, "summer_kingdoms": len(listed),
            "summer_given": ([(state.kingdom_rows[pk], given.get(pk, 0)) for pk in listed]
                             if access.is_gm or len(listed) <= PHONE_ROWS else []),
        })
        context.update(_pairing(state, pair_kingdom, tiles))
    elif phase == "B":
        mine = []
        if actor is not None:
            todo = unresolved_of(state, actor.pk)
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
        _describe_battle_tiles(state, context["summer_battles"])
    elif phase == "D":
        context["summer_reform"] = _reform_context(state, access)
    return context


def _describe_battle_tiles(state: MKState, battles: list[dict[str, Any]]) -> None:
    """Retreat and move-on choices read with their terrain, settlement and who is there
    (``map_actions.choices``), as in every drop-down of tiles."""
    for battle in battles:
        for entry in battle["retreats"]:
            entry["options"] = map_actions.choices(state, entry["options"])
        for option in battle["winner_move"].values():
            option["options"] = map_actions.choices(state, option["options"])


def _reform_context(state: MKState, access: Any) -> dict[str, Any]:
    """D) Reform as this viewer reads it before the GM closes the phase: everything for a GM;
    for a player what happens to their own kingdom, the settlements turned back up, the army
    counts (the first ``PHONE_ROWS`` and their own) and the tie they are in."""
    mine = access.kingdom.pk if access.kingdom is not None else None
    plan = reform_plan(state) if access.is_gm else reform_plan(state, mine or 0)
    ranked = sorted(plan.counts.items(), key=lambda item: -item[1])
    tied = [list(group) for group in plan.tied]
    if not access.is_gm and len(ranked) > PHONE_ROWS:
        shown = ranked[:PHONE_ROWS]
        if mine is not None and all(k != mine for k, _ in shown):
            shown.append(next(item for item in ranked if item[0] == mine))
        others = [group for group in tied if mine not in group]
        tied = [group for group in tied if mine in group]
        ranked, more, ties_more = shown, len(ranked) - len(shown), len(others)
    else:
        more = ties_more = 0
    rows = state.kingdom_rows
    cap = None if access.is_gm else PHONE_ROWS
    return {
        "own": not access.is_gm,
        "slowed": plan.slowed,
        "flip_back": plan.flip_back,
        "ownership": [(c.tile, rows.get(c.new)) for c in plan.ownership],
        "defenders": len(plan.defenders),
        "counts": [(rows[k], n) for k, n in ranked],
        "counts_more": more,
        "tied": [{"kingdoms": [rows[k] for k in group[:cap]],
                  "more": len(group) - len(group[:cap])} for group in tied],
        "ties_more": ties_more,
    }


def kingdom_context(state: MKState, access: Any, kingdom: Kingdom) -> dict[str, Any]:
    """The summer part of a kingdom's page: its capital, its tokens and where they stand, and
    this month's orders (its own player and GMs always; others once the orders are revealed)."""
    campaign = state.campaign
    if campaign.season != mk.SUMMER:
        return {}
    own = access.is_gm or (access.kingdom is not None and access.kingdom.pk == kingdom.pk)
    show_orders = own or not orders_sealed(state)
    orders = {o.token: o for o in kingdom_orders(state, kingdom.pk)}
    state.read_tokens_of([kingdom.pk])
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
        # The capital tile comes with the kingdom's holdings (what its economy reads too).
        "capital_held": bool(info and info.capital_tile and mk.current_capital(
            info, state.holdings_map([kingdom.pk]))),
        "tokens": tokens,
        "own": own,
        "show_orders": show_orders,
        "needs_orders": campaign.phase == "A" and own,
    }}
