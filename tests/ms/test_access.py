"""Who may do what in a Middle Sea game: every action page by persona (GM, the player to act,
another player, an observer, an outsider, nobody logged in), the pages everyone reads, and the
query count of the play page as a game grows."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaign.systems.middle_sea import services as ms
from tests.ms.conftest import Table
from tests.undo_watch import full_dump

ACTIONS = ("setup", "end_turn", "control", "put_down", "end_rebellion", "dominance", "explore",
           "road", "port", "exchange", "king", "activate", "move", "attack", "defend",
           "start_clock", "call_time")
GM_ONLY = ("setup", "start_clock", "call_time")


def _client(table: Table, who: str) -> Client:
    return Client() if who == "anonymous" else table.client(who)


@pytest.mark.parametrize("action", ACTIONS)
@pytest.mark.parametrize("who", ["anonymous", "outsider", "observer"])
def test_ms_round_2_nobody_outside_the_players_acts(table: Table, action: str, who: str) -> None:
    """MS-ROUND-2: outsiders are not told the campaign exists (404), the anonymous are sent
    to log in, an observer may not act (403); nothing changes."""
    table.setup(4)
    before = full_dump()
    response = _client(table, who).post(reverse(f"ms:{action}", args=[table.campaign.slug]),
                                        {"leader": "1", "suit": "suns", "minutes": "5"})
    expected = {"anonymous": 302, "outsider": 404, "observer": 403}[who]
    assert response.status_code == expected
    assert full_dump() == before


@pytest.mark.parametrize("action", GM_ONLY)
def test_ms_setup_1_only_the_gm_sets_up_and_keeps_time(table: Table, action: str) -> None:
    """MS-SETUP-1, MS-WIN-3: set-up and the clock are the GM's (403 for a player)."""
    before = full_dump()
    response = table.post("Red", action, {"minutes": "5"})
    assert response.status_code == 403
    assert full_dump() == before


def test_ms_round_2_another_player_is_told_whose_turn_it_is(table: Table) -> None:
    """MS-ROUND-2: Blue may not end Red's turn; the GM may, for Red."""
    table.setup(4)
    before = full_dump()
    response = table.post("Blue", "end_turn")
    assert response.status_code == 409
    assert "It is Red&#x27;s turn; players act in dominance order (MS-ROUND-2)." in \
        response.content.decode()
    assert full_dump() == before
    assert table.post("gm", "end_turn").status_code == 302
    assert table.state().turn == 1


def test_ms_term_6_every_member_reads_the_public_game(table: Table) -> None:
    """MS-TERM-6: the reserves and standings are public to every member; only the player to
    act (and the GM) gets the forms of the turn."""
    table.setup(4)
    url = reverse("campaign:play", args=[table.campaign.slug])
    for who in ("gm", "Red", "Blue", "observer"):
        body = table.client(who).get(url).content.decode()
        assert "Kingdoms in dominance order" in body and "msboard" in body
        has_form = 'action="/c/middle/ms/turn/end/"' in body
        assert has_form is (who in ("gm", "Red")), who
    assert table.client("outsider").get(url).status_code == 404
    fragment = table.client("Red").get(url, headers={"HX-Request": "true"})
    assert fragment.status_code == 200 and "<html" not in fragment.content.decode()


def _play_queries(table: Table) -> int:
    client = table.client("Red")
    url = reverse("campaign:play", args=[table.campaign.slug])
    client.get(url)
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_ms_round_1_the_play_page_costs_the_same_as_the_game_grows(table: Table) -> None:
    """MS-ROUND-1: the play page reads a fixed number of rows, round 1 or round 5, with more
    events, ledger lines and cities."""
    table.setup(4)
    first = _play_queries(table)
    names = ("Red", "Blue", "Gold", "Grey")
    for _ in range(4):
        for phase in ("control", "build", "leader"):
            for name in table.state().order:
                if phase == "build" and name == "Red" and table.state().players[0].goods >= 1:
                    suit = next(s for s, v in table.state().stacks if v)
                    places = [f"N-{p}" for p in ("NL", "NR", "FL", "FM", "FR")]
                    free = [p for p in places if not any(s.space == p for s in
                                                         table.state().sites)]
                    if free:
                        ms.explore(table.campaign, table.acting("Red"), suit, free[0])
                ms.end_turn(table.campaign, table.acting(name))
    state = table.state()
    assert state.round == 5 and len(state.sites) == 4 and set(names) == set(state.order)
    assert _play_queries(table) == first


def test_ms_board_1_the_map_and_tile_panel_show_the_table(table: Table) -> None:
    """MS-BOARD-1, MS-CITY-5: the shared map draws every space, the capitals as stars, and
    the tile panel says whose Capital a space holds."""
    table.setup(3)
    client = table.client("Blue")
    body = client.get(reverse("campaign:map", args=[table.campaign.slug])).content.decode()
    assert body.count('class="tile"') == 25
    panel = client.get(reverse("campaign:tile", args=[table.campaign.slug, "E-CAP"]),
                       headers={"HX-Request": "true"}).content.decode()
    assert "Capital of Blue: king 1" in panel
    ms.end_turn(table.campaign, table.acting("Red"))
    for name in ("Blue", "Gold"):
        ms.end_turn(table.campaign, table.acting(name))
    ms.explore(table.campaign, table.acting("Red"), "suns", "N-FL")
    ms.build_road(table.campaign, table.acting("Red"), "N-CAP", "N-FL")
    panel = client.get(reverse("campaign:tile", args=[table.campaign.slug, "N-FL"]),
                       headers={"HX-Request": "true"}).content.decode()
    assert "The 1-market (suns), controlled by Red; home city" in panel
    assert "A trade route joins it to the Capital (MS-PROD-4)" in panel
    svg = client.get(reverse("campaign:map_svg", args=[table.campaign.slug]))
    assert svg["Content-Type"] == "image/svg+xml" and svg.content.count(b'class="tile"') == 25
    assert b'data-tile="W-CAP"' in svg.content


def test_ms_setup_8_setup_form_refuses_bad_rolls_and_changes_nothing(table: Table) -> None:
    """MS-SETUP-8, MS-EQUIP-1: a die shows 0 to 5; tied players must reroll; one kingdom per
    seat."""
    gm = table.client("gm")
    url = reverse("ms:setup", args=[table.campaign.slug])
    red, blue = table.kingdoms["Red"].pk, table.kingdoms["Blue"].pk
    before = full_dump()
    cases: list[tuple[dict[str, Any], int, str]] = [
        ({"seat_1": red, "suit_1": "suns", "roll_1": "7"}, 400, "roll_1"),
        ({"seat_1": red, "suit_1": "suns", "seat_2": blue, "suit_2": "moons", "roll_1": "4",
          "roll_2": "4"}, 409, "MS-SETUP-8"),
        ({"seat_1": red, "suit_1": "suns", "seat_2": red, "suit_2": "moons"}, 409,
         "MS-SETUP-1"),
        ({"seat_1": red, "suit_1": "suns", "seat_2": blue, "suit_2": "suns"}, 409,
         "MS-SETUP-1"),
        ({"seat_1": red, "suit_1": "suns"}, 409, "MS-EQUIP-4"),
        ({"seat_1": "x", "suit_1": "suns"}, 400, "seat_1"),
    ]
    for data, status, words in cases:
        response = gm.post(url, data)
        assert response.status_code == status, data
        assert words in response.content.decode(), data
    assert full_dump() == before
    response = gm.post(url, {"seat_1": red, "suit_1": "suns", "seat_2": blue,
                             "suit_2": "moons", "roll_1": "4 1", "roll_2": "4 3"})
    assert response.status_code == 302
    assert table.state().order == ("Blue", "Red")


def test_ms_build_2_an_explore_form_sent_twice_explores_once(table: Table) -> None:
    """MS-BUILD-2: the same form (its one-time token) arriving twice, as a phone resends it,
    takes one city and one payment."""
    import re

    table.setup(2)
    for name in ("Red", "Blue"):
        ms.end_turn(table.campaign, table.acting(name))
    client = table.client("Red")
    page = client.get(reverse("campaign:play", args=[table.campaign.slug])).content.decode()
    form = page[page.index('action="/c/middle/ms/build/explore/"'):]
    found = re.search(r'name="once" value="([0-9a-f]{32})"', form)
    assert found is not None
    url = reverse("ms:explore", args=[table.campaign.slug])
    data = {"suit": "arms", "place": "N-FL", "once": found.group(1)}
    assert client.post(url, data).status_code == 302
    assert client.post(url, data).status_code == 302
    red = table.state().players[0]
    assert (len(table.state().sites), red.goods, red.gold) == (1, 4, 4)
