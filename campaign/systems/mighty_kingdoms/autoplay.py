"""Play Mighty Kingdoms turns automatically through the services, as simple players would.

Used by the demo (to bring a fresh install to a campaign in its second year) and by the
benchmarks. Every action goes through the same services the pages use, so the chronicle reads
like a real campaign. Choices are plain and deterministic for a given ``random.Random``.
"""

from __future__ import annotations

import random
from typing import Any

from campaign.models import Campaign
from campaign.rules import mighty_kingdoms as mk
from campaign.systems.mighty_kingdoms import phases, summer_orders
from campaign.systems.mighty_kingdoms import winter_services as ws
from campaign.systems.mighty_kingdoms.state import MKState, load_state
from ledger.rules import mighty_kingdoms as eco


def _state(campaign: Campaign) -> MKState:
    return load_state(Campaign.objects.get(pk=campaign.pk))


def _turn(state: MKState) -> int | None:
    handler = phases.handler_for(state.campaign)
    return handler.turn(state) if handler.turn else None


def _occupied(state: MKState, taken: set[str]) -> set[str]:
    return {a.tile for a in state.armies} | {s.tile for s in state.ships} | taken


def _target(state: MKState, mover: mk.Mover, taken: set[str], rng: random.Random) -> str | None:
    """Unexplored land first, else an own tile on the frontier; never onto another token."""
    # The destinations and their neighbours: two steps around the token.
    tiles = state.map_around([mover.tile], 2)
    occupied = _occupied(state, taken)
    legal = [label for label in mk.legal_move_destinations(mover, tiles, state.options)
             if label not in occupied]
    rng.shuffle(legal)
    for label in legal:
        if not tiles.tile(label).explored:
            return label
    for label in legal:
        tile = tiles.tile(label)
        if tile.controller == mover.kingdom and any(
            (n := tiles.get(label_n)) is not None and not n.explored
            for label_n in tile.neighbours
        ):
            return label
    return None


def play_summer_month(campaign: Campaign, user: Any, rng: random.Random) -> None:
    """Orders (explore, else defend; regroup when on its side), resolution, reform."""
    taken: set[str] = set()
    while (state := _state(campaign)) and (turn := _turn(state)) is not None:
        mover = summer_orders.unordered(state)[turn][0]
        kingdom = state.kingdom_rows[turn]
        if mover.on_side:
            summer_orders.give_order(kingdom, user, mover.key, mk.REGROUP, None)
            continue
        target = _target(state, mover, taken, rng) if mover.kind == mk.ARMY else None
        if target:
            taken.add(target)
            summer_orders.give_order(kingdom, user, mover.key, mk.MOVE, target)
        elif mover.kind == mk.ARMY:
            summer_orders.give_order(kingdom, user, mover.key, mk.DEFEND, None)
        else:
            # Ships cannot Defend (MK-ORD-7): they sail to open water, or along the coast.
            occupied = _occupied(state, taken)
            tiles = state.map_around([mover.tile])
            waters = sorted(
                (label for label in mk.legal_move_destinations(mover, tiles, state.options)
                 if label not in occupied),
                key=lambda label: not tiles.tile(label).is_open_water,
            )
            if waters:
                taken.add(waters[0])
                summer_orders.give_order(kingdom, user, mover.key, mk.MOVE, waters[0])
            else:
                legal = mk.legal_orders(mover, tiles, state.options)
                summer_orders.give_order(kingdom, user, mover.key, sorted(legal)[0], None)
    phases.advance(campaign, user)
    while (state := _state(campaign)) and (turn := _turn(state)) is not None:
        order = summer_orders.unresolved(state)[turn][0]
        # Dice as if typed in from the table, so the same seed always plays the same year.
        summer_orders.resolve(state.kingdom_rows[turn], user, order.pk,
                              dice=(rng.randint(1, 6), rng.randint(1, 6)),
                              reroll=(rng.randint(1, 6), rng.randint(1, 6)))
    phases.advance(campaign, user)  # Resolution → Battle: nobody shares a tile, no battle
    phases.advance(campaign, user)  # Battle → Reform
    phases.advance(campaign, user)  # Reform closes


def play_winter(campaign: Campaign, user: Any, *, stop_in_buy: bool = False) -> None:
    """Recall, gather, tithes (everyone passes), one purchase each, feed all, deploy."""
    # Recall happened as winter began; answer the choices it left open, then close it.
    state = _state(campaign)
    for pk, pending in ws.recall_pending(state).items():
        _choose_recall(state, pk, pending, user)
    phases.advance(campaign, user)  # Recall closes
    phases.advance(campaign, user)  # Gather closes: income booked
    while (state := _state(campaign)) and (turn := _turn(state)) is not None:
        ws.pass_turn(state.kingdom_rows[turn], user, mk.SUB_TITHE)
    phases.advance(campaign, user)
    bought: set[int] = set()
    while (state := _state(campaign)) and (turn := _turn(state)) is not None:
        kingdom = state.kingdom_rows[turn]
        if turn in bought:
            if stop_in_buy:
                return
            ws.pass_turn(kingdom, user, mk.SUB_BUY)
            continue
        bought.add(turn)
        purchase = _pick_purchase(state, turn)
        if purchase is None:
            ws.pass_turn(kingdom, user, mk.SUB_BUY)
        else:
            ws.buy(kingdom, user, purchase)
    phases.advance(campaign, user)
    state = _state(campaign)
    stock = ws.stocks(state)
    for pk, row in state.kingdom_rows.items():
        numbers = [a.number for a in sorted(state.armies_of(pk), key=lambda a: a.number)]
        ws.feed(row, user, numbers[: stock[pk].food])
    phases.advance(campaign, user)
    while (state := _state(campaign)) and (turn := ws.deploy_turn(state)) is not None:
        placed = ws.winter_data(state.campaign)["deploy"]["placed"]
        army = ws.waiting_armies(state, placed, turn)[0]
        tiles = mk.legal_deploy_tiles(state.kingdoms[turn], ws.kingdom_map(state, turn),
                                      ws.placed_counts(state, placed, turn))
        ws.deploy_army(state.kingdom_rows[turn], user, army.number, sorted(tiles)[0])
    phases.advance(campaign, user)


def _choose_recall(state: MKState, pk: int, pending: dict[str, bool], user: Any) -> None:
    """Armies to the first legal city or village; each ship to a free harbour city in turn."""
    kingdom = state.kingdoms[pk]
    tile = None
    if pending.get("armies"):
        plan = mk.recall_destination(kingdom, ws.kingdom_map(state, pk))
        tile = sorted(plan.choices)[0] if plan.choices else None
    docks: dict[int, str] = {}
    if pending.get("ships"):
        cities = list(mk.docking_cities(pk, ws.kingdom_map(state, pk)))
        for ship in sorted(state.ships_of(pk), key=lambda s: s.number):
            if cities:
                docks[ship.number] = cities.pop(0)
    ws.choose_recall(state.kingdom_rows[pk], user, tile=tile, docks=docks)


def _pick_purchase(state: MKState, pk: int) -> eco.Purchase | None:
    """A ship where a harbour is free, else a recruit, else a village: the first affordable."""
    winter = ws.kingdom_winter(state, pk, ws.stocks(state)[pk], ws.purchases_this_winter(state),
                               ws.last_army_number(pk))
    options = [o for o in eco.affordable_purchases(winter, ws.kingdom_map(state, pk),
                                                   state.options)
               if o.affordable and not o.needs_disband and not o.purchase.allied]
    for kind in (eco.SHIP, eco.RECRUIT, eco.SETTLE):
        for option in options:
            if option.purchase.kind == kind:
                return option.purchase
    return None
