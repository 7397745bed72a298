"""Trades between two kingdoms of a game at the table (SNS-ECON-57).

One player offers, in the advance phase, what they give and what they want; the other accepts or
declines on their own phone. Accepting locks the campaign, then both kingdoms by id, then the
offer and both seats, checks the exchange again against both Stockpiles as they are now (pay
first, SNS-ECON-3; a Stockpile that does not work moves only favor, SNS-ECON-4; a Market each or
touching kingdom zones, SNS-ECON-57; a besieged kingdom needs a Dock, SNS-ECON-46) and writes
both ledgers in one chronicle event, every line citing SNS-ECON-57. A prisoner's ransom changes
hands at once, Markets or not (SNS-CBT-9).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction

from campaign.chronicle import Recorder
from campaign.models import Campaign, Kingdom, Visibility
from campaign.systems.swords_and_stones.models import Game, Participant, Trade
from campaign.systems.swords_and_stones.rules import econ_advance as adv
from campaign.systems.swords_and_stones.rules import economy as eco
from campaign.systems.swords_and_stones.state import SnsError, rules_check
from campaign.systems.swords_and_stones.stockpile import (
    RESOURCES,
    line_of,
    lock_table,
    open_seat,
    stock_balances,
)
from ledger.services import post

#: The most of one resource a single trade moves.
MAX_AMOUNT = 999


def describe(bundle: Mapping[str, int]) -> str:
    """``{"wood": 3, "gold": 1}`` as "3 wood and 1 gold" (in the resources' order)."""
    parts = [f"{bundle[r]} {r}" for r in RESOURCES if bundle.get(r)]
    if not parts:
        return "nothing"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _bundle(raw: Mapping[str, int], side: str) -> dict[str, int]:
    bundle = {}
    for resource, amount in raw.items():
        if resource not in RESOURCES:
            raise SnsError(f"SNS-ECON-1: {resource!r} is not a resource.")
        if not 0 <= amount <= MAX_AMOUNT:
            raise SnsError(f"SNS-ECON-57: {side} 0 to {MAX_AMOUNT} of each resource.")
        if amount:
            bundle[resource] = amount
    return bundle


def _realm(part: Participant, have: Mapping[str, int]) -> adv.Kingdom:
    state = part.table
    faction = part.faction if part.faction in eco.FACTIONS else eco.AVALONIAN
    stock = eco.Stockpile(**have, operational=bool(state.get("operational", True)))
    return adv.Kingdom(faction=faction, stockpile=stock,
                       operational=dict(state.get("buildings", {})),
                       besieged=bool(state.get("besieged", False)))


def _advance(part: Participant, kingdom: Kingdom) -> None:
    """SNS-ECON-57: resources are traded in the advance phase."""
    if part.table.get("phase") != eco.ADVANCE:
        raise SnsError(f"SNS-ECON-57: {kingdom.name} is in the "
                       f"{part.table.get('phase', '').replace('_', ' & ')} phase; players "
                       "trade in the advance phase.")


def _lines(game: Game, offerer: Participant, receiver: Participant, trade: Trade,
           have: Mapping[int, Mapping[str, int]]) -> tuple[tuple[eco.LedgerLine, ...],
                                                           tuple[eco.LedgerLine, ...]]:
    giver = _realm(offerer, have[offerer.kingdom_id])
    taker = _realm(receiver, have[receiver.kingdom_id])
    return rules_check(lambda: adv.player_trade(giver, taker, trade.gives, trade.gets,
                                                zones_touch=trade.zones_touch,
                                                ransom=trade.ransom))


def offer(campaign: Campaign, user: Any, game: Game, offerer: Kingdom, receiver: Kingdom,
          gives: Mapping[str, int], gets: Mapping[str, int], *, zones_touch: bool = False,
          ransom: bool = False) -> Trade:
    """SNS-ECON-57: offer a trade to another kingdom of the game. It is checked now against the
    offerer's Stockpile (it could not pay, or trade at all: refused) and again when accepted."""
    gives, gets = _bundle(gives, "give"), _bundle(gets, "ask for")
    if not gives and not gets:
        raise SnsError("SNS-ECON-57: a trade moves something.")
    if offerer.pk == receiver.pk:
        raise SnsError("SNS-ECON-57: a kingdom trades with another player.")
    with transaction.atomic():
        locked, game, rows = lock_table(campaign, game, [offerer.pk, receiver.pk])
        offerer, receiver = rows[offerer.pk], rows[receiver.pk]
        mine, theirs = open_seat(game, offerer), open_seat(game, receiver)
        if not ransom:
            _advance(mine, offerer)
        trade = Trade(game=game, offerer=offerer, receiver=receiver, gives=gives, gets=gets,
                      zones_touch=zones_touch, ransom=ransom, turn=int(mine.table["turn"]))
        have = stock_balances([offerer, receiver])
        # The offerer's side is checked now; the receiver's when they answer.
        giver = _realm(mine, have[offerer.pk])
        rules_check(lambda: adv.player_trade(
            giver, _realm(theirs, {r: MAX_AMOUNT for r in RESOURCES}), gives, {},
            zones_touch=zones_touch, ransom=ransom))
        what = "ransom" if ransom else "trade"
        summary = (f"{offerer.name} offers {receiver.name} a {what}: {describe(gives)} for "
                   f"{describe(gets)} (SNS-ECON-57).")
        with Recorder(locked, user, "sns.trade", summary, kingdom=offerer,
                      visibility=Visibility.PUBLIC, data={"turn": trade.turn}) as rec:
            rec.create(trade)
    return trade


def _open_trade(game: Game, pk: int) -> Trade:
    trade = (Trade.objects.select_for_update(of=("self",)).select_related("offerer", "receiver")
             .filter(game=game, pk=pk).first())
    if trade is None:
        raise SnsError("There is no such trade in this game.")
    if trade.status != Trade.Status.OFFERED:
        raise SnsError(f"SNS-ECON-57: that trade was already {trade.status}.")
    return trade


def _trade_kingdoms(campaign: Campaign, game: Game, pk: int) -> list[Kingdom]:
    row = Trade.objects.filter(game__campaign=campaign, game=game, pk=pk).select_related(
        "offerer", "receiver").first()
    if row is None:
        raise SnsError("There is no such trade in this game.")
    return [row.offerer, row.receiver]


def accept(campaign: Campaign, user: Any, game: Game, pk: int, by: Kingdom) -> str:
    """SNS-ECON-57, SNS-ECON-3, SNS-ECON-4, SNS-ECON-46: the receiver accepts: both Stockpiles
    change in one event, or nothing does."""
    kingdoms = _trade_kingdoms(campaign, game, pk)
    with transaction.atomic():
        locked, game, rows = lock_table(campaign, game, [k.pk for k in kingdoms])
        trade = _open_trade(game, pk)
        if by.pk != trade.receiver_id:
            raise SnsError(f"SNS-ECON-57: only {trade.receiver.name} answers this offer.")
        offerer, receiver = rows[trade.offerer_id], rows[trade.receiver_id]
        parts = {p.kingdom_id: p for p in (open_seat(game, offerer), open_seat(game, receiver))}
        if not trade.ransom:
            for kingdom in (offerer, receiver):
                _advance(parts[kingdom.pk], kingdom)
        have = stock_balances([offerer, receiver])
        out, back = _lines(game, parts[offerer.pk], parts[receiver.pk], trade, have)
        rule = "SNS-CBT-9" if trade.ransom else "SNS-ECON-57"
        summary = (f"{receiver.name} accepts {offerer.name}'s "
                   f"{'ransom' if trade.ransom else 'trade'}: {describe(trade.gives)} for "
                   f"{describe(trade.gets)} ({rule}).")
        turn = parts[receiver.pk].table.get("turn", trade.turn)
        with Recorder(locked, user, "sns.trade", summary, kingdom=receiver,
                      visibility=Visibility.PUBLIC, data={"turn": turn, "trade": trade.pk}) as rec:
            rec.update(trade, status=Trade.Status.ACCEPTED)
            post(rec, [(offerer, line_of(_cite(line, rule), f"turn {turn}: with "
                                                             f"{receiver.name}: "))
                       for line in out]
                 + [(receiver, line_of(_cite(line, rule), f"turn {turn}: with "
                                                           f"{offerer.name}: "))
                    for line in back])
    return summary


def _cite(line: eco.LedgerLine, rule: str) -> eco.LedgerLine:
    if rule == line.rule_id:
        return line
    return eco.LedgerLine(line.resource, line.amount, rule, "ransom of a prisoner")


def decline(campaign: Campaign, user: Any, game: Game, pk: int, by: Kingdom) -> str:
    """SNS-ECON-57: the receiver says no (or the offerer takes the offer back): nothing moves."""
    kingdoms = _trade_kingdoms(campaign, game, pk)
    with transaction.atomic():
        locked, game, rows = lock_table(campaign, game, [k.pk for k in kingdoms])
        trade = _open_trade(game, pk)
        if by.pk == trade.receiver_id:
            status, verb = Trade.Status.DECLINED, "declines"
        elif by.pk == trade.offerer_id:
            status, verb = Trade.Status.WITHDRAWN, "withdraws"
        else:
            raise SnsError("SNS-ECON-57: only the two kingdoms of a trade answer it.")
        summary = (f"{rows[by.pk].name} {verb} the trade of {describe(trade.gives)} for "
                   f"{describe(trade.gets)} (SNS-ECON-57).")
        with Recorder(locked, user, "sns.trade", summary, kingdom=rows[by.pk],
                      visibility=Visibility.PUBLIC, data={"trade": trade.pk}) as rec:
            rec.update(trade, status=status)
    return summary


def open_trades(game: Game, kingdom: Kingdom) -> dict[str, list[Trade]]:
    """The offers waiting on a kingdom's answer, and its own still open."""
    rows = list(Trade.objects.filter(game=game, status=Trade.Status.OFFERED)
                .select_related("offerer", "receiver").order_by("pk"))
    return {"to_me": [t for t in rows if t.receiver_id == kingdom.pk],
            "from_me": [t for t in rows if t.offerer_id == kingdom.pk]}
