"""Fighting a pending battle in the app: Simple battles die by die (MK-SIMPLE), naval battles
round by round (MK-NAVAL, MK-AMB-12) and land/water battles from dice (MK-LW).

A battle in progress is kept in ``Battle.data["play"]``: the frozen participants (points and
Defence at the start), each side's dice and where they came from, and every allocation, round or
concession so far. The rules (``rules.battles``) replay that record into their
state on every request, so they validate each step and nothing else keeps a copy.

The record in progress touches nothing but the battle row, and each step of it (the set-up,
each side's dice, each allocation or choice of losses) is a chronicle entry of its own, with its
dice, so undo takes back one step at a time. When the battle is over, the last step and the
outcome are one entry: points losses (Army.points -100 per hit, destroyed at 0), then the same
MK-RESULT code path as a result the GM enters by hand (``summer_battles.enter_result``), with the
dice, each allocation and the outcome told in the entry. Undoing that entry puts every row back
as it was just before that last step.

Who may act: the side whose turn it is (the chooser is the attacker, MK-BSEL-6, MK-AMB-3), by
its player or by a GM (``kingdom=None`` below). Every refusal raises ``ServiceError`` and
changes nothing.
"""

from __future__ import annotations

import copy
from typing import Any

from django.db import transaction

from battles.models import Battle
from campaign import words
from campaign.chronicle import Recorder, snapshot
from campaign.models import Kingdom
from campaign.services import ServiceError
from campaign.systems.mighty_kingdoms import summer_battles, summer_common
from campaign.systems.mighty_kingdoms.rules import battles as mkb
from campaign.systems.mighty_kingdoms.state import MKState, load_state
from campaign.systems.mighty_kingdoms.summer_common import (
    kingdom_name,
    label_of,
    month_battles,
    movers_at,
    require_phase,
)

A, D = mkb.Side.ATTACKER.value, mkb.Side.DEFENDER.value
SIDES = (A, D)
SIMPLE, NAVAL, LAND_WATER = "simple", "naval", "land_water"


# -- shared -----------------------------------------------------------------------------------


def play_type(battle: Battle) -> str | None:
    """Which in-app battle this is: simple (a land battle in Simple mode, MK-LAND-3), naval,
    land_water, or None (a Kings of War game, MK-LAND-2, or a slaughter: decided at the table,
    entered on the battle page)."""
    if battle.kind == mkb.BattleKind.LAND.value and battle.mode == "simple":
        return SIMPLE
    if battle.kind == mkb.BattleKind.NAVAL.value:
        return NAVAL
    if battle.kind == mkb.BattleKind.LAND_WATER.value:
        return LAND_WATER
    return None


def side_kingdom(battle: Battle, side: str) -> int:
    return battle.chooser_id if side == A else battle.opponent_id


def _load(campaign: Any, battle_id: int) -> tuple[MKState, Battle]:
    state = load_state(campaign, lock=True)
    require_phase(state, "C")
    battle = next((b for b in month_battles(state) if b.pk == battle_id), None)
    if battle is None:
        raise ServiceError("There is no such battle this month.")
    if battle.status != Battle.Status.PENDING or battle.result_chooser:
        raise ServiceError("This battle is over: its result has already been entered.")
    # The row as it is now, before the step changes its record in place: the event's
    # before-image, so undoing the step returns exactly here.
    battle._before = copy.deepcopy(snapshot(battle))  # type: ignore[attr-defined]
    return state, battle


def _play(battle: Battle, kind: str | None = None) -> dict[str, Any]:
    play = (battle.data or {}).get("play")
    if play is None:
        raise ServiceError("This battle has not been set up yet.")
    if kind is not None and play["type"] != kind:
        raise ServiceError("That is not how this battle is fought.")
    return play


def _may_act(state: MKState, battle: Battle, kingdom: Kingdom | None, side: str) -> None:
    """The side's own player, or a GM (``kingdom`` None)."""
    if kingdom is None:
        return
    owner = side_kingdom(battle, side)
    if kingdom.pk not in (battle.chooser_id, battle.opponent_id):
        raise ServiceError(f"{kingdom_name(state, kingdom.pk)} is not fighting this battle.")
    if kingdom.pk != owner:
        raise ServiceError(f"That is for {kingdom_name(state, owner)} to do, not "
                           f"{kingdom_name(state, kingdom.pk)}.")


def _save_draft(state: MKState, battle: Battle, user: Any, play: dict[str, Any], summary: str,
                dice: list[dict[str, Any]] | None = None) -> None:
    """Save one step of the battle in progress as a chronicle entry of its own (with the dice
    it rolled), so undo takes it back exactly."""
    with Recorder(state.campaign, user, "summer.battle_step",
                  f"Battle at {label_of(state, battle.tile_id)}: {summary}", dice=dice,
                  data={"battle": battle.pk}) as rec:
        battle.data = {**(battle.data or {}), "play": play}
        rec.saved(battle, battle._before)  # type: ignore[attr-defined]


def _rolled(state: MKState, battle: Battle, side: str, values: list[int], source: str,
            rule: str) -> tuple[str, list[dict[str, Any]]]:
    """The summary and dice of a side's roll."""
    name = kingdom_name(state, side_kingdom(battle, side))
    how = "rolled by the server" if source == "server" else "typed in"
    return (f"{name} rolls {', '.join(map(str, values))} ({how}, {rule}).",
            [{"purpose": f"{name}'s battle dice", "values": list(values), "source": source}])


def server_dice(count: int) -> list[int]:
    """``count`` dice rolled by the server (``summer_common.RNG``: the system's random source,
    a seeded one in tests and the demo)."""
    return [summer_common.RNG.randint(1, 6) for _ in range(count)]


def _dice_values(values: list[int] | None, count: int, rule: str) -> tuple[list[int], str]:
    if values is None:
        return server_dice(count), "server"
    values = list(values)
    if len(values) != count or any(
        isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 6 for v in values
    ):
        raise ServiceError(f"Type in {words.counted(count, 'die')}, each 1 to 6 ({rule}).")
    return values, "table"


def _rules(call: Any, *args: Any, **kwargs: Any) -> Any:
    try:
        return call(*args, **kwargs)
    except mkb.BattleError as exc:
        raise ServiceError(str(exc)) from exc


def _fighters(state: MKState, battle: Battle, kind: mkb.BattleKind) -> dict[str, list[str]]:
    tf = summer_battles.tile_forces(state, label_of(state, battle.tile_id))
    if tf is None:
        raise ServiceError("Nobody is left on this battle's tile.")
    return {side: [t.id for t in mkb.fighting_tokens(tf.tokens_of(side_kingdom(battle, side)),
                                                      kind)] for side in SIDES}


def _finish(state: MKState, battle: Battle, user: Any, outcome: mkb.Outcome, *,
            removed: list[str], points: dict[str, int], story: list[str],
            dice: list[dict[str, Any]], play: dict[str, Any]) -> Battle:
    """Apply the outcome as ONE chronicle entry: points losses, then the result
    (``summer_battles.apply_result``, the same path as a result the GM enters by hand)."""
    rec = Recorder(state.campaign, user, "summer.battle_result", "", dice=dice,
                   data={"battle": battle.pk})
    # The steps before this one are entries of their own: undoing this one puts the battle back
    # as it was just before its last step (the row as ``_load`` read it).
    play_done = {**play, "outcome": {"attacker": outcome.attacker.value,
                                     "defender": outcome.defender.value, "rule": outcome.rule,
                                     "attacker_score": outcome.attacker_score,
                                     "defender_score": outcome.defender_score}}
    battle.data = {**(battle.data or {}), "play": play_done}
    rec.saved(battle, battle._before)  # type: ignore[attr-defined]
    movers = movers_at(state, [label_of(state, battle.tile_id)])
    for key, value in points.items():
        army = movers[key].army
        if army is not None:
            rec.update(state.army_rows[army.id], points=value)
    play = play_done
    battle.campaign = state.campaign
    story = story + summer_battles.apply_result(state, rec, battle, result=outcome.attacker.value,
                                                removed=removed)
    rec.summary = " ".join(story)
    rec.data["play"] = play
    rec.finish()
    return Battle.objects.get(pk=battle.pk)


# -- Simple battles (MK-SIMPLE) ---------------------------------------------------------------


def simple_state(play: dict[str, Any]) -> mkb.SimpleBattle | None:
    """The rules' state replayed from the record; None until both sides have rolled."""
    sides = play["sides"]
    if any(sides[s]["dice"] is None for s in SIDES):
        return None
    armies = {s: [mkb.SimpleArmy(a["id"], a["points"], a["defending"]) for a in sides[s]["armies"]]
              for s in SIDES}
    battle = mkb.start_simple_battle(armies[A], armies[D], sides[A]["dice"], sides[D]["dice"],
                                     defence_mode=play["defence_mode"])
    for side, die, target in play["steps"]:
        battle = mkb.allocate(battle, side, die, target)
    return battle


def start_simple(battle_id: int, user: Any, campaign: Any, kingdom: Kingdom | None) -> Battle:
    """MK-SIMPLE-1..3, MK-AMB-1/5: freeze the upright armies, their points and Defence."""
    with transaction.atomic():
        state, battle = _load(campaign, battle_id)
        if play_type(battle) != SIMPLE:
            raise ServiceError("Only a land battle in Simple mode is fought die by die here.")
        if (battle.data or {}).get("play"):
            raise ServiceError("This battle has already been set up.")
        if kingdom is not None and kingdom.pk not in (battle.chooser_id, battle.opponent_id):
            raise ServiceError(f"{kingdom_name(state, kingdom.pk)} is not fighting this battle.")
        movers = movers_at(state, [label_of(state, battle.tile_id)])
        fighters = _fighters(state, battle, mkb.BattleKind.LAND)
        sides = {}
        for side in SIDES:
            armies = []
            for key in fighters[side]:
                army = movers[key].army
                armies.append({"id": key, "name": summer_battles.token_title(state, movers[key]),
                               "points": army.points, "defending": army.defending})
            sides[side] = {"kingdom": side_kingdom(battle, side), "armies": armies,
                           "dice": None, "source": None}
        mode = state.options.simple_defence
        play = {"type": SIMPLE, "defence_mode": mode, "sides": sides, "steps": []}
        # Check the armies against the rules now, with stand-in dice.
        _rules(mkb.start_simple_battle,
               *[[mkb.SimpleArmy(a["id"], a["points"], a["defending"]) for a in sides[s]["armies"]]
                 for s in SIDES],
               *[[1] * len(sides[s]["armies"]) for s in SIDES], defence_mode=mode)
        for side in SIDES:
            for army in sides[side]["armies"]:
                army["defence"] = mkb.simple_defence(army["points"], army["defending"])
        _save_draft(state, battle, user, play,
                    f"Simple battle set up, {kingdom_name(state, battle.chooser_id)} attacking "
                    f"{kingdom_name(state, battle.opponent_id)} (MK-SIMPLE-1).")
        return battle


def roll_simple(battle_id: int, user: Any, campaign: Any, kingdom: Kingdom | None, side: str,
                values: list[int] | None = None) -> Battle:
    """MK-SIMPLE-4: a side's dice, one per upright army: rolled by the server (``values``
    None) or typed in from the table."""
    with transaction.atomic():
        state, battle = _load(campaign, battle_id)
        play = _play(battle, SIMPLE)
        if side not in SIDES:
            raise ServiceError("Say which side rolls.")
        _may_act(state, battle, kingdom, side)
        entry = play["sides"][side]
        if entry["dice"] is not None:
            raise ServiceError(f"{kingdom_name(state, entry['kingdom'])} has already rolled.")
        entry["dice"], entry["source"] = _dice_values(values, len(entry["armies"]), "MK-SIMPLE-4")
        _save_draft(state, battle, user, play,
                    *_rolled(state, battle, side, entry["dice"], entry["source"], "MK-SIMPLE-4"))
        return battle


def allocate(battle_id: int, user: Any, campaign: Any, kingdom: Kingdom | None, side: str,
             die_index: int, target: str) -> Battle:
    """MK-SIMPLE-5..8: the side whose turn it is puts one unused die on one enemy army; when
    the last die is resolved the outcome is applied (MK-SIMPLE-9, MK-RESULT)."""
    with transaction.atomic():
        state, battle = _load(campaign, battle_id)
        play = _play(battle, SIMPLE)
        sim = _rules(simple_state, play)
        if sim is None:
            raise ServiceError("Both sides roll their dice before any is allocated (MK-SIMPLE-4).")
        if side not in SIDES:
            raise ServiceError("Say which side allocates.")
        _may_act(state, battle, kingdom, side)
        _rules(mkb.allocate, sim, side, die_index, target)
        play["steps"].append([side, die_index, target])
        die = sim.side(mkb.Side(side)).dice[die_index]
        names = {a["id"]: a["name"] for s in SIDES for a in play["sides"][s]["armies"]}
        return _after_step(state, battle, user, play,
                           f"{kingdom_name(state, side_kingdom(battle, side))} puts a {die} on "
                           f"{names.get(target, target)} (MK-SIMPLE-5).")


def resolve_automatically(battle_id: int, user: Any, campaign: Any,
                          kingdom: Kingdom | None) -> Battle:
    """MK-SIMPLE-5 ASSIST: roll any dice not yet rolled (server) and allocate every die left by
    ``suggest_allocation``: lowest die that can hit; to an army it destroys, else the lowest
    Defence, then the most points, then roster order; a die that can hit nothing goes to the
    highest Defence. Only a GM may do this for both sides."""
    if kingdom is not None:
        raise ServiceError("Only a GM may resolve a battle automatically for both sides.")
    with transaction.atomic():
        state, battle = _load(campaign, battle_id)
        if not (battle.data or {}).get("play"):
            start_simple(battle_id, user, campaign, None)
            state, battle = _load(campaign, battle_id)
        play = _play(battle, SIMPLE)
        for side in SIDES:
            entry = play["sides"][side]
            if entry["dice"] is None:
                entry["dice"], entry["source"] = server_dice(len(entry["armies"])), "server"
        sim = _rules(simple_state, play)
        while not mkb.simple_battle_over(sim):
            choice = mkb.suggest_allocation(sim)
            sim = mkb.allocate(sim, choice.side, choice.die_index, choice.target)
            play["steps"].append([choice.side.value, choice.die_index, choice.target])
        play["automatic"] = True
        return _after_step(state, battle, user, play, "resolved automatically (MK-SIMPLE-5).")


def _after_step(state: MKState, battle: Battle, user: Any, play: dict[str, Any],
                summary: str) -> Battle:
    sim = simple_state(play)
    assert sim is not None
    if not mkb.simple_battle_over(sim):
        _save_draft(state, battle, user, play, summary)
        return battle
    return _finish_simple(state, battle, user, play, sim)


def _finish_simple(state: MKState, battle: Battle, user: Any, play: dict[str, Any],
                   sim: mkb.SimpleBattle) -> Battle:
    result = mkb.outcome(sim)
    names = {a["id"]: a["name"] for s in SIDES for a in play["sides"][s]["armies"]}
    kname = {s: kingdom_name(state, play["sides"][s]["kingdom"]) for s in SIDES}
    label = label_of(state, battle.tile_id)
    story = [f"Simple battle at {label} ({kname[A]} attacking, MK-SIMPLE)."]
    dice = []
    for side in SIDES:
        entry = play["sides"][side]
        how = "rolled by the server" if entry["source"] == "server" else "typed in"
        story.append(f"{kname[side]} rolls {', '.join(map(str, entry['dice']))} ({how}).")
        dice.append({"purpose": f"{kname[side]}'s Simple-battle dice",
                     "values": list(entry["dice"]), "source": entry["source"]})
    for step in sim.steps:
        text = (f"{step.number}. {kname[step.side.value]}'s {step.die} at {names[step.target]} "
                f"(Defence {step.target_defence}): ")
        if step.hit:
            text += ("hit, destroyed." if step.destroyed
                     else f"hit, down to {step.target_points_after} points.")
        else:
            text += "miss."
        story.append(text)
    for side in SIDES:
        left = mkb.discarded_dice(sim, mkb.Side(side))
        if left:
            story.append(f"{kname[side]}'s {', '.join(map(str, left))} had no target left.")
    story.append(f"Reductions caused: {kname[A]} {result.attacker_score}, {kname[D]} "
                 f"{result.defender_score} ({result.rule}).")
    points, removed = {}, []
    for side in SIDES:
        for army in sim.side(mkb.Side(side)).armies:
            if army.destroyed:
                removed.append(army.id)
                points[army.id] = 0  # MK-SIMPLE-6: its roster shows what is left, nothing
            elif army.points != army.start_points:
                points[army.id] = army.points
    play = {**play, "final": {a.id: a.points for s in SIDES for a in sim.side(mkb.Side(s)).armies}}
    return _finish(state, battle, user, result, removed=removed, points=points, story=story,
                   dice=dice, play=play)


def simple_view(play: dict[str, Any]) -> dict[str, Any]:
    """What the battle page shows: each side's armies with current Defence and points, the dice
    pools, whose turn, each step so far and the running reductions."""
    sim = simple_state(play)
    view: dict[str, Any] = {"rolled": sim is not None, "turn": None, "over": False, "steps": []}
    sides = {}
    for side in SIDES:
        entry = play["sides"][side]
        armies = []
        for a in entry["armies"]:
            row = {**a, "now": a["points"], "defence_now": a["defence"], "destroyed": False}
            if sim is not None:
                state_ = sim.side(mkb.Side(side)).army(a["id"])
                row.update(now=state_.points, defence_now=mkb.current_defence(sim, state_),
                           destroyed=state_.destroyed)
            armies.append(row)
        dice = []
        if entry["dice"] is not None:
            used = sim.side(mkb.Side(side)).used if sim is not None else ()
            dice = [{"index": i, "value": v, "used": bool(used and used[i])}
                    for i, v in enumerate(entry["dice"])]
        sides[side] = {**entry, "armies": armies, "pool": dice,
                       "reductions": mkb.reductions_caused(sim, mkb.Side(side)) if sim else 0}
    view["sides"] = sides
    if sim is not None:
        turn = mkb.next_to_allocate(sim)
        view["turn"] = turn.value if turn else None
        view["over"] = turn is None
        names = {a["id"]: a["name"] for s in SIDES for a in play["sides"][s]["armies"]}
        view["steps"] = [{"number": s.number, "side": s.side.value, "die": s.die,
                          "target": names[s.target], "defence": s.target_defence, "hit": s.hit,
                          "after": s.target_points_after, "destroyed": s.destroyed}
                         for s in sim.steps]
    return view


# -- naval battles (MK-NAVAL, MK-AMB-12) ------------------------------------------------------


def _naval_tokens(state: MKState, battle: Battle) -> dict[str, list[dict[str, Any]]]:
    movers = movers_at(state, [label_of(state, battle.tile_id)])
    fighters = _fighters(state, battle, mkb.BattleKind.NAVAL)
    return {side: [{"id": key, "kind": movers[key].kind,
                    "name": summer_battles.token_title(state, movers[key])}
                   for key in fighters[side]] for side in SIDES}


def naval_state(play: dict[str, Any]) -> mkb.NavalBattle:
    fleets = {s: [mkb.Token(t["id"], s, t["kind"]) for t in play["fleets"][s]] for s in SIDES}
    battle = mkb.start_naval_battle(fleets[A], fleets[D], river=play["river"])
    for rnd in play["rounds"]:
        if rnd["losses"][A] is None or rnd["losses"][D] is None:
            break
        battle = mkb.naval_round(battle, rnd["dice"][A], rnd["dice"][D],
                                 attacker_losses=rnd["losses"][A],
                                 defender_losses=rnd["losses"][D])
    if play.get("conceded"):
        battle = mkb.concede_naval_battle(battle, play["conceded"])
    return battle


def _open_round(play: dict[str, Any]) -> dict[str, Any] | None:
    rounds = play["rounds"]
    if rounds and (rounds[-1]["losses"][A] is None or rounds[-1]["losses"][D] is None):
        return rounds[-1]
    return None


def naval_hits(battle: mkb.NavalBattle, rnd: dict[str, Any]) -> dict[str, int]:
    """Hits each side must take this round (from the other side's dice), capped by its fleet."""
    hits = {}
    for side in SIDES:
        other = D if side == A else A
        if rnd["dice"][other] is None:
            continue
        rolls = mkb.roll_naval_dice(battle, other, rnd["dice"][other])
        hits[side] = min(sum(r.hit for r in rolls), len(battle.fleet(mkb.Side(side))))
    return hits


def _start_naval(state: MKState, battle: Battle) -> dict[str, Any]:
    here = label_of(state, battle.tile_id)
    play = {"type": NAVAL, "river": state.map_around([here], 0).tile(here).has_river,
            "fleets": _naval_tokens(state, battle), "rounds": [], "conceded": None}
    _rules(naval_state, play)
    return play


def roll_naval(battle_id: int, user: Any, campaign: Any, kingdom: Kingdom | None, side: str,
               values: list[int] | None = None) -> Battle:
    """MK-NAVAL-1..3: a side's dice for this round, one per ship afloat, in fleet order."""
    with transaction.atomic():
        state, battle = _load(campaign, battle_id)
        if play_type(battle) != NAVAL:
            raise ServiceError("This is not a naval battle.")
        if side not in SIDES:
            raise ServiceError("Say which side rolls.")
        _may_act(state, battle, kingdom, side)
        play = (battle.data or {}).get("play") or _start_naval(state, battle)
        sea = _rules(naval_state, play)
        if mkb.naval_battle_over(sea):
            raise ServiceError("The naval battle is already over (MK-NAVAL-4).")
        rnd = _open_round(play)
        done = len(sea.rounds)
        if rnd is None and done:
            # MK-AMB-12: after a round the chooser answers first; rolling again is fighting on.
            if side == A:
                play["fight_on"] = done
            elif play.get("fight_on", 0) < done:
                raise ServiceError(_chooser_first(state, battle, done))
        if rnd is None:
            rnd = {"dice": {A: None, D: None}, "source": {A: None, D: None},
                   "losses": {A: None, D: None}}
            play["rounds"].append(rnd)
        if rnd["dice"][side] is not None:
            raise ServiceError("That side has already rolled this round (MK-AMB-12).")
        fleet = sea.fleet(mkb.Side(side))
        values, source = _dice_values(values, len(fleet), "MK-NAVAL-1")
        rnd["dice"][side] = {t.id: v for t, v in zip(fleet, values)}
        rnd["source"][side] = source
        _rules(mkb.roll_naval_dice, sea, side, rnd["dice"][side])
        summary, dice = _rolled(state, battle, side, values, source, "MK-NAVAL-1")
        _save_draft(state, battle, user, play, f"round {len(play['rounds'])}: {summary}", dice)
        return battle


def choose_naval_losses(battle_id: int, user: Any, campaign: Any, kingdom: Kingdom | None,
                        side: str, ships: list[str]) -> Battle:
    """MK-NAVAL-3, MK-AMB-12: the owner picks which of its own ships the enemy's hits sink.
    Once both sides have chosen the round is applied; a side left without ships ends it."""
    with transaction.atomic():
        state, battle = _load(campaign, battle_id)
        play = _play(battle, NAVAL)
        if side not in SIDES:
            raise ServiceError("Say whose ships are lost.")
        _may_act(state, battle, kingdom, side)
        rnd = _open_round(play)
        if rnd is None or rnd["dice"][A] is None or rnd["dice"][D] is None:
            raise ServiceError("Both sides roll this round's dice before losses are chosen "
                               "(MK-AMB-12).")
        if rnd["losses"][side] is not None:
            raise ServiceError("Those losses have already been chosen.")
        sea = _rules(naval_state, play)
        due = naval_hits(sea, rnd)[side]
        _rules(mkb._check_losses, sea, mkb.Side(side), list(ships), due)
        rnd["losses"][side] = list(ships)
        chose = (f"{kingdom_name(state, side_kingdom(battle, side))} chooses its losses of "
                 f"round {len(play['rounds'])} (MK-NAVAL-3).")
        if rnd["losses"][A] is None or rnd["losses"][D] is None:
            _save_draft(state, battle, user, play, chose)
            return battle
        sea = _rules(naval_state, play)
        if mkb.naval_battle_over(sea):
            return _finish_naval(state, battle, user, play, sea)
        _save_draft(state, battle, user, play, chose)
        return battle


def _chooser_first(state: MKState, battle: Battle, done: int) -> str:
    chooser = kingdom_name(state, battle.chooser_id)
    return (f"{chooser} chose this battle, so {chooser} answers first after round {done}: "
            "concede, or fight on by rolling the next round's dice (MK-AMB-12).")


def naval_offer(play: dict[str, Any]) -> str | None:
    """MK-NAVAL-4, MK-AMB-12: which side may concede now (None: nobody). After each complete
    round the chooser (attacker) is asked first; once it fights on (rolls the next round) the
    opponent may concede before rolling its own dice."""
    sea = naval_state(play)
    done = len(sea.rounds)
    if not done or mkb.naval_battle_over(sea):
        return None
    rnd = _open_round(play)
    if play.get("fight_on", 0) < done:
        return A if rnd is None else None
    if rnd is None or rnd["dice"][D] is None:
        return D
    return None


def concede_naval(battle_id: int, user: Any, campaign: Any, kingdom: Kingdom | None,
                  side: str) -> Battle:
    """MK-NAVAL-4, MK-AMB-12: after a complete round a side declares itself the loser; the
    offer goes to the chooser first, then to its opponent (``naval_offer``). An opponent who
    concedes after the chooser rolled to fight on leaves those dice unused."""
    with transaction.atomic():
        state, battle = _load(campaign, battle_id)
        play = _play(battle, NAVAL)
        if side not in SIDES:
            raise ServiceError("Say which side concedes.")
        _may_act(state, battle, kingdom, side)
        sea = _rules(naval_state, play)
        offer = naval_offer(play)
        if offer != side:
            done, rnd, fought_on = len(sea.rounds), _open_round(play), play.get("fight_on", 0)
            if side == D and fought_on < done and rnd is None:
                raise ServiceError(_chooser_first(state, battle, done))
            if side == A and done and fought_on >= done:
                raise ServiceError(f"{kingdom_name(state, battle.chooser_id)} chose to fight "
                                   f"on after round {done}: finish the next round before "
                                   "conceding (MK-AMB-12).")
            if rnd is not None:
                raise ServiceError("Finish this round (dice and losses) before conceding "
                                   "(MK-NAVAL-4).")
            raise ServiceError("A side may concede only after all dice of a round are "
                               "resolved (MK-NAVAL-4).")
        if _open_round(play) is not None:
            play["rounds"].pop()  # the chooser's dice for a round that is never fought
        sea = _rules(mkb.concede_naval_battle, sea, side)
        play["conceded"] = side
        return _finish_naval(state, battle, user, play, sea)


def _finish_naval(state: MKState, battle: Battle, user: Any, play: dict[str, Any],
                  sea: mkb.NavalBattle) -> Battle:
    result = mkb.naval_outcome(sea)
    names = {t["id"]: t["name"] for s in SIDES for t in play["fleets"][s]}
    kname = {s: kingdom_name(state, side_kingdom(battle, s)) for s in SIDES}
    story = [f"Naval battle at {label_of(state, battle.tile_id)}"
             f"{' on a river' if play['river'] else ''} ({kname[A]} attacking, MK-NAVAL)."]
    dice = []
    for rnd in sea.rounds:
        parts = []
        for side, rolls in ((A, rnd.attacker_rolls), (D, rnd.defender_rolls)):
            shown = ", ".join(f"{names[r.ship]} {r.natural}"
                              + (f"{r.modifier:+d}" if r.modifier else "")
                              + (" hit" if r.hit else " miss") for r in rolls)
            parts.append(f"{kname[side]} rolls {shown}")
            source = play["rounds"][rnd.number - 1]["source"][side]
            dice.append({"purpose": f"{kname[side]}'s naval dice, round {rnd.number}",
                         "values": [r.natural for r in rolls], "source": source})
        lost = [f"{kname[s]} loses {', '.join(names[x] for x in ids)}"
                for s, ids in ((A, rnd.attacker_lost), (D, rnd.defender_lost)) if ids]
        story.append(f"Round {rnd.number}: " + "; ".join(parts) + ". "
                     + ("; ".join(lost) + " (the owner's choice, MK-NAVAL-3)." if lost
                        else "Nothing sinks."))
    if sea.conceded_by is not None:
        story.append(f"{kname[sea.conceded_by.value]} concedes (MK-NAVAL-4).")
    story.append(f"Tokens sunk: {kname[A]} {result.attacker_score}, {kname[D]} "
                 f"{result.defender_score} ({result.rule}).")
    removed = list(sea.attacker_sunk) + list(sea.defender_sunk)
    return _finish(state, battle, user, result, removed=removed, points={}, story=story,
                   dice=dice, play=play)


def naval_view(play: dict[str, Any]) -> dict[str, Any]:
    sea = naval_state(play)
    rnd = _open_round(play)
    afloat = {s: {t.id for t in sea.fleet(mkb.Side(s))} for s in SIDES}
    view = {"fleets": {s: [{**t, "afloat": t["id"] in afloat[s]} for t in play["fleets"][s]]
                       for s in SIDES},
            "round": rnd, "number": len(play["rounds"]) if rnd else len(play["rounds"]) + 1,
            "hits": naval_hits(sea, rnd) if rnd else {},
            "suggest": {}, "over": mkb.naval_battle_over(sea), "offer": naval_offer(play),
            "needed": {"plain": mkb.naval_roll_needed(False, play["river"]),
                       "pair": mkb.naval_roll_needed(True, play["river"])}}
    for side, due in view["hits"].items():
        view["suggest"][side] = list(mkb.suggest_naval_losses(sea, mkb.Side(side), due))
    names = {t["id"]: t["name"] for s in SIDES for t in play["fleets"][s]}
    view["history"] = [
        {"number": rnd.number,
         "sides": [{"side": side, "rolls": [(names[r.ship], r.natural, r.hit) for r in rolls],
                    "lost": [names[x] for x in lost]}
                   for side, rolls, lost in ((A, rnd.attacker_rolls, rnd.attacker_lost),
                                             (D, rnd.defender_rolls, rnd.defender_lost))]}
        for rnd in sea.rounds]
    return view


# -- land/water battles (MK-LW) ---------------------------------------------------------------


def _lw_tokens(state: MKState, battle: Battle) -> dict[str, list[mkb.Token]]:
    tf = summer_battles.tile_forces(state, label_of(state, battle.tile_id))
    if tf is None:
        raise ServiceError("Nobody is left on this battle's tile.")
    return {s: list(tf.tokens_of(side_kingdom(battle, s))) for s in SIDES}


def land_water_dice(state: MKState, battle: Battle) -> dict[str, int]:
    """MK-LW-1: one die per upright army or ship, two per pair."""
    tokens = _lw_tokens(state, battle)
    return {s: mkb.land_water_dice_count(tokens[s]) for s in SIDES}


def roll_land_water(battle_id: int, user: Any, campaign: Any, kingdom: Kingdom | None,
                    side: str, values: list[int] | None = None) -> Battle:
    """MK-LW-1/2: a side's dice; once both sides have rolled the totals decide the battle."""
    with transaction.atomic():
        state, battle = _load(campaign, battle_id)
        if play_type(battle) != LAND_WATER:
            raise ServiceError("This is not a land/water battle.")
        if side not in SIDES:
            raise ServiceError("Say which side rolls.")
        _may_act(state, battle, kingdom, side)
        play = (battle.data or {}).get("play") or {
            "type": LAND_WATER, "dice": {A: None, D: None}, "source": {A: None, D: None}}
        if play["dice"][side] is not None:
            raise ServiceError("That side has already rolled (MK-LW-1).")
        counts = land_water_dice(state, battle)
        play["dice"][side], play["source"][side] = _dice_values(values, counts[side], "MK-LW-1")
        if play["dice"][A] is None or play["dice"][D] is None:
            _save_draft(state, battle, user, play,
                        *_rolled(state, battle, side, play["dice"][side], play["source"][side],
                                 "MK-LW-1"))
            return battle
        tokens = _lw_tokens(state, battle)
        fought = _rules(mkb.land_water_battle, tokens[A], tokens[D], play["dice"][A],
                        play["dice"][D])
        kname = {s: kingdom_name(state, side_kingdom(battle, s)) for s in SIDES}
        story = [f"Land/water battle at {label_of(state, battle.tile_id)} (MK-LW)."]
        dice = []
        by_whom = {True: "rolled by the server", False: "typed in"}
        for s in SIDES:
            values_ = play["dice"][s]
            story.append(f"{kname[s]} rolls {', '.join(map(str, values_))} = {sum(values_)}"
                         f" ({by_whom[play['source'][s] == 'server']}).")
            dice.append({"purpose": f"{kname[s]}'s land/water dice", "values": values_,
                         "source": play["source"][s]})
        story.append("The roll itself damages nothing (MK-LW-3).")
        return _finish(state, battle, user, fought.outcome, removed=[], points={}, story=story,
                       dice=dice, play=play)


# -- the page ---------------------------------------------------------------------------------


def page_context(state: MKState, battle: Battle, access: Any) -> dict[str, Any]:
    """Everything the battle page shows this viewer, and which sides they may act for."""
    rows = state.kingdom_rows
    data = battle.data or {}
    play = data.get("play")
    kind = play_type(battle)
    mine = {s for s in SIDES if access.is_gm or (
        access.kingdom is not None and access.kingdom.pk == side_kingdom(battle, s))}
    pending = battle.status == Battle.Status.PENDING and not battle.result_chooser
    context: dict[str, Any] = {
        "battle": battle, "label": label_of(state, battle.tile_id), "play_type": kind,
        "kind_name": summer_battles.kind_name(battle.kind, battle.mode),
        "kingdoms": {A: rows.get(battle.chooser_id), D: rows.get(battle.opponent_id)},
        "mine": sorted(mine), "pending": pending, "play": play,
        "board": data.get("board"), "defended": data.get("defended"),
        "defended_text": summer_battles.defended_text(data.get("defended")),
        "defence_pieces": mkb.DEFENCE_PIECE_SIZES,
        "defender_row": rows.get((data.get("defended") or {}).get("kingdom")),
        "defence_mode": state.options.simple_defence,
    }
    if battle.kind == mkb.BattleKind.LAND.value and battle.mode == "kow":
        context["kow"] = summer_battles.kow_view(state, battle, access, pending)
    if battle.kind == mkb.BattleKind.SLAUGHTER.value:
        tf = summer_battles.tile_forces(state, context["label"])
        names = summer_battles.token_names(state, [context["label"]])
        context["slaughter"] = {
            "victims": [(t.id, names.get(t.id, t.id))
                        for t in (tf.tokens_of(battle.opponent_id) if tf else ())],
            "may_choose": pending and (access.is_gm or D in mine),
        }
    rows_by_side = {s: {"side": s, "kingdom": context["kingdoms"][s], "mine": s in mine}
                    for s in SIDES}
    if play and play["type"] == SIMPLE:
        v = context["simple"] = simple_view(play)
        for s in SIDES:
            other = D if s == A else A
            rows_by_side[s].update(v["sides"][s])
            rows_by_side[s]["targets"] = [a for a in v["sides"][other]["armies"]
                                          if not a["destroyed"]]
            rows_by_side[s]["may_allocate"] = pending and v["turn"] == s and s in mine
        if v["turn"]:
            context["turn_kingdom"] = context["kingdoms"][v["turn"]]
        for step in v["steps"]:
            step["kingdom"] = context["kingdoms"][step["side"]]
    elif play and play["type"] == NAVAL:
        v = context["naval"] = naval_view(play)
        rnd = v["round"]
        offer = v["offer"]
        for s in SIDES:
            rows_by_side[s].update(
                may_concede=pending and offer == s and s in mine,
                waits_for_chooser=(pending and s == D and rnd is None and offer == A
                                   and not v["over"]),
                fleet=v["fleets"][s],
                rolled=list(rnd["dice"][s].values()) if rnd and rnd["dice"][s] else None,
                due=v["hits"].get(s), suggest=v["suggest"].get(s, []),
                losses_open=bool(rnd) and s in v["hits"] and rnd["losses"][s] is None)
    elif play and play["type"] == LAND_WATER:
        for s in SIDES:
            rows_by_side[s]["rolled"] = play["dice"][s]
    if kind == LAND_WATER and pending:
        counts = land_water_dice(state, battle)
        for s in SIDES:
            rows_by_side[s]["count"] = counts[s]
    for s in SIDES:
        rows_by_side[s]["kingdom"] = context["kingdoms"][s]
    context["side_rows"] = [rows_by_side[s] for s in SIDES]
    return context

