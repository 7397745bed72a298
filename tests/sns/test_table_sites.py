"""The kingdom's Sites at the table: recorded with their level and secondary resource,
harvested with the table's dice before the Farms, worn down by scarcity, their level set by the
GM, and a Forest planted with Reforestation Projects that comes up when its timer runs out."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from campaign.models import Event
from campaign.systems.swords_and_stones import costs, sites, table
from campaign.systems.swords_and_stones.models import Game, Participant
from tests.sns.conftest import Avalon, dump, undo
from tests.sns.test_table import game, refused, stock  # noqa: F401
from tests.sns.test_table_builds import next_turn_compulsory, seat, to_phase

pytestmark = pytest.mark.django_db


def record(avalon: Avalon, game: Game, label: str, kind: str, level: int, **kw: Any) -> str:
    return sites.record_site(avalon.campaign, avalon.gm, game, avalon.red, label, kind, level,
                             **kw)


def test_sns_econ_23_the_books_outcrop_example(avalon: Avalon, game: Game) -> None:
    """SNS-ECON-21..23, SNS-STATE-5: five units at a level 3 Outcrop with gold on 3+ roll 2, 2,
    3, 1, 6: one Outcrop event, 2 gold and 2 stone; the dice are kept with the event; undo puts
    every row back."""
    assert record(avalon, game, "O1", "outcrop", 3, secondary="gold", threshold=3) == (
        "Red, turn 1: Site O1 recorded: Outcrop, set A, level 3, gold on 3+ (SNS-STATE-5).")
    before = dump()
    summary = sites.harvest_site(avalon.campaign, avalon.gm, game, avalon.red, 1,
                                 [2, 2, 3, 1, 6])
    assert summary == ("Red, turn 1: 5 dice at O1 (2, 2, 3, 1, 6) give 2 gold, 2 stone "
                       "(SNS-ECON-22); 1 Outcrop event: roll it on the Outcrop table first "
                       "(SNS-ECON-22).")
    assert stock(avalon, avalon.red) == {"food": 1, "wood": 3, "stone": 2, "iron": 0, "gold": 2,
                                         "favor": 0}
    assert Event.objects.filter(kind="sns.table").order_by("seq").last().dice == [
        {"purpose": "SNS-ECON-22", "values": [2, 2, 3, 1, 6], "source": "table"}]
    undo(avalon)
    assert dump() == before


def test_sns_econ_23_gold_may_be_taken_as_stone(avalon: Avalon, game: Game) -> None:
    """SNS-ECON-23: the same dice with one gold die taken as stone: 1 gold, 3 stone; more than
    the gold dice found is refused."""
    record(avalon, game, "O1", "outcrop", 3, secondary="gold", threshold=3)
    refused(lambda: sites.harvest_site(avalon.campaign, avalon.gm, game, avalon.red, 1,
                                       [2, 2, 3, 1, 6], stone_instead=3),
            "Only 2 dice found gold to take as stone (SNS-ECON-23).")
    sites.harvest_site(avalon.campaign, avalon.gm, game, avalon.red, 1, [2, 2, 3, 1, 6],
                       stone_instead=1)
    assert (stock(avalon, avalon.red)["gold"], stock(avalon, avalon.red)["stone"]) == (1, 3)


def test_sns_econ_20_sites_are_harvested_before_the_farms(avalon: Avalon, game: Game) -> None:
    """SNS-ECON-20: once the Farm dice are rolled, no Site may be harvested that turn; the next
    turn it may."""
    record(avalon, game, "F1", "forest", 4)
    table.farm_harvest(avalon.campaign, avalon.gm, game, avalon.red, [2])
    refused(lambda: sites.harvest_site(avalon.campaign, avalon.gm, game, avalon.red, 1, [4, 5]),
            "SNS-ECON-20: the Farm dice were rolled this turn; every Site is harvested before "
            "them.")
    next_turn_compulsory(avalon, game, avalon.red)
    to_phase(avalon, game, avalon.red, "harvest")
    assert sites.harvest_site(avalon.campaign, avalon.gm, game, avalon.red, 1, [4, 5]) == (
        "Red, turn 3: 2 dice at F1 (4, 5) give 2 wood (SNS-ECON-22).")


def test_sns_econ_24_scarcity_depletes_a_site_at_its_level(avalon: Avalon, game: Game) -> None:
    """SNS-ECON-24: a level 2 Forest depletes at its second scarcity point and cannot be
    harvested; a Mountain's stone never runs out (SNS-MAP-9)."""
    record(avalon, game, "F1", "forest", 2)
    assert sites.add_scarcity(avalon.campaign, avalon.gm, game, avalon.red, 1) == (
        "Red, turn 1: F1 has 1 of 2 scarcity (SNS-ECON-24).")
    assert sites.add_scarcity(avalon.campaign, avalon.gm, game, avalon.red, 1) == (
        "Red, turn 1: F1 has 2 of 2 scarcity and is depleted, out of play (SNS-ECON-24).")
    refused(lambda: sites.harvest_site(avalon.campaign, avalon.gm, game, avalon.red, 1, [4]),
            "This Site is depleted and out of play (SNS-ECON-24).")
    Game.objects.filter(pk=game.pk).update(map_type_played="Mountains")
    record(avalon, game, "Peak", "outcrop", 2, at_mountain=True)
    assert sites.add_scarcity(avalon.campaign, avalon.gm, game, avalon.red, 2) == (
        "Red, turn 1: Peak never runs out of stone (SNS-ECON-24).")


def test_sns_map_3_black_forest_forests_are_level_6(avalon: Avalon, game: Game) -> None:
    """SNS-MAP-3, SNS-MAP-8: on a Black Forest game a Forest recorded at level 3 is level 6;
    on Great Sandy a Forest starts with 1 scarcity point."""
    Game.objects.filter(pk=game.pk).update(map_type_played="Black Forest")
    assert record(avalon, game, "F1", "forest", 3) == (
        "Red, turn 1: Site F1 recorded: Forest, set A, level 6 (SNS-STATE-5).")
    Game.objects.filter(pk=game.pk).update(map_type_played="Great Sandy")
    assert record(avalon, game, "F2", "forest", 3) == (
        "Red, turn 1: Site F2 recorded: Forest, set A, level 3, 1 scarcity (SNS-STATE-5).")
    refused(lambda: record(avalon, game, "F2", "forest", 3),
            "There is already a Site called 'F2'.")
    refused(lambda: record(avalon, game, "X", "forest", 3, secondary="gold", threshold=3),
            "Only an Outcrop may hold gold or iron (SNS-ECON-23).")


def test_sns_state_5_the_gm_sets_a_sites_level(avalon: Avalon, game: Game, player: Any,
                                               gm: Any) -> None:
    """SNS-STATE-5: the GM raises a Forest from level 2 to 4 through the form; the player may
    not (403, nothing written)."""
    record(avalon, game, "F1", "forest", 2)
    url = reverse("sns:table_action", kwargs={"slug": avalon.campaign.slug, "number": 1,
                                              "kingdom_id": avalon.red.pk,
                                              "action": "site_level"})
    client = Client()
    client.force_login(player)
    before = dump()
    assert client.post(url, {"site": "1", "level": "4"}).status_code == 403
    assert dump() == before
    client.force_login(gm)
    response = client.post(url, {"site": "1", "level": "4"}, headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert "F1 goes from level 2 to 4 (SNS-STATE-5)." in response.content.decode()
    assert seat(avalon, avalon.red)["sites"][0]["level"] == 4


def test_sns_upg_reforestation_a_planted_forest_comes_up_when_its_timer_runs_out(
        avalon: Avalon, game: Game) -> None:
    """SNS-UPG-REFORESTATION, SNS-STATE-3, SNS-ECON-40, SNS-AMB-30: with Reforestation Projects
    Red pays 5 (the campaign says wood) to plant a Forest; it grows through 10 compulsory
    phases and comes up at level 3, its events Idle Villagers."""
    costs.set_cost_types(avalon.campaign, avalon.gm, "SNS-UPG-REFORESTATION/use", ["wood"])
    table.book_line(avalon.campaign, avalon.gm, game, avalon.red, "wood", 2, "SNS-ECON-3", "")
    part = Participant.objects.get(game=game, kingdom=avalon.red)
    Participant.objects.filter(pk=part.pk).update(table={
        **part.table, "upgrades": [{"code": "REFORESTATION", "work": None, "turn": 1}]})
    to_phase(avalon, game, avalon.red, "advance")
    assert sites.plant_forest(avalon.campaign, avalon.gm, game, avalon.red, "New wood") == (
        "Red, turn 1: plants Forest New wood, paid 5 wood; it grows for 10 turns and comes up "
        "at level 3 (SNS-UPG-REFORESTATION).")
    assert stock(avalon, avalon.red)["wood"] == 0
    next_turn_compulsory(avalon, game, avalon.red)
    to_phase(avalon, game, avalon.red, "harvest")
    refused(lambda: sites.harvest_site(avalon.campaign, avalon.gm, game, avalon.red, 1, [3]),
            "SNS-UPG-REFORESTATION: New wood is still growing.")
    for _ in range(7):  # turns 4 to 10 (turn 3's ran on the way to its harvest)
        next_turn_compulsory(avalon, game, avalon.red)
    assert seat(avalon, avalon.red)["timers"][0]["remaining"] == 1
    summary = next_turn_compulsory(avalon, game, avalon.red)
    assert summary == ("Red, turn 11: Reforestation ran out; New wood comes up at level 3 "
                       "(SNS-ECON-40, SNS-ECON-41); upkeep 0 food; growth 1 (SNS-ECON-42..44).")
    site = seat(avalon, avalon.red)["sites"][0]
    assert (site["level"], site["grows_to"], site["reforested"]) == (3, 0, True)
    to_phase(avalon, game, avalon.red, "harvest")
    assert sites.harvest_site(avalon.campaign, avalon.gm, game, avalon.red, 1, [1, 4]) == (
        "Red, turn 12: 2 dice at New wood (1, 4) give 1 wood (SNS-ECON-22); 1 Forest event "
        "(Idle Villagers: a planted Forest).")


def test_the_site_forms_through_the_web(avalon: Avalon, game: Game, player: Any) -> None:
    """The player records a Site and harvests it through the forms; a level out of range is
    400 and changes nothing."""
    args = {"slug": avalon.campaign.slug, "number": 1, "kingdom_id": avalon.red.pk}
    client = Client()
    client.force_login(player)

    def post(action: str, data: dict[str, str]) -> Any:
        return client.post(reverse("sns:table_action", kwargs={**args, "action": action}),
                           data, headers={"HX-Request": "true"})

    before = dump()
    assert post("site", {"label": "O1", "kind": "outcrop", "level": "13"}).status_code == 400
    assert dump() == before
    response = post("site", {"label": "O1", "kind": "outcrop", "level": "3",
                             "secondary": "iron", "threshold": "5"})
    assert response.status_code == 200
    assert "Outcrop, set A, level 3, iron on 5+" in response.content.decode()
    response = post("site_harvest", {"site": "1", "dice": "5 6 2"})
    assert response.status_code == 200
    assert "give 2 iron, 1 stone (SNS-ECON-22)" in response.content.decode()
    assert stock(avalon, avalon.red)["iron"] == 2


def test_sns_econ_24_a_scarcity_event_rolled_at_a_site_wears_it_down(avalon: Avalon,
                                                                    game: Game) -> None:
    """SNS-ECON-24, SNS-EVT-2, SNS-UPG-REGENFORESTRY: at turn 10 a Resource Scarcity (Forest
    event 10) rolled for a level 2 Forest adds its point; a second depletes it; with
    Regenerative Forestry the same roll is Idle Villagers and adds nothing."""
    record(avalon, game, "F1", "forest", 2)
    record(avalon, game, "F2", "forest", 3)
    part = Participant.objects.get(game=game, kingdom=avalon.red)
    Participant.objects.filter(pk=part.pk).update(table={
        **Participant.objects.get(pk=part.pk).table, "turn": 10})
    assert table.event(avalon.campaign, avalon.gm, game, avalon.red, "forest", 10, site=1) == (
        "Red, turn 10: forest event 10: Resource Scarcity; F1 has 1 of 2 scarcity "
        "(SNS-ECON-24) (SNS-EVT-2).")
    assert table.event(avalon.campaign, avalon.gm, game, avalon.red, "forest", 11, site=1) == (
        "Red, turn 10: forest event 11: Resource Scarcity; F1 has 2 of 2 scarcity, depleted "
        "(SNS-ECON-24) (SNS-EVT-2).")
    state = seat(avalon, avalon.red)
    Participant.objects.filter(pk=part.pk).update(table={
        **state, "upgrades": [{"code": "REGENFORESTRY", "work": 1, "turn": 10}]})
    summary = table.event(avalon.campaign, avalon.gm, game, avalon.red, "forest", 10, site=2)
    assert "Idle Villagers" in summary and "scarcity" not in summary.split(":", 2)[2]
    assert seat(avalon, avalon.red)["sites"][1]["scarcity"] == 0
    refused(lambda: table.event(avalon.campaign, avalon.gm, game, avalon.red, "forest", 10,
                                site=9),
            "SNS-STATE-5: Red has no Site 9.")
