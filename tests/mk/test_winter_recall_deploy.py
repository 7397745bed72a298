"""Recall (MK-RECALL-1..5, MK-AMB-18/36) and deployment (MK-DEPLOY-1..6, TV-MK-8, MK-AMB-17/41)
through the services on a real campaign."""

from __future__ import annotations

from typing import Any

import pytest

from battles.models import Army
from campaign.models import Campaign, Tile
from campaign.services import ServiceError
from campaign.systems.mighty_kingdoms import phases
from campaign.systems.mighty_kingdoms import winter_services as ws
from campaign.systems.mighty_kingdoms.models import Ship
from campaign.systems.mighty_kingdoms.rules.campaign import RuleViolation
from tests.mk.test_winter_world import (  # noqa: F401 (fixtures)
    World,
    add_armies,
    build_tv3,
    fixed_dice,
    grant,
    plain_summer,
    set_clock,
    settle,
    to_phase,
    tv3,
)

pytestmark = pytest.mark.django_db


def tiles(w: World, *names: str) -> Any:
    return Tile.objects.filter(map__campaign=w.campaign, label__in=[w.t(n) for n in names])


# --- Recall ------------------------------------------------------------------------------------


def test_mk_recall_3_a_kingdom_of_fortresses_loses_its_armies(tv3: World) -> None:
    tiles(tv3, "GV").update(settlement="fortress")
    tiles(tv3, "G0").update(settlement="")
    event = tv3.advance()
    assert tv3.army_numbers("Green") == []
    assert "Green holds no capital, city or village: army #1 destroyed (MK-RECALL-3)." in \
        event.summary
    gone = Army.objects.get(kingdom=tv3.kingdoms["Green"], number=1)
    assert gone.tile is None and gone.data["removed"]["reason"] == "no capital, city or village"


def test_mk_recall_2_no_capital_one_city_of_choice_else_one_village(tv3: World) -> None:
    tiles(tv3, "B0").update(controller=tv3.kingdoms["Red"])
    tv3.advance()
    state = tv3.state()
    plan = ws.mk.recall_destination(state.kingdoms[tv3.kingdoms["Blue"].pk], state.map)
    assert (plan.kind, plan.choices) == ("village", (tv3.t("BV1"), tv3.t("BV2")))
    assert "Blue has to choose where its armies winter (MK-RECALL-2)." in phases.blockers(state)
    with pytest.raises(RuleViolation, match="one of your villages"):
        ws.choose_recall(tv3.kingdoms["Blue"], tv3.gm, tile=tv3.t("C0"))
    ws.choose_recall(tv3.kingdoms["Blue"], tv3.gm, tile=tv3.t("BV2"))
    assert tv3.armies_at("Blue") == {1: tv3.t("BV2")}
    with pytest.raises(ServiceError, match="Blue has nothing left to choose at Recall"):
        ws.choose_recall(tv3.kingdoms["Blue"], tv3.gm, tile=tv3.t("BV1"))


def test_mk_amb_18_surplus_ships_removed_by_the_owners_choice(tv3: World) -> None:
    red = tv3.kingdoms["Red"]
    sea = Tile.objects.get(map__campaign=tv3.campaign, label=tv3.t("SEA"))
    for number in (2, 3):
        Ship.objects.create(campaign=tv3.campaign, kingdom=red, number=number, tile=sea)
    tv3.advance()
    with pytest.raises(RuleViolation, match="both dock at .*one ship per city"):
        ws.choose_recall(red, tv3.gm, docks={1: tv3.t("C0"), 2: tv3.t("C0")})
    with pytest.raises(RuleViolation, match=f"Ship #2 can still dock at {tv3.t('C1')}"):
        ws.choose_recall(red, tv3.gm, docks={1: tv3.t("C0")})
    summary = ws.choose_recall(red, tv3.gm, docks={1: tv3.t("C1"), 3: tv3.t("C0")})
    assert summary == (f"Red: ship #1 at {tv3.t('C1')}, ship #3 at {tv3.t('C0')} docked "
                       "(MK-RECALL-5), ship #2 removed.")
    docked = dict(Ship.objects.filter(kingdom=red, tile__isnull=False)
                  .values_list("number", "tile__label"))
    assert docked == {1: tv3.t("C1"), 3: tv3.t("C0")}
    assert Ship.objects.get(kingdom=red, number=2).data["removed"]["rule"] == "MK-AMB-18"


def test_mk_amb_18_newest_ships_go_without_asking_where_one_city(gm: Any,
                                                                 plain_summer: None) -> None:
    w = build_tv3(gm, options={"dock_surplus": "newest"})
    tiles(w, "C1").update(settlement="village")  # C0 is Red's only harbour now
    sea = Tile.objects.get(map__campaign=w.campaign, label=w.t("SEA"))
    Ship.objects.create(campaign=w.campaign, kingdom=w.kingdoms["Red"], number=2, tile=sea)
    event = w.advance()
    assert "Red had no city to dock ship #2: removed (MK-RECALL-5, MK-AMB-18)." in event.summary
    assert phases.blockers(w.state()) == []
    assert Ship.objects.get(kingdom=w.kingdoms["Red"], number=1).tile.label == w.t("C0")


# --- Deploy ------------------------------------------------------------------------------------


@pytest.fixture
def tv8(gm: Any, plain_summer: None, fixed_dice: Any) -> World:
    """TV-MK-8: Red holds its own capital, 1 city, 1 fortress, 2 villages and has 6 armies."""
    w = build_tv3(gm)
    tiles(w, "C2", "V3").update(controller=None, settlement="")
    tiles(w, "E1", "E2", "E3").update(controller=None)
    add_armies(w, "Red", 4, 5, 6)
    set_clock(w, "C", "feed")
    grant(w, "Red", food=6)
    grant(w, "Blue", food=1)
    grant(w, "Green", food=1)
    for name, numbers in (("Red", [1, 2, 3, 4, 5, 6]), ("Blue", [1]), ("Green", [1])):
        ws.feed(w.kingdoms[name], gm, numbers)
    fixed_dice(6, 1)
    w.advance()
    assert w.phase() == ws.DEPLOY
    return w


def test_tv_mk_8_deployment_limits_through_the_service(tv8: World) -> None:
    w = tv8
    state = w.state()
    red = w.kingdoms["Red"]
    assert ws.mk.total_capacity(state.kingdoms[red.pk], state.map) == 3 + 2 + 3 + 1 + 1
    assert [w.k(n).order_position for n in ("Red", "Blue", "Green")] == [1, 2, 3]

    def red_places(number: int, tile: str) -> None:
        ws.deploy_army(red, w.gm, number, w.t(tile))
        for name in ("Blue", "Green"):
            if ws.deploy_turn(w.state()) == w.kingdoms[name].pk:
                ws.deploy_army(w.kingdoms[name], w.gm, 1, w.t({"Blue": "B0", "Green": "G0"}[name]))

    for number, tile in ((1, "C0"), (2, "C0"), (3, "C0")):
        red_places(number, tile)
    with pytest.raises(RuleViolation, match=r"A Capital City takes at most 3 armies at "
                                            r"deployment: 4 planned at .* \(MK-DEPLOY-4\)"):
        ws.deploy_army(red, w.gm, 4, w.t("C0"))
    red_places(4, "V1")
    with pytest.raises(RuleViolation, match=r"A village takes at most 1 army .*MK-DEPLOY-4"):
        ws.deploy_army(red, w.gm, 5, w.t("V1"))
    red_places(5, "C1")
    red_places(6, "C1")
    assert ws.deploy_turn(w.state()) is None
    assert w.armies_at("Red") == {1: w.t("C0"), 2: w.t("C0"), 3: w.t("C0"), 4: w.t("V1"),
                                  5: w.t("C1"), 6: w.t("C1")}
    plan = {w.t("C0"): 3, w.t("F1"): 3}
    assert ws.mk.validate_deployment_plan(state.kingdoms[red.pk], state.map, plan, 6) == 0


def test_tv_mk_8_a_city_takes_2_and_a_captured_capital_2(tv8: World) -> None:
    w = tv8
    red = w.kingdoms["Red"]
    tiles(w, "G0").update(controller=red)  # Green's capital, captured by Red: a plain city
    for number in (1, 2):
        ws.deploy_army(red, w.gm, number, w.t("G0"))
        for name in ("Blue", "Green"):
            if ws.deploy_turn(w.state()) == w.kingdoms[name].pk:
                own = {"Blue": "B0", "Green": "GV"}[name]
                ws.deploy_army(w.kingdoms[name], w.gm, 1, w.t(own))
    with pytest.raises(RuleViolation, match=r"A city takes at most 2 armies"):
        ws.deploy_army(red, w.gm, 3, w.t("G0"))
    ws.deploy_army(red, w.gm, 3, w.t("C1"))
    ws.deploy_army(red, w.gm, 4, w.t("C1"))
    with pytest.raises(RuleViolation, match=r"A city takes at most 2 armies"):
        ws.deploy_army(red, w.gm, 5, w.t("C1"))


def test_mk_deploy_4_one_army_per_turn_in_the_new_player_order(tv8: World) -> None:
    w = tv8
    red, blue, green = (w.kingdoms[n] for n in ("Red", "Blue", "Green"))
    with pytest.raises(ServiceError, match="It is Red's turn to deploy"):
        ws.deploy_army(blue, w.gm, 1, w.t("B0"))
    ws.deploy_army(red, w.gm, 1, w.t("C0"))
    with pytest.raises(ServiceError, match="It is Blue's turn to deploy"):
        ws.deploy_army(red, w.gm, 2, w.t("C0"))
    ws.deploy_army(blue, w.gm, 1, w.t("B0"))
    with pytest.raises(ServiceError, match="Army #1 of Green is not waiting to deploy|Green"):
        ws.deploy_army(green, w.gm, 2, w.t("G0"))
    ws.deploy_army(green, w.gm, 1, w.t("G0"))
    # Blue and Green are done: Red places the rest one after another.
    for number in (2, 3, 4, 5, 6):
        assert ws.deploy_turn(w.state()) == red.pk
        ws.deploy_army(red, w.gm, number, w.t("F1" if number < 5 else "C1"))
    assert phases.blockers(w.state()) == []


def test_mk_deploy_2_new_order_with_tie_break_rerolls_stored(gm: Any, plain_summer: None,
                                                            fixed_dice: Any) -> None:
    """MK-DEPLOY-2, MK-PORDER-1: Blue and Green tie on 1 army; both roll 3, then 2 v 5."""
    w = build_tv3(gm)
    to_phase(w, ws.FEED)
    settle(w)
    fixed_dice(3, 3, 2, 5)
    event = w.advance()
    assert [w.k(n).order_position for n in ("Red", "Green", "Blue")] == [1, 2, 3]
    assert event.dice == [
        {"purpose": "player order tie-break: Blue", "values": [3, 2], "source": "server"},
        {"purpose": "player order tie-break: Green", "values": [3, 5], "source": "server"}]
    data = ws.winter_data(w.fresh())["deploy"]
    assert data["rolls"] == {str(w.kingdoms["Blue"].pk): [3, 2],
                             str(w.kingdoms["Green"].pk): [3, 5]}
    assert "New player order (MK-DEPLOY-2): Red (3), Green (1), Blue (1)." in event.summary


def test_mk_amb_41_deployed_armies_stand_upright_without_defend_or_ship(tv8: World) -> None:
    w = tv8
    red = w.kingdoms["Red"]
    Army.objects.filter(kingdom=red, number=1).update(on_side=True, defending=True)
    ws.deploy_army(red, w.gm, 1, w.t("C0"))
    army = Army.objects.get(kingdom=red, number=1)
    assert (army.on_side, army.defending, army.tile.label) == (False, False, w.t("C0"))
    assert not Ship.objects.filter(paired_army=army).exists()


def test_mk_amb_17_newest_armies_go_at_once_when_room_is_short(gm: Any, plain_summer: None,
                                                               fixed_dice: Any) -> None:
    w = build_tv3(gm, options={"deploy_surplus": "newest"})
    add_armies(w, "Green", 2, 3, 4, 5, tile="G0")
    to_phase(w, ws.FEED)
    grant(w, "Green", food=4)
    settle(w)
    fixed_dice(4, 1)
    event = w.advance()
    assert "Green has room for 4: army #5 removed (MK-AMB-17)." in event.summary
    assert w.army_numbers("Green") == [1, 2, 3, 4]


def test_mk_deploy_out_of_phase_and_nothing_left(tv8: World) -> None:
    w = tv8
    set_clock(w, "C", "buy")
    with pytest.raises(ServiceError, match="Not now"):
        ws.deploy_army(w.kingdoms["Red"], w.gm, 1, w.t("C0"))
    assert Campaign.objects.get(pk=w.campaign.pk).sub_phase == "buy"
