"""Every rule system's standings at 390 px: nothing behind a sideways scroll (Armies and Army
points were), every figure under a visible label, no abbreviation explained only on hover; at
1280 px a table with whole-word heads. axe-core checks the standings each time."""

from __future__ import annotations

from typing import Any

import pytest

from campaign.models import Campaign, Kingdom, Role
from campaign.systems.middle_sea import services as ms
from campaign.systems.middle_sea.game import Acting
from campaign.systems.swords_and_stones import services as sns
from tests.conftest import add_member, make_campaign, make_campaign_of, make_user
from tests.e2e.axe import assert_accessible
from tests.e2e.conftest import PHONE, shot
from tests.phone import fits_a_phone, log_in
from tests.wok.conftest import make_game

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WIDE = {"width": 1280, "height": 900}


def players(campaign: Any, names: list[str], viewer: Any) -> list[Kingdom]:
    kingdoms = []
    for i, name in enumerate(names):
        user = viewer if i == 0 else make_user(f"{campaign.slug}-{i}")
        kingdoms.append(Kingdom.objects.create(
            campaign=campaign, name=name, colour=f"#{i + 2}{i + 2}3344",
            player=add_member(campaign, user, Role.PLAYER)))
    return kingdoms


def mighty_kingdoms(viewer: Any) -> str:
    campaign = make_campaign(make_user("mk-gm"), slug="shattered", name="Shattered Coast")
    players(campaign, ["Kingdom of Aldmark", "Blue Reach", "Goldcrest"], viewer)
    # Past set-up, where the overview shows the standings.
    Campaign.objects.filter(pk=campaign.pk).update(season="summer", year=1, month=1,
                                                   phase="A", sub_phase="")
    return campaign.slug


def swords_and_stones(viewer: Any) -> str:
    gm = make_user("sns-gm")
    campaign = make_campaign_of("swords-and-stones", gm, slug="avalon", name="Avalon")
    sns.load_preset(campaign, gm)
    campaign.refresh_from_db()
    red, blue = players(campaign, ["Kingdom of Aldmere", "Blackwater"], viewer)
    sns.name_king(campaign, gm, red, "Aldous")
    sns.name_king(campaign, gm, blue, "Morwen")
    sns.place(campaign, gm, red, "0202", ["0302", "0203"])
    sns.place(campaign, gm, blue, "1302", ["1202", "1303"])
    sns.start_challenges(campaign, gm)
    return campaign.slug


def war_of_kings(viewer: Any) -> str:
    game = make_game(slug="hexagon")
    Kingdom.objects.filter(pk=game.kingdoms["Red"].pk).update(
        player=add_member(game.campaign, viewer, Role.PLAYER))
    return game.campaign.slug


def middle_sea(viewer: Any) -> str:
    gm = make_user("ms-gm")
    campaign = make_campaign_of("middle-sea", gm, slug="wine-dark", name="Wine-Dark Sea")
    kingdoms = players(campaign, ["Moonmere", "Sunhold", "Crownfast"], viewer)
    ms.setup_game(campaign, Acting(gm, True, None),
                  [(k.pk, suit) for k, suit in zip(kingdoms, ("suns", "moons", "crowns"))],
                  {k.pk: [roll] for k, roll in zip(kingdoms, (5, 3, 2))})
    return campaign.slug


SYSTEMS = {"mighty-kingdoms": mighty_kingdoms, "swords-and-stones": swords_and_stones,
           "war-of-kings": war_of_kings, "middle-sea": middle_sea}
# Figures each system's standings label, as a phone shows them.
LABELS = {
    "mighty-kingdoms": ["Tiles", "Villages", "Cities", "Fortresses", "Armies", "Army points"],
    "swords-and-stones": ["Victory points", "Vengeance points", "★ Capital", "■ Settled",
                          "▲ Claimed", "Games played"],
    "war-of-kings": ["Achievement points", "Gold a round", "Territories"],
    "middle-sea": [],
}
STANDINGS = "main section.card:has(.standings-box), main section.card:has(.ms-rows)"

LABELLED = """(section) => [...section.querySelectorAll('td[data-label]')].map(td => {
  const label = getComputedStyle(td, '::before').content;
  const box = td.getBoundingClientRect();
  return [td.dataset.label, label, box.right <= innerWidth && box.left >= 0];
})"""


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_standings_fit_a_phone_with_every_figure_labelled(live_server: Any, browser: Any,
                                                          system: str) -> None:
    viewer = make_user("viewer")
    slug = SYSTEMS[system](viewer)
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    try:
        log_in(page, live_server.url, "viewer")
        page.goto(f"{live_server.url}/c/{slug}/")
        section = page.locator(STANDINGS).first
        assert section.is_visible()
        fits_a_phone(page)
        # Nothing inside scrolls sideways (the table's box did, hiding Armies and Army points).
        assert section.evaluate("s => [...s.querySelectorAll('*')].filter(e => "
                                "['auto', 'scroll'].includes(getComputedStyle(e).overflowX) "
                                "&& e.scrollWidth > e.clientWidth + 1).length") == 0
        cells = section.evaluate(LABELLED)
        labels = LABELS[system]
        kingdoms = section.locator("tbody tr, ol.ms-rows > li").count()
        assert kingdoms >= 2
        assert len(cells) == len(labels) * kingdoms
        for label, drawn, on_screen in cells:
            assert label in labels
            assert drawn == f'"{label}" / ""', (label, drawn)  # shown, not read twice
            assert on_screen, label
        # No abbreviation whose meaning is only in a hover title: the Middle Sea's score has a
        # title that repeats its visible key.
        if system == "middle-sea":
            assert "score = (cities − unrest) × (city values + piers)" in section.inner_text()
        else:
            assert section.locator("[title]").count() == 0
        assert_accessible(page, STANDINGS.split(",")[0] if labels else STANDINGS.split(", ")[1])
        shot(page, f"group-in-standings-{system}-390")
    finally:
        context.close()


@pytest.mark.parametrize("system", ["mighty-kingdoms", "swords-and-stones", "war-of-kings"])
def test_standings_are_a_table_with_whole_words_at_1280_px(live_server: Any, browser: Any,
                                                           system: str) -> None:
    viewer = make_user("viewer")
    slug = SYSTEMS[system](viewer)
    context = browser.new_context(viewport=WIDE)
    page = context.new_page()
    try:
        log_in(page, live_server.url, "viewer")
        page.goto(f"{live_server.url}/c/{slug}/")
        table = page.locator("table.standings-table").first  # the Kingdoms card's comes after
        heads = table.locator("thead th").all_inner_texts()
        assert heads == ["Kingdom", *LABELS[system]]
        assert table.locator("thead").is_visible()
        # One line per kingdom: every figure of a row on the row's line.
        first = table.locator("tbody tr").first
        tops = first.evaluate(
            "r => [...r.children].map(c => Math.round(c.getBoundingClientRect().top))")
        assert len(set(tops)) == 1
        assert_accessible(page, "main section.card:has(.standings-box)")
        shot(page, f"group-in-standings-{system}-1280")
    finally:
        context.close()


def test_the_overviews_kingdoms_card_fits_a_phone(live_server: Any, browser: Any) -> None:
    """The overview's Kingdoms card hid Armies behind a sideways scroll at 390 px: each kingdom
    is now a block with its player and figures labelled; at 1280 px it stays one row a kingdom."""
    viewer = make_user("viewer")
    slug = mighty_kingdoms(viewer)
    card = "main .grid > section.span-2:has(table.standings-table)"
    for viewport, name in ((PHONE, "390"), (WIDE, "1280")):
        context = browser.new_context(viewport=viewport)
        page = context.new_page()
        try:
            log_in(page, live_server.url, "viewer")
            page.goto(f"{live_server.url}/c/{slug}/")
            section = page.locator(card)
            rows = section.locator("tbody tr")
            assert rows.count() == 3
            if name == "390":
                fits_a_phone(page)
                cells = section.evaluate(LABELLED)
                assert [c[0] for c in cells[:4]] == ["Player", "Tiles", "Settlements", "Armies"]
                assert all(on_screen for _, _, on_screen in cells)
                assert all(drawn == f'"{label}" / ""' for label, drawn, _ in cells)
            else:
                tops = rows.first.evaluate(
                    "r => [...r.children].map(c => Math.round(c.getBoundingClientRect().top))")
                assert len(set(tops)) == 1
            assert_accessible(page, card)
            shot(page, f"overview-kingdoms-{name}")
        finally:
            context.close()
