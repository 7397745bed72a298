"""War of Kings actions: each loads the board (locked), calls one pure rule, and writes the result
back with one chronicle event (``state.apply``), all in one transaction. A refusal by the rules
becomes a ``ServiceError`` with the rules' own words (which name the rule) and writes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from django.db import transaction

from campaign.chronicle import Recorder
from campaign.models import Campaign, Event, Kingdom
from campaign.services import ServiceError
from campaign.systems.war_of_kings import state as st
from campaign.systems.war_of_kings.rules import board as wb
from campaign.systems.war_of_kings.rules import construction, economy, turns
from campaign.systems.war_of_kings.rules.achievements import (
    Holders,
    strict_losses,
    update_holders,
)
from campaign.systems.war_of_kings.rules.armies import settle_support, support
from campaign.systems.war_of_kings.rules.options import as_dict, v06_options

PHASE_NAMES = {
    st.SETUP: "Setup",
    wb.RECEIVE_GOLD: "Construction: receive gold",
    wb.CHECK_SUPPORT: "Construction: check for support",
    wb.RESOURCE_GENERATION: "Construction: resource generation",
    wb.CONSTRUCTION: "Construction: build and trade",
    wb.LEDGER_UPDATE: "Construction: ledger update",
    wb.EVENT_DIE: "Event Die",
    wb.MOVEMENT: "Movement",
    wb.EXPLORATION: "Exploration",
    wb.BATTLE_RESOLUTION: "Battle Resolution",
    wb.SUPPLY: "Supply",
    wb.END_OF_ROUND: "End of round",
    st.GAME_OVER: "Game over",
}


class RefusedByRules(ServiceError):
    """The rules refuse the action; the message names the rule."""


def _refuse(exc: wb.RuleViolation) -> RefusedByRules:
    return RefusedByRules(str(exc))


def _open(campaign: Campaign) -> st.Loaded:
    loaded = st.load(campaign, lock=True)
    if loaded.over:
        raise ServiceError("The game is over; nothing more can change (WOK-WIN-1).")
    return loaded


def _kingdom_name(loaded: st.Loaded, kingdom: Kingdom) -> str:
    if kingdom.pk not in loaded.kingdoms:
        raise ServiceError("That kingdom is not in this campaign.")
    return loaded.name(kingdom)


@dataclass(frozen=True)
class SeatChoice:
    kingdom: Kingdom
    capital: str
    front: str


# --- setup ------------------------------------------------------------------------------------

def start_game(campaign: Campaign, user: Any, seats: Sequence[SeatChoice],
               drawn: int | None = None, roll: Callable[[int], int] | None = None) -> Event:
    """WOK-SETUP-2..9: the chosen kingdoms (in seating order, clockwise) get their capital town,
    village, army, markers and road, the starting stockpile booked to the ledger, and a lead
    player drawn (``drawn``: which marker came out, 0-based in seating order; else the server
    draws with ``roll``)."""
    with transaction.atomic():
        loaded = st.load(campaign, lock=True)
        if loaded.started:
            raise ServiceError("The game has already been set up (WOK-SETUP-4).")
        names = [_kingdom_name(loaded, s.kingdom) for s in seats]
        if wb.MALADOR in names:
            raise ServiceError("WOK-SETUP-2: orange belongs to the Malador; rename that kingdom.")
        for s in seats:
            for code in (s.capital, s.front):
                if code not in loaded.tiles:
                    raise ServiceError(f"There is no territory {code} on this board.")
        source = "table"
        if drawn is None:
            source = "server"
            drawn = (roll or _server_roll)(len(seats)) - 1
        try:
            lead = turns.draw_lead(names, drawn)
            new = turns.setup(loaded.state.map,
                              [turns.Seat(n, s.capital, s.front)
                               for n, s in zip(names, seats, strict=True)], lead)
        except wb.RuleViolation as exc:
            raise _refuse(exc) from None
        with Recorder(loaded.campaign, user, "wok.setup",
                      f"The game begins: {', '.join(names)}; {lead} leads (WOK-SETUP-9).",
                      data={"lead": lead}) as rec:
            rec.roll("lead marker", [drawn + 1], source)
            # The kingdoms take their seats and capitals before the board is written.
            for position, s in enumerate(seats, start=1):
                kingdom = loaded.kingdoms[s.kingdom.pk]
                rec.update(kingdom, order_position=position,
                           capital_tile=loaded.tiles[s.capital],
                           data={**(kingdom.data or {}), "front": s.front})
            loaded.state = replace(loaded.state, capitals={}, seats=())
            new_armies = tuple(replace(a, id=st.army_id(i)) for i, a in
                               enumerate(new.armies, start=1))
            new = replace(new, armies=new_armies, phase=wb.RECEIVE_GOLD, round=1)
            st.apply(rec, loaded, new, rule_id="WOK-SETUP-7", source="starting stockpile",
                     run={"holders": {"master_merchant": None, "warlord": None}})
        return rec.event  # type: ignore[return-value]


def _server_roll(sides: int) -> int:
    import secrets

    return secrets.randbelow(sides) + 1


# --- the phase machine ------------------------------------------------------------------------

def phase_name(phase: str) -> str:
    return PHASE_NAMES.get(phase, phase)


def clock_label(campaign: Campaign) -> str:
    if campaign.phase in ("", st.SETUP):
        return "Setup"
    if campaign.phase == st.GAME_OVER:
        return f"Round {campaign.year}, game over"
    return f"Round {campaign.year}, {phase_name(campaign.phase)}"


def unsettled_support(state: wb.GameState, settled: Sequence[str]) -> list[str]:
    """Kingdoms with armies beyond their support that have not settled this round."""
    return [k for k in state.kingdoms
            if k not in settled and support(state, k).unsupported > 0]


def advance(campaign: Campaign, user: Any, dice: Sequence[str] | None = None,
            roll: Callable[[int], int] | None = None) -> Event:
    """Close the current step and open the next (WOK-TURN-1..6): paying gold at Receive Gold
    (WOK-ECON-4, WOK-ECON-9), checking support is settled (WOK-SUPPORT-1), collecting income
    from the three Resource Dice (``dice`` typed from the table, else rolled with ``roll``:
    WOK-ECON-2), passing the live ledger update (WOK-TURN-4), each player's turn phases, and at
    the end of the round the achievement tally and victory check (WOK-TURN-5, WOK-WIN-1)."""
    with transaction.atomic():
        loaded = _open(campaign)
        state = loaded.state
        phase = state.phase
        if phase == st.SETUP:
            raise ServiceError("Set up the game first: choose each kingdom's capital.")
        run = dict(loaded.campaign.state or {})
        summary = ""
        rule = "WOK-TURN-1"
        source = ""
        dice_rolled: list[int] = []
        dice_source = "table"
        data: dict[str, Any] = {}
        if phase == wb.RECEIVE_GOLD:
            paid = {k: economy.gold_generation(state, k) for k in state.kingdoms}
            new = turns.advance(economy.receive_gold(state))
            rule, source = "WOK-ECON-4", f"gold per round, round {state.round}"
            summary = "Gold received: " + ", ".join(f"{k} {g}" for k, g in paid.items()) + "."
            run["settled"] = []
        elif phase == wb.CHECK_SUPPORT:
            waiting = unsettled_support(state, run.get("settled", []))
            if waiting:
                raise ServiceError(f"WOK-SUPPORT-4: {', '.join(waiting)} must first pay "
                                   "provisions or remove their unsupported armies.")
            new = turns.advance(state)
            summary = "Support checked; every army is supported or provisioned."
        elif phase == wb.RESOURCE_GENERATION:
            if not dice:
                dice_source = "server"
                dice_rolled = [(roll or _server_roll)(4) for _ in range(3)]
                dice = [wb.COLOURS[n - 1] for n in dice_rolled]
            else:
                dice_rolled = [wb.COLOURS.index(d) + 1 if d in wb.COLOURS else 0 for d in dice]
            try:
                incomes = {k: economy.income(state, k, dice) for k in state.kingdoms}
                new = turns.advance(economy.collect_resources(state, dice))
            except wb.RuleViolation as exc:
                raise _refuse(exc) from None
            rule = "WOK-ECON-2"
            source = f"Resource Dice {'/'.join(dice)}, round {state.round}"
            summary = (f"Resource Dice: {', '.join(dice)}. "
                       + "; ".join(f"{k} {s.describe()}" for k, s in incomes.items()) + ".")
            run["dice"] = list(dice)
            data["dice"] = list(dice)
        elif phase == wb.CONSTRUCTION:
            # WOK-TURN-4: the ledgers are derived from the board, so the update step passes.
            new = turns.advance(turns.advance(state))
            summary = (f"Construction closed; ledgers are up to date. {new.active}'s turn "
                       "begins.")
            # WOK-EVENT-5 (FAQ 1): what resource cards gave beyond this phase's purchases is
            # lost, never stockpiled.
            unspent = [(who, entry) for who in state.kingdoms
                       for entry in cards_left(run, who)]
            if unspent:
                summary += " Unspent card units are lost (WOK-EVENT-5): " + "; ".join(
                    f"{who} {_units(e['units'], e['resource'])} of {e['card']}"
                    for who, e in unspent) + "."
            if run.get(CARD_LEFT):
                run[CARD_LEFT] = {}
        elif phase == wb.END_OF_ROUND:
            from campaign.systems.war_of_kings.rules.conquest import eliminate, is_eliminated

            out = [k for k in state.kingdoms if is_eliminated(state, k)]
            for name in out:
                state = eliminate(state, name, loaded.options)
            result_state, result = turns.finish_round(state, loaded.holders, loaded.options)
            run["holders"] = st.holders_json(result.holders, loaded.by_name)
            scores = ", ".join(f"{s.kingdom} {s.total}" for s in result.scores)
            data["scores"] = {s.kingdom: s.total for s in result.scores}
            if result.over:
                new = replace(result_state, phase=st.GAME_OVER)
                winner = result.winner
                run["winner"] = loaded.by_name[winner].pk if winner else None
                run["tied"] = [loaded.by_name[k].pk for k in result.tied]
                summary = (f"End of round {state.round}: {scores} AP. "
                           + (f"{winner} wins (WOK-WIN-1)." if winner else
                              f"{' and '.join(result.tied)} tie (WOK-WIN-2)."))
                rule = "WOK-WIN-1"
            else:
                new = result_state
                summary = (f"End of round {state.round}: {scores} AP; nobody has won. Every "
                           "army is ready again (WOK-TURN-5).")
                rule = "WOK-TURN-5"
            if out:
                summary += (f" {', '.join(out)} {'has' if len(out) == 1 else 'have'} no army "
                            "and no settlement left: out of the game (WOK-ELIM-1).")
        else:
            try:
                new = turns.advance(state)
            except wb.RuleViolation as exc:
                raise _refuse(exc) from None
            who = f"{state.active}'s " if state.active else ""
            summary = f"{who}{phase_name(phase)} closed; now {_where(new)}."
            rule = "WOK-TURN-3"
        with Recorder(loaded.campaign, user, f"wok.{phase}", summary, data=data) as rec:
            if dice_rolled:
                rec.roll("resource dice", dice_rolled, dice_source)
            st.apply(rec, loaded, new, rule_id=rule, source=source or summary[:120], run=run)
        return rec.event  # type: ignore[return-value]


def _where(state: wb.GameState) -> str:
    if state.active:
        return f"{state.active}: {phase_name(state.phase)}"
    return phase_name(state.phase)


# --- support (the Check for Support step) -----------------------------------------------------

def settle(campaign: Campaign, user: Any, kingdom: Kingdom, provision: Sequence[int],
           remove: Sequence[int]) -> Event:
    """WOK-SUPPORT-4: pay 5 gold of provisions for some unsupported armies and remove others, so
    that every army is supported this round."""
    with transaction.atomic():
        loaded = _open(campaign)
        name = _kingdom_name(loaded, kingdom)
        run = dict(loaded.campaign.state or {})
        if name in run.get("settled", []):
            raise ServiceError(f"{name} has already settled support this round.")
        try:
            new = settle_support(loaded.state, name, [st.army_id(n) for n in provision],
                                 [st.army_id(n) for n in remove], loaded.options)
        except wb.RuleViolation as exc:
            raise _refuse(exc) from None
        run["settled"] = [*run.get("settled", []), name]
        parts = []
        if provision:
            parts.append(f"provisions for armies {', '.join(map(str, provision))}")
        if remove:
            parts.append(f"removes armies {', '.join(map(str, remove))}")
        summary = f"{name} " + (" and ".join(parts) or "needs no provisions") + " (WOK-SUPPORT-4)."
        with Recorder(loaded.campaign, user, "wok.support", summary, kingdom=kingdom) as rec:
            st.apply(rec, loaded, new, rule_id="WOK-SUPPORT-4",
                     source=f"provisions, round {loaded.state.round}", run=run)
        return rec.event  # type: ignore[return-value]


# --- construction and the market ----------------------------------------------------------------

@dataclass(frozen=True)
class CardUnits:
    """A resource card played towards a purchase (WOK-EVENT-5, FAQ 1): its name, the resource
    and how many units of it the card gives (up to 3)."""

    card: str
    resource: str
    units: int


#: The running state's key for the units of resource cards a kingdom has played this
#: Construction Phase and not yet spent: ``{kingdom name: [{"card", "resource", "units"}]}``
#: (by name, as the support already settled is: a campaign file keeps names as they are).
CARD_LEFT = "card_left"


def cards_left(run: Mapping[str, Any], name: str) -> list[dict[str, Any]]:
    """The units of the kingdom's resource cards still to spend this Construction Phase, the
    card played first first (WOK-EVENT-5, FAQ 1)."""
    every = run.get(CARD_LEFT)
    entries = every.get(name) if isinstance(every, dict) else None
    if not isinstance(entries, list):
        return []
    return [dict(entry) for entry in entries if isinstance(entry, dict)
            and isinstance(entry.get("card"), str) and entry.get("resource") in wb.RESOURCES
            and isinstance(entry.get("units"), int) and entry["units"] > 0]


def _with_card(loaded: st.Loaded, name: str, item: str, card: CardUnits | None
               ) -> tuple[wb.GameState, list[tuple[str, str, int]], list[dict[str, Any]]]:
    """The state with the units of the kingdom's resource cards put towards ``item``: those left
    from cards played earlier this Construction Phase, then ``card``, each giving only what the
    price asks for (WOK-EVENT-5, FAQ 1: a card may be spread over several purchases, and its
    units never go into the stockpile). Returns that state, each card's units taken (card,
    resource, units) and what the cards keep for later purchases this phase."""
    from campaign.systems.war_of_kings.rules.armies import spread_card_units

    entries = cards_left(loaded.campaign.state or {}, name)
    if card is not None:
        if not card.card.strip() or len(card.card) > 60:
            raise ServiceError("WOK-EVENT-5: name the card played towards the purchase.")
        if card.resource not in wb.RESOURCES or not 1 <= card.units <= 3:
            raise ServiceError("WOK-EVENT-5: a resource card gives 1 to 3 units of one "
                               "resource.")
        entries.append({"card": card.card.strip(), "resource": card.resource,
                        "units": card.units})
    if not entries:
        return loaded.state, [], []
    cost = construction.price(item, loaded.options)
    taken: list[tuple[str, str, int]] = []
    state = loaded.state
    stock = state.stock(name)
    for resource in wb.RESOURCES:
        mine = [entry for entry in entries if entry["resource"] == resource]
        if not mine:
            continue
        try:
            used, keeps = spread_card_units(cost.amount(resource), [e["units"] for e in mine])
        except wb.RuleViolation as exc:
            raise _refuse(exc) from None
        for entry, kept in zip(mine, keeps, strict=True):
            if entry["units"] != kept:
                taken.append((entry["card"], resource, entry["units"] - kept))
                entry["units"] = kept
        stock = replace(stock, **{resource: stock.amount(resource) + used})
    return state.with_stock(name, stock), taken, [e for e in entries if e["units"]]


def _units(n: int, resource: str) -> str:
    return f"{n} {resource}"


def build(campaign: Campaign, user: Any, kingdom: Kingdom, item: str, where: str,
          card: CardUnits | None = None) -> Event:
    """WOK-COST-1, WOK-COST-3 and every legality rule of construction: pay Table 4 and place the
    piece at once (WOK-TURN-2 step 4). ``where`` is a territory, or for a road ``"A|B"``. With
    ``card`` a resource card pays part of the price. A card's units go first to what the price
    asks for; what it gives beyond that stays the kingdom's for its later purchases this
    Construction Phase, and is lost when the phase closes, never stockpiled (WOK-EVENT-5, FAQ
    1). The ledger shows the card's units coming in and the whole price going out."""
    with transaction.atomic():
        loaded = _open(campaign)
        name = _kingdom_name(loaded, kingdom)
        original = loaded.state
        had_left = bool(cards_left(loaded.campaign.state or {}, name))
        loaded.state, taken, left = _with_card(loaded, name, item, card)
        try:
            if item == construction.ROAD_ITEM:
                a, _, b = where.replace("–", "|").partition("|")
                if not a or not b:
                    raise ServiceError("Say which border the road crosses.")
                for code in (a, b):
                    if code not in loaded.tiles:
                        raise ServiceError(f"There is no territory {code} on this board.")
                done = construction.build_road(loaded.state, name, a, b, loaded.options)
                place = f"{a}–{b}"
            else:
                if item not in construction.TERRITORY_ITEMS:
                    raise ServiceError(f"{item!r} is not something to build (WOK-COST-1).")
                if where not in loaded.tiles:
                    raise ServiceError(f"There is no territory {where} on this board.")
                ident = st.army_id(st.next_army_number(loaded))
                done = construction.build(loaded.state, name, item, where, loaded.options,
                                          army_id=ident)
                place = where
        except wb.RuleViolation as exc:
            raise _refuse(exc) from None
        what = {construction.ARMY_ITEM: "an army", construction.WALLS_ITEM: "walls"}.get(
            item, f"a {item}")
        summary = f"{name} builds {what} in {place} for {done.cost.describe()} (WOK-COST-1)."
        lines = None
        run = None
        if card is not None or (had_left and taken):
            paid = "; ".join(f"{c} pays {_units(n, r)}" for c, r, n in taken)
            kept = ", ".join(f"{_units(e['units'], e['resource'])} of {e['card']}" for e in left)
            summary += (f" {paid or 'No card unit is needed'}"
                        + (f"; {kept} left for other purchases this Construction Phase"
                           if kept else "") + " (WOK-EVENT-5).")
            lines = [(kingdom, st.LedgerLine(r, n, "WOK-EVENT-5",
                                             f"card {c}: {n} {r} towards {item}"[:120]))
                     for c, r, n in taken]
            lines += [(kingdom, st.LedgerLine(r, -done.cost.amount(r), "WOK-COST-1",
                                              f"{item}, {place}"[:120]))
                      for r in st.STOCK_FIELDS if done.cost.amount(r)]
            every = {who: cards_left(loaded.campaign.state or {}, who)
                     for who in loaded.state.kingdoms if who != name}
            every = {who: entries for who, entries in every.items() if entries}
            if left:
                every[name] = left
            run = {CARD_LEFT: every}
        if done.warnings:
            summary += " " + " ".join(done.warnings)
        # The ledger is written against the board as it was: the card's units come in and the
        # price goes out in the same event.
        loaded.state = original
        with Recorder(loaded.campaign, user, "wok.build", summary,
                      data={"item": item, "where": place,
                            **({"card": card.card.strip()} if card else {})}) as rec:
            st.apply(rec, loaded, done.state, rule_id="WOK-COST-1", source=f"{item}, {place}",
                     lines=lines, run=run)
        return rec.event  # type: ignore[return-value]


def trade(campaign: Campaign, user: Any, kingdom: Kingdom, give: str, receive: str,
          lots: int) -> Event:
    """WOK-MKT-1, WOK-MKT-3, WOK-AMB-28: 4 of one resource, or 5 gold, for 1 of another."""
    with transaction.atomic():
        loaded = _open(campaign)
        name = _kingdom_name(loaded, kingdom)
        try:
            stock = economy.market_trade(loaded.state.stock(name), give, receive, lots)
        except (wb.RuleViolation, KeyError) as exc:
            raise ServiceError(str(exc) if isinstance(exc, wb.RuleViolation)
                               else f"{exc} cannot be traded (WOK-MKT-1).") from None
        new = loaded.state.with_stock(name, stock)
        spent = loaded.state.stock(name).amount(give) - stock.amount(give)
        summary = f"{name} trades {spent} {give} to the market for {lots} {receive} (WOK-MKT-1)."
        with Recorder(loaded.campaign, user, "wok.trade", summary) as rec:
            st.apply(rec, loaded, new, rule_id="WOK-MKT-1", source=f"market: {give} for {receive}")
        return rec.event  # type: ignore[return-value]


def deal(campaign: Campaign, user: Any, giver: Kingdom, taker: Kingdom, amount: wb.Stock,
         note: str = "") -> Event:
    """WOK-MKT-2: record goods one player hands another as agreed (the promise is not enforced,
    only the transfer)."""
    with transaction.atomic():
        loaded = _open(campaign)
        a, b = _kingdom_name(loaded, giver), _kingdom_name(loaded, taker)
        if a == b:
            raise ServiceError("A deal is between two different kingdoms (WOK-MKT-2).")
        if amount.is_empty():
            raise ServiceError("Say what changes hands (WOK-MKT-2).")
        try:
            new = economy.transfer(loaded.state, a, b, amount)
        except wb.RuleViolation as exc:
            raise _refuse(exc) from None
        summary = f"{a} gives {b} {amount.describe()} (WOK-MKT-2)" + (f": {note}" if note else ".")
        with Recorder(loaded.campaign, user, "wok.deal", summary) as rec:
            st.apply(rec, loaded, new, rule_id="WOK-MKT-2", source=f"deal {a} to {b}"[:120])
        return rec.event  # type: ignore[return-value]


# --- the board (GM) -----------------------------------------------------------------------------

TERRITORY_KEYS = ("primary", "secondary", "culture", "fort", "malador")


def edit_territory(campaign: Campaign, user: Any, label: str, values: Mapping[str, Any]) -> Event:
    """The GM sets what the editor cannot: a territory's primary and secondary resource
    (WOK-BOARD-4), the culture of its settlement (WOK-CULT-1), its fortification (WOK-FORT-1)
    and Malador control (WOK-TERR-1)."""
    with transaction.atomic():
        loaded = st.load(campaign, lock=True)
        tile = loaded.tiles.get(label)
        if tile is None:
            raise ServiceError(f"There is no territory {label} on this board.")
        data = dict(tile.data or {})
        # Keys left out of ``values`` keep what the territory has.
        values = {"primary": data.get("primary", ""), "secondary": data.get("secondary", ""),
                  "fort": data.get("fort", 0), "culture": data.get("culture"),
                  "malador": bool(data.get("malador")), **values}
        for key in ("primary", "secondary"):
            value = values.get(key, "")
            if value and value not in wb.RESOURCES:
                raise ServiceError(f"{value!r} is not a resource (WOK-BOARD-4).")
            if value:
                data[key] = value
            else:
                data.pop(key, None)
        fort = values.get("fort", 0)
        if fort not in (0, 1, 2, 3):
            raise ServiceError("A fortification is walls (1), a fortress (2) or a castle (3).")
        if fort and not tile.settlement:
            raise ServiceError("WOK-FORT-2: a fortification stands only with a settlement.")
        if fort:
            data["fort"] = fort
        else:
            data.pop("fort", None)
        culture = values.get("culture")
        seats = {k.order_position for k in loaded.kingdoms.values()
                 if k.capital_tile_id is not None}
        if culture == "malador":
            data["culture"] = "malador"
        elif isinstance(culture, int) and culture in seats:
            data["culture"] = culture
        elif culture in (None, ""):
            data.pop("culture", None)
        else:
            raise ServiceError("A culture is the seat number of a kingdom in the game, or the "
                               "Malador (WOK-CULT-1).")
        updates: dict[str, Any] = {}
        if values.get("malador"):
            data["malador"] = True
            if tile.controller_id is not None:
                updates["controller"] = None
        else:
            data.pop("malador", None)
        updates["data"] = data
        summary = f"The GM sets {label}'s emblem details."
        if data.get("culture") != (tile.data or {}).get("culture"):
            if data.get("culture") == "malador":
                who = "the Malador"
            elif "culture" in data:
                who = next((k.name for k in loaded.kingdoms.values()
                            if k.order_position == data["culture"]), str(data["culture"]))
            else:
                who = "its controller's"
            summary = (f"The GM sets the culture of the settlement in {label} to {who} "
                       "(WOK-CULT-1).")
        if values.get("malador") and not (tile.data or {}).get("malador"):
            summary = f"The Malador take {label} (recorded by the GM, WOK-TERR-1)."
        run = None
        if values.get("malador") and loaded.started:
            # WOK-AMB-3, strict timing: a holder who drops below a threshold through this
            # recorded change loses the card at once (only control counts for the cards).
            from campaign.systems.war_of_kings.rules.achievements import strict_losses

            state = loaded.state
            taken = state.with_holding(label, replace(state.holding(label),
                                                      controller=wb.MALADOR))
            strict = strict_losses(taken, loaded.holders, loaded.options)
            if strict != loaded.holders:
                run = {**(loaded.campaign.state or {}),
                       "holders": st.holders_json(strict, loaded.by_name)}
        with Recorder(loaded.campaign, user, "wok.territory", summary) as rec:
            rec.update(tile, **updates)
            if run is not None:
                rec.update(loaded.campaign, state=run)
        return rec.event  # type: ignore[return-value]


def use_v06(campaign: Campaign, user: Any) -> Event:
    """WOK-V06-*: switch every option the v0.6 preview changes to its numbers."""
    with transaction.atomic():
        loaded = st.load(campaign, lock=True)
        options = as_dict(v06_options(loaded.options))
        with Recorder(loaded.campaign, user, "wok.options",
                      "The campaign plays with the v0.6 preview's numbers (WOK-V06-6, "
                      "WOK-V06-7, WOK-V06-10, WOK-V06-13).") as rec:
            rec.update(loaded.campaign, options=options)
        return rec.event  # type: ignore[return-value]


def projected(loaded: st.Loaded) -> Holders:
    """The holders if the round ended now (WOK-ACH-5, WOK-ACH-6): those the end-of-round
    check (``end_of_round``) would hand the cards to, without tallying the scores."""
    return update_holders(loaded.state, strict_losses(loaded.state, loaded.holders,
                                                      loaded.options), loaded.options)


# --- movement and exploration (part of the player's turn) ---------------------------------------

def move(campaign: Campaign, user: Any, number: int, to: str, forced_march: bool = False,
         raze: bool = False) -> Event:
    """WOK-MOVE-1..8, WOK-AMB-31: move one army of the active player to a legal destination; it
    becomes unready. Walking into an empty enemy territory conquers it at once; an offer of
    battle is recorded for the Battle Resolution Phase (WOK-BATTLE-1); an unexplored territory
    waits for the Exploration Phase (WOK-EXPL-1). An undefended settlement of the army's own
    culture is liberated, unless ``raze``: then its inhabitants muster a militia and the offer
    of battle is fought as against another culture, the settlement razed if it falls
    (WOK-MIL-6)."""
    from campaign.systems.war_of_kings.rules.armies import move as move_rule

    with transaction.atomic():
        loaded = _open(campaign)
        ident = st.army_id(number)
        if ident not in loaded.armies:
            raise ServiceError(f"There is no army {number} on the board.")
        if to not in loaded.tiles:
            raise ServiceError(f"There is no territory {to} on this board.")
        try:
            new, result = move_rule(loaded.state, ident, to, forced_march)
        except wb.RuleViolation as exc:
            raise _refuse(exc) from None
        army = loaded.state.army(ident)
        reason = result.reason
        outcome = result.outcome
        if raze and outcome != "liberate":
            raise ServiceError("WOK-MIL-6: only an undefended settlement of the army's own "
                               f"culture is liberated or razed on arrival; {to} is not one.")
        if outcome == "liberate" and raze:
            outcome = "battle"
            reason = (f"{army.owner} comes to raze the {army.culture} settlement in {to}: its "
                      "militia musters and fights (WOK-MIL-6).")
        elif outcome == "liberate":
            from campaign.systems.war_of_kings.rules.conquest import liberate

            new = liberate(new, to, ident)
        summary = (f"{army.owner} moves army {number} from {army.territory} to {to}"
                   f"{' by Forced March' if forced_march else ''}: {reason}")
        with Recorder(loaded.campaign, user, "wok.move", summary,
                      data={"army": number, "to": to, "outcome": outcome}) as rec:
            st.apply(rec, loaded, new, rule_id="WOK-MOVE-5", source=summary[:120])
            if outcome == "battle":
                offer_battle(rec, loaded, to, army.owner, [number], to_raze=raze)
        return rec.event  # type: ignore[return-value]


def offer_battle(rec: Recorder, loaded: st.Loaded, territory: str, attacker: str,
                 numbers: Sequence[int], explored: bool = False, ambush: bool = False,
                 marauder_card: bool = False, to_raze: bool = False) -> None:
    """WOK-BATTLE-1, WOK-MOVE-6: armies arriving in one territory join one offer of battle,
    resolved in the Battle Resolution Phase. ``to_raze``: the offer is against the militia of a
    settlement of the attacker's own culture, which it came to raze (WOK-MIL-6)."""
    from campaign.systems.war_of_kings.models import Battle

    pending = Battle.objects.filter(campaign=loaded.campaign, tile=loaded.tiles[territory],
                                    status=Battle.Status.PENDING).first()
    if pending is None:
        number = (Battle.objects.filter(campaign=loaded.campaign).order_by("-number")
                  .values_list("number", flat=True).first() or 0) + 1
        rec.create(Battle(campaign=loaded.campaign, number=number, tile=loaded.tiles[territory],
                          attacker=loaded.kingdom(attacker), round=loaded.state.round,
                          data={"attackers": list(numbers),
                                **({"explored": True} if explored else {}),
                                **({"ambush": True} if ambush else {}),
                                **({"marauder_card": True} if marauder_card else {}),
                                **({"raze": True} if to_raze else {})}))
    else:
        rec.update(pending, data={**pending.data, "attackers": [
            *pending.data.get("attackers", []), *numbers],
            **({"raze": True} if to_raze else {})})


def explore(campaign: Campaign, user: Any, territory: str, colour: str, row: int,
            road_to: Sequence[str] = (), plague_hits: Mapping[int, int] | None = None,
            face: str = "") -> Event:
    """WOK-EXPL-1..5, WOK-AMB-7, WOK-AMB-8: apply the Table 9 result the table read (the
    Resource Die's colour and the printed row) to an unexplored territory the active player's
    armies entered this turn. With ``face`` (the purple Bonus Battle Die's symbol) the row is
    the one the campaign's options map that symbol to (WOK-AMB-7)."""
    from campaign.systems.war_of_kings.rules import armies as ar

    with transaction.atomic():
        loaded = _open(campaign)
        state = loaded.state
        if territory not in loaded.tiles:
            raise ServiceError(f"There is no territory {territory} on this board.")
        if face:
            row = loaded.options.explore_row(face)
            if not row:
                raise ServiceError(f"WOK-AMB-7: this campaign has not said which row of Table "
                                   f"9 a {face} on the bonus die reads; pick the row.")
        kingdom = state.active
        explorers = [a.id for a in state.armies_in(territory, kingdom)] if kingdom else []
        try:
            result = ar.exploration_result(colour, row)
            first = st.next_army_number(loaded)
            placed = {ar.MALADOR_WALLED_VILLAGE: 2, ar.AMBUSH: 1, ar.ONE_MARAUDER: 1,
                      ar.FORTIFIED_MALADOR_VILLAGE: 1}.get(result, 0)
            marauders = [st.army_id(first + i) for i in range(placed)]
            done = ar.explore(state, kingdom or "", territory, result, explorers,
                              road_to=road_to,
                              plague_hits={st.army_id(n): h
                                           for n, h in (plague_hits or {}).items()},
                              marauder_ids=marauders, options=loaded.options)
        except wb.RuleViolation as exc:
            raise _refuse(exc) from None
        summary = (f"{kingdom} explores {territory}: {colour}"
                   + (f" and {face} (row {row}, WOK-AMB-7)" if face else f" row {row}")
                   + f", {result.replace('_', ' ')}; {done.outcome.replace('_', ' ')} "
                   "(WOK-EXPL-2).")
        with Recorder(loaded.campaign, user, "wok.explore", summary,
                      data={"territory": territory, "colour": colour, "row": row}) as rec:
            rec.roll("exploration", [wb.COLOURS.index(colour) + 1, row], "table")
            st.apply(rec, loaded, done.state, rule_id="WOK-EXPL-2",
                     source=f"exploring {territory}")
            if done.outcome in ("battle_or_withdraw", "ambush"):
                # WOK-AMB-8: the explorers offer battle (or withdraw from it) in the Battle
                # Resolution Phase; an ambush is fought the same way (WOK-AMB-9).
                offer_battle(rec, loaded, territory, kingdom or "",
                             [int(a[1:]) for a in explorers], explored=True,
                             ambush=done.outcome == "ambush")
        return rec.event  # type: ignore[return-value]


def forfeit(campaign: Campaign, user: Any, kingdom: Kingdom) -> Event:
    """WOK-ELIM-2, WOK-AMB-20: a player gives up; every territory and army of the kingdom
    passes to the Malador, cultures stay as printed, and it no longer scores."""
    from campaign.systems.war_of_kings.rules.conquest import forfeit as forfeit_rule

    with transaction.atomic():
        loaded = _open(campaign)
        name = _kingdom_name(loaded, kingdom)
        if name not in loaded.state.kingdoms:
            raise ServiceError(f"{name} is no longer in the game (WOK-ELIM-2).")
        new = forfeit_rule(loaded.state, name)
        summary = f"{name} forfeits; the Malador take over its kingdom (WOK-ELIM-2)."
        with Recorder(loaded.campaign, user, "wok.forfeit", summary, kingdom=kingdom) as rec:
            st.apply(rec, loaded, new, rule_id="WOK-ELIM-2", source="forfeiture")
        return rec.event  # type: ignore[return-value]
