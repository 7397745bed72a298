"""Every action of a game of the Middle Sea, from setting it up to the last attack.

Each function is one chronicle event written by ``game.perform`` (setup writes its own): it
checks that the right person acts (the player whose turn it is, the defender, the owner of a
rebellion, the player in 1st for a tie, or a GM for any of them), calls the pure rules, and
refuses what they refuse with their words and rule ID. Nothing is written on a refusal.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone

from campaign import words
from campaign.chronicle import Recorder
from campaign.locking import lock_campaign, lock_kingdoms
from campaign.models import Campaign, Event, Map, Tile
from campaign.services import ConflictError, ServiceError
from campaign.systems.middle_sea import game as g
from campaign.systems.middle_sea.game import Acting, GameRefused, Line, Loaded, Note
from campaign.systems.middle_sea.models import Game
from campaign.systems.middle_sea.rules import (
    conflict,
    control,
    economy,
    layout,
    leaders,
    phases,
)
from campaign.systems.middle_sea.rules.board import SUITS, City, RuleViolation, continents_for
from campaign.systems.middle_sea.rules.dominance import dominance_ties
from campaign.systems.middle_sea.rules.state import (
    DOMINANCE,
    GOLD,
    GOODS,
    GameState,
    MSOptions,
    current_player,
    get_player,
    leader_at,
)

MAX_PLAYERS = 4
MIN_PLAYERS = 2

# --- setting up (MS-SETUP) ------------------------------------------------------------------------


def _rounds_of_rolls(names: Sequence[str], typed: Mapping[str, Sequence[int]],
                     rng: random.Random | None) -> tuple[list[dict[str, int]], bool]:
    """MS-SETUP-8: the rolls for first dominance, as the rules take them: all players first,
    then the tied ones again. Typed rolls give each player's first roll and rerolls in order;
    with none typed, the server rolls. Returns the rounds and whether the server rolled."""
    server = not any(typed.values())
    if server and rng is None:
        rng = random.SystemRandom()
    used = {name: 0 for name in names}
    rolling = list(names)
    rounds: list[dict[str, int]] = []
    while True:
        roll: dict[str, int] = {}
        for name in rolling:
            if server:
                assert rng is not None
                roll[name] = rng.randint(0, 5)
                continue
            mine = list(typed.get(name, ()))
            if used[name] >= len(mine):
                if rounds:
                    raise GameRefused(
                        f"{', '.join(rolling)} are tied for 1st and roll again: type each "
                        "one's reroll after their first roll (MS-SETUP-8)."
                    )
                raise GameRefused(f"Type a roll for every player, {name} too (MS-SETUP-8).")
            roll[name] = mine[used[name]]
            used[name] += 1
        rounds.append(roll)
        top = max(roll.values())
        rolling = [name for name in rolling if roll[name] == top]
        if len(rolling) == 1:
            break
    if not server and any(used[name] != len(typed.get(name, ())) for name in names):
        raise GameRefused("More rolls were typed than the ties needed (MS-SETUP-8).")
    return rounds, server


def layout_tiles(game_map: Map) -> list[Tile]:
    """MS-BOARD-1..5: the territories of the table, unsaved: the four continents' spaces and the
    Middle Sea, with their borders and drawing positions (RuleSystem shell's
    ``initial_tiles``)."""
    tiles = []
    for label in layout.labels():
        q, r = layout.map_position(label)
        terrain = layout.SEA_TERRAIN if label == layout.SEA else layout.LAND
        tiles.append(Tile(map=game_map, q=q, r=r, label=label, terrain=terrain,
                          adjacent=list(layout.borders(label)), explored=True,
                          name="The Middle Sea" if label == layout.SEA else ""))
    return tiles


def _lay_table(rec: Recorder, campaign: Campaign) -> None:
    """Make sure the campaign's map is the table of the Middle Sea (a territory map with one
    territory per space): lay it out if there is none or it is another map."""
    game_map = Map.objects.filter(campaign=campaign).first()
    if game_map is not None:
        labels = set(Tile.objects.filter(map=game_map).values_list("label", flat=True))
        if game_map.kind == "territory" and labels == set(layout.labels()):
            return
        rec.delete(game_map)
    game_map = Map(campaign=campaign, kind="territory", orientation="flat", width=7, height=7)
    rec.create(game_map)
    rec.create_many(Tile, layout_tiles(game_map))


#: MS-BOARD-3: the ways round the sea a group may sit, besides the default (clockwise from
#: north, the west left out for three, north and south for two).
TABLES = {
    "no-N": (3, "N"), "no-E": (3, "E"), "no-S": (3, "S"), "no-W": (3, "W"),
    "NS": (2, ("N", "S")), "EW": (2, ("E", "W")),
}


def table_continents(count: int, table: str = "") -> tuple[str, ...]:
    """MS-BOARD-3: the continents of the seats, clockwise, for ``count`` players sitting as
    ``table`` says (a key of ``TABLES``, or empty for the default)."""
    if not table:
        return continents_for(count)
    if table not in TABLES or TABLES[table][0] != count:
        raise GameRefused(
            "Four players use every continent, three leave one out, two sit on opposite "
            f"continents: {table!r} does not fit {count} players (MS-BOARD-3).")
    choice = TABLES[table][1]
    if count == 3:
        assert isinstance(choice, str)
        return continents_for(3, left_out=choice)
    assert isinstance(choice, tuple)
    return continents_for(2, pair=choice)


def setup_game(campaign: Campaign, acting: Acting, seats: Sequence[tuple[int, str]],
               rolls: Mapping[int, Sequence[int]] | None = None,
               rng: random.Random | None = None, table: str = "") -> Event:
    """MS-SETUP-1..8, MS-BOARD-3, MS-EQUIP-4: a GM seats 2 to 4 kingdoms, each with a suit of
    its own (``seats`` as (kingdom id, suit) in seat order, each to the left of the one before);
    continents follow the player count (or ``table``, see ``TABLES``); everyone gets 4 goods,
    4 gold, unrest 0 and the 1-leader as king; first dominance comes from the rolls typed
    (each kingdom's first roll, then any rerolls for a tie) or, with none typed, from the
    server's dice."""
    if not acting.is_gm:
        raise GameRefused("The game master sets up the game (MS-SETUP-1).")
    with transaction.atomic():
        locked = lock_campaign(campaign)
        kingdoms = lock_kingdoms(locked)
        if Game.objects.filter(campaign=locked).exists():
            raise ConflictError("The game is set up already.")
        if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
            raise GameRefused(f"The game is for 2 to 4 players, not {len(seats)} (MS-EQUIP-4).")
        ids = [pk for pk, _ in seats]
        if len(set(ids)) != len(ids):
            raise GameRefused("Each kingdom takes one seat (MS-SETUP-1).")
        missing = [pk for pk in ids if pk not in kingdoms]
        if missing:
            raise GameRefused("Seat only kingdoms of this campaign.")
        for _, suit in seats:
            if suit not in SUITS:
                raise GameRefused(f"There is no suit called {suit!r} (MS-EQUIP-1).")
        names = [kingdoms[pk].name for pk in ids]
        typed = {kingdoms[pk].name: list(v) for pk, v in (rolls or {}).items() if pk in kingdoms}
        try:
            state = phases.new_game([(kingdoms[pk].name, suit) for pk, suit in seats],
                                    table_continents(len(seats), table),
                                    MSOptions.from_dict(locked.options))
            rounds, server = _rounds_of_rolls(names, typed, rng)
            state = phases.settle_first_dominance(state, rounds)
        except (RuleViolation, ValueError) as exc:
            raise GameRefused(str(exc)) from None
        game = Game(campaign=locked, state=state.to_dict(), seats=ids)
        loaded = Loaded(locked, game, state, {kingdoms[pk].name: kingdoms[pk] for pk in ids})
        summary = (f"The game is set up for {', '.join(names)}; first dominance: "
                   f"{', '.join(state.order)}.")
        with Recorder(locked, acting.user, "middle_sea.setup", summary,
                      data={"middle_sea": {"seats": [[n, s] for n, (_, s) in
                                                     zip(names, seats)]}}) as rec:
            for i, roll in enumerate(rounds):
                rec.roll(f"first dominance{' reroll' if i else ''}: "
                         + ", ".join(roll), list(roll.values()),
                         "server" if server else "table")
            _lay_table(rec, locked)
            rec.create(game)
            lines = [(name, Line(resource, amount, "MS-SETUP-6", "starting reserve"))
                     for name in names for resource, amount in
                     ((GOODS, phases.START_GOODS), (GOLD, phases.START_GOLD))]
            g.post(rec, [(loaded.kingdom_of(n), line) for n, line in lines])
            g.sync_map(rec, locked, state, loaded.kingdoms)
            rec.update(locked, year=state.round, phase=state.phase, season="", month=None,
                       sub_phase="")
        assert rec.event is not None
        return rec.event


# --- turns ----------------------------------------------------------------------------------------


def _no_pending(loaded: Loaded) -> None:
    pending = loaded.game.pending
    if pending:
        raise GameRefused(f"{pending['defender']} must first answer the attack on "
                          f"{pending['place']} (MS-ATK-5, MS-ATK-6).")


def _on_turn(loaded: Loaded, acting: Acting) -> str:
    """The player to act, checked against who sends the action (MS-ROUND-2)."""
    _no_pending(loaded)
    try:
        name = current_player(loaded.state)
    except RuleViolation as exc:
        raise GameRefused(str(exc)) from None
    if not acting.is_gm and loaded.name_of(acting.kingdom) != name:
        raise GameRefused(f"It is {name}'s turn; players act in dominance order (MS-ROUND-2).")
    return name


def end_turn(campaign: Campaign, acting: Acting) -> Event:
    """MS-ROUND-1..3: the player to act ends their control, build or leader turn; after the last
    leader turn the round ends and victories are checked (MS-WIN-4..6)."""

    def step(loaded: Loaded) -> tuple[GameState, Note]:
        name = _on_turn(loaded, acting)
        state = loaded.state
        phase = state.phase
        after = phases.end_turn(state, name)
        words = f"{name} ends their {phase} turn."
        if after.round != state.round and not after.ended:
            words += f" Round {after.round} begins."
        return after, Note(words, data={"action": "end_turn", "player": name})

    return g.perform(campaign, acting, "middle_sea.turn", step)


def settle_control(campaign: Campaign, acting: Acting, payments: int,
                   rebels: Sequence[str]) -> Event:
    """MS-CONTROL-1..4, MS-REBEL-1: pay to keep excess cities and name the ones that rebel."""

    def step(loaded: Loaded) -> tuple[GameState, Note]:
        name = _on_turn(loaded, acting)
        after = control.settle_control(loaded.state, name, payments, rebels)
        words = f"{name} pays {payments} goods and {payments} gold to keep cities"
        words += (f"; {', '.join(rebels)} rebel." if rebels else "; no city rebels.")
        return after, Note(words, rules={GOODS: "MS-CONTROL-3", GOLD: "MS-CONTROL-3"},
                           data={"action": "control", "player": name, "payments": payments,
                                 "rebels": list(rebels)})

    return g.perform(campaign, acting, "middle_sea.control", step)


def _rebellion_owner(loaded: Loaded, acting: Acting) -> str:
    _no_pending(loaded)
    rebellion = loaded.state.rebellion
    if rebellion is None:
        raise GameRefused("No city is rebelling (MS-REBEL-2).")
    g.require_actor(loaded, acting, rebellion.owner, "MS-AMB-20")
    return rebellion.owner


def put_down(campaign: Campaign, acting: Acting, city: str, leader: int,
             hires: int = 0) -> Event:
    """MS-REBEL-2, MS-REBEL-3, MS-AMB-5, MS-AMB-20: the rebellion's owner attacks a rebelling
    city with a leader from a garrison or temple."""

    def step(loaded: Loaded) -> tuple[GameState, Note]:
        name = _rebellion_owner(loaded, acting)
        after, result = control.put_down(loaded.state, name, city, leader, hires)
        words = (f"{name}'s {leader}-leader tries to put down the rebellion at {city}: "
                 f"{result.attack} against {result.defense}, "
                 + ("the rebellion ends there." if result.success else "it fails."))
        return after, Note(words, rules={GOODS: "MS-AMB-5", GOLD: "MS-AMB-5"},
                           data={"action": "put_down", "player": name, "city": city,
                                 "leader": leader, "attack": result.attack,
                                 "defense": result.defense, "success": result.success})

    return g.perform(campaign, acting, "middle_sea.rebellion", step)


def end_rebellion(campaign: Campaign, acting: Acting) -> Event:
    """MS-REBEL-4, MS-UNREST-3, MS-UNREST-4: the owner gives up the cities still rebelling."""

    def step(loaded: Loaded) -> tuple[GameState, Note]:
        name = _rebellion_owner(loaded, acting)
        rebellion = loaded.state.rebellion
        assert rebellion is not None
        after = control.end_rebellion(loaded.state, name)
        lost = ", ".join(rebellion.cities)
        words = (f"{name} loses {lost}; unrest rises to {get_player(after, name).unrest}."
                 if rebellion.cities else f"{name}'s rebellion is over.")
        return after, Note(words, rules={"unrest": "MS-REBEL-4"},
                           data={"action": "end_rebellion", "player": name,
                                 "lost": list(rebellion.cities)})

    return g.perform(campaign, acting, "middle_sea.rebellion", step)


def order_dominance(campaign: Campaign, acting: Acting, choice: Sequence[str]) -> Event:
    """MS-DOM-5: the player in 1st orders the tied players below; production follows."""

    def step(loaded: Loaded) -> tuple[GameState, Note]:
        _no_pending(loaded)
        state = loaded.state
        if state.phase != DOMINANCE or not dominance_ties(state):
            raise GameRefused("No tie waits for the first player's choice (MS-DOM-5).")
        after = phases.resolve_dominance(state, choice)
        g.require_actor(loaded, acting, after.order[0], "MS-DOM-5")
        return after, Note(f"{after.order[0]}, in 1st, orders the ties: "
                           + ", ".join(after.order) + ".",
                           data={"action": "dominance", "order": list(after.order)})

    return g.perform(campaign, acting, "middle_sea.dominance", step)


# --- build phase (MS-BUILD) -----------------------------------------------------------------------

BUILD_RULES = {GOODS: "MS-BUILD-2", GOLD: "MS-BUILD-2"}


def explore(campaign: Campaign, acting: Acting, suit: str, place: str | None) -> Event:
    """MS-BUILD-2..4, MS-AMB-13, MS-AMB-16, MS-AMB-22."""

    def step(loaded: Loaded) -> tuple[GameState, Note]:
        name = _on_turn(loaded, acting)
        state = loaded.state
        pile = state.stacks
        top = dict(pile).get(suit, ())
        after = economy.explore(state, name, suit, place)
        city = f"{top[0]}-{City(suit, top[0]).kind}" if top else suit
        where = f"on {place}" if place else f"at the bottom of the {suit} stack"
        return after, Note(f"{name} explores: the {city} goes {where}.", rules=BUILD_RULES,
                           data={"action": "explore", "player": name, "suit": suit,
                                 "place": place})

    return g.perform(campaign, acting, "middle_sea.build", step)


def build_road(campaign: Campaign, acting: Acting, start: str, end: str) -> Event:
    """MS-BUILD-5, MS-BUILD-6, MS-UNREST-2."""

    def step(loaded: Loaded) -> tuple[GameState, Note]:
        name = _on_turn(loaded, acting)
        after = economy.build_road(loaded.state, name, start, end)
        return after, Note(f"{name} builds a road from {start} to {end}.",
                           rules={GOODS: "MS-BUILD-5", GOLD: "MS-BUILD-5",
                                  "unrest": "MS-BUILD-6"},
                           data={"action": "road", "player": name, "from": start, "to": end})

    return g.perform(campaign, acting, "middle_sea.build", step)


def build_port(campaign: Campaign, acting: Acting, place: str, piers: int) -> Event:
    """MS-BUILD-7, MS-BUILD-8, MS-AMB-18."""

    def step(loaded: Loaded) -> tuple[GameState, Note]:
        name = _on_turn(loaded, acting)
        after = economy.build_port(loaded.state, name, place, piers)
        return after, Note(f"{name} adds {words.counted(piers, 'pier')} to the port "
                           f"at {place}.", rules={GOODS: "MS-BUILD-7", GOLD: "MS-BUILD-7"},
                           data={"action": "port", "player": name, "place": place,
                                 "piers": piers})

    return g.perform(campaign, acting, "middle_sea.build", step)


def exchange(campaign: Campaign, acting: Acting, give: str, received: int) -> Event:
    """MS-BUILD-9: two of one resource for one of the other, ``received`` times."""

    def step(loaded: Loaded) -> tuple[GameState, Note]:
        name = _on_turn(loaded, acting)
        after = economy.exchange(loaded.state, name, give, received)
        other = GOLD if give == GOODS else GOODS
        return after, Note(f"{name} trades {2 * received} {give} for {received} {other}.",
                           rules={GOODS: "MS-BUILD-9", GOLD: "MS-BUILD-9"},
                           data={"action": "exchange", "player": name, "give": give,
                                 "received": received})

    return g.perform(campaign, acting, "middle_sea.build", step)


# --- leader phase (MS-LEAD, MS-MOVE) --------------------------------------------------------------


def change_king(campaign: Campaign, acting: Acting, value: int) -> Event:
    """MS-LEAD-1, MS-LEAD-2."""

    def step(loaded: Loaded) -> tuple[GameState, Note]:
        name = _on_turn(loaded, acting)
        old = get_player(loaded.state, name).king.value
        after = leaders.change_king(loaded.state, name, value)
        return after, Note(f"{name} changes king from the {old}-leader to the {value}-leader.",
                           rules={GOODS: "MS-LEAD-2", GOLD: "MS-LEAD-2"},
                           data={"action": "king", "player": name, "from": old, "to": value})

    return g.perform(campaign, acting, "middle_sea.leader", step)


def activate(campaign: Campaign, acting: Acting, value: int) -> Event:
    """MS-LEAD-3, MS-LEAD-4."""

    def step(loaded: Loaded) -> tuple[GameState, Note]:
        name = _on_turn(loaded, acting)
        after = leaders.activate(loaded.state, name, value)
        return after, Note(f"{name} activates the {value}-leader.",
                           data={"action": "activate", "player": name, "leader": value})

    return g.perform(campaign, acting, "middle_sea.leader", step)


def move_leader(campaign: Campaign, acting: Acting, value: int, destination: str) -> Event:
    """MS-MOVE-1..5, MS-AMB-2, MS-AMB-14."""

    def step(loaded: Loaded) -> tuple[GameState, Note]:
        name = _on_turn(loaded, acting)
        after = leaders.move_leader(loaded.state, name, value, destination)
        return after, Note(f"{name}'s {value}-leader moves to {destination}.",
                           data={"action": "move", "player": name, "leader": value,
                                 "to": destination})

    return g.perform(campaign, acting, "middle_sea.leader", step)


def _attack(state: GameState, declared: Mapping[str, Any], defense_hires: int,
            adds_leader: bool) -> tuple[GameState, conflict.ConflictResult]:
    attack = (conflict.military_attack if declared["kind"] == conflict.MILITARY
              else conflict.missionary_attack)
    return attack(state, declared["attacker"], declared["leader"],
                  conflict.Target(declared["target"], declared["place"]),
                  declared["hires"], defense_hires, adds_leader)


def _conflict_note(result: conflict.ConflictResult) -> Note:
    target = result.target
    outcome = {
        conflict.REPELLED: "the attack fails",
        conflict.PORT_DESTROYED: "the port is destroyed",
        conflict.CONQUERED: "the city is conquered",
        conflict.CAPITAL_TAKEN: "the Capital falls",
        conflict.LEADER_INACTIVATED: "the leader is made inactive",
        conflict.REBELLION: "the city rebels",
        conflict.RETURNED_TO_STACK: "the city goes back to its stack",
        conflict.KING_DEFEATED: "the king is defeated",
    }[result.outcome]
    words = (f"{result.attacker}'s {result.leader}-leader makes a {result.kind} attack on the "
             f"{target.kind} at {target.place}"
             + (f" ({result.defender})" if result.defender else "")
             + f": {result.attack} against {result.defense}, {outcome}.")
    return Note(words, rules={GOODS: "MS-ATK-7", GOLD: "MS-ATK-7", "unrest": "MS-MIL-9"},
                data={"action": "attack", "kind": result.kind, "attacker": result.attacker,
                      "leader": result.leader, "target": target.kind, "place": target.place,
                      "defender": result.defender, "attack": result.attack,
                      "defense": result.defense, "success": result.success,
                      "outcome": result.outcome, "attack_hires": result.attack_hires,
                      "defense_hires": result.defense_hires,
                      "defender_added_leader": result.defender_added_leader})


def defender_choices(state: GameState, declared: Mapping[str, Any]) -> tuple[int, int | None]:
    """MS-ATK-7, MS-MIL-6, MS-MISS-6: what the defender of a declared attack may add: the most
    hires their reserve pays for, and the value of the active leader in the target (None when
    there is none to add)."""
    defender = declared.get("defender")
    if not defender:
        return 0, None
    p = get_player(state, defender)
    hires = min(p.goods, p.gold)
    if declared["target"] in (conflict.CAPITAL, conflict.KING):
        guard = p.king.value if declared["target"] == conflict.CAPITAL else None
        return hires, guard
    present = leader_at(state, declared["place"])
    guard = present[1].value if present is not None and present[1].active else None
    if declared["kind"] == conflict.MISSIONARY and declared["target"] == conflict.CITY:
        guard = None
    return hires, guard


def declare_attack(campaign: Campaign, acting: Acting, kind: str, leader: int,
                   target: str, place: str, hires: int) -> Event:
    """MS-ATK-1..10, MS-AMB-23: the attacker fixes the leader, the target and their hires. When
    the target has a defender with something to decide (hires they can pay, a leader they could
    add), the attack waits for their answer (``defend``); otherwise it is resolved at once."""

    def step(loaded: Loaded) -> tuple[GameState, Note]:
        name = _on_turn(loaded, acting)
        state = loaded.state
        if kind not in (conflict.MILITARY, conflict.MISSIONARY):
            raise GameRefused("An attack is military or missionary (MS-ATK-1).")
        declared = {"attacker": name, "kind": kind, "leader": leader, "target": target,
                    "place": place, "hires": hires}
        # A trial with no defence checks the attack is legal and paid for.
        trial, result = _attack(state, declared, 0, False)
        declared["defender"] = result.defender
        most, guard = defender_choices(state, declared)
        if result.defender is None or (most == 0 and guard is None):
            return trial, _conflict_note(result)
        note = Note(f"{name}'s {leader}-leader declares a {kind} attack on the {target} at "
                    f"{place} with an attack total of {result.attack}; {result.defender} "
                    "answers.", data={"action": "declare", **declared,
                                      "attack": result.attack})
        note.pending = declared
        return state, note

    return g.perform(campaign, acting, "middle_sea.attack", step)


def defend(campaign: Campaign, acting: Acting, hires: int, adds_leader: bool) -> Event:
    """MS-ATK-6..9, MS-AMB-23: the defender of the declared attack fixes their hires and whether
    the leader present joins the defence; the conflict is then resolved."""

    def step(loaded: Loaded) -> tuple[GameState, Note]:
        declared = loaded.game.pending
        if not declared:
            raise GameRefused("No attack waits for an answer (MS-ATK-6).")
        g.require_actor(loaded, acting, declared["defender"], "MS-ATK-6")
        after, result = _attack(loaded.state, declared, hires, adds_leader)
        note = _conflict_note(result)
        note.pending = {}
        return after, note

    return g.perform(campaign, acting, "middle_sea.attack", step)


# --- the timed game (MS-WIN-3) --------------------------------------------------------------------


def start_clock(campaign: Campaign, acting: Acting, minutes: int,
                now: dt.datetime | None = None) -> Event:
    """MS-WIN-3: a GM starts the game's clock with a time limit in minutes."""
    if not acting.is_gm:
        raise GameRefused("The game master starts the clock (MS-WIN-3).")
    if not 1 <= minutes <= 1440:
        raise GameRefused("A time limit is 1 to 1440 minutes (MS-WIN-3).")
    started = now or timezone.now()

    def step(loaded: Loaded) -> tuple[GameState, Note]:
        note = Note(f"The clock starts: {minutes} minutes (MS-WIN-3).",
                    data={"action": "clock", "minutes": minutes})
        note.game = {"time_limit_minutes": minutes, "clock_started_at": started}
        return loaded.state, note

    return g.perform(campaign, acting, "middle_sea.clock", step, now=started)


def call_time(campaign: Campaign, acting: Acting) -> Event:
    """MS-WIN-3: a GM says "time": the current round is the last."""
    if not acting.is_gm:
        raise GameRefused("The game master calls time (MS-WIN-3).")

    def step(loaded: Loaded) -> tuple[GameState, Note]:
        if loaded.state.time_called:
            raise GameRefused("Time is called already (MS-WIN-3).")
        return phases.call_time(loaded.state), Note(
            "Time is called: the game ends with this round (MS-WIN-3).",
            data={"action": "time"})

    return g.perform(campaign, acting, "middle_sea.clock", step)


def gm_end_turn(campaign: Campaign, acting: Acting) -> Event:
    """A GM ends the turn of the player to act (who is away, say): the same rules apply."""
    if not acting.is_gm:
        raise ServiceError("Only a GM ends another player's turn.")
    return end_turn(campaign, acting)

