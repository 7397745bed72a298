"""The home page: each campaign's role, kingdoms and members (counted as the Members page lists
them), and a "Your turn" flag from the rule system's ``whose_turn`` hook, in the same number of
queries however many campaigns there are."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaign import notifications
from campaign.models import Campaign, Kingdom, Membership, Role
from campaign.systems.mighty_kingdoms import summer
from tests.campaign.conftest import World, error_text
from tests.conftest import add_member, make_campaign, make_user
from tests.mk.test_summer_scene import Scene


def card_of(response: Any, name: str) -> str:
    """The visible text of the home page's card for the campaign called ``name``."""
    html = response.content.decode()
    cards = re.findall(r'<a class="card stack campaign-card[^"]*"[^>]*>(.*?)</a>', html, re.S)
    for card in cards:
        if f"<h2>{name}</h2>" in card:
            return " ".join(re.sub(r"<[^>]+>", " ", card).split())
    raise AssertionError(f"no card for {name}")


def test_member_count_agrees_with_the_members_page(world: World) -> None:
    """The count was made over the join that picks the viewer's own campaigns, so it counted
    only the viewer's membership: every campaign said "1 member"."""
    members = Membership.objects.filter(campaign=world.campaign).count()
    assert members == 4  # the GM, two players and an observer
    for persona in ("player", "observer", "gm"):
        client = world.client(persona)
        home = client.get(reverse("home"))
        assert home.status_code == 200
        listed = client.get(reverse("campaign:members", args=[world.campaign.slug]))
        on_members_page = listed.content.decode().count('<li class="stack">')
        assert on_members_page == members
        role = Role(world.membership(world.user(persona)).role).label
        assert f"{role} 3 kingdoms, {members} members" in card_of(home, world.campaign.name)
    # A site admin sees every campaign, with the same counts.
    admin = world.client("admin").get(reverse("home"))
    assert f"Site admin 3 kingdoms, {members} members" in card_of(admin, world.campaign.name)
    assert "Site admin 0 kingdoms, 2 members" in card_of(admin, world.elsewhere.name)


def summer_scene(gm: User, slug: str, red_user: User, blue_user: User) -> Scene:
    """A Mighty Kingdoms campaign at summer month 1, orders phase, Red first in the player
    order (as tests/mk/test_summer_scene.py lays it out, smaller)."""
    campaign = make_campaign(gm, slug=slug, name=slug.replace("-", " ").title(), width=8,
                             height=6, seed=None)
    red = Kingdom.objects.create(campaign=campaign, name=f"Red of {slug}", colour="#aa0000",
                                 player=add_member(campaign, red_user, Role.PLAYER))
    blue = Kingdom.objects.create(campaign=campaign, name=f"Blue of {slug}", colour="#0000aa",
                                  player=add_member(campaign, blue_user, Role.PLAYER))
    s = Scene(campaign, gm, red_user, blue_user, red, blue)
    s.set_tile("0303", controller=red, explored=True, settlement="city")
    s.set_tile("0504", controller=blue, explored=True, settlement="village")
    capital = s.tile("0303")
    Kingdom.objects.filter(pk=red.pk).update(order_position=1, start_tile=capital,
                                             capital_tile=capital)
    Kingdom.objects.filter(pk=blue.pk).update(order_position=2)
    s.army(red, 1, "0303")
    s.army(blue, 1, "0504")
    s.at("A")
    return s


@pytest.fixture
def people(db: Any) -> dict[str, User]:
    return {name: make_user(name) for name in ("gm", "rhoda", "bram")}


def home_of(user: User) -> tuple[Any, int]:
    client = Client()
    client.force_login(user)
    client.get(reverse("home"))  # the session, warmed
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("home"))
    assert response.status_code == 200
    return response, len(queries.captured_queries)


def test_mk_ord_1_your_turn_is_flagged_on_the_home_page(people: dict[str, User]) -> None:
    """MK-ORD-1: orders go round the table; the kingdom whose order is due sees "Your turn", the
    other player sees who is to act, the GM sees both names."""
    s = summer_scene(people["gm"], "red-hills", people["rhoda"], people["bram"])
    notifications.process_campaign(s.campaign.pk)  # as the worker does after each event
    rhoda, _ = home_of(people["rhoda"])
    assert card_of(rhoda, "Red Hills").startswith(
        "Red Hills Your turn Year 1, summer month 1")
    assert 'class="card stack campaign-card my-turn"' in rhoda.content.decode()
    bram, _ = home_of(people["bram"])
    text = card_of(bram, "Red Hills")
    assert "Your turn" not in text
    assert "Red of red-hills to act" in text
    assert "Player 2 kingdoms, 3 members" in text
    gm, _ = home_of(people["gm"])
    assert "Red of red-hills to act" in card_of(gm, "Red Hills")

    # Red gives its order: Blue is next. The notifications have not read that event yet, so
    # the page asks the hook itself rather than show a turn that is over.
    summer.give_order(s.red, people["rhoda"], f"army:{s.get_army(s.red, 1).pk}", "defend", None)
    assert "Your turn" not in card_of(home_of(people["rhoda"])[0], "Red Hills")
    assert "Blue of red-hills to act" in card_of(home_of(people["rhoda"])[0], "Red Hills")
    assert card_of(home_of(people["bram"])[0], "Red Hills").startswith("Red Hills Your turn")
    notifications.process_campaign(s.campaign.pk)
    assert card_of(home_of(people["bram"])[0], "Red Hills").startswith("Red Hills Your turn")


def test_home_page_queries_do_not_grow_with_campaigns(people: dict[str, User]) -> None:
    """One campaign or six, each with someone to act: the same number of queries."""
    counts = []
    for n in (1, 6):
        while Campaign.objects.count() < n:
            i = Campaign.objects.count()
            s = summer_scene(people["gm"], f"realm-{i}", people["rhoda"], people["bram"])
            notifications.process_campaign(s.campaign.pk)
        response, queries = home_of(people["rhoda"])
        assert response.content.decode().count("Your turn</span>") == n
        counts.append(queries)
        _, gm_queries = home_of(people["gm"])
        counts.append(gm_queries)
    assert counts[0] == counts[2] and counts[1] == counts[3], counts


def test_someone_in_no_campaign_is_told_how_to_join(people: dict[str, User]) -> None:
    response, _ = home_of(people["bram"])
    assert "open the invitation link your GM sent you" in error_text(response)
