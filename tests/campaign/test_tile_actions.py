"""The core of acting on the map (campaign/tile_actions.py, campaign.views.maps.tile_act): the
hook every rule system may provide, the tile panel that shows it, and the tile choices of the
play pages' drop-downs."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import pytest
from django.test import Client
from django.urls import reverse

from campaign.access import Access
from campaign.models import Event, Role, Tile
from campaign.rulesystems import REGISTRY, RETIRED_SYSTEM, RuleSystem, get_system
from campaign.tile_actions import TileAction, TileChoice, actions_for, choice_text, tile_choices
from tests.conftest import add_member, make_campaign_of, make_user

pytestmark = pytest.mark.django_db

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_choice_text_names_terrain_settlement_and_who_is_there() -> None:
    assert choice_text("0204", terrain="Forest", settlement="village",
                       occupants=["Aldmark army #1", "Ironmere ship #2"]) == (
        "0204 · Forest · village · Aldmark army #1, Ironmere ship #2")
    assert choice_text("0204", terrain="Plain") == "0204 · Plain"
    assert choice_text("0204") == "0204"


def test_a_tile_choice_is_its_label_with_a_text_beside_it() -> None:
    choice = TileChoice("0204", "0204 · Forest")
    assert choice == "0204" and str(choice) == "0204" and choice.text == "0204 · Forest"
    assert "0204" in [choice] and choice in ("0204", "0305")
    assert {choice: 1}["0204"] == 1
    assert TileChoice("0305").text == "0305"


class _Tile:
    def __init__(self, terrain: str, settlement: str = "") -> None:
        self.terrain, self.settlement = terrain, settlement


def test_tile_choices_use_the_systems_labels() -> None:
    system = get_system("mighty-kingdoms")
    tiles = {"0101": _Tile("forest", "village"), "0102": _Tile("plain", "city"),
             "0103": _Tile("hills")}
    found = tile_choices(system, ["0101", "0102", "0103", "0999"], tiles,
                         occupants={"0103": ["Red army #1"]}, capitals={"0102": "Red"})
    assert [c.text for c in found] == ["0101 · Forest · village", "0102 · Plain · capital of Red",
                                       "0103 · Hills · Red army #1", "0999"]
    assert found == ["0101", "0102", "0103", "0999"]


def test_a_tile_action_posts_or_highlights() -> None:
    post = TileAction("capital", "Found Red's capital here", "/c/x/mk/setup/capital/",
                      {"tile": "0204"})
    pick = TileAction("choose:army:1", "Choose army #1", highlight=("0203", "0303"))
    assert (post.posts, post.legal, post.reason) == (True, True, "")
    assert (pick.posts, pick.highlight_text) == (False, "0203 0303")


@pytest.mark.parametrize("slug", [s for s in REGISTRY])
def test_every_system_answers_the_tile_panel(slug: str, login: Callable[..., Client]) -> None:
    """Every registered system's map opens a tile panel; a system without the hook offers
    nothing, one with it offers a list (here at the start of a new campaign)."""
    gm = make_user("gm")
    campaign = make_campaign_of(slug, gm, slug="panel")
    tile = Tile.objects.filter(map__campaign=campaign).order_by("label").first()
    access = Access(campaign=campaign, membership=None, role=Role.GM, kingdom=None)
    found = actions_for(access, tile)
    assert isinstance(found, list)
    if campaign.system.hook("tile_actions") is None:
        assert found == []
    response = login(gm).get(reverse("campaign:tile", args=[campaign.slug, tile.label]),
                             headers={"HX-Request": "true"})
    assert response.status_code == 200


def test_a_retired_system_offers_nothing(db: Any) -> None:
    gm = make_user("gm")
    campaign = make_campaign_of("mighty-kingdoms", gm, slug="old")
    campaign.rule_system = "no-longer-here"
    assert campaign.system is RETIRED_SYSTEM
    tile = Tile.objects.filter(map__campaign=campaign).first()
    access = Access(campaign=campaign, membership=None, role=Role.GM, kingdom=None)
    assert actions_for(access, tile) == []


def test_an_action_not_offered_is_refused_and_changes_nothing(
        login: Callable[..., Client]) -> None:
    gm = make_user("gm")
    campaign = make_campaign_of("mighty-kingdoms", gm, slug="panel")
    observer = make_user("watcher")
    add_member(campaign, observer, Role.OBSERVER)
    events = Event.objects.filter(campaign=campaign).count()
    url = reverse("campaign:tile_act", args=[campaign.slug, "0101"])
    for user in (gm, observer):
        response = login(user).post(url, {"action": "capital"}, headers={"HX-Request": "true"})
        assert response.status_code == 409
        assert "That cannot be done on 0101 now" in response.content.decode()
    assert Event.objects.filter(campaign=campaign).count() == events
    # Not a member: no such campaign.
    outsider = make_user("stranger")
    assert login(outsider).post(url, {"action": "capital"}).status_code == 404
    # A GET is not an action.
    assert login(gm).get(url).status_code == 405


def test_the_hook_is_documented() -> None:
    assert "tile_actions(access, tile)" in (RuleSystem.__doc__ or "")
    guide = (DOCS / "adding-a-rule-system.md").read_text()
    assert "`tile_actions`" in guide and "campaign:tile_act" in guide
