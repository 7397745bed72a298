"""Mighty Kingdoms setup (MK-SETUP-1..5) through the services and the play page."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.urls import reverse

from battles.models import Army
from campaign.chronicle import undo_latest
from campaign.models import Campaign, Kingdom, Role
from campaign.services import ServiceError, grid_for
from campaign.systems.mighty_kingdoms import phases, setup
from campaign.systems.mighty_kingdoms.state import load_state
from tests.conftest import add_member, make_campaign, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def mk(gm: Any) -> dict[str, Any]:
    campaign = make_campaign(gm, slug="mk-setup", width=12, height=10, seed=11)
    players = {}
    for name, colour in (("Red", "#aa0000"), ("Blue", "#0000aa")):
        user = make_user(name.lower())
        membership = add_member(campaign, user, Role.PLAYER)
        kingdom = Kingdom.objects.create(campaign=campaign, name=name, colour=colour,
                                         player=membership)
        players[name] = (user, kingdom)
    return {"campaign": campaign, "gm": gm, **players}


def refresh(campaign: Campaign) -> Campaign:
    return Campaign.objects.get(pk=campaign.pk)


def test_mk_setup_new_campaign_starts_at_race_choice(mk: dict[str, Any]) -> None:
    campaign = mk["campaign"]
    assert (campaign.season, campaign.phase) == ("setup", "race")
    assert campaign.clock_label() == "Setup, A) Choose races"


def test_mk_setup_1_races_are_sealed_until_everyone_chose(mk: dict[str, Any], login: Any) -> None:
    campaign, gm = mk["campaign"], mk["gm"]
    red_user, red = mk["Red"]
    blue_user, blue = mk["Blue"]
    setup.choose_race(red, red_user, "Northern Alliance")
    page = login(blue_user).get(reverse("campaign:play", args=[campaign.slug]))
    assert b"Northern Alliance" not in page.content
    assert b"chosen, sealed" in page.content
    with pytest.raises(ServiceError, match="Waiting for a race from Blue"):
        phases.advance(campaign, gm)
    setup.choose_race(blue, blue_user, "Abyssal Dwarfs")
    event = phases.advance(campaign, gm)
    assert ("Races revealed (MK-SETUP-1): Blue: Abyssal Dwarfs, Red: Northern Alliance."
            in event.summary)
    page = login(blue_user).get(reverse("campaign:play", args=[campaign.slug]))
    assert refresh(campaign).phase == "order"
    assert b"Northern Alliance" in page.content


def play_setup(mk: dict[str, Any]) -> Campaign:
    """Run the whole setup through the services; returns the campaign at summer month 1."""
    campaign, gm = mk["campaign"], mk["gm"]
    red_user, red = mk["Red"]
    blue_user, blue = mk["Blue"]
    setup.choose_race(red, red_user, "Basileans")
    setup.choose_race(blue, blue_user, "Elves")
    phases.advance(campaign, gm)
    setup.roll_initial_order(campaign, gm, rolls={red.pk: 6, blue.pk: 2})
    phases.advance(campaign, gm)
    state = load_state(refresh(campaign))
    starts = sorted(t.label for t in state.map.tiles if t.is_start)
    setup.choose_capital(red, red_user, starts[0])
    setup.choose_capital(blue, blue_user, starts[-1])
    phases.advance(campaign, gm)
    for user, kingdom in ((red_user, red), (blue_user, blue)):
        state = load_state(refresh(campaign))
        start = state.kingdoms[kingdom.pk].start_tile
        tiles = list(setup.mk.legal_setup_tiles(state.map, start, kingdom.pk))
        setup.place_settlements(kingdom, user, city=tiles[0], fortress=tiles[1],
                                villages=tiles[2:4], markers=tiles[4:6])
    phases.advance(campaign, gm)
    for user, kingdom in ((red_user, red), (blue_user, blue)):
        kingdom.refresh_from_db()
        setup.place_first_army(kingdom, user, kingdom.capital_tile.label)
    phases.advance(campaign, gm)
    return refresh(campaign)


def test_mk_setup_2_to_5_whole_setup_opens_year_1(mk: dict[str, Any]) -> None:
    campaign = play_setup(mk)
    assert (campaign.year, campaign.season, campaign.month, campaign.phase) == (1, "summer", 1, "A")
    red = Kingdom.objects.get(pk=mk["Red"][1].pk)
    blue = Kingdom.objects.get(pk=mk["Blue"][1].pk)
    assert (red.order_position, blue.order_position) == (1, 2)
    for kingdom in (red, blue):
        tiles = kingdom.tiles.all()
        assert tiles.count() == 7
        counts = {s: tiles.filter(settlement=s).count()
                  for s in ("city", "fortress", "village", "")}
        # The capital is a city too: 2 cities, 1 fortress, 2 villages, 2 markers (MK-SETUP-4).
        assert counts == {"city": 2, "fortress": 1, "village": 2, "": 2}
        army = Army.objects.get(kingdom=kingdom)
        assert (army.number, army.points, army.tile_id) == (1, 500, kingdom.capital_tile_id)
        state = load_state(campaign)
        assert setup.mk.starting_kingdom_problems(state.map, state.kingdoms[kingdom.pk]) == ()


def test_mk_setup_3_capital_goes_in_player_order(mk: dict[str, Any]) -> None:
    campaign, gm = mk["campaign"], mk["gm"]
    red_user, red = mk["Red"]
    blue_user, blue = mk["Blue"]
    setup.choose_race(red, red_user, "A")
    setup.choose_race(blue, blue_user, "B")
    phases.advance(campaign, gm)
    setup.roll_initial_order(campaign, gm, rolls={red.pk: 6, blue.pk: 2})
    phases.advance(campaign, gm)
    state = load_state(refresh(campaign))
    start = next(t.label for t in state.map.tiles if t.is_start)
    with pytest.raises(ServiceError, match="It is Red's turn"):
        setup.choose_capital(blue, blue_user, start)
    not_start = next(t.label for t in state.map.tiles if not t.is_start)
    with pytest.raises(ServiceError, match="no white circle"):
        setup.choose_capital(red, red_user, not_start)
    assert not Kingdom.objects.filter(capital_tile__isnull=False).exists()


def test_mk_setup_2_tied_table_rolls_are_refused(mk: dict[str, Any]) -> None:
    campaign, gm = mk["campaign"], mk["gm"]
    for name in ("Red", "Blue"):
        user, kingdom = mk[name]
        setup.choose_race(kingdom, user, "X")
    phases.advance(campaign, gm)
    red, blue = mk["Red"][1], mk["Blue"][1]
    with pytest.raises(ServiceError, match="roll again"):
        setup.roll_initial_order(campaign, gm, rolls={red.pk: 4, blue.pk: 4})
    assert not Kingdom.objects.filter(order_position__isnull=False).exists()
    names = setup.roll_initial_order(campaign, gm, rng=random.Random(3))
    assert sorted(names) == ["Blue", "Red"]


def test_mk_setup_actions_out_of_phase_are_refused(mk: dict[str, Any], login: Any) -> None:
    campaign = mk["campaign"]
    red_user, red = mk["Red"]
    response = login(red_user).post(reverse("mk:setup_army", args=[campaign.slug]),
                                    {"tile": "0101"})
    assert response.status_code == 409
    assert b"Not now" in response.content
    assert Army.objects.count() == 0


def test_mk_setup_phase_change_undo_restores_everything(mk: dict[str, Any]) -> None:
    campaign, gm = mk["campaign"], mk["gm"]
    for name in ("Red", "Blue"):
        user, kingdom = mk[name]
        setup.choose_race(kingdom, user, name + " folk")
    before = refresh(campaign)
    event = phases.advance(campaign, gm)
    assert refresh(campaign).phase == "order"
    undo_latest(campaign, gm, expected_seq=event.seq)
    after = refresh(campaign)
    assert (after.season, after.phase, after.state) == (before.season, before.phase, before.state)


def test_mk_play_page_views_for_every_role(mk: dict[str, Any], login: Any, outsider: Any) -> None:
    campaign = mk["campaign"]
    url = reverse("campaign:play", args=[campaign.slug])
    assert login(None).get(url).status_code == 302
    assert login(outsider).get(url).status_code == 404
    observer = make_user("obs")
    add_member(campaign, observer, Role.OBSERVER)
    assert login(observer).get(url).status_code == 200
    assert login(mk["gm"]).get(url).status_code == 200
    response = login(mk["Red"][0]).post(reverse("campaign:advance", args=[campaign.slug]))
    assert response.status_code == 403
    assert refresh(campaign).phase == "race"


def test_mk_setup_through_the_views(mk: dict[str, Any], login: Any) -> None:
    campaign = mk["campaign"]
    red_user, red = mk["Red"]
    client = login(red_user)
    response = client.post(reverse("mk:setup_race", args=[campaign.slug]),
                           {"race": "Kingdoms of Men"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert b"Kingdoms of Men" in response.content
    assert Kingdom.objects.get(pk=red.pk).data["race"] == "Kingdoms of Men"
    response = client.post(reverse("mk:setup_race", args=[campaign.slug]), {"race": "  "})
    assert response.status_code == 409
    gm_client = login(mk["gm"])
    response = gm_client.post(reverse("campaign:advance", args=[campaign.slug]))
    assert response.status_code == 409
    assert b"Waiting for a race from Blue" in response.content


def test_mk_grid_neighbours_match_state_edges(mk: dict[str, Any]) -> None:
    campaign = mk["campaign"]
    state = load_state(campaign)
    grid = grid_for(campaign.map)
    tile = campaign.map.tiles.get(label="0505")
    expected = {grid.label(q, r) for q, r in grid.neighbours(tile.q, tile.r)}
    assert set(state.map.tile("0505").neighbours) == expected
    assert len(expected) == 6


def _at_order_step(mk: dict[str, Any]) -> Campaign:
    for name in ("Red", "Blue"):
        user, kingdom = mk[name]
        setup.choose_race(kingdom, user, f"{name} folk")
    phases.advance(mk["campaign"], mk["gm"])
    return refresh(mk["campaign"])


def test_mk_setup_2_gm_enters_the_order_the_table_settled(mk: dict[str, Any],
                                                          login: Any) -> None:
    """MK-SETUP-2: instead of dice, the GM types in the order (first player first)."""
    campaign = _at_order_step(mk)
    red, blue = mk["Red"][1], mk["Blue"][1]
    gm = login(mk["gm"])
    url = reverse("mk:setup_order", args=[campaign.slug])
    page = gm.get(reverse("campaign:play", args=[campaign.slug])).content.decode()
    assert 'name="source" value="entered"' in page
    assert page.count('<select name="order">') == 2
    before = {k.pk: k.order_position for k in Kingdom.objects.all()}
    response = gm.post(url, {"source": "entered", "order": [str(red.pk), str(red.pk)]})
    assert response.status_code == 409
    assert b"Red is listed twice" in response.content
    response = gm.post(url, {"source": "entered", "order": [str(blue.pk)]})
    assert response.status_code == 409
    assert b"Give Red a place in the player order too (MK-SETUP-2)." in response.content
    response = gm.post(url, {"source": "entered", "order": ["x", str(red.pk)]})
    assert response.status_code == 400
    assert b"Choose a kingdom for each place" in response.content
    response = gm.post(url, {"source": "entered", "order": [str(blue.pk), "99999"]})
    assert response.status_code == 409
    assert b"99999 is not a kingdom of this campaign" in response.content
    assert {k.pk: k.order_position for k in Kingdom.objects.all()} == before
    player = login(mk["Red"][0]).post(url, {"source": "entered",
                                             "order": [str(red.pk), str(blue.pk)]})
    assert player.status_code == 403
    response = gm.post(url, {"source": "entered", "order": [str(blue.pk), str(red.pk)]})
    assert response.status_code == 302
    assert {k.name: k.order_position for k in Kingdom.objects.all()} == {"Blue": 1, "Red": 2}
    event = refresh(campaign).events.order_by("-seq").first()
    assert (event.kind, event.summary, event.dice) == (
        "setup.order", "Player order entered (MK-SETUP-2): Blue, Red.", [])
    undo_latest(campaign, mk["gm"], expected_seq=event.seq)
    assert {k.pk: k.order_position for k in Kingdom.objects.all()} == before
    assert phases.blockers(load_state(refresh(campaign))) == [
        "Roll for the player order (MK-SETUP-2)."]


def test_mk_setup_1_a_sealed_race_is_not_in_the_public_chronicle(mk: dict[str, Any],
                                                                 login: Any) -> None:
    """MK-SETUP-1: the public event says a race was chosen; the race itself stays on the kingdom,
    which only its player and the GMs read until the reveal."""
    campaign = mk["campaign"]
    red_user, red = mk["Red"]
    blue_user, _blue = mk["Blue"]
    setup.choose_race(red, red_user, "Northern Alliance")
    setup.choose_race(red, red_user, "Ogres")
    events = list(refresh(campaign).events.filter(kind="setup.race").order_by("seq"))
    assert [(e.summary, e.data, e.visibility) for e in events] == [
        ("Red chose a race in secret.", {}, "public"),
        ("Red changed its race in secret.", {}, "public")]
    chronicle = reverse("campaign:chronicle", args=[campaign.slug])
    for client in (login(blue_user), login(red_user)):
        text = client.get(chronicle).content.decode()
        assert "Red chose a race in secret." in text
        assert "Northern Alliance" not in text and "Ogres" not in text
    play = reverse("campaign:play", args=[campaign.slug])
    assert b"Ogres" not in login(blue_user).get(play).content
    assert b"Ogres" in login(red_user).get(play).content
    assert b"Ogres" in login(mk["gm"]).get(play).content
