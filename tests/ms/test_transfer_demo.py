"""The Middle Sea's campaign-file section round-trips, a broken position is refused before
anything is written, and the demo loads in round 4 with a rebellion pending and a close race
for dominance."""

from __future__ import annotations

import copy
import json

import pytest

from campaign import transfer
from campaign.demo import load_demo
from campaign.models import Campaign
from campaign.systems.middle_sea import services as ms
from campaign.systems.middle_sea.game import read_game
from campaign.systems.middle_sea.rules.dominance import dominance_score
from campaign.transfer.base import ImportRefused
from tests.campaign.conftest import as_imported, without_import_event
from tests.ms.conftest import Table


def _played(table: Table) -> Campaign:
    table.setup(4)
    for name in ("Red", "Blue", "Gold", "Grey"):
        ms.end_turn(table.campaign, table.acting(name))
    ms.explore(table.campaign, table.acting("Red"), "moons", "N-FL")
    ms.build_road(table.campaign, table.acting("Red"), "N-CAP", "N-FL")
    return table.campaign


def test_ms_setup_1_a_game_round_trips_through_a_campaign_file(table: Table) -> None:
    """MS-SETUP-1, MS-TERM-6: the position, seats and reserves come back exactly, and the copy
    plays on."""
    campaign = _played(table)
    first = transfer.export_campaign(campaign)
    section = first["campaign"]["systems"]["middle-sea"]
    assert section["version"] == 1
    assert section["game"]["seats"] == ["Red", "Blue", "Gold", "Grey"]
    copy_ = transfer.import_campaign(json.loads(transfer.dumps(first)), table.gm, slug="copy")
    second = transfer.export_campaign(Campaign.objects.get(slug="copy"))
    assert without_import_event(second, "gm") == as_imported(first, "gm")
    loaded = read_game(copy_)
    assert loaded is not None and loaded.state == read_game(campaign).state  # type: ignore[union-attr]
    # The copy goes on: Red, still on its build turn, explores again.
    from campaign.systems.middle_sea.game import Acting

    ms.explore(copy_, Acting(table.gm, True, None), "suns", "N-FM")
    assert len(read_game(copy_).state.sites) == 2  # type: ignore[union-attr]


@pytest.mark.parametrize("breakage", ["two_cities", "unknown_seat", "seat_order", "pending"])
def test_ms_city_1_a_broken_position_is_refused_whole(table: Table, breakage: str) -> None:
    """MS-CITY-1, MS-LEADER-5: an imported position must be a legal table; nothing is
    written otherwise."""
    document = transfer.export_campaign(_played(table))
    bad = copy.deepcopy(document)
    game = bad["campaign"]["systems"]["middle-sea"]["game"]
    if breakage == "two_cities":
        game["state"]["sites"].append({"space": "N-FL", "suit": "arms", "value": 5})
    elif breakage == "unknown_seat":
        game["seats"][0] = "Nobody"
    elif breakage == "seat_order":
        game["seats"] = list(reversed(game["seats"]))
    else:
        game["pending"] = {"attacker": "Red"}
    before = Campaign.objects.count()
    with pytest.raises(ImportRefused, match="middle-sea"):
        transfer.import_campaign(bad, table.gm, slug="broken")
    assert Campaign.objects.count() == before


def test_ms_round_1_the_demo_is_round_4_with_a_rebellion_and_a_close_race(db: None) -> None:
    """MS-ROUND-1, MS-CONTROL-4, MS-DOM-1: three kingdoms in the control phase of round 4;
    Moonmere's 2-mine rebels, and Moonmere and Sunhold stand level on dominance. Loading the
    demo again changes nothing."""
    load_demo("middle-sea")
    campaign = Campaign.objects.get(slug="wine-dark-sea")
    state = read_game(campaign).state  # type: ignore[union-attr]
    assert (state.round, state.phase, len(state.players)) == (4, "control", 3)
    assert state.rebellion is not None
    assert (state.rebellion.owner, state.rebellion.cities) == ("Moonmere", ("E-NL",))
    assert [dominance_score(state, n) for n in state.order] == [4, 4, 1]
    events = campaign.events.count()
    load_demo("middle-sea")
    assert campaign.events.count() == events
