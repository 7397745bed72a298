"""A whole game of four at the table through the web forms: Green takes a seat beside Red and
Gold beside Blue on their own phones, then all four play 20 turns, phase by phase together
(SNS-ECON-12): Farm dice, goods, events (Idle Villagers before turn 10, a Gemstone Patch at 10
and 15), upkeep and growth, a Villager every other turn, a market buy every fifth turn, trades
every fourth turn (one refused when Gold cannot pay), and two auto-resolved battles step by step.
Every balance of every kingdom is checked after every turn; the result makes Red and Green
winners and Blue and Gold losers (SNS-AMB-10) and writes each peak gold into the reports."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaign.systems.swords_and_stones import services as sns
from campaign.systems.swords_and_stones.models import AutoBattle, Participant, Trade
from ledger.models import Balance
from tests.sns.conftest import dump
from tests.sns.fourway import OPENING, SIX, Four, challenge_four, set_up_and_begin, stock

pytestmark = pytest.mark.django_db

NAMES = ("Red", "Blue", "Green", "Gold")


class Table:
    """Four phones at one table, and what each Stockpile should hold."""

    def __init__(self, four: Four) -> None:
        self.four = four
        self.clients = {name: four.client(name) for name in NAMES}
        self.expected = {n: {r: OPENING[n].get(r, 0) for r in SIX} for n in NAMES}
        self.peak = {n: self.expected[n]["gold"] for n in NAMES}

    def url(self, name: str, action: str, *args: Any) -> str:
        kingdom = self.four.kingdoms[name]
        kwargs = {"slug": self.four.campaign.slug, "number": 1, "kingdom_id": kingdom.pk}
        if action in ("trade_answer", "battle_step"):
            return reverse(f"sns:{action}", args=[*kwargs.values(), *args])
        if action in ("trade_offer", "battle_begin"):
            return reverse(f"sns:{action}", kwargs=kwargs)
        return reverse("sns:table_action", kwargs={**kwargs, "action": action})

    def post(self, name: str, action: str, data: dict[str, str] | None = None, *args: Any,
             status: int = 302, htmx: bool = False) -> str:
        """Send a form as the phone does: a plain POST answered by a redirect to the page, or
        (``htmx``) the page's fragment with the action's summary."""
        headers = {"HX-Request": "true"} if htmx else {}
        if htmx and status == 302:
            status = 200
        response = self.clients[name].post(self.url(name, action, *args), data or {},
                                           headers=headers)
        body = response.content.decode()
        assert response.status_code == status, (name, action, body[-400:])
        return body

    def gain(self, name: str, **moves: int) -> None:
        for resource, amount in moves.items():
            self.expected[name][resource] += amount
        self.peak[name] = max(self.peak[name], self.expected[name]["gold"])

    def phase(self, want: str) -> None:
        for name in NAMES:
            state = Participant.objects.get(game=self.four.game,
                                            kingdom=self.four.kingdoms[name]).table
            assert state["phase"] == want, (name, state["phase"])

    def next(self) -> None:
        for name in NAMES:
            self.post(name, "next")

    def units(self, name: str) -> dict[str, int]:
        return Participant.objects.get(game=self.four.game,
                                       kingdom=self.four.kingdoms[name]).table["units"]


def trade(t: Table, offerer: str, receiver: str, gives: dict[str, int],
          gets: dict[str, int]) -> Trade:
    data = {"receiver": str(t.four.kingdoms[receiver].pk), "zones_touch": "yes",
            **{f"give_{r}": str(a) for r, a in gives.items()},
            **{f"get_{r}": str(a) for r, a in gets.items()}}
    body = t.post(offerer, "trade_offer", data, htmx=True)
    assert f"{offerer} offers {receiver}" in body
    return Trade.objects.latest("pk")


def test_sns_econ_12_four_kingdoms_play_twenty_turns_through_the_forms(
        campaign: Any, gm: Any, player: Any, other_player: Any) -> None:
    """SNS-RES-3, SNS-AMB-10, SNS-ECON-10..13, SNS-ECON-27, SNS-ECON-42..44, SNS-ECON-51,
    SNS-ECON-57, SNS-ECON-3, SNS-EVT-2, SNS-AR-1..4, SNS-STAT-18."""
    four = challenge_four(campaign, gm, player, other_player)
    seat_url = reverse("sns:seat", args=[campaign.slug, 1])
    for name, side in (("Green", "challenger"), ("Gold", "defender")):
        response = four.client(name).post(seat_url, {"side": side})
        assert response.status_code == 302
    before = dump()
    response = four.client("Gold").post(seat_url, {"side": "challenger"})
    assert response.status_code == 409
    assert "SNS-RES-3: Gold already has a seat in game 1." in response.content.decode()
    assert dump() == before
    game_page = four.client("Green").get(reverse("sns:game", args=[campaign.slug, 1]))
    assert "<strong>Green</strong> · on Red's side" in game_page.content.decode()
    set_up_and_begin(four)
    t = Table(four)
    page = reverse("sns:table", args=[campaign.slug, 1, four.kingdoms["Gold"].pk])
    queries = []
    for turn in range(1, 21):
        t.phase("harvest")
        for name in NAMES:
            t.post(name, "farm", {"dice": "2 3 4"})
            t.gain(name, food=3)
            t.post(name, "line", {"resource": "gold", "amount": "1", "rule": "SNS-ECON-29",
                                  "reason": "Merchant's Guild"})
            t.gain(name, gold=1)
            if turn in (3, 10, 15):
                body = t.post(name, "event", {"table": "outcrop", "roll": "14"}, htmx=True)
                if turn == 3:
                    assert "Idle Villagers" in body
                else:
                    assert "Gemstone Patch" in body
                    t.gain(name, gold=6)
        t.next()
        t.phase("compulsory")
        for name in NAMES:
            t.post(name, "compulsory", {"b_STOCKPILE": "1", "b_TAVERN": "1"})
            t.gain(name, food=-1)
        t.next()
        t.phase("advance")
        for name in NAMES:
            if turn % 2:
                t.post(name, "train", {"unit": "VILLAGER", "count": "1"})
                t.gain(name, food=-1)
            if turn % 5 == 0:
                t.post(name, "line", {"resource": "gold", "amount": "-3", "rule": "SNS-ECON-58",
                                      "reason": "buy wood"})
                t.post(name, "line", {"resource": "wood", "amount": "1", "rule": "SNS-ECON-58",
                                      "reason": "bought wood"})
                t.gain(name, gold=-3, wood=1)
        if turn % 4 == 0:
            offer = trade(t, "Red", "Green", {"wood": 1}, {"food": 1})
            body = t.post("Green", "trade_answer", None, offer.pk, "accept", htmx=True)
            assert "Green accepts Red&#x27;s trade: 1 wood for 1 food (SNS-ECON-57)." in body
            t.gain("Red", wood=-1, food=1)
            t.gain("Green", wood=1, food=-1)
            offer = trade(t, "Blue", "Gold", {"gold": 1}, {"iron": 1})
            if turn < 12:
                t.post("Gold", "trade_answer", None, offer.pk, "accept")
                t.gain("Blue", gold=-1, iron=1)
                t.gain("Gold", gold=1, iron=-1)
            else:
                before = dump()
                body = t.post("Gold", "trade_answer", None, offer.pk, "accept", status=409)
                assert "you need 1 more iron first" in body and "(SNS-ECON-3)" in body
                assert dump() == before
                t.post("Gold", "trade_answer", None, offer.pk, "decline")
                assert Trade.objects.get(pk=offer.pk).status == "declined"
        t.next()
        t.phase("move_combat")
        if turn == 12:
            fight_and_lose(t)
        if turn == 13:
            fight_halved(t)
        t.next()
        for name in NAMES:
            assert stock(four.kingdoms[name]) == t.expected[name], (turn, name)
        if turn in (1, 20):
            with CaptureQueriesContext(connection) as ctx:
                assert t.clients["Gold"].get(page).status_code == 200
            queries.append(len(ctx.captured_queries))
    assert queries[0] == queries[1]
    tables = {p.kingdom.name: (p.table["turn"], p.table["phase"])
              for p in Participant.objects.filter(game=four.game)}
    assert tables == dict.fromkeys(NAMES, (21, "harvest"))
    sns.record_result(campaign, gm, four.game, "win", {})
    for name in NAMES:
        assert stock(four.kingdoms[name]) == dict.fromkeys(SIX, 0)
    parts = {p.kingdom.name: p for p in Participant.objects.filter(game=four.game)}
    assert {n: p.result for n, p in parts.items()} == {
        "Red": "win", "Green": "win", "Blue": "loss", "Gold": "loss"}
    assert {n: p.report["peak_gold"] for n, p in parts.items()} == t.peak
    assert t.peak == {"Red": 23, "Blue": 22, "Green": 23, "Gold": 25}
    points = {k.name: dict(Balance.objects.filter(kingdom=k, resource__in=("vp", "ven"))
                           .values_list("resource", "amount")) for k in four.kingdoms.values()}
    assert points == {"Red": {"vp": 1}, "Green": {"vp": 1}, "Blue": {"ven": 1},
                      "Gold": {"ven": 1}}


def fight_and_lose(t: Table) -> None:
    """Turn 12: Red sends 5 Villagers (army 2) at Gold; Gold has no defences and commits
    Villagers one by one until 6 make 3 and beat 2; Gold's 6 dice bring 2 home; Red loses all
    5; Red's totals against Gold are halved to turn 15."""
    gold = t.four.kingdoms["Gold"]
    assert t.units("Red")["VILLAGER"] == 9 and t.units("Gold")["VILLAGER"] == 9
    body = t.post("Red", "battle_begin", {"defender": str(gold.pk), "units": "5 VILLAGER"},
                  htmx=True)
    assert "Red sends 5 villagers: army score 2 (SNS-AR-6)." in body
    battle = AutoBattle.objects.get()
    t.post("Gold", "battle_step", {"guard_towers": "0"}, battle.pk, "defences")
    totals = []
    for _ in range(6):
        t.post("Gold", "battle_step", {"unit": "VILLAGER"}, battle.pk, "commit")
        battle.refresh_from_db()
        totals.append(battle.data["steps"][-1 if battle.step == "commit" else -2])
    assert [s.split("total ")[1].split(" ")[0] for s in totals] == ["1", "1", "2", "2", "2", "3"]
    assert battle.step == "dice"
    assert "Gold wins by 1 (SNS-AR-2)." in battle.data["steps"][-1]
    body = t.post("Gold", "battle_step", {"dice": "5 6 1 2 3 4"}, battle.pk, "dice", htmx=True)
    assert ("Gold rolls 5 6 1 2 3 4: 2 villagers come home (5+, SNS-AR-2); Red loses 5 "
            "villagers, Gold loses 4 villagers (SNS-AR-3). Red&#x27;s totals against Gold are "
            "halved to turn 15 (SNS-AR-4).") in body
    assert t.units("Red")["VILLAGER"] == 4 and t.units("Gold")["VILLAGER"] == 5


def fight_halved(t: Table) -> None:
    """Turn 13: Red's 2 Villagers (army 1) are halved to 0 against Gold; Gold's one committed
    Villager (1) beats them; the app rolls Gold's die."""
    gold = t.four.kingdoms["Gold"]
    body = t.post("Red", "battle_begin", {"defender": str(gold.pk), "units": "2 VILLAGER"},
                  htmx=True)
    assert "army score 1, halved to 0 after the defence it lost (SNS-AR-4)" in body
    battle = AutoBattle.objects.latest("pk")
    t.post("Gold", "battle_step", {}, battle.pk, "defences")
    t.post("Gold", "battle_step", {"unit": "VILLAGER"}, battle.pk, "commit")
    t.post("Gold", "battle_step", {"roll": "yes"}, battle.pk, "dice")
    battle.refresh_from_db()
    assert battle.step == "done" and len(battle.data["dice"]) == 1
    home = len(battle.data["home"])
    assert t.units("Red")["VILLAGER"] == 3
    assert t.units("Gold")["VILLAGER"] == 6 - 1 + home
