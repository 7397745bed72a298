"""War of Kings battles, conquest, resupply, the Event Die and the Marauders: each action loads
the board (locked), calls the pure rules and writes the result with one chronicle event.

An offer of battle is a ``Battle`` row made when an army moves in (``services.move``). In the
Battle Resolution Phase the defender may withdraw ready armies (WOK-BATTLE-2); each round is
fought from the symbols the table rolled (typed in) or rolled by the app from a face table
(WOK-AMB-14, marked "simulated"); after a round with both sides standing the attacker withdraws
or fights on; a won battle over a settlement waits for the capture-or-raze choice (WOK-CONQ-2).
``battle.data`` holds army numbers and kingdom names only, never database ids.
"""

from __future__ import annotations

import copy
import secrets
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from django.db import transaction

from campaign.chronicle import Recorder
from campaign.models import Campaign, Event
from campaign.services import ServiceError
from campaign.systems.war_of_kings import state as st
from campaign.systems.war_of_kings.models import Battle
from campaign.systems.war_of_kings.rules import board as wb
from campaign.systems.war_of_kings.rules import conquest
from campaign.systems.war_of_kings.rules.armies import (
    draws_event_card,
    resupply,
    resupply_check,
)
from campaign.systems.war_of_kings.rules.battle import (
    BLANK,
    FLAIL,
    SHIELD,
    WARHAMMER,
    Rolls,
    attacker_withdraw,
    defender_withdraw,
    fight_round,
    read_faces,
)
from campaign.systems.war_of_kings.rules.options import DEFAULTS, Options

# WOK-AMB-14: the rulebook gives no face counts; the campaign's options say how many faces of
# each die carry each symbol (8-sided red and blue, 6-sided purple and grey; these are the
# defaults), and every result rolled with them is marked as simulated in the chronicle.
RED_FACES = DEFAULTS.face_table("red")
BLUE_FACES = DEFAULTS.face_table("blue")
PURPLE_FACES = DEFAULTS.face_table("purple")
GREY_FACES = DEFAULTS.face_table("grey")


def _open(campaign: Campaign) -> st.Loaded:
    loaded = st.load(campaign, lock=True)
    if loaded.over:
        raise ServiceError("The game is over; nothing more can change (WOK-WIN-1).")
    return loaded


def _refuse(exc: wb.RuleViolation) -> ServiceError:
    return ServiceError(str(exc))


def _battle(loaded: st.Loaded, number: int) -> Battle:
    battle = (Battle.objects.select_for_update().filter(campaign=loaded.campaign, number=number)
              .select_related("tile").first())
    if battle is None:
        raise ServiceError(f"There is no battle {number} in this game.")
    if battle.status != Battle.Status.PENDING:
        raise ServiceError(f"Battle {number} is over (WOK-BATTLE-11).")
    return battle


def _attackers(loaded: st.Loaded, battle: Battle) -> list[str]:
    here = battle.tile.label
    return [st.army_id(n) for n in battle.data.get("attackers", [])
            if st.army_id(n) in {a.id for a in loaded.state.armies_in(here)}]


def simulate(roll: Callable[[int], int], red: int, blue: int, purple: int, grey: int,
             *, attacker_side: bool, options: Options = DEFAULTS) -> tuple[str, ...]:
    """Symbols of one roll from the campaign's face tables: ``attacker_side`` rolls red, else
    blue; then purple and grey dice (WOK-AMB-14)."""
    main = options.face_table("red" if attacker_side else "blue")
    faces: tuple[str, ...] = ()
    for table, count in ((main, red if attacker_side else blue),
                         (options.face_table("purple"), purple),
                         (options.face_table("grey"), grey)):
        faces += read_faces(table, [roll(len(table)) for _ in range(count)])
    return faces


def _server_roll(sides: int) -> int:
    return secrets.randbelow(sides) + 1


def fight(campaign: Campaign, user: Any, number: int, rolls: Rolls | None = None,
          roll: Callable[[int], int] | None = None, card_att: int = 0,
          card_def: int = 0, to_defenders: dict[int, int] | None = None,
          to_attackers: dict[int, int] | None = None) -> Event:
    """WOK-BATTLE-6..12: one battle round from the symbols typed in (``rolls``), or rolled by the
    app from the face tables; damage is allocated in the opponent's favour, armies at 3 counters
    removed, and the outcome recorded. A won offer over a settlement waits for the choice to
    capture or raze (WOK-CONQ-2); over empty land the attacker conquers at once. The side
    placing damage may choose another allocation that finishes as many armies
    (``to_defenders`` / ``to_attackers``: army number to counters, WOK-BATTLE-12, WOK-AMB-10).
    """
    with transaction.atomic():
        loaded = _open(campaign)
        battle = _battle(loaded, number)
        state = loaded.state
        allowed = (wb.BATTLE_RESOLUTION, wb.EXPLORATION) if battle.data.get("ambush") \
            else (wb.EVENT_DIE,) if battle.data.get("marauder_card") else (wb.BATTLE_RESOLUTION,)
        if state.phase not in allowed:
            raise ServiceError("WOK-BATTLE-1: offers of battle are resolved in the Battle "
                               "Resolution Phase (an ambush at once, WOK-AMB-9).")
        if battle.data.get("won"):
            raise ServiceError("WOK-CONQ-2: the attacker has won; capture or raze first.")
        here = battle.tile.label
        attackers = _attackers(loaded, battle)
        explorers = attackers
        ambush = bool(battle.data.get("ambush"))
        defenders_given = None
        if ambush:
            # WOK-AMB-9: in an ambush the Marauders roll the attacker's dice and the explorers
            # the defender's, with no fortification dice; the explorer keeps the attacker's
            # choice to withdraw or fight on.
            attackers = [a.id for a in state.armies_in(here, wb.MALADOR)]
            defenders_given = explorers
        simulated = rolls is None
        try:
            if rolls is None:
                from campaign.systems.war_of_kings.rules.battle import dice_for_round

                holder = state.ctrl(here)
                defenders = (defenders_given if ambush else
                             state.armies_in(here, holder) if holder else ())
                dice = dice_for_round(len(attackers), len(defenders),
                                      state.lvl(here) if not defenders else 0,
                                      0 if ambush else state.fort(here),
                                      card_att, card_def, loaded.options)
                rng = roll or _server_roll
                opts = loaded.options
                rolls = Rolls(
                    simulate(rng, dice.attack - dice.bonus_att, 0, dice.bonus_att, 0,
                             attacker_side=True, options=opts),
                    simulate(rng, 0, dice.defense - dice.bonus_def - dice.fortification,
                             dice.bonus_def, dice.fortification, attacker_side=False,
                             options=opts),
                    simulate(rng, 0, dice.counter - dice.bonus_def, dice.bonus_def, 0,
                             attacker_side=False, options=opts),
                    simulate(rng, dice.negation - dice.bonus_att, 0, dice.bonus_att, 0,
                             attacker_side=True, options=opts))
            def ids(chosen: dict[int, int] | None) -> dict[str, int] | None:
                return None if chosen is None else {st.army_id(n): h for n, h in chosen.items()}

            result = fight_round(state, here, attackers, rolls, defenders=defenders_given,
                                 militia_damage=battle.data.get("militia_damage", 0),
                                 card_att=card_att, card_def=card_def, fortified=not ambush,
                                 defender_allocation=ids(to_defenders),
                                 attacker_allocation=ids(to_attackers),
                                 options=loaded.options,
                                 to_raze=bool(battle.data.get("raze")))
        except wb.RuleViolation as exc:
            raise _refuse(exc) from None
        new = result.state
        data = copy.deepcopy(battle.data)
        data["militia_damage"] = result.militia_damage
        data.setdefault("rounds", []).append({
            "attack": list(rolls.attack), "defense": list(rolls.defense),
            "counter": list(rolls.counter), "negation": list(rolls.negation),
            "hits": result.hits, "shields": result.shields,
            "counter_hits": result.counter_hits, "counter_shields": result.counter_shields,
            "removed": [int(a[1:]) for a in result.removed],
            "outcome": result.outcome if not ambush else {
                "attacker_wins": "defender_wins", "defender_wins": "attacker_wins",
                "both_wiped": "defender_wins"}.get(result.outcome, result.outcome),
            "simulated": simulated})
        status = battle.status
        attacker = state.army(attackers[0]).owner
        outcome = result.outcome
        if ambush:
            # The explorer's side: it wins when the Marauders are gone (WOK-AMB-9).
            outcome = {"attacker_wins": "defender_wins", "defender_wins": "attacker_wins"}.get(
                outcome, outcome)
            attacker = state.army(explorers[0]).owner
            if outcome == "both_wiped":
                outcome = "defender_wins"
        if outcome == "attacker_wins":
            if new.lvl(here):
                data["won"] = True
            elif attacker == wb.MALADOR:
                new = conquest.malador_takes(new, here, BLANK).state
                status = Battle.Status.FOUGHT
            else:
                new = conquest.conquer(new, here, attacker, options=loaded.options).state
                status = Battle.Status.FOUGHT
        elif outcome in ("defender_wins", "both_wiped"):
            status = Battle.Status.FOUGHT
        words = {"attacker_wins": f"{attacker} wins", "defender_wins": "the defender holds",
                 "both_wiped": "both sides fall; the defender keeps it",
                 "continue": "both sides stand"}[outcome]
        summary = (f"Battle {number} in {here}, round {len(data['rounds'])}: {result.hits} hits "
                   f"against {result.shields} shields, {result.counter_hits} back against "
                   f"{result.counter_shields}; {words} (WOK-BATTLE-11)"
                   + (", rolled by the app (simulated)." if simulated else "."))
        with Recorder(loaded.campaign, user, "wok.battle", summary,
                      data={"battle": number}) as rec:
            st.apply(rec, loaded, new, rule_id="WOK-BATTLE-7", source=summary[:120])
            rec.update(battle, data=data, status=status)
        return rec.event  # type: ignore[return-value]


def withdraw(campaign: Campaign, user: Any, number: int, army: int, to: str = "",
             acting: str | None = None, forced_march: bool = False) -> Event:
    """WOK-BATTLE-2, WOK-BATTLE-4, WOK-BATTLE-11: a defending army withdraws to a neighbouring
    territory of its side (ready armies only, or an unready one by Forced March where the
    campaign plays v0.6's ruling, WOK-V06-20); or, after a round with both sides standing, the
    attacker pulls every remaining army back where it came from. If every defending army has
    gone, the attacker takes the territory without a militia. ``acting`` is the player's
    kingdom (None for a GM): the attacker decides for its armies, a defender for its own, and
    the player to the active player's left for the Malador (WOK-MAL-9, WOK-BATTLE-14). Armies
    that explored into Malador forces may pull back before any round (WOK-AMB-8)."""
    with transaction.atomic():
        loaded = _open(campaign)
        battle = _battle(loaded, number)
        state = loaded.state
        here = battle.tile.label
        attackers = _attackers(loaded, battle)
        ident = st.army_id(army)
        data = dict(battle.data)
        status = battle.status
        if ident not in attackers and ident not in {a.id for a in state.armies_in(here)}:
            raise ServiceError(f"Army {army} is not in battle {number}.")
        side = state.army(ident).owner
        if acting is not None:
            decider = side
            if side == wb.MALADOR:
                try:
                    decider = conquest.malador_decider(state)
                except wb.RuleViolation as exc:
                    raise _refuse(exc) from None
            if acting != decider:
                raise ServiceError(f"WOK-BATTLE-2: {decider} decides for army {army}"
                                   + (" (the player to the active player's left runs the "
                                      "Malador, WOK-MAL-9)." if side == wb.MALADOR else "."))
        try:
            if ident in attackers:
                if forced_march:
                    raise ServiceError("WOK-V06-20: Forced March lets a defending army "
                                       "withdraw; attackers pull back without it.")
                fought = bool(data.get("rounds"))
                if not (fought and data["rounds"][-1]["outcome"] == "continue") and not (
                        data.get("explored") and not data.get("ambush") and not fought):
                    raise ServiceError("WOK-BATTLE-1: the attacker is committed to at least one "
                                       "round before withdrawing (FAQ 6).")
                new = attacker_withdraw(state, attackers)
                status = Battle.Status.FOUGHT
                data["militia_damage"] = 0
                summary = f"The attackers withdraw from {here} (WOK-BATTLE-11)."
            else:
                if to not in loaded.tiles:
                    raise ServiceError(f"There is no territory {to} on this board.")
                new = defender_withdraw(state, here, ident, to, forced_march, loaded.options)
                summary = (f"Army {army} withdraws from {here} to {to} by Forced March "
                           "(WOK-V06-20)." if forced_march else
                           f"Army {army} withdraws from {here} to {to} (WOK-BATTLE-2).")
                holder = state.ctrl(here)
                if attackers and not new.armies_in(here, holder):
                    owner = state.army(attackers[0]).owner
                    for a in attackers:
                        new = new.with_army(replace(new.army(a), ready=False))
                    if new.lvl(here):
                        data["won"] = True
                    else:
                        new = conquest.conquer(new, here, owner, options=loaded.options).state
                        status = Battle.Status.FOUGHT
                    summary += f" No defender is left: {owner} takes it (WOK-BATTLE-4)."
        except wb.RuleViolation as exc:
            raise _refuse(exc) from None
        with Recorder(loaded.campaign, user, "wok.withdraw", summary,
                      data={"battle": number}) as rec:
            st.apply(rec, loaded, new, rule_id="WOK-BATTLE-2", source=summary[:120])
            rec.update(battle, data=data, status=status)
        return rec.event  # type: ignore[return-value]


def settle_conquest(campaign: Campaign, user: Any, number: int, raze: bool,
                    blue_face: str = "", acting: str | None = None) -> Event:
    """WOK-CONQ-2..7: the winner captures the settlement as it stands, or razes it with its
    fortification for Table 8's loot; every kingdom's ledger follows from the board. The
    Malador do not choose: one blue Battle Die (``blue_face``) razes on a flail and keeps the
    settlement otherwise, with no loot for anyone (WOK-MAL-8, WOK-MAL-1); the player to the
    active player's left rolls it (``acting``, the player's kingdom; None for a GM,
    WOK-MAL-9)."""
    with transaction.atomic():
        loaded = _open(campaign)
        battle = _battle(loaded, number)
        if not battle.data.get("won"):
            raise ServiceError("WOK-CONQ-2: the battle is not won yet.")
        here = battle.tile.label
        attackers = _attackers(loaded, battle)
        owner = loaded.state.army(attackers[0]).owner if attackers else (
            battle.attacker.name if battle.attacker else wb.MALADOR)
        try:
            if owner == wb.MALADOR:
                decider = conquest.malador_decider(loaded.state)
                if acting is not None and acting != decider:
                    raise ServiceError(f"WOK-MAL-9: {decider}, to the left of "
                                       f"{loaded.state.active}, rolls the blue die for the "
                                       "Malador.")
                if blue_face not in (FLAIL, WARHAMMER, SHIELD, BLANK):
                    raise ServiceError("WOK-MAL-8: give the face of the blue Battle Die rolled "
                                       "for the Malador.")
                done = conquest.malador_takes(loaded.state, here, blue_face)
                raze = done.razed
            else:
                if battle.data.get("raze") and not raze:
                    raise ServiceError(f"WOK-MIL-6: {owner} fought the militia of {here} to "
                                       "raze the settlement; it is razed, not captured.")
                done = conquest.conquer(loaded.state, here, owner, raze, loaded.options)
        except wb.RuleViolation as exc:
            raise _refuse(exc) from None
        if owner == wb.MALADOR:
            summary = (f"The Malador roll {blue_face}: they "
                       + ("raze" if raze else "keep") + f" the settlement in {here} (WOK-MAL-8).")
        else:
            summary = (f"{owner} razes the settlement in {here} and takes "
                       f"{done.loot.describe()} (WOK-CONQ-6)." if raze else
                       f"{owner} captures the settlement in {here} (WOK-CONQ-3).")
        with Recorder(loaded.campaign, user, "wok.conquest", summary,
                      data={"battle": number}) as rec:
            st.apply(rec, loaded, done.state,
                     rule_id="WOK-MAL-8" if owner == wb.MALADOR else
                     "WOK-CONQ-6" if raze else "WOK-CONQ-3", source=f"conquest of {here}")
            rec.update(battle, data={**battle.data, "won": False, "razed": raze},
                       status=Battle.Status.FOUGHT)
        return rec.event  # type: ignore[return-value]


def resupply_armies(campaign: Campaign, user: Any, numbers: Sequence[int]) -> Event:
    """WOK-RESUPPLY-1..3: in the active player's Supply Phase, 2 gold each removes all damage of
    ready armies in or road-linked to a town or city."""
    with transaction.atomic():
        loaded = _open(campaign)
        ids = [st.army_id(n) for n in numbers]
        if not ids:
            raise ServiceError("Choose the armies to resupply (WOK-RESUPPLY-1).")
        if loaded.state.phase != wb.SUPPLY:
            raise ServiceError("WOK-RESUPPLY-1: armies are resupplied in their owner's Supply "
                               "Phase.")
        try:
            new = resupply(loaded.state, ids, loaded.options)
        except wb.RuleViolation as exc:
            raise _refuse(exc) from None
        owner = loaded.state.army(ids[0]).owner
        summary = (f"{owner} resupplies armies {', '.join(map(str, numbers))} for "
                   f"{2 * len(ids)} gold (WOK-RESUPPLY-1).")
        with Recorder(loaded.campaign, user, "wok.resupply", summary) as rec:
            st.apply(rec, loaded, new, rule_id="WOK-RESUPPLY-1", source="resupply")
        return rec.event  # type: ignore[return-value]


def resupply_options(loaded: st.Loaded, kingdom: str) -> list[tuple[int, bool, str]]:
    """Each army of the kingdom with whether it may be resupplied and why (WOK-RESUPPLY-1)."""
    rows = []
    for army in loaded.state.armies_of(kingdom):
        check = resupply_check(loaded.state, army.id, loaded.options)
        rows.append((int(army.id[1:]), check.eligible, check.reason))
    return rows


def event_die(campaign: Campaign, user: Any, face: str, colour: str) -> Event:
    """WOK-EVENT-1, WOK-EVENT-2, WOK-ECON-3: the active player's Event Die and Resource Die;
    a card drawn adds to the count of Event Cards in their hand (the cards themselves stay at
    the table); the axe sends them to the Marauder deck. The die pays no resources."""
    with transaction.atomic():
        loaded = _open(campaign)
        state = loaded.state
        if state.phase != wb.EVENT_DIE or state.active is None:
            raise ServiceError("WOK-EVENT-1: the Event Die is rolled in the Event Die Phase.")
        try:
            draws = draws_event_card(state, state.active, face, colour)
        except wb.RuleViolation as exc:
            raise _refuse(exc) from None
        kingdom = loaded.by_name[state.active]
        summary = (f"{state.active} rolls {face} and {colour}: "
                   + ("draws the top Marauder card (WOK-MAL-16)." if face == "axe" else
                      "draws an Event Card (WOK-EVENT-2)." if draws else
                      "no card (WOK-EVENT-2)."))
        with Recorder(loaded.campaign, user, "wok.event_die", summary,
                      data={"face": face, "colour": colour}) as rec:
            if draws:
                data = dict(kingdom.data or {})
                data["event_cards"] = int(data.get("event_cards", 0)) + 1
                rec.update(kingdom, data=data)
        return rec.event  # type: ignore[return-value]


def place_marauders(campaign: Campaign, user: Any, territory: str, count: int) -> Event:
    """WOK-MAL-12..15, WOK-EXPL-5: Marauder armies placed by a card, unready, never in a
    player's territory or the winter centre; an orange marker goes with them."""
    with transaction.atomic():
        loaded = _open(campaign)
        if territory not in loaded.tiles:
            raise ServiceError(f"There is no territory {territory} on this board.")
        if not 1 <= count <= 5:
            raise ServiceError("Place 1 to 5 Marauder armies at a time.")
        first = st.next_army_number(loaded)
        ids = [st.army_id(first + i) for i in range(count)]
        try:
            new = conquest.place_marauders(loaded.state, territory, ids)
        except wb.RuleViolation as exc:
            raise _refuse(exc) from None
        summary = f"{count} Marauder arm{'y' if count == 1 else 'ies'} enter {territory} " \
                  "(WOK-MAL-12)."
        with Recorder(loaded.campaign, user, "wok.marauders", summary) as rec:
            st.apply(rec, loaded, new, rule_id="WOK-MAL-12", source=summary[:120])
        return rec.event  # type: ignore[return-value]


def take_card(campaign: Campaign, user: Any, kingdom: Any, name: str, effect: str = "") -> Event:
    """WOK-EVENT-4, WOK-EVENT-5, WOK-VAR-3: a card drawn at the table is written into the
    player's hand by name, with its effect in the players' words; the hand is secret, so the
    event is seen by that kingdom and the GMs only."""
    from campaign.models import Visibility
    from campaign.systems.war_of_kings.models import Card

    name, effect = name.strip(), effect.strip()
    if not name or len(name) > 60 or len(effect) > 300:
        raise ServiceError("Give the card's name (up to 60 letters) and, if you like, its "
                           "effect (up to 300).")
    with transaction.atomic():
        loaded = _open(campaign)
        if kingdom.pk not in loaded.kingdoms:
            raise ServiceError("That kingdom is not in this campaign.")
        with Recorder(loaded.campaign, user, "wok.card", f"{kingdom.name} takes {name} into "
                      "its hand (WOK-EVENT-4).", visibility=Visibility.KINGDOM,
                      kingdom=kingdom) as rec:
            rec.create(Card(campaign=loaded.campaign, holder=kingdom, name=name, effect=effect,
                            drawn_round=loaded.state.round))
        return rec.event  # type: ignore[return-value]


def play_card(campaign: Campaign, user: Any, kingdom: Any, card_id: int,
              to: Any = None) -> Event:
    """WOK-EVENT-4, WOK-EVENT-5, WOK-AMB-26: a card is played (shown to everyone; its effect is
    applied at the table or by the GM's adjustments), or handed to another kingdom when the
    campaign allows Event Cards to be traded (v1.01; not in v0.6, WOK-V06-14)."""
    from campaign.models import Visibility
    from campaign.systems.war_of_kings.models import Card

    with transaction.atomic():
        loaded = _open(campaign)
        card = Card.objects.select_for_update().filter(pk=card_id, holder=kingdom,
                                                       played_round__isnull=True).first()
        if card is None:
            raise ServiceError("That card is not in this kingdom's hand.")
        if to is not None:
            if not loaded.options.event_card_trading:
                raise ServiceError("WOK-V06-14: Event Cards may not be traded in this campaign.")
            if to.pk == kingdom.pk or to.pk not in loaded.kingdoms:
                raise ServiceError("Hand the card to another kingdom of this campaign.")
            with Recorder(loaded.campaign, user, "wok.card", f"{kingdom.name} hands a card to "
                          f"{to.name} (WOK-AMB-26).") as rec:
                rec.update(card, holder=to)
            return rec.event  # type: ignore[return-value]
        summary = f"{kingdom.name} plays {card.name}" + (f": {card.effect}" if card.effect
                                                         else ".")
        with Recorder(loaded.campaign, user, "wok.card", summary[:500],
                      visibility=Visibility.PUBLIC) as rec:
            rec.update(card, played_round=loaded.state.round)
        return rec.event  # type: ignore[return-value]


def marauders_move(campaign: Campaign, user: Any, number: int, to: str,
                   acting: str | None = None, forced_march: bool = False) -> Event:
    """WOK-MAL-9, WOK-MAL-13, WOK-MAL-16, WOK-MOVE-7: a Marauder card moves a Marauder army,
    as the player to the active player's left decides (``acting``; None for a GM). It never
    enters unexplored land; an empty territory of a player is taken at once; otherwise an offer
    of battle is fought in this Event Die Phase. The player running them may play their own
    Forced March on the one army (``forced_march``: one territory more, WOK-MAL-4,
    WOK-MOVE-8)."""
    from campaign.systems.war_of_kings import services
    from campaign.systems.war_of_kings.rules.armies import arrival, destinations

    with transaction.atomic():
        loaded = _open(campaign)
        state = loaded.state
        ident = st.army_id(number)
        if ident not in loaded.armies or state.army(ident).owner != wb.MALADOR:
            raise ServiceError(f"Army {number} is not a Marauder army.")
        if state.phase != wb.EVENT_DIE:
            raise ServiceError("WOK-MAL-16: Marauder cards are carried out in the Event Die "
                               "Phase.")
        try:
            decider = conquest.malador_decider(state)
        except wb.RuleViolation as exc:
            raise _refuse(exc) from None
        if acting is not None and acting != decider:
            raise ServiceError(f"WOK-MAL-9: {decider}, to the left of {state.active}, moves "
                               "the Marauders.")
        army = state.army(ident)
        paths = destinations(state, ident, forced_march)
        if to not in paths:
            raise ServiceError(f"WOK-MOVE-7: the Marauders in {army.territory} cannot reach "
                               f"{to} (never into unexplored land"
                               + ("" if forced_march else "; Forced March goes one further")
                               + ").")
        moved = replace(army, territory=to, ready=False, came_from=paths[to][-2])
        new = state.with_army(moved)
        result = arrival(new, moved)
        if result.outcome == "conquered":
            new = new.with_holding(to, replace(new.holding(to), controller=wb.MALADOR))
        elif result.outcome == "liberate":
            new = conquest.liberate(new, to, ident)
        summary = (f"Marauder army {number} moves from {army.territory} to {to}"
                   f"{' by Forced March (WOK-MAL-4)' if forced_march else ''}: {result.reason}")
        with Recorder(loaded.campaign, user, "wok.marauders", summary[:500]) as rec:
            st.apply(rec, loaded, new, rule_id="WOK-MAL-16", source=summary[:120])
            if result.outcome == "battle":
                services.offer_battle(rec, loaded, to, wb.MALADOR, [number],
                                      marauder_card=True)
        return rec.event  # type: ignore[return-value]
