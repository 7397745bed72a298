"""What a read keeps of a War of Kings board (``state._read_board``): the tiles as read, what the
kingdoms hold there and the figures the pages make of it (the standings, each kingdom's economy,
their markup, the turn order), each kept under exactly the rows it was made from. Every kind of
change shows at once, whoever made it (an event, its undo, the admin), and equals what a read
made from nothing gives (WOK-ACH-8, WOK-ECON-4, WOK-TURN-7)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection

from campaign.chronicle import undo_latest
from campaign.kept_sql import kept_values
from campaign.models import Campaign, Kingdom, Tile
from campaign.systems.war_of_kings import services, views
from campaign.systems.war_of_kings import state as st
from campaign.systems.war_of_kings.rules import board as wb
from campaign.systems.war_of_kings.rules.achievements import MASTER_MERCHANT
from ledger.models import Balance
from tests.wok.conftest import Game


def _figures(campaign: Campaign) -> dict[str, Any]:
    """What the play page, the overview and every kingdom's page make of a read."""
    campaign = Campaign.objects.get(pk=campaign.pk)
    loaded = st.load(campaign)
    rows, table = views.standings_parts(loaded)
    economies = {}
    for name in loaded.state.seats:
        figures, html = views.economy_parts(loaded, loaded.by_name[name])
        economies[name] = (figures, str(html))
    return {"standings": rows, "table": str(table), "economies": economies,
            "options": views._kept_options(loaded, list(loaded.kingdoms)),
            "names": loaded.names}


def _forget() -> None:
    with st._READS_LOCK:
        st._READS.clear()
        st._SINCE.clear()
    with st._BOARDS_LOCK:
        st._BOARDS.clear()


def _as_if_fresh(campaign: Campaign) -> dict[str, Any]:
    """The figures of a read, checked equal to those of a read made with nothing kept."""
    kept = _figures(campaign)
    _forget()
    assert _figures(campaign) == kept
    return kept


def _public(campaign: Campaign) -> wb.GameState:
    public = st.load(Campaign.objects.get(pk=campaign.pk)).public
    assert public is not None
    return public


def _row(figures: dict[str, Any], name: str) -> dict[str, Any]:
    return next(r for r in figures["standings"] if r["name"] == name)


@pytest.fixture(autouse=True)
def _nothing_kept() -> Any:
    _forget()
    yield
    _forget()


def test_a_read_of_the_same_rows_is_kept_and_a_board_change_shows_at_once(game: Game) -> None:
    first = _as_if_fresh(game.campaign)
    kept = _public(game.campaign)
    assert _public(game.campaign) is kept  # nothing changed: nothing made again
    capital = kept.capital("Red")
    assert kept.lvl(capital) == wb.TOWN and kept.fort(capital) == 0
    assert "Heavily Fortified (2 AP, WOK-ACH-4): needs 5 more fortification levels (has 0 of " \
           "5)." in _row(first, "Red")["needs"]

    services.edit_territory(game.campaign, game.gm, capital, {"fort": 3})
    walled = _as_if_fresh(game.campaign)
    assert _public(game.campaign) is not kept
    assert walled["economies"]["Red"][0]["fort_levels"] == 3
    assert "fortification levels 3 · " in walled["economies"]["Red"][1]
    assert "Heavily Fortified (2 AP, WOK-ACH-4): needs 2 more fortification levels (has 3 of " \
           "5)." in _row(walled, "Red")["needs"]
    assert walled["economies"]["Blue"] == first["economies"]["Blue"]

    undo_latest(game.campaign, game.gm)
    undone = _figures(game.campaign)
    assert undone == first
    assert _figures(game.campaign) == _as_if_fresh(game.campaign)


def test_an_undo_finds_the_read_of_the_rows_it_restores(game: Game) -> None:
    before = _public(game.campaign)
    services.edit_territory(game.campaign, game.gm, before.capital("Blue"), {"fort": 1})
    assert _public(game.campaign) is not before
    undo_latest(game.campaign, game.gm)
    assert _public(game.campaign) is before  # the same rows again: the same read


def test_stockpiles_and_armies_are_read_every_time_while_the_board_is_kept(game: Game) -> None:
    before = _as_if_fresh(game.campaign)
    kept = _public(game.campaign)
    red = game.kingdoms["Red"]
    Balance.objects.filter(kingdom=red, resource=wb.GOLD).update(amount=99)
    assert _public(game.campaign) is kept
    after = _as_if_fresh(game.campaign)
    assert ("Gold", 99) in after["economies"]["Red"][0]["stock"]
    assert "<strong>99</strong> gold" in after["economies"]["Red"][1]
    assert after["standings"] == before["standings"] and after["table"] == before["table"]
    # An army raised in the capital: the page's armies and support follow.
    services.advance(game.campaign, game.gm)  # receive gold
    services.advance(game.campaign, game.gm)  # support checked
    services.advance(game.campaign, game.gm, roll=lambda sides: 2)  # resources: construction
    armies = len(after["economies"]["Red"][0]["armies"])
    game.campaign.refresh_from_db()
    services.build(game.campaign, game.gm, red, "army", kept.capital("Red"))
    raised = _as_if_fresh(game.campaign)
    assert len(raised["economies"]["Red"][0]["armies"]) == armies + 1
    assert raised["economies"]["Red"][0]["support"].armies == armies + 1


def test_a_renamed_or_recoloured_kingdom_shows_at_once(game: Game) -> None:
    before = _as_if_fresh(game.campaign)
    red = Kingdom.objects.get(pk=game.kingdoms["Red"].pk)
    red.name = 'Crimson <&> "Court"'
    red.save()
    renamed = _as_if_fresh(game.campaign)
    assert "Crimson &lt;&amp;&gt; &quot;Court&quot;</a>" in renamed["table"]
    assert "Red</a>" not in renamed["table"]
    assert renamed["names"][red.pk] == 'Crimson <&> "Court"'
    assert "Crimson &lt;&amp;&gt; &quot;Court&quot;</option>" in renamed["options"]
    assert [r["name"] for r in renamed["standings"]][0] == 'Crimson <&> "Court"'
    red.colour = "#123456"
    red.save()
    recoloured = _as_if_fresh(game.campaign)
    assert 'data-c="#123456"' in recoloured["table"]
    assert recoloured["table"] != renamed["table"] != before["table"]


def test_holders_options_and_a_tile_edited_without_an_event_show_at_once(game: Game) -> None:
    before = _as_if_fresh(game.campaign)
    campaign = Campaign.objects.get(pk=game.campaign.pk)
    campaign.state = {**(campaign.state or {}),
                      "holders": {"master_merchant": game.kingdoms["Blue"].pk}}
    campaign.save()
    held = _as_if_fresh(campaign)
    assert _row(held, "Blue")["holds"] == ("Master Merchant",)
    assert _row(held, "Blue")["score"].merchant == 1
    assert '<span class="badge">Master Merchant</span>' in held["table"]
    assert not any(n.startswith(MASTER_MERCHANT) for n in _row(held, "Blue")["needs"])

    services.use_v06(campaign, game.gm)  # an exclusive card is worth 2 AP (WOK-V06-13)
    v06 = _as_if_fresh(campaign)
    assert _row(v06, "Blue")["score"].merchant == 2
    assert _row(v06, "Blue")["score"].total == _row(held, "Blue")["score"].total + 1
    undo_latest(campaign, game.gm)
    assert _as_if_fresh(campaign) == held

    # The admin hands a territory to Black: no event, yet the standings follow.
    tile = Tile.objects.filter(map__campaign=campaign, controller__isnull=True,
                               terrain__in=wb.COLOURS).order_by("pk").first()
    tile.controller = game.kingdoms["Black"]
    tile.save()
    taken = _as_if_fresh(campaign)
    assert _row(taken, "Black")["territories"] == _row(before, "Black")["territories"] + 1


def test_what_is_kept_is_bounded(game: Game) -> None:
    tile = Tile.objects.filter(map__campaign=game.campaign).order_by("pk").first()
    for n in range(st._READS_KEPT + 3):
        tile.name = f"Vale {n}"
        tile.save()
        loaded = st.load(Campaign.objects.get(pk=game.campaign.pk))
        assert loaded.territory_name(tile.label) == f"Vale {n}"
        assert len(st._READS) <= st._READS_KEPT
    red = Kingdom.objects.get(pk=game.kingdoms["Red"].pk)
    for n in range(st._SEATED_KEPT + 3):
        red.name = f"Red {n}"
        red.save()
        campaign = Campaign.objects.get(pk=game.campaign.pk)
        assert views.standings_parts(st.load(campaign))[0][0]["name"] == f"Red {n}"
        assert all(len(read.seated) <= st._SEATED_KEPT for read in st._READS.values())
    loaded = st.load(Campaign.objects.get(pk=game.campaign.pk))
    for n in range(st._FIGURES_KEPT * 2):
        assert loaded.kept(("test", n), lambda n=n: n * 2) == n * 2
        assert len(loaded.figures) <= st._FIGURES_KEPT


def test_a_read_makes_only_the_kingdoms_a_page_asks_for(game: Game) -> None:
    views.standings_parts(st.load(Campaign.objects.get(pk=game.campaign.pk)))
    loaded = st.load(Campaign.objects.get(pk=game.campaign.pk))
    assert isinstance(loaded.kingdoms, st._Kingdoms) and not loaded.kingdoms._made
    views.standings_parts(loaded)
    assert not loaded.kingdoms._made  # the markup is kept, the figures by name
    red = loaded.by_name["Red"]
    assert list(loaded.kingdoms._made) == [red.pk]
    assert red == Kingdom.objects.get(pk=red.pk) and red.data == game.kingdoms["Red"].data
    assert loaded.kingdom("Red") is red


def test_unchanged_tiles_are_not_sent_again_where_their_versions_are_known(game: Game) -> None:
    """On PostgreSQL a read of tiles no one wrote since takes the read kept for them without
    their rows; a write, even without an event, sends them again. Elsewhere every read reads
    the rows."""
    pk = game.campaign.pk
    first = st._read_board(game.campaign)
    rows, versions, held = st._tiles_since(pk)
    before = kept_values(("wok.tiles",), st._tiles_query, pk)
    tile = Tile.objects.filter(map__campaign=game.campaign).order_by("pk").first()
    tile.name = "Bright <Vale>"
    tile.save()
    again, changed, none = st._tiles_since(pk)
    assert none is None
    assert again == kept_values(("wok.tiles",), st._tiles_query, pk)
    assert ("Bright <Vale>" in [row[2] for row in again]) and tile.label in [r[1] for r in again]
    if connection.vendor == "postgresql":
        assert (rows, held) == ([], first) and versions and changed != versions
    else:
        assert (versions, held, changed) == (None, None, None)
        assert rows == before != again
    assert st.load(Campaign.objects.get(pk=pk)).territory_name(tile.label) == "Bright <Vale>"
