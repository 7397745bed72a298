"""An auto-resolved battle between two kingdoms of a game, played step by step at the table
(SNS-AR-1..7), each step one chronicle event:

1. ``begin``: the attacker sends units it has; its army score (SNS-AR-6; Villagers 0.4 each and
   the Damned 70 %, both rounded up, SNS-AR-5), halved while a defence it lost to this defender
   still counts against it (SNS-AR-4). Both kingdoms are past their advance phase (SNS-AR-1).
2. ``defences``: the defender's kingdom defence score (SNS-AR-7), favor spent on it paid from its
   Stockpile at once (pay first, SNS-ECON-3).
3. ``commit``: the defender adds its units one at a time, in the order it chooses, until its
   total just beats the attacker's or nothing is left to add (SNS-AR-1). The higher total wins
   (SNS-AR-2; equal totals by the campaign's house rule).
4. ``buy_back``: an attacker who won may bring units home for sure with the margin (SNS-AR-2).
5. ``dice``: every other unit of the winner rolls a d6, typed from the table or rolled by the
   app; 5+ comes home (SNS-AR-2). The loser's army is destroyed (SNS-AR-3). Both kingdoms' unit
   counts change; a won defence halves this attacker's totals against the defender for the next
   3 turns (timer 4, SNS-AR-4); a lost defence loses the defender the game (SNS-AR-3).
"""

from __future__ import annotations

import secrets
from collections import Counter
from collections.abc import Sequence
from typing import Any

from django.db import transaction

from campaign.chronicle import Recorder
from campaign.models import Campaign, Kingdom, Visibility
from campaign.systems.swords_and_stones.models import AutoBattle, Game, Participant
from campaign.systems.swords_and_stones.rules import autoresolve as ar
from campaign.systems.swords_and_stones.rules import economy as eco
from campaign.systems.swords_and_stones.rules.catalogue import DEFAULT_CATALOGUE
from campaign.systems.swords_and_stones.state import SnsError, rules_check
from campaign.systems.swords_and_stones.stockpile import (
    line_of,
    lock_table,
    open_seat,
    stock_balances,
)
from campaign.words import and_list, counted
from ledger.services import post

DEFENCES, COMMIT, BUY_BACK, DICE, DONE = "defences", "commit", "buy_back", "dice", "done"
#: SNS-AR-4: the halving runs for the next 3 turns (a timer of 4 ticking in the compulsory
#: phase).
HALVING_TURNS = 3


def ar_options(campaign: Campaign) -> ar.AROptions:
    names = {spec.name for spec in ar.AR_OPTIONS}
    return ar.AROptions.from_dict({k: v for k, v in (campaign.options or {}).items()
                                   if k in names})


def unit_words(code: str, n: int) -> str:
    """"1 villager", "2 villagers", "2 swords" (a unit named in the plural stays so)."""
    try:
        name = DEFAULT_CATALOGUE.unit(code).name.lower()
    except eco.RuleViolation:
        name = code.lower()
    return f"{n} {name}" if name.endswith("s") else counted(n, name)


def units_text(units: Sequence[str]) -> str:
    """``["SWORDS", "SWORDS", "KNIGHTS"]`` as "2 swords and 1 knights" (or "no units")."""
    counts = Counter(units)
    return and_list(unit_words(c, n) for c, n in counts.items()) or "no units"


def _damned(part: Participant) -> bool:
    return part.faction == eco.DAMNED


def _check_units(kingdom: Kingdom, part: Participant, units: Sequence[str]) -> None:
    have = part.table.get("units", {})
    for code, n in Counter(units).items():
        if have.get(code, 0) < n:
            raise SnsError(f"SNS-AR-1: {kingdom.name} has {have.get(code, 0)} "
                           f"{code.lower()}, not {n}.")


def _by(by: Kingdom | None, kingdom: Kingdom, what: str) -> None:
    """``by`` None is the GM, who may act for either side."""
    if by is not None and by.pk != kingdom.pk:
        raise SnsError(f"SNS-AR-1: {kingdom.name} {what}.")


def begin(campaign: Campaign, user: Any, game: Game, attacker: Kingdom, defender: Kingdom,
          units: Sequence[str], *, defender_walls: bool = False,
          by: Kingdom | None = None) -> AutoBattle:
    """SNS-AR-1, SNS-AR-4..6: the attacker sends its units; its army score is fixed."""
    if attacker.pk == defender.pk:
        raise SnsError("SNS-AR-1: a kingdom does not attack itself.")
    if not units:
        raise SnsError("SNS-AR-1: the attacker sends at least one unit.")
    _by(by, attacker, "sends the attacking army")
    with transaction.atomic():
        locked, game, rows = lock_table(campaign, game, [attacker.pk, defender.pk])
        attacker, defender = rows[attacker.pk], rows[defender.pk]
        a_part, d_part = open_seat(game, attacker), open_seat(game, defender)
        for kingdom, part in ((attacker, a_part), (defender, d_part)):
            if part.table.get("phase") != eco.MOVE_COMBAT:
                raise SnsError(f"SNS-AR-1: {kingdom.name} is in the "
                               f"{part.table.get('phase', '').replace('_', ' & ')} phase; an "
                               "auto-resolved battle is fought once both advance phases are "
                               "over (move & combat).")
        if AutoBattle.objects.filter(game=game, step__in=(DEFENCES, COMMIT, BUY_BACK, DICE),
                                     defender=defender).exists():
            raise SnsError(f"SNS-AR-1: {defender.name} is already defending a battle; finish "
                           "it first.")
        _check_units(attacker, a_part, units)
        turn = int(a_part.table["turn"])
        until = a_part.table.get("ar_halved", {}).get(str(defender.pk), 0)
        halving = turn <= until
        options = ar_options(locked)
        damned = _damned(a_part)
        army = rules_check(lambda: ar.army_score(units, side=ar.ATTACKER,
                                                 defender_walls=defender_walls, damned=damned))
        total = ar.halved(army, options) if halving else army
        step = (f"{attacker.name} sends {units_text(units)}: army score {army}"
                + (" (Damned, 70 % rounded up, SNS-AR-5)" if damned else "")
                + (f", halved to {total} after the defence it lost (SNS-AR-4)" if halving
                   else "") + " (SNS-AR-6).")
        battle = AutoBattle(game=game, attacker=attacker, defender=defender, turn=turn,
                            step=DEFENCES, data={
                                "sent": list(units), "walls": defender_walls,
                                "halving": halving, "attacker_damned": damned,
                                "army": army, "attacker_total": total, "committed": [],
                                "steps": [step]})
        summary = f"Turn {turn}: {attacker.name} attacks {defender.name}. {step}"
        with Recorder(locked, user, "sns.battle", summary, kingdom=attacker,
                      visibility=Visibility.PUBLIC, data={"turn": turn}) as rec:
            rec.create(battle)
    return battle


def _battle(game: Game, pk: int, step: str) -> AutoBattle:
    battle = AutoBattle.objects.select_for_update().filter(game=game, pk=pk).first()
    if battle is None:
        raise SnsError("There is no such battle in this game.")
    if battle.step != step:
        names = {DEFENCES: "the defender's defences", COMMIT: "the defender's units",
                 BUY_BACK: "the buy-back", DICE: "the survival dice", DONE: "nothing: it is over"}
        raise SnsError(f"SNS-AR-1: this battle waits for {names.get(battle.step, battle.step)}.")
    return battle


def _kingdoms_of(campaign: Campaign, game: Game, pk: int) -> list[int]:
    row = AutoBattle.objects.filter(game__campaign=campaign, game=game, pk=pk).values_list(
        "attacker_id", "defender_id").first()
    if row is None:
        raise SnsError("There is no such battle in this game.")
    return list(row)


def _available(d_part: Participant, committed: Sequence[str]) -> list[str]:
    """The defender's units with an army score not yet committed."""
    return _available_units(d_part.table.get("units", {}), committed)


def _available_units(units: dict[str, int], committed: Sequence[str]) -> list[str]:
    left = Counter({c: n for c, n in units.items() if c in ar.ARMY_POINTS_TENTHS})
    left.subtract(Counter(committed))
    return sorted(c for c, n in left.items() if n > 0)


def _defender_total(data: dict[str, Any]) -> int:
    return data["defence"] + ar.army_score(data["committed"], side=ar.DEFENDER,
                                           damned=data["defender_damned"])


def _decide(data: dict[str, Any], options: ar.AROptions, attacker: Kingdom,
            defender: Kingdom) -> str:
    """SNS-AR-2: the higher total wins; the next step is the buy-back (a winning attacker with
    a margin) or the dice."""
    a_total, d_total = data["attacker_total"], _defender_total(data)
    won = ar.winner(a_total, d_total, options)
    data.update(defender_total=d_total, winner=won, margin=abs(a_total - d_total))
    name = attacker.name if won == ar.ATTACKER else defender.name
    data["steps"].append(f"{attacker.name} {a_total} against {defender.name} {d_total}: "
                         f"{name} wins by {data['margin']} (SNS-AR-2).")
    if won == ar.ATTACKER and data["margin"] > 0:
        return BUY_BACK
    data["bought"] = []
    data["to_roll"] = list(data["sent"] if won == ar.ATTACKER else data["committed"])
    return DICE


def defences(campaign: Campaign, user: Any, game: Game, pk: int, defences: ar.Defences,
             by: Kingdom | None = None) -> str:
    """SNS-AR-7, SNS-ECON-3: the defender's kingdom defence score; favor spent on it is paid at
    once."""
    ids = _kingdoms_of(campaign, game, pk)
    with transaction.atomic():
        locked, game, rows = lock_table(campaign, game, ids)
        battle = _battle(game, pk, DEFENCES)
        attacker, defender = rows[battle.attacker_id], rows[battle.defender_id]
        _by(by, defender, "sets out its own defences")
        d_part = open_seat(game, defender)
        damned = _damned(d_part)
        defences = ar.Defences(**{**defences.__dict__, "damned": damned})
        score = rules_check(lambda: ar.defence_score(defences))
        have = stock_balances([defender])[defender.pk]
        stock = eco.Stockpile(**have, operational=bool(d_part.table.get("operational", True)))
        lines = ()
        if defences.favor_spent:
            lines = rules_check(lambda: eco.pay(stock, {eco.FAVOR: defences.favor_spent},
                                                "SNS-AR-7", "favor spent on the defence"))
        data = dict(battle.data)
        data["steps"] = [*data["steps"], f"{defender.name}'s kingdom defence score {score}"
                         + (f", {defences.favor_spent} favor spent" if defences.favor_spent
                            else "") + (" (Damned, 70 % rounded up)" if damned else "")
                         + " (SNS-AR-7)."]
        data.update(defence=score, defender_damned=damned, favor_spent=defences.favor_spent)
        step = COMMIT
        if score > data["attacker_total"] or not _available(d_part, []):
            step = _decide(data, ar_options(locked), attacker, defender)
        summary = data["steps"][-1] if step == COMMIT else " ".join(data["steps"][-2:])
        with Recorder(locked, user, "sns.battle", summary, kingdom=defender,
                      visibility=Visibility.PUBLIC, data={"turn": battle.turn}) as rec:
            post(rec, [(defender, line_of(line, f"turn {battle.turn}: "))
                       for line in lines])
            rec.update(battle, step=step, data=data)
            if step == DICE and not data["to_roll"]:
                _finish(rec, game, battle, attacker, defender, [], "table")
                summary += " " + battle.data["steps"][-1]
    return summary


def commit(campaign: Campaign, user: Any, game: Game, pk: int, unit: str,
           by: Kingdom | None = None) -> str:
    """SNS-AR-1: the defender adds one more unit; once its total beats the attacker's, or it
    has nothing more to add, the winner is known (SNS-AR-2)."""
    ids = _kingdoms_of(campaign, game, pk)
    with transaction.atomic():
        locked, game, rows = lock_table(campaign, game, ids)
        battle = _battle(game, pk, COMMIT)
        attacker, defender = rows[battle.attacker_id], rows[battle.defender_id]
        _by(by, defender, "commits its own units")
        d_part = open_seat(game, defender)
        data = dict(battle.data)
        if unit not in _available(d_part, data["committed"]):
            raise SnsError(f"SNS-AR-1: {defender.name} has no {unit.lower()} left to commit.")
        data["committed"] = [*data["committed"], unit]
        total = _defender_total(data)
        data["steps"] = [*data["steps"], f"{defender.name} commits {unit_words(unit, 1)}: total "
                         f"{total} against {data['attacker_total']} (SNS-AR-1)."]
        step = COMMIT
        if total > data["attacker_total"] or not _available(d_part, data["committed"]):
            step = _decide(data, ar_options(locked), attacker, defender)
        summary = " ".join(data["steps"][-1 if step == COMMIT else -2:])
        with Recorder(locked, user, "sns.battle", summary, kingdom=defender,
                      visibility=Visibility.PUBLIC, data={"turn": battle.turn}) as rec:
            rec.update(battle, step=step, data=data)
            if step == DICE and not data["to_roll"]:
                _finish(rec, game, battle, attacker, defender, [], "table")
                summary += " " + battle.data["steps"][-1]
    return summary


def buy_back(campaign: Campaign, user: Any, game: Game, pk: int, chosen: Sequence[str],
             by: Kingdom | None = None) -> str:
    """SNS-AR-2: a winning attacker spends the margin on units that come home for sure (none
    is a choice too)."""
    ids = _kingdoms_of(campaign, game, pk)
    with transaction.atomic():
        locked, game, rows = lock_table(campaign, game, ids)
        battle = _battle(game, pk, BUY_BACK)
        attacker, defender = rows[battle.attacker_id], rows[battle.defender_id]
        _by(by, attacker, "buys back its own units")
        data = dict(battle.data)
        to_roll = rules_check(lambda: ar.buy_back(data["sent"], data["margin"], chosen,
                                                  defender_walls=data["walls"]))
        data.update(bought=list(chosen), to_roll=list(to_roll))
        data["steps"] = [*data["steps"], f"{attacker.name} buys back "
                         f"{units_text(chosen)} with the margin of {data['margin']} (SNS-AR-2)."]
        summary = data["steps"][-1]
        with Recorder(locked, user, "sns.battle", summary, kingdom=attacker,
                      visibility=Visibility.PUBLIC, data={"turn": battle.turn}) as rec:
            rec.update(battle, step=DICE, data=data)
            if not to_roll:
                _finish(rec, game, battle, attacker, defender, [], "table")
                summary += " " + battle.data["steps"][-1]
    return summary


def roll(n: int) -> list[int]:
    """``n`` d6 rolled by the app."""
    return [secrets.randbelow(6) + 1 for _ in range(n)]


def survival(campaign: Campaign, user: Any, game: Game, pk: int,
             dice: Sequence[int] | None = None, by: Kingdom | None = None) -> str:
    """SNS-AR-2, SNS-AR-3, SNS-AR-4: the winner's dice (typed, or rolled by the app when
    ``dice`` is None): 5+ comes home. Both kingdoms' unit counts change in this event."""
    ids = _kingdoms_of(campaign, game, pk)
    with transaction.atomic():
        locked, game, rows = lock_table(campaign, game, ids)
        battle = _battle(game, pk, DICE)
        attacker, defender = rows[battle.attacker_id], rows[battle.defender_id]
        winner = attacker if battle.data["winner"] == ar.ATTACKER else defender
        if by is not None and by.pk not in ids:
            raise SnsError("SNS-AR-2: only the two kingdoms of the battle roll its dice.")
        need = len(battle.data["to_roll"])
        source = "table"
        if dice is None:
            dice, source = roll(need), "server"
        if len(dice) != need:
            raise SnsError(f"SNS-AR-2: {winner.name} rolls {need} "
                           f"{'die' if need == 1 else 'dice'}, one per unit, not {len(dice)}.")
        if any(not 1 <= d <= 6 for d in dice):
            raise SnsError("SNS-AR-2: a d6 shows 1 to 6.")
        summary = ""
        with Recorder(locked, user, "sns.battle", "", kingdom=winner,
                      visibility=Visibility.PUBLIC, data={"turn": battle.turn}) as rec:
            _finish(rec, game, battle, attacker, defender, list(dice), source)
            summary = battle.data["steps"][-1]
            rec.summary = summary
    return summary


def _finish(rec: Recorder, game: Game, battle: AutoBattle, attacker: Kingdom,
            defender: Kingdom, dice: list[int], source: str) -> None:
    """The last step: who comes home, both unit counts, the halving or the lost game."""
    data = dict(battle.data)
    if dice:
        rec.roll("SNS-AR-2 survival", dice, source)
    home = list(data["bought"]) + list(ar.survivors(data["to_roll"], dice))
    won = data["winner"]
    a_part, d_part = open_seat(game, attacker), open_seat(game, defender)
    sent, committed = Counter(data["sent"]), Counter(data["committed"])
    if won == ar.ATTACKER:
        a_lost, d_lost = sent - Counter(home), committed
    else:
        a_lost, d_lost = sent, committed - Counter(home)
    a_state = {**a_part.table, "units": _less(a_part.table.get("units", {}), a_lost)}
    d_state = {**d_part.table, "units": _less(d_part.table.get("units", {}), d_lost)}
    winner_name = attacker.name if won == ar.ATTACKER else defender.name
    if dice:
        came = (f"{winner_name} rolls {' '.join(map(str, dice))}: {units_text(home)} "
                f"{'comes' if len(home) == 1 else 'come'} home (5+, SNS-AR-2); ")
    elif home:
        came = f"{winner_name} brings {units_text(home)} home, bought back (SNS-AR-2); "
    else:
        came = f"{winner_name} committed no units, so none roll (SNS-AR-2); "
    words = [came, f"{attacker.name} loses {units_text(list(a_lost.elements()))}, "
             f"{defender.name} loses {units_text(list(d_lost.elements()))} (SNS-AR-3)."]
    if won == ar.DEFENDER:
        until = battle.turn + HALVING_TURNS
        a_state["ar_halved"] = {**a_part.table.get("ar_halved", {}), str(defender.pk): until}
        words.append(f" {attacker.name}'s totals against {defender.name} are halved to turn "
                     f"{until} (SNS-AR-4).")
    else:
        words.append(f" {defender.name} lost its defence and so loses the game (SNS-AR-3).")
    data.update(dice=dice, home=home, lost_attacker=list(a_lost.elements()),
                lost_defender=list(d_lost.elements()),
                defender_loses_game=won == ar.ATTACKER)
    data["steps"] = [*data["steps"], "".join(words)]
    rec.update(battle, step=DONE, data=data)
    if a_state != a_part.table:
        rec.update(a_part, table=a_state)
    if d_state != d_part.table:
        rec.update(d_part, table=d_state)


def _less(units: dict[str, int], lost: Counter[str]) -> dict[str, int]:
    out = dict(units)
    for code, n in lost.items():
        out[code] = out.get(code, 0) - n
        if out[code] <= 0:
            out.pop(code)
    return out


def battles_of(game: Game, kingdom: Kingdom) -> list[AutoBattle]:
    """The battles of a game a kingdom fought or is fighting, newest first."""
    from django.db.models import Q

    return list(AutoBattle.objects.filter(game=game).filter(
        Q(attacker=kingdom) | Q(defender=kingdom)).select_related("attacker", "defender")
        .order_by("-pk")[:5])
