"""A whole four-player game of the Middle Sea played through the web forms, to a trade victory,
with the undo of every action checked in full (tests/undo_watch.py) and every write inside an
event (tests/write_watch.py); the ledger follows every change of goods, gold and unrest."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from campaign.models import Event, Tile
from campaign.systems.middle_sea.rules.state import ENDED
from ledger.models import LedgerEntry
from ledger.services import balances
from tests.ms.conftest import Table
from tests.undo_watch import UndoWatch, undo_each_action  # noqa: F401
from tests.write_watch import WriteWatch, watch_writes  # noqa: F401

pytestmark = pytest.mark.usefixtures("watch_writes")


def ok(response: Any) -> Any:
    assert response.status_code in (200, 302), response.content.decode()[:600]
    return response


def end_turns(table: Table, *names: str) -> None:
    for name in names:
        ok(table.post(name, "end_turn"))


def books_match(table: Table) -> None:
    """MS-RES-1: every reserve in the position equals its ledger balance."""
    state = table.state()
    books = balances(table.kingdoms.values(), ("goods", "gold", "unrest"))
    for p in state.players:
        got = books[table.kingdoms[p.name].pk]
        assert (got["goods"], got["gold"], got["unrest"]) == (p.goods, p.gold, p.unrest), p.name


def test_ms_win_4_a_four_player_game_to_a_trade_victory_through_the_forms(
        table: Table, undo_each_action: UndoWatch,  # noqa: F811
        watch_writes: WriteWatch) -> None:  # noqa: F811
    """MS-SETUP-1..8, MS-ROUND-1..3, MS-PROD-1..4, MS-BUILD-2..6, MS-LEAD-2..4, MS-MOVE-2,
    MS-DOM-5, MS-WIN-4: Red builds a whole continent in three rounds while the others pass,
    and wins by trade when round 3 ends."""
    assert "middle_sea_game" in watch_writes.tables
    gm = table.client("gm")
    kingdoms = table.kingdoms
    ok(gm.post(reverse("ms:setup", args=[table.campaign.slug]), {
        "seat_1": kingdoms["Red"].pk, "suit_1": "suns", "roll_1": "5",
        "seat_2": kingdoms["Blue"].pk, "suit_2": "moons", "roll_2": "4",
        "seat_3": kingdoms["Gold"].pk, "suit_3": "crowns", "roll_3": "4",
        "seat_4": kingdoms["Grey"].pk, "suit_4": "arms", "roll_4": "0",
    }))
    state = table.state()
    assert state.order == ("Red", "Blue", "Gold", "Grey")
    assert [p.continent for p in state.players] == ["N", "E", "S", "W"]
    # Round 1.
    end_turns(table, "Red", "Blue", "Gold", "Grey")  # control; dominance and production run on
    assert table.state().players[0].goods == 5
    ok(table.post("Red", "explore", {"suit": "suns", "place": "N-FL"}))
    ok(table.post("Red", "road", {"road": "N-CAP>N-FL"}))
    end_turns(table, "Red", "Blue", "Gold", "Grey")
    ok(table.post("Red", "king", {"leader": "3"}))
    ok(table.post("Red", "move", {"leader": "0", "destination": "N-FL"}))
    end_turns(table, "Red", "Blue", "Gold", "Grey")
    red = table.state().players[0]
    assert (red.goods, red.gold, red.king.value) == (1, 1, 3)
    # Round 2: the market produces 1 + 0 goods.
    end_turns(table, "Red", "Blue", "Gold", "Grey")
    red = table.state().players[0]
    assert (red.goods, red.gold) == (5, 4)
    ok(table.post("Red", "explore", {"suit": "crowns", "place": "N-FM"}))
    ok(table.post("Red", "road", {"road": "N-CAP>N-FM"}))
    ok(table.post("Red", "explore", {"suit": "moons", "place": "N-NL"}))
    ok(table.post("Red", "road", {"road": "N-CAP>N-NL"}))
    end_turns(table, "Red", "Blue", "Gold", "Grey")
    ok(table.post("Red", "activate", {"leader": "0"}))
    ok(table.post("Red", "move", {"leader": "2", "destination": "N-FM"}))
    end_turns(table, "Red", "Blue", "Gold", "Grey")
    # Round 3: Red's temple makes the others tie at 1 below Red's 4; Red orders them.
    end_turns(table, "Red", "Blue", "Gold", "Grey")
    assert table.state().phase == "dominance"
    assert table.post("Blue", "dominance", {"order": "Red, Grey, Gold, Blue"}).status_code == 409
    ok(table.post("Red", "dominance", {"order": "Red, Grey, Gold, Blue"}))
    state = table.state()
    assert state.order == ("Red", "Grey", "Gold", "Blue")
    assert (state.players[0].goods, state.players[0].gold) == (5, 6)
    ok(table.post("Red", "explore", {"suit": "arms", "place": "N-NR"}))
    ok(table.post("Red", "road", {"road": "N-CAP>N-NR"}))
    ok(table.post("Red", "explore", {"suit": "suns", "place": "N-FR"}))
    ok(table.post("Red", "road", {"road": "N-CAP>N-FR"}))
    end_turns(table, "Red", "Grey", "Gold", "Blue")
    ok(table.post("Red", "activate", {"leader": "0"}))
    ok(table.post("Red", "activate", {"leader": "2"}))
    end_turns(table, "Red", "Grey", "Gold", "Blue")
    state = table.state()
    assert (state.ended, state.phase, state.end_reason, state.winners) == (
        True, ENDED, "trade", ("Red",))
    assert (state.players[0].goods, state.players[0].gold) == (0, 1)
    books_match(table)
    # The map shows Red's whole continent, every city controlled and joined by a road.
    north = {t.label: t for t in Tile.objects.filter(map__campaign=table.campaign,
                                                     label__startswith="N-")}
    assert {label: t.settlement for label, t in north.items()} == {
        "N-CAP": "capital_null", "N-FL": "market", "N-FM": "mine", "N-FR": "market",
        "N-NL": "temple", "N-NR": "garrison"}
    assert {t.controller_id for t in north.values()} == {kingdoms["Red"].pk}
    assert sorted(north["N-CAP"].edges) == ["N-FL", "N-FM", "N-FR", "N-NL", "N-NR"]
    # The ledger cites the rules: the first market's goods, the road's price.
    assert LedgerEntry.objects.filter(kingdom=kingdoms["Red"], rule_id="MS-PROD-2").count() == 3
    assert set(LedgerEntry.objects.filter(kingdom=kingdoms["Red"], amount__lt=0)
               .values_list("rule_id", flat=True)) == {"MS-BUILD-2", "MS-BUILD-5", "MS-LEAD-2"}
    # Once over, nothing more is played.
    late = table.post("Blue", "end_turn")
    assert late.status_code == 409 and "MS-AMB-21" in late.content.decode()
    assert set(undo_each_action.kinds) >= {
        "middle_sea.setup", "middle_sea.turn", "middle_sea.build", "middle_sea.leader",
        "middle_sea.dominance"}
    assert not Event.objects.filter(campaign=table.campaign, reversible=False).exclude(
        kind="campaign.created").exists()
