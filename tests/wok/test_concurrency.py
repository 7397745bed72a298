"""Concurrent purchases (DESIGN principle 11): real requests from several threads at the same
moment, on a file copy of the SQLite test database or on PostgreSQL (``DATABASE_URL``), where
the services' locks queue them. No resource is lost or made up; a double tap that the stockpile
covers only once is applied once and refused once."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaign.systems.war_of_kings import services
from campaign.systems.war_of_kings.rules import board as wb
from ledger.services import check_balances
from tests.mk.test_winter_concurrency import at_once, client_for, shared_db  # noqa: F401
from tests.wok.conftest import make_game

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("attempt", range(2))
def test_wok_mkt_3_purchases_at_once_never_lose_or_duplicate(shared_db: None,  # noqa: F811
                                                             attempt: int) -> None:
    """WOK-MKT-3, WOK-COST-1, WOK-SET-4: Red double-taps the town in front of its capital (the
    second finds a town there already and is refused) while Blue trades 4 cattle for stone twice at
    once (7 cattle cover one trade: one applies, one is refused); every balance equals the sum
    of its entries and the stockpiles are exact."""
    game = make_game(f"wok-race-{attempt}")
    while game.loaded().state.phase != wb.CONSTRUCTION:
        services.advance(game.campaign, game.gm, dice=["yellow", "yellow", "yellow"])
    before = game.loaded().state
    slug = game.campaign.slug
    front = game.kingdoms["Red"].data["front"]
    build = reverse("wok:build", args=[slug])
    trade = reverse("wok:trade", args=[slug])
    red, blue = game.players["Red"], game.players["Blue"]
    results = at_once([
        (client_for(red), build, {"item": "town", "where": front}),
        (client_for(red), build, {"item": "town", "where": front}),
        (client_for(blue), trade, {"give": "cattle", "receive": "stone", "lots": "1"}),
        (client_for(blue), trade, {"give": "cattle", "receive": "stone", "lots": "1"}),
    ])
    assert sorted(s for s, _ in results[:2]) == [302, 409]
    assert "WOK-SET-4" in next(body for s, body in results[:2] if s == 409)
    assert sorted(s for s, _ in results[2:]) == [302, 409]
    assert "WOK-MKT-1" in next(body for s, body in results[2:] if s == 409)
    after = game.loaded().state
    assert before.stock("Red") - after.stock("Red") == wb.Stock(6, 4, 4, 4, 1)
    assert after.stock("Blue") - before.stock("Blue") == wb.Stock(cattle=-4, stone=1)
    assert after.lvl(front) == wb.TOWN
    for kingdom in game.kingdoms.values():
        assert check_balances(kingdom) == {}
