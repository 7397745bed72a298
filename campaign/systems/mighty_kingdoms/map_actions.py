"""Mighty Kingdoms on the map: what a viewer may do on a tile now (the ``tile_actions`` hook),
and how a tile reads in the play page's drop-downs of tiles.

Every action names the endpoint the play page's form posts to, with the same fields, so the
map and the play page go through the same services and refusals. Legality is worked out with
the rule functions those services call (``legal_start_tiles``/``validate_start_tile``,
``legal_setup_tiles``, ``legal_starting_army_tiles``/``validate_starting_army``,
``legal_orders``/``legal_move_destinations``, the battle choices and retreat options of
``summer_battles``); a reason is the refusal's own text.

- Setup (MK-SETUP-3..5): found the capital, place the first settlements, place army #1.
- Summer A, Orders (MK-ORD-1..9): choose a token (its legal destinations light up on the map),
  move it here, or give it an order that needs no destination on its own tile.
- Summer C, Battle (MK-BSEL-1..6, MK-RESULT-3/5): fight here, retreat here, move on to here.
- Winter, Build and recruit (MK-BUY-2): buy here, on the acting kingdom's turn, what the play
  page offers on this tile (with its cost and the armies it would leave unfed, MK-WINTER-3).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.urls import reverse

from campaign.models import Tile
from campaign.services import ServiceError
from campaign.systems.mighty_kingdoms import setup, standings, winter
from campaign.systems.mighty_kingdoms.clock import SETUP
from campaign.systems.mighty_kingdoms.rules import campaign as mk
from campaign.systems.mighty_kingdoms.state import MKState, load_state
from campaign.systems.mighty_kingdoms.summer_battles import battle_context, battle_turn
from campaign.systems.mighty_kingdoms.summer_common import require_turn
from campaign.systems.mighty_kingdoms.summer_orders import order_turn, unordered_of
from campaign.tile_actions import TileAction, TileChoice, tile_choices

# The first settlements in the play form's order (MK-SETUP-4): what the rest of the tiles take
# when one is chosen on the map.
SETTLE_ORDER = ("city", "fortress", "village", "village", "marker", "marker")
SETTLE_NAMES = {"city": "City", "fortress": "Fortress", "village": "Village",
                "marker": "Control marker"}


# -- the drop-downs' labels -------------------------------------------------------------------


def occupants(state: MKState, labels: Iterable[str]) -> dict[str, list[str]]:
    """Who stands on each of ``labels``: "Aldmark army #1", "Ironmere ship #2" (one query at
    most, none for tiles whose tokens the page read already)."""
    armies, ships = state.tokens_at(labels)
    rows = state.kingdom_rows
    found: dict[str, list[str]] = {}
    for kind, tokens in (("army", armies), ("ship", ships)):
        for token in tokens:
            name = rows[token.kingdom].name if token.kingdom in rows else "?"
            found.setdefault(token.tile, []).append(f"{name} {kind} #{token.number}")
    return found


def choices(state: MKState, labels: Sequence[str], tiles: mk.MapView | None = None,
            ) -> list[TileChoice]:
    """``labels`` as the entries of a drop-down of tiles: "0204 · Forest · village · Aldmark
    army #1" (``campaign.tile_actions.choice_text``). ``tiles`` holds them (else the map
    around them is read)."""
    labels = list(labels)
    if not labels:
        return []
    tiles = tiles if tiles is not None else state.map_around(labels, 0)
    states = {label: tiles.get(label) for label in labels}
    capitals = {}
    for pk, info in state.kingdoms.items():
        if info.capital_tile in states and pk in state.kingdom_rows:
            capitals[info.capital_tile] = state.kingdom_rows[pk].name
    return tile_choices(state.campaign.system, labels,
                        {k: v for k, v in states.items() if v is not None},
                        occupants(state, labels), capitals)


# -- the hook ---------------------------------------------------------------------------------


def tile_actions(access: Any, tile: Tile) -> list[TileAction]:
    """What this viewer may do on ``tile`` now (the core's ``tile_actions`` hook). Observers
    and a campaign that has ended (MK-AMB-20) get nothing."""
    campaign = access.campaign
    if standings.ended(campaign) or (access.kingdom is None and not access.is_gm):
        return []
    if campaign.season == SETUP and campaign.phase in ("capital", "settle", "army"):
        return _setup_actions(access, tile)
    if campaign.season == mk.SUMMER and campaign.phase == "A":
        return _order_actions(access, tile)
    if campaign.season == mk.SUMMER and campaign.phase == "C":
        return _battle_actions(access, tile)
    if campaign.season == mk.WINTER and campaign.sub_phase == mk.SUB_BUY:
        return _buy_actions(access, tile)
    return []


def _url(campaign: Any, name: str, *args: Any) -> str:
    return reverse(f"mk:{name}", args=[campaign.slug, *args])


def _turn_reason(state: MKState, kingdom: Any, turn: int, rule: str) -> str:
    """The service's own refusal when it is not ``kingdom``'s turn."""
    try:
        require_turn(state, kingdom, turn, rule, "")
    except ServiceError as exc:
        return str(exc)
    return ""


def _setup_actions(access: Any, tile: Tile) -> list[TileAction]:
    state = load_state(access.campaign)
    turn = setup.setup_turn(state)
    if turn is None:
        return []
    actor = state.kingdom_rows[turn] if access.is_gm else state.kingdom_rows[access.kingdom.pk]
    step = access.campaign.phase
    if actor.pk != turn and _step_done(state, step, actor.pk):
        return []
    not_turn = ""
    if actor.pk != turn:
        not_turn = (f"It is {state.kingdom_rows[turn].name}'s turn: setup goes in player order "
                    "(MK-SETUP-3..5).")
    label = tile.label
    campaign = access.campaign
    fields = {"kingdom": str(actor.pk), "tile": label}
    if step == "capital":
        reason = not_turn or _violation(mk.validate_start_tile, state.map, label)
        return [TileAction("capital", f"Found {actor.name}'s capital here",
                           _url(campaign, "setup_capital"), fields, not reason, reason)]
    if step == "army":
        reason = not_turn or _violation(mk.validate_starting_army, state.map, actor.pk, label)
        return [TileAction("army", f"Place army #1 of {actor.name} here (500 points)",
                           _url(campaign, "setup_army"), fields, not reason, reason)]
    start = state.kingdoms[actor.pk].start_tile
    if not start:
        return []
    usable = list(mk.legal_setup_tiles(state.map, start, actor.pk))
    if label not in usable:
        return []
    actions = []
    kinds = list(SETTLE_ORDER[:len(usable)])
    for kind in dict.fromkeys(kinds):
        rest = list(kinds)
        rest.remove(kind)
        plan = {label: kind, **dict(zip([u for u in usable if u != label], rest))}
        others = _plan_text({k: v for k, v in plan.items() if k != label})
        post: dict[str, Any] = {"kingdom": str(actor.pk), "tiles": tuple(plan)}
        post.update({f"place_{k}": v for k, v in plan.items()})
        actions.append(TileAction(
            f"settle:{kind}", f"{SETTLE_NAMES[kind]} here" + (f"; {others}" if others else ""),
            _url(campaign, "setup_settle"), post, not not_turn, not_turn))
    return actions


def _step_done(state: MKState, step: str, kingdom: int) -> bool:
    """Whether ``kingdom`` has made its choice of this setup step (MK-SETUP-3..5)."""
    if step == "capital":
        return bool(state.kingdom_rows[kingdom].capital_tile_id)
    if step == "settle":
        return bool(state.campaign.state.get(f"settled:{kingdom}"))
    return any(a.kingdom == kingdom for a in state.armies)


def _plan_text(plan: dict[str, str]) -> str:
    """"fortress on 0305, villages on 0404 and 0405, control markers on 0203"."""
    parts = []
    for kind, one, many in (("city", "city", "cities"), ("fortress", "fortress", "fortresses"),
                            ("village", "village", "villages"),
                            ("marker", "control marker", "control markers")):
        where = [label for label, k in plan.items() if k == kind]
        if where:
            joined = where[0] if len(where) == 1 else ", ".join(where[:-1]) + " and " + where[-1]
            parts.append(f"{one if len(where) == 1 else many} on {joined}")
    return ", ".join(parts)


def _violation(check: Any, *args: Any) -> str:
    try:
        check(*args)
    except mk.RuleViolation as exc:
        return str(exc)
    return ""


def _order_actions(access: Any, tile: Tile) -> list[TileAction]:
    """MK-ORD-1..9: on the acting kingdom's turn, its tokens without an order: on their own
    tile, "choose" (light up where it may move) and the orders that need no destination; on a
    tile next to them, "move here" when the rules allow it."""
    state = load_state(access.campaign)
    turn = order_turn(state)
    if turn is None:
        return []
    actor = state.kingdom_rows[turn] if access.is_gm else state.kingdom_rows[access.kingdom.pk]
    not_turn = "" if actor.pk == turn else _turn_reason(state, actor, turn, "MK-ORD-1")
    movers = unordered_of(state, actor.pk)
    label = tile.label
    if not movers:
        return []
    # One read of the tiles around every such token: enough for all the rules below.
    tiles = state.map_around([m.tile for m in movers])
    near = [m for m in movers if m.tile == label or label in _neighbours(tiles, m.tile)]
    campaign = access.campaign
    url = _url(campaign, "summer_order")
    actions: list[TileAction] = []
    for mover in near:
        name = mover.name
        legal = mk.legal_orders(mover, tiles, state.options)
        destinations = (mk.legal_move_destinations(mover, tiles, state.options)
                        if mk.MOVE in legal else ())
        base = {"kingdom": str(actor.pk), "token": mover.key}
        if mover.tile == label:
            actions.append(TileAction(
                f"choose:{mover.key}", f"Choose {name}: show where it may move",
                highlight=tuple(destinations), subject=name))
            for kind in legal:
                if kind == mk.MOVE:
                    continue
                order = mk.ORDER_NAMES[kind]
                actions.append(TileAction(
                    f"order:{mover.key}:{kind}", f"{name.capitalize()}: {order}", url,
                    {**base, "kind": kind}, not not_turn, not_turn,
                    confirm=f"Burn the settlement on {label}?" if kind == mk.RAZE else ""))
        else:
            reason = not_turn or _violation(mk.validate_order, mover, mk.MOVE, label, tiles,
                                            state.options)
            actions.append(TileAction(
                f"move:{mover.key}", f"Move {name} here from {mover.tile}", url,
                {**base, "kind": mk.MOVE, "target": label}, not reason, reason))
    return actions


def _neighbours(tiles: mk.MapView, label: str) -> tuple[str, ...]:
    found = tiles.get(label)
    return tuple(found.neighbours) if found is not None else ()


def _battle_actions(access: Any, tile: Tile) -> list[TileAction]:
    """MK-BSEL-1..6: fight here (the chooser on its turn); MK-RESULT-5: retreat here;
    MK-RESULT-3: move on to here after a win. The options are the play page's own."""
    state = load_state(access.campaign)
    turn = battle_turn(state)
    actor = None
    if turn is not None and (access.is_gm or access.kingdom.pk == turn):
        actor = state.kingdom_rows[turn]
    found = battle_context(state, access, actor)
    campaign = access.campaign
    label = tile.label
    actions: list[TileAction] = []
    for choice in found["summer_battle_choices"]:
        if choice["label"] != label:
            continue
        url = _url(campaign, "summer_battle")
        for option in choice["options"]:
            opponent = option["opponent"]
            base = {"kingdom": str(actor.pk), "tile": label, "opponent": str(opponent.pk)}
            if option["modes"]:
                for value, mode_name in option["modes"]:
                    actions.append(TileAction(
                        f"fight:{opponent.pk}:{value}",
                        f"Fight {opponent.name} here: {mode_name}", url,
                        {**base, "mode": value}))
            else:
                actions.append(TileAction(f"fight:{opponent.pk}",
                                          f"Fight {opponent.name} here: {option['kind']}",
                                          url, base))
            if option["naval"]:
                actions.append(TileAction(f"fight:{opponent.pk}:naval",
                                          f"Fight {opponent.name} here at sea: naval battle",
                                          url, {**base, "naval": "1"}))
    for battle in found["summer_battles"]:
        row = battle["row"]
        for entry in battle["retreats"]:
            if label not in entry["options"]:
                continue
            crowded = " (enemies there)" if label in entry.get("crowded", ()) else ""
            side = ", lying on its side" if entry.get("on_side") else ""
            actions.append(TileAction(
                f"retreat:{row.pk}:{entry['key']}",
                f"Retreat {entry['name']} here from {battle['label']}{side}{crowded}",
                _url(campaign, "summer_retreat", row.pk),
                {"kingdom": str(entry["kingdom"]), f"retreat_{entry['key']}": label}))
        offer = (row.data or {}).get("winner_move") or {}
        for key, option in battle["winner_move"].items():
            if label not in option["options"]:
                continue
            actions.append(TileAction(
                f"winner:{row.pk}:{key}",
                f"Move {option['name']} on to here from {battle['label']}",
                _url(campaign, "summer_winner_move", row.pk),
                {"kingdom": str(offer.get("kingdom", "")), "token": key, f"to_{key}": label}))
    return actions


def _buy_actions(access: Any, tile: Tile) -> list[TileAction]:
    """MK-BUY-2: the purchases the play page offers the acting kingdom on this tile, paid in
    full; one that needs an army disbanded first is left to the play page, which asks which."""
    state = load_state(access.campaign)
    found = winter.play_context(state, access).get("winter", {})
    actor = found.get("actor")
    if actor is None:
        return []
    actions = []
    for option in found.get("options", ()):
        p = option["p"]
        if p.tile != tile.label or not option["affordable"] or option["option"].needs_disband:
            continue
        fields = {"kingdom": str(actor.pk), "kind": p.kind, "tile": p.tile}
        if p.to_state:
            fields["to"] = p.to_state
        if p.allied:
            fields["allied"] = "1"
        unfed = option.get("unfed", 0)
        warning = (f" (leaves {unfed} arm{'y' if unfed == 1 else 'ies'} unfed, MK-WINTER-3)"
                   if unfed else "")
        actions.append(TileAction(
            f"buy:{p.kind}:{p.to_state}:{int(bool(p.allied))}",
            f"Buy here: {option['text']} · {option['cost']}{warning}",
            _url(access.campaign, "winter_buy"), fields))
    return actions
