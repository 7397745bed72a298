"""War of Kings: battle resolution from rolled symbols (WOK-BATTLE-*, WOK-MIL-*).

:func:`dice_for_round` says how many dice each of the four rolls of a round takes;
:func:`fight_round` takes the symbols the table rolled, places damage in the opponent's favour
(:func:`allocate`, which the allocating player may replace with any equally valid allocation),
removes finished armies and reports the outcome. Conquest itself is in ``conquest``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from campaign.systems.war_of_kings.rules.board import (
    CITY,
    NO_SETTLEMENT,
    TOWN,
    VILLAGE,
    GameState,
    RuleViolation,
)
from campaign.systems.war_of_kings.rules.options import DEFAULTS, V06, Options

WARHAMMER = "warhammer"
FLAIL = "flail"
SHIELD = "shield"
BLANK = "blank"
#: WOK-V06-9: the preview's dice carry a single sword that hits on attack and counterattack.
SWORD = "sword"
SYMBOLS = (WARHAMMER, FLAIL, SHIELD, BLANK, SWORD)

MAX_DAMAGE = 3
ATTACK_DICE = 4
DEFENSE_DICE = 2
COUNTER_DICE = 4
NEGATION_DICE = 2


@dataclass(frozen=True)
class Militia:
    """WOK-MIL-4, Table 5: hits to defeat it, defend dice and counterattack dice (blue)."""

    damage: int
    defend: int
    counter: int


#: WOK-MIL-4 (v1.01) and WOK-V06-7 (v0.6).
MILITIA = {VILLAGE: Militia(1, 2, 3), TOWN: Militia(2, 2, 3), CITY: Militia(3, 2, 3)}
V06_MILITIA = {VILLAGE: Militia(1, 2, 2), TOWN: Militia(1, 2, 3), CITY: Militia(2, 2, 3)}

#: WOK-FORT-11, Table 7: grey Fortification Dice by fortification level.
FORTIFICATION_DICE = {0: 0, 1: 1, 2: 2, 3: 3}


def militia(level: int, options: Options = DEFAULTS) -> Militia:
    """WOK-MIL-4, WOK-V06-7: the militia a settlement of ``level`` musters."""
    if level == NO_SETTLEMENT:
        raise RuleViolation("WOK-MIL-1: only a settlement musters a militia.")
    return (V06_MILITIA if options.militia == V06 else MILITIA)[level]


def superiority(attackers: int, defenders: int, is_militia: bool = False) -> tuple[int, int]:
    """WOK-BATTLE-6, WOK-MIL-5: one purple die per army of difference for the larger side, on
    both its rolls; a militia counts as one army and never gains them (WOK-AMB-13)."""
    if is_militia:
        defenders = 1
    bonus_att = max(0, attackers - defenders)
    bonus_def = 0 if is_militia else max(0, defenders - attackers)
    return bonus_att, bonus_def


@dataclass(frozen=True)
class Dice:
    """How many dice each roll of a round takes, standard plus purple plus grey."""

    attack: int
    defense: int
    counter: int
    negation: int
    bonus_att: int
    bonus_def: int
    fortification: int


def dice_for_round(attackers: int, defenders: int, militia_level: int = 0, fort: int = 0,
                   card_att: int = 0, card_def: int = 0,
                   options: Options = DEFAULTS) -> Dice:
    """WOK-BATTLE-6..9, WOK-BATTLE-15, WOK-FORT-10, WOK-FORT-11, WOK-MIL-5, WOK-AMB-13: attack
    4 red + bonus; defense 2 blue (militia: its defend dice) + bonus + grey dice for the
    fortification; counterattack 4 blue + bonus (militia: its counter dice + card dice only);
    negation 2 red + bonus. Grey dice join the counterattack only under v0.6 (WOK-V06-8). Card
    dice such as Heroic Charge and Shield Wall add to both rolls of their side and stack
    (WOK-EVENT-5)."""
    is_militia = defenders == 0
    if is_militia and militia_level == NO_SETTLEMENT:
        raise RuleViolation("WOK-BATTLE-11: no defending army and no settlement: nothing to "
                            "fight.")
    bonus_att, bonus_def = superiority(attackers, defenders, is_militia)
    bonus_att += card_att
    bonus_def += card_def
    grey = FORTIFICATION_DICE[fort]
    if is_militia:
        table = militia(militia_level, options)
        defense, counter = table.defend, table.counter
    else:
        defense, counter = DEFENSE_DICE, COUNTER_DICE
    counter_grey = grey if options.fort_dice_on_counterattack else 0
    return Dice(attack=ATTACK_DICE + bonus_att, defense=defense + bonus_def + grey,
                counter=counter + bonus_def + counter_grey, negation=NEGATION_DICE + bonus_att,
                bonus_att=bonus_att, bonus_def=bonus_def, fortification=grey)


def read_faces(face_table: Sequence[str], rolled: Sequence[int]) -> tuple[str, ...]:
    """WOK-AMB-14: the symbols for dice numbers rolled, from a face table the group configures
    (the rulebook gives no face counts); any result computed this way is a simulation."""
    if any(face not in SYMBOLS for face in face_table):
        raise RuleViolation("WOK-AMB-14: a face table lists battle-die symbols only.")
    if any(not 1 <= n <= len(face_table) for n in rolled):
        raise RuleViolation(f"WOK-AMB-14: this die has faces 1 to {len(face_table)}.")
    return tuple(face_table[n - 1] for n in rolled)


def _count(roll: Sequence[str], wanted: int, name: str, *symbols: str) -> int:
    if len(roll) != wanted:
        raise RuleViolation(f"WOK-BATTLE-5: the {name} roll takes {wanted} dice; "
                            f"{len(roll)} were entered.")
    unknown = [face for face in roll if face not in SYMBOLS]
    if unknown:
        raise RuleViolation(f"WOK-BATTLE-5: {unknown[0]!r} is not a battle-die symbol.")
    return sum(1 for face in roll if face in symbols)


def allocate(damage: Mapping[str, int], hits: int) -> dict[str, int]:
    """WOK-BATTLE-12, WOK-AMB-10: the opponent's proposal: finish the armies closest to 3
    counters first (most eliminations), then put what is left on one army; hits beyond wiping
    them all out are lost. Returns hits added per army."""
    added = {army: 0 for army in damage}
    for army in sorted(damage, key=lambda a: (MAX_DAMAGE - damage[a], a)):
        room = MAX_DAMAGE - damage[army]
        take = min(room, hits)
        added[army] = take
        hits -= take
        if hits == 0:
            break
    return added


def check_allocation(damage: Mapping[str, int], hits: int, proposal: Mapping[str, int]) -> None:
    """WOK-BATTLE-12, WOK-AMB-10: an allocation is valid if it places every hit that can be
    placed, eliminates as many armies as the greedy proposal, and leaves at most one army
    partly damaged."""
    if set(proposal) - set(damage) or any(n < 0 for n in proposal.values()):
        raise RuleViolation("WOK-BATTLE-12: damage goes only on the armies of the side hit.")
    if any(damage[a] + n > MAX_DAMAGE for a, n in proposal.items()):
        raise RuleViolation("WOK-ARMY-6: no army carries more than 3 damage counters.")
    best = allocate(damage, hits)
    if sum(proposal.values()) != sum(best.values()):
        raise RuleViolation(f"WOK-BATTLE-7: {sum(best.values())} hits must be placed.")
    done = sum(1 for a, n in proposal.items() if n and damage[a] + n == MAX_DAMAGE)
    if done != sum(1 for a, n in best.items() if n and damage[a] + n == MAX_DAMAGE):
        raise RuleViolation("WOK-BATTLE-12: the allocation must finish off as many armies as "
                            "possible.")
    partial = sum(1 for a, n in proposal.items() if n and damage[a] + n < MAX_DAMAGE)
    if partial > 1:
        raise RuleViolation("WOK-BATTLE-12: hits left over go on a single army.")


@dataclass(frozen=True)
class Rolls:
    """The four rolls of one battle round as symbols, each including its purple and grey
    dice."""

    attack: tuple[str, ...]
    defense: tuple[str, ...]
    counter: tuple[str, ...]
    negation: tuple[str, ...]


@dataclass(frozen=True)
class RoundResult:
    """What one battle round did (WOK-BATTLE-6..11). ``outcome`` is ``attacker_wins``,
    ``defender_wins``, ``both_wiped`` (the defender keeps the territory) or ``continue`` (the
    attacker withdraws or fights on). ``militia_damage`` carries on to the next round and is 0
    once the offer ends (WOK-MIL-5)."""

    state: GameState
    dice: Dice
    hits: int
    shields: int
    counter_hits: int
    counter_shields: int
    to_defenders: Mapping[str, int]
    to_attackers: Mapping[str, int]
    removed: tuple[str, ...]
    militia_damage: int
    outcome: str


def _apply(state: GameState, added: Mapping[str, int]) -> GameState:
    for army_id, n in added.items():
        if n:
            army = state.army(army_id)
            state = state.with_army(replace(army, damage=army.damage + n))
    return state


def fight_round(state: GameState, territory: str, attackers: Sequence[str], rolls: Rolls, *,
                defenders: Sequence[str] | None = None, militia_damage: int = 0,
                card_att: int = 0, card_def: int = 0, fortified: bool = True,
                defender_allocation: Mapping[str, int] | None = None,
                attacker_allocation: Mapping[str, int] | None = None,
                options: Options = DEFAULTS, to_raze: bool = False) -> RoundResult:
    """One battle round, WOK-BATTLE-6..12, WOK-ARMY-6, WOK-ARMY-7, WOK-MIL-1..5, WOK-AMB-10..13.
    Defenders default to the controller's armies in the territory; with none, the settlement's
    militia fights (WOK-MIL-1, WOK-BATTLE-3). Armies reaching 3 counters still counterattack and
    are removed at the end (WOK-BATTLE-10); so does a fully damaged militia (WOK-AMB-12). The
    defender keeps the territory when both sides are wiped out (WOK-AMB-11). ``fortified=False``
    drops the grey dice, as in an ambush (WOK-AMB-9). ``to_raze``: the attacker came to raze a
    settlement of its own culture, so its inhabitants muster and fight (WOK-MIL-6)."""
    if not attackers:
        raise RuleViolation("WOK-BATTLE-1: a battle needs at least one attacking army.")
    holder = state.ctrl(territory)
    for army_id in attackers:
        if state.army(army_id).territory != territory:
            raise RuleViolation(f"WOK-BATTLE-1: {army_id} is not in {territory}.")
    if defenders is None:
        defenders = tuple(a.id for a in state.armies_in(territory, holder)) if holder else ()
    level = state.lvl(territory)
    is_militia = not defenders
    if is_militia:
        culture = state.holding(territory).culture
        if level and culture == state.army(attackers[0]).culture and not to_raze:
            raise RuleViolation(f"WOK-BATTLE-3: the {culture} settlement in {territory} is "
                                "liberated, not fought (WOK-MIL-6).")
    table = militia(level, options) if is_militia else None
    fort = state.fort(territory) if fortified else 0
    dice = dice_for_round(len(attackers), len(defenders), level if is_militia else 0, fort,
                          card_att, card_def, options)
    hits = _count(rolls.attack, dice.attack, "attack", WARHAMMER, SWORD)
    shields = _count(rolls.defense, dice.defense, "defense", SHIELD)
    net = max(0, hits - shields)
    if is_militia:
        assert table is not None
        to_defenders: dict[str, int] = {}
        militia_damage = min(table.damage, militia_damage + net)
    else:
        before = {a: state.army(a).damage for a in defenders}
        to_defenders = dict(defender_allocation) if defender_allocation is not None \
            else allocate(before, net)
        check_allocation(before, net, to_defenders)
        state = _apply(state, to_defenders)
    counter_hits = _count(rolls.counter, dice.counter, "counterattack", FLAIL, SWORD)
    counter_shields = _count(rolls.negation, dice.negation, "negation", SHIELD)
    net_back = max(0, counter_hits - counter_shields)
    before_att = {a: state.army(a).damage for a in attackers}
    to_attackers = dict(attacker_allocation) if attacker_allocation is not None \
        else allocate(before_att, net_back)
    check_allocation(before_att, net_back, to_attackers)
    state = _apply(state, to_attackers)
    removed = tuple(a for a in (*defenders, *attackers) if state.army(a).damage >= MAX_DAMAGE)
    for army_id in removed:
        state = state.without_army(army_id)
    attackers_left = [a for a in attackers if a not in removed]
    if is_militia:
        assert table is not None
        defence_left = militia_damage < table.damage
    else:
        defence_left = any(a not in removed for a in defenders)
    if attackers_left and not defence_left:
        outcome = "attacker_wins"
        for army_id in attackers_left:
            state = state.with_army(replace(state.army(army_id), ready=False))
    elif defence_left and not attackers_left:
        outcome = "defender_wins"
    elif not attackers_left:
        outcome = "both_wiped"
    else:
        outcome = "continue"
    if outcome != "continue":
        militia_damage = 0
    return RoundResult(state, dice, hits, shields, counter_hits, counter_shields, to_defenders,
                       to_attackers, removed, militia_damage, outcome)


def defender_withdraw(state: GameState, territory: str, army_id: str, to: str,
                      forced_march: bool = False, options: Options = DEFAULTS) -> GameState:
    """WOK-BATTLE-2, WOK-ARMY-5: a ready defending army may withdraw into an adjacent territory
    its side controls, and becomes unready (so it cannot withdraw again). WOK-V06-20: where the
    campaign plays v0.6's ruling (``options.forced_march_withdraw``), an unready defending army
    may withdraw the same way by Forced March (``forced_march``: the card is played); a ready
    one needs no card."""
    army = state.army(army_id)
    if army.territory != territory:
        raise RuleViolation(f"WOK-BATTLE-2: {army_id} is not defending {territory}.")
    if forced_march and not options.forced_march_withdraw:
        raise RuleViolation("WOK-V06-20: this campaign does not play v0.6's ruling that Forced "
                            "March lets an unready army withdraw.")
    if forced_march and army.ready:
        raise RuleViolation(f"WOK-V06-20: {army_id} is ready and withdraws without Forced "
                            "March.")
    if not army.ready and not forced_march:
        raise RuleViolation(f"WOK-BATTLE-2: {army_id} is unready and must wage battle"
                            + (" unless Forced March is played (WOK-V06-20)."
                               if options.forced_march_withdraw else "."))
    if not state.map.adjacent(territory, to) or state.ctrl(to) != army.owner:
        raise RuleViolation(f"WOK-BATTLE-2: {army_id} can withdraw only into a neighbouring "
                            f"territory {army.owner} controls; {to} is not one.")
    return state.with_army(replace(army, territory=to, ready=False))


def attacker_withdraw(state: GameState, attackers: Sequence[str]) -> GameState:
    """WOK-BATTLE-11 (FAQ 11): after a round with both sides standing, every remaining attacker
    goes back to the territory it came from, keeps its damage and is unready."""
    for army_id in attackers:
        army = state.army(army_id)
        if army.came_from is None:
            raise RuleViolation(f"WOK-BATTLE-11: it is not known where {army_id} came from.")
        state = state.with_army(replace(army, territory=army.came_from, ready=False))
    return state


def everyone_withdrew(state: GameState, territory: str, attackers: Sequence[str]) -> bool:
    """WOK-BATTLE-4, WOK-MIL-3: no defending army remains after withdrawals, so the offer is
    settled for the attacker without a militia, even over a lone settlement (call only after
    at least one defending army withdrew)."""
    holder = state.ctrl(territory)
    return bool(attackers) and not state.armies_in(territory, holder)
