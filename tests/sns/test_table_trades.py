"""Trades between two kingdoms of a game at the table (SNS-ECON-57): offered on one phone,
accepted or declined on the other, both Stockpiles written in one event with lines citing the
rule; refused, with nothing written, when either side cannot pay or trade, and undone exactly."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction
from django.urls import reverse

from campaign import chronicle
from campaign.models import Event
from campaign.systems.swords_and_stones import table, trades
from campaign.systems.swords_and_stones.models import Participant, Trade
from campaign.systems.swords_and_stones.state import SnsError
from ledger.models import LedgerEntry
from tests.sns.conftest import DUMPED
from tests.sns.fourway import Four, four, stock  # noqa: F401

pytestmark = pytest.mark.django_db


def dump() -> dict[str, list[dict[str, Any]]]:
    return {m._meta.label: list(m.objects.order_by("pk").values()) for m in (*DUMPED, Trade)}


def refused(action: Any, message: str) -> None:
    before = dump()
    with pytest.raises(SnsError) as caught:
        action()
    assert str(caught.value) == message
    assert dump() == before


def to(four: Four, name: str, phase: str) -> None:
    """Walk a kingdom on to ``phase`` (paying upkeep for the Stockpile alone on the way)."""
    kingdom = four.kingdoms[name]
    while (state := Participant.objects.get(game=four.game, kingdom=kingdom).table)[
            "phase"] != phase:
        if state["phase"] == "compulsory" and state.get("compulsory_done") != state["turn"]:
            table.compulsory(four.campaign, four.gm, four.game, kingdom, {"STOCKPILE": 1})
        table.next_phase(four.campaign, four.gm, four.game, kingdom)


def offer(four: Four, frm: str, to_: str, gives: dict[str, int], gets: dict[str, int],
          **kw: Any) -> Trade:
    return trades.offer(four.campaign, four.gm, four.game, four.kingdoms[frm],
                        four.kingdoms[to_], gives, gets, **kw)


def test_sns_econ_57_an_accepted_trade_writes_both_stockpiles_in_one_event(four: Four) -> None:
    """SNS-ECON-57: Red (3 wood) gives Green (3 stone) 2 wood for 1 stone, their kingdom
    zones touching: Red 1 wood and 1 stone, Green 2 wood and 2 stone, four lines citing
    SNS-ECON-57 in one event; undone, both Stockpiles are as before."""
    to(four, "Red", "advance")
    to(four, "Green", "advance")
    trade = offer(four, "Red", "Green", {"wood": 2}, {"stone": 1}, zones_touch=True)
    assert (trade.status, trade.turn) == ("offered", 1)
    assert stock(four.kingdoms["Red"])["wood"] == 3
    before = dump()
    summary = trades.accept(four.campaign, four.gm, four.game, trade.pk, four.kingdoms["Green"])
    assert summary == "Green accepts Red's trade: 2 wood for 1 stone (SNS-ECON-57)."
    assert stock(four.kingdoms["Red"]) == {"food": 0, "wood": 1, "stone": 1, "iron": 0,
                                           "gold": 0, "favor": 0}
    assert stock(four.kingdoms["Green"]) == {"food": 0, "wood": 2, "stone": 2, "iron": 0,
                                             "gold": 0, "favor": 0}
    event = Event.objects.filter(kind="sns.trade").latest("seq")
    lines = list(LedgerEntry.objects.filter(event=event).order_by("pk").values_list(
        "kingdom__name", "resource", "amount", "rule_id", "source"))
    assert lines == [
        ("Red", "wood", -2, "SNS-ECON-57", "turn 1: with Green: trade with a player"),
        ("Red", "stone", 1, "SNS-ECON-57", "turn 1: with Green: trade with a player"),
        ("Green", "stone", -1, "SNS-ECON-57", "turn 1: with Red: trade with a player"),
        ("Green", "wood", 2, "SNS-ECON-57", "turn 1: with Red: trade with a player")]
    with transaction.atomic():
        chronicle.undo_latest(four.campaign, four.gm)
    assert dump() == before


def test_sns_econ_57_refusals_of_an_offer(four: Four) -> None:
    """SNS-ECON-57, SNS-ECON-3: an offer outside the advance phase, without Markets or touching
    zones, or more than the offerer has, is refused and writes nothing."""
    refused(lambda: offer(four, "Red", "Green", {"wood": 1}, {}, zones_touch=True),
            "SNS-ECON-57: Red is in the harvest phase; players trade in the advance phase.")
    to(four, "Red", "advance")
    refused(lambda: offer(four, "Red", "Green", {"wood": 1}, {}),
            "Players trade when both have an operational Market or their kingdom zones touch "
            "(SNS-ECON-57).")
    refused(lambda: offer(four, "Red", "Green", {"wood": 4}, {"stone": 1}, zones_touch=True),
            "trade with a player: you need 1 more wood first; resources are paid before "
            "anything is placed (SNS-ECON-3).")
    refused(lambda: offer(four, "Red", "Red", {"wood": 1}, {}, zones_touch=True),
            "SNS-ECON-57: a kingdom trades with another player.")
    refused(lambda: offer(four, "Red", "Green", {}, {}, zones_touch=True),
            "SNS-ECON-57: a trade moves something.")
    table.set_operational(four.campaign, four.gm, four.game, four.kingdoms["Red"], False)
    refused(lambda: offer(four, "Red", "Green", {"wood": 1}, {}, zones_touch=True),
            "Your Stockpile is not working (it is at 1 HP, unstaffed or touched by an enemy), "
            "so you cannot spend wood; only favor still moves (SNS-ECON-4).")


def test_sns_econ_3_refusals_when_the_other_side_answers(four: Four) -> None:
    """SNS-ECON-3, SNS-ECON-4, SNS-ECON-57: the receiver cannot pay (Green has 3 stone, 4 are
    asked), is not in its advance phase, or its Stockpile stopped working: refused, nothing
    written; only the receiver accepts; a declined trade is answered once."""
    to(four, "Red", "advance")
    big = offer(four, "Red", "Green", {"wood": 1}, {"stone": 4}, zones_touch=True)
    refused(lambda: trades.accept(four.campaign, four.gm, four.game, big.pk,
                                  four.kingdoms["Green"]),
            "SNS-ECON-57: Green is in the harvest phase; players trade in the advance phase.")
    to(four, "Green", "advance")
    refused(lambda: trades.accept(four.campaign, four.gm, four.game, big.pk,
                                  four.kingdoms["Green"]),
            "trade with a player: you need 1 more stone first; resources are paid before "
            "anything is placed (SNS-ECON-3).")
    refused(lambda: trades.accept(four.campaign, four.gm, four.game, big.pk,
                                  four.kingdoms["Blue"]),
            "SNS-ECON-57: only Green answers this offer.")
    assert trades.decline(four.campaign, four.gm, four.game, big.pk, four.kingdoms["Green"]) \
        == "Green declines the trade of 1 wood for 4 stone (SNS-ECON-57)."
    refused(lambda: trades.accept(four.campaign, four.gm, four.game, big.pk,
                                  four.kingdoms["Green"]),
            "SNS-ECON-57: that trade was already declined.")
    small = offer(four, "Red", "Green", {"wood": 1}, {"stone": 1}, zones_touch=True)
    table.set_operational(four.campaign, four.gm, four.game, four.kingdoms["Green"], False)
    refused(lambda: trades.accept(four.campaign, four.gm, four.game, small.pk,
                                  four.kingdoms["Green"]),
            "Your Stockpile is not working (it is at 1 HP, unstaffed or touched by an enemy), "
            "so you cannot spend stone; only favor still moves (SNS-ECON-4).")
    assert trades.decline(four.campaign, four.gm, four.game, small.pk, four.kingdoms["Red"]) \
        == "Red withdraws the trade of 1 wood for 1 stone (SNS-ECON-57)."
    assert stock(four.kingdoms["Red"])["wood"] == 3
    assert stock(four.kingdoms["Green"])["stone"] == 3


def test_sns_cbt_9_a_ransom_needs_no_market_and_no_advance_phase(four: Four) -> None:
    """SNS-CBT-9: Blue pays Gold 1 gold of ransom in the harvest phase, with no Market and no
    touching zones; the lines cite SNS-CBT-9."""
    trade = offer(four, "Blue", "Gold", {"gold": 1}, {}, ransom=True)
    summary = trades.accept(four.campaign, four.gm, four.game, trade.pk, four.kingdoms["Gold"])
    assert summary == "Gold accepts Blue's ransom: 1 gold for nothing (SNS-CBT-9)."
    assert (stock(four.kingdoms["Blue"])["gold"], stock(four.kingdoms["Gold"])["gold"]) == (0, 1)
    assert set(LedgerEntry.objects.filter(source__contains="ransom").values_list(
        "rule_id", flat=True)) == {"SNS-CBT-9"}


def test_sns_econ_57_trades_on_the_phones(four: Four) -> None:
    """SNS-ECON-57: Red offers from its Stockpile page; Green sees the offer with Accept and
    Decline on its own page and accepts; Blue's player may not answer on Green's page (403);
    a malformed amount is 400 and writes nothing."""
    to(four, "Red", "advance")
    to(four, "Green", "advance")
    red, green, blue = (four.client(n) for n in ("Red", "Green", "Blue"))
    args = [four.campaign.slug, 1]
    url = reverse("sns:trade_offer", args=[*args, four.kingdoms["Red"].pk])
    before = dump()
    bad = red.post(url, {"receiver": four.kingdoms["Green"].pk, "give_wood": "٣"})
    assert bad.status_code == 400 and dump() == before
    response = red.post(url, {"receiver": four.kingdoms["Green"].pk, "give_wood": "1",
                              "get_stone": "1", "zones_touch": "yes"})
    assert response.status_code == 302
    trade = Trade.objects.get()
    page = green.get(reverse("sns:table", args=[*args, four.kingdoms["Green"].pk]))
    body = page.content.decode()
    assert "<strong>Red</strong> offers 1 wood for 1 stone (kingdom zones touch)." in body
    accept = reverse("sns:trade_answer", args=[*args, four.kingdoms["Green"].pk, trade.pk,
                                              "accept"])
    assert blue.post(accept).status_code == 403
    response = green.post(accept, headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert "Green accepts Red&#x27;s trade: 1 wood for 1 stone (SNS-ECON-57)." in \
        response.content.decode()
    assert (stock(four.kingdoms["Red"])["stone"], stock(four.kingdoms["Green"])["wood"]) == (1, 1)


def test_sns_econ_57_two_working_markets_need_no_touching_zones(four: Four) -> None:
    """SNS-ECON-57: with a working Market each (as their last compulsory phase counted them),
    Red and Green trade without touching zones; without Green's Market the offer is refused."""
    to(four, "Red", "advance")
    to(four, "Green", "advance")
    for name in ("Red", "Green"):
        part = Participant.objects.get(game=four.game, kingdom=four.kingdoms[name])
        part.table = {**part.table, "buildings": {**part.table["buildings"], "MARKET": 1}}
        part.save()
    trade = offer(four, "Red", "Green", {"wood": 1}, {"stone": 1})
    assert trades.accept(four.campaign, four.gm, four.game, trade.pk, four.kingdoms["Green"]) \
        == "Green accepts Red's trade: 1 wood for 1 stone (SNS-ECON-57)."
    part = Participant.objects.get(game=four.game, kingdom=four.kingdoms["Green"])
    part.table = {**part.table, "buildings": {"STOCKPILE": 1}}
    part.save()
    refused(lambda: offer(four, "Red", "Green", {"wood": 1}, {}),
            "Players trade when both have an operational Market or their kingdom zones touch "
            "(SNS-ECON-57).")
