"""Summer C) Battle through the services: choosing (MK-BSEL, MK-BTYPE), results (MK-RESULT),
retreats, slaughter (MK-LAND-4, MK-AMB-6), board size and defended tiles (MK-BOARD, MK-DEF)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from battles.models import Army, Battle
from campaign.chronicle import undo_latest
from campaign.models import Event, Kingdom
from campaign.services import ServiceError
from campaign.systems.mighty_kingdoms import phases, summer, summer_battles
from campaign.systems.mighty_kingdoms.state import load_state
from tests.mk.test_summer_scene import Scene, campaign, dump, scene  # noqa: F401

pytestmark = pytest.mark.django_db

GM_VIEW = SimpleNamespace(is_gm=True, kingdom=None)
# When a token left play (the battle phase of the scene's month), as ``data["removed"]`` says.
REMOVED = {"year": 1, "season": "summer", "month": 1, "phase": "C", "sub_phase": ""}


def last_event(scene: Scene) -> Event:
    return Event.objects.filter(campaign=scene.campaign).order_by("-seq").first()


@pytest.fixture
def clash(scene: Scene) -> Scene:
    """Red army #2 has marched into Blue's village 0504, where Blue army #1 stands."""
    Army.objects.filter(kingdom=scene.red, number=2).update(tile=scene.tile("0504"))
    scene.at("C")
    return scene


def test_tv_mk_12_battle_selection_on_a_real_campaign(scene: Scene) -> None:
    green = Kingdom.objects.create(campaign=scene.campaign, name="Green", order_position=3)
    gold = Kingdom.objects.create(campaign=scene.campaign, name="Gold", order_position=4)
    scene.set_tile("0504", controller=gold)
    Army.objects.filter(kingdom=scene.red, number=2).update(tile=scene.tile("0504"))
    scene.army(green, 1, "0504", on_side=True)
    gold_army = scene.army(gold, 1, "0504")
    scene.at("C")
    context = summer.play_context(load_state(scene.campaign), GM_VIEW)
    (tile,) = context["summer_contested"]
    assert tile.label == "0504" and tile.controller.name == "Gold"
    choices = {c["chooser"].name: [o["opponent"].name for o in c["options"]]
               for c in tile.choices}
    assert choices == {"Red": ["Gold"], "Blue": ["Gold"], "Gold": ["Red", "Blue"]}
    assert context["summer_actor"].name == "Red"
    before = dump()
    with pytest.raises(ServiceError, match="At 0504 Red must fight Gold"):
        summer.choose_battle(scene.red, scene.player, "0504", scene.blue.pk)
    with pytest.raises(ServiceError, match="It is Red's turn"):
        summer.choose_battle(scene.blue, scene.other, "0504", gold.pk)
    assert dump() == before
    # Had Gold not been present, Red could pick Blue only (Green has nothing upright).
    gold_army.delete()
    context = summer.play_context(load_state(scene.campaign), GM_VIEW)
    red_choice = next(c for c in context["summer_contested"][0].choices
                      if c["chooser"].name == "Red")
    assert [o["opponent"].name for o in red_choice["options"]] == ["Blue"]


def test_mk_bsel_choosing_makes_a_pending_kow_land_battle(clash: Scene) -> None:
    scene = clash
    Army.objects.filter(kingdom=scene.blue, number=1).update(defending=True)
    battle = summer.choose_battle(scene.red, scene.player, "0504", scene.blue.pk)
    battle = Battle.objects.get(pk=battle.pk)
    assert (battle.kind, battle.mode, battle.status, battle.seq) == ("land", "kow", "pending", 1)
    assert (battle.chooser_id, battle.opponent_id, battle.tile.label) == (
        scene.red.pk, scene.blue.pk, "0504")
    assert battle.data["board"] == "4'x4'"
    assert battle.data["defended"] == {
        "kingdom": scene.blue.pk, "row": "village", "adjust_pieces": 0,
        "blocking_or_difficult": 1, "obstacles": 2, "objectives": 0, "objective_vp": 1}
    assert last_event(scene).summary == (
        "Red chooses to fight Blue at 0504: a land battle (Kings of War) (MK-BSEL-2, "
        "MK-BTYPE-1). Board 4'x4' (MK-BOARD-1).")
    with pytest.raises(ServiceError) as refused:
        phases.advance(scene.campaign, scene.gm)
    assert "The battle at 0504 (Red against Blue) waits for its result (MK-RESULT)." in str(
        refused.value)
    with pytest.raises(ServiceError, match="must be finished before another is chosen there"):
        summer.choose_battle(scene.blue, scene.other, "0504", scene.red.pk)


def test_mk_result_1_3_win_flips_control_and_lays_the_loser_on_its_side(clash: Scene) -> None:
    scene = clash
    battle = summer.choose_battle(scene.red, scene.player, "0504", scene.blue.pk)
    summer.enter_result(battle.pk, scene.gm, scene.campaign, result="win")
    assert scene.tile("0504").controller_id == scene.red.pk
    blue_army = scene.get_army(scene.blue, 1)
    assert (blue_army.tile.label, blue_army.on_side) == ("0604", True)
    battle = Battle.objects.get(pk=battle.pk)
    assert (battle.result_chooser, battle.result_opponent, battle.status) == (
        "win", "loss", "resolved")
    assert battle.data["retreated"] == [["Blue's army #1", "0604"]]
    assert battle.data["control"] == [scene.blue.pk, scene.red.pk]
    assert last_event(scene).summary == (
        "Battle at 0504: Red wins against Blue. 0504 now belongs to Red (MK-RESULT-3). "
        "Blue's army #1 retreats to 0604, and lies on its side (MK-RESULT-1/2). "
        "Red may move one token on to an adjacent tile it controls (MK-RESULT-3).")
    assert phases.blockers(load_state(scene.campaign)) == []


def test_mk_result_3_the_winner_may_move_one_token_on(clash: Scene) -> None:
    scene = clash
    battle = summer.choose_battle(scene.red, scene.player, "0504", scene.blue.pk)
    summer.enter_result(battle.pk, scene.gm, scene.campaign, result="win")
    key = f"army:{scene.get_army(scene.red, 2).pk}"
    battle = Battle.objects.get(pk=battle.pk)
    # 0504's neighbours of Red: the fortress 0403 only (0604 is Blue's, where Blue retreated).
    assert battle.data["winner_move"] == {"kingdom": scene.red.pk, "tokens": {
        key: {"name": "Red's army #2", "options": ["0403"]}}}
    context = summer.play_context(load_state(scene.campaign), GM_VIEW)
    (shown,) = context["summer_battles"]
    assert shown["winner_move"] == {key: {"name": "Red's army #2", "options": ["0403"]}}
    before = dump()
    with pytest.raises(ServiceError, match="Blue did not win this battle"):
        summer_battles.winner_move(scene.blue, scene.other, battle.pk, key, "0403")
    with pytest.raises(ServiceError, match="may move only to an adjacent tile Red controls and "
                                           r"it can enter: 0403 \(MK-RESULT-3\)"):
        summer_battles.winner_move(scene.red, scene.player, battle.pk, key, "0604")
    with pytest.raises(ServiceError, match="only an army or ship of the winner still there"):
        summer_battles.winner_move(scene.red, scene.player, battle.pk, "army:999999", "0403")
    assert dump() == before
    summer_battles.winner_move(scene.red, scene.player, battle.pk, key, "0403")
    red_army = scene.get_army(scene.red, 2)
    assert (red_army.tile.label, red_army.on_side, red_army.defending) == ("0403", False, False)
    assert scene.tile("0504").controller_id == scene.red.pk
    assert last_event(scene).summary == (
        "After the battle at 0504: Red's army #2 moves on to 0403 (MK-RESULT-3).")
    assert Battle.objects.get(pk=battle.pk).data["winner_move"]["done"] == {
        "token": "Red's army #2", "to": "0403"}
    moved = dump()
    with pytest.raises(ServiceError, match="already been decided"):
        summer_battles.winner_move(scene.red, scene.player, battle.pk, "", "")
    assert dump() == moved
    undo_latest(scene.campaign, scene.gm)
    assert dump() == before


def test_mk_amb_28_the_winner_may_stay_and_the_move_never_blocks_the_phase(
        clash: Scene) -> None:
    scene = clash
    battle = summer.choose_battle(scene.red, scene.player, "0504", scene.blue.pk)
    summer.enter_result(battle.pk, scene.gm, scene.campaign, result="win")
    # Optional: the phase may end without it.
    assert phases.blockers(load_state(scene.campaign)) == []
    summer_battles.winner_move(scene.red, scene.player, battle.pk, "", "")
    assert scene.get_army(scene.red, 2).tile.label == "0504"
    assert last_event(scene).summary == (
        "After the battle at 0504: Red keeps its tokens where they are (MK-RESULT-3).")
    context = summer.play_context(load_state(scene.campaign), GM_VIEW)
    assert context["summer_battles"][0]["winner_move"] == {}
    assert context["summer_battles"][0]["winner_moved"] == {"declined": True}


def test_mk_result_3_no_move_is_offered_after_a_draw(clash: Scene) -> None:
    scene = clash
    battle = summer.choose_battle(scene.red, scene.player, "0504", scene.blue.pk)
    summer.enter_result(battle.pk, scene.gm, scene.campaign, result="draw")
    assert Battle.objects.get(pk=battle.pk).data["winner_move"] is None
    with pytest.raises(ServiceError, match="Red did not win this battle"):
        summer_battles.winner_move(scene.red, scene.player, battle.pk, "", "")


def test_mk_result_5_the_loser_chooses_between_retreat_tiles(clash: Scene) -> None:
    scene = clash
    scene.set_tile("0505", controller=scene.blue, explored=True)
    battle = summer.choose_battle(scene.red, scene.player, "0504", scene.blue.pk)
    summer.enter_result(battle.pk, scene.gm, scene.campaign, result="win")
    battle = Battle.objects.get(pk=battle.pk)
    key = f"army:{scene.get_army(scene.blue, 1).pk}"
    assert battle.status == "pending"
    assert battle.data["retreats"] == {key: {
        "kingdom": scene.blue.pk, "name": "Blue's army #1", "options": ["0505", "0604"],
        "crowded": [], "on_side": True}}
    assert phases.blockers(load_state(scene.campaign)) == [
        "Blue's army #1 must retreat from 0504: Blue chooses where (MK-RESULT-5)."]
    before = dump()
    with pytest.raises(ServiceError, match="cannot retreat to 0403; it may go to 0505 or 0604"):
        summer.choose_retreats(scene.blue, scene.other, battle.pk, {key: "0403"})
    with pytest.raises(ServiceError, match="Red has no token to retreat"):
        summer.choose_retreats(scene.red, scene.player, battle.pk, {key: "0505"})
    assert dump() == before
    summer.choose_retreats(scene.blue, scene.other, battle.pk, {key: "0505"})
    blue_army = scene.get_army(scene.blue, 1)
    assert (blue_army.tile.label, blue_army.on_side) == ("0505", True)
    assert Battle.objects.get(pk=battle.pk).status == "resolved"
    assert last_event(scene).summary == ("After the battle at 0504: Blue's army #1 retreats to "
                                         "0505, and lies on its side (MK-RESULT-1/2).")


def test_mk_result_1_no_retreat_tile_destroys_the_token(clash: Scene) -> None:
    scene = clash
    scene.set_tile("0604", controller=scene.red)
    battle = summer.choose_battle(scene.red, scene.player, "0504", scene.blue.pk)
    summer.enter_result(battle.pk, scene.gm, scene.campaign, result="win")
    # The row stays, off the map, so its number is never used again (as every removal).
    gone = scene.get_army(scene.blue, 1)
    assert (gone.tile, gone.on_side, gone.data["removed"]) == (None, False, REMOVED | {
        "reason": "no retreat tile", "rule": "MK-RESULT-1"})
    assert "Blue's army #1 has nowhere to go and is destroyed" in last_event(scene).summary


def test_mk_result_2_draw_on_the_opponents_tile_sends_the_chooser_home(clash: Scene) -> None:
    scene = clash
    battle = summer.choose_battle(scene.red, scene.player, "0504", scene.blue.pk)
    summer.enter_result(battle.pk, scene.gm, scene.campaign, result="draw")
    red_army = scene.get_army(scene.red, 2)
    assert (red_army.tile.label, red_army.on_side) == ("0403", False)
    assert scene.tile("0504").controller_id == scene.blue.pk


def test_mk_result_removed_tokens_leave_the_map_with_the_result(clash: Scene) -> None:
    scene = clash
    red_army = scene.get_army(scene.red, 2)
    battle = summer.choose_battle(scene.red, scene.player, "0504", scene.blue.pk)
    before = dump()
    with pytest.raises(ServiceError, match="Red's army #1 did not fight at 0504"):
        summer.enter_result(battle.pk, scene.gm, scene.campaign, result="loss",
                            removed=[f"army:{scene.get_army(scene.red, 1).pk}"])
    with pytest.raises(ServiceError, match="Say whether the chooser won, lost or drew"):
        summer.enter_result(battle.pk, scene.gm, scene.campaign, result="")
    assert dump() == before
    summer.enter_result(battle.pk, scene.gm, scene.campaign, result="loss",
                        removed=[f"army:{red_army.pk}"])
    assert Army.objects.get(pk=red_army.pk).data["removed"] == REMOVED | {
        "reason": "lost in battle", "rule": "MK-RESULT"}
    assert Battle.objects.get(pk=battle.pk).data["removed"] == ["Red's army #2"]
    assert scene.tile("0504").controller_id == scene.blue.pk


def test_mk_land_4_slaughter_removes_one_token_and_takes_the_tile(clash: Scene) -> None:
    scene = clash
    Army.objects.filter(kingdom=scene.blue, number=1).update(on_side=True)
    second = scene.army(scene.blue, 2, "0504", on_side=True)
    battle = summer.choose_battle(scene.red, scene.player, "0504", scene.blue.pk)
    assert Battle.objects.get(pk=battle.pk).kind == "slaughter"
    with pytest.raises(ServiceError, match="Choose which of Blue's tokens on 0504 is given up"):
        summer.enter_result(battle.pk, scene.gm, scene.campaign,
                            slaughtered=f"army:{scene.get_army(scene.red, 2).pk}")
    summer.enter_result(battle.pk, scene.gm, scene.campaign, slaughtered=f"army:{second.pk}")
    second = Army.objects.get(pk=second.pk)
    assert (second.tile, second.data["removed"]) == (None, REMOVED | {
        "reason": "slaughtered", "rule": "MK-LAND-4"})
    first = scene.get_army(scene.blue, 1)
    assert (first.tile.label, first.on_side) == ("0604", True)
    assert scene.tile("0504").controller_id == scene.red.pk
    battle = Battle.objects.get(pk=battle.pk)
    assert (battle.result_chooser, battle.result_opponent) == ("win", "loss")


def test_mk_bsel_5_the_phase_ends_when_no_tile_is_contested(clash: Scene) -> None:
    scene = clash
    with pytest.raises(ServiceError, match=r"At 0504, Red or Blue may still choose a battle"):
        phases.advance(scene.campaign, scene.gm)
    battle = summer.choose_battle(scene.red, scene.player, "0504", scene.blue.pk)
    summer.enter_result(battle.pk, scene.gm, scene.campaign, result="win")
    event = phases.advance(scene.campaign, scene.gm)
    assert event.summary.startswith("Year 1, summer month 1, C) Battle is over.")


def test_mk_btype_naval_battle_may_be_called_with_ships_on_both_sides(clash: Scene) -> None:
    scene = clash
    scene.set_tile("0504", features=["coast"])
    scene.ship(scene.red, 1, "0504")
    scene.ship(scene.blue, 1, "0504")
    context = summer.play_context(load_state(scene.campaign), GM_VIEW)
    option = context["summer_battle_choices"][0]["options"][0]
    assert (option["kind"], option["naval"]) == ("land battle (Kings of War)", True)
    battle = summer.choose_battle(scene.red, scene.player, "0504", scene.blue.pk,
                                  call_naval=True)
    battle = Battle.objects.get(pk=battle.pk)
    assert battle.kind == "naval" and "board" not in battle.data


def test_mk_result_3_the_winner_may_move_a_token_lying_on_its_side(clash: Scene) -> None:
    """"1 of its armies or ships": Red army #3, on its side in 0504, may be the one to move on;
    it moves as it is (MK-AMB-28: the move does not lay it down, nor stand it up)."""
    scene = clash
    third = scene.army(scene.red, 3, "0504", on_side=True)
    battle = summer.choose_battle(scene.red, scene.player, "0504", scene.blue.pk)
    summer.enter_result(battle.pk, scene.gm, scene.campaign, result="win")
    key = f"army:{third.pk}"
    options = summer_battles.winner_move_options(load_state(scene.campaign),
                                                 Battle.objects.get(pk=battle.pk))
    assert options[key] == {"name": "Red's army #3", "options": ["0403"]}
    summer_battles.winner_move(scene.red, scene.player, battle.pk, key, "0403")
    third = scene.get_army(scene.red, 3)
    assert (third.tile.label, third.on_side) == ("0403", True)
    assert last_event(scene).summary == (
        "After the battle at 0504: Red's army #3 moves on to 0403 (MK-RESULT-3).")


def test_an_army_lost_in_battle_leaves_every_list_of_armies_in_play(clash: Scene,
                                                                    login: Any) -> None:
    from django.urls import reverse

    scene = clash
    scene.set_tile("0604", controller=scene.red)  # Blue has nowhere to retreat
    battle = summer.choose_battle(scene.red, scene.player, "0504", scene.blue.pk)
    summer.enter_result(battle.pk, scene.gm, scene.campaign, result="win")
    assert [a.kingdom for a in load_state(scene.campaign).armies].count(scene.blue.pk) == 0
    client = login(scene.gm)
    slug = scene.campaign.slug
    detail = client.get(reverse("campaign:detail", args=[slug]))
    blue_row = next(k for k in detail.context["kingdoms"] if k.pk == scene.blue.pk)
    assert blue_row.n_armies == 0
    kingdom = client.get(reverse("campaign:kingdom", args=[slug, scene.blue.pk]))
    assert list(kingdom.context["armies"]) == []
    index = client.get(reverse("mk:armies:index", args=[slug]))
    assert {k.name: k.armies_n for k in index.context["kingdoms"]} == {"Red": 2, "Blue": 0}
    roster = client.get(reverse("mk:armies:roster", args=[slug, scene.blue.pk]))
    assert ([r["army"].number for r in roster.context["rows"]],
            [r["army"].number for r in roster.context["gone"]]) == ([], [1])


@pytest.mark.parametrize("result", ["draw", "win"])
def test_mk_amb_14_retreats_and_the_winners_move_bring_no_terrain_effect(
        clash: Scene, result: str) -> None:
    """Red army #2 leaves 0504 for 0403 across a forest edge: by a retreat after a draw, or by
    the winner's move. Neither is a Move order, so Reform leaves it upright (MK-REFORM-1)."""
    scene = clash
    scene.set_tile("0504", edges={"5": ["forest"]})  # 0504's side of its edge with 0403
    battle = summer.choose_battle(scene.red, scene.player, "0504", scene.blue.pk)
    summer.enter_result(battle.pk, scene.gm, scene.campaign, result=result)
    if result == "win":
        summer_battles.winner_move(scene.red, scene.player, battle.pk,
                                   f"army:{scene.get_army(scene.red, 2).pk}", "0403")
    red2 = scene.get_army(scene.red, 2)
    assert (red2.tile.label, red2.on_side) == ("0403", False)
    phases.advance(scene.campaign, scene.gm)  # C) Battle closes
    event = phases.advance(scene.campaign, scene.gm)  # D) Reform closes
    assert scene.get_army(scene.red, 2).on_side is False
    assert "forest" not in event.summary


def test_mk_land_2_only_upright_armies_fight_and_size_the_board(clash: Scene) -> None:
    """Kings of War: Red brings 2 upright armies, Blue 1 upright and 2 on their side; the
    larger fighting side has 2 armies, so the board is 4'x4', not 5'x4' (MK-BOARD-1)."""
    scene = clash
    scene.army(scene.red, 3, "0504")
    scene.army(scene.blue, 2, "0504", on_side=True)
    scene.army(scene.blue, 3, "0504", on_side=True)
    battle = Battle.objects.get(pk=summer.choose_battle(scene.red, scene.player, "0504",
                                                        scene.blue.pk).pk)
    assert (battle.mode, battle.data["board"]) == ("kow", "4'x4'")
    assert battle.data["opponent_fighters"] == [f"army:{scene.get_army(scene.blue, 1).pk}"]
    assert len(battle.data["chooser_fighters"]) == 2


def test_mk_bsel_the_battle_list_names_its_tokens_while_another_battle_may_be_chosen(
        clash: Scene) -> None:
    """A battle under way and another tile where the next kingdom may choose one: the page
    lists both (the choice's empty-list warning once replaced the tokens' names)."""
    scene = clash
    scene.army(scene.blue, 2, "0303")
    summer.choose_battle(scene.red, scene.player, "0504", scene.blue.pk)
    context = summer.play_context(load_state(scene.campaign), GM_VIEW)
    assert context["summer_actor"].name == "Blue"
    assert [c["label"] for c in context["summer_battle_choices"]] == ["0303"]
    (battle,) = context["summer_battles"]
    assert sorted(name for _, name, _ in battle["tokens"]) == [
        "Blue's army #1", "Red's army #2"]


def test_mk_bsel_5_each_contested_item_kept_shows_a_change_at_once(clash: Scene) -> None:
    """A contested tile's list item is kept under what it is made of: a renamed or recoloured
    kingdom, a token turned on its side (MK-AMB-40), a battle chosen there and its undo each show
    on the next page, and the same forces give the same item again."""
    scene = clash

    def item() -> str:
        (tile,) = summer.play_context(load_state(scene.campaign), GM_VIEW)["summer_contested"]
        return str(tile.html)

    def expected(red: str = "Red", colour: str = "#aa0000", side: str = "",
                 lines: str | None = None) -> str:
        if lines is None:
            lines = (f'<ul class="muted small"><li>{red} may fight Blue: land battle (Kings of '
                     f"War)</li><li>Blue may fight {red}: land battle (Kings of War)</li></ul>"
                     "\n      ")
        return ('\n    <li class="card stack">\n      <h3>0504 <span class="muted">held by Blue'
                f'</span>{side}</h3>\n      <ul><li><span class="swatch" data-c="{colour}">'
                f'</span>{red}: army #2</li><li><span class="swatch" data-c="#0000aa"></span>'
                f"Blue: army #1</li></ul>\n      {lines}\n    </li>\n  ")

    assert item() == expected()
    assert item() == expected()
    Kingdom.objects.filter(pk=scene.red.pk).update(name="Red <&>")
    assert item() == expected(red="Red &lt;&amp;&gt;")
    Kingdom.objects.filter(pk=scene.red.pk).update(name="Red", colour="#010203")
    assert item() == expected(colour="#010203")
    Kingdom.objects.filter(pk=scene.red.pk).update(colour="#aa0000")
    Army.objects.filter(kingdom=scene.red, number=2).update(on_side=True)
    # MK-AMB-40: Red may no longer choose; MK-LAND-4: against a kingdom all on its side, a
    # slaughter.
    assert item() == expected(lines='<ul class="muted small"><li>Blue may fight Red: slaughter'
                                    "</li></ul>\n      ").replace(
        "Red: army #2", "Red: army #2 (on its side)")
    Army.objects.filter(kingdom=scene.red, number=2).update(on_side=False)
    summer.choose_battle(scene.red, scene.player, "0504", scene.blue.pk)
    assert item() == expected(side=' <span class="badge">battle under way</span>', lines="")
    undo_latest(scene.campaign, scene.gm)
    assert item() == expected()


def test_contested_items_kept_are_bounded(clash: Scene, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(summer_battles, "CONTESTED_KEPT", 2)
    monkeypatch.setattr(summer_battles, "_CONTESTED", {})
    for n in range(4):
        Kingdom.objects.filter(pk=clash.red.pk).update(name=f"Red {n}")
        (tile,) = summer.play_context(load_state(clash.campaign), GM_VIEW)["summer_contested"]
        assert f"</span>Red {n}: army #2</li>" in tile.html
        assert len(summer_battles._CONTESTED) == min(n + 1, 2)
