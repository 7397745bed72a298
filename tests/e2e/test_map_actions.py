"""Acting on the map, at phone width (390 px) and on a desktop (1280 px): readable labels with
zoom and pan, the tile panel's actions for this viewer (a capital founded, an army moved), the
tiles a chosen army may go to lit on the map, and the play page's lists of tiles with terrain
and who is there as the fallback. axe-core checks each page as the test leaves it."""

from __future__ import annotations

from typing import Any

import pytest

from battles.models import Army
from campaign.models import Campaign, Kingdom, Role, Tile
from campaign.systems.mighty_kingdoms import phases, setup
from campaign.systems.mighty_kingdoms.models import Order
from campaign.systems.mighty_kingdoms.rules import campaign as mk
from campaign.systems.mighty_kingdoms.state import load_state
from tests.conftest import add_member, make_campaign, make_user
from tests.e2e.axe import assert_accessible
from tests.e2e.conftest import SHOTS, shot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

GUIDE = SHOTS / "guide"


def keep(page: Any, name: str) -> None:
    """The map-first flow's pictures as the user guide shows them (docs/img holds copies of
    these): one screen from the top of the map, the tapped tile in sight, as a person sees it.
    Kept under test-output/e2e/guide/, so a test run leaves the documentation as it is."""
    GUIDE.mkdir(parents=True, exist_ok=True)
    page.evaluate("""() => {
      const sel = document.querySelector('#map a.tile.sel');
      const wrap = document.getElementById('map');
      if (sel) {
        const a = sel.getBoundingClientRect(), b = wrap.getBoundingClientRect();
        wrap.scrollLeft += a.left - b.left - (b.width - a.width) / 2;
        wrap.scrollTop += a.top - b.top - (b.height - a.height) / 3;
      }
      window.scrollTo(0, document.querySelector('.map-zoom').getBoundingClientRect().top
                         + window.scrollY - 8);
    }""")
    page.screenshot(path=str(GUIDE / name))


def at_capital_step() -> dict[str, Any]:
    """Red and Blue at setup step C; Red goes first."""
    gm = make_user("gm")
    campaign = make_campaign(gm, slug="map-play", name="Map Play", width=12, height=10, seed=11)
    kingdoms = {}
    for name, colour in (("Red", "#aa0000"), ("Blue", "#1f4fbf")):
        user = make_user(name.lower())
        kingdom = Kingdom.objects.create(campaign=campaign, name=name, colour=colour,
                                         player=add_member(campaign, user, Role.PLAYER))
        setup.choose_race(kingdom, user, "Basileans")
        kingdoms[name] = kingdom
    phases.advance(campaign, gm)
    setup.roll_initial_order(campaign, gm, rolls={kingdoms["Red"].pk: 6,
                                                  kingdoms["Blue"].pk: 2})
    phases.advance(campaign, gm)
    campaign = Campaign.objects.get(pk=campaign.pk)
    starts = list(mk.legal_start_tiles(load_state(campaign).map))
    return {"campaign": campaign, "starts": starts, **kingdoms}


def in_summer() -> dict[str, Any]:
    """Summer month 1, Orders, Red to give the first order: Red's army #1 on its capital 0303."""
    gm = make_user("gm")
    campaign = make_campaign(gm, slug="map-orders", name="Map Orders", width=8, height=6,
                             seed=None)
    tiles = Tile.objects.filter(map=campaign.map)
    red = Kingdom.objects.create(campaign=campaign, name="Red", colour="#aa0000",
                                 player=add_member(campaign, make_user("red"), Role.PLAYER),
                                 order_position=1)
    blue = Kingdom.objects.create(campaign=campaign, name="Blue", colour="#1f4fbf",
                                  player=add_member(campaign, make_user("blue"), Role.PLAYER),
                                  order_position=2)
    for label, settlement in (("0303", "city"), ("0302", "village"), ("0403", "fortress")):
        tiles.filter(label=label).update(controller=red, explored=True, settlement=settlement)
    tiles.filter(label="0504").update(controller=blue, explored=True, settlement="village")
    tiles.filter(label="0304").update(terrain="marsh")
    capital = tiles.get(label="0303")
    Kingdom.objects.filter(pk=red.pk).update(start_tile=capital, capital_tile=capital)
    Army.objects.create(campaign=campaign, kingdom=red, number=1, tile=capital)
    Army.objects.create(campaign=campaign, kingdom=blue, number=1, tile=tiles.get(label="0504"))
    Campaign.objects.filter(pk=campaign.pk).update(season="summer", year=1, month=1, phase="A",
                                                   sub_phase="")
    return {"campaign": Campaign.objects.get(pk=campaign.pk), "red": red}


def log_in(page: Any, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", f"pw-{username}")
    page.click("button[type=submit]")
    page.wait_for_url(f"{base}/")


def new_page(browser: Any, width: int) -> Any:
    phone = width < 600
    context = browser.new_context(viewport={"width": width, "height": 844 if phone else 900},
                                  device_scale_factor=2, is_mobile=phone, has_touch=phone)
    return context, context.new_page()


LABEL_HEIGHT = """() => Math.min(...[...document.querySelectorAll('#map svg a.tile text')]
  .slice(0, 5).map(t => t.getBoundingClientRect().height))"""
WIDE = """() => [...document.querySelectorAll('body *')]
  .filter(e => e.getBoundingClientRect().right > 392).slice(0, 5)
  .map(e => e.tagName + '.' + e.className)"""
SVG_WIDTH = "() => document.querySelector('#map svg').getBoundingClientRect().width"
WRAP_WIDTH = "() => document.getElementById('map').clientWidth"


@pytest.mark.parametrize("width", [390, 1280])
def test_labels_readable_with_zoom_buttons_and_pinch(live_server: Any, browser: Any,
                                                     width: int) -> None:
    at_capital_step()
    context, page = new_page(browser, width)
    try:
        log_in(page, live_server.url, "red")
        page.goto(f"{live_server.url}/c/map-play/map/")
        page.locator("[data-map-zoom] [data-zoom=in]").wait_for()
        # Tile labels at least 12 px tall as the map opens, on a phone as on a desktop.
        assert page.evaluate(LABEL_HEIGHT) >= 12
        # The page itself never scrolls sideways: the map pans inside its box.
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        start = page.evaluate(SVG_WIDTH)
        zoom_in = page.get_by_role("button", name="Zoom in")
        zoom_in.focus()
        page.keyboard.press("Enter")
        assert page.evaluate(SVG_WIDTH) == pytest.approx(start * 1.4, rel=0.02)
        page.get_by_role("button", name="Whole map").click()
        assert page.evaluate(SVG_WIDTH) == pytest.approx(page.evaluate(WRAP_WIDTH), abs=1)
        if width < 600:
            # Two fingers spread apart: the map grows with them.
            before = page.evaluate(SVG_WIDTH)
            page.evaluate("""() => {
              const wrap = document.getElementById('map'), box = wrap.getBoundingClientRect();
              const y = box.top + 100, touch = (id, x) => new Touch({identifier: id,
                target: wrap, clientX: box.left + x, clientY: y});
              const send = (type, a, b) => wrap.dispatchEvent(new TouchEvent(type,
                {touches: [touch(1, a), touch(2, b)], bubbles: true, cancelable: true}));
              send('touchstart', 150, 200);
              send('touchmove', 100, 250);
              send('touchmove', 50, 300);
              wrap.dispatchEvent(new TouchEvent('touchend', {touches: [], bubbles: true}));
            }""")
            assert page.evaluate(SVG_WIDTH) == pytest.approx(before * 5, rel=0.02)
            # A finger pans the map inside its box.
            page.evaluate("document.getElementById('map').scrollLeft = 200")
            assert page.evaluate("document.getElementById('map').scrollLeft") == 200
        assert_accessible(page)
        shot(page, f"map-zoom-{width}")
    finally:
        context.close()


@pytest.mark.parametrize("width", [390, 1280])
def test_capital_founded_from_the_tile_panel(live_server: Any, browser: Any, width: int) -> None:
    built = at_capital_step()
    start = built["starts"][0]
    context, page = new_page(browser, width)
    try:
        log_in(page, live_server.url, "red")
        page.goto(f"{live_server.url}/c/map-play/map/")
        page.locator(f'svg a.tile[data-tile="{start}"]').click()
        button = page.get_by_role("button", name="Found Red's capital here")
        button.wait_for()
        assert_accessible(page)
        shot(page, f"map-capital-offered-{width}")
        keep(page, "map-act-phone.png" if width < 600 else "map-act-desktop.png")
        zoomed = page.evaluate(SVG_WIDTH)
        page.evaluate("""() => document.addEventListener('hexkeep:refreshed',
                                                         () => { window.__refreshed = true; })""")
        button.click()
        done = page.locator("#tile-did")
        done.wait_for()
        said = f"Red founds its capital city at {start} (MK-SETUP-3)."
        assert done.inner_text() == said
        # The page follows the game (live.js refreshes it after the new event): what happened
        # is still said, and the map keeps its zoom.
        page.wait_for_function("() => window.__refreshed === true", timeout=20000)
        assert done.inner_text() == said
        assert page.evaluate(SVG_WIDTH) == pytest.approx(zoomed, abs=1)
        # The map is drawn again with the capital's star; the button has gone.
        page.locator(f'svg a.tile[data-tile="{start}"] title', has_text="Red, capital").wait_for(
            state="attached")
        assert page.get_by_role("button", name="Found Red's capital here").count() == 0
        assert Kingdom.objects.get(pk=built["Red"].pk).capital_tile.label == start
        assert_accessible(page)
        shot(page, f"map-capital-founded-{width}")
        keep(page, "map-done-phone.png" if width < 600 else "map-done-desktop.png")
        # Blue, whose turn it is now, sees the same offer on another start tile.
    finally:
        context.close()


@pytest.mark.parametrize("width", [390, 1280])
def test_choosing_an_army_lights_its_destinations_and_moves_it(live_server: Any, browser: Any,
                                                                width: int) -> None:
    built = in_summer()
    state = load_state(built["campaign"])
    mover = state.movers_of(built["red"].pk)[0]
    legal = mk.legal_move_destinations(mover, state.map, state.options)
    assert "0304" not in legal  # the marsh
    context, page = new_page(browser, width)
    try:
        log_in(page, live_server.url, "red")
        page.goto(f"{live_server.url}/c/map-orders/map/")
        page.locator('svg a.tile[data-tile="0303"]').click()
        page.get_by_role("button", name="Choose army #1: show where it may move").wait_for()
        lit = page.locator("#map a.tile.dest")
        lit.first.wait_for(state="attached")
        assert sorted(lit.evaluate_all("ts => ts.map(t => t.dataset.tile)")) == sorted(legal)
        note = page.locator("#map-note")
        assert note.inner_text().startswith("Army #1 may move to ")
        assert_accessible(page)
        shot(page, f"map-army-chosen-{width}")
        keep(page, "map-choose-phone.png" if width < 600 else "map-choose-desktop.png")
        page.locator('svg a.tile[data-tile="0203"]').click()
        move = page.get_by_role("button", name="Move army #1 here from 0303")
        move.wait_for()
        # Still lit while the player looks at where to go.
        assert page.locator("#map a.tile.dest").count() == len(legal)
        page.evaluate("""() => document.addEventListener('hexkeep:refreshed',
                                                         () => { window.__refreshed = true; })""")
        move.click()
        page.locator("#tile-did").wait_for()
        assert page.locator("#tile-did").inner_text().startswith(
            "Red orders army #1 on 0303: Move to 0203.")
        order = Order.objects.get(kingdom=built["red"])
        assert (order.kind, order.target.label) == ("move", "0203")
        # The marsh is offered nowhere (once the page has followed the game: live.js).
        page.wait_for_function("() => window.__refreshed === true", timeout=20000)
        page.locator('svg a.tile[data-tile="0304"]').click()
        page.locator("#tile-panel h2", has_text="Tile 0304").wait_for()
        assert page.get_by_role("button", name="Move army #1 here from 0303").count() == 0
        assert_accessible(page)
    finally:
        context.close()


def test_the_play_pages_lists_read_terrain_and_who_is_there(live_server: Any,
                                                             browser: Any) -> None:
    in_summer()
    context, page = new_page(browser, 390)
    try:
        log_in(page, live_server.url, "red")
        page.goto(f"{live_server.url}/c/map-orders/play/")
        select = page.locator("select[name=target]")
        options = select.locator("option").all_inner_texts()
        assert "0403 · Plain · fortress" in options
        assert "0302 · Plain · village" in options
        assert all(" · " in o for o in options)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, page.evaluate(
            WIDE)
        assert_accessible(page)
    finally:
        context.close()
