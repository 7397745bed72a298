"""Conflicts, rebellions, ports, exchange and the timed game through the web forms, from a
position laid on the table by hand; every action's undo checked in full, every write in an
event, and each refusal answered with the rule that forbids it while nothing changes."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from campaign.models import Campaign, Tile
from campaign.systems.middle_sea.models import Game
from campaign.systems.middle_sea.rules.state import LEADER, GameState
from ledger.models import Balance
from tests.ms.conftest import Table
from tests.ms.factory import game, player
from tests.ms.test_web_game import books_match, ok
from tests.undo_watch import UndoWatch, full_dump, undo_each_action  # noqa: F401
from tests.write_watch import watch_writes  # noqa: F401

pytestmark = pytest.mark.usefixtures("watch_writes")


def lay(table: Table, state: GameState) -> None:
    """Put a position on the table as a test's starting point, with matching ledger balances
    (test set-up, not an action of the game)."""
    Game.objects.create(campaign=table.campaign, state=state.to_dict(),
                        seats=[table.kingdoms[p.name].pk for p in state.players])
    for p in state.players:
        for resource, amount in (("goods", p.goods), ("gold", p.gold), ("unrest", p.unrest)):
            Balance.objects.create(kingdom=table.kingdoms[p.name], resource=resource,
                                   amount=amount)
    Campaign.objects.filter(pk=table.campaign.pk).update(year=state.round, phase=state.phase)
    table.campaign.refresh_from_db()


def position() -> GameState:
    red = player("Red", "suns", "N", king=1, placed={3: "N-FL", 4: "N-NL"}, goods=6, gold=6)
    blue = player("Blue", "moons", "E", king=1, placed={2: "E-FL", 5: "E-NL"}, goods=5, gold=5)
    gold = player("Gold", "crowns", "S")
    grey = player("Grey", "arms", "W")
    return game(
        [red, blue, gold, grey],
        {"N-FL": ("arms", 3), "N-FM": ("suns", 1), "N-NL": ("moons", 1),
         "E-FL": ("suns", 2), "E-FM": ("crowns", 3), "E-NL": ("arms", 5)},
        roads=[("Red", "N-CAP", "N-FL"), ("Red", "N-CAP", "N-FM"), ("Red", "N-CAP", "N-NL"),
               ("Blue", "E-CAP", "E-FL"), ("Blue", "E-CAP", "E-FM"),
               ("Blue", "E-CAP", "E-NL")],
        ports=[("Red", "N-FM", 1)], phase=LEADER,
    )


def refused(response: Any, status: int, words: str) -> None:
    body = response.content.decode()
    assert response.status_code == status, body[:400]
    assert words in body, body[:600]


def test_ms_mil_and_ms_miss_conflicts_rebellions_and_a_timed_end_through_the_forms(
        table: Table, undo_each_action: UndoWatch) -> None:  # noqa: F811
    """MS-ATK-5..9, MS-AMB-23, MS-MIL-5, -6, -8, -9, MS-MISS-5..7, MS-REBEL-2..5,
    MS-CONTROL-3, MS-CONTROL-4, MS-BUILD-7..9, MS-WIN-3: Red conquers a market (Blue adds its
    leader), makes a mine rebel (Blue puts it down out of turn), loses two cities to its own
    rebellion in round 2, builds piers, trades and explores to the bottom of a stack; time is
    called and the round's end decides by the calculated score."""
    lay(table, position())
    # A military attack declared: Blue has a leader to add and goods to hire, so it waits.
    ok(table.post("Red", "attack", {"leader": "3", "attack": "military:city:E-FL",
                                    "hires": "1"}))
    assert Game.objects.get(campaign=table.campaign).pending["defender"] == "Blue"
    before = full_dump()
    refused(table.post("Red", "activate", {"leader": "4"}), 409, "MS-ATK-5")
    refused(table.post("Gold", "defend", {"hires": "0"}), 409, "MS-ATK-6")
    assert full_dump() == before
    ok(table.post("Blue", "defend", {"hires": "0", "add_leader": "yes"}))
    state = table.state()
    red, blue = state.players[0], state.players[1]
    assert (red.leader(3).place, red.leader(3).active) == ("E-FL", False)
    assert blue.leader(2).place == "reserve"
    assert (red.goods, red.gold, red.unrest, blue.unrest) == (5, 5, 0, 1)
    assert Tile.objects.get(map__campaign=table.campaign, label="E-FL").controller_id == \
        table.kingdoms["Red"].pk
    # A missionary attack: the mine has no leader, Blue hires one zealot and still loses it
    # to rebellion, then puts it down with its 5-leader in the 5-garrison, out of turn.
    ok(table.post("Red", "attack", {"leader": "4", "attack": "missionary:city:E-FM"}))
    ok(table.post("Blue", "defend", {"hires": "1"}))
    assert table.state().rebellion is not None
    refused(table.post("Red", "end_turn"), 409, "MS-AMB-20")
    ok(table.post("Blue", "put_down", {"city": "E-FM", "leader": "5"}))
    state = table.state()
    assert state.rebellion is None and state.players[1].leader(5).active is False
    assert (state.players[1].goods, state.players[1].gold) == (4, 4)
    for name in ("Red", "Blue", "Gold", "Grey"):
        ok(table.post(name, "end_turn"))
    # Round 2, control: Red holds 4 cities with a king of 1: keeps one, two rebel and fall.
    assert table.state().round == 2
    refused(table.post("Red", "control", {"payments": "1", "rebels": ["N-NL"]}), 409,
            "MS-CONTROL-4")
    ok(table.post("Red", "control", {"payments": "1", "rebels": ["E-FL", "N-NL"]}))
    refused(table.post("Red", "put_down", {"city": "N-NL", "leader": "4"}), 409, "MS-REBEL-2")
    ok(table.post("Red", "end_rebellion"))
    state = table.state()
    red = state.players[0]
    assert (red.unrest, red.goods, red.gold) == (1, 4, 4)
    assert {leader.value for leader in red.leaders if leader.place == "reserve"} >= {3, 4}
    ok(table.post("Red", "end_turn"))
    ok(table.post("Blue", "control", {"payments": "2"}))
    for name in ("Blue", "Gold", "Grey"):
        ok(table.post(name, "end_turn"))
    # Build: piers, an exchange, an explored city put under its stack; refusals change nothing.
    assert table.state().phase == "build"
    ok(table.post("Red", "port", {"place": "N-FM", "piers": "2"}))
    ok(table.post("Red", "exchange", {"give": "goods", "received": "1"}))
    before = full_dump()
    refused(table.post("Red", "explore", {"suit": "suns", "place": "X-YY"}), 400, "N-FL")
    refused(table.post("Red", "road", {"road": "N-FL>E-FL"}), 409, "MS-BUILD-5")
    refused(table.post("Red", "port", {"place": "N-FM", "piers": "3"}), 409, "MS-BUILD-7")
    refused(table.post("Blue", "exchange", {"give": "gold", "received": "1"}), 409,
            "MS-ROUND-2")
    refused(table.post("Red", "exchange", {"give": "silver", "received": "1"}), 400, "give")
    assert full_dump() == before
    ok(table.post("Red", "explore", {"suit": "suns", "place": ""}))
    red = table.state().players[0]
    assert (red.goods, red.gold) == (0, 3)
    refused(table.post("Red", "explore", {"suit": "moons", "place": "N-NR"}), 409,
            "MS-BUILD-2")
    for name in ("Red", "Blue", "Gold", "Grey"):
        ok(table.post(name, "end_turn"))
    # The GM starts the clock and calls time: the game ends when this round does.
    gm = table.client("gm")
    ok(gm.post(reverse("ms:start_clock", args=[table.campaign.slug]), {"minutes": "60"}))
    ok(gm.post(reverse("ms:call_time", args=[table.campaign.slug])))
    for name in ("Red", "Blue", "Gold", "Grey"):
        ok(table.post(name, "end_turn"))
    state = table.state()
    assert (state.ended, state.end_reason) == (True, "timed")
    # Red: N-FL (3) and N-FM (1) with 3 piers, unrest 1: (2 - 1) x (4 + 3) = 7; Blue: E-FM (3)
    # and E-NL (5), unrest 1: (2 - 1) x 8 = 8.
    assert state.winners == ("Blue",)
    books_match(table)
    assert set(undo_each_action.kinds) >= {
        "middle_sea.attack", "middle_sea.rebellion", "middle_sea.control", "middle_sea.build",
        "middle_sea.turn", "middle_sea.clock"}
