"""War of Kings: conquest, capture and razing (WOK-CONQ-*), liberation, the Malador's pieces and
choices (WOK-MAL-*), capitals (WOK-CAP-*), elimination and forfeiture (WOK-ELIM-*).

Every kingdom's ledger, gold and achievements are read from the board, so they follow any change
here at once (WOK-CONQ-7, WOK-TURN-4).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from campaign.systems.war_of_kings.rules.battle import FLAIL
from campaign.systems.war_of_kings.rules.board import (
    CITY,
    MALADOR,
    NO_SETTLEMENT,
    TOWN,
    VILLAGE,
    Army,
    GameState,
    Holding,
    RuleViolation,
    Stock,
    who,
)
from campaign.systems.war_of_kings.rules.options import DEFAULTS, TO_MALADOR, V06, Options

#: WOK-CONQ-6, Table 8 (gold, timber, wheat, cattle, stone).
RAZE_LOOT = {
    VILLAGE: Stock(gold=2, timber=1, wheat=1, cattle=1),
    TOWN: Stock(gold=5, timber=3, wheat=3, cattle=3),
    CITY: Stock(gold=9, timber=5, wheat=5, cattle=6, stone=2),
}
#: WOK-V06-10: the preview's city loot.
V06_RAZE_CITY = Stock(gold=9, timber=5, wheat=5, cattle=5, stone=1)


def raze_loot(level: int, options: Options = DEFAULTS) -> Stock:
    """WOK-CONQ-6, WOK-V06-10; a fortification adds nothing (WOK-FORT-12)."""
    if level == NO_SETTLEMENT:
        raise RuleViolation("WOK-CONQ-5: there is no settlement to raze.")
    if level == CITY and options.raze_loot == V06:
        return V06_RAZE_CITY
    return RAZE_LOOT[level]


@dataclass(frozen=True)
class Conquest:
    """The state after a conquest, and any loot taken from the market."""

    state: GameState
    razed: bool = False
    loot: Stock = Stock()


def conquer(state: GameState, territory: str, conqueror: str, raze: bool = False,
            options: Options = DEFAULTS) -> Conquest:
    """WOK-CONQ-1..3, WOK-CONQ-5..7, WOK-FORT-12: the conqueror's marker replaces the old one.
    A settlement is captured as it stands (culture, level and fortification unchanged; it works
    for the new controller at once) or razed with its fortification for Table 8 loot. A capital
    taken stays its owner's capital (WOK-CAP-1). The Malador decide by die: see
    :func:`malador_takes`."""
    if conqueror == MALADOR:
        raise RuleViolation("WOK-MAL-8: the Malador capture or raze by the roll of a blue "
                            "Battle Die.")
    holding = state.holding(territory)
    if not state.map.territory(territory).playable:
        raise RuleViolation(f"WOK-BOARD-3: {territory} can never be controlled.")
    if not raze:
        return Conquest(state.with_holding(territory, replace(holding, controller=conqueror)))
    loot = raze_loot(holding.level, options)
    state = state.with_holding(territory, Holding(conqueror))
    state = state.with_stock(conqueror, state.stock(conqueror) + loot)
    return Conquest(state, True, loot)


def malador_takes(state: GameState, territory: str, blue_face: str) -> Conquest:
    """WOK-MAL-8, WOK-MAL-1: the Malador take a territory; if it holds a settlement, a flail on
    one blue Battle Die razes it with its fortification and nobody gains anything; any other face
    keeps it. An orange marker goes in either way."""
    holding = state.holding(territory)
    if holding.level and blue_face == FLAIL:
        return Conquest(state.with_holding(territory, Holding(MALADOR)), True)
    return Conquest(state.with_holding(territory, replace(holding, controller=MALADOR)))


def liberate(state: GameState, territory: str, army_id: str, raze: bool = False) -> GameState:
    """WOK-CONQ-4, WOK-MIL-6, WOK-CULT-3, WOK-AMB-24: an undefended settlement of the arriving
    army's culture (the Malador's too) changes hands without battle. To raze it instead, the
    inhabitants muster a militia and fight first."""
    army = state.army(army_id)
    holding = state.holding(territory)
    if army.territory != territory:
        raise RuleViolation(f"WOK-MIL-6: {army_id} is not in {territory}.")
    if not holding.level or holding.culture != army.culture:
        raise RuleViolation(f"WOK-MIL-6: only a settlement of {army.culture}'s culture is "
                            "liberated.")
    if state.armies_in(territory, holding.controller):
        raise RuleViolation(f"WOK-MIL-3: {territory} is defended by armies; fight them.")
    if raze:
        raise RuleViolation("WOK-MIL-6: to raze a liberated settlement, defeat its militia "
                            "first.")
    return state.with_holding(territory, replace(holding, controller=army.owner))


def rebel(state: GameState, territory: str, options: Options = DEFAULTS) -> GameState:
    """WOK-MAL-17, WOK-CULT-5, WOK-AMB-21: a settlement of another culture than its controller,
    with no army in its territory, rebels to the kingdom of its culture (to the Malador if that
    culture is the Malador's or out of the game); under v0.6 always to the Malador
    (WOK-V06-19)."""
    holding = state.holding(territory)
    if not holding.level or holding.culture == holding.controller:
        raise RuleViolation(f"WOK-MAL-17: only a settlement of a foreign culture rebels; "
                            f"{territory}'s is {who(holding.culture)} under "
                            f"{who(holding.controller)}.")
    if state.armies_in(territory):
        raise RuleViolation(f"WOK-MAL-17: an army stands in {territory}; no rebellion.")
    to = holding.culture
    if options.rebellion_to == TO_MALADOR or to not in state.kingdoms:
        to = MALADOR
    return state.with_holding(territory, replace(holding, controller=to))


def place_marauders(state: GameState, territory: str, army_ids: Sequence[str]) -> GameState:
    """WOK-MAL-12, WOK-MAL-14, WOK-MAL-15, WOK-EXPL-5: Marauder armies enter unready, never in a
    player's territory or the winter centre; in an empty territory an orange marker comes with
    them and stays after they leave."""
    terr = state.map.territory(territory)
    holder = state.ctrl(territory)
    if not terr.playable:
        raise RuleViolation(f"WOK-MAL-15: Marauders are never placed in {territory}.")
    if holder is not None and holder != MALADOR:
        raise RuleViolation(f"WOK-MAL-15: Marauders are never placed in a territory a player "
                            f"controls; {territory} is {holder}'s.")
    if holder is None:
        state = state.with_holding(territory, replace(state.holding(territory),
                                                      controller=MALADOR))
    for army_id in army_ids:
        if any(a.id == army_id for a in state.armies):
            raise RuleViolation(f"WOK-MAL-12: an army {army_id!r} is already on the board.")
        state = state.with_army(Army(army_id, MALADOR, territory, ready=False))
    return state


def malador_decider(state: GameState) -> str:
    """WOK-MAL-9, WOK-BATTLE-14: the player to the active player's left decides and rolls for
    the Malador."""
    if state.active is None:
        raise RuleViolation("WOK-MAL-9: the Malador are run only during a player's turn.")
    order = [k for k in state.seats if k in state.kingdoms]
    return order[(order.index(state.active) + 1) % len(order)]


def is_eliminated(state: GameState, kingdom: str) -> bool:
    """WOK-ELIM-1: no armies on the board and no settlement under its control; empty
    territories do not save a kingdom."""
    return not state.armies_of(kingdom) and not any(
        state.lvl(t) for t in state.controlled(kingdom))


def eliminate(state: GameState, kingdom: str, options: Options = DEFAULTS) -> GameState:
    """WOK-ELIM-1, WOK-AMB-19: the kingdom leaves the game; its empty territories pass to the
    Malador (or become uncontrolled under ``eliminated_territories == "uncontrolled"``). Its
    exclusive cards go back at the next check (``achievements.update_holders``)."""
    if not is_eliminated(state, kingdom):
        raise RuleViolation(f"WOK-ELIM-1: {kingdom} still has armies or settlements.")
    to = MALADOR if options.eliminated_territories == TO_MALADOR else None
    for code in state.controlled(kingdom):
        state = state.with_holding(code, replace(state.holding(code), controller=to))
    return replace(state, eliminated=state.eliminated | {kingdom})


def forfeit(state: GameState, kingdom: str) -> GameState:
    """WOK-ELIM-2, WOK-AMB-20: from the moment of forfeiture the kingdom is the Malador's: every
    territory and army passes to them, cultures stay as printed, the player no longer scores."""
    for code in state.controlled(kingdom):
        state = state.with_holding(code, replace(state.holding(code), controller=MALADOR))
    state = replace(state, armies=tuple(replace(a, owner=MALADOR) if a.owner == kingdom else a
                                        for a in state.armies))
    return replace(state, forfeited=state.forfeited | {kingdom})

