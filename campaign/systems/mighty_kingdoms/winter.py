"""Winter (MK-WINTER, MK-RECALL, MK-TITHE, MK-BUY, MK-FEED, MK-DEPLOY): the phase handlers,
the play page's winter parts, the kingdom page's economy, and the winter's URLs.

The writes live in ``winter_services``, the views in ``winter_views``. Everything a page shows
about money comes from the same rule functions the services book with, so the forecast and the
ledger cannot disagree.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.urls import reverse

from campaign.access import Access
from campaign.models import Kingdom
from campaign.systems.mighty_kingdoms import winter_services as ws
from campaign.systems.mighty_kingdoms.clock import PhaseHandler, phase_key
from campaign.systems.mighty_kingdoms.rules import campaign as mk
from campaign.systems.mighty_kingdoms.rules import ledger as eco
from campaign.systems.mighty_kingdoms.state import MKState
from campaign.systems.mighty_kingdoms.summer_common import PHONE_ROWS

TEMPLATE = "campaign/systems/mighty_kingdoms/play/winter.html"
PARTS = {
    ws.RECALL: "campaign/systems/mighty_kingdoms/play/winter_recall.html",
    ws.GATHER: "campaign/systems/mighty_kingdoms/play/winter_gather.html",
    ws.TITHE: "campaign/systems/mighty_kingdoms/play/winter_tithe.html",
    ws.BUY: "campaign/systems/mighty_kingdoms/play/winter_buy.html",
    ws.FEED: "campaign/systems/mighty_kingdoms/play/winter_feed.html",
    ws.DEPLOY: "campaign/systems/mighty_kingdoms/play/winter_deploy.html",
}

def deploy_counts(state: MKState) -> dict[int, int]:
    """MK-DEPLOY-2 ahead of time: the army counts the player order will use when Deploy opens,
    once Feed has removed the unfed armies (as ``ws.feed_close`` will)."""
    done = ws.fed_record(state)
    counts = {}
    for pk in state.order:
        armies = state.armies_of(pk)
        unfed = set(done[pk]["unfed"]) if pk in done else {a.number for a in armies}
        counts[pk] = sum(1 for a in armies if a.number not in unfed)
    return counts


HANDLERS = {
    ws.RECALL: PhaseHandler(TEMPLATE, ws.recall_blockers, enter=ws.recall_enter),
    ws.GATHER: PhaseHandler(TEMPLATE, close=ws.gather_close),
    ws.TITHE: PhaseHandler(TEMPLATE, ws.cycle_blockers(mk.SUB_TITHE, "MK-TITHE-5"),
                           turn=ws.cycle_turn(mk.SUB_TITHE)),
    ws.BUY: PhaseHandler(TEMPLATE, ws.cycle_blockers(mk.SUB_BUY, "MK-BUY-1"),
                         turn=ws.cycle_turn(mk.SUB_BUY)),
    ws.FEED: PhaseHandler(TEMPLATE, ws.feed_blockers, close=ws.feed_close,
                          order_counts=deploy_counts, order_rule="MK-DEPLOY-2"),
    ws.DEPLOY: PhaseHandler(TEMPLATE, ws.deploy_blockers, ws.deploy_close, ws.deploy_enter,
                            turn=ws.deploy_turn, enter_dice=True, brief=ws.deploy_brief),
}


SETTLEMENT_LABELS = {mk.VILLAGE: "Village", mk.CITY: "City", mk.FORTRESS: "Fortress",
                     mk.CAPITAL: "Capital City", mk.EMPTY: "Empty"}

#: MK-SETTLE-3, MK-SHIPYARD-1, MK-RECRUIT-2, MK-FEED-1: the price list, as the rules hold it.
PRICE_LIST = tuple(
    (f"{SETTLEMENT_LABELS[a]} → {SETTLEMENT_LABELS[b]}", cost, "MK-SETTLE-3")
    for (a, b), cost in eco.SETTLEMENT_COSTS.items()
) + (
    ("Ship, in a coastal or river city", eco.SHIP_COST, "MK-SHIPYARD-1"),
    ("Army, at a fortress (one each winter)", eco.RECRUIT_COST, "MK-RECRUIT-2"),
    ("Feeding one army", eco.Resources(food=1), "MK-FEED-1"),
)


# --- what a line or an option looks like on a page ---------------------------------------------


def option_text(option: eco.PurchaseOption) -> str:
    p = option.purchase
    if p.kind == eco.SETTLE:
        return f"{SETTLEMENT_LABELS[p.to_state]} at {p.tile}"
    if p.kind == eco.SHIP:
        return f"Ship at {p.tile}"
    text = f"{'Allied army' if p.allied else 'Army'} at {p.tile}"
    return text + (" (disband one first)" if option.needs_disband else "")


def _options(state: MKState, winter: eco.KingdomWinter) -> list[dict[str, Any]]:
    result = []
    tiles = ws.kingdom_map(state, winter.kingdom.id)
    for option in eco.affordable_purchases(winter, tiles, state.options):
        if option.purchase.allied and state.options.battle_mode != "kow":
            continue
        result.append({"option": option, "p": option.purchase, "text": option_text(option),
                       "cost": option.cost, "affordable": option.affordable,
                       "rule_id": option.rule_id})
    return result


def unfed_after(stock: eco.Resources, armies: int, option: eco.PurchaseOption | None) -> int:
    """MK-WINTER-3, MK-BUY-2: how many armies would go unfed at Feed armies if ``option`` were
    bought now (None: if nothing were): its food is paid, and a recruit that disbands no army
    is one more army to feed."""
    food = stock.food
    armies_then = armies
    if option is not None:
        food -= option.cost.food
        if option.purchase.kind == eco.RECRUIT and not option.needs_disband:
            armies_then += 1
    return max(0, armies_then - max(0, food))


def _settlements(state: MKState, pk: int) -> list[dict[str, Any]]:
    """The kingdom's settlements with what each gives (MK-WINTER-2) and holds (MK-DEPLOY-4)."""
    kingdom = state.kingdoms[pk]
    tiles = ws.kingdom_map(state, pk)
    capital = mk.current_capital(kingdom, tiles)
    docked = ws.docked_cities(state, pk)
    held = ws.holdings(state, pk)
    rows = []
    for tile in held.tiles:
        if not tile.settlement:
            continue
        alone = eco.winter_income(replace(held, tiles=(tile,)), state.options)
        rows.append({
            "label": tile.label,
            "kind": "Capital City" if tile.label == capital else SETTLEMENT_LABELS[tile.settlement],
            "income": eco.totals(alone),
            "deploy": mk.deployment_limit(kingdom, tiles, tile.label),
            "docked": tile.label in docked,
            "harbour": tile.settlement == mk.CITY and (tile.is_coastal or tile.has_river),
        })
    return rows


def _ledger_links(state: MKState, pk: int) -> dict[str, str]:
    slug = state.campaign.slug
    return {"ledger_url": reverse("campaign:ledger:kingdom", args=[slug, pk]),
            "csv_url": reverse("campaign:ledger:csv", args=[slug, pk])}


# --- the kingdom page: "My kingdom" ------------------------------------------------------------


def kingdom_context(state: MKState, access: Access, kingdom: Kingdom) -> dict[str, Any]:
    """The kingdom's economy for its player and the GMs: gold and food now, the income forecast
    line by line, the price list and what can be afforded, the settlements, the ledger."""
    if not access.can_edit_kingdom(kingdom) or kingdom.pk not in state.kingdoms:
        return {"economy": None}
    pk = kingdom.pk
    c = state.campaign
    stock = ws.stocks_of(state, [pk])[pk]
    lines = ws.forecast(state, pk)
    income = eco.totals(lines)
    key = phase_key(c)
    spending = key in (ws.TITHE, ws.BUY)
    if c.season == ws.WINTER and c.phase in ("A", "B"):
        title = "This winter's income"
        hint = "Booked in your ledger when B) Gather resources closes (MK-WINTER-2)."
        afford_stock, afford_when = stock + income, "after Gather"
    else:
        title = "Next winter's income"
        hint = "If your lands stay as they are now (MK-WINTER-2)."
        if spending:
            afford_stock, afford_when = stock, "now"
        elif c.season == ws.WINTER:
            afford_stock, afford_when = income, "next winter"
        else:
            afford_stock, afford_when = stock + income, "next winter"
    purchases = ws.purchases_this_winter(state, pk) if c.season == ws.WINTER else []
    winter = ws.kingdom_winter(state, pk, afford_stock, purchases)
    armies = len(state.armies_of(pk))
    return {"economy": {
        "kingdom": kingdom,
        "stock": stock,
        "lines": lines,
        "income": income,
        "title": title,
        "hint": hint,
        "afford_when": afford_when,
        "afford_stock": afford_stock,
        "options": _options(state, winter),
        "prices": PRICE_LIST,
        "settlements": _settlements(state, pk),
        "armies": armies,
        "food_short": max(0, armies - income.food),
        "spending": spending,
        **_ledger_links(state, pk),
    }}


# --- the play page during winter ---------------------------------------------------------------


def _actor(state: MKState, access: Access, turn: int | None) -> Kingdom | None:
    """Who this viewer acts for in a turn-based step: their own kingdom on its turn; a GM acts
    for whoever's turn it is."""
    if turn is None:
        return None
    if access.is_gm:
        return state.kingdom_rows[turn]
    if access.kingdom is not None and access.kingdom.pk == turn:
        return state.kingdom_rows[turn]
    return None


def _own(state: MKState, access: Access) -> list[int]:
    """Kingdoms whose private side this viewer sees: a GM all, a player their own."""
    if access.is_gm:
        return list(state.order)
    if access.kingdom is not None and access.kingdom.pk in state.kingdoms:
        return [access.kingdom.pk]
    return []


def play_context(state: MKState, access: Access) -> dict[str, Any]:
    c = state.campaign
    key = phase_key(c)
    if key not in HANDLERS:
        return {}
    own = _own(state, access)
    # The holdings the page reads, in one query: the viewer's kingdoms (whose turn it is to
    # deploy reads the next kingdom's, MK-DEPLOY-4).
    state.holdings_map(own)
    stocks = ws.stocks_of(state, own)
    rows = state.kingdom_rows
    w: dict[str, Any] = {
        "part": PARTS[key],
        "purses": [(rows[pk], stocks[pk]) for pk in own],
        "booked": ws.gathered(state),
    }
    if key == ws.RECALL:
        w.update(_recall_context(state, own, _listed(state, access)))
    elif key == ws.GATHER:
        forecasts = [(rows[pk], ws.forecast(state, pk)) for pk in own]
        w["forecasts"] = [(row, lines, eco.totals(lines)) for row, lines in forecasts]
    elif key in (ws.TITHE, ws.BUY):
        sub = c.sub_phase
        result, turn = ws.cycle(state, sub)
        actor = _actor(state, access, turn)
        w.update({"sub": sub, "closed": result.closed, "passes": result.passes_in_row,
                  "players": len(state.order), "actor": actor})
        if sub == mk.SUB_TITHE:
            w.update(_tithe_context(state, actor, stocks, _listed(state, access)))
        else:
            w.update(_buy_context(state, actor, stocks, _listed(state, access)))
    elif key == ws.FEED:
        w.update(_feed_context(state, own, stocks, _listed(state, access)))
    elif key == ws.DEPLOY:
        w.update(_deploy_context(state, access))
    return {"winter": w}


def _listed(state: MKState, access: Access) -> list[int] | None:
    """The kingdoms whose part of a winter step this viewer's page lists: every kingdom (None)
    for a GM, or in a campaign small enough for a phone; else the first ``PHONE_ROWS`` in player
    order and the viewer's own, the others counted."""

    if access.is_gm or len(state.order) <= PHONE_ROWS:
        return None
    listed = state.order[:PHONE_ROWS]
    if access.kingdom is not None and access.kingdom.pk not in listed:
        listed = [*listed, access.kingdom.pk]
    return listed


def _recall_context(state: MKState, own: list[int],
                    listed: list[int] | None) -> dict[str, Any]:
    pending = ws.recall_pending(state)
    choices = []
    for pk in own:
        if pk not in pending:
            continue
        kingdom = state.kingdoms[pk]
        tiles = ws.kingdom_map(state, pk)
        plan = mk.recall_destination(kingdom, tiles)
        ships = sorted(state.ships_of(pk), key=lambda s: s.number)
        cities = mk.docking_cities(pk, tiles)
        choices.append({
            "kingdom": state.kingdom_rows[pk],
            "armies": pending[pk].get("armies"),
            "plan": plan,
            "army_count": len(state.armies_of(pk)),
            "docks": [(ship, cities[i] if i < len(cities) else "")
                      for i, ship in enumerate(ships)] if pending[pk].get("ships") else [],
            "cities": cities,
            "surplus": mk.surplus_count(len(ships), len(cities)),
            "newest": state.options.dock_surplus == mk.REMOVE_NEWEST,
        })
    where = []
    shown = state.order if listed is None else listed
    state.read_tokens_of(shown)
    for pk in shown:
        armies = state.armies_of(pk)
        tiles = sorted({a.tile for a in armies})
        ships = sorted((s for s in state.ships_of(pk)), key=lambda s: s.number)
        where.append({"kingdom": state.kingdom_rows[pk], "armies": len(armies),
                      "tiles": tiles, "ships": ships, "pending": pk in pending})
    return {"choices": choices, "where": where, "where_more": len(state.order) - len(shown)}


def _tithe_context(state: MKState, actor: Kingdom | None,
                   stocks: dict[int, eco.Resources], listed: list[int] | None) -> dict[str, Any]:
    gifts = ws.tithes_this_winter(state)
    rows = state.kingdom_rows
    shown = [g for g in gifts if listed is None or g.giver_id in listed
             or g.receiver_id in listed]
    context: dict[str, Any] = {
        "gifts": [(rows[g.giver_id], rows[g.receiver_id], eco.Resources(g.gold, g.food))
                  for g in shown],
        "gifts_more": len(gifts) - len(shown),
    }
    if actor is not None:
        given = {g.receiver_id for g in gifts if g.giver_id == actor.pk}
        stock = stocks.get(actor.pk) or ws.stocks_of(state, [actor.pk])[actor.pk]
        context.update({
            "receivers": [rows[pk] for pk in state.order if pk != actor.pk and pk not in given],
            "actor_stock": stock,
        })
    return context


def _buy_context(state: MKState, actor: Kingdom | None, stocks: dict[int, eco.Resources],
                 listed: list[int] | None) -> dict[str, Any]:
    purchases = ws.purchases_this_winter(state)
    rows = state.kingdom_rows
    shown = [p for p in purchases if listed is None or p.kingdom_id in listed]
    context: dict[str, Any] = {
        "bought": [(rows[p.kingdom_id], p) for p in shown],
        "bought_more": len(purchases) - len(shown),
    }
    if actor is not None:
        stock = stocks.get(actor.pk) or ws.stocks_of(state, [actor.pk])[actor.pk]
        winter = ws.kingdom_winter(state, actor.pk, stock, purchases)
        options = _options(state, winter)
        unfed_now = unfed_after(stock, len(winter.armies), None)
        for option in options:
            # MK-WINTER-3: said on the purchase itself, not only on "My kingdom".
            unfed = unfed_after(stock, len(winter.armies), option["option"])
            option["unfed"] = unfed if unfed > unfed_now else 0
        context.update({
            "actor_stock": stock,
            "options": options,
            "unfed_now": unfed_now,
            "actor_armies": winter.armies,
            "at_cap": len(winter.armies) >= state.options.max_armies,
            "max_armies": state.options.max_armies,
        })
    return context


def _feed_context(state: MKState, own: list[int], stocks: dict[int, eco.Resources],
                  listed: list[int] | None) -> dict[str, Any]:
    fed = ws.fed_record(state)
    forms = []
    for pk in own:
        armies = sorted(state.armies_of(pk), key=lambda a: a.number)
        food = stocks[pk].food
        forms.append({
            "kingdom": state.kingdom_rows[pk],
            "armies": armies,
            "food": food,
            "short": eco.armies_to_remove(len(armies), food),
            "done": fed.get(pk),
            "default": {a.number for a in armies[:food]},
        })
    done = [(state.kingdom_rows[pk], record) for pk, record in fed.items()
            if pk in state.kingdom_rows and (listed is None or pk in listed)]
    return {"feeds": forms, "fed": done,
            "fed_more": sum(1 for pk in fed if pk in state.kingdom_rows) - len(done)}


def _deploy_context(state: MKState, access: Access) -> dict[str, Any]:
    """D) Deploy for this viewer. A GM, and everyone in a campaign small enough for a phone,
    reads every placement and every army still waiting; a player in a larger one reads their
    own and how many kingdoms are still deploying (the other kingdoms' pages show theirs)."""

    data = ws.winter_view(state.campaign)["deploy"]
    placed = data["placed"]
    turn = ws.deploy_turn(state)
    actor = _actor(state, access, turn)
    rows = state.kingdom_rows
    full = access.is_gm or len(state.order) <= PHONE_ROWS
    listed = state.order if full else [k for k in _own(state, access)]
    state.read_tokens_of(listed)
    context: dict[str, Any] = {
        "actor": actor,
        "rolls": [(rows[int(pk)], values) for pk, values in data.get("rolls", {}).items()
                  if int(pk) in rows and (full or int(pk) in listed)],
        "placements": [],
        "full": full,
    }
    armies = {str(a.id): a for pk in listed for a in state.armies_of(pk)}
    for army_id, where in placed.items():  # in the order they were placed
        army = armies.get(army_id)
        if army is not None:
            context["placements"].append((rows[army.kingdom], army.number, where))
    waiting = []
    for pk in listed:
        left = ws.waiting_armies(state, placed, pk)
        if left:
            waiting.append((rows[pk], [a.number for a in left]))
    context["waiting"] = waiting
    if not full:
        done = set(data.get("done", ()))
        context["others_deploying"] = sum(1 for pk in state.order
                                          if pk not in done and pk not in listed)
        context["others_placed"] = len(placed) - len(context["placements"])
    if actor is not None:
        kingdom = state.kingdoms[actor.pk]
        counts = ws.placed_counts(state, placed, actor.pk)
        tiles = ws.kingdom_map(state, actor.pk)
        capacity = mk.deployment_capacity(kingdom, tiles)
        capital = mk.current_capital(kingdom, tiles)
        context.update({
            "actor_armies": ws.waiting_armies(state, placed, actor.pk),
            "tiles": [
                {"label": where, "limit": limit, "used": counts.get(where, 0),
                 "kind": "Capital City" if where == capital
                 else SETTLEMENT_LABELS[tiles.tile(where).settlement]}
                for where, limit in capacity.items() if counts.get(where, 0) < limit
            ],
            "room": sum(capacity.values()),
        })
    return context
