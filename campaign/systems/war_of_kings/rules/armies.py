"""War of Kings: armies on the board. Support and provisions (WOK-SUPPORT-*), resupply
(WOK-RESUPPLY-*), movement and what happens on arrival (WOK-MOVE-*), exploration (WOK-EXPL-*),
the Event Die and the card decks (WOK-EVENT-*).

Dice come in as arguments: the Resource Die colour and Event Die face, the exploration result
row (WOK-AMB-7: the players pick it while the face icons are unknown) and plague hits per army.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from campaign.systems.war_of_kings.rules.board import (
    CHECK_SUPPORT,
    CITY,
    COLOURS,
    EXPLORATION,
    FORTRESS,
    GOLD,
    GREEN,
    MALADOR,
    MOVEMENT,
    NO_SETTLEMENT,
    RED,
    SUPPLY,
    TOWN,
    VILLAGE,
    WALLS,
    WINTER_CENTER,
    YELLOW,
    Army,
    GameState,
    Holding,
    RuleViolation,
    Stock,
    who,
)
from campaign.systems.war_of_kings.rules.construction import PROVISIONS_ITEM, RESUPPLY_ITEM, price
from campaign.systems.war_of_kings.rules.economy import chain_paths, road_linked, road_neighbours
from campaign.systems.war_of_kings.rules.options import DEFAULTS, V06, Options

# --- support --------------------------------------------------------------------------------


@dataclass(frozen=True)
class SupportCheck:
    """WOK-SUPPORT-5: the slots a kingdom has, how many armies they cover, and which armies the
    player may drop or provision (those no local slot must cover)."""

    local_slots: Mapping[str, int]
    global_slots: int
    armies: int
    supported: int
    unsupported: int
    choosable: tuple[str, ...]

    @property
    def provisions_due(self) -> int:
        """Gold to keep every unsupported army (WOK-SUPPORT-4)."""
        return 5 * self.unsupported


def local_slots(state: GameState, kingdom: str) -> dict[str, int]:
    """``L(t)`` of WOK-SUPPORT-5: one slot in each controlled village territory (WOK-SUPPORT-2)
    plus one in the kingdom's own capital while it holds it, settlement or not (WOK-SUPPORT-3,
    WOK-CAP-3, WOK-AMB-6, WOK-AMB-32)."""
    slots: dict[str, int] = {}
    for code in state.controlled(kingdom):
        n = (1 if state.lvl(code) == VILLAGE else 0) + (1 if code == state.capital(kingdom) else 0)
        if n:
            slots[code] = n
    return slots


def global_slots(state: GameState, kingdom: str) -> int:
    """``Gslots`` of WOK-SUPPORT-5: 1 per controlled town and 2 per controlled city, of any
    culture (WOK-SUPPORT-2, WOK-CULT-8)."""
    return sum({TOWN: 1, CITY: 2}.get(state.lvl(code), 0) for code in state.controlled(kingdom))


def support(state: GameState, kingdom: str) -> SupportCheck:
    """WOK-SUPPORT-1..5: how many of the kingdom's armies its settlements support. The Malador
    need no support (WOK-SUPPORT-6, WOK-MAL-2)."""
    armies = state.armies_of(kingdom)
    if kingdom == MALADOR:
        return SupportCheck({}, 0, len(armies), len(armies), 0, ())
    local = local_slots(state, kingdom)
    spare = global_slots(state, kingdom)
    covered_locally = 0
    choosable: list[str] = []
    # The armies by territory (in their order), the territories in map order.
    by_code: dict[str, list[str]] = {}
    for a in armies:
        by_code.setdefault(a.territory, []).append(a.id)
    for code in state.map.in_order(c for c in by_code if c in state.map):
        here = by_code[code]
        slots = min(local.get(code, 0), len(here))
        covered_locally += slots
        choosable.extend(here[slots:])
    supported = covered_locally + min(spare, len(choosable))
    return SupportCheck(local, spare, len(armies), supported, len(armies) - supported,
                        tuple(choosable))


def settle_support(state: GameState, kingdom: str, provision: Collection[str] = (),
                   remove: Collection[str] = (), options: Options = DEFAULTS) -> GameState:
    """WOK-SUPPORT-4, WOK-AMB-25: in the Check for Support step, remove armies of the player's
    choice and pay 5 gold of provisions for each unsupported army kept, so that exactly the
    unsupported armies are dealt with. Provisions keep an army for this round and repair
    nothing (WOK-RESUPPLY-3)."""
    if state.phase != CHECK_SUPPORT:
        raise RuleViolation("WOK-SUPPORT-1: support is settled in the Check for Support step "
                            "of the Construction Phase.")
    mine = {a.id for a in state.armies_of(kingdom)}
    for army_id in (*provision, *remove):
        if army_id not in mine:
            raise RuleViolation(f"WOK-SUPPORT-4: {army_id} is not an army of {kingdom}.")
    if set(provision) & set(remove):
        raise RuleViolation("WOK-SUPPORT-4: an army is either provisioned or removed.")
    for army_id in remove:
        state = state.without_army(army_id)
    left = support(state, kingdom)
    if left.unsupported != len(provision):
        raise RuleViolation(f"WOK-SUPPORT-4: {left.unsupported} of {kingdom}'s armies are "
                            f"unsupported; provision or remove exactly that many (provisioned "
                            f"{len(provision)}).")
    unsupported = set(left.choosable)
    for army_id in provision:
        if army_id not in unsupported:
            raise RuleViolation(f"WOK-SUPPORT-5: {army_id} is already covered by a local slot.")
    cost = price(PROVISIONS_ITEM, options).times(len(provision))
    if state.stock(kingdom).gold < cost.gold:
        raise RuleViolation(f"WOK-AMB-25: provisions for {len(provision)} armies cost "
                            f"{cost.gold} gold; {kingdom} has {state.stock(kingdom).gold}. Remove "
                            "armies instead.")
    return state.with_stock(kingdom, state.stock(kingdom) - cost)


# --- resupply -------------------------------------------------------------------------------

@dataclass(frozen=True)
class ResupplyCheck:
    """Whether an army may be resupplied (WOK-RESUPPLY-1), from which town or city, or why
    not."""

    army: str
    eligible: bool
    reason: str
    source: str | None = None


def _any_road_paths(state: GameState, start: str) -> set[str]:
    """Territories reached from ``start`` by road links, control ignored (WOK-V06-16)."""
    seen = {start}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for there in road_neighbours(state, here):
            if there not in seen:
                seen.add(there)
                queue.append(there)
    return seen


def resupply_check(state: GameState, army_id: str, options: Options = DEFAULTS) -> ResupplyCheck:
    """WOK-RESUPPLY-1, WOK-RESUPPLY-2, WOK-AMB-22: a ready army in a territory its kingdom holds,
    with a controlled town or city (any culture, WOK-CULT-8) there or at the end of a road chain
    through the kingdom's territories (the winter centre counts as a link). v0.6 asks only for a
    road link (WOK-V06-16)."""
    army = state.army(army_id)
    kingdom = army.owner
    if not army.ready:
        return ResupplyCheck(army_id, False, f"{army_id} is unready; only ready armies are "
                                             "resupplied (WOK-RESUPPLY-2).")
    if state.ctrl(army.territory) != kingdom:
        return ResupplyCheck(army_id, False, f"{army_id} stands in {army.territory}, held by "
                                             f"{who(state.ctrl(army.territory))} "
                                             "(WOK-RESUPPLY-1).")
    if options.resupply_needs_controlled_chain:
        reach = list(chain_paths(state, kingdom, army.territory))
    else:
        reach = sorted(_any_road_paths(state, army.territory))
    for code in reach:
        if state.ctrl(code) == kingdom and state.lvl(code) >= TOWN:
            how = "in its own territory" if code == army.territory else "by road"
            return ResupplyCheck(army_id, True, f"{army_id} can be resupplied from the "
                                                f"{'town' if state.lvl(code) == TOWN else 'city'}"
                                                f" in {code}, {how} (WOK-RESUPPLY-1).", code)
    return ResupplyCheck(army_id, False, f"No town or city of {kingdom} is reached from "
                                         f"{army.territory} by a road chain through its own "
                                         "territories (WOK-RESUPPLY-1).")


def resupply(state: GameState, army_ids: Sequence[str], options: Options = DEFAULTS) -> GameState:
    """WOK-RESUPPLY-1..3, WOK-AMB-25: in the owner's Supply Phase, 2 gold per army removes all
    its damage; it stays ready (FAQ 17)."""
    if state.phase != SUPPLY:
        raise RuleViolation("WOK-RESUPPLY-1: armies are resupplied in their owner's Supply "
                            "Phase.")
    for army_id in army_ids:
        army = state.army(army_id)
        if state.active is not None and army.owner != state.active:
            raise RuleViolation(f"WOK-RESUPPLY-1: only {state.active}'s armies are resupplied "
                                "in this Supply Phase.")
        check = resupply_check(state, army_id, options)
        if not check.eligible:
            raise RuleViolation(check.reason)
        cost = price(RESUPPLY_ITEM, options)
        if state.stock(army.owner).gold < cost.gold:
            raise RuleViolation(f"WOK-AMB-25: resupply costs {cost.gold} gold; {army.owner} "
                                f"has {state.stock(army.owner).gold}.")
        state = state.with_stock(army.owner, state.stock(army.owner) - cost)
        state = state.with_army(replace(army, damage=0))
    return state


# --- movement -------------------------------------------------------------------------------

def _may_pass(state: GameState, mover: str, code: str) -> bool:
    """WOK-MOVE-3: an army keeps moving only through its own territory or the winter centre."""
    return state.ctrl(code) == mover or state.map.territory(code).kind == WINTER_CENTER


def _may_enter(state: GameState, mover: str, code: str) -> bool:
    """WOK-MOVE-7, WOK-MAL-13: Marauder armies never move into an unexplored territory."""
    return not (mover == MALADOR and state.ctrl(code) is None
                and state.map.territory(code).kind != WINTER_CENTER)


def destinations(state: GameState, army_id: str,
                 forced_march: bool = False) -> dict[str, tuple[str, ...]]:
    """WOK-MOVE-1..4, WOK-MOVE-7, WOK-MOVE-8, WOK-ROAD-5, WOK-AMB-23: every territory the army
    may end in, with a path to it. One step to any neighbour, or two along roads through an own
    middle territory (or the winter centre), never ending in the centre. Forced March adds one
    more step to any neighbour, to at most 3; an unready army may use it for 1 step."""
    army = state.army(army_id)
    mover = army.owner
    center = state.map.winter_center

    def allowed(roads: tuple[bool, ...]) -> bool:
        n = len(roads)
        if not army.ready:
            return forced_march and n == 1
        if forced_march:
            # One more step than otherwise: any two steps, or two road steps and one more
            # (WOK-MOVE-8, WOK-TV-13); never four.
            return n <= 2 or (n == 3 and roads[0] and roads[1])
        return n == 1 or (n == 2 and all(roads))

    found: dict[str, tuple[str, ...]] = {}
    frontier: list[tuple[tuple[str, ...], tuple[bool, ...]]] = [((army.territory,), ())]
    for _ in range(3):
        grown = []
        for path, roads in frontier:
            here = path[-1]
            if len(path) > 1 and not _may_pass(state, mover, here):
                continue
            for there in sorted(state.map.neighbours(here)):
                if there in path or not _may_enter(state, mover, there):
                    continue
                steps = (*roads, road_linked(state, here, there))
                new_path = (*path, there)
                grown.append((new_path, steps))
                if allowed(steps) and there != center and there not in found:
                    found[there] = new_path
        frontier = grown
    return found


@dataclass(frozen=True)
class Arrival:
    """What happens where a move ends (WOK-MOVE-5): ``none``, ``explore``, ``conquered``,
    ``liberate`` or ``battle``."""

    territory: str
    outcome: str
    reason: str


def arrival(state: GameState, army: Army) -> Arrival:
    """WOK-MOVE-5, WOK-MIL-6, WOK-AMB-24, WOK-AMB-31: the outcome for an army arriving in its
    territory, read from the board as it now stands."""
    code = army.territory
    holder = state.ctrl(code)
    if holder == army.owner:
        return Arrival(code, "none", f"{code} is already {army.owner}'s.")
    if holder is None:
        return Arrival(code, "explore", f"{code} is unexplored: roll for it in the Exploration "
                                        "Phase (WOK-EXPL-1).")
    defenders = state.armies_in(code, holder)
    level = state.lvl(code)
    if not defenders and level == NO_SETTLEMENT:
        return Arrival(code, "conquered", f"{code} held by {holder} had no army and no "
                                          "settlement: conquered at once (WOK-CONQ-1).")
    if not defenders and state.holding(code).culture == army.culture:
        return Arrival(code, "liberate", f"The {army.culture} settlement in {code} welcomes its "
                                         "own culture: liberated without battle (WOK-MIL-6).")
    return Arrival(code, "battle", f"Offer of battle in {code} against {holder} "
                                   "(WOK-BATTLE-1).")


def move(state: GameState, army_id: str, to: str,
         forced_march: bool = False) -> tuple[GameState, Arrival]:
    """WOK-MOVE-1, WOK-MOVE-5, WOK-MOVE-6, WOK-ARMY-5, WOK-AMB-31: move one army of the active
    player in the Movement Phase; it becomes unready and remembers the last territory it left.
    Walking into an enemy territory with no army and no settlement swaps the marker at once."""
    army = state.army(army_id)
    if state.phase != MOVEMENT:
        raise RuleViolation("WOK-MOVE-1: armies move in their owner's Movement Phase.")
    if state.active is not None and army.owner != state.active:
        raise RuleViolation(f"WOK-MOVE-1: it is {state.active}'s Movement Phase.")
    if not army.ready and not forced_march:
        raise RuleViolation(f"WOK-MOVE-1: {army_id} is unready; only ready armies move "
                            "(WOK-ARMY-3).")
    paths = destinations(state, army_id, forced_march)
    if to not in paths:
        raise RuleViolation(f"WOK-MOVE-2: {army_id} cannot reach {to} from {army.territory} "
                            "(one step, or two along roads through own territory; WOK-MOVE-3).")
    path = paths[to]
    moved = replace(army, territory=to, ready=False, came_from=path[-2])
    state = state.with_army(moved)
    result = arrival(state, moved)
    if result.outcome == "conquered":
        state = state.with_holding(to, replace(state.holding(to), controller=army.owner))
    return state, result


# --- exploration ----------------------------------------------------------------------------

MALADOR_WALLED_VILLAGE = "walled_malador_village"   # red R1: walls and two Marauder armies
AMBUSH = "ambush"                                   # red R2
ONE_MARAUDER = "one_marauder"                       # red R3
ANCIENT_ROAD = "ancient_road"                       # blue R1
FIND_3_2 = "find_primary_3_secondary_2"             # blue R2
PLAGUE = "plague"                                   # blue R3
MALADOR_VILLAGE = "malador_village"                 # green R1
TWO_ANCIENT_ROADS = "two_ancient_roads"             # green R2
FIND_2 = "find_primary_2"                           # green R3
FORTIFIED_MALADOR_VILLAGE = "fortified_malador_village"   # yellow R1 and R2
HORRIBLE_PLAGUE = "horrible_plague"                 # yellow R3
EMPTY_LAND = "empty"                                # v0.6 Discovery card
GOLD_VEIN = "gold_vein"                             # v0.6 Discovery card

#: WOK-EXPL-2, Table 9, rows in printed order per colour; yellow rows 1 and 2 are the same.
EXPLORATION_TABLE: dict[str, tuple[str, str, str]] = {
    RED: (MALADOR_WALLED_VILLAGE, AMBUSH, ONE_MARAUDER),
    "blue": (ANCIENT_ROAD, FIND_3_2, PLAGUE),
    GREEN: (MALADOR_VILLAGE, TWO_ANCIENT_ROADS, FIND_2),
    YELLOW: (FORTIFIED_MALADOR_VILLAGE, FORTIFIED_MALADOR_VILLAGE, HORRIBLE_PLAGUE),
}

#: Blue Battle Dice rolled per exploring army for each plague (WOK-EXPL-2).
PLAGUE_DICE = {PLAGUE: 1, HORRIBLE_PLAGUE: 2}


def exploration_result(color: str, row: int) -> str:
    """WOK-EXPL-2, WOK-AMB-7: the Table 9 result for the Resource Die colour and the printed row
    (1 to 3) the players read from the bonus die."""
    if color not in COLOURS or row not in (1, 2, 3):
        raise RuleViolation("WOK-EXPL-2: give a Resource-Die colour and a row from 1 to 3.")
    return EXPLORATION_TABLE[color][row - 1]


def result_odds(color: str) -> dict[str, Fraction]:
    """WOK-AMB-7: for simulated rolls each printed row is one third, so yellow's fortified
    village has two thirds."""
    odds: dict[str, Fraction] = {}
    for result in EXPLORATION_TABLE[color]:
        odds[result] = odds.get(result, Fraction(0)) + Fraction(1, 3)
    return odds


@dataclass(frozen=True)
class Exploration:
    """The state after an exploration result and what is left to do: ``conquered``,
    ``unexplored`` (everyone died of plague), ``battle_or_withdraw`` or ``ambush``."""

    state: GameState
    result: str
    outcome: str
    found: Stock = Stock()


def _place_malador(state: GameState, code: str, level: int, fort: int,
                   marauder_ids: Sequence[str], count: int) -> GameState:
    if len(marauder_ids) != count:
        raise RuleViolation(f"WOK-EXPL-2: this result places {count} Marauder armies; name "
                            f"{count}.")
    state = state.with_holding(code, Holding(MALADOR, level, MALADOR if level else None, fort))
    for army_id in marauder_ids:
        state = state.with_army(Army(army_id, MALADOR, code, ready=False))
    return state


def explore(state: GameState, kingdom: str, code: str, result: str,
            explorers: Sequence[str], *, road_to: Sequence[str] = (),
            plague_hits: Mapping[str, int] | None = None, marauder_ids: Sequence[str] = (),
            options: Options = DEFAULTS) -> Exploration:
    """WOK-EXPL-1..5, WOK-AMB-8, WOK-MAL-14: apply one exploration result to the unexplored
    territory the kingdom's ``explorers`` entered this turn (one roll per territory, however many
    armies). Malador results place their pieces with an orange marker; the explorer then offers
    battle or withdraws. Roads go to neighbours of the player's choice, controlled or not
    (WOK-EXPL-3). Plague: ``plague_hits`` gives the flails per army, at most 1 (2 for the
    horrible plague) blue dice per army; under v0.6 purple dice whose hits the player spreads
    freely (WOK-V06-3). Under v0.6 Discovery cards add an empty territory and a vein of gold
    worth 3 gold (WOK-V06-2)."""
    if state.phase != EXPLORATION:
        raise RuleViolation("WOK-EXPL-1: exploration happens in the Exploration Phase.")
    if state.ctrl(code) is not None or not state.map.territory(code).playable:
        raise RuleViolation(f"WOK-EXPL-1: {code} is not an unexplored territory.")
    if not explorers:
        raise RuleViolation("WOK-EXPL-1: only a territory an army entered can be explored.")
    for army_id in explorers:
        army = state.army(army_id)
        if army.owner != kingdom or army.territory != code:
            raise RuleViolation(f"WOK-EXPL-1: {army_id} is not {kingdom}'s army in {code}.")
    if result in (EMPTY_LAND, GOLD_VEIN) and options.exploration != V06:
        raise RuleViolation("WOK-V06-2: Discovery card results belong to the v0.6 preview.")
    terr = state.map.territory(code)
    won = state.with_holding(code, replace(state.holding(code), controller=kingdom))
    if result == MALADOR_WALLED_VILLAGE:
        return Exploration(_place_malador(state, code, VILLAGE, WALLS, marauder_ids, 2), result,
                           "battle_or_withdraw")
    if result in (AMBUSH, ONE_MARAUDER):
        placed = _place_malador(state, code, NO_SETTLEMENT, 0, marauder_ids, 1)
        return Exploration(placed, result, AMBUSH if result == AMBUSH else "battle_or_withdraw")
    if result == MALADOR_VILLAGE:
        return Exploration(_place_malador(state, code, VILLAGE, 0, marauder_ids, 0), result,
                           "battle_or_withdraw")
    if result == FORTIFIED_MALADOR_VILLAGE:
        return Exploration(_place_malador(state, code, VILLAGE, FORTRESS, marauder_ids, 1),
                           result, "battle_or_withdraw")
    if result in (ANCIENT_ROAD, TWO_ANCIENT_ROADS):
        wanted = 1 if result == ANCIENT_ROAD else 2
        if len(set(road_to)) != wanted:
            raise RuleViolation(f"WOK-EXPL-2: choose {wanted} different neighbour"
                                f"{'s' if wanted > 1 else ''} for the ancient road"
                                f"{'s' if wanted > 1 else ''}.")
        for other in road_to:
            if not state.map.adjacent(code, other) or not state.map.territory(other).playable:
                raise RuleViolation(f"WOK-EXPL-3: {other} does not border {code}.")
            won = won.with_road(code, other)
        return Exploration(won, result, "conquered")
    if result in (FIND_3_2, FIND_2, GOLD_VEIN, EMPTY_LAND):
        found = Stock()
        if result == FIND_3_2:
            found = found.plus(terr.primary, 3) if terr.primary else found
            found = found.plus(terr.secondary, 2) if terr.secondary else found
        elif result == FIND_2 and terr.primary:
            found = found.plus(terr.primary, 2)
        elif result == GOLD_VEIN:
            found = found.plus(GOLD, 3)
        won = won.with_stock(kingdom, won.stock(kingdom) + found)
        return Exploration(won, result, "conquered", found)
    if result in PLAGUE_DICE:
        return _plague(state, won, kingdom, code, result, explorers, plague_hits or {}, options)
    raise RuleViolation(f"WOK-EXPL-2: unknown exploration result {result!r}.")


def _plague(state: GameState, won: GameState, kingdom: str, code: str, result: str,
            explorers: Sequence[str], hits: Mapping[str, int], options: Options) -> Exploration:
    dice = PLAGUE_DICE[result]
    if any(army_id not in explorers or n < 0 for army_id, n in hits.items()):
        raise RuleViolation("WOK-EXPL-2: plague hits fall only on the exploring armies.")
    if options.plague == V06:
        if sum(hits.values()) > dice * len(explorers):
            raise RuleViolation(f"WOK-V06-3: {dice * len(explorers)} dice give at most that many "
                                "hits.")
    elif any(n > dice for n in hits.values()):
        raise RuleViolation(f"WOK-EXPL-2: each army rolls {dice} blue "
                            f"{'die' if dice == 1 else 'dice'} and takes only its own flails.")
    survivors = []
    after = state
    for army_id in explorers:
        army = state.army(army_id)
        damage = army.damage + hits.get(army_id, 0)
        if damage >= 3:
            after = after.without_army(army_id)
        else:
            survivors.append(army_id)
            after = after.with_army(replace(army, damage=damage))
    if not survivors:
        return Exploration(after, result, "unexplored")
    after = after.with_holding(code, won.holding(code))
    return Exploration(after, result, "conquered")


# --- the Event Die and the decks ------------------------------------------------------------

AXE = "axe"
FLAG = "flag"
V_FACE = "V"
T_FACE = "T"
C_FACE = "C"
EVENT_FACES = {FLAG: 0, V_FACE: 1, T_FACE: 2, C_FACE: 3}


def draws_event_card(state: GameState, kingdom: str, face: str, color: str) -> bool:
    """WOK-EVENT-1, WOK-EVENT-2: with the flag, V, T or C face, an Event Card if the kingdom
    controls a territory of the rolled colour with at least nothing, a village, a town or a city;
    the axe draws a Marauder card instead and ignores the colour. Culture does not matter; the
    Malador never draw Event Cards (WOK-MAL-3)."""
    if face == AXE or kingdom == MALADOR:
        return False
    if face not in EVENT_FACES or color not in COLOURS:
        raise RuleViolation("WOK-EVENT-2: the Event Die shows axe, flag, V, T or C, and the "
                            "Resource Die one of the four colours.")
    need = EVENT_FACES[face]
    return any(state.map.territory(t).color == color and state.lvl(t) >= need
               for t in state.controlled(kingdom))


BLANK_CARD = ""

#: WOK-V06-21: the preview's provisional card titles, offered only as ideas for custom cards
#: (WOK-VAR-3); v1.01 prints no card texts.
V06_EVENT_CARDS = (
    "Bountiful Harvest", "Nature's Blessing", "Early Spring", "Heroic Charge", "Shield Wall",
    "Forced March", "Rally the Troops", "Bombardment", "Saboteur", "Creative Engineering",
    "Rest and Resupply", "Bountiful Bovine", "The Art of War", "Live off the Land",
    "Fanatics for Your Cause", "Limited Logistics", "Thievery", "Raise a Road", "The Market",
    "Great Grains", "Substantial Stone", "Teeming Timber", "Surrounded",
)
V06_MARAUDER_CARDS = (
    "Foment Rebellion!", "On the Move!", "Build It Up!", "Growing Population",
    "Rest and Resupply", "Reinforcements", "Fortify",
)


def prepare_deck(cards: Sequence[str]) -> tuple[str, ...]:
    """WOK-SETUP-5, WOK-COMP-1, WOK-VAR-3: blank cards leave the deck before play (a written
    custom card is no longer blank and stays)."""
    return tuple(card for card in cards if card.strip() != BLANK_CARD)


def draw_card(deck: Sequence[str], discards: Sequence[str],
              reshuffled: Sequence[str] | None = None) -> tuple[str, tuple[str, ...],
                                                                 tuple[str, ...]]:
    """WOK-EVENT-3: draw the top card; an empty deck is rebuilt from its discards in the order
    the table shuffled them (``reshuffled``, a permutation of ``discards``). Returns the card, the
    deck and the discards."""
    if not deck:
        if reshuffled is None or sorted(reshuffled) != sorted(discards):
            raise RuleViolation("WOK-EVENT-3: the deck is empty; shuffle the discards to form a "
                                "new deck.")
        deck, discards = tuple(reshuffled), ()
        if not deck:
            raise RuleViolation("WOK-EVENT-3: no cards are left in the deck or the discards.")
    return deck[0], tuple(deck[1:]), tuple(discards)


def trade_event_card(hands: Mapping[str, int], giver: str, taker: str,
                     options: Options = DEFAULTS) -> dict[str, int]:
    """WOK-EVENT-4, WOK-MKT-2, WOK-AMB-26: Event Cards may change hands in a deal (not under
    v0.6: WOK-V06-14). Hands are secret, so only counts are kept; there is no hand limit."""
    if not options.event_card_trading:
        raise RuleViolation("WOK-V06-14: Event Cards may not be traded in this campaign.")
    if hands.get(giver, 0) < 1:
        raise RuleViolation(f"WOK-EVENT-4: {giver} holds no Event Card.")
    out = dict(hands)
    out[giver] -= 1
    out[taker] = out.get(taker, 0) + 1
    return out


def spread_card_units(need: int, held: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    """WOK-EVENT-5 (FAQ 1): the units cards still give of one resource (``held``, the card
    played first first) put towards a price asking ``need`` of it: only what the price asks
    for is taken, first from the earliest card. Returns the units taken and what each card
    keeps for the kingdom's later purchases."""
    if need < 0 or any(n < 0 for n in held):
        raise RuleViolation("WOK-EVENT-5: a price and a card's units are never below 0.")
    keeps = []
    for units in held:
        taken = min(units, need)
        need -= taken
        keeps.append(units - taken)
    return sum(held) - sum(keeps), tuple(keeps)
