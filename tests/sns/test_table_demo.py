"""The demo's ninth game at the table at turn 12: each kingdom works a Forest and an Outcrop,
has buildings standing with their upgrades and a Mill foundation being built, a die timer
running; a fire has put the Hollow Crown's Tavern out of work; the campaign's cost types are the
GM's. The campaign file carries all of it and round-trips."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from django.contrib.auth.models import User

from campaign import transfer
from campaign.demo import load_demo
from campaign.models import Campaign
from campaign.systems.swords_and_stones.models import CostType, Participant
from campaign.transfer.base import ImportRefused
from tests.campaign.conftest import as_imported, without_import_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo(db: Any) -> Campaign:
    load_demo("swords-and-stones")
    return Campaign.objects.get(slug="avalon-grand-campaign")


def _seats(campaign: Campaign) -> dict[str, dict[str, Any]]:
    return dict(Participant.objects.filter(game__campaign=campaign, game__number=9)
                .values_list("kingdom__name", "table"))


def test_sns_state_3_the_demo_game_at_turn_12(demo: Campaign) -> None:
    """SNS-ECON-21, SNS-ECON-53, SNS-ECON-56, SNS-STATE-3, SNS-CBT-8, SNS-AMB-30: both
    kingdoms at turn 12 with two Sites each, a Stockpile with Hunting Cabins, two Farms, a
    Tavern and a Barracks standing; the Hollow Crown's Mill foundation has 1 of 3 BP left and
    its Tavern, hit by fire in turn 11, is out of work this turn; Public Executions and Refugees
    are running; six costs carry the GM's types."""
    seats = _seats(demo)
    gold, crown = seats["Goldmarch"], seats["The Hollow Crown"]
    for state in (gold, crown):
        assert [(s["label"], s["kind"]) for s in state["sites"]] == [
            ("Forest 1", "forest"), ("Outcrop 1", "outcrop")]
        assert [w["code"] for w in state["works"]][:5] == [
            "STOCKPILE", "FARM", "TAVERN", "FARM", "BARRACKS"]
        assert state["upgrades"] == [{"code": "HUNTINGCABINS", "work": 1, "turn": 3}]
    assert [(s["level"], s["scarcity"]) for s in gold["sites"]] == [(4, 1), (4, 0)]
    mill = crown["works"][5]
    assert (mill["code"], mill["bp"], mill["bp_full"]) == ("MILL", 1, 3)
    assert crown["works"][2]["fire_turn"] == 11
    assert [(t["name"], t["remaining"]) for t in gold["timers"]] == [("Public Executions", 3)]
    assert [(t["name"], t["remaining"]) for t in crown["timers"]] == [("Refugees", 5)]
    assert CostType.objects.filter(campaign=demo).count() == 6


def test_the_demo_table_round_trips_in_the_campaign_file(demo: Campaign) -> None:
    """The campaign file carries the seats' buildings, Sites and timers and the campaign's cost
    types; imported and exported again it is the same document."""
    gm = User.objects.get(username="gm")
    first = transfer.export_campaign(demo)
    section = first["campaign"]["systems"]["swords-and-stones"]
    assert section["cost_types"][0] == {"cost": "SNS-BLD-TAVERN", "types": ["wood"]}
    assert len(section["games"][8]["participants"][1]["table"]["works"]) == 6
    copy_ = transfer.import_campaign(copy.deepcopy(first), gm, slug="avalon-copy")
    assert CostType.objects.filter(campaign=copy_).count() == 6
    second = transfer.export_campaign(copy_)
    assert without_import_event(second, "gm") == as_imported(first, "gm")


def test_a_cost_type_of_the_wrong_shape_is_refused_on_import(demo: Campaign) -> None:
    """SNS-AMB-30: a Barracks with one type for its two amounts is refused, and nothing is
    imported."""
    gm = User.objects.get(username="gm")
    document = transfer.export_campaign(demo)
    section = document["campaign"]["systems"]["swords-and-stones"]
    section["cost_types"][1] = {"cost": "SNS-BLD-BARRACKS", "types": ["wood"]}
    before = Campaign.objects.count()
    with pytest.raises(ImportRefused) as caught:
        transfer.import_campaign(document, gm, slug="avalon-bad")
    assert str(caught.value) == (
        "campaign.systems.swords-and-stones.cost_types[1]: SNS-BLD-BARRACKS needs 2 types, "
        "each a resource or null (SNS-AMB-30).")
    assert Campaign.objects.count() == before
