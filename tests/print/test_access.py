"""Who may print what: every sheet for the GM, the owner, another player, an observer, an
outsider (404) and the anonymous visitor (login redirect); secrets stay secret until revealed."""

from __future__ import annotations

from typing import Any, Callable

import pytest
from django.urls import reverse

from campaign.models import Campaign
from tests.print.conftest import SheetsWorld, pdf_text

PERSONAS = ("anonymous", "outsider", "observer", "player", "other_player", "bystander", "gm")

# Sheet -> persona -> status. The objects: Red's ledger and army #1 (Red is ``player``), the
# battle Blue (``other_player``) chose against Red; ``bystander`` rules Green, not in it.
EXPECTED: dict[str, dict[str, int]] = {
    "map": {"observer": 200, "player": 200, "other_player": 200, "bystander": 200, "gm": 200},
    "reference": {"observer": 200, "player": 200, "other_player": 200, "bystander": 200,
                  "gm": 200},
    "chronicle": {"observer": 200, "player": 200, "other_player": 200, "bystander": 200,
                  "gm": 200},
    "ledger": {"observer": 403, "player": 200, "other_player": 403, "bystander": 403, "gm": 200},
    "roster": {"observer": 403, "player": 200, "other_player": 403, "bystander": 403, "gm": 200},
    "armies": {"observer": 403, "player": 200, "other_player": 403, "bystander": 403, "gm": 200},
    "battle": {"observer": 403, "player": 200, "other_player": 200, "bystander": 403, "gm": 200},
}


def _object(world: SheetsWorld, sheet: str) -> Any:
    return {"ledger": world.red, "roster": world.red_army, "battle": world.battle,
            "armies": world.red}.get(sheet)


def _expected(sheet: str, persona: str) -> int:
    if persona == "anonymous":
        return 302
    if persona == "outsider":
        return 404
    return EXPECTED[sheet][persona]


@pytest.mark.parametrize("persona", PERSONAS)
@pytest.mark.parametrize("sheet", list(EXPECTED))
def test_preview_access(sheets_world: SheetsWorld, sheet_url: Callable[..., str], sheet: str,
                        persona: str) -> None:
    url = sheet_url(sheets_world, sheet, _object(sheets_world, sheet), pdf=False)
    response = sheets_world.client(persona).get(url)
    assert response.status_code == _expected(sheet, persona)
    if persona == "anonymous":
        assert response["Location"].startswith(reverse("login"))
    if response.status_code == 200:
        body = response.content.decode()
        assert 'class="sheet-doc' in body and "Download PDF" in body
        assert "no-store" in response["Cache-Control"]


@pytest.mark.parametrize("persona", PERSONAS)
@pytest.mark.parametrize("sheet", ["ledger", "roster", "armies", "battle"])
def test_pdf_access_to_secret_sheets(sheets_world: SheetsWorld, sheet_url: Callable[..., str],
                                     sheet: str, persona: str) -> None:
    url = sheet_url(sheets_world, sheet, _object(sheets_world, sheet))
    response = sheets_world.client(persona).get(url)
    assert response.status_code == _expected(sheet, persona)
    if response.status_code == 200:
        assert response["Content-Type"] == "application/pdf"
        assert response["Content-Disposition"].startswith('attachment; filename="test-campaign-')
        assert "private" in response["Cache-Control"]
    else:
        assert not response.content.startswith(b"%PDF")


@pytest.mark.parametrize("persona", ["anonymous", "outsider", "observer"])
@pytest.mark.parametrize("sheet", ["map", "reference", "chronicle"])
def test_pdf_access_to_public_sheets(sheets_world: SheetsWorld, sheet_url: Callable[..., str],
                                     sheet: str, persona: str) -> None:
    response = sheets_world.client(persona).get(sheet_url(sheets_world, sheet))
    assert response.status_code == _expected(sheet, persona)


def test_unknown_sheets_and_objects_are_404(sheets_world: SheetsWorld,
                                            sheet_url: Callable[..., str]) -> None:
    client = sheets_world.client("gm")
    slug = sheets_world.campaign.slug
    assert client.get(reverse("campaign:print_sheet_pdf", args=[slug, "nope"])).status_code == 404
    assert client.get(reverse("campaign:print_sheet_obj", args=[slug, "ledger", 99999])
                      ).status_code == 404
    # A per-object sheet needs its object, a campaign sheet takes none.
    assert client.get(reverse("campaign:print_sheet", args=[slug, "ledger"])).status_code == 404
    assert client.get(reverse("campaign:print_sheet_obj", args=[slug, "map", 1])).status_code == 404
    # Simple rosters exist only in Simple-battles campaigns.
    response = client.get(sheet_url(sheets_world, "simple-roster", sheets_world.red))
    assert response.status_code == 404


def test_another_campaigns_objects_are_404(sheets_world: SheetsWorld, gm: Any) -> None:
    from tests.conftest import make_campaign

    other = make_campaign(gm, slug="other-campaign", width=4, height=4, seed=None)
    url = reverse("campaign:print_sheet_obj_pdf", args=[other.slug, "ledger",
                                                        sheets_world.red.pk])
    assert sheets_world.client("gm").get(url).status_code == 404


def _reveal(world: SheetsWorld) -> None:
    """The battle reveals the lists of the armies fighting it (MK-SETUP-7)."""
    from django.db import transaction

    from campaign.chronicle import Recorder
    from campaign.systems.mighty_kingdoms import forces as services

    with transaction.atomic(), Recorder(world.campaign, world.gm, "test.reveal", "") as rec:
        services.reveal_lists(world.battle, rec)


def test_a_battle_reveals_the_roster(sheets_world: SheetsWorld,
                                     sheet_url: Callable[..., str]) -> None:
    url = sheet_url(sheets_world, "roster", sheets_world.red_army, pdf=False)
    assert sheets_world.client("bystander").get(url).status_code == 403
    _reveal(sheets_world)
    assert sheets_world.client("bystander").get(url).status_code == 200
    assert sheets_world.client("observer").get(url).status_code == 403
    # Red's second army fought nothing: its roster stays secret.
    second = sheet_url(sheets_world, "roster", sheets_world.red_second, pdf=False)
    assert sheets_world.client("bystander").get(second).status_code == 403
    response = sheets_world.client("other_player").get(sheet_url(sheets_world, "roster",
                                                                 sheets_world.red_army))
    assert response.status_code == 200
    assert "Sea Guard Spearmen" in pdf_text(response.content)


def test_battle_packet_keeps_the_other_sides_list_sealed(
        sheets_world: SheetsWorld, sheet_url: Callable[..., str]) -> None:
    from tests.print.conftest import give_list

    world = sheets_world
    give_list(world.blue_army, [("Blue Secret Guard", "Horde", 200, 3, [], "")])
    red_view = pdf_text(world.client("player").get(sheet_url(world, "battle", world.battle))
                        .content)
    assert "Sea Guard Spearmen" in red_view  # its own list
    assert "Blue Secret Guard" not in red_view and "List sealed" in red_view
    gm_view = pdf_text(world.client("gm").get(sheet_url(world, "battle", world.battle)).content)
    assert "Sea Guard Spearmen" in gm_view and "Blue Secret Guard" in gm_view


@pytest.mark.parametrize(("persona", "shown", "hidden"), [
    ("gm", {"Map", "Rules reference", "Kingdom ledger · Red", "Kingdom ledger · Blue",
            "Army roster · Red, army #1", "Army roster · Blue, army #1", "Battle packet"}, set()),
    ("player", {"Map", "Kingdom ledger · Red", "Army roster · Red, army #2", "Battle packet"},
     {"Kingdom ledger · Blue", "Army roster · Blue, army #1"}),
    ("bystander", {"Map", "Kingdom ledger · Green"},
     {"Kingdom ledger · Red", "Army roster · Red, army #1", "Battle packet"}),
    ("observer", {"Map", "Rules reference", "Chronicle of the year"},
     {"Kingdom ledger", "Army roster", "Battle packet"}),
])
def test_print_page_lists_only_what_the_viewer_may_print(
        sheets_world: SheetsWorld, persona: str, shown: set[str], hidden: set[str]) -> None:
    import re

    response = sheets_world.client(persona).get(
        reverse("campaign:print", args=[sheets_world.campaign.slug]))
    assert response.status_code == 200
    text = " ".join(re.sub(r"<[^>]+>", " ", response.content.decode()).split())
    for title in shown:
        assert title in text, title
    for title in hidden:
        assert title not in text, title
    assert "Campaign book" in text


def test_print_page_for_outsider_and_anonymous(sheets_world: SheetsWorld) -> None:
    url = reverse("campaign:print", args=[sheets_world.campaign.slug])
    assert sheets_world.client("outsider").get(url).status_code == 404
    response = sheets_world.client("anonymous").get(url)
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_simple_roster_access(sheets_world: SheetsWorld, sheet_url: Callable[..., str]) -> None:
    campaign: Campaign = sheets_world.campaign
    campaign.options = {**campaign.options, "battle_mode": "simple"}
    campaign.save()
    url = sheet_url(sheets_world, "simple-roster", sheets_world.red, pdf=False)
    statuses = {p: sheets_world.client(p).get(url).status_code for p in PERSONAS}
    assert statuses == {"anonymous": 302, "outsider": 404, "observer": 403, "player": 200,
                        "other_player": 403, "bystander": 403, "gm": 200}
    # Kings of War rosters are not offered in a Simple-battles campaign.
    assert sheets_world.client("gm").get(
        sheet_url(sheets_world, "roster", sheets_world.red_army, pdf=False)).status_code == 404
    # Once revealed, another player sees the revealed armies, and only those.
    _reveal(sheets_world)
    response = sheets_world.client("bystander").get(sheet_url(sheets_world, "simple-roster",
                                                              sheets_world.red))
    assert response.status_code == 200
    assert "Only the armies a battle has revealed" in pdf_text(response.content)


def test_print_page_options_reach_every_link(sheets_world: SheetsWorld) -> None:
    url = reverse("campaign:print", args=[sheets_world.campaign.slug])
    client = sheets_world.client("player")
    page = client.get(url).content.decode()
    # The campaign's own settings by default, each sheet in its own orientation: the map's
    # link leaves it to the map, which takes the one that needs fewer pages.
    assert "map/pdf/?paper=a4&amp;eco=0" in page
    assert "reference/pdf/?paper=a4&amp;landscape=0&amp;eco=0" in page
    # Changing a choice swaps the list only (htmx), with the choice in every link.
    response = client.get(url + "?paper=letter&eco=0&eco=1&landscape=",
                          headers={"HX-Request": "true", "HX-Target": "sheet-list"})
    body = response.content.decode()
    assert body.lstrip().startswith('<div id="sheet-list"') and "<html" not in body
    assert "map/pdf/?paper=letter&amp;eco=1" in body
    assert "ledger/%d/pdf/?paper=letter&amp;landscape=0&amp;eco=1" % sheets_world.red.pk in body
    # An orientation chosen on the page goes into every link, the map's too.
    body = client.get(url + "?landscape=1", headers={"HX-Request": "true",
                                                     "HX-Target": "sheet-list"}).content.decode()
    assert "map/pdf/?paper=a4&amp;landscape=1&amp;eco=0" in body
    assert "reference/pdf/?paper=a4&amp;landscape=1&amp;eco=0" in body
    assert response["Vary"] == "HX-Request" or "HX-Request" in response["Vary"]
