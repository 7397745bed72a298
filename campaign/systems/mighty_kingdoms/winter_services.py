"""Winter services (MK-WINTER, MK-RECALL, MK-TITHE, MK-BUY, MK-FEED, MK-DEPLOY).

Each action loads the campaign with ``load_state(lock=True)`` (or takes the ``state`` its caller
loaded that way in the same transaction, as ``autoplay`` does), asks the rules
(``rules.campaign``, ``rules.ledger``), and writes the result and
one chronicle event in one transaction; gold and food move only by ledger entries
(``ledger.services.post``). Phase changes are the handlers at the bottom, run by
``phases.advance``.

What the winter needs beyond the rows lives in ``Campaign.state["winter"]`` (see ``fresh``):
the recall choices still open, the tithe and buy cycles (who acted or passed, in order), which
armies were fed, and the deployment (new order, tie-break rolls, armies placed).
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from django.db import transaction
from django.db.models import Max

from battles.models import Army
from campaign import words
from campaign.chronicle import Recorder
from campaign.kept_sql import kept_rows, kept_values
from campaign.models import Kingdom
from campaign.services import ServiceError
from campaign.systems.mighty_kingdoms.clock import label, note, phase_key
from campaign.systems.mighty_kingdoms.models import Purchase as PurchaseRow
from campaign.systems.mighty_kingdoms.models import Ship
from campaign.systems.mighty_kingdoms.models import Tithe as TitheRow
from campaign.systems.mighty_kingdoms.rules import campaign as mk
from campaign.systems.mighty_kingdoms.rules import ledger as eco
from campaign.systems.mighty_kingdoms.state import MKState, load_state, padded
from ledger import services as ledger
from ledger.models import Balance

WINTER = mk.WINTER
RECALL = (WINTER, "A", "")
GATHER = (WINTER, "B", "")
TITHE = (WINTER, "C", mk.SUB_TITHE)
BUY = (WINTER, "C", mk.SUB_BUY)
FEED = (WINTER, "C", mk.SUB_FEED)
DEPLOY = (WINTER, "D", "")
RESOURCES = (eco.GOLD, eco.FOOD)

SETTLE_NAMES = {
    mk.VILLAGE: "a village", mk.CITY: "a city", mk.FORTRESS: "a fortress",
    mk.CAPITAL: "its new Capital City",
}


def roll_d6() -> int:
    """A server roll; tests replace it to fix the dice."""
    return random.SystemRandom().randint(1, 6)


# --- the winter's running state ----------------------------------------------------------------


def fresh(year: int) -> dict[str, Any]:
    """The winter record as it starts at A) Recall.

    ``recall``: kingdom id -> {"armies": bool, "ships": bool}, the choices still open;
    ``cycles``: "tithe"/"buy" -> [[kingdom id, passed], ...] in the order played;
    ``fed``: kingdom id -> {"fed": [numbers], "unfed": [numbers]};
    ``deploy``: {"order", "rolls": {kingdom id: [d6, ...]}, "placed": {army id: label},
    "last": kingdom id, "done": [kingdom id, ...]}, where "done" lists the kingdoms that have
    nothing left to place or no room left (so whose turn it is costs the same however many
    kingdoms have finished). JSON keys are strings.
    """
    return {"year": year, "recall": {}, "cycles": {mk.SUB_TITHE: [], mk.SUB_BUY: []},
            "fed": {}, "deploy": {"order": [], "rolls": {}, "placed": {}, "last": None,
                                  "done": []}}


def winter_view(campaign: Any) -> dict[str, Any]:
    """This winter's record as stored, to read only (``winter_data`` gives a copy to change)."""
    data = (campaign.state or {}).get("winter")
    if not data or data.get("year") != campaign.year:
        return fresh(campaign.year)
    return data  # type: ignore[no-any-return]


def winter_data(campaign: Any) -> dict[str, Any]:
    """A private copy of this winter's record (never mutate the stored one: the chronicle keeps
    it as the before-image)."""
    return copy.deepcopy(winter_view(campaign))


def save_winter(rec: Recorder, campaign: Any, data: dict[str, Any]) -> None:
    rec.update(campaign, state={**(campaign.state or {}), "winter": data})


def require_phase(state: MKState, key: tuple[str, str, str], what: str) -> None:
    if phase_key(state.campaign) != key:
        raise ServiceError(f"Not now: the campaign is at {label(state.campaign)}, and {what}.")


def kingdom_row(state: MKState, kingdom: Kingdom) -> Kingdom:
    row = state.kingdom_rows.get(kingdom.pk)
    if row is None:
        raise ServiceError("That kingdom is not in this campaign.")
    return row


# --- reading the economy -----------------------------------------------------------------------


def _balances_of(*kingdoms: int) -> Any:
    return Balance.objects.filter(kingdom_id__in=kingdoms).values_list(
        "kingdom_id", "resource", "amount")


def stocks_of(state: MKState, pks: Iterable[int]) -> dict[int, eco.Resources]:
    """Some kingdoms' gold and food now (their cached balances, as ``ledger.balances`` reads
    them: 0 where nothing was ever booked; none when the state read them with the kingdoms,
    else one query, its text kept under how many kingdoms are asked for, see ``padded``)."""
    wanted = list(pks)
    for pk in wanted:
        if pk not in state.kingdom_rows:
            raise KeyError(pk)
    if state.stocks is not None:  # read with the kingdoms (``load_state(stocks=True)``)
        return {pk: eco.Resources(*state.stocks[pk]) for pk in wanted}
    found = {pk: {resource: 0 for resource in RESOURCES} for pk in wanted}
    if wanted:
        asked = padded(sorted(set(wanted)))
        for kingdom_id, resource, amount in kept_values(("mk", "balances", len(asked)),
                                                        _balances_of, *asked):
            found[kingdom_id][resource] = amount
    return {pk: eco.Resources(v[eco.GOLD], v[eco.FOOD]) for pk, v in found.items()}


def stocks(state: MKState) -> dict[int, eco.Resources]:
    """Every kingdom's gold and food now."""
    return stocks_of(state, state.kingdom_rows)


def kingdom_map(state: MKState, pk: int, extra: Iterable[str] = ()) -> mk.MapView:
    """The tiles the rules read for one kingdom's winter: its holdings and capital, and
    ``extra`` (MK-WINTER-2, MK-BUY, MK-RECALL, MK-DEPLOY); the whole map once it is loaded."""
    return state.holdings_map([pk], extra)


def holdings(state: MKState, pk: int) -> eco.Holdings:
    return eco.Holdings.of(state.kingdoms[pk], kingdom_map(state, pk), state.kingdoms.values())


def forecast(state: MKState, pk: int) -> tuple[eco.IncomeLine, ...]:
    """MK-WINTER-2/5: the income the kingdom's current holdings give; the same lines are booked
    at the close of B) Gather."""
    return eco.winter_income(holdings(state, pk), state.options)


def gathered(state: MKState) -> bool:
    """Whether this winter's income is already booked (the clock is past B) Gather)."""
    clock = state.campaign
    return clock.season == WINTER and clock.phase in ("C", "D")


def purchases_this_winter(state: MKState, kingdom_id: int | None = None) -> list[PurchaseRow]:
    """This winter's purchases, in the order they were made (one kingdom's, with
    ``kingdom_id``)."""
    c = state.campaign
    # The year is part of the kept statement's key, not one of its values: a whole number
    # that can never be a year stands in for each value while the statement is worked out.
    year = c.year
    if kingdom_id is None:
        return kept_rows(("mk", "purchases", year), lambda pk: _purchases(pk, year), c.pk,
                         known={"campaign": c})
    return kept_rows(("mk", "purchases of", year),
                     lambda pk, of: _purchases(pk, year).filter(kingdom_id=of), c.pk,
                     kingdom_id, known={"campaign": c})


def _purchases(campaign_id: int, year: int) -> Any:
    return PurchaseRow.objects.filter(campaign_id=campaign_id, year=year).order_by("seq", "pk")


def next_purchase_seq(state: MKState) -> int:
    """The number the next purchase of this winter takes (MK-BUY-1: one at a time, in turn)."""
    found = PurchaseRow.objects.filter(campaign=state.campaign, year=state.campaign.year)
    return (found.aggregate(n=Max("seq"))["n"] or 0) + 1


def docked_cities(state: MKState, pk: int) -> frozenset[str]:
    """MK-RECALL-5, MK-SHIPYARD-2: the kingdom's cities with a ship in them."""
    cities = {t.label for t in kingdom_map(state, pk).controlled_by(pk)
              if t.settlement == mk.CITY}
    return frozenset(s.tile for s in state.ships_at(cities))


def kingdom_winter(state: MKState, pk: int, stock: eco.Resources,
                   purchases: Iterable[PurchaseRow], last_number: int = 0) -> eco.KingdomWinter:
    """The kingdom as the purchase rules see it (MK-BUY, MK-RECRUIT-1, MK-AMB-19)."""
    mine = [p for p in purchases if p.kingdom_id == pk]
    return eco.KingdomWinter(
        kingdom=state.kingdoms[pk],
        stock=stock,
        armies=tuple(sorted(state.armies_of(pk), key=lambda a: a.number)),
        docked=docked_cities(state, pk),
        used_fortresses=frozenset(p.tile_label for p in mine if p.kind == eco.RECRUIT),
        built_tiles=frozenset(p.tile_label for p in mine if p.kind == eco.SETTLE),
        last_number=last_number,
    )


def names(state: MKState) -> dict[int, str]:
    return {pk: row.name for pk, row in state.kingdom_rows.items()}


def cycle(state: MKState, sub: str) -> tuple[eco.CycleState, int | None]:
    """MK-TITHE-5, MK-BUY-1: where the tithe or buy cycle stands, and whose turn (kingdom id).

    Stored by kingdom id; the rules see names so their messages read well.
    """
    by_pk = names(state)
    by_name = {name: pk for pk, name in by_pk.items()}
    actions = winter_view(state.campaign)["cycles"].get(sub, [])
    result = eco.spend_cycle_state(
        [by_pk[pk] for pk in state.order],
        [eco.CycleAction(by_pk[int(pk)], bool(passed)) for pk, passed in actions],
    )
    return result, (by_name[result.turn] if result.turn is not None else None)


def _record_turn(rec: Recorder, state: MKState, sub: str, pk: int, passed: bool) -> None:
    data = dict(winter_view(state.campaign))
    cycles = data["cycles"]
    data["cycles"] = {**cycles, sub: [*cycles.get(sub, []), [pk, passed]]}
    save_winter(rec, state.campaign, data)


# --- removing tokens ---------------------------------------------------------------------------


def _removed_mark(state: MKState, reason: str, rule_id: str) -> dict[str, Any]:
    c = state.campaign
    return {"year": c.year, "season": c.season, "phase": c.phase, "sub_phase": c.sub_phase,
            "reason": reason, "rule": rule_id}


def remove_army(rec: Recorder, state: MKState, army_id: int, reason: str, rule_id: str) -> None:
    """Take an army off the map for good: its row stays (tile empty, why in ``data["removed"]``),
    so its number is never used again."""
    row = state.army_rows[army_id]
    for ship in _ships_paired_with(state, army_id, row.kingdom_id):
        rec.update(ship, paired_army=None)
    rec.update(row, tile=None, on_side=False, defending=False,
               data={**(row.data or {}), "removed": _removed_mark(state, reason, rule_id)})


def _ships_paired_with(state: MKState, army_id: int | None, kingdom_id: int) -> list[Ship]:
    """The ship rows that carry ``army_id`` (of ``kingdom_id``) now (read only for the ships
    loaded as paired)."""
    candidates = [s.id for s in state.ships_of(kingdom_id)
                  if s.paired_army == army_id and s.id is not None]
    state.ship_rows.fetch(candidates)
    return [row for pk in candidates
            if (row := state.ship_rows[pk]).paired_army_id == army_id]


def remove_ship(rec: Recorder, state: MKState, ship_id: int, reason: str, rule_id: str) -> None:
    row = state.ship_rows[ship_id]
    rec.update(row, tile=None, on_side=False, paired_army=None,
               data={**(row.data or {}), "removed": _removed_mark(state, reason, rule_id)})


def _numbers(values: Iterable[int]) -> str:
    return ", ".join(f"#{n}" for n in sorted(values))


# --- A) Recall (MK-RECALL-1..5, MK-AMB-18/36) --------------------------------------------------


def _docking_is_forced(ships: int, cities: int, options: mk.MKOptions) -> bool:
    """True when the docking leaves the owner nothing to choose."""
    if ships == 0 or cities == 0:
        return True
    return cities == 1 and (ships == 1 or options.dock_surplus == mk.REMOVE_NEWEST)


def _dock(rec: Recorder, state: MKState, pk: int, plan: Mapping[int, str]) -> tuple[int, ...]:
    """MK-RECALL-5, MK-AMB-18: move each ship to its city, remove the ones left over."""
    ships = sorted(state.ships_of(pk), key=lambda s: s.number)
    removed = mk.validate_docking(pk, kingdom_map(state, pk), ships, plan, state.options)
    row = state.kingdom_rows[pk]
    state.tile_rows.fetch(plan.values())
    for ship in ships:
        if ship.number in removed:
            remove_ship(rec, state, ship.id, "no city to dock in", "MK-AMB-18")
        else:
            rec.update(state.ship_rows[ship.id], tile=state.tile_rows[plan[ship.number]],
                       paired_army=None)
    if removed:
        note(rec, f"{row.name} had no city to dock ship {_numbers(removed)}: removed "
                  "(MK-RECALL-5, MK-AMB-18).")
    return removed


def _recall_armies(rec: Recorder, state: MKState, pk: int, destination: str) -> None:
    """MK-RECALL-1/2/4: every army of the kingdom onto one tile, off any ship."""
    tile = state.tile_rows[destination]
    state.army_rows.fetch(a.id for a in state.armies_of(pk))
    for army in state.armies_of(pk):
        row = state.army_rows[army.id]
        if row.tile_id != tile.pk:
            rec.update(row, tile=tile)


def recall_enter(state: MKState, rec: Recorder) -> None:
    """MK-RECALL-1..5: pairs split; armies go home where there is one place to go, are destroyed
    where there is none; ships dock where there is no choice. Open choices wait for the owner."""
    data = fresh(state.campaign.year)
    state.holdings_map(state.order)  # every kingdom's holdings, in one query
    for ship in state.ships:
        if ship.paired_army is not None:
            rec.update(state.ship_rows[ship.id], paired_army=None)
    for pk in state.order:
        kingdom = state.kingdoms[pk]
        row = state.kingdom_rows[pk]
        pending = {"armies": False, "ships": False}
        armies = state.armies_of(pk)
        plan = mk.recall_destination(kingdom, kingdom_map(state, pk))
        if armies:
            if plan.kind == "destroyed":
                for army in armies:
                    remove_army(rec, state, army.id, "no capital, city or village", "MK-RECALL-3")
                note(rec, f"{row.name} holds no capital, city or village: army "
                          f"{_numbers(a.number for a in armies)} destroyed (MK-RECALL-3).")
            elif len(plan.choices) == 1:
                _recall_armies(rec, state, pk, plan.choices[0])
            else:
                pending["armies"] = True
        ships = sorted(state.ships_of(pk), key=lambda s: s.number)
        cities = mk.docking_cities(pk, kingdom_map(state, pk))
        if _docking_is_forced(len(ships), len(cities), state.options):
            keep = ships[: len(cities)]
            _dock(rec, state, pk, {s.number: cities[0] for s in keep})
        else:
            pending["ships"] = True
        if pending["armies"] or pending["ships"]:
            data["recall"][str(pk)] = pending
    save_winter(rec, state.campaign, data)


def recall_pending(state: MKState) -> dict[int, dict[str, bool]]:
    return {int(pk): v for pk, v in winter_view(state.campaign)["recall"].items()
            if v.get("armies") or v.get("ships")}


def recall_blockers(state: MKState) -> list[str]:
    result = []
    for pk, pending in recall_pending(state).items():
        what = []
        if pending.get("armies"):
            what.append("where its armies winter (MK-RECALL-2)")
        if pending.get("ships"):
            what.append("where its ships dock (MK-RECALL-5, MK-AMB-18)")
        result.append(f"{state.kingdom_rows[pk].name} has to choose {' and '.join(what)}.")
    return result


def choose_recall(kingdom: Kingdom, user: Any, *, tile: str | None = None,
                  docks: Mapping[int, str] | None = None) -> str:
    """MK-RECALL-2, MK-RECALL-5, MK-AMB-18: the owner's choice of where the armies winter and
    where each ship docks (a ship left out of ``docks`` is removed as surplus)."""
    with transaction.atomic():
        state = load_state(kingdom.campaign, lock=True)
        require_phase(state, RECALL, "armies are recalled in winter A) Recall")
        row = kingdom_row(state, kingdom)
        data = winter_data(state.campaign)
        pending = data["recall"].get(str(row.pk)) or {}
        if not (pending.get("armies") or pending.get("ships")):
            raise ServiceError(f"{row.name} has nothing left to choose at Recall.")
        done = []
        with Recorder(state.campaign, user, "winter.recall", "", kingdom=row) as rec:
            if pending.get("armies"):
                mk.validate_recall_choice(state.kingdoms[row.pk], kingdom_map(state, row.pk),
                                          tile or None)
                assert tile is not None
                _recall_armies(rec, state, row.pk, tile)
                done.append(f"its armies winter at {tile} (MK-RECALL-2)")
            if pending.get("ships"):
                plan = dict(docks or {})
                removed = _dock(rec, state, row.pk, plan)
                docked = ", ".join(f"ship #{n} at {where}" for n, where in sorted(plan.items()))
                done.append(f"{docked or 'no ship'} docked (MK-RECALL-5)"
                            + (f", ship {_numbers(removed)} removed" if removed else ""))
            data["recall"].pop(str(row.pk), None)
            save_winter(rec, state.campaign, data)
            rec.summary = f"{row.name}: " + "; ".join(done) + "."
        return rec.summary


# --- B) Gather (MK-WINTER-2/5) -----------------------------------------------------------------


def gather_close(state: MKState, rec: Recorder) -> None:
    """MK-WINTER-2/5: every kingdom books its income, line by line, exactly as forecast."""
    state.holdings_map(state.order)  # every kingdom's holdings, in one query
    for pk in state.order:
        row = state.kingdom_rows[pk]
        lines = forecast(state, pk)
        ledger.post(rec, [(row, line) for line in lines])
        note(rec, f"{row.name} gathers {eco.totals(lines)} (MK-WINTER-2).")


# --- C) 1. Tithe (MK-TITHE-1..6, MK-AMB-32) ----------------------------------------------------


def cycle_blockers(sub: str, rule_id: str) -> Any:
    def blockers(state: MKState) -> list[str]:
        result, turn = cycle(state, sub)
        if result.closed:
            return []
        verb = "tithe or pass" if sub == mk.SUB_TITHE else "make a purchase or pass"
        return [f"{state.kingdom_rows[turn].name} is to {verb}; this ends when every player "
                f"passes in a row ({rule_id})."]
    return blockers


def cycle_turn(sub: str) -> Any:
    def turn(state: MKState) -> int | None:
        return cycle(state, sub)[1]
    return turn


def tithes_this_winter(state: MKState) -> list[TitheRow]:
    return list(TitheRow.objects.filter(campaign=state.campaign, year=state.campaign.year)
                .order_by("pk"))


def give_tithe(kingdom: Kingdom, user: Any, receiver_id: int, gold: int, food: int) -> str:
    """MK-TITHE-1/3/6, MK-AMB-32: on your turn, up to 1 gold and up to 1 food to another player,
    once per player each winter, from what you have now."""
    with transaction.atomic():
        state = load_state(kingdom.campaign, lock=True)
        require_phase(state, TITHE, "tithes are given in winter C) 1. Tithe")
        row = kingdom_row(state, kingdom)
        by_pk = names(state)
        result, _ = cycle(state, mk.SUB_TITHE)
        eco.validate_turn(result, row.name, mk.SUB_TITHE)
        receiver = state.kingdom_rows.get(receiver_id)
        receiver_name = receiver.name if receiver else f"kingdom {receiver_id}"
        tithe = eco.Tithe(row.name, receiver_name, gold, food)
        earlier = [eco.Tithe(by_pk[t.giver_id], by_pk[t.receiver_id], t.gold, t.food)
                   for t in tithes_this_winter(state)]
        eco.validate_tithe(tithe, stocks_of(state, [row.pk])[row.pk], earlier,
                           list(by_pk.values()))
        assert receiver is not None
        summary = f"{row.name} tithes {tithe.amount} to {receiver.name} (MK-TITHE-1)."
        with Recorder(state.campaign, user, "winter.tithe", summary, kingdom=row,
                      data={"giver": row.pk, "receiver": receiver.pk, "gold": gold,
                            "food": food}) as rec:
            by_name = {r.name: r for r in state.kingdom_rows.values()}
            lines = eco.tithe_lines(tithe)
            ledger.post(rec, [(by_name[n], line) for n, group in lines.items() for line in group])
            gift = rec.create(TitheRow(campaign=state.campaign, year=state.campaign.year,
                                       giver=row, receiver=receiver, gold=gold, food=food))
            ledger.link_to_event(rec, [gift])
            _record_turn(rec, state, mk.SUB_TITHE, row.pk, False)
        return summary


def pass_turn(kingdom: Kingdom, user: Any, sub: str, *, state: MKState | None = None) -> str:
    """MK-TITHE-1/5, MK-BUY-1: pass this turn (a player who passed may act again later)."""
    key = {mk.SUB_TITHE: TITHE, mk.SUB_BUY: BUY}.get(sub)
    if key is None:
        raise ServiceError("There is nothing to pass on now.")
    with transaction.atomic():
        state = state if state is not None else load_state(kingdom.campaign, lock=True)
        require_phase(state, key, f"this pass was meant for {mk.SUB_PHASE_NAMES[sub]}")
        row = kingdom_row(state, kingdom)
        result, _ = cycle(state, sub)
        eco.validate_turn(result, row.name, sub)
        rule_id = "MK-TITHE-1" if sub == mk.SUB_TITHE else "MK-BUY-1"
        summary = f"{row.name} passes ({mk.SUB_PHASE_NAMES[sub]}, {rule_id})."
        with Recorder(state.campaign, user, f"winter.{sub}.pass", summary, kingdom=row) as rec:
            _record_turn(rec, state, sub, row.pk, True)
        if cycle(state, sub)[0].closed:
            summary += " Everyone has passed in a row: the GM can go on (MK-TITHE-5)."
        return summary


# --- C) 2. Build and recruit (MK-BUY, MK-SETTLE, MK-SHIPYARD, MK-RECRUIT) ----------------------


def last_army_number(pk: int) -> int:
    """The highest number any army of the kingdom ever carried, removed armies included."""
    return Army.objects.filter(kingdom_id=pk).aggregate(n=Max("number"))["n"] or 0


def _describe(purchase: eco.Purchase, outcome: eco.PurchaseOutcome) -> str:
    if purchase.kind == eco.SETTLE:
        return f"builds {SETTLE_NAMES.get(purchase.to_state, purchase.to_state)} at {purchase.tile}"
    if purchase.kind == eco.SHIP:
        return f"builds a ship at {purchase.tile}"
    assert outcome.new_army is not None
    allied = "an allied " if purchase.allied else ""
    text = f"recruits {allied}army #{outcome.new_army.number} at {purchase.tile}"
    if outcome.disbanded is not None:
        text += f", disbanding army #{outcome.disbanded} to make room (MK-RECRUIT-8)"
    return text


def buy(kingdom: Kingdom, user: Any, purchase: eco.Purchase, *,
        state: MKState | None = None) -> str:
    """MK-BUY-1..3: on your turn, one purchase, paid in full; the map, the armies and the ledger
    change together in one event."""
    with transaction.atomic():
        state = state if state is not None else load_state(kingdom.campaign, lock=True)
        require_phase(state, BUY, "purchases are made in winter C) 2. Build and recruit")
        row = kingdom_row(state, kingdom)
        result, _ = cycle(state, mk.SUB_BUY)
        eco.validate_turn(result, row.name)
        if purchase.kind == eco.RECRUIT and purchase.allied and state.options.battle_mode != "kow":
            raise ServiceError("Allied armies are Kings of War army lists: Simple battles have "
                               "none (MK-RECRUIT-5).")
        purchases = purchases_this_winter(state, row.pk)
        state.read_tokens_of([row.pk])
        before = kingdom_winter(state, row.pk, stocks_of(state, [row.pk])[row.pk], purchases,
                                last_army_number(row.pk))
        tiles = kingdom_map(state, row.pk, [purchase.tile])
        if purchase.tile not in tiles:
            raise mk.RuleViolation(f"There is no tile {purchase.tile} on this map.")
        from_state = tiles.tile(purchase.tile).settlement
        outcome = eco.apply_purchase(before, tiles, purchase, state.options)
        cost = before.stock - outcome.state.stock
        summary = f"{row.name} {_describe(purchase, outcome)} for {cost}."
        tile = state.tile_rows[purchase.tile]
        with Recorder(state.campaign, user, "winter.buy", summary, kingdom=row,
                      data={"kind": purchase.kind, "tile": purchase.tile,
                            "to": purchase.to_state, "disband": purchase.disband,
                            "allied": purchase.allied}) as rec:
            if purchase.kind == eco.SETTLE and purchase.to_state == mk.CAPITAL:
                rec.update(row, capital_tile=tile)
            elif purchase.kind == eco.SETTLE:
                rec.update(tile, settlement=outcome.tiles.tile(purchase.tile).settlement)
            elif purchase.kind == eco.SHIP:
                number = (Ship.objects.filter(kingdom_id=row.pk).aggregate(n=Max("number"))["n"]
                          or 0) + 1
                rec.create(Ship(campaign=state.campaign, kingdom=row, number=number, tile=tile))
            else:
                assert outcome.new_army is not None
                if outcome.disbanded is not None:
                    gone = next(a for a in before.armies if a.number == outcome.disbanded)
                    remove_army(rec, state, gone.id, "disbanded", "MK-RECRUIT-8")
                rec.create(Army(campaign=state.campaign, kingdom=row,
                                number=outcome.new_army.number, tile=tile,
                                points=outcome.new_army.points,
                                is_allied=outcome.new_army.is_allied))
            bought = rec.create(PurchaseRow(
                campaign=state.campaign, year=state.campaign.year, kingdom=row,
                kind=purchase.kind, tile_label=purchase.tile,
                from_state=from_state if purchase.kind == eco.SETTLE else "",
                to_state=purchase.to_state if purchase.kind == eco.SETTLE else "",
                gold=cost.gold, food=cost.food, seq=next_purchase_seq(state),
            ))
            ledger.post(rec, [(row, line) for line in outcome.lines])
            ledger.link_to_event(rec, [bought])
            _record_turn(rec, state, mk.SUB_BUY, row.pk, False)
        return summary


# --- C) 3. Feed (MK-FEED-1..3, MK-WINTER-3/4, MK-AMB-33) ---------------------------------------


def fed_record(state: MKState) -> dict[int, dict[str, list[int]]]:
    return {int(pk): v for pk, v in winter_view(state.campaign)["fed"].items()}


def feed(kingdom: Kingdom, user: Any, fed: Collection[int]) -> str:
    """MK-FEED-1/2, MK-AMB-33: pay 1 food for each army in ``fed`` (by number); the others go
    unfed and are removed when the sub-phase closes. Once per winter."""
    with transaction.atomic():
        state = load_state(kingdom.campaign, lock=True)
        require_phase(state, FEED, "armies are fed in winter C) 3. Feed armies")
        row = kingdom_row(state, kingdom)
        if row.pk in fed_record(state):
            raise ServiceError(f"{row.name} has already fed its armies this winter: once per "
                               "winter (MK-FEED-1).")
        state.read_tokens_of([row.pk])
        armies = sorted(state.armies_of(row.pk), key=lambda a: a.number)
        outcome = eco.feed_armies(armies, stocks_of(state, [row.pk])[row.pk].food, fed,
                                  state.options)
        summary = (f"{row.name} feeds {len(outcome.fed)} of "
                   f"{words.counted(len(armies), 'army')} (MK-FEED-1).")
        if outcome.unfed:
            summary += (f" Army {_numbers(outcome.unfed)} goes unfed and will be removed "
                        "(MK-WINTER-3).")
        with Recorder(state.campaign, user, "winter.feed", summary, kingdom=row,
                      data={"fed": list(outcome.fed), "unfed": list(outcome.unfed)}) as rec:
            ledger.post(rec, [(row, line) for line in outcome.lines])
            data = winter_data(state.campaign)
            data["fed"][str(row.pk)] = {"fed": list(outcome.fed), "unfed": list(outcome.unfed)}
            save_winter(rec, state.campaign, data)
        return summary


def feed_blockers(state: MKState) -> list[str]:
    done = fed_record(state)
    food = stocks(state)
    waiting = [state.kingdom_rows[pk].name for pk in state.order
               if pk not in done and state.armies_of(pk) and food[pk].food > 0]
    if not waiting:
        return []
    return [f"Waiting for {', '.join(waiting)} to feed their armies (MK-FEED-1)."]


def feed_close(state: MKState, rec: Recorder) -> None:
    """MK-WINTER-3/4, MK-FEED-1: unfed armies are removed; then every kingdom loses all the gold
    and food it has left."""
    done = fed_record(state)
    for pk in state.order:
        row = state.kingdom_rows[pk]
        armies = state.armies_of(pk)
        unfed = set(done[pk]["unfed"]) if pk in done else {a.number for a in armies}
        gone = [a for a in armies if a.number in unfed]
        for army in gone:
            remove_army(rec, state, army.id, "unfed", "MK-WINTER-3")
        if gone:
            note(rec, f"{row.name}'s army {_numbers(a.number for a in gone)} went unfed and is "
                      "removed (MK-WINTER-3).")
    left = stocks(state)
    for pk in state.order:
        lines = eco.leftover_lines(left[pk])
        if lines:
            ledger.post(rec, [(state.kingdom_rows[pk], line) for line in lines])
            note(rec, f"{state.kingdom_rows[pk].name} loses {left[pk]} left unspent "
                      "(MK-WINTER-4).")


# --- D) Deploy (MK-DEPLOY-1..6, MK-AMB-17/41) --------------------------------------------------


def deploy_enter(state: MKState, rec: Recorder,
                 dice: Mapping[int, Sequence[int]] | None = None) -> None:
    """MK-DEPLOY-1/2, MK-AMB-17: a new player order by army count, ties broken by the table's
    dice typed in with the phase change (``dice``), or by the server's for a tie without them
    (every roll kept with the event); with the "newest" house rule, armies beyond the kingdom's
    room go at once."""
    counts = mk.army_counts(state.order, state.armies)
    names = {pk: state.kingdom_rows[pk].name for pk in counts}
    try:
        typed = mk.check_tiebreak_rolls(counts, dice or {}, names, "MK-DEPLOY-2")
    except mk.RuleViolation as exc:
        raise ServiceError(str(exc)) from exc
    rolls: dict[int, list[int]] = {pk: list(values) for pk, values in typed.items()}
    for group in mk.tied_groups(counts):
        if not any(pk in typed for pk in group):  # no dice typed in: the server rolls
            values: dict[int, list[int]] = {pk: [roll_d6()] for pk in group}
            while len({tuple(v) for v in values.values()}) < len(group):
                for v in values.values():
                    v.append(roll_d6())
            rolls.update(values)
        for pk in group:
            rec.roll(f"player order tie-break: {state.kingdom_rows[pk].name}", rolls[pk],
                     "table" if pk in typed else "server")
    order = list(mk.player_order(counts, rolls))
    for position, pk in enumerate(order, start=1):
        row = state.kingdom_rows[pk]
        if row.order_position != position:
            rec.update(row, order_position=position)
    note(rec, "New player order (MK-DEPLOY-2): "
              + ", ".join(f"{state.kingdom_rows[pk].name} ({counts[pk]})" for pk in order) + ".")
    gone: set[int] = set()
    if state.options.deploy_surplus == mk.REMOVE_NEWEST:
        for pk in order:
            armies = state.armies_of(pk)
            room = mk.total_capacity(state.kingdoms[pk], kingdom_map(state, pk))
            surplus = mk.surplus_count(len(armies), room)
            removed = mk.choose_surplus([a.number for a in armies], surplus, mk.REMOVE_NEWEST,
                                        None, "MK-AMB-17")
            for army in armies:
                if army.number in removed:
                    remove_army(rec, state, army.id, "no room at deployment", "MK-AMB-17")
            if removed:
                note(rec, f"{state.kingdom_rows[pk].name} has room for {room}: army "
                          f"{_numbers(removed)} removed (MK-AMB-17).")
            gone.update(army.id for army in armies if army.number in removed)
    if len(order) > 1:
        state.holdings_map(order)  # every kingdom's holdings, in one query
    done = [pk for pk in order if not can_deploy(state, {}, pk, gone)]
    data = winter_data(state.campaign)
    data["deploy"] = {"order": order, "rolls": {str(k): v for k, v in rolls.items()},
                      "placed": {}, "last": None, "done": done}
    save_winter(rec, state.campaign, data)


def placed_counts(state: MKState, placed: Mapping[str, str], pk: int) -> Counter[str]:
    """How many of the kingdom's armies stand on each of its tiles so far this Deploy."""
    mine = (str(a.id) for a in state.armies_of(pk))
    return Counter(placed[army_id] for army_id in mine if army_id in placed)


def waiting_armies(state: MKState, placed: Mapping[str, str], pk: int,
                   gone: Collection[int] = ()) -> list[mk.Army]:
    """MK-DEPLOY-1: the kingdom's armies still in the staging area, by number (``gone``: armies
    just removed)."""
    return sorted((a for a in state.armies_of(pk) if str(a.id) not in placed
                   and a.id not in gone), key=lambda a: a.number)


def can_deploy(state: MKState, placed: Mapping[str, str], pk: int,
               gone: Collection[int] = ()) -> bool:
    """MK-DEPLOY-4/5: whether the kingdom has an army still to place and room to place it."""
    return bool(waiting_armies(state, placed, pk, gone)
                and mk.legal_deploy_tiles(state.kingdoms[pk], kingdom_map(state, pk),
                                          placed_counts(state, placed, pk)))


def deploy_pending(state: MKState) -> list[int]:
    """MK-DEPLOY-4/5: kingdoms with an army still to place and room to place it."""
    deploy = winter_view(state.campaign)["deploy"]
    placed, done = deploy["placed"], set(deploy.get("done", ()))
    if len(state.order) > 1:
        state.holdings_map(state.order)  # every kingdom's holdings, in one query
    return [pk for pk in state.order if pk not in done and can_deploy(state, placed, pk)]


def deploy_turn(state: MKState) -> int | None:
    """MK-DEPLOY-4: whose turn it is to deploy. Kingdoms are asked in the order the cycle goes
    round (``mk.cycle_turn``), skipping those that are done, so only the next one's tokens and
    holdings are read."""
    deploy = winter_view(state.campaign)["deploy"]
    last, placed = deploy.get("last"), deploy["placed"]
    done = set(deploy.get("done", ()))
    if last is not None and last not in state.order:
        return mk.cycle_turn(state.order, last, deploy_pending(state))
    start = 0 if last is None else state.order.index(last) + 1
    count = len(state.order)
    for step in range(count):
        candidate = state.order[(start + step) % count]
        if candidate in done:
            continue
        state.read_tokens_of([candidate])
        state.holdings_map([candidate, *state.focus])
        if can_deploy(state, placed, candidate):
            return mk.cycle_turn(state.order, last, [candidate])
    return None


def deploy_blockers(state: MKState) -> list[str]:
    turn = deploy_turn(state)
    if turn is None:
        return []
    waiting = [state.kingdom_rows[pk].name for pk in deploy_pending(state)]
    return [f"{state.kingdom_rows[turn].name} is to deploy an army; still deploying: "
            f"{', '.join(waiting)} (MK-DEPLOY-4/5)."]


def deploy_brief(state: MKState, limit: int) -> tuple[list[str], int]:
    """``deploy_blockers`` for a player's phone: whose turn it is and the first ``limit``
    kingdoms still deploying (those not yet done), the others counted, without reading every
    kingdom's armies and holdings."""
    turn = deploy_turn(state)
    if turn is None:
        return [], 0
    done = set(winter_view(state.campaign)["deploy"].get("done", ()))
    waiting = [pk for pk in state.order if pk not in done]
    names = ", ".join(state.kingdom_rows[pk].name for pk in waiting[:limit])
    more = len(waiting) - min(limit, len(waiting))
    return [f"{state.kingdom_rows[turn].name} is to deploy an army; still deploying: {names}"
            + (f" and {more} more" if more else "") + " (MK-DEPLOY-4/5)."], 1


def deploy_army(kingdom: Kingdom, user: Any, number: int, tile: str, *,
                state: MKState | None = None) -> str:
    """MK-DEPLOY-4/6, MK-AMB-41: on your turn, one army from the staging area onto one of your
    settlements with room; it stands upright, unpaired, with no defend marker."""
    with transaction.atomic():
        state = state if state is not None else load_state(kingdom.campaign, lock=True)
        require_phase(state, DEPLOY, "armies are deployed in winter D) Deploy armies")
        row = kingdom_row(state, kingdom)
        view = winter_view(state.campaign)
        placed = view["deploy"]["placed"]
        turn = deploy_turn(state)
        if turn is None:
            raise ServiceError("Every army that has room is deployed.")
        if turn != row.pk:
            raise ServiceError(f"It is {state.kingdom_rows[turn].name}'s turn to deploy: one "
                               "army each, in player order (MK-DEPLOY-4).")
        army = next((a for a in waiting_armies(state, placed, row.pk) if a.number == number),
                    None)
        if army is None:
            raise ServiceError(f"Army #{number} of {row.name} is not waiting to deploy.")
        plan = dict(placed_counts(state, placed, row.pk))
        tiles = kingdom_map(state, row.pk, [tile, *plan])
        if tile not in tiles:
            raise mk.RuleViolation(f"There is no tile {tile} on this map.")
        plan[tile] = plan.get(tile, 0) + 1
        mk.validate_deployment_plan(state.kingdoms[row.pk], tiles, plan,
                                    sum(plan.values()))
        deployed = mk.deployed_army(army, tile)
        summary = f"{row.name} deploys army #{number} at {tile} (MK-DEPLOY-4)."
        with Recorder(state.campaign, user, "winter.deploy", summary, kingdom=row) as rec:
            for ship in _ships_paired_with(state, army.id, row.pk):
                rec.update(ship, paired_army=None)
            rec.update(state.army_rows[army.id], tile=state.tile_rows[deployed.tile],
                       on_side=deployed.on_side, defending=deployed.defending)
            placed = {**placed, str(army.id): tile}
            deploy = {**view["deploy"], "placed": placed, "last": row.pk}
            if not can_deploy(state, placed, row.pk):
                deploy["done"] = [*deploy.get("done", ()), row.pk]
            save_winter(rec, state.campaign, {**view, "deploy": deploy})
        return summary


def deploy_close(state: MKState, rec: Recorder) -> None:
    """MK-DEPLOY-5, MK-AMB-17: armies that found no room are removed."""
    placed = winter_view(state.campaign)["deploy"]["placed"]
    for pk in state.order:
        left = waiting_armies(state, placed, pk)
        for army in left:
            remove_army(rec, state, army.id, "no room at deployment", "MK-AMB-17")
        if left:
            note(rec, f"{state.kingdom_rows[pk].name} had no room for army "
                      f"{_numbers(a.number for a in left)}: removed (MK-AMB-17).")
