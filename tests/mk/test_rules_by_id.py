"""Rules the services carry out, each tested by its ID with exact expectations: MK-RES-9,
MK-AMB-42 and MK-AMB-14 on the summer scene (see ``test_summer_scene``), MK-TITHE-2 and
MK-DEPLOY-3 on TV-MK-3's winter world (see ``test_winter_world``)."""

from __future__ import annotations

from typing import Any

import pytest

from battles.models import Army, Battle
from campaign.models import Campaign, Event
from campaign.systems.mighty_kingdoms import phases, summer, summer_battles
from campaign.systems.mighty_kingdoms import winter_services as ws
from campaign.systems.mighty_kingdoms.models import Order, Ship
from campaign.systems.mighty_kingdoms.rules import battles as mkb
from campaign.systems.mighty_kingdoms.rules.campaign import RuleViolation
from campaign.systems.mighty_kingdoms.state import load_state
from ledger.models import LedgerEntry
from tests.mk.test_summer_scene import (  # noqa: F401
    Scene,
    army_key,
    campaign,
    fixed_dice,
    give_in_turn,
    resolve_in_turn,
    scene,
)
from tests.mk.test_winter_world import (  # noqa: F401
    World,
    build_tv3,
    deploy_all,
    grant,
    plain_summer,
    settle,
    to_phase,
)

pytestmark = pytest.mark.django_db


def latest(campaign: Campaign) -> Event:
    return Event.objects.filter(campaign=campaign).order_by("-seq").first()


# --- MK-RES-9: Regroup in Resolution, upright for that month's battle -----------------------------


def test_mk_res_9_a_token_regrouped_in_resolution_fights_that_months_battle(scene: Scene) -> None:
    """Red army #2 lies on its side in its fortress 0403, where Blue army #2 stands upright. Red
    regroups it in B); in C) Red may choose the battle there, and army #2 fights."""
    red, blue = scene.red, scene.blue
    Army.objects.filter(kingdom=red, number=2).update(on_side=True)
    scene.army(blue, 2, "0403")
    give_in_turn(scene, {
        red: [(army_key(red, 2), "regroup", None), (army_key(red, 1), "defend", None)],
        blue: [(army_key(blue, 1), "defend", None), (army_key(blue, 2), "defend", None)],
    })
    phases.advance(scene.campaign, scene.gm)
    state = load_state(scene.refresh())
    # Before the Regroup resolves, only Blue (upright there) could choose a battle at 0403.
    assert mkb.choosers_in_tile(summer_battles.forces(state)["0403"]) == (blue.pk,)
    resolve_in_turn(scene)
    red_two = scene.get_army(red, 2)
    assert (red_two.tile.label, red_two.on_side) == ("0403", False)  # MK-RES-6
    phases.advance(scene.campaign, scene.gm)  # to C) Battle
    state = load_state(scene.refresh())
    assert mkb.choosers_in_tile(summer_battles.forces(state)["0403"]) == (red.pk, blue.pk)
    assert summer_battles.battle_turn(state) == red.pk  # Red first in player order
    battle = summer.choose_battle(red, scene.player, "0403", blue.pk)
    assert (battle.kind, battle.chooser_id, battle.opponent_id) == ("land", red.pk, blue.pk)
    assert battle.data["chooser_fighters"] == [army_key(red, 2)]
    assert battle.data["opponent_fighters"] == [army_key(blue, 2)]


# --- MK-AMB-42: pushed back from a Wizard's Tower, no terrain effect at Reform -----------------


def test_mk_amb_42_a_token_pushed_back_from_a_tower_gets_no_terrain_effect(
        scene: Scene, fixed_dice: Any) -> None:
    """Red army #1 moves from 0303 across a forest edge into unexplored 0402, which has a river.
    5+5 then 2+2 make a Wizard's Tower (TV-MK-5): the army goes straight back to 0303 and stays
    upright through Reform, though the edge and the river would lay a mover on its side."""
    red, blue = scene.red, scene.blue
    scene.campaign.options = {**scene.campaign.options, "module_wizard_towers": True}
    scene.campaign.save()
    scene.set_tile("0402", explored=False, controller=None, settlement="", features=["river"])
    scene.set_tile("0303", edges={"1": ["forest"]})  # 0303's side of its edge with 0402
    give_in_turn(scene, {
        red: [(army_key(red, 1), "move", "0402"), (army_key(red, 2), "defend", None)],
        blue: [(army_key(blue, 1), "defend", None)],
    })
    phases.advance(scene.campaign, scene.gm)
    order = Order.objects.get(campaign=scene.campaign, token=army_key(red, 1))
    summer.resolve(red, scene.player, order.pk, dice=(5, 5), reroll=(2, 2))
    resolve_in_turn(scene)
    tower = scene.tile("0402")
    assert (tower.explored, tower.controller_id, tower.data.get("wizard_tower")) == (
        True, None, True)
    army = scene.get_army(red, 1)
    assert (army.tile.label, army.on_side) == ("0303", False)  # MK-WIZ-2
    outcome = scene.campaign.orders.get(pk=order.pk).outcome
    assert (outcome["moved"], outcome["pushed_back"]) == (False, True)
    phases.advance(scene.campaign, scene.gm)  # to C): nothing contested
    phases.advance(scene.campaign, scene.gm)  # to D)
    assert summer.reform_plan(load_state(scene.refresh())).slowed == []
    fixed_dice()  # nobody is tied: Red 2 armies, Blue 1
    event = phases.advance(scene.campaign, scene.gm)
    assert scene.get_army(red, 1).on_side is False
    assert "lies on its side" not in event.summary


# --- MK-AMB-14: no terrain effect after a draw retreat or the winner's move --------------------


@pytest.fixture
def march(scene: Scene) -> Scene:
    """0404 is Blue's and has a river; the edge between 0403 and 0404 shows forest (0403's side)
    and so does the edge between 0504 and 0404 (0504's side). Edges 0403-0504 are plain."""
    scene.set_tile("0404", controller=scene.blue, explored=True, features=["river"])
    scene.set_tile("0403", edges={"3": ["forest"]})
    scene.set_tile("0504", edges={"4": ["forest"]})
    return scene


def to_battle(scene: Scene, plan: dict[Any, list[tuple[str, str, str | None]]]) -> None:
    give_in_turn(scene, plan)
    phases.advance(scene.campaign, scene.gm)
    resolve_in_turn(scene)
    phases.advance(scene.campaign, scene.gm)


def test_mk_amb_14_a_retreat_after_a_draw_gets_no_terrain_effect(march: Scene,
                                                                fixed_dice: Any) -> None:
    """Blue army #1 moves from 0504 into Red's fortress 0403 (a plain edge), where Red army #2
    defends. A draw: Red holds the tile and stays; Blue retreats, upright, across the forest edge
    into the river tile 0404. Neither crossing lays it on its side at Reform."""
    scene = march
    red, blue = scene.red, scene.blue
    to_battle(scene, {
        red: [(army_key(red, 1), "defend", None), (army_key(red, 2), "defend", None)],
        blue: [(army_key(blue, 1), "move", "0403")],
    })
    battle = summer.choose_battle(red, scene.player, "0403", blue.pk)
    summer.enter_result(battle.pk, scene.gm, scene.campaign, result="draw")
    key = army_key(blue, 1)
    pending = Battle.objects.get(pk=battle.pk).data["retreats"]
    assert pending[key]["options"] == ["0404", "0504"] and pending[key]["on_side"] is False
    summer_battles.choose_retreats(blue, scene.other, battle.pk, {key: "0404"})
    assert (scene.get_army(blue, 1).tile.label, scene.get_army(blue, 1).on_side) == (
        "0404", False)
    phases.advance(scene.campaign, scene.gm)  # to D)
    plan = summer.reform_plan(load_state(scene.refresh()))
    assert plan.slowed == []
    fixed_dice()
    event = phases.advance(scene.campaign, scene.gm)
    assert scene.get_army(blue, 1).on_side is False
    assert "lies on its side" not in event.summary


def test_mk_amb_14_the_winners_move_gets_no_terrain_effect(march: Scene, fixed_dice: Any) -> None:
    """Red army #2 moves from 0403 into Blue's village 0504 (a plain edge) and wins there; its
    optional move takes it on across the forest edge into the river tile 0404, which Red holds
    by then. It stays upright at Reform: only the Move order's own crossing counts."""
    scene = march
    red, blue = scene.red, scene.blue
    scene.set_tile("0404", controller=red)
    to_battle(scene, {
        red: [(army_key(red, 2), "move", "0504"), (army_key(red, 1), "defend", None)],
        blue: [(army_key(blue, 1), "defend", None)],
    })
    battle = summer.choose_battle(red, scene.player, "0504", blue.pk)
    summer.enter_result(battle.pk, scene.gm, scene.campaign, result="win")
    key = army_key(red, 2)
    summer_battles.winner_move(red, scene.player, battle.pk, key, "0404")
    moved = scene.get_army(red, 2)
    assert (moved.tile.label, moved.on_side) == ("0404", False)
    phases.advance(scene.campaign, scene.gm)  # to D)
    assert summer.reform_plan(load_state(scene.refresh())).slowed == []
    fixed_dice()
    event = phases.advance(scene.campaign, scene.gm)
    assert scene.get_army(red, 2).on_side is False
    assert "lies on its side" not in event.summary


def test_mk_amb_14_the_move_orders_own_crossing_still_counts(march: Scene,
                                                             fixed_dice: Any) -> None:
    """The contrast: the same march with forest on the 0403-0504 edge lays the winner on its
    side at Reform (MK-REFORM-1), wherever its optional move took it."""
    scene = march
    red, blue = scene.red, scene.blue
    scene.set_tile("0404", controller=red)
    scene.set_tile("0403", edges={"2": ["forest"]})  # 0403's side of its edge with 0504
    to_battle(scene, {
        red: [(army_key(red, 2), "move", "0504"), (army_key(red, 1), "defend", None)],
        blue: [(army_key(blue, 1), "defend", None)],
    })
    battle = summer.choose_battle(red, scene.player, "0504", blue.pk)
    summer.enter_result(battle.pk, scene.gm, scene.campaign, result="win")
    summer_battles.winner_move(red, scene.player, battle.pk, army_key(red, 2), "0404")
    phases.advance(scene.campaign, scene.gm)
    fixed_dice()
    event = phases.advance(scene.campaign, scene.gm)
    assert scene.get_army(red, 2).on_side is True
    assert ("Red's army #2 crossed forest between 0403 and 0504 and lies on its side "
            "(MK-REFORM-1).") in event.summary


# --- MK-TITHE-2: a gift received may be passed on --------------------------------------------


def test_mk_tithe_2_a_gift_received_is_passed_on(gm: Any, plain_summer: None) -> None:
    """Green has no food left. Red tithes Green 1 food, which Green cannot refuse; Blue passes;
    Green then gives that food to Blue. Each step is booked, and Green ends where it began."""
    w = build_tv3(gm)
    to_phase(w, ws.TITHE)
    red, blue, green = (w.kingdoms[n] for n in ("Red", "Blue", "Green"))
    grant(w, "Green", food=-1)
    assert [w.stock(n) for n in ("Red", "Blue", "Green")] == [(4, 3), (2, 2), (2, 0)]
    ws.give_tithe(red, w.users["Red"], green.pk, 0, 1)
    ws.pass_turn(blue, w.users["Blue"], "tithe")
    ws.give_tithe(green, w.users["Green"], blue.pk, 0, 1)
    assert [w.stock(n) for n in ("Red", "Blue", "Green")] == [(4, 2), (2, 3), (2, 0)]
    tithes = list(LedgerEntry.objects.filter(rule_id="MK-TITHE-1").order_by("pk")
                  .values_list("kingdom__name", "resource", "amount", "source"))
    assert tithes == [
        ("Red", "food", -1, "tithe to Green"), ("Green", "food", 1, "tithe from Red"),
        ("Green", "food", -1, "tithe to Blue"), ("Blue", "food", 1, "tithe from Green")]
    assert latest(w.campaign).summary == "Green tithes 1 food to Blue (MK-TITHE-1)."


def test_mk_tithe_2_only_what_was_received_can_be_passed_on(gm: Any, plain_summer: None) -> None:
    """Before the gift arrives Green has no food to give (MK-TITHE-6)."""
    w = build_tv3(gm)
    to_phase(w, ws.TITHE)
    grant(w, "Green", food=-1)
    ws.pass_turn(w.kingdoms["Red"], w.users["Red"], "tithe")
    ws.pass_turn(w.kingdoms["Blue"], w.users["Blue"], "tithe")
    with pytest.raises(RuleViolation, match=r"^You have 2 gold and 0 food, and this tithe is "
                                            r"1 food: you can only give what you have now "
                                            r"\(MK-TITHE-6\)\.$"):
        ws.give_tithe(w.kingdoms["Green"], w.users["Green"], w.kingdoms["Blue"].pk, 0, 1)
    assert w.stock("Green") == (2, 0)


# --- MK-DEPLOY-3: ships stay where they docked ---------------------------------------------------


def test_mk_deploy_3_ships_start_the_summer_in_the_city_where_they_docked(
        gm: Any, plain_summer: None) -> None:
    """At Recall Red docks ship #1 in its river city C1 (army #2 leaves it). Deployment places
    armies only: every army goes to C0 and F1, and the ship, never asked about, is still at C1,
    unpaired, when the next summer starts."""
    w = build_tv3(gm)
    w.advance()  # Reform of month 6 closes: winter A) Recall
    red = w.kingdoms["Red"]
    ws.choose_recall(red, w.users["Red"], docks={1: w.t("C1")})
    ship = Ship.objects.get(kingdom=red, number=1)
    assert (ship.tile.label, ship.paired_army_id) == (w.t("C1"), None)
    to_phase(w, ws.DEPLOY)
    state = w.state()
    placed = ws.winter_data(state.campaign)["deploy"]["placed"]
    assert [a.number for a in ws.waiting_armies(state, placed, red.pk)] == [1, 2, 3]
    deploy_all(w)
    assert Ship.objects.get(pk=ship.pk).tile.label == w.t("C1")
    assert w.armies_at("Red") == {1: w.t("C0"), 2: w.t("C0"), 3: w.t("C0")}
    w.advance()  # Deploy closes: a new summer
    assert w.fresh().clock_label() == "Year 2, summer month 1, A) Orders"
    ship = Ship.objects.get(pk=ship.pk)
    assert (ship.tile.label, ship.paired_army_id, ship.on_side) == (w.t("C1"), None, False)
    assert not any("ship" in e.summary for e in Event.objects.filter(
        campaign=w.campaign, kind="winter.deploy"))
