"""What the summer phases share: this month's orders and battles, token lookups, phase and turn
checks, and the dice source.

The month's orders and battles are read once per loaded state (one query each) and kept on the
``MKState``: a play page asks the phase handler for blockers and whose turn it is, and the
phase's own context, all from the same rows, so the page costs a fixed number of queries however
many tokens the campaign has.
"""

from __future__ import annotations

import random
from typing import Any

from battles.models import Army, Battle, Order, Ship
from campaign.models import Kingdom
from campaign.rules import mighty_kingdoms as mk
from campaign.services import ServiceError
from campaign.systems.mighty_kingdoms.state import MKState

# Where the server's dice come from; tests put a predictable generator here.
RNG: random.Random = random.SystemRandom()

SUMMER = mk.SUMMER


def cache_of(state: MKState) -> dict[str, Any]:
    return state.__dict__.setdefault("_summer_cache", {})


def month_orders(state: MKState) -> list[Order]:
    """This month's orders, in the order they were given (one query per state)."""
    cache = cache_of(state)
    if "orders" not in cache:
        campaign = state.campaign
        orders = list(
            Order.objects.filter(campaign=campaign, year=campaign.year, month=campaign.month)
            .order_by("given_seq")
        ) if campaign.season == SUMMER and campaign.month else []
        state.learn_labels(pk for o in orders for pk in (o.from_tile_id, o.target_id))
        cache["orders"] = orders
    return cache["orders"]


def month_battles(state: MKState) -> list[Battle]:
    """This month's battles, in the order they were chosen (one query per state)."""
    cache = cache_of(state)
    if "battles" not in cache:
        campaign = state.campaign
        battles = list(
            Battle.objects.filter(campaign=campaign, year=campaign.year, month=campaign.month)
            .order_by("seq")
        ) if campaign.season == SUMMER and campaign.month else []
        state.learn_labels(b.tile_id for b in battles)
        cache["battles"] = battles
    return cache["battles"]


def all_movers(state: MKState) -> dict[str, mk.Mover]:
    """Every token that takes orders, by its key ("army:<id>", "ship:<id>", "pair:<ship id>")."""
    cache = cache_of(state)
    if "movers" not in cache:
        try:
            found = mk.movers(state.armies, state.ships)
        except mk.RuleViolation as exc:
            raise ServiceError(str(exc)) from exc
        cache["movers"] = {m.key: m for m in found}
    return cache["movers"]


def tile_labels(state: MKState) -> dict[int, str]:
    """The labels of the tiles read so far, by primary key (``label_of`` reads any other)."""
    return state.labels


def label_of(state: MKState, tile_pk: int | None) -> str:
    return state.label_of(tile_pk)


def kingdom_name(state: MKState, pk: Any) -> str:
    row = state.kingdom_rows.get(pk)
    return row.name if row is not None else "nobody"


def token_title(state: MKState, mover: mk.Mover) -> str:
    """ "Red's army #2", for the chronicle."""
    return f"{kingdom_name(state, mover.kingdom)}'s {mover.name}"


def token_rows(state: MKState, mover: mk.Mover) -> list[Army | Ship]:
    """The rows a token stands for: an army, a ship, or both of a pair."""
    rows: list[Army | Ship] = []
    if mover.army is not None:
        rows.append(state.army_rows[mover.army.id])
    if mover.ship is not None:
        rows.append(state.ship_rows[mover.ship.id])
    return rows


def require_phase(state: MKState, phase: str) -> None:
    campaign = state.campaign
    if campaign.season != SUMMER or campaign.phase != phase:
        from campaign.systems.mighty_kingdoms.phases import label

        wanted = f"{phase}) {mk.SUMMER_PHASE_NAMES[phase]}"
        raise ServiceError(f"Not now: this is done in {wanted}, and the campaign is at "
                           f"{label(campaign)}.")


def require_turn(state: MKState, kingdom: Kingdom, turn: int | None, rule: str,
                 nothing_left: str) -> None:
    if turn is None:
        raise ServiceError(nothing_left)
    if turn != kingdom.pk:
        raise ServiceError(
            f"It is {kingdom_name(state, turn)}'s turn: this goes round in player order ({rule})."
        )


def orders_sealed(state: MKState) -> bool:
    """MK-ORD-1 (sealed orders option): orders stay hidden until the Orders phase closes."""
    campaign = state.campaign
    return (state.options.sealed_orders and campaign.season == SUMMER
            and campaign.phase == "A")


def roll_2d6(rng: random.Random | None = None) -> tuple[int, int]:
    source = rng or RNG
    return source.randint(1, 6), source.randint(1, 6)
