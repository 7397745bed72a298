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
from campaign.systems.war_of_kings.rules.economy import gold_generation, ledger
from ledger.services import check_balances
from tests.undo_watch import UndoWatch, undo_each_action  # noqa: F401
from tests.wok.conftest import Game
from tests.write_watch import WriteWatch, watch_writes  # noqa: F401


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
    rows = re.findall(r'>(\w+)</a>.*?<td[^>]*class="num"[^>]*><strong>(\d+)</strong>', table,
                      re.S)
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


# --- a war to a victory, through the web forms -------------------------------------------------

def _ledger_page(client: Client, game: Game, kingdom: Any) -> tuple[dict[str, dict[str, int]],
                                                                      int]:
    """The ledger table and the gold per round as a kingdom's public ledger page shows them."""
    body = client.get(reverse("wok:ledger", args=[game.campaign.slug, kingdom.pk])
                      ).content.decode()
    table = body[body.index('class="wok-ledger"'):body.index("</table>",
                                                             body.index('class="wok-ledger"'))]
    colours = re.findall(r'<th class="num wok-(\w+)">', table)
    shown: dict[str, dict[str, int]] = {}
    for resource, cells in re.findall(r"<tr><th>(\w+)</th>(.*?)</tr>", table):
        for colour, cell in zip(colours, re.findall(r'<td class="num">([^<]*)</td>', cells),
                                strict=True):
            if cell != "·":
                shown.setdefault(colour, {})[resource.lower()] = int(cell)
    gold = int(re.search(r"<strong>(\d+) gold per round</strong>", body).group(1))  # type: ignore[union-attr]
    return shown, gold


def _check_round(game: Game, client: Client) -> dict[str, int]:
    """WOK-LEDGER-3, WOK-ECON-4, WOK-ACH-1..8, WOK-CONQ-7: every ledger agrees with its entries
    and, on its public page, with the board; gold per round and AP on the pages are the rules'
    figures for the board as it stands."""
    loaded = game.loaded()
    state = loaded.state
    for name, kingdom in game.kingdoms.items():
        assert check_balances(kingdom) == {}
        shown, gold = _ledger_page(client, game, kingdom)
        assert shown == ledger(state, name).as_dict()
        assert gold == gold_generation(state, name)
    ap = {k: score(state, k, loaded.holders, loaded.options).total for k in state.seats}
    assert _standings_ap(client, game) == ap
    return ap


def _end_turns(game: Game, players: dict[str, Client],
               during: dict[tuple[str, str], Any]) -> None:
    """Every player's turn, phase by phase; ``during`` acts for (kingdom, phase) first."""
    slug = game.campaign.slug
    for _turn in range(4):
        for _phase in range(5):
            state = game.loaded().state
            act = during.get((state.active, state.phase))
            if act is not None:
                act(state)
            response = players[state.active].post(reverse("wok:next", args=[slug]))
            assert response.status_code == 302, response.content.decode()[-600:]
    assert game.loaded().state.phase == wb.END_OF_ROUND


def _ok(response: Any) -> None:
    assert response.status_code == 302, response.content.decode()[-800:]


def test_wok_win_1_a_war_of_four_kingdoms_to_a_victory_through_the_web(
        game: Game, undo_each_action: UndoWatch,  # noqa: F811
        watch_writes: WriteWatch) -> None:  # noqa: F811
    """WOK-WIN-1, WOK-ARMY-2, WOK-MOVE-5, WOK-EXPL-2, WOK-MAL-12, WOK-BATTLE-7, WOK-CONQ-1,
    WOK-CONQ-7, WOK-EVENT-2: with the target at 6 AP, round 1: everyone builds a town in front
    of the capital (4 AP each) and Red raises a second army; Red draws an Event Card and its
    first army explores a neighbour (blue row 2: 3 and 2 units found, conquered). Round 2: the
    GM places a Marauder army by Blue's army, Blue attacks it and wins in one round from typed
    dice, taking the territory; Red builds a village in the land it explored (5 AP). Round 3:
    Red builds a village in another empty territory: 6 AP, and the end-of-round check names Red
    the winner. After every round each ledger page, gold per round and the AP agree with the
    rules. Every POST is undone and compared row for row (tests/undo_watch.py), and nothing is
    written outside an event (tests/write_watch.py)."""
    assert "war_of_kings_army" in watch_writes.tables
    gm = game.client(game.gm)
    players = {name: game.client(user) for name, user in game.players.items()}
    observer = game.client(game.observer)
    _settings(game, gm, ap_target=6)
    slug = game.campaign.slug
    dice = {"die1": "red", "die2": "green", "die3": "blue"}
    seen: dict[str, Any] = {}

    def construction(builds: dict[str, list[tuple[str, str]]]) -> None:
        _advance(gm, game)  # receive gold
        _advance(gm, game)  # support
        _advance(gm, game, **dice)
        for name, items in builds.items():
            for item, where in items:
                _ok(players[name].post(reverse("wok:build", args=[slug]),
                                       {"item": item, "where": where}))
        _advance(gm, game)  # construction closed

    # Round 1.
    state = game.loaded().state
    capital = state.capital("Red")
    construction({name: [("town", game.kingdoms[name].data["front"])]
                  for name in game.kingdoms} | {
        "Red": [("town", game.kingdoms["Red"].data["front"]), ("army", capital)]})
    assert len(game.loaded().state.armies_of("Red")) == 2

    def red_event(state: wb.GameState) -> None:
        _ok(players["Red"].post(reverse("wok:event_die", args=[slug]),
                                {"face": "flag", "colour": "red"}))

    def red_moves(state: wb.GameState) -> None:
        front = state.army("A1").territory
        target = sorted(t for t in state.map.neighbours(front)
                        if state.ctrl(t) is None and state.map.territory(t).playable)[0]
        seen["explored"] = target
        _ok(players["Red"].post(reverse("wok:move", args=[slug]), {"army": 1, "to": target}))

    def red_explores(state: wb.GameState) -> None:
        _ok(players["Red"].post(reverse("wok:explore", args=[slug]),
                                {"territory": seen["explored"], "colour": "blue", "row": "2"}))

    _end_turns(game, players, {("Red", wb.EVENT_DIE): red_event,
                               ("Red", wb.MOVEMENT): red_moves,
                               ("Red", wb.EXPLORATION): red_explores})
    _advance(gm, game)
    game.kingdoms["Red"].refresh_from_db()
    assert game.kingdoms["Red"].data["event_cards"] == 1
    state = game.loaded().state
    assert state.ctrl(seen["explored"]) == "Red"
    assert _check_round(game, observer) == {"Red": 4, "Blue": 4, "Green": 4, "Black": 4}
    assert len(state.controlled("Red")) == 5
    assert {k: gold_generation(state, k) for k in state.seats} == {
        "Red": 12, "Blue": 12, "Green": 12, "Black": 12}

    # Round 2: Marauders by Blue's army; Blue attacks and wins; Red builds a village.
    state = game.loaded().state
    blue_army = state.armies_of("Blue")[0]
    lair = sorted(t for t in state.map.neighbours(blue_army.territory)
                  if state.ctrl(t) is None and state.map.territory(t).playable)[0]
    _ok(gm.post(reverse("wok:marauders", args=[slug]), {"territory": lair, "count": "1"}))
    assert game.loaded().state.ctrl(lair) == wb.MALADOR
    construction({"Red": [("village", seen["explored"])]})

    def blue_attacks(state: wb.GameState) -> None:
        _ok(players["Blue"].post(reverse("wok:move", args=[slug]),
                                 {"army": blue_army.id[1:], "to": lair}))

    def blue_fights(state: wb.GameState) -> None:
        from campaign.systems.war_of_kings.models import Battle

        battle = Battle.objects.get(campaign=game.campaign, status="pending")
        _ok(players["Blue"].post(reverse("wok:fight", args=[slug]),
                                 {"battle": battle.number, "attack": "hhhh", "defense": "bb",
                                  "counter": "bbbb", "negation": "bb"}))
        battle.refresh_from_db()
        assert battle.status == "fought"
        assert battle.data["rounds"][0]["outcome"] == "attacker_wins"

    _end_turns(game, players, {("Blue", wb.MOVEMENT): blue_attacks,
                               ("Blue", wb.BATTLE_RESOLUTION): blue_fights})
    _advance(gm, game)
    state = game.loaded().state
    assert state.ctrl(lair) == "Blue" and not state.armies_in(lair, wb.MALADOR)
    assert _check_round(game, observer) == {"Red": 5, "Blue": 4, "Green": 4, "Black": 4}
    assert len(state.controlled("Blue")) == 5
    # Red's new village has no road chain to its capital: it pays no gold (WOK-ECON-4).
    assert {k: gold_generation(state, k) for k in state.seats} == {
        "Red": 12, "Blue": 12, "Green": 12, "Black": 12}

    # Round 3: Red's second village wins the game.
    state = game.loaded().state
    empty = sorted(t for t in state.controlled("Red") if not state.lvl(t))[0]
    construction({"Red": [("village", empty)]})
    _end_turns(game, players, {})
    _advance(gm, game)
    assert _check_round(game, observer) == {"Red": 6, "Blue": 4, "Green": 4, "Black": 4}
    assert game.campaign.state["winner"] == game.kingdoms["Red"].pk
    assert "Red wins (WOK-WIN-1)." in players["Black"].get(
        reverse("campaign:play", args=[slug])).content.decode()
    assert set(undo_each_action.kinds) >= {
        "wok.build", "wok.event_die", "wok.move", "wok.explore", "wok.marauders",
        "wok.battle", "wok.end_of_round"}
