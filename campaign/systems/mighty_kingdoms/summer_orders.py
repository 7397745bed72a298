"""Summer A) Orders (MK-ORD, MK-SHIP) and B) Resolution (MK-RES, MK-EXP, MK-WIZ).

Orders go round the table one token at a time (MK-ORD-1); with sealed orders only the kingdom
and the GMs see an order until the phase closes, when every order is revealed at once.
Resolution goes round again, each player picking which of their orders to resolve next
(MK-RES-1); the resolution table row is chosen by ``resolve_order`` from the map as it stands at
that moment (MK-RES-3).
"""

from __future__ import annotations

import json
import random
from typing import Any

from django.db import transaction

from battles.models import Army
from campaign.chronicle import Recorder
from campaign.models import Kingdom, Visibility
from campaign.services import ServiceError
from campaign.systems.mighty_kingdoms.clock import note
from campaign.systems.mighty_kingdoms.forces import capital_changes_hands
from campaign.systems.mighty_kingdoms.models import Order, Ship
from campaign.systems.mighty_kingdoms.rules import campaign as mk
from campaign.systems.mighty_kingdoms.state import MKState, load_state
from campaign.systems.mighty_kingdoms.summer_common import (
    OrderRec,
    all_movers,
    cache_of,
    forget_orders,
    kingdom_name,
    kingdom_orders,
    label_of,
    month_orders,
    mover_counts,
    order_by_pk,
    order_row,
    order_stats,
    read_orders_of,
    require_phase,
    require_turn,
    roll_2d6,
    token_rows,
    token_title,
)

# -- A) Orders --------------------------------------------------------------------------------


def unordered(state: MKState) -> dict[int, list[mk.Mover]]:
    """MK-ORD-1/3: each kingdom's tokens that still need an order this month (every token and
    order of the month read; ``unordered_of`` reads one kingdom's)."""
    orders = month_orders(state)
    cache = cache_of(state)
    found = cache.get("unordered")
    if found is None or found[0] != len(orders):
        ordered = {o.token for o in orders}
        found = cache["unordered"] = (len(orders), {
            pk: [m for m in state.movers_of(pk) if m.key not in ordered] for pk in state.order})
    return found[1]  # type: ignore[no-any-return]


def unordered_of(state: MKState, kingdom_id: int) -> list[mk.Mover]:
    """MK-ORD-1/3: one kingdom's tokens that still need an order this month."""
    state.read_tokens_of([kingdom_id])
    ordered = {o.token for o in kingdom_orders(state, kingdom_id)}
    return [m for m in state.movers_of(kingdom_id) if m.key not in ordered]


def _unordered_counts(state: MKState) -> dict[int, int]:
    stats = order_stats(state)
    counts = mover_counts(state)
    return {pk: counts.get(pk, 0) - stats.given.get(pk, 0) for pk in state.order}


def order_turn(state: MKState) -> int | None:
    """MK-ORD-1/3: whose turn it is to give an order (players with nothing left are skipped).

    Counted, not listed: it costs the same however many tokens and orders there are."""
    last = order_stats(state).last_given
    return mk.order_turn(state.order, last[1] if last else None, _unordered_counts(state))


def order_blockers(state: MKState) -> list[str]:
    return order_brief(state)[0]


def order_brief(state: MKState, limit: int | None = None) -> tuple[list[str], int]:
    """MK-ORD-1: the kingdoms with tokens still waiting for an order, with the tokens' names;
    with ``limit``, the first ``limit`` of them only (their tokens read, the others counted).
    Also how many kingdoms are waiting in all."""
    counts = _unordered_counts(state)
    waiting = [pk for pk in state.order if counts.get(pk, 0) > 0]
    shown = waiting if limit is None else waiting[:limit]
    if not state.tokens_read:
        state.read_tokens_of(shown)
        read_orders_of(state, shown)
    missing = []
    for pk in shown:
        names = ", ".join(m.name for m in unordered_of(state, pk))
        missing.append(f"{kingdom_name(state, pk)}: {names} without an order (MK-ORD-1).")
    return missing, len(waiting)


def describe_order(kind: str, target: str | None) -> str:
    """ "Move to 0304", "Defend", ... """
    name = mk.ORDER_NAMES.get(kind, kind)
    return f"{name} to {target}" if kind == mk.MOVE and target else name


def order_text(state: MKState, order: OrderRec) -> str:
    return describe_order(order.kind, label_of(state, order.target_id))


def give_order(kingdom: Kingdom, user: Any, token: str, kind: str, target: str | None, *,
               state: MKState | None = None) -> Order:
    """MK-ORD-1..9, MK-SHIP-1/4: one order for one of the kingdom's tokens, on its turn.

    ``state`` is the campaign as the caller loaded it with ``lock=True`` in the transaction that
    makes this call (read here otherwise); the same goes for ``resolve``."""
    with transaction.atomic():
        state = state if state is not None else load_state(kingdom.campaign, lock=True)
        require_phase(state, "A")
        mover = _own_mover(state, kingdom, token)
        if any(o.token == mover.key for o in kingdom_orders(state, kingdom.pk)):
            raise ServiceError(
                f"{mover.name.capitalize()} already has its order: an order once given cannot be "
                "changed (MK-ORD-2)."
            )
        require_turn(state, kingdom, order_turn(state), "MK-ORD-1",
                     "Every token already has its order this month.")
        try:
            order = mk.validate_order(mover, kind, target or None,
                                      state.map_around([mover.tile]), state.options)
        except mk.RuleViolation as exc:
            raise ServiceError(str(exc)) from exc
        state.tile_rows.fetch([mover.tile, order.target or ""])
        row = state.kingdom_rows[kingdom.pk]
        campaign = state.campaign
        last = order_stats(state).last_given
        seq = (last[0] if last else 0) + 1
        sealed = state.options.sealed_orders
        text = describe_order(order.kind, order.target)
        with Recorder(
            campaign, user, "summer.order",
            f"{row.name} orders {mover.name} on {mover.tile}: {text}."
            + (" Sealed until the Orders phase ends." if sealed else ""),
            visibility=Visibility.KINGDOM if sealed else Visibility.PUBLIC,
            kingdom=row if sealed else None,
        ) as rec:
            created = rec.create(Order(
                campaign=campaign, kingdom=row, year=campaign.year, month=campaign.month,
                token=mover.key, kind=order.kind,
                army=state.army_rows[mover.army.id] if mover.army else None,
                ship=state.ship_rows[mover.ship.id] if mover.ship else None,
                from_tile=state.tile_rows[mover.tile],
                target=state.tile_rows[order.target] if order.target else None,
                given_seq=seq, outcome={"token_name": mover.name},
            ))
        forget_orders(state)
        return created  # type: ignore[return-value]


def _own_mover(state: MKState, kingdom: Kingdom, token: str) -> mk.Mover:
    """The kingdom's token with this key (its own tokens read, unless every token is)."""
    state.read_tokens_of([kingdom.pk])
    mover = next((m for m in state.movers_of(kingdom.pk) if m.key == token), None)
    if mover is not None:
        return mover
    other = all_movers(state).get(token)
    if other is None:
        raise ServiceError("There is no such army, ship or pair on the map.")
    raise ServiceError(
        f"{token_title(state, other)} is not yours: you give orders to your own tokens "
        "(MK-ORD-1)."
    )


def _own_rows(state: MKState, kingdom: Kingdom, army_id: int | None,
              ship_id: int | None) -> tuple[Army | None, Ship | None]:
    army = state.army_rows.get(army_id) if army_id else None
    ship = state.ship_rows.get(ship_id) if ship_id else None
    if (army_id and army is None) or (ship_id and ship is None):
        raise ServiceError("There is no such army or ship on the map.")
    for row in (army, ship):
        if row is not None and row.kingdom_id != kingdom.pk:
            raise ServiceError(f"{row} is not yours (MK-SHIP-2).")
    return army, ship


def pair_tokens(kingdom: Kingdom, user: Any, army_id: int, ship_id: int) -> None:
    """MK-SHIP-2: an army boards a ship on its tile, in the Orders phase, before either has an
    order. Boarding happens in the open, on the table, so the event is public."""
    with transaction.atomic():
        state = load_state(kingdom.campaign, lock=True)
        require_phase(state, "A")
        army_row, ship_row = _own_rows(state, kingdom, army_id, ship_id)
        assert army_row is not None and ship_row is not None
        state.read_tokens_of([kingdom.pk])
        army = next(a for a in state.armies_of(kingdom.pk) if a.id == army_row.pk)
        ship = next(s for s in state.ships_of(kingdom.pk) if s.id == ship_row.pk)
        ordered = {o.token for o in kingdom_orders(state, kingdom.pk)}
        try:
            mk.pair_tokens(army, ship, state.clock, ordered)
        except mk.RuleViolation as exc:
            raise ServiceError(str(exc)) from exc
        with Recorder(state.campaign, user, "summer.pair",
                      f"{kingdom_name(state, kingdom.pk)}'s army #{army.number} boards ship "
                      f"#{ship.number} on {ship.tile} (MK-SHIP-2).") as rec:
            rec.update(ship_row, paired_army=army_row)


def unpair_tokens(kingdom: Kingdom, user: Any, ship_id: int) -> None:
    """MK-SHIP-3: a pair splits at the start of the Orders phase, never on open ocean."""
    with transaction.atomic():
        state = load_state(kingdom.campaign, lock=True)
        require_phase(state, "A")
        _, ship_row = _own_rows(state, kingdom, None, ship_id)
        assert ship_row is not None
        state.read_tokens_of([kingdom.pk])
        ship = next(s for s in state.ships_of(kingdom.pk) if s.id == ship_row.pk)
        army = next((a for a in state.armies_of(kingdom.pk) if a.id == ship.paired_army), None)
        if army is None:
            raise ServiceError(f"Ship #{ship.number} carries no army (MK-SHIP-3).")
        ordered = {o.token for o in kingdom_orders(state, kingdom.pk)}
        try:
            mk.unpair_tokens(army, ship, state.map_around([ship.tile], 0), state.clock, ordered)
        except mk.RuleViolation as exc:
            raise ServiceError(str(exc)) from exc
        with Recorder(state.campaign, user, "summer.unpair",
                      f"{kingdom_name(state, kingdom.pk)}'s army #{army.number} leaves ship "
                      f"#{ship.number} on {ship.tile} (MK-SHIP-3).") as rec:
            rec.update(ship_row, paired_army=None)


def close_orders(state: MKState, rec: Recorder) -> None:
    """End of A: every order is revealed (MK-ORD-1, sealed orders), and each settlement to be
    razed is turned upside down as the Raze marker (MK-ORD-8)."""
    orders = month_orders(state)
    if not orders:
        return
    shown = "; ".join(
        f"{kingdom_name(state, o.kingdom_id)}'s {o.outcome.get('token_name', o.token)} on "
        f"{label_of(state, o.from_tile_id)}: {order_text(state, o)}" for o in orders
    )
    note(rec, f"Orders revealed: {shown}.")
    marked: set[str] = set()
    razing = [o for o in orders if o.kind == mk.RAZE]
    state.tile_rows.fetch(label_of(state, o.from_tile_id) for o in razing)
    for o in razing:
        label = label_of(state, o.from_tile_id)
        tile = state.tile_rows.get(label)
        if tile is None or not tile.settlement or label in marked:
            continue
        marked.add(label)
        rec.update(tile, data={**(tile.data or {}), "raze_pending": True})
        note(rec, f"The {tile.settlement} on {label} is turned upside down: "
                  f"{kingdom_name(state, o.kingdom_id)} means to raze it (MK-ORD-8).")


# -- B) Resolution ----------------------------------------------------------------------------


def unresolved(state: MKState) -> dict[int, list[OrderRec]]:
    """MK-RES-1: each kingdom's orders still to resolve (every order of the month read;
    ``unresolved_of`` reads one kingdom's)."""
    result: dict[int, list[OrderRec]] = {pk: [] for pk in state.order}
    for o in month_orders(state):
        if o.resolved_seq is None:
            result.setdefault(o.kingdom_id, []).append(o)
    return result


def unresolved_of(state: MKState, kingdom_id: int) -> list[OrderRec]:
    """MK-RES-1: one kingdom's orders still to resolve."""
    return [o for o in kingdom_orders(state, kingdom_id) if o.resolved_seq is None]


def resolution_turn(state: MKState) -> int | None:
    """MK-RES-1: whose turn it is to resolve an order (counted, not listed)."""
    stats = order_stats(state)
    last = stats.last_resolved
    return mk.resolution_turn(state.order, last[1] if last else None, stats.unresolved)


def resolution_blockers(state: MKState) -> list[str]:
    return resolution_brief(state)[0]


def resolution_brief(state: MKState, limit: int | None = None) -> tuple[list[str], int]:
    """MK-RES-1: the kingdoms with orders still to resolve (the first ``limit`` of them), and
    how many kingdoms that is in all."""
    open_orders = order_stats(state).unresolved
    waiting = [pk for pk in state.order if open_orders.get(pk, 0) > 0]
    missing = []
    for pk in (waiting if limit is None else waiting[:limit]):
        n = open_orders[pk]
        missing.append(f"{kingdom_name(state, pk)}: {n} order{'s' if n != 1 else ''} to "
                       "resolve (MK-RES-1).")
    return missing, len(waiting)


def needs_exploration(state: MKState, order: OrderRec, tiles: mk.MapView | None = None) -> bool:
    """MK-RES-4, MK-AMB-25: a Move into unexplored land needs 2D6, judged now (MK-RES-3).

    ``tiles`` is a map holding the target (by default, the target and its surroundings)."""
    if order.kind != mk.MOVE or order.target_id is None:
        return False
    label = label_of(state, order.target_id)
    tile = (tiles if tiles is not None else state.map_around([label], 0)).get(label)
    return bool(tile and not tile.explored and not tile.is_open_water and not tile.wizard_tower)


def resolve(kingdom: Kingdom, user: Any, order_id: int, *, source: str = "table",
            dice: tuple[int, int] | None = None, reroll: tuple[int, int] | None = None,
            rng: random.Random | None = None, state: MKState | None = None) -> Order:
    """MK-RES-1..9, MK-EXP-1..3, MK-WIZ-1/2: resolve one of the kingdom's orders, on its turn.

    A Move into unexplored land needs 2D6: typed in from the table (``dice``, and ``reroll``
    after a double when the Wizard's tower module asks for it) or rolled here
    (``source="server"``). Every die is kept with the event.
    """
    with transaction.atomic():
        state = state if state is not None else load_state(kingdom.campaign, lock=True)
        require_phase(state, "B")
        row = order_by_pk(state, order_id)
        if row is None:
            raise ServiceError("There is no such order this month.")
        if row.kingdom_id != kingdom.pk:
            raise ServiceError("That order belongs to another kingdom (MK-RES-1).")
        if row.resolved_seq is not None:
            raise ServiceError("That order has already been resolved (MK-RES-1).")
        require_turn(state, kingdom, resolution_turn(state), "MK-RES-1",
                     "Every order has been resolved this month.")
        state.read_tokens_of([kingdom.pk])
        mover = next((m for m in state.movers_of(kingdom.pk) if m.key == row.token), None)
        if mover is None:
            raise ServiceError("The token of this order is no longer on the map.")
        target = label_of(state, row.target_id) or None
        # MK-RES-3: only the token's tile and its target matter, as they stand now.
        local = state.map_around([mover.tile, target or ""], 0)
        state.tile_rows.fetch([mover.tile, target or ""])
        exploring = needs_exploration(state, row, local)
        if exploring:
            if source == "server":
                dice = roll_2d6(rng)
                reroll = (roll_2d6(rng) if mk.exploration_needs_reroll(
                    dice[0], dice[1], state.options.module_wizard_towers) else None)
            elif dice is None:
                raise ServiceError(f"Type in the 2D6 rolled to explore {target}, or let the "
                                   "server roll (MK-EXP-1).")
        else:
            dice = reroll = None
        armies, ships = state.tokens_at([mover.tile, target or ""])
        try:
            res = mk.resolve_order(mk.Order(row.token, row.kind, target), mover, local,
                                   armies, ships, state.options, dice, reroll)
        except mk.RuleViolation as exc:
            raise ServiceError(str(exc)) from exc
        used_reroll = (reroll if dice and mk.exploration_needs_reroll(
            dice[0], dice[1], state.options.module_wizard_towers) else None)
        rec = Recorder(state.campaign, user, "summer.resolve",
                       f"{kingdom_name(state, kingdom.pk)}: {res.summary}")
        if exploring and dice:
            rec.roll(f"exploration of {target} (MK-EXP-1)", dice, source)
            if used_reroll:
                rec.roll(f"Wizard's tower check at {target} (MK-WIZ-1)", used_reroll, source)
        apply_resolution(state, rec, mover, res)
        last = order_stats(state).last_resolved
        seq = (last[0] if last else 0) + 1
        outcome = {
            **row.outcome,
            "rule": res.rule_id, "summary": res.summary, "origin": mover.tile, "tile": res.tile,
            "moved": res.moved, "pushed_back": res.pushed_back, "explored": res.explored,
            "exploration": res.exploration, "settlement": res.settlement, "raze": res.raze,
            "control": [res.control.old, res.control.new] if res.control else None,
            "dice": list(dice) if exploring and dice else None,
            "reroll": list(used_reroll) if used_reroll else None,
            "source": source if exploring else None,
        }
        written = order_row(row)
        rec.update(written, resolved_seq=seq, outcome=outcome)
        rec.finish()
        forget_orders(state)
        cached = cache_of(state).get("orders")
        if cached is not None:
            cached[cached.index(row)] = row._replace(resolved_seq=seq,
                                                     outcome_json=json.dumps(outcome))
        return written


def apply_resolution(state: MKState, rec: Recorder, mover: mk.Mover,
                     res: mk.Resolution) -> None:
    """Write what ``resolve_order`` decided: positions, exploration, control, raze, markers."""
    rows = token_rows(state, mover)
    tile_changes: dict[str, dict[str, Any]] = {}

    def change(label: str, **values: Any) -> None:
        tile_changes.setdefault(label, {}).update(values)

    if res.moved and res.tile != mover.tile:
        for token in rows:
            rec.update(token, tile=state.tile_rows[res.tile])
    if res.explored:
        change(res.explored, explored=True)
        if res.wizard_tower:
            tile = state.tile_rows[res.explored]
            change(res.explored, settlement="", controller=None,
                   data={**(tile.data or {}), "wizard_tower": True})
        elif res.settlement is not None:
            change(res.explored, settlement=res.settlement)
    if res.control is not None and res.control.changed:
        new = state.kingdom_rows.get(res.control.new) if res.control.new is not None else None
        change(res.control.tile, controller=new)
    if res.raze == "razed":
        tile = state.tile_rows[res.tile]
        data = {k: v for k, v in (tile.data or {}).items() if k != "raze_pending"}
        change(res.tile, settlement="", data=data)
        # MK-AMB-8: a razed capital is gone; its founder may upgrade a city later.
        for kingdom in state.kingdom_rows.values():
            if kingdom.capital_tile_id == tile.pk:
                rec.update(kingdom, capital_tile=None)
    elif res.raze == "failed":
        tile = state.tile_rows[res.tile]
        if tile.settlement and not (tile.data or {}).get("raze_pending"):
            change(res.tile, data={**(tile.data or {}), "raze_pending": True})
    for label, values in tile_changes.items():
        rec.update(state.tile_rows[label], **values)
    if res.control is not None and res.control.changed:
        # MK-ART-8: marching into an undefended Capital City takes the artefacts kept there.
        taken = capital_changes_hands(rec, state.campaign, state.tile_rows[res.control.tile].pk,
                                      res.control.old, res.control.new)
        if taken:
            rec.summary = " ".join([rec.summary, *taken])
    if res.defend:
        for token in rows:
            if isinstance(token, Army):
                rec.update(token, defending=True)
    if res.stood_up:
        for token in rows:
            rec.update(token, on_side=False)
