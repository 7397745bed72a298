"""A whole game of four kingdoms to a victory, played only through the web forms: the GM sets
the AP target on the settings page and steps through construction with typed dice; each player
builds from the play page and ends the phases of their own turn; after each round the ledgers
agree with their entries, gold per round and AP are what the rules say, and the standings page
shows them."""

from __future__ import annotations

import re
from typing import Any

from django.test import Client
from django.urls import reverse

from campaign.forms import CampaignSettingsForm
from campaign.systems.war_of_kings.rules import board as wb
from campaign.systems.war_of_kings.rules.achievements import score
from campaign.systems.war_of_kings.rules.economy import gold_generation
from ledger.services import check_balances
from tests.wok.conftest import Game


def _settings(game: Game, client: Client, **changes: Any) -> None:
    campaign = game.campaign
    campaign.refresh_from_db()
    initial = CampaignSettingsForm.initial_for(campaign)
    data: dict[str, Any] = {}
    for key, value in {**initial, **{f"opt_{k}": v for k, v in changes.items()}}.items():
        if value is True:
            data[key] = "on"
        elif value is False or value is None:
            data[key] = "" if value is None else None
        else:
            data[key] = value
    response = client.post(reverse("campaign:settings", args=[campaign.slug]),
                           {k: v for k, v in data.items() if v is not None})
    assert response.status_code == 302, response.content.decode()[:2000]


def _advance(client: Client, game: Game, **dice: str) -> None:
    response = client.post(reverse("campaign:advance", args=[game.campaign.slug]), dice)
    assert response.status_code == 302, response.content.decode()[-800:]


def _standings_ap(client: Client, game: Game) -> dict[str, int]:
    body = client.get(reverse("campaign:detail", args=[game.campaign.slug])).content.decode()
    table = body[body.index("wok-standings"):]
    rows = re.findall(r'>(\w+)</a>.*?<td class="num"><strong>(\d+)</strong>', table, re.S)
    return {name: int(ap) for name, ap in rows}


def test_wok_win_1_four_kingdoms_play_to_a_victory_through_the_web(game: Game) -> None:
    """WOK-WIN-1, WOK-WIN-3, WOK-TURN-1..6, WOK-ECON-2, WOK-ECON-4, WOK-ACH-1, WOK-ACH-8,
    WOK-SET-4: with the target at 5 AP, every kingdom upgrades its village to a town in round 1
    (4 AP each, nobody at the target); in round 2 Red alone also builds a village and reaches
    5 AP; the end-of-round check names Red the winner and the game is over."""
    gm = game.client(game.gm)
    players = {name: game.client(user) for name, user in game.players.items()}
    _settings(game, gm, ap_target=5)
    slug = game.campaign.slug
    plans = {1: {name: ["town"] for name in players}, 2: {"Red": ["village"]}}
    for round_ in (1, 2):
        state = game.loaded().state
        gold_before = {k: state.stock(k).gold for k in state.kingdoms}
        expected_gold = {k: gold_generation(state, k) for k in state.kingdoms}
        _advance(gm, game)  # receive gold
        state = game.loaded().state
        for name in state.kingdoms:
            assert state.stock(name).gold == gold_before[name] + expected_gold[name]
        _advance(gm, game)  # support
        _advance(gm, game, die1="red", die2="red", die3="yellow")
        state = game.loaded().state
        assert state.phase == wb.CONSTRUCTION
        for name, items in plans[round_].items():
            for item in items:
                mine = game.loaded().state
                if item == "town":
                    where = game.kingdoms[name].data["front"]
                else:
                    where = next(t for t in mine.controlled(name) if not mine.lvl(t))
                response = players[name].post(reverse("wok:build", args=[slug]),
                                              {"item": item, "where": where})
                assert response.status_code == 302, response.content.decode()[-600:]
        _advance(gm, game)  # construction closed
        for _turn in range(4):
            active = game.loaded().state.active
            for _phase in range(5):
                response = players[active].post(reverse("wok:next", args=[slug]))
                assert response.status_code == 302
        assert game.loaded().state.phase == wb.END_OF_ROUND
        _advance(gm, game)  # the end-of-round check
        loaded = game.loaded()
        state = loaded.state
        for kingdom in game.kingdoms.values():
            assert check_balances(kingdom) == {}
        ap = {k: score(state, k, loaded.holders, loaded.options).total for k in state.kingdoms}
        assert _standings_ap(players["Blue"], game) == ap
        if round_ == 1:
            assert ap == {"Red": 4, "Blue": 4, "Green": 4, "Black": 4}
            assert (state.round, state.phase) == (2, wb.RECEIVE_GOLD)
            assert {k: gold_generation(state, k) for k in state.kingdoms} == {
                "Red": 12, "Blue": 12, "Green": 12, "Black": 12}
    assert ap == {"Red": 5, "Blue": 4, "Green": 4, "Black": 4}
    assert game.campaign.state["winner"] == game.kingdoms["Red"].pk
    assert game.loaded().over
    page = players["Green"].get(reverse("campaign:play", args=[slug])).content.decode()
    assert "Red wins (WOK-WIN-1)." in page
    refused = players["Red"].post(reverse("wok:trade", args=[slug]),
                                  {"give": "cattle", "receive": "stone"})
    assert refused.status_code == 409
