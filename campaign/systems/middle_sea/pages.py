"""What the Middle Sea's pages show: the table, everyone's standing (public, MS-TERM-6), and
for the person looking, the choices the rules allow them now (ASSIST: the rules list the legal
moves, the player picks one). Nothing here writes."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from itertools import permutations, product
from typing import Any

from django.utils import timezone

from campaign.access import Access
from campaign.models import Kingdom
from campaign.systems.middle_sea import boardsvg
from campaign.systems.middle_sea.game import Loaded, read_game
from campaign.systems.middle_sea.rules import conflict, control, economy, leaders, scoring
from campaign.systems.middle_sea.rules.board import (
    GARRISON,
    MAX_PIERS,
    SUITS,
    TEMPLE,
    City,
    is_coastal,
)
from campaign.systems.middle_sea.rules.dominance import (
    best_temple,
    dominance_score,
    dominance_ties,
    first_place,
)
from campaign.systems.middle_sea.rules.state import (
    BUILD,
    CONTROL,
    DOMINANCE,
    IN_CAPITAL,
    IN_RESERVE,
    LEADER,
    GameState,
    city_at,
    controlled_cities,
    controller,
    current_player,
    get_player,
    home_cities,
    leader_at,
    linked_to_capital,
    port_at,
    provincial_cities,
    stack,
)
from campaign.systems.middle_sea.services import defender_choices

# The table's width on a page, in CSS pixels: a phone shrinks it to the screen.
BOARD_WIDTH = "560"
PHASE_NAMES = {
    "setup": "Setting up", CONTROL: "Control phase", DOMINANCE: "Dominance phase",
    "production": "Production phase", BUILD: "Build phase", LEADER: "Leader phase",
    "ended": "Game over",
}
REASONS = {
    "capital_lost": "a Capital fell (MS-WIN-1)", "king_lost": "a king was defeated (MS-WIN-1)",
    "civil_war": "civil war broke out (MS-UNREST-4)", "trade": "trade victory (MS-WIN-4)",
    "conquest": "victory by conquest (MS-WIN-5)", "timed": "the time limit (MS-WIN-3)",
}


@dataclass(frozen=True)
class Row:
    """One player's public standing."""

    name: str
    kingdom: Kingdom | None
    suit: str
    continent: str
    king: int
    unrest: int
    goods: int
    gold: int
    cities: int
    home: int
    provincial: int
    control_total: int
    dominance: int
    score: int
    values: int
    piers: int
    place: int | None
    to_act: bool
    winner: bool
    lost: bool
    leaders: str


def clock_label_of(round_: int, phase: str) -> str:
    if phase in ("setup", ""):
        return "Setting up"
    if phase == "ended":
        return f"Game over after round {round_}"
    return f"Round {round_}, {PHASE_NAMES.get(phase, phase).lower()}"


def _leaders_text(state: GameState, name: str) -> str:
    words = []
    for leader in sorted(get_player(state, name).leaders, key=lambda item: item.value):
        if leader.place == IN_CAPITAL:
            words.append(f"{leader.value}: king")
        elif leader.place == IN_RESERVE:
            words.append(f"{leader.value}: reserve")
        else:
            words.append(f"{leader.value}: {leader.place}"
                         + ("" if leader.active else " (inactive)"))
    return "; ".join(words)


def rows(loaded: Loaded) -> list[Row]:
    """MS-CONTROL-1, MS-DOM-1, MS-WIN-2: every player's standing, in dominance order."""
    state = loaded.state
    acting = (current_player(state) if state.order and not state.ended
              and state.phase in (CONTROL, BUILD, LEADER) else None)
    names = list(state.order) or [p.name for p in state.players]
    found = []
    for name in names:
        p = get_player(state, name)
        found.append(Row(
            name=name, kingdom=loaded.kingdoms.get(name), suit=p.suit, continent=p.continent,
            king=p.king.value, unrest=p.unrest, goods=p.goods, gold=p.gold,
            cities=len(controlled_cities(state, name)), home=len(home_cities(state, name)),
            provincial=len(provincial_cities(state, name)),
            control_total=control.control_total(p.king.value, p.unrest),
            dominance=dominance_score(state, name), score=scoring.calculated_score(state, name),
            values=sum(city.value for city in (city_at(state, c) for c in
                                               controlled_cities(state, name)) if city),
            piers=sum(pt.piers for pt in state.ports if pt.owner == name),
            place=names.index(name) + 1 if state.order else None, to_act=name == acting,
            winner=name in state.winners, lost=name in state.losers,
            leaders=_leaders_text(state, name),
        ))
    return found


def _mine(loaded: Loaded, access: Access) -> str | None:
    return loaded.name_of(access.kingdom)


def _may_act_for(loaded: Loaded, access: Access, name: str | None) -> bool:
    return name is not None and (access.is_gm or _mine(loaded, access) == name)


def minutes_left(loaded: Loaded, now: dt.datetime | None = None) -> int | None:
    game = loaded.game
    if game.time_limit_minutes is None or game.clock_started_at is None:
        return None
    end = game.clock_started_at + dt.timedelta(minutes=game.time_limit_minutes)
    left = (end - (now or timezone.now())).total_seconds()
    return max(0, int(left // 60))


def play_context(access: Access) -> dict[str, Any]:
    """The play page: the table, the standings and this viewer's choices."""
    loaded = read_game(access.campaign)
    context: dict[str, Any] = {"ms": None, "ms_is_gm": access.is_gm}
    if loaded is None:
        context["ms_setup"] = setup_context(access)
        context["ms_board"] = boardsvg.board_svg(None, {}, width=BOARD_WIDTH)
        return context
    state = loaded.state
    colours = {name: k.colour for name, k in loaded.kingdoms.items()}
    context.update({
        "ms": loaded,
        "ms_state": state,
        "ms_rows": rows(loaded),
        "ms_board": boardsvg.board_svg(state, colours, width=BOARD_WIDTH,
                                       title=f"The table of {access.campaign.name}"),
        "ms_stacks": [(suit, City(suit, stack(state, suit)[0]).label if stack(state, suit)
                       else "empty", len(stack(state, suit))) for suit in SUITS],
        "ms_clock": clock_label_of(state.round, state.phase),
        "ms_minutes_left": minutes_left(loaded),
        "ms_reason": REASONS.get(state.end_reason, state.end_reason),
        "ms_mine": _mine(loaded, access),
    })
    if state.ended:
        context["ms_final"] = scoring.standings(state)
        return context
    pending = loaded.game.pending
    if pending:
        context["ms_pending"] = pending
        if _may_act_for(loaded, access, pending.get("defender")):
            most, guard = defender_choices(state, pending)
            context["ms_defend"] = {"hires": list(range(0, most + 1)), "guard": guard}
        return context
    if state.rebellion is not None:
        context["ms_rebellion"] = state.rebellion
        if _may_act_for(loaded, access, state.rebellion.owner):
            context["ms_put_down"] = put_down_choices(state, state.rebellion.owner)
        return context
    if state.phase == DOMINANCE:
        ties = dominance_ties(state)
        context["ms_ties"] = ties
        first = _first_after_ties(state)
        context["ms_first"] = first
        if _may_act_for(loaded, access, first):
            context["ms_orders"] = tie_orders(state)
        return context
    name = current_player(state)
    context["ms_turn"] = name
    context["ms_turn_colour"] = colours.get(name, "")
    if not _may_act_for(loaded, access, name):
        return context
    context["ms_my_turn"] = True
    if state.phase == CONTROL:
        context["ms_control"] = control_choices(state, name)
    elif state.phase == BUILD:
        context["ms_build"] = build_choices(state, name)
    elif state.phase == LEADER:
        context["ms_leader"] = leader_choices(state, name)
    return context


def setup_context(access: Access) -> dict[str, Any]:
    kingdoms = list(Kingdom.objects.filter(campaign=access.campaign).order_by("pk"))
    return {"kingdoms": kingdoms, "suits": SUITS, "may": access.is_gm,
            "enough": 2 <= len(kingdoms)}


def _first_after_ties(state: GameState) -> str:
    scores = {n: dominance_score(state, n) for n in state.order}
    temples = {n: best_temple(state, n) for n in state.order}
    return first_place(scores, temples, list(state.order))


def tie_orders(state: GameState) -> list[str]:
    """MS-DOM-5: every way the player in 1st may order the tied groups, as comma lists."""
    groups = dominance_ties(state)
    options = []
    for combo in product(*(permutations(group) for group in groups)):
        options.append(", ".join(name for group in combo for name in group))
    return options


def control_choices(state: GameState, name: str) -> dict[str, Any]:
    report = control.control_report(state, name)
    cities = [(c, city_at(state, c)) for c in controlled_cities(state, name)]
    return {"report": report, "cities": [(c, city.label if city else c) for c, city in cities],
            "payments": list(range(0, report.affordable + 1)),
            "settled": state.current.control_settled}


def put_down_choices(state: GameState, name: str) -> dict[str, Any]:
    """MS-REBEL-2: the leaders that may try, and the rebelling cities."""
    rebellion = state.rebellion
    assert rebellion is not None
    p = get_player(state, name)
    fit = []
    for leader in p.leaders:
        if not leader.in_city or not leader.active or leader.place in rebellion.cities:
            continue
        base = city_at(state, leader.place)
        if base is not None and base.kind in (GARRISON, TEMPLE):
            fit.append((leader.value, f"{leader.value}-leader in the {base.label} at "
                                      f"{leader.place}"))
    return {"leaders": fit, "cities": [(c, (city_at(state, c) or City("arms", 1)).label)
                                       for c in rebellion.cities],
            "hires": state.options.rebellion_hires, "most": min(p.goods, p.gold)}


def build_choices(state: GameState, name: str) -> dict[str, Any]:
    """MS-BUILD-1..9: explore, roads, ports and exchange, with their costs."""
    p = get_player(state, name)
    roads = []
    for start, end in economy.road_targets(state, name):
        city = city_at(state, end)
        assert city is not None
        roads.append((f"{start}>{end}", f"{city.label} at {end} from {start} "
                      f"({city.value} goods + {city.value} gold)"))
    ports = []
    for c in controlled_cities(state, name):
        if is_coastal(c):
            have = port_at(state, c)
            piers = have.piers if have is not None else 0
            if piers < MAX_PIERS:
                ports.append((c, f"{(city_at(state, c) or City('arms', 1)).label} at {c} "
                                 f"({piers} piers)", MAX_PIERS - piers))
    tops = [(suit, City(suit, stack(state, suit)[0]).label) for suit in SUITS
            if stack(state, suit)]
    return {"tops": tops, "places": economy.explore_places(state, name), "roads": roads,
            "ports": ports, "most_piers": max((room for _, _, room in ports), default=0),
            "goods": p.goods, "gold": p.gold}


def leader_choices(state: GameState, name: str) -> dict[str, Any]:
    """MS-LEAD-1..4, MS-MOVE-1..4, MS-ATK-1..4: the king change and each leader's legal
    actions, lowest value first."""
    p = get_player(state, name)
    turn = state.current
    king_options = []
    if not turn.king_changed and turn.last_leader < 0 and not turn.actions:
        for leader in p.leaders:
            if leader.place == IN_RESERVE:
                cost = economy.king_change_cost(p.king.value, leader.value)
                king_options.append((leader.value, f"{leader.value}-leader ({cost.goods} goods "
                                                   f"+ {cost.gold} gold)"))
    actors = []
    if turn.actions < leaders.MAX_ACTIONS:
        for leader in sorted(p.leaders, key=lambda item: item.value):
            if leader.place == IN_CAPITAL or leader.value <= turn.last_leader:
                continue
            entry: dict[str, Any] = {"value": leader.value, "place": leader.place,
                                     "active": leader.active, "activate": False,
                                     "moves": [], "attacks": []}
            if leader.in_city and not leader.active:
                entry["activate"] = True
            if leader.active:
                entry["moves"] = list(leaders.move_destinations(state, name, leader.value))
                base = city_at(state, leader.place) if leader.in_city else None
                if base is not None and base.kind in (GARRISON, TEMPLE):
                    kind = conflict.MILITARY if base.kind == GARRISON else conflict.MISSIONARY
                    entry["attack_kind"] = kind
                    for target in conflict.legal_targets(state, name, leader.value, kind):
                        entry["attacks"].append((f"{kind}:{target.kind}:{target.place}",
                                                 target_words(state, target)))
            if entry["activate"] or entry["moves"] or entry["attacks"]:
                actors.append(entry)
    return {"king_options": king_options, "actors": actors, "actions": turn.actions,
            "most_hires": min(p.goods, p.gold)}


def target_words(state: GameState, target: conflict.Target) -> str:
    """MS-ATK-2: a target as a player names it: "the 2-market at E-FL (Blue)", "the port at
    N-FM (3 piers, Red)", "Blue's 2-leader at E-FL", "Blue's king"."""
    if target.kind in (conflict.CAPITAL, conflict.KING):
        owner = next(p.name for p in state.players if p.capital == target.place)
        return f"{owner}'s Capital" if target.kind == conflict.CAPITAL else f"{owner}'s king"
    city = city_at(state, target.place)
    label = city.label if city is not None else target.place
    who = controller(state, target.place)
    if target.kind == conflict.PORT:
        harbour = port_at(state, target.place)
        piers = harbour.piers if harbour is not None else 0
        return f"the port at {target.place} ({piers} piers, {who})"
    if target.kind == conflict.LEADER_TARGET:
        governor = leader_at(state, target.place)
        value = governor[1].value if governor is not None else "?"
        return f"{who}'s {value}-leader at {target.place}"
    return f"the {label} at {target.place} ({who or 'nobody'})"


def overview_context(access: Access) -> dict[str, Any]:
    """The campaign page: the standings with the calculated score (MS-WIN-2), read with the
    kingdoms the page has already read."""
    loaded = read_game(access.campaign, access.memo.get("kingdoms"))
    if loaded is None:
        return {}
    return {"ms_rows": rows(loaded), "ms_state": loaded.state,
            "ms_clock": clock_label_of(loaded.state.round, loaded.state.phase),
            "ms_reason": REASONS.get(loaded.state.end_reason, "")}


def kingdom_context(access: Access, kingdom: Kingdom) -> dict[str, Any]:
    """A kingdom's page: its row of the standings and its leaders."""
    loaded = read_game(access.campaign)
    if loaded is None:
        return {}
    name = loaded.name_of(kingdom)
    row = next((r for r in rows(loaded) if r.name == name), None)
    return {"ms_row": row}


def tile_lines(loaded: Loaded, label: str) -> list[dict[str, str]]:
    """MS-TERM-1..3, MS-BUILD-7: a space's city, controller, leader and port, for the map's
    tile panel (``colour`` and ``text`` per line)."""
    state = loaded.state
    colours = {name: k.colour for name, k in loaded.kingdoms.items()}
    lines = []
    owner = next((p for p in state.players if p.capital == label), None)
    if owner is not None:
        lines.append({"colour": colours.get(owner.name, ""),
                      "text": f"Capital of {owner.name}: king {owner.king.value} "
                              "(defends with 10, MS-CITY-5)"})
        return lines
    city = city_at(state, label)
    if city is None:
        return lines
    who = controller(state, label)
    lines.append({"colour": colours.get(who or "", ""),
                  "text": f"The {city.label} ({city.suit}), "
                          + (f"controlled by {who}" if who else "uncontrolled")
                          + ("; home city" if who and get_player(state, who).continent ==
                             label.split("-")[0] else "; provincial city" if who else "")})
    if who:
        linked = linked_to_capital(state, who, label)
        lines.append({"colour": colours.get(who, ""),
                      "text": ("A trade route joins it to the Capital" if linked else
                               "No trade route joins it to the Capital")
                      + (" (MS-PROD-4)" if city.kind in ("market", "mine") else
                         " (MS-TERM-5)")})
    governor = leader_at(state, label)
    if governor is not None:
        lines.append({"colour": colours.get(governor[0], ""),
                      "text": f"{governor[0]}'s {governor[1].value}-leader, "
                              + ("active" if governor[1].active else "inactive")})
    harbour = port_at(state, label)
    if harbour is not None:
        lines.append({"colour": colours.get(harbour.owner, ""),
                      "text": f"Port of {harbour.owner}: {harbour.piers} piers"})
    return lines


def expected_actor(loaded: Loaded) -> str | None:
    """MS-ROUND-2, MS-ATK-6, MS-AMB-20, MS-DOM-5: who the game waits for."""
    state = loaded.state
    if state.ended:
        return None
    if loaded.game.pending:
        return str(loaded.game.pending.get("defender") or "") or None
    if state.rebellion is not None:
        return state.rebellion.owner
    if state.phase == DOMINANCE:
        return _first_after_ties(state) if dominance_ties(state) else None
    if state.phase in (CONTROL, BUILD, LEADER):
        return current_player(state)
    return None
