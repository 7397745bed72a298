"""The leaders the map draws (MS-LEADER-2): the king in each Capital, leaders in cities by
value (an inactive one in brackets), each on its own space in its owner's colour; read with the
kingdoms the map has already read, and only the spaces a leader stands on."""

from __future__ import annotations

from typing import Any

from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaign.models import Kingdom, Tile
from campaign.systems.middle_sea import shell
from campaign.systems.middle_sea.models import Game
from tests.ms.conftest import Table


def _expected(table: Table) -> list[tuple[int, str, str, str]]:
    """What the map shows, worked out from every tile of the map."""
    tiles = dict(Tile.objects.filter(map__campaign=table.campaign).values_list("label", "id"))
    colours = {k.name: k.colour for k in table.kingdoms.values()}
    found = []
    for p in table.state().players:
        for leader in p.leaders:
            if leader.place == "capital":
                label, text = p.capital, f"K{leader.value}"
            elif leader.in_city:
                label = leader.place
                text = str(leader.value) if leader.active else f"({leader.value})"
            else:
                continue
            if label in tiles:
                found.append((tiles[label], text, colours[p.name], p.name))
    return found


def test_ms_leader_2_map_markers(table: Table) -> None:
    table.setup()
    game = Game.objects.get(campaign=table.campaign)
    state = dict(game.state)
    players = [dict(p) for p in state["players"]]
    capitals = {p.capital for p in table.state().players}
    cities = [label for label in Tile.objects.filter(map__campaign=table.campaign)
              .order_by("label").values_list("label", flat=True) if label not in capitals]
    # Two of the first player's reserve leaders in cities, one of them inactive.
    leaders = [dict(item) for item in players[0]["leaders"]]
    moved = 0
    for item in leaders:
        if item["place"] not in ("capital",) and moved < 2:
            item["place"], item["active"] = cities[moved], moved == 0
            moved += 1
    players[0]["leaders"] = leaders
    state["players"] = players
    game.state = state
    game.save()
    expected = _expected(table)
    assert any(text.startswith("(") for _pk, text, _c, _n in expected)
    assert any(text.startswith("K") for _pk, text, _c, _n in expected)
    kingdoms = {k.pk: k for k in Kingdom.objects.filter(campaign=table.campaign)}
    with CaptureQueriesContext(connection) as queries:
        markers = shell.map_markers(table.campaign, kingdoms)
    assert [(pk, m.text, m.colour) for pk, m in markers] == [
        (pk, text, colour) for pk, text, colour, _name in expected]
    assert all(name in m.title for (_pk, m), (_p, _t, _c, name) in zip(markers, expected,
                                                                      strict=True))
    # The game and the leaders' spaces: the kingdoms came with the map.
    assert len(queries) == 2


def test_ms_map_markers_before_setup(table: Any) -> None:
    kingdoms = {k.pk: k for k in Kingdom.objects.filter(campaign=table.campaign)}
    assert shell.map_markers(table.campaign, kingdoms) == []
