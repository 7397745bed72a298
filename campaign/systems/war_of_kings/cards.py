"""What cards do to the board, applied through services (WOK-EVENT-5, WOK-MAL-16, WOK-MAL-17).

The rulebook prints no card texts, so a card is recorded by name (``Card``) and the GM carries
out what it says with one of these actions, each naming the card and a reason that the chronicle
and, for goods, the ledger show: a change of stockpile, damage or readiness of an army, a new
army placed, a road laid. The Rebellion a Marauder card ("Incite Revolt") sets off, and the
dice a card adds in battle (Heroic Charge, Shield Wall: the battle form's card dice) and Forced
March (the move form) have their own rules. Each action loads the board locked, changes it
through the rules' state and writes it back in one chronicle event, so undo restores it exactly.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from django.db import transaction

from campaign.chronicle import Recorder
from campaign.models import Campaign, Event, Kingdom
from campaign.services import ServiceError
from campaign.systems.war_of_kings import state as st
from campaign.systems.war_of_kings.rules import board as wb
from campaign.systems.war_of_kings.rules import conquest
from campaign.systems.war_of_kings.rules.battle import MAX_DAMAGE

CARD_RULE = "WOK-EVENT-5"
#: WOK-MAL-17: the Marauder card that sets off a rebellion (its name in the FAQ).
INCITE_REVOLT = "Incite Revolt"


def _open(campaign: Campaign) -> st.Loaded:
    loaded = st.load(campaign, lock=True)
    if not loaded.started:
        raise ServiceError("Set up the game first (WOK-SETUP-4).")
    if loaded.over:
        raise ServiceError("The game is over; nothing more can change (WOK-WIN-1).")
    return loaded


def _words(card: str, reason: str) -> tuple[str, str]:
    """The card's name and the reason, both required (WOK-EVENT-5: the effect is the players'
    to state, so the record says which card and why)."""
    card, reason = card.strip(), reason.strip()
    if not card or len(card) > 60:
        raise ServiceError(f"{CARD_RULE}: name the card (up to 60 letters).")
    if not reason or len(reason) > 120:
        raise ServiceError(f"{CARD_RULE}: say what the card does here (a reason, up to 120 "
                           "letters).")
    return card, reason


def _signed(amount: int, resource: str) -> str:
    return f"{amount:+d} {resource}"


def adjust_stockpile(campaign: Campaign, user: Any, kingdom: Kingdom,
                     changes: Mapping[str, int], card: str, reason: str) -> Event:
    """WOK-EVENT-5, WOK-ECON-3 (HUMAN: income changed by cards): the GM adds to or takes from
    a kingdom's stockpile what a card says, gold or any resource. Each line goes into the
    ledger citing WOK-EVENT-5 with the card's name and the reason; a stockpile never goes below
    zero: it is what the kingdom owns (WOK-LEDGER-2)."""
    card, reason = _words(card, reason)
    unknown = sorted(set(changes) - set(st.STOCK_FIELDS))
    if unknown:
        raise ServiceError(f"{unknown[0]!r} is not gold or a resource (WOK-ECON-1).")
    changes = {r: changes[r] for r in st.STOCK_FIELDS if changes.get(r)}
    if not changes:
        raise ServiceError(f"{CARD_RULE}: say what the card adds or takes.")
    with transaction.atomic():
        loaded = _open(campaign)
        if kingdom.pk not in loaded.kingdoms:
            raise ServiceError("That kingdom is not in this campaign.")
        name = loaded.name(kingdom)
        if name not in loaded.state.capitals:
            raise ServiceError(f"{name} has no seat in this game.")
        stock = loaded.state.stock(name)
        for resource, amount in changes.items():
            if stock.amount(resource) + amount < 0:
                raise ServiceError(f"WOK-LEDGER-2: {name} has {stock.amount(resource)} "
                                   f"{resource}; {card} cannot take {-amount}.")
        new_stock = replace(stock, **{r: stock.amount(r) + a for r, a in changes.items()})
        new = loaded.state.with_stock(name, new_stock)
        source = f"card {card}: {reason}"[:120]
        described = ", ".join(_signed(a, r) for r, a in changes.items())
        summary = f"{card}: {name} {described} ({reason}; {CARD_RULE})."
        with Recorder(loaded.campaign, user, "wok.card_effect", summary[:500], kingdom=kingdom,
                      data={"card": card, "effect": "stockpile"}) as rec:
            st.apply(rec, loaded, new, rule_id=CARD_RULE, source=source)
        return rec.event  # type: ignore[return-value]


def change_army(campaign: Campaign, user: Any, number: int, card: str, reason: str,
                damage: int = 0, ready: bool | None = None) -> Event:
    """WOK-EVENT-5, WOK-ARMY-6, WOK-ARMY-5: a card's effect on one army: damage counters added
    (or taken away, never below none), an army reaching 3 counters removed whatever caused them;
    and/or the army made ready or unready."""
    card, reason = _words(card, reason)
    if not -MAX_DAMAGE <= damage <= MAX_DAMAGE:
        raise ServiceError("WOK-ARMY-6: an army carries 0 to 3 damage counters.")
    if not damage and ready is None:
        raise ServiceError(f"{CARD_RULE}: say what the card does to the army.")
    with transaction.atomic():
        loaded = _open(campaign)
        ident = st.army_id(number)
        if ident not in loaded.armies:
            raise ServiceError(f"There is no army {number} on the board.")
        army = loaded.state.army(ident)
        counters = army.damage + damage
        if counters < 0:
            raise ServiceError(f"WOK-ARMY-6: army {number} has {army.damage} damage counters; "
                               f"{card} cannot take away {-damage}.")
        parts = []
        if damage:
            parts.append(f"{damage:+d} damage (now {min(counters, MAX_DAMAGE)})")
        if ready is not None:
            parts.append("ready" if ready else "unready")
        owner = wb.who(army.owner)
        if counters >= MAX_DAMAGE:
            new = loaded.state.without_army(ident)
            parts.append("3 counters: removed (WOK-ARMY-6)")
        else:
            new = loaded.state.with_army(replace(
                army, damage=counters, ready=army.ready if ready is None else ready))
        summary = (f"{card}: {owner} army {number} in {army.territory}, {', '.join(parts)} "
                   f"({reason}; {CARD_RULE}).")
        with Recorder(loaded.campaign, user, "wok.card_effect", summary[:500],
                      data={"card": card, "effect": "army", "army": number}) as rec:
            st.apply(rec, loaded, new, rule_id=CARD_RULE, source=f"card {card}"[:120])
        return rec.event  # type: ignore[return-value]


def place_army(campaign: Campaign, user: Any, kingdom: Kingdom, territory: str, card: str,
               reason: str) -> Event:
    """WOK-EVENT-5, WOK-ARMY-3, WOK-CULT-1: a card brings a new army of the kingdom's culture
    into a territory it controls, unready like every new army; support is checked at the next
    Construction Phase as usual (WOK-ARMY-4). Marauder armies a card brings are placed by
    ``battles.place_marauders`` (WOK-MAL-12)."""
    card, reason = _words(card, reason)
    with transaction.atomic():
        loaded = _open(campaign)
        if kingdom.pk not in loaded.kingdoms:
            raise ServiceError("That kingdom is not in this campaign.")
        name = loaded.name(kingdom)
        if name not in loaded.state.kingdoms:
            raise ServiceError(f"{name} is no longer in the game (WOK-ELIM-1).")
        if territory not in loaded.tiles:
            raise ServiceError(f"There is no territory {territory} on this board.")
        if loaded.state.ctrl(territory) != name:
            raise ServiceError(f"WOK-ARMY-2: a new army goes into a territory of its own "
                               f"kingdom; {territory} is {wb.who(loaded.state.ctrl(territory))}'s.")
        number = st.next_army_number(loaded)
        army = wb.Army(st.army_id(number), name, territory, 0, False, loaded.state.round, name)
        new = loaded.state.with_army(army)
        summary = (f"{card}: a new {name} army {number} enters {territory}, unready "
                   f"({reason}; {CARD_RULE}, WOK-ARMY-3).")
        with Recorder(loaded.campaign, user, "wok.card_effect", summary[:500], kingdom=kingdom,
                      data={"card": card, "effect": "place", "army": number}) as rec:
            st.apply(rec, loaded, new, rule_id=CARD_RULE, source=f"card {card}"[:120])
        return rec.event  # type: ignore[return-value]


def lay_road(campaign: Campaign, user: Any, a: str, b: str, card: str, reason: str) -> Event:
    """WOK-EVENT-5, WOK-EXPL-3, WOK-AMB-18: a card lays a road across a border; like a road
    found by exploring it belongs to nobody and stays, needs no control, and a border takes one
    road at most. The winter centre is road-linked to its neighbours already (WOK-AMB-23)."""
    card, reason = _words(card, reason)
    with transaction.atomic():
        loaded = _open(campaign)
        state = loaded.state
        for code in (a, b):
            if code not in loaded.tiles:
                raise ServiceError(f"There is no territory {code} on this board.")
        if not state.map.adjacent(a, b):
            raise ServiceError(f"WOK-ROAD-1: a road joins two neighbouring territories; {a} and "
                               f"{b} do not touch.")
        if not (state.map.territory(a).playable and state.map.territory(b).playable):
            raise ServiceError("WOK-AMB-23: the winter centre is road-linked to its neighbours "
                               "already; no road is laid there.")
        if wb.border(a, b) in state.roads:
            raise ServiceError(f"WOK-AMB-18: the border {a}–{b} has a road already.")
        new = replace(state, roads=state.roads | {wb.border(a, b)})
        summary = f"{card}: a road is laid between {a} and {b} ({reason}; {CARD_RULE})."
        with Recorder(loaded.campaign, user, "wok.card_effect", summary[:500],
                      data={"card": card, "effect": "road", "where": f"{a}|{b}"}) as rec:
            st.apply(rec, loaded, new, rule_id=CARD_RULE, source=f"card {card}"[:120])
        return rec.event  # type: ignore[return-value]


def rebellion(campaign: Campaign, user: Any, territory: str, acting: str | None = None) -> Event:
    """WOK-MAL-17, WOK-CULT-5, WOK-AMB-21, WOK-MAL-16, WOK-MAL-9: under the Marauder card
    "Incite Revolt", drawn in the active player's Event Die Phase, a settlement of another
    culture than its controller, with no army in its territory, rebels: control passes to the
    kingdom of its culture (to the Malador if that is its culture, if that kingdom is out of the
    game, or always under the v0.6 option, WOK-V06-19). The player to the active player's left
    carries out the card (``acting``; None for a GM). Every kingdom's ledger, gold and
    achievements follow from the board (WOK-TURN-4)."""
    with transaction.atomic():
        loaded = _open(campaign)
        state = loaded.state
        if territory not in loaded.tiles:
            raise ServiceError(f"There is no territory {territory} on this board.")
        if state.phase != wb.EVENT_DIE:
            raise ServiceError("WOK-MAL-16: a Marauder card such as Incite Revolt is carried "
                               "out in the Event Die Phase.")
        try:
            decider = conquest.malador_decider(state)
            if acting is not None and acting != decider:
                raise ServiceError(f"WOK-MAL-9: {decider}, to the left of {state.active}, "
                                   "carries out the Marauder card.")
            before = state.ctrl(territory)
            new = conquest.rebel(state, territory, loaded.options)
        except wb.RuleViolation as exc:
            raise ServiceError(str(exc)) from None
        after = new.ctrl(territory)
        summary = (f"{INCITE_REVOLT}: the {wb.who(state.holding(territory).culture)} settlement "
                   f"in {territory} rebels against {wb.who(before)}; {wb.who(after)} "
                   "takes control (WOK-MAL-17).")
        with Recorder(loaded.campaign, user, "wok.rebellion", summary,
                      data={"card": INCITE_REVOLT, "territory": territory}) as rec:
            st.apply(rec, loaded, new, rule_id="WOK-MAL-17", source=f"rebellion in {territory}")
        return rec.event  # type: ignore[return-value]


def rebels(loaded: st.Loaded) -> list[dict[str, Any]]:
    """Territories whose settlement may rebel now (WOK-MAL-17): a culture other than its
    controller's and no army there, with where control would go."""
    state = loaded.state
    rows = []
    for code in state.map.codes:
        holding = state.holding(code)
        if not holding.level or holding.controller is None:
            continue
        if holding.culture == holding.controller or state.armies_in(code):
            continue
        try:
            to = conquest.rebel(state, code, loaded.options).ctrl(code)
        except wb.RuleViolation:
            continue
        rows.append({"code": code, "holder": holding.controller, "culture": holding.culture,
                     "to": to})
    return rows
