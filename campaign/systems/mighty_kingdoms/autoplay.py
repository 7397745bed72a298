"""Play Mighty Kingdoms turns automatically through the services, as simple players would.

Used by the demo (to bring a fresh install to a campaign in its second year) and by the
benchmarks. Every action goes through the same services the pages use, so the chronicle reads
like a real campaign. Choices are plain and deterministic for a given ``random.Random``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

from django.db import transaction

from campaign.models import Campaign
from campaign.systems.mighty_kingdoms import phases, summer_orders
from campaign.systems.mighty_kingdoms import winter_services as ws
from campaign.systems.mighty_kingdoms.rules import campaign as mk
from campaign.systems.mighty_kingdoms.rules import ledger as eco
from campaign.systems.mighty_kingdoms.state import MKState, load_state

Watch = Callable[[], None] | None


def _state(campaign: Campaign) -> MKState:
    return load_state(Campaign.objects.get(pk=campaign.pk))


def _turns(campaign: Campaign, turn_of: Callable[[MKState], int | None] | None = None,
           watch: Watch = None, *, halfway: bool = True) -> Iterator[tuple[MKState, int]]:
    """Each turn of the current phase: the campaign loaded once, locked, in the transaction in
    which the caller acts on it (the services take that ``state`` instead of reading it again).

    ``watch`` is called halfway through (with ``halfway``: one turn per army, so about half the
    armies), and, when it has a ``mine`` attribute (the kingdom whose pages it looks at), on
    the first turn of that kingdom and on the first turn of another: it sees the pages both
    when its player is to act and when they wait, wherever the kingdom stands in the order."""
    half = len(_state(campaign).armies) // 2 if watch is not None and halfway else 0
    mine = getattr(watch, "mine", None)
    seen: set[bool] = set()
    turns = 0
    while True:
        with transaction.atomic():
            state = load_state(campaign, lock=True)
            turn = (turn_of or _turn)(state)
            if turn is None:
                return
            turns += 1
            if watch is not None:
                own = turn == mine
                if turns == half or (mine is not None and own not in seen):
                    watch()
                seen.add(own)
            yield state, turn


def _turn(state: MKState) -> int | None:
    handler = phases.handler_for(state.campaign)
    return handler.turn(state) if handler.turn else None


def _free(state: MKState, labels: list[str], taken: set[str]) -> list[str]:
    """Those of ``labels`` that no token stands on and no order this month moves into."""
    armies, ships = state.tokens_at(labels)
    occupied = {a.tile for a in armies} | {s.tile for s in ships} | taken
    return [label for label in labels if label not in occupied]


def _target(state: MKState, mover: mk.Mover, taken: set[str], rng: random.Random) -> str | None:
    """Unexplored land first, else an own tile on the frontier; never onto another token."""
    # The destinations and their neighbours: two steps around the token.
    tiles = state.map_around([mover.tile], 2)
    legal = _free(state, list(mk.legal_move_destinations(mover, tiles, state.options)), taken)
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


def _advance(campaign: Campaign, user: Any, watch: Watch) -> None:
    """Close the phase; ``watch`` (the benchmark's) then looks at the phase that opened."""
    phases.advance(campaign, user)
    if watch is not None:
        watch()


def play_summer_month(campaign: Campaign, user: Any, rng: random.Random,
                      watch: Watch = None) -> None:
    """Orders (explore, else defend; regroup when on its side), resolution, reform.

    ``watch`` is called as each phase opens and halfway through the orders and resolutions,
    and on its kingdom's first turn and another's (see ``_turns``)."""
    if watch is not None:
        watch()
    taken: set[str] = set()
    for state, turn in _turns(campaign, watch=watch):
        mover = summer_orders.unordered_of(state, turn)[0]
        kingdom = state.kingdom_rows[turn]
        if mover.on_side:
            summer_orders.give_order(kingdom, user, mover.key, mk.REGROUP, None, state=state)
            continue
        target = _target(state, mover, taken, rng) if mover.kind == mk.ARMY else None
        if target:
            taken.add(target)
            summer_orders.give_order(kingdom, user, mover.key, mk.MOVE, target, state=state)
        elif mover.kind == mk.ARMY:
            summer_orders.give_order(kingdom, user, mover.key, mk.DEFEND, None, state=state)
        else:
            # Ships cannot Defend (MK-ORD-7): they sail to open water, or along the coast.
            tiles = state.map_around([mover.tile])
            waters = sorted(
                _free(state, list(mk.legal_move_destinations(mover, tiles, state.options)),
                      taken),
                key=lambda label: not tiles.tile(label).is_open_water,
            )
            if waters:
                taken.add(waters[0])
                summer_orders.give_order(kingdom, user, mover.key, mk.MOVE, waters[0],
                                         state=state)
            else:
                legal = mk.legal_orders(mover, tiles, state.options)
                summer_orders.give_order(kingdom, user, mover.key, sorted(legal)[0], None,
                                         state=state)
    _advance(campaign, user, watch)
    for state, turn in _turns(campaign, watch=watch):
        order = summer_orders.unresolved_of(state, turn)[0]
        # Dice as if typed in from the table, so the same seed always plays the same year.
        summer_orders.resolve(state.kingdom_rows[turn], user, order.pk,
                              dice=(rng.randint(1, 6), rng.randint(1, 6)),
                              reroll=(rng.randint(1, 6), rng.randint(1, 6)), state=state)
    _advance(campaign, user, watch)  # Resolution → Battle: nobody shares a tile, no battle
    _advance(campaign, user, watch)  # Battle → Reform
    phases.advance(campaign, user)  # Reform closes


def play_winter(campaign: Campaign, user: Any, *, stop_in_buy: bool = False,
                watch: Watch = None) -> None:
    """Recall, gather, tithes (everyone passes), one purchase each, feed all, deploy.

    ``watch`` is called as each phase opens, halfway through the deployment, and in tithes,
    purchases and deployment on its kingdom's first turn and another's (see ``_turns``)."""
    # Recall happened as winter began; answer the choices it left open, then close it.
    if watch is not None:
        watch()
    state = _state(campaign)
    for pk, pending in ws.recall_pending(state).items():
        _choose_recall(state, pk, pending, user)
    _advance(campaign, user, watch)  # Recall closes
    _advance(campaign, user, watch)  # Gather closes: income booked
    for state, turn in _turns(campaign, watch=watch, halfway=False):
        ws.pass_turn(state.kingdom_rows[turn], user, mk.SUB_TITHE, state=state)
    _advance(campaign, user, watch)
    bought: set[int] = set()
    for state, turn in _turns(campaign, watch=watch, halfway=False):
        kingdom = state.kingdom_rows[turn]
        if turn in bought:
            if stop_in_buy:
                return
            ws.pass_turn(kingdom, user, mk.SUB_BUY, state=state)
            continue
        bought.add(turn)
        purchase = _pick_purchase(state, turn)
        if purchase is None:
            ws.pass_turn(kingdom, user, mk.SUB_BUY, state=state)
        else:
            ws.buy(kingdom, user, purchase, state=state)
    _advance(campaign, user, watch)
    feed_and_deploy(campaign, user, watch)


def feed_and_deploy(campaign: Campaign, user: Any, watch: Watch = None) -> None:
    """C) 3. Feed (the lowest-numbered armies the food allows), then D) Deploy (each army on
    the first tile with room), closing both phases."""
    state = _state(campaign)
    stock = ws.stocks(state)
    for pk, row in state.kingdom_rows.items():
        numbers = [a.number for a in sorted(state.armies_of(pk), key=lambda a: a.number)]
        ws.feed(row, user, numbers[: stock[pk].food])
    _advance(campaign, user, watch)
    for state, turn in _turns(campaign, ws.deploy_turn, watch):
        placed = ws.winter_view(state.campaign)["deploy"]["placed"]
        army = ws.waiting_armies(state, placed, turn)[0]
        tiles = mk.legal_deploy_tiles(state.kingdoms[turn], ws.kingdom_map(state, turn),
                                      ws.placed_counts(state, placed, turn))
        ws.deploy_army(state.kingdom_rows[turn], user, army.number, sorted(tiles)[0],
                       state=state)
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
    state.read_tokens_of([pk])
    winter = ws.kingdom_winter(state, pk, ws.stocks_of(state, [pk])[pk],
                               ws.purchases_this_winter(state, pk),
                               ws.last_army_number(pk))
    options = [o for o in eco.affordable_purchases(winter, ws.kingdom_map(state, pk),
                                                   state.options)
               if o.affordable and not o.needs_disband and not o.purchase.allied]
    for kind in (eco.SHIP, eco.RECRUIT, eco.SETTLE):
        for option in options:
            if option.purchase.kind == kind:
                return option.purchase
    return None
