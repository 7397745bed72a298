"""Owned upgrades and building kinds at work in the table's flow: Heavy Plough on the Farm dice,
the Treadmill Crane finishing a foundation at 1 BP, the Mason's Guild taking 1 off a cost, Wells
taking 1 off a fire, a defensive building working on after a fire, a Totem's fall costing favor;
and the Stockpile page reads the same number of queries with one building or twelve."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaign.systems.swords_and_stones import buildings, costs, table
from campaign.systems.swords_and_stones.models import Game, Participant
from campaign.systems.swords_and_stones.rules import holdings as hold
from tests.sns.conftest import Avalon
from tests.sns.test_table import game, stock  # noqa: F401 (fixture)
from tests.sns.test_table_builds import give, next_turn_compulsory, seat, to_phase

pytestmark = pytest.mark.django_db


def own(game: Game, kingdom: Any, *codes: str, works: list[tuple[str, int]] = ()) -> None:
    """Test set-up: the kingdom owns ``codes`` and has ``works`` (code, BP left) besides its
    Stockpile."""
    part = Participant.objects.get(game=game, kingdom=kingdom)
    rows = [hold.Work(1, "STOCKPILE").as_dict()]
    rows += [hold.Work(i + 2, code, bp, max(bp, 4)).as_dict() for i, (code, bp) in
             enumerate(works)]
    Participant.objects.filter(pk=part.pk).update(table={
        **part.table, "works": rows,
        "upgrades": [{"code": c, "work": None, "turn": 1} for c in codes]})


def test_sns_upg_heavyplough_adds_a_food_per_successful_farm_die(avalon: Avalon,
                                                                  game: Game) -> None:
    """SNS-UPG-HEAVYPLOUGH, SNS-ECON-27: two Farm dice of 2 and 5 with a Heavy Plough: 4 food."""
    own(game, avalon.red, "HEAVYPLOUGH")
    assert table.farm_harvest(avalon.campaign, avalon.gm, game, avalon.red, [2, 5]) == (
        "Red, turn 1: 2 Farm dice (2, 5) give 4 food (SNS-ECON-27, SNS-UPG-HEAVYPLOUGH).")
    assert stock(avalon, avalon.red)["food"] == 5


def test_sns_upg_treadmill_finishes_a_foundation_at_1_bp(avalon: Avalon, game: Game) -> None:
    """SNS-UPG-TREADMILL, SNS-ECON-41: a Barracks with 4 BP and 3 units working stops at 1 BP,
    which the Treadmill Crane finishes; a Farm does not get the help."""
    own(game, avalon.red, "TREADMILL", works=[("BARRACKS", 4), ("FARM", 2)])
    to_phase(avalon, game, avalon.red, "compulsory")
    summary = table.compulsory(avalon.campaign, avalon.gm, game, avalon.red,
                               workers={2: 3, 3: 1})
    assert summary.startswith("Red, turn 1: 4 units worked foundations; Barracks complete "
                              "(SNS-ECON-40, SNS-ECON-41)")
    assert [(w["code"], w["bp"]) for w in seat(avalon, avalon.red)["works"]] == [
        ("STOCKPILE", 0), ("BARRACKS", 0), ("FARM", 1)]


def test_sns_upg_masonsguild_takes_one_stone_off(avalon: Avalon, game: Game) -> None:
    """SNS-UPG-MASONSGUILD, SNS-AMB-30: with the Barracks' 4, 4 as wood and stone, the Mason's
    Guild makes it 4 wood and 3 stone."""
    costs.set_cost_types(avalon.campaign, avalon.gm, "SNS-BLD-BARRACKS", ["wood", "stone"])
    own(game, avalon.red, "MASONSGUILD")
    give(avalon, game, avalon.red, wood=1, stone=3)
    to_phase(avalon, game, avalon.red, "advance")
    assert buildings.lay_foundation(avalon.campaign, avalon.gm, game, avalon.red,
                                    "BARRACKS") == (
        "Red, turn 1: the foundation of a Barracks (4 BP), paid 4 wood, 3 stone "
        "(SNS-BLD-BARRACKS, SNS-ECON-53).")


def test_sns_upg_wells_takes_one_off_a_fire_and_walls_keep_working(avalon: Avalon,
                                                                   game: Game) -> None:
    """SNS-UPG-WELLS, SNS-CBT-8, SNS-ECON-55: a fire of 4 does 3 to a Barracks with Wells; a
    Guard Tower (defensive) hit by fire gets no fire token and works next turn."""
    own(game, avalon.red, "WELLS", works=[("BARRACKS", 0), ("GUARDTOWER", 0)])
    assert buildings.damage(avalon.campaign, avalon.gm, game, avalon.red, 2, fire_die=4) == (
        "Red, turn 1: the Barracks takes 3 wounds from a fire (4 on the die): 3 of 6 HP left; "
        "out of work the whole next turn (SNS-CBT-8).")
    assert buildings.damage(avalon.campaign, avalon.gm, game, avalon.red, 3, fire_die=2) == (
        "Red, turn 1: the Guard Tower takes 1 wound from a fire (2 on the die): 3 of 4 HP left.")
    next_turn_compulsory(avalon, game, avalon.red)
    assert seat(avalon, avalon.red)["buildings"] == {"STOCKPILE": 1, "GUARDTOWER": 1}


def test_sns_bld_totem_a_fallen_totem_costs_favor(avalon: Avalon, game: Game) -> None:
    """SNS-BLD-TOTEM, SNS-AMB-30: a Totem (2 HP) destroyed takes 3 favor (the probable type)."""
    own(game, avalon.red, works=[("TOTEM", 0)])
    give(avalon, game, avalon.red, favor=5)
    summary = buildings.damage(avalon.campaign, avalon.gm, game, avalon.red, 2, wounds=2)
    assert summary == ("Red, turn 1: the Totem takes 2 wounds and is destroyed (SNS-CBT-5; its "
                       "upgrades stay, SNS-ECON-56); a fallen Totem costs 3 and blocks favor "
                       "next turn (SNS-BLD-TOTEM).")
    assert stock(avalon, avalon.red)["favor"] == 2


def test_the_stockpile_page_reads_the_same_queries_for_one_building_or_twelve(
        avalon: Avalon, game: Game, player: Any) -> None:
    """The buildings, Sites and timers live in the seat's state: the page's queries do not grow
    with them."""
    client = Client()
    client.force_login(player)
    url = reverse("sns:table", kwargs={"slug": avalon.campaign.slug, "number": 1,
                                       "kingdom_id": avalon.red.pk})
    counts = []
    for works in ([], [("BARRACKS", 0), ("FARM", 1)] * 6):
        own(game, avalon.red, "HUNTINGCABINS", works=works)
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(url).status_code == 200
        counts.append(len(ctx.captured_queries))
    assert counts[0] == counts[1]
