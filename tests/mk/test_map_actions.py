"""Mighty Kingdoms on the map: the tile panel's actions (the ``tile_actions`` hook in
``map_actions``), posted through the play page's own endpoints, and the drop-downs of tiles
that read with terrain, settlement and who is there."""

from __future__ import annotations

import html
import re
from typing import Any, Callable

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from battles.models import Army
from campaign.access import Access
from campaign.models import Campaign, Event, Kingdom, Role, Tile
from campaign.systems.mighty_kingdoms import map_actions, phases, setup
from campaign.systems.mighty_kingdoms.models import Order
from campaign.systems.mighty_kingdoms.rules import campaign as mk
from campaign.systems.mighty_kingdoms.state import load_state
from tests.conftest import add_member, make_campaign, make_user
from tests.mk.test_summer_scene import (  # noqa: F401
    Scene,
    army_key,
    campaign,
    scene,
)
from tests.mk.test_winter_world import fixed_dice, plain_summer, tv3  # noqa: F401

pytestmark = pytest.mark.django_db


def text(response: Any) -> str:
    body = re.sub(r"<[^>]+>", " ", response.content.decode())
    return " ".join(html.unescape(body).split())


def panel(client: Client, campaign: Campaign, label: str) -> Any:
    return client.get(reverse("campaign:tile", args=[campaign.slug, label]),
                      headers={"HX-Request": "true"})


def act(client: Client, campaign: Campaign, label: str, key: str, htmx: bool = True) -> Any:
    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(reverse("campaign:tile_act", args=[campaign.slug, label]),
                       {"action": key}, headers=headers)


def access_of(campaign: Campaign, kingdom: Kingdom | None, role: str) -> Access:
    return Access(campaign=Campaign.objects.get(pk=campaign.pk), membership=None, role=role,
                  kingdom=kingdom)


def keys(actions: list[Any]) -> dict[str, tuple[bool, str]]:
    return {a.key: (a.legal, a.reason) for a in actions}


# -- setup ------------------------------------------------------------------------------------


@pytest.fixture
def setup_mk(gm: Any) -> dict[str, Any]:
    """Two kingdoms at setup step C, capitals (Red first in the player order)."""
    campaign = make_campaign(gm, slug="mk-map", width=12, height=10, seed=11)
    users = {}
    for name, colour in (("Red", "#aa0000"), ("Blue", "#0000aa")):
        user = make_user(name.lower())
        membership = add_member(campaign, user, Role.PLAYER)
        kingdom = Kingdom.objects.create(campaign=campaign, name=name, colour=colour,
                                         player=membership)
        users[name] = (user, kingdom)
        setup.choose_race(kingdom, user, "Basileans")
    phases.advance(campaign, gm)
    setup.roll_initial_order(campaign, gm, rolls={users["Red"][1].pk: 6,
                                                  users["Blue"][1].pk: 2})
    phases.advance(campaign, gm)
    campaign = Campaign.objects.get(pk=campaign.pk)
    starts = sorted(t.label for t in load_state(campaign).map.tiles if t.is_start)
    not_start = sorted(t.label for t in load_state(campaign).map.tiles if not t.is_start)[0]
    return {"campaign": campaign, "gm": gm, "starts": starts, "plain": not_start, **users}


def test_mk_setup_3_capital_on_the_map_for_the_player_whose_turn_it_is(
        setup_mk: dict[str, Any], login: Callable[..., Client]) -> None:
    campaign = setup_mk["campaign"]
    red_user, red = setup_mk["Red"]
    start, plain = setup_mk["starts"][0], setup_mk["plain"]
    tile = Tile.objects.get(map__campaign=campaign, label=start)
    found = map_actions.tile_actions(access_of(campaign, red, Role.PLAYER), tile)
    assert [(a.key, a.label, a.legal, a.url, dict(a.fields)) for a in found] == [
        ("capital", "Found Red's capital here", True,
         reverse("mk:setup_capital", args=[campaign.slug]),
         {"kingdom": str(red.pk), "tile": start})]
    other = Tile.objects.get(map__campaign=campaign, label=plain)
    assert keys(map_actions.tile_actions(access_of(campaign, red, Role.PLAYER), other)) == {
        "capital": (False, f"{plain} has no white circle: a capital starts on a start tile "
                           "(MK-SETUP-3).")}
    # The panel offers it as a button; the drop-down of the play page reads with its terrain.
    client = login(red_user)
    page = panel(client, campaign, start)
    assert 'data-action="capital"' in page.content.decode()
    assert "Found Red's capital here" in text(page)
    play = client.get(reverse("campaign:play", args=[campaign.slug])).content.decode()
    terrain = campaign.system.terrain(tile.terrain).label
    assert f'<option value="{start}">{start} · {terrain}</option>' in play


def test_mk_setup_3_not_your_turn_and_observers(setup_mk: dict[str, Any]) -> None:
    campaign = setup_mk["campaign"]
    _, blue = setup_mk["Blue"]
    tile = Tile.objects.get(map__campaign=campaign, label=setup_mk["starts"][0])
    assert keys(map_actions.tile_actions(access_of(campaign, blue, Role.PLAYER), tile)) == {
        "capital": (False, "It is Red's turn: setup goes in player order (MK-SETUP-3..5).")}
    assert map_actions.tile_actions(access_of(campaign, None, Role.OBSERVER), tile) == []
    # A GM acts for the kingdom whose turn it is.
    gm_actions = map_actions.tile_actions(access_of(campaign, None, Role.GM), tile)
    red = setup_mk["Red"][1]
    assert [(a.label, a.legal, a.fields["kingdom"]) for a in gm_actions] == [
        ("Found Red's capital here", True, str(red.pk))]


def test_mk_setup_3_capital_founded_from_the_panel(setup_mk: dict[str, Any],
                                                   login: Callable[..., Client]) -> None:
    campaign = setup_mk["campaign"]
    red_user, red = setup_mk["Red"]
    start = setup_mk["starts"][0]
    response = act(login(red_user), campaign, start, "capital")
    assert response.status_code == 200
    assert response["HX-Trigger"] == "map-changed, campaign-changed"
    said = text(response)
    assert f"Red founds its capital city at {start} (MK-SETUP-3)." in said
    red.refresh_from_db()
    assert red.capital_tile.label == start
    # Done: the panel offers nothing more here, and says the tile is Red's capital now.
    assert 'data-action="capital"' not in response.content.decode()
    assert "Capital city of Red" in said


def test_mk_setup_3_refusal_from_the_panel_is_the_play_pages(
        setup_mk: dict[str, Any], login: Callable[..., Client]) -> None:
    campaign = setup_mk["campaign"]
    blue_user, blue = setup_mk["Blue"]
    start = setup_mk["starts"][0]
    client = login(blue_user)
    before = Event.objects.filter(campaign=campaign).count()
    from_map = act(client, campaign, start, "capital")
    from_play = client.post(reverse("mk:setup_capital", args=[campaign.slug]),
                            {"tile": start}, headers={"HX-Request": "true"})
    assert from_map.status_code == from_play.status_code == 409
    assert text(from_play) == "It is Red's turn: setup goes in player order (MK-SETUP-3..5)."
    assert text(from_play) in text(from_map)
    assert Event.objects.filter(campaign=campaign).count() == before
    blue.refresh_from_db()
    assert blue.capital_tile is None
    # Without htmx the panel's form answers as the play page does.
    plain = act(client, campaign, start, "capital", htmx=False)
    assert plain.status_code == 409
    assert "It is Red's turn: setup goes in player order (MK-SETUP-3..5)." in text(plain)


def test_mk_setup_an_action_no_longer_offered_is_refused(setup_mk: dict[str, Any],
                                                        login: Callable[..., Client]) -> None:
    campaign = setup_mk["campaign"]
    red_user, _ = setup_mk["Red"]
    response = act(login(red_user), campaign, setup_mk["starts"][0], "army")
    assert response.status_code == 409
    assert (f"That cannot be done on {setup_mk['starts'][0]} now" in text(response))


def test_mk_setup_4_and_5_settlements_and_first_army_from_the_map(
        setup_mk: dict[str, Any], login: Callable[..., Client]) -> None:
    campaign, gm = setup_mk["campaign"], setup_mk["gm"]
    red_user, red = setup_mk["Red"]
    blue_user, blue = setup_mk["Blue"]
    setup.choose_capital(red, red_user, setup_mk["starts"][0])
    setup.choose_capital(blue, blue_user, setup_mk["starts"][-1])
    phases.advance(campaign, gm)
    campaign.refresh_from_db()
    state = load_state(campaign)
    usable = list(mk.legal_setup_tiles(state.map, setup_mk["starts"][0], red.pk))
    assert len(usable) == 6
    client = login(red_user)
    page = panel(client, campaign, usable[2])
    body = text(page)
    assert "Fortress here; city on" in body
    response = act(client, campaign, usable[2], "settle:fortress")
    assert response.status_code == 200, text(response)
    assert f"Red settles the land around {setup_mk['starts'][0]} (MK-SETUP-4)." in text(response)
    placed = dict(Tile.objects.filter(map__campaign=campaign, label__in=usable)
                  .values_list("label", "settlement"))
    assert placed[usable[2]] == "fortress"
    assert sorted(placed.values()) == ["", "", "city", "fortress", "village", "village"]
    setup.place_settlements(blue, blue_user, **_default_plan(campaign, blue,
                                                              setup_mk["starts"][-1]))
    phases.advance(campaign, gm)
    campaign.refresh_from_db()
    # Army #1: on a settlement of the kingdom, not elsewhere (MK-SETUP-5).
    bare = next(label for label, s in placed.items() if not s)
    assert keys(map_actions.tile_actions(access_of(campaign, red, Role.PLAYER),
                                         Tile.objects.get(map__campaign=campaign,
                                                          label=bare))) == {
        "army": (False, f"{bare} has no settlement: the starting army goes on one of your "
                        "settlements (MK-SETUP-5).")}
    response = act(client, campaign, usable[2], "army")
    assert response.status_code == 200
    assert f"Red places army #1 at {usable[2]} (MK-SETUP-5)." in text(response)
    assert Army.objects.get(kingdom=red).tile.label == usable[2]
    # The play page's list for the next player reads what is where.
    play = login(blue_user).get(reverse("campaign:play", args=[campaign.slug])).content.decode()
    start = setup_mk["starts"][-1]
    terrain = campaign.system.terrain(
        Tile.objects.get(map__campaign=campaign, label=start).terrain).label
    assert f'<option value="{start}">{start} · {terrain} · capital of Blue</option>' in play


def _default_plan(campaign: Campaign, kingdom: Kingdom, start: str) -> dict[str, Any]:
    state = load_state(Campaign.objects.get(pk=campaign.pk))
    tiles = list(mk.legal_setup_tiles(state.map, start, kingdom.pk))
    return {"city": tiles[0], "fortress": tiles[1], "villages": tiles[2:4],
            "markers": tiles[4:6]}


# -- summer: orders ---------------------------------------------------------------------------


def test_mk_ord_5_choosing_an_army_lights_its_legal_destinations(scene: Scene) -> None:
    scene.set_tile("0304", terrain="marsh")
    red = scene.red
    tile = scene.tile("0303")
    found = map_actions.tile_actions(access_of(scene.campaign, red, Role.PLAYER), tile)
    choose = next(a for a in found if a.key == f"choose:{army_key(red, 1)}")
    state = load_state(scene.refresh())
    mover = next(m for m in state.movers_of(red.pk) if m.key == army_key(red, 1))
    expected = mk.legal_move_destinations(mover, state.map, state.options)
    assert choose.highlight == expected
    assert "0304" not in choose.highlight
    assert choose.url == "" and choose.subject == "army #1"
    # Defend needs no destination: offered on the army's own tile.
    assert f"order:{army_key(red, 1)}:defend" in keys(found)


def test_mk_ord_move_here_from_the_panel(scene: Scene, login: Callable[..., Client]) -> None:
    red = scene.red
    client = login(scene.player)
    page = panel(client, scene.campaign, "0203")
    assert "Move army #1 here from 0303" in text(page)
    response = act(client, scene.campaign, "0203", f"move:{army_key(red, 1)}")
    assert response.status_code == 200, text(response)
    order = Order.objects.get(token=army_key(red, 1))
    assert (order.kind, order.target.label) == ("move", "0203")
    assert "Red orders army #1 on 0303: Move to 0203." in text(response)


def test_mk_ord_6_marsh_is_refused_in_the_play_pages_words(scene: Scene,
                                                          login: Callable[..., Client]) -> None:
    scene.set_tile("0304", terrain="marsh")
    red = scene.red
    found = map_actions.tile_actions(access_of(scene.campaign, red, Role.PLAYER),
                                     scene.tile("0304"))
    reason = "0304 is a marsh: armies cannot enter marsh tiles (MK-ORD-6)."
    assert keys(found)[f"move:{army_key(red, 1)}"] == (False, reason)
    client = login(scene.player)
    from_play = client.post(scene.mk_url("summer_order"),
                            {"token": army_key(red, 1), "kind": "move", "target": "0304"},
                            headers={"HX-Request": "true"})
    from_map = act(client, scene.campaign, "0304", f"move:{army_key(red, 1)}")
    assert from_play.status_code == from_map.status_code == 409
    assert text(from_play) == reason
    assert reason in text(from_map)
    assert not Order.objects.exists()


def test_mk_ord_1_out_of_turn_a_player_sees_why(scene: Scene) -> None:
    blue = scene.blue
    found = map_actions.tile_actions(access_of(scene.campaign, blue, Role.PLAYER),
                                     scene.tile("0503"))
    assert keys(found)[f"move:{army_key(blue, 1)}"] == (
        False, "It is Red's turn: this goes round in player order (MK-ORD-1).")
    assert map_actions.tile_actions(access_of(scene.campaign, None, Role.OBSERVER),
                                    scene.tile("0303")) == []


def test_mk_ord_move_list_reads_terrain_settlement_and_who_is_there(
        scene: Scene, login: Callable[..., Client]) -> None:
    page = login(scene.player).get(scene.play_url()).content.decode()
    options = dict(re.findall(r'<option value="(\d{4})">([^<]+)</option>', page))
    assert options["0403"] == "0403 · Plain · fortress · Red army #2"
    assert options["0302"] == "0302 · Plain · village"


def test_mk_tile_panel_queries_do_not_grow_in_summer(scene: Scene,
                                                      login: Callable[..., Client]) -> None:
    client = login(scene.player)

    def count() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert panel(client, scene.campaign, "0303").status_code == 200
        return len(captured)

    small = count()
    for number in range(3, 12):
        scene.army(scene.red, number, "0402")
        scene.army(scene.blue, number, "0604")
    assert count() == small


# -- summer: battles --------------------------------------------------------------------------


@pytest.fixture
def panel_clash(scene: Scene) -> Scene:
    """Red army #2 has marched into Blue's village 0504, where Blue army #1 stands."""
    Army.objects.filter(kingdom=scene.red, number=2).update(tile=scene.tile("0504"))
    scene.at("C")
    return scene


def test_mk_bsel_fight_here_from_the_panel(panel_clash: Scene,
                                           login: Callable[..., Client]) -> None:
    scene = panel_clash
    red, blue = scene.red, scene.blue
    found = map_actions.tile_actions(access_of(scene.campaign, red, Role.PLAYER),
                                     scene.tile("0504"))
    fight = next(a for a in found if a.key.startswith(f"fight:{blue.pk}"))
    assert fight.url == scene.mk_url("summer_battle")
    assert dict(fight.fields) == {"kingdom": str(red.pk), "tile": "0504",
                                  "opponent": str(blue.pk)}
    # Blue waits for Red, the first chooser (MK-BSEL-1): nothing to post for Blue yet.
    assert [a for a in map_actions.tile_actions(access_of(scene.campaign, blue, Role.PLAYER),
                                                scene.tile("0504")) if a.posts] == []
    response = act(login(scene.player), scene.campaign, "0504", fight.key)
    assert response.status_code == 200, text(response)
    assert "Red chooses to fight Blue at 0504" in text(response)


def test_mk_result_5_retreat_here_from_the_panel(panel_clash: Scene,
                                                 login: Callable[..., Client]) -> None:
    from campaign.systems.mighty_kingdoms import summer

    scene = panel_clash
    scene.set_tile("0505", controller=scene.blue, explored=True)
    battle = summer.choose_battle(scene.red, scene.player, "0504", scene.blue.pk)
    summer.enter_result(battle.pk, scene.gm, scene.campaign, result="win")
    key = f"army:{scene.get_army(scene.blue, 1).pk}"
    blue = access_of(scene.campaign, scene.blue, Role.PLAYER)
    for label in ("0505", "0604"):
        found = map_actions.tile_actions(blue, scene.tile(label))
        assert [(a.key, a.label, dict(a.fields)) for a in found] == [(
            f"retreat:{battle.pk}:{key}",
            "Retreat Blue's army #1 here from 0504, lying on its side",
            {"kingdom": str(scene.blue.pk), f"retreat_{key}": label})]
    # Not a retreat tile, and not Red's to choose.
    assert map_actions.tile_actions(blue, scene.tile("0403")) == []
    assert map_actions.tile_actions(access_of(scene.campaign, scene.red, Role.PLAYER),
                                    scene.tile("0505")) == []
    client = login(scene.other)
    play = client.get(scene.play_url()).content.decode()
    assert '<option value="0505">0505 · Plain</option>' in play
    response = act(client, scene.campaign, "0505", f"retreat:{battle.pk}:{key}")
    assert response.status_code == 200, text(response)
    assert ("After the battle at 0504: Blue's army #1 retreats to 0505, and lies on its side "
            "(MK-RESULT-1/2).") in text(response)
    assert scene.get_army(scene.blue, 1).tile.label == "0505"


# -- winter: build and recruit ----------------------------------------------------------------


def test_mk_buy_2_buy_here_from_the_panel(tv3: Any) -> None:
    from campaign.systems.mighty_kingdoms import winter
    from campaign.systems.mighty_kingdoms import winter_services as ws
    from campaign.systems.mighty_kingdoms.models import Purchase
    from tests.mk.test_winter_world import to_phase

    to_phase(tv3, ws.BUY)
    campaign = tv3.fresh()
    red = tv3.kingdoms["Red"]
    offered = winter.play_context(load_state(campaign), access_of(campaign, red, Role.PLAYER))
    option = next(o for o in offered["winter"]["options"]
                  if o["affordable"] and not o["option"].needs_disband)
    label = option["p"].tile
    tile = Tile.objects.get(map__campaign=campaign, label=label)
    found = map_actions.tile_actions(access_of(campaign, red, Role.PLAYER), tile)
    buy = next(a for a in found if a.fields.get("kind") == option["p"].kind
               and a.fields.get("to", "") == option["p"].to_state)
    assert buy.label.startswith(f"Buy here: {option['text']} · {option['cost']}")
    assert buy.url == reverse("mk:winter_buy", args=[campaign.slug])
    # Not Blue's turn: Blue is offered nothing to buy (MK-BUY-1).
    assert map_actions.tile_actions(access_of(campaign, tv3.kingdoms["Blue"], Role.PLAYER),
                                    tile) == []
    response = tv3.client("Red").post(reverse("campaign:tile_act", args=[campaign.slug, label]),
                                      {"action": buy.key}, headers={"HX-Request": "true"})
    assert response.status_code == 200, text(response)
    assert Purchase.objects.filter(kingdom=red, tile_label=label).count() == 1


def test_mk_ord_without_javascript_the_panel_form_comes_back_to_the_map(
        scene: Scene, login: Callable[..., Client]) -> None:
    client = login(scene.player)
    response = act(client, scene.campaign, "0203", f"move:{army_key(scene.red, 1)}",
                   htmx=False)
    assert response.status_code == 302
    assert response["Location"] == reverse("campaign:tile", args=[scene.campaign.slug, "0203"])
    page = client.get(response["Location"])
    assert "Red orders army #1 on 0303: Move to 0203." in text(page)
    assert Order.objects.get(token=army_key(scene.red, 1)).target.label == "0203"
