"""See what happened (issue 17): every Mighty Kingdoms action ends with a plain statement of what
it did, forms of steps already done are gone, and a player may take back their own latest
action while its step is open (``campaign.chronicle.take_back`` through the ``step_open`` shell
hook), refused with the reason otherwise."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from battles.models import Army
from campaign.chronicle import TakeBackRefused, take_back
from campaign.models import Campaign, Event, Kingdom
from campaign.systems.mighty_kingdoms import phases, setup
from campaign.systems.mighty_kingdoms import winter_services as ws
from campaign.systems.mighty_kingdoms.models import Purchase
from campaign.systems.mighty_kingdoms.state import load_state
from tests.mk.test_setup import mk  # noqa: F401 (fixture)
from tests.mk.test_winter_world import build_tv3, plain_summer, to_phase  # noqa: F401
from tests.undo_watch import full_dump

pytestmark = pytest.mark.django_db


def refresh(campaign: Campaign) -> Campaign:
    return Campaign.objects.get(pk=campaign.pk)


def text(response: Any) -> str:
    """The page's words, tags dropped and spaces folded."""
    body = re.sub(r"<[^>]+>", " ", response.content.decode())
    return " ".join(body.replace("&#x27;", "'").replace("&quot;", '"').split())


def play_url(campaign: Campaign) -> str:
    return reverse("campaign:play", args=[campaign.slug])


def to_settle(mk: dict[str, Any]) -> Campaign:
    """Races, order (Red first) and both capitals: the campaign at setup step D."""
    campaign, gm = mk["campaign"], mk["gm"]
    red_user, red = mk["Red"]
    blue_user, blue = mk["Blue"]
    setup.choose_race(red, red_user, "Basileans")
    setup.choose_race(blue, blue_user, "Elves")
    phases.advance(campaign, gm)
    setup.roll_initial_order(campaign, gm, rolls={red.pk: 6, blue.pk: 2})
    phases.advance(campaign, gm)
    starts = sorted(t.label for t in load_state(refresh(campaign)).map.tiles if t.is_start)
    setup.choose_capital(red, red_user, starts[0])
    setup.choose_capital(blue, blue_user, starts[-1])
    phases.advance(campaign, gm)
    return refresh(campaign)


def settle_form(campaign: Campaign, kingdom: Kingdom) -> dict[str, Any]:
    state = load_state(campaign)
    start = state.kingdoms[kingdom.pk].start_tile
    tiles = list(setup.mk.legal_setup_tiles(state.map, start, kingdom.pk))[:6]
    kinds = ["city", "fortress", "village", "village", "marker", "marker"]
    return {"tiles": tiles, **{f"place_{t}": k for t, k in zip(tiles, kinds)}}


# -- set-up ----------------------------------------------------------------------------------


def test_mk_setup_4_settlements_placed_say_where_and_the_form_goes(mk: dict[str, Any],
                                                                   login: Any) -> None:
    campaign = to_settle(mk)
    red_user, red = mk["Red"]
    client = login(red_user)
    form = settle_form(campaign, red)
    tiles = form["tiles"]
    response = client.post(reverse("mk:setup_settle", args=[campaign.slug]), form,
                           HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    words = text(response)
    assert (f"Placed Red's settlements: a city at {tiles[0]}, a fortress at {tiles[1]}, "
            f"villages at {' and '.join(sorted(tiles[2:4]))}, control markers at "
            f"{' and '.join(sorted(tiles[4:6]))}.") in words
    # No form for a step done, no warnings about the kingdom's own tiles.
    assert "already claimed" not in words
    assert "Place them" not in words
    assert "Your first settlements are placed" in words
    assert "Take it back" in words
    # The same after a reload (the live poll, or the player coming back).
    page = text(client.get(play_url(campaign)))
    assert f"Placed Red's settlements: a city at {tiles[0]}" in page
    assert "Place them" not in page


def test_mk_setup_3_capital_form_is_for_the_kingdom_whose_turn_it_is(mk: dict[str, Any],
                                                                     login: Any) -> None:
    campaign, gm = mk["campaign"], mk["gm"]
    red_user, red = mk["Red"]
    blue_user, blue = mk["Blue"]
    setup.choose_race(red, red_user, "A")
    setup.choose_race(blue, blue_user, "B")
    phases.advance(campaign, gm)
    setup.roll_initial_order(campaign, gm, rolls={red.pk: 6, blue.pk: 2})
    phases.advance(campaign, gm)
    blue_page = text(login(blue_user).get(play_url(campaign)))
    assert "Found the capital" not in blue_page
    assert "Your turn comes in player order; Red goes now." in blue_page
    start = sorted(t.label for t in load_state(refresh(campaign)).map.tiles if t.is_start)[0]
    client = login(red_user)
    response = client.post(reverse("mk:setup_capital", args=[campaign.slug]), {"tile": start})
    assert response.status_code == 302
    page = text(client.get(play_url(campaign)))
    assert f"Founded Red's capital at {start}." in page
    assert "Found the capital" not in page
    assert "Your capital is founded" in page


def test_mk_setup_5_army_placed_says_where(mk: dict[str, Any], login: Any) -> None:
    campaign = to_settle(mk)
    for name in ("Red", "Blue"):
        user, kingdom = mk[name]
        form = settle_form(campaign, kingdom)
        setup.place_settlements(kingdom, user, city=form["tiles"][0],
                                fortress=form["tiles"][1], villages=form["tiles"][2:4],
                                markers=form["tiles"][4:6])
    phases.advance(campaign, mk["gm"])
    red_user, red = mk["Red"]
    red.refresh_from_db()
    client = login(red_user)
    response = client.post(reverse("mk:setup_army", args=[refresh(campaign).slug]),
                           {"tile": red.capital_tile.label}, HTTP_HX_REQUEST="true")
    words = text(response)
    assert f"Placed Red's army #1 at {red.capital_tile.label}." in words
    assert "Place the army" not in words
    assert "Your first army is placed" in words


def test_mk_setup_1_a_gm_seals_a_named_kingdoms_choice(mk: dict[str, Any], login: Any) -> None:
    campaign = mk["campaign"]
    red = mk["Red"][1]
    client = login(mk["gm"])
    page = text(client.get(play_url(campaign)))
    assert "Seal my choice" not in page
    assert "Seal Red's choice" in page and "Seal Blue's choice" in page
    response = client.post(reverse("mk:setup_race", args=[campaign.slug]),
                           {"kingdom": str(red.pk), "race": "Dwarfs"}, HTTP_HX_REQUEST="true")
    words = text(response)
    assert "Red's race is sealed: Dwarfs." in words
    assert "Change Red's choice" in words


def test_mk_setup_1_a_player_is_told_their_race_is_sealed(mk: dict[str, Any],
                                                          login: Any) -> None:
    campaign = mk["campaign"]
    client = login(mk["Red"][0])
    response = client.post(reverse("mk:setup_race", args=[campaign.slug]), {"race": "Elves"},
                           HTTP_HX_REQUEST="true")
    words = text(response)
    assert "Your race is sealed: Elves. Nobody else sees it until everyone has chosen" in words
    assert "Change my choice" in words


def test_mk_setup_1_too_few_kingdoms_links_to_founding_one(gm: Any, login: Any) -> None:
    from tests.conftest import make_campaign

    campaign = make_campaign(gm, slug="mk-empty", width=8, height=6, seed=3)
    page = login(gm).get(play_url(campaign)).content.decode()
    found = reverse("campaign:kingdom_create", args=[campaign.slug])
    assert f'<a href="{found}">Found a kingdom</a>' in page
    assert reverse("campaign:members", args=[campaign.slug]) in page


# -- taking back ------------------------------------------------------------------------------


def test_mk_take_back_my_own_latest_action_restores_everything(mk: dict[str, Any],
                                                               login: Any) -> None:
    campaign = to_settle(mk)
    red_user, red = mk["Red"]
    client = login(red_user)
    before = full_dump()
    client.post(reverse("mk:setup_settle", args=[campaign.slug]), settle_form(campaign, red))
    event = Event.objects.filter(campaign=campaign).order_by("-seq").first()
    assert (event.kind, event.actor_id) == ("setup.settle", red_user.pk)
    response = client.post(reverse("campaign:take_back", args=[campaign.slug]),
                           {"seq": str(event.seq)}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    words = text(response)
    red.refresh_from_db()
    assert f"Taken back: Red settles the land around {red.capital_tile.label}" in words
    assert "Take it back" not in words
    assert "Place them" in words  # the step is Red's again
    after = full_dump()
    for label in before:
        if label == "campaign.Event":
            continue
        assert after[label] == before[label], label
    undone = Event.objects.get(pk=event.pk)
    assert undone.undone_by_id == red_user.pk
    assert Event.objects.get(undo_of=undone).actor_id == red_user.pk


def test_mk_take_back_refused_when_someone_acted_after(mk: dict[str, Any], login: Any) -> None:
    campaign = to_settle(mk)
    red_user, red = mk["Red"]
    blue_user, blue = mk["Blue"]
    client = login(red_user)
    client.post(reverse("mk:setup_settle", args=[campaign.slug]), settle_form(campaign, red))
    mine = Event.objects.filter(campaign=campaign).order_by("-seq").first()
    login(blue_user).post(reverse("mk:setup_settle", args=[campaign.slug]),
                          settle_form(campaign, blue))
    before = full_dump()
    response = client.post(reverse("campaign:take_back", args=[campaign.slug]),
                           {"seq": str(mine.seq)})
    assert response.status_code == 409
    assert "You can no longer take that back: someone acted after it." in text(response)
    assert full_dump() == before
    # Red's statement stays while the step is open, without the button.
    page = text(client.get(play_url(campaign)))
    assert "Placed Red's settlements" in page and "Take it back" not in page


def test_mk_take_back_refused_for_another_members_action(mk: dict[str, Any],
                                                         login: Any) -> None:
    campaign = to_settle(mk)
    red_user, red = mk["Red"]
    login(red_user).post(reverse("mk:setup_settle", args=[campaign.slug]),
                         settle_form(campaign, red))
    event = Event.objects.filter(campaign=campaign).order_by("-seq").first()
    before = full_dump()
    for user in (mk["Blue"][0], mk["gm"]):
        response = login(user).post(reverse("campaign:take_back", args=[campaign.slug]),
                                    {"seq": str(event.seq)})
        assert response.status_code == 409
        assert "That action is not yours to take back" in text(response)
    assert full_dump() == before


def test_mk_take_back_refused_once_the_step_is_closed(mk: dict[str, Any]) -> None:
    campaign = mk["campaign"]
    red_user, red = mk["Red"]
    setup.choose_race(red, red_user, "Elves")
    event = Event.objects.filter(campaign=campaign).order_by("-seq").first()
    # The clock moved on without an event of its own (as an edit in the admin would).
    Campaign.objects.filter(pk=campaign.pk).update(phase="order")
    with pytest.raises(TakeBackRefused, match="its step is closed"):
        take_back(refresh(campaign), red_user, event.seq)
    assert Kingdom.objects.get(pk=red.pk).data["race"] == "Elves"


def test_mk_take_back_twice_and_of_an_undo_is_refused(mk: dict[str, Any]) -> None:
    campaign = mk["campaign"]
    red_user, red = mk["Red"]
    setup.choose_race(red, red_user, "Elves")
    event = Event.objects.filter(campaign=campaign).order_by("-seq").first()
    undo = take_back(campaign, red_user, event.seq)
    with pytest.raises(TakeBackRefused, match="There is no such action of yours"):
        take_back(campaign, red_user, undo.seq)
    with pytest.raises(TakeBackRefused, match="taken back already"):
        take_back(campaign, red_user, event.seq)
    with pytest.raises(TakeBackRefused, match="There is no such action"):
        take_back(campaign, red_user, 9999)


def test_mk_step_open_hook_follows_the_clock_and_winter_sub_phases(mk: dict[str, Any]) -> None:
    from campaign.systems.mighty_kingdoms.views import step_open

    campaign = mk["campaign"]
    red_user, red = mk["Red"]
    setup.choose_race(red, red_user, "Elves")
    event = Event.objects.filter(campaign=campaign).order_by("-seq").first()
    assert step_open(campaign, event) is True
    moved = refresh(campaign)
    moved.phase = "order"
    assert step_open(moved, event) is False
    buy = Event(campaign=campaign, seq=1, kind="winter.buy", year=2, season="winter",
                month=None, phase="C")
    winter = Campaign(pk=campaign.pk, year=2, season="winter", month=None, phase="C",
                      sub_phase="buy")
    assert step_open(winter, buy) is True
    winter.sub_phase = "feed"
    assert step_open(winter, buy) is False
    closing = Event(campaign=campaign, seq=2, kind="phase.advanced", year=2, season="winter",
                    month=None, phase="C")
    assert step_open(Campaign(year=2, season="winter", month=None, phase="C",
                              sub_phase="buy"), closing) is False


def test_mk_buy_taken_back_through_the_play_page(gm: Any, plain_summer: None,  # noqa: F811
                                                 ) -> None:
    """MK-BUY-2: a purchase taken back by its buyer: the purchase, the gold and the chronicle
    are as before it, to the row."""
    w = build_tv3(gm, slug="take-back-buy")
    to_phase(w, ws.BUY)
    before = full_dump()
    stock = w.stock("Red")
    client = w.client("Red")
    response = client.post(reverse("mk:winter_buy", args=[w.campaign.slug]),
                           {"kind": "settle", "tile": w.t("E1"), "to": "village"},
                           HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert "Take it back" in text(response)
    assert Purchase.objects.filter(campaign=w.campaign).count() == 1
    event = Event.objects.filter(campaign=w.campaign).order_by("-seq").first()
    assert event.kind == "winter.buy"
    response = client.post(reverse("campaign:take_back", args=[w.campaign.slug]),
                           {"seq": str(event.seq)})
    assert response.status_code == 302
    assert Purchase.objects.filter(campaign=w.campaign).count() == 0
    assert w.stock("Red") == stock
    after = full_dump()
    for label in before:
        if label != "campaign.Event":
            assert after[label] == before[label], label


def test_mk_gm_phase_close_statement_goes_with_the_next_action(mk: dict[str, Any],
                                                               login: Any) -> None:
    campaign = mk["campaign"]
    red_user, red = mk["Red"]
    blue_user, blue = mk["Blue"]
    setup.choose_race(red, red_user, "A")
    setup.choose_race(blue, blue_user, "B")
    client = login(mk["gm"])
    response = client.post(reverse("campaign:advance", args=[campaign.slug]))
    assert response.status_code == 302
    page = text(client.get(play_url(campaign)))
    assert "Setup, A) Choose races is over." in page
    assert "Take it back" not in page  # closing a phase is undone from the chronicle
    setup.roll_initial_order(refresh(campaign), mk["gm"], rolls={red.pk: 6, blue.pk: 2})
    assert "is over." not in text(client.get(play_url(campaign)))
    assert Army.objects.count() == 0
