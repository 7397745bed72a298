"""The Stockpile page on the phone keeps its number of queries as a game goes on: at turn 1
(nothing booked) and at turn 40 (forty turns of lines, trades accepted and open, battles fought
and one under way) it reads the same number of rows' worth of queries."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaign.systems.swords_and_stones import autoresolve_play as arp
from campaign.systems.swords_and_stones import table, trades
from campaign.systems.swords_and_stones.models import AutoBattle, Participant, Trade
from campaign.systems.swords_and_stones.rules import autoresolve as ar
from tests.sns.fourway import Four, four  # noqa: F401

pytestmark = pytest.mark.django_db


def page_queries(four: Four, name: str) -> tuple[int, str]:
    client = four.client(name)
    url = reverse("sns:table", args=[four.campaign.slug, 1, four.kingdoms[name].pk])
    client.get(url)
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200
    return len(ctx.captured_queries), response.content.decode()


def turn(four: Four, names: tuple[str, ...], number: int) -> None:
    """One turn of Red and Green: Farm dice, upkeep, a Villager; every 10th turn Red gives Green
    1 food, and sends 5 Villagers (2) against Green's 2 favor and one Villager (3)."""
    c, g, game, k = four.campaign, four.gm, four.game, four.kingdoms
    if number % 10 == 0:
        table.book_line(c, g, game, k["Green"], "favor", 2, "SNS-ECON-28", "Temple")
    for name in names:
        table.farm_harvest(c, g, game, k[name], [2, 3, 4])
        table.next_phase(c, g, game, k[name])
        table.compulsory(c, g, game, k[name], {"STOCKPILE": 1, "TAVERN": 1})
        table.next_phase(c, g, game, k[name])
        table.train(c, g, game, k[name], "VILLAGER", 1)
    if number % 10 == 0:
        offer = trades.offer(c, g, game, k["Red"], k["Green"], {"food": 1}, {},
                             zones_touch=True)
        trades.accept(c, g, game, offer.pk, k["Green"])
        if number == 40:
            trades.offer(c, g, game, k["Red"], k["Green"], {"food": 1}, {}, zones_touch=True)
    for name in names:
        table.next_phase(c, g, game, k[name])
    if number % 10 == 0:
        battle = arp.begin(c, g, game, k["Red"], k["Green"], ["VILLAGER"] * 5)
        arp.defences(c, g, game, battle.pk, ar.Defences(favor_spent=2))
        if number < 40:
            arp.commit(c, g, game, battle.pk, "VILLAGER")
            arp.survival(c, g, game, battle.pk, [6])
    if number < 40:
        for name in names:
            table.next_phase(c, g, game, k[name])


def test_sns_econ_2_the_stockpile_page_reads_as_much_at_turn_40_as_at_turn_1(
        four: Four) -> None:
    """SNS-ECON-2, SNS-ECON-57, SNS-AR-1: Red's page at turn 1 and at turn 40 (4 trades
    accepted and one open, 3 battles over and one waiting for Green's units)."""
    at_1, body = page_queries(four, "Red")
    assert "No battle yet." in body
    for number in range(1, 41):
        turn(four, ("Red", "Green"), number)
    state = Participant.objects.get(game=four.game, kingdom=four.kingdoms["Red"]).table
    assert (state["turn"], state["phase"]) == (40, "move_combat")
    assert Trade.objects.filter(status="accepted").count() == 4
    assert list(AutoBattle.objects.values_list("step", flat=True)) == ["done"] * 3 + ["commit"]
    at_40, body = page_queries(four, "Red")
    assert "Waiting for <strong>Green</strong>" in body and "Waiting for Green." in body
    assert at_40 == at_1
    green_40, body = page_queries(four, "Green")
    assert "Commit it" in body and "Accept" in body
    assert green_40 == at_1
