"""A whole game at the table through the web forms: Red and Blue play 20 turns on their
phones (Farm dice, goods, upkeep and growth, a Villager every other turn, a market buy every
fifth turn), every balance checked each turn; the result puts both Stockpiles away and writes
peak gold into the reports. The Stockpile page's queries stay the same from turn 1 to 20."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaign.systems.swords_and_stones import services as sns
from campaign.systems.swords_and_stones.models import Participant
from ledger.services import balances
from tests.sns.conftest import Avalon, at

pytestmark = pytest.mark.django_db

SIX = ("food", "wood", "stone", "iron", "gold", "favor")


def stock(kingdom: Any) -> dict[str, int]:
    return {r: n for r, n in balances([kingdom], SIX)[kingdom.pk].items() if r in SIX}


def test_sns_econ_11_twenty_turns_at_the_table_through_the_forms(avalon: Avalon, player: Any,
                                                                 other_player: Any) -> None:
    """SNS-ECON-11, SNS-ECON-27, SNS-ECON-42..44, SNS-ECON-51, SNS-ECON-3, SNS-STAT-18."""
    game = sns.challenge(avalon.campaign, avalon.gm, avalon.red, at(2, 2), avalon.blue)
    sns.set_up(avalon.campaign, avalon.gm, game, avalon.red, faction="avalonian",
               supply=[("0202", "GOLD")])
    sns.begin_game(avalon.campaign, avalon.gm, game)
    clients = {}
    for kingdom, user in ((avalon.red, player), (avalon.blue, other_player)):
        client = Client()
        client.force_login(user)
        clients[kingdom.name] = client
    expected = {"Red": dict.fromkeys(SIX, 0), "Blue": dict.fromkeys(SIX, 0)}
    expected["Red"]["gold"] = 1
    peak = {"Red": 1, "Blue": 0}
    queries: list[int] = []

    def act(kingdom: Any, action: str, data: dict[str, str] | None = None) -> None:
        url = reverse("sns:table_action", kwargs={"slug": avalon.campaign.slug, "number": 1,
                                                  "kingdom_id": kingdom.pk, "action": action})
        response = clients[kingdom.name].post(url, data or {}, headers={"HX-Request": "true"})
        assert response.status_code == 200, (action, response.content.decode()[-300:])

    page = reverse("sns:table", kwargs={"slug": avalon.campaign.slug, "number": 1,
                                        "kingdom_id": avalon.red.pk})
    for turn in range(1, 21):
        for kingdom in (avalon.red, avalon.blue):
            mine = expected[kingdom.name]
            act(kingdom, "farm", {"dice": "2 3 4"})
            mine["food"] += 3
            act(kingdom, "line", {"resource": "gold", "amount": "1", "rule": "SNS-ECON-29",
                                  "reason": "Merchant's Guild"})
            mine["gold"] += 1
            peak[kingdom.name] = max(peak[kingdom.name], mine["gold"])
            act(kingdom, "next")
            act(kingdom, "compulsory", {"b_STOCKPILE": "1", "b_TAVERN": "1"})
            mine["food"] -= 1
            act(kingdom, "next")
            if turn % 2:
                act(kingdom, "train", {"unit": "VILLAGER", "count": "1"})
                mine["food"] -= 1
            if turn % 5 == 0:
                act(kingdom, "line", {"resource": "gold", "amount": "-3", "rule": "SNS-ECON-57",
                                      "reason": "buy wood"})
                act(kingdom, "line", {"resource": "wood", "amount": "1", "rule": "SNS-ECON-57",
                                      "reason": "bought wood"})
                mine["gold"] -= 3
                mine["wood"] += 1
            act(kingdom, "next")
            act(kingdom, "next")
            assert stock(kingdom) == mine, (turn, kingdom.name)
        if turn in (1, 20):
            with CaptureQueriesContext(connection) as ctx:
                assert clients["Red"].get(page).status_code == 200
            queries.append(len(ctx.captured_queries))
    tables = {p.kingdom.name: p.table for p in Participant.objects.filter(game=game)}
    assert {k: (t["turn"], t["phase"], t["units"]["VILLAGER"]) for k, t in tables.items()} == {
        "Red": (21, "harvest", 13), "Blue": (21, "harvest", 13)}
    assert queries[0] == queries[1]
    sns.record_result(avalon.campaign, avalon.gm, game, "win", {})
    assert stock(avalon.red) == dict.fromkeys(SIX, 0) == stock(avalon.blue)
    reports = {p.kingdom.name: p.report for p in Participant.objects.filter(game=game)}
    assert reports == {"Red": {"peak_gold": peak["Red"]}, "Blue": {"peak_gold": peak["Blue"]}}
    assert peak == {"Red": 12, "Blue": 11}
