"""Conflicts in the leader phase: military attacks from garrisons and missionary attacks from
temples, their reach and range, the attack limit per opponent, totals from the declared hires and
the defender's choice, and every consequence (MS-ATK, MS-MIL, MS-MISS, MS-AMB-3, -6, -7, -15, -16,
-19, -23, -26). No dice are rolled in a conflict: the totals decide."""

from __future__ import annotations

from dataclasses import dataclass, replace

from .board import (
    CAPITAL_DEFENSE,
    GARRISON,
    TEMPLE,
    RuleViolation,
    adjacent,
    continent_of,
    is_capital,
    is_coastal,
)
from .control import change_unrest, lose_cities, rebel
from .economy import hire_cost
from .leaders import use_leader
from .scoring import end_game
from .state import (
    BY_MISSIONARY,
    CAPITAL_LOST,
    KING_LOST,
    GameState,
    Leader,
    city_at,
    controlled_cities,
    controller,
    get_player,
    kingdom_holds_only_capital,
    leader_at,
    own_ports,
    pay,
    port_at,
    require_live,
    route_component,
    stack,
    with_player,
    with_stack,
    with_turn,
)

MILITARY = "military"
MISSIONARY = "missionary"

CITY = "city"
PORT = "port"
LEADER_TARGET = "leader"
CAPITAL = "capital"
KING = "king"
#: MS-ATK-2, MS-ATK-10: what each kind of conflict may aim at.
TARGET_KINDS = {MILITARY: (PORT, CITY, CAPITAL), MISSIONARY: (LEADER_TARGET, CITY, KING)}

# Outcomes.
REPELLED = "repelled"
PORT_DESTROYED = "port_destroyed"
CONQUERED = "conquered"
CAPITAL_TAKEN = "capital_taken"
LEADER_INACTIVATED = "leader_inactivated"
REBELLION = "rebellion"
RETURNED_TO_STACK = "returned_to_stack"
KING_DEFEATED = "king_defeated"


@dataclass(frozen=True)
class Target:
    """What an attack aims at: a ``city``, the ``port`` of a city, the ``leader`` governing a
    city, or a player's ``capital`` (military) or ``king`` (missionary); ``place`` is the space."""

    kind: str
    place: str


@dataclass(frozen=True)
class ConflictResult:
    """Everything a conflict decided (MS-ATK-5..9), for the chronicle and the ledger."""

    kind: str
    attacker: str
    leader: int
    target: Target
    defender: str | None
    attack: int
    defense: int
    success: bool
    outcome: str
    attack_hires: int
    defense_hires: int
    defender_added_leader: bool
    counted: bool
    unrest: tuple[tuple[str, int], ...] = ()


def attack_total(leader: int, city_value: int, hires: int = 0) -> int:
    """MS-MIL-5, MS-MISS-5: leader value + garrison or temple value + mercenaries or zealots."""
    return leader + city_value + hires


def defense_total(base: int, leader: int | None = None, hires: int = 0) -> int:
    """MS-MIL-6, MS-MISS-6, MS-AMB-6: the city's value (a port's piers, 10 for a Capital, king +
    10 for a king) + an active leader present if the defender adds it + hires."""
    return base + (leader or 0) + hires


def succeeds(attack: int, defense: int) -> bool:
    """MS-ATK-8: only a strictly higher attack total wins; a tie favours the defender."""
    return attack > defense


def in_range(state: GameState, attacker: str, place: str) -> bool:
    """MS-ATK-3, MS-AMB-3: targets on the attacker's own continent are always in range; others
    need a port the attacker controls (anywhere by default, in a home city with the option
    off)."""
    own = get_player(state, attacker).continent
    if continent_of(place) == own:
        return True
    ports = own_ports(state, attacker)
    if not state.options.port_anywhere_unlocks:
        ports = tuple(p for p in ports if continent_of(p.space) == own)
    return bool(ports)


def military_reach(state: GameState, attacker: str, garrison: str, place: str) -> bool:
    """MS-MIL-1, MS-MIL-2, MS-AMB-6, MS-AMB-19: a target on the attacker's continent is always
    reachable; elsewhere it must be adjacent to a city of the kingdom that the garrison reaches
    along the attacker's trade routes (the garrison included), or be coastal while such a city
    has the attacker's port."""
    if continent_of(place) == get_player(state, attacker).continent:
        return True
    kingdom = set(controlled_cities(state, attacker))
    reach = [c for c in route_component(state, attacker, garrison) if c in kingdom]
    if any(adjacent(c, place) for c in reach):
        return True
    harbours = {p.space for p in own_ports(state, attacker)}
    return is_coastal(place) and any(c in harbours for c in reach)


def _opponent_capital(state: GameState, attacker: str, place: str) -> str:
    """MS-ATK-10: the owner of the Capital at ``place``, if it may be targeted."""
    if not is_capital(place):
        raise RuleViolation(f"There is no Capital at {place} (MS-ATK-10).")
    owners = [p.name for p in state.players if p.capital == place]
    if not owners or owners[0] == attacker:
        raise RuleViolation(f"There is no opponent's Capital at {place} (MS-ATK-10).")
    owner = owners[0]
    if not kingdom_holds_only_capital(state, owner):
        raise RuleViolation(
            f"{owner}'s Capital and king can be attacked only once the Capital is all that is "
            "left of the kingdom (MS-ATK-10)."
        )
    return owner


@dataclass(frozen=True)
class _Aim:
    defender: str | None
    base: int
    guard: Leader | None


def _aim(state: GameState, attacker: str, base_place: str, kind: str, target: Target) -> _Aim:
    """Check a target against MS-ATK-2, -3, -10, MS-MIL-1..4, MS-MISS-1..4 and say who defends,
    with what base value, and which active leader the defender could add."""
    if target.kind not in TARGET_KINDS[kind]:
        raise RuleViolation(f"A {kind} attack cannot target a {target.kind} (MS-ATK-2).")
    place = target.place
    if target.kind in (CAPITAL, KING):
        defender = _opponent_capital(state, attacker, place)
        king = get_player(state, defender).king
        if kind == MILITARY:
            aim = _Aim(defender, CAPITAL_DEFENSE, king)
        else:
            aim = _Aim(defender, CAPITAL_DEFENSE + king.value, None)
    else:
        city = city_at(state, place)
        if city is None:
            raise RuleViolation(f"There is no city at {place} (MS-ATK-2).")
        owner = controller(state, place)
        if owner == attacker:
            raise RuleViolation(f"{attacker} controls the {city.label} at {place} already "
                                "(MS-ATK-3).")
        present = leader_at(state, place)
        guard = present[1] if present is not None and present[1].active else None
        port = port_at(state, place)
        if target.kind == PORT:
            if port is None:
                raise RuleViolation(f"The {city.label} at {place} has no port (MS-MIL-4).")
            aim = _Aim(owner, port.piers, guard)
        elif target.kind == LEADER_TARGET:
            if guard is None:
                raise RuleViolation(
                    f"No active leader stands in the {city.label} at {place} (MS-MISS-1)."
                )
            aim = _Aim(owner, city.value, guard)
        elif kind == MILITARY:
            if port is not None:
                raise RuleViolation(
                    f"The {city.label} at {place} has a port, which must be destroyed first "
                    "(MS-MIL-4)."
                )
            aim = _Aim(owner, city.value, guard if owner is not None else None)
        else:
            if guard is not None:
                raise RuleViolation(
                    f"An active leader governs the {city.label} at {place}; make it inactive "
                    "first (MS-MISS-2)."
                )
            aim = _Aim(owner, city.value, None)
    if not in_range(state, attacker, place):
        raise RuleViolation(
            f"{place} lies on another player's continent and {attacker} controls no port that "
            "opens attacks there (MS-ATK-3, MS-AMB-3)."
        )
    if kind == MILITARY and not military_reach(state, attacker, base_place, place):
        raise RuleViolation(
            f"{place} is out of reach of the garrison at {base_place}: it must be next to a "
            "city the garrison reaches by road or port, or coastal with a port in reach "
            "(MS-MIL-1, MS-MIL-2)."
        )
    if aim.defender is not None and (aim.defender, kind) in state.current.attacks:
        raise RuleViolation(
            f"{attacker} has already made a {kind} attack on {aim.defender} this phase "
            "(MS-ATK-4)."
        )
    return aim


def _attacker_base(state: GameState, attacker: str, leader_value: int, kind: str) -> Leader:
    """MS-ATK-1: an active leader standing in the attacker's garrison (military) or temple
    (missionary)."""
    leader = get_player(state, attacker).leader(leader_value)
    wanted = GARRISON if kind == MILITARY else TEMPLE
    city = city_at(state, leader.place) if leader.in_city else None
    if city is None or city.kind != wanted:
        raise RuleViolation(
            f"A {kind} attack starts from a {wanted}; the {leader_value}-leader is not in one "
            "(MS-ATK-1)."
        )
    if not leader.active:
        raise RuleViolation(f"The {leader_value}-leader is inactive (MS-ATK-1).")
    return leader


def legal_targets(state: GameState, attacker: str, leader_value: int,
                  kind: str) -> tuple[Target, ...]:
    """MS-ATK-1..4, MS-ATK-10, MS-MIL-1..4, MS-MISS-1..4: every target the leader could attack
    now (ignoring the player's turn and order of leaders)."""
    try:
        leader = _attacker_base(state, attacker, leader_value, kind)
    except RuleViolation:
        return ()
    candidates = []
    for site in state.sites:
        candidates += [Target(k, site.space) for k in TARGET_KINDS[kind] if k not in
                       (CAPITAL, KING)]
    capital_kind = CAPITAL if kind == MILITARY else KING
    candidates += [Target(capital_kind, p.capital) for p in state.players if p.name != attacker]
    found = []
    for target in candidates:
        try:
            _aim(state, attacker, leader.place, kind, target)
        except RuleViolation:
            continue
        found.append(target)
    return tuple(found)


def _attack(state: GameState, attacker: str, leader_value: int, kind: str, target: Target,
            attack_hires: int, defense_hires: int,
            defender_adds_leader: bool) -> tuple[GameState, ConflictResult]:
    require_live(state)
    state = use_leader(state, attacker, leader_value)
    leader = _attacker_base(state, attacker, leader_value, kind)
    aim = _aim(state, attacker, leader.place, kind, target)
    if attack_hires < 0 or defense_hires < 0:
        raise RuleViolation("Hires cannot be negative (MS-ATK-7).")
    if aim.defender is None and (defense_hires or defender_adds_leader):
        raise RuleViolation("Nobody defends an uncontrolled city: it defends with its value "
                            "alone (MS-MIL-6, MS-MISS-6).")
    if defender_adds_leader and aim.guard is None:
        raise RuleViolation("Only an active leader present can be added to the defense "
                            "(MS-MIL-6, MS-MISS-6).")
    # MS-AMB-23: the attacker fixes and pays first, then the defender.
    state = pay(state, attacker, hire_cost(attack_hires), "MS-ATK-7")
    if aim.defender is not None:
        state = pay(state, aim.defender, hire_cost(defense_hires), "MS-ATK-7")
    base_city = city_at(state, leader.place)
    assert base_city is not None
    attack = attack_total(leader_value, base_city.value, attack_hires)
    added = aim.guard.value if defender_adds_leader and aim.guard is not None else None
    defense = defense_total(aim.base, added, defense_hires)
    success = succeeds(attack, defense)
    counted = aim.defender is not None
    if counted:
        state = with_turn(state, attacks=(*state.current.attacks, (aim.defender, kind)))
    # MS-ATK-9: the attacking leader ends inactive, whatever the outcome.
    spent = replace(leader, active=False)
    state = with_player(state, get_player(state, attacker).with_leader(spent))
    outcome = REPELLED
    unrest: list[tuple[str, int]] = []
    if success:
        state, outcome, unrest = _consequences(state, attacker, spent, kind, target, aim,
                                               defender_adds_leader)
    for name, delta in unrest:
        if not state.ended:
            state = change_unrest(state, name, delta)
    return state, ConflictResult(
        kind=kind, attacker=attacker, leader=leader_value, target=target,
        defender=aim.defender, attack=attack, defense=defense, success=success, outcome=outcome,
        attack_hires=attack_hires, defense_hires=defense_hires,
        defender_added_leader=defender_adds_leader, counted=counted, unrest=tuple(unrest),
    )


def _consequences(state: GameState, attacker: str, spent: Leader, kind: str, target: Target,
                  aim: _Aim, added: bool) -> tuple[GameState, str, list[tuple[str, int]]]:
    place = target.place
    defender = aim.defender
    if target.kind == CAPITAL:
        assert defender is not None
        return end_game(state, CAPITAL_LOST, losers=(defender,)), CAPITAL_TAKEN, []
    if target.kind == KING:
        assert defender is not None
        return end_game(state, KING_LOST, losers=(defender,)), KING_DEFEATED, []
    if target.kind == PORT:
        # MS-MIL-7: piers to the bank; an added defending leader turns inactive.
        assert defender is not None
        state = replace(state, ports=tuple(p for p in state.ports if p.space != place))
        if added and aim.guard is not None:
            guard = replace(aim.guard, active=False)
            state = with_player(state, get_player(state, defender).with_leader(guard))
        lost = controller(state, place) != defender
        return state, PORT_DESTROYED, [(defender, +1)] if lost else []
    if target.kind == LEADER_TARGET:
        # MS-MISS-7: the leader turns inactive and stays.
        assert defender is not None and aim.guard is not None
        guard = replace(aim.guard, active=False)
        return (with_player(state, get_player(state, defender).with_leader(guard)),
                LEADER_INACTIVATED, [])
    if kind == MILITARY:
        # MS-MIL-8, MS-MIL-9: the defender's leader to the reserve and roads to the bank; the
        # attacking leader invades, inactive.
        changes: list[tuple[str, int]] = [(attacker, -1)]
        if defender is not None:
            state = lose_cities(state, defender, (place,))
            changes.append((defender, +1))
        invader = replace(spent, place=place, active=False)
        state = with_player(state, get_player(state, attacker).with_leader(invader))
        return state, CONQUERED, changes
    if defender is not None:
        # MS-MISS-7, MS-REBEL-5: the city rebels; its owner deals with it at once.
        return rebel(state, defender, (place,), BY_MISSIONARY), REBELLION, []
    # MS-MISS-7, MS-AMB-16: an uncontrolled city goes to the bottom of its suit's stack.
    city = city_at(state, place)
    assert city is not None
    state = replace(state, sites=tuple(s for s in state.sites if s.space != place))
    return with_stack(state, city.suit, (*stack(state, city.suit), city.value)), \
        RETURNED_TO_STACK, []


def military_attack(state: GameState, attacker: str, leader_value: int, target: Target,
                    attack_hires: int = 0, defense_hires: int = 0,
                    defender_adds_leader: bool = False) -> tuple[GameState, ConflictResult]:
    """MS-ATK-1..10, MS-MIL-1..11, MS-AMB-6, -7, -19, -23: a military attack by an active leader
    in the attacker's garrison on a port, a port-less city or a lone Capital. Attack = leader +
    garrison + mercenaries; defense = city value (piers for a port, 10 for a Capital) + the
    active leader present if added + mercenaries (an uncontrolled city: its value alone).
    Success destroys a port (the city stays its owner's if a leader or road remains), conquers a
    city (attacker unrest -1, defender +1), or takes a Capital (the defender loses and the game
    ends). Hires are paid whatever the outcome; the attacking leader ends inactive."""
    return _attack(state, attacker, leader_value, MILITARY, target, attack_hires, defense_hires,
                   defender_adds_leader)


def missionary_attack(state: GameState, attacker: str, leader_value: int, target: Target,
                      attack_hires: int = 0, defense_hires: int = 0,
                      defender_adds_leader: bool = False) -> tuple[GameState, ConflictResult]:
    """MS-ATK-1..10, MS-MISS-1..9, MS-AMB-6, -15, -16, -23: a missionary attack by an active
    leader in the attacker's temple on an opponent's active leader, a city without an active
    leader, or a lone king. Attack = leader + temple + zealots; defense = city value + the active
    leader present if added + zealots (ports add nothing; a king defends with its value + 10).
    Success turns the leader inactive, makes a controlled city rebel (its owner settles it at
    once), sends an uncontrolled city to the bottom of its suit's stack, or defeats the king
    (the game ends). The attacker's unrest never changes."""
    return _attack(state, attacker, leader_value, MISSIONARY, target, attack_hires,
                   defense_hires, defender_adds_leader)
