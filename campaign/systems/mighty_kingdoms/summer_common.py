"""What the summer phases share: this month's orders and battles, token lookups, phase and turn
checks, and the dice source.

The month's orders and battles are read once per loaded state (one query each) and kept on the
``MKState``: a play page asks the phase handler for blockers and whose turn it is, and the
phase's own context, all from the same rows, so the page costs a fixed number of queries however
many tokens the campaign has.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from typing import Any, NamedTuple

from django.db.models import Count, Max, Q, TextField
from django.db.models.functions import Cast

from battles.models import Army, Battle
from campaign.kept_sql import kept_rows, kept_values
from campaign.models import Kingdom
from campaign.services import ServiceError
from campaign.systems.mighty_kingdoms.clock import label
from campaign.systems.mighty_kingdoms.models import Order, Ship
from campaign.systems.mighty_kingdoms.rules import campaign as mk
from campaign.systems.mighty_kingdoms.state import MKState, padded

# Where the server's dice come from; tests put a predictable generator here.
RNG: random.Random = random.SystemRandom()

SUMMER = mk.SUMMER


def cache_of(state: MKState) -> dict[str, Any]:
    return state.__dict__.setdefault("_summer_cache", {})


class OrderRec(NamedTuple):
    """What the services read of an ``Order`` row, read without building a model instance; the
    row itself is read when an order is written (``order_row``). The outcome stays JSON text
    until it is read."""

    pk: int
    kingdom_id: int
    token: str
    kind: str
    from_tile_id: int | None
    target_id: int | None
    given_seq: int
    resolved_seq: int | None
    outcome_json: str | None

    @property
    def outcome(self) -> dict[str, Any]:
        found = json.loads(self.outcome_json) if self.outcome_json else {}
        return found if isinstance(found, dict) else {}


ORDER_FIELDS = ("pk", "kingdom_id", "token", "kind", "from_tile_id", "target_id", "given_seq",
                "resolved_seq", "outcome_text")
TILE_FIELDS = ("from_tile__label", "from_tile__q", "from_tile__r", "target__label", "target__q",
               "target__r")


def month_orders(state: MKState) -> list[OrderRec]:
    """This month's orders, in the order they were given (one query per state)."""
    cache = cache_of(state)
    if "orders" not in cache:
        cache["orders"] = read_orders(state, Q(), every=True)
    return cache["orders"]


def _orders_query(scope: Q, campaign_id: int, year: int, month: int) -> Any:
    return (Order.objects.filter(scope, campaign_id=campaign_id, year=year, month=month)
            .annotate(outcome_text=Cast("outcome", TextField()))
            .order_by("given_seq").values_list(*ORDER_FIELDS, *TILE_FIELDS))


def _orders_of_kingdoms(year: int, month: int) -> Any:
    def build(campaign_id: int, *kingdoms: int) -> Any:
        return _orders_query(Q(kingdom_id__in=kingdoms), campaign_id, year, month)

    return build


def read_orders(state: MKState, scope: Q | None = None, every: bool = False,
                kingdoms: Iterable[int] = ()) -> list[OrderRec]:
    """This month's orders within ``scope``, or of ``kingdoms``, in the order they were given
    (one query; the labels of their tiles come with them). ``every`` says the scope is every
    kingdom's (then the query's text is kept under the campaign and the month, see
    ``kept_values``); the query of some kingdoms' orders is kept under the month and how many
    they are (``padded``)."""
    campaign = state.campaign
    if campaign.season != SUMMER or not campaign.month:
        return []
    width = len(ORDER_FIELDS)
    values = (campaign.pk, campaign.year, campaign.month)
    if every:
        rows = kept_values(("orders", *values), lambda: _orders_query(Q(), *values))
    elif scope is None:
        pks = padded(sorted(kingdoms))
        rows = kept_values(("mk", "orders-of", campaign.year, campaign.month, len(pks)),
                           _orders_of_kingdoms(campaign.year, campaign.month), campaign.pk,
                           *pks) if pks else []
    else:
        rows = list(_orders_query(scope, *values))
    for row in rows:
        state.learn(row[width - 5], *row[width:width + 3])  # from_tile_id
        state.learn(row[width - 4], *row[width + 3:])  # target_id
    return [OrderRec(*row[:width]) for row in rows]


def kingdom_orders(state: MKState, kingdom_id: int) -> list[OrderRec]:
    """One kingdom's orders this month, in the order they were given (from ``month_orders``
    once read, else one query)."""
    cache = cache_of(state)
    if "orders" in cache:
        return [o for o in cache["orders"] if o.kingdom_id == kingdom_id]
    read_orders_of(state, [kingdom_id])
    return cache["orders_of"][kingdom_id]  # type: ignore[no-any-return]


def read_orders_of(state: MKState, kingdom_ids: Iterable[int]) -> None:
    """Read the orders of several kingdoms at once (one query), for ``kingdom_orders``."""
    cache = cache_of(state)
    if "orders" in cache:
        return
    mine = cache.setdefault("orders_of", {})
    wanted = sorted((set(kingdom_ids) | state.focus) - mine.keys())
    if wanted:
        found = read_orders(state, kingdoms=wanted)
        for pk in wanted:
            mine[pk] = [o for o in found if o.kingdom_id == pk]


def order_by_pk(state: MKState, pk: int) -> OrderRec | None:
    """One of this month's orders (from ``month_orders`` once read, else one query)."""
    cache = cache_of(state)
    if "orders" in cache:
        return next((o for o in cache["orders"] if o.pk == pk), None)
    return next(iter(read_orders(state, Q(pk=pk))), None)


class OrderStats(NamedTuple):
    """This month's orders counted per kingdom, and who gave and resolved the latest one."""

    given: dict[int, int]
    unresolved: dict[int, int]
    last_given: tuple[int, int] | None  # (given_seq, kingdom)
    last_resolved: tuple[int, int] | None  # (resolved_seq, kingdom)

    @classmethod
    def of(cls, orders: list[OrderRec]) -> OrderStats:
        given: dict[int, int] = {}
        unresolved: dict[int, int] = {}
        last_given = last_resolved = None
        for o in orders:
            given[o.kingdom_id] = given.get(o.kingdom_id, 0) + 1
            if o.resolved_seq is None:
                unresolved[o.kingdom_id] = unresolved.get(o.kingdom_id, 0) + 1
            elif last_resolved is None or o.resolved_seq > last_resolved[0]:
                last_resolved = (o.resolved_seq, o.kingdom_id)
            if last_given is None or o.given_seq > last_given[0]:
                last_given = (o.given_seq, o.kingdom_id)
        return cls(given, unresolved, last_given, last_resolved)


def order_stats(state: MKState) -> OrderStats:
    """This month's orders counted per kingdom: from ``month_orders`` once read, else one
    grouped query, so that whose turn it is costs the same however many orders there are."""
    cache = cache_of(state)
    if "orders" in cache:
        return OrderStats.of(cache["orders"])
    if "stats" not in cache:
        campaign = state.campaign
        rows = list(
            Order.objects.filter(campaign=campaign, year=campaign.year, month=campaign.month)
            .order_by().values("kingdom_id").annotate(
                n=Count("id"), open=Count("id", filter=Q(resolved_seq__isnull=True)),
                given=Max("given_seq"), resolved=Max("resolved_seq"))
            .values_list("kingdom_id", "n", "open", "given", "resolved")
        ) if campaign.season == SUMMER and campaign.month else []
        cache["stats"] = OrderStats(
            {k: n for k, n, _, _, _ in rows},
            {k: o for k, _, o, _, _ in rows if o},
            max(((g, k) for k, _, _, g, _ in rows if g is not None), default=None),
            max(((r, k) for k, _, _, _, r in rows if r is not None), default=None),
        )
    return cache["stats"]  # type: ignore[no-any-return]


def forget_orders(state: MKState) -> None:
    """After an order is given or resolved: what was read of this month's orders is stale."""
    cache = cache_of(state)
    for key in ("stats", "orders_of", "unordered"):
        cache.pop(key, None)


def mover_counts(state: MKState) -> dict[int, int]:
    """How many tokens each kingdom has on the map, a pair counting once (MK-SHIP-1): from the
    tokens once read, else two grouped queries."""
    if state.tokens_read:
        counts: dict[int, int] = {}
        for mover in all_movers(state).values():
            counts[mover.kingdom] = counts.get(mover.kingdom, 0) + 1
        return counts
    cache = cache_of(state)
    if "mover_counts" not in cache:
        on_map = Q(campaign=state.campaign, tile__isnull=False)
        counts = dict(Army.objects.filter(on_map).order_by().values("kingdom_id")
                      .annotate(n=Count("id")).values_list("kingdom_id", "n"))
        for kingdom, ships, pairs in (
                Ship.objects.filter(on_map).order_by().values("kingdom_id")
                .annotate(n=Count("id"), pairs=Count("id", filter=Q(paired_army__isnull=False)))
                .values_list("kingdom_id", "n", "pairs")):
            counts[kingdom] = counts.get(kingdom, 0) + ships - pairs
        cache["mover_counts"] = counts
    return cache["mover_counts"]  # type: ignore[no-any-return]


def order_row(order: OrderRec) -> Order:
    """The ``Order`` row of a record, to write."""
    return Order.objects.get(pk=order.pk)


def _battles_of_month(year: int, month: int) -> Any:
    def build(campaign_id: int) -> Any:
        return (Battle.objects.filter(campaign_id=campaign_id, year=year, month=month)
                .select_related("tile").order_by("seq"))

    return build


def month_battles(state: MKState) -> list[Battle]:
    """This month's battles, in the order they were chosen, each with its tile (one query per
    state, its SQL kept under the month: ``kept_rows``)."""
    cache = cache_of(state)
    if "battles" not in cache:
        campaign = state.campaign
        year, month = campaign.year, campaign.month
        battles = kept_rows(("mk", "month-battles", year, month),
                            _battles_of_month(year, month), campaign.pk,
                            ) if campaign.season == SUMMER and month else []
        for battle in battles:  # their tiles' labels and places, read with them
            if battle.tile is not None:
                state.learn(battle.tile_id, battle.tile.label, battle.tile.q, battle.tile.r)
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


def movers_at(state: MKState, labels: Iterable[str]) -> dict[str, mk.Mover]:
    """The tokens that take orders standing on ``labels``, by key (from every token once read,
    else the tokens on those tiles only)."""
    wanted = {label for label in labels if label}
    if state.tokens_read:
        return {key: m for key, m in all_movers(state).items() if m.tile in wanted}
    armies, ships = state.tokens_at(wanted)
    try:
        return {m.key: m for m in mk.movers(armies, ships)}
    except mk.RuleViolation as exc:
        raise ServiceError(str(exc)) from exc


def tile_labels(state: MKState) -> dict[int, str]:
    """The labels of the tiles read so far, by primary key (``label_of`` reads any other)."""
    return state.labels


def label_of(state: MKState, tile_pk: int | None) -> str:
    return state.label_of(tile_pk)


def kingdom_name(state: MKState, pk: Any) -> str:
    info = state.kingdoms.get(pk)
    return info.name if info is not None else "nobody"


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

# Beyond these, a player's phone counts kingdoms and other kingdoms' orders instead of listing
# them (a GM's page lists everything).
PHONE_ROWS = 12
