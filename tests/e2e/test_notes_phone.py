"""The GM's own words in the browser (issue 17): on a phone (390 px) the GM writes a GM-only and
a shared note on a kingdom and on a tile, and a chronicle entry with a photo; a player sees the
shared notes and the entry, never the GM-only note (390 and 1280 px). Each state is checked with
axe-core (WCAG 2.1 AA)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from campaign import notes
from campaign.models import ChronicleEntry, Kingdom, Note, Role
from tests.conftest import add_member, make_campaign, make_png, make_user
from tests.e2e.axe import assert_accessible
from tests.e2e.conftest import shot
from tests.e2e.test_outcomes import no_sideways_scroll, signed_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SECRET = "The duke of Red is a traitor"
OPEN = "The harbour of Red is closed by ice"


def _world() -> dict[str, Any]:
    gm = make_user("gm")
    campaign = make_campaign(gm, slug="told", width=8, height=6, seed=7)
    red_user = make_user("red")
    red = Kingdom.objects.create(campaign=campaign, name="Red", colour="#aa0000",
                                 player=add_member(campaign, red_user, Role.PLAYER))
    return {"campaign": campaign, "gm": gm, "red_user": red_user, "red": red,
            "tile": campaign.map.tiles.order_by("label").first()}


def test_the_gm_writes_notes_on_a_phone(live_server: Any, browser: Any) -> None:
    world = _world()
    context, page = signed_in(browser, live_server, world["gm"], 390)
    try:
        page.goto(f"{live_server.url}/c/told/kingdoms/{world['red'].pk}/")
        notes_section = page.locator("#notes")
        notes_section.get_by_text("Add a note").click()
        notes_section.get_by_label("Note", exact=True).fill(SECRET)
        notes_section.get_by_role("button", name="Add the note").click()
        page.wait_for_url("**/kingdoms/*/#notes")
        assert "Note added, for the GMs only." in page.locator("ul.messages").inner_text()
        page.locator("#notes").get_by_text("Add a note").click()
        page.locator("#notes").get_by_label("Note", exact=True).fill(OPEN)
        page.locator("#notes").get_by_label("Shared: players and observers see it too").check()
        page.locator("#notes").get_by_role("button", name="Add the note").click()
        page.wait_for_url("**/kingdoms/*/#notes")
        items = page.locator("#notes li.note")
        assert items.count() == 2
        assert items.nth(0).locator(".badge").inner_text() == "GM only"
        assert items.nth(1).locator(".badge").inner_text() == "shared"
        assert [n.shared for n in Note.objects.order_by("pk")] == [False, True]
        no_sideways_scroll(page, 390)
        assert_accessible(page)
        page.locator("#notes").scroll_into_view_if_needed()
        shot(page, "17-notes-kingdom-gm-390")
        # On a tile, from its panel on the map.
        page.goto(f"{live_server.url}/c/told/map/?tile={world['tile'].label}")
        panel = page.locator("#tile-panel")
        panel.get_by_text("Add a note").click()
        panel.get_by_label("Note", exact=True).fill("Bandits hide in the ford.")
        panel.get_by_role("button", name="Add the note").click()
        page.wait_for_url(f"**/map/?tile={world['tile'].label}#notes")
        assert "Bandits hide in the ford." in page.locator("#tile-panel").inner_text()
        no_sideways_scroll(page, 390)
        assert_accessible(page)
        page.locator("#tile-panel #notes").scroll_into_view_if_needed()
        shot(page, "17-notes-tile-gm-390")
    finally:
        context.close()


@pytest.mark.parametrize("width", [390, 1280])
def test_a_player_reads_only_the_shared_notes(live_server: Any, browser: Any,
                                              width: int) -> None:
    world = _world()
    for target in ({"kingdom": world["red"]}, {"tile": world["tile"]}):
        notes.add_note(world["campaign"], world["gm"], text=SECRET, shared=False, **target)
        notes.add_note(world["campaign"], world["gm"], text=OPEN, shared=True, **target)
    context, page = signed_in(browser, live_server, world["red_user"], width)
    try:
        page.goto(f"{live_server.url}/c/told/kingdoms/{world['red'].pk}/")
        text = page.content()
        assert OPEN in page.locator("#notes").inner_text()
        assert SECRET not in text and "Add a note" not in text
        assert page.locator("#notes .badge").count() == 0
        no_sideways_scroll(page, width)
        assert_accessible(page)
        shot(page, f"17-notes-kingdom-player-{width}")
        page.goto(f"{live_server.url}/c/told/map/?tile={world['tile'].label}")
        panel = page.locator("#tile-panel")
        assert OPEN in panel.inner_text() and SECRET not in page.content()
        page.goto(f"{live_server.url}/c/told/chronicle/")
        events = page.locator("#events").inner_text()
        assert "GM-only" not in events and SECRET not in events
        assert events.count("Shared note added") == 2
        assert_accessible(page)
    finally:
        context.close()


@pytest.mark.parametrize("width", [390, 1280])
def test_the_gm_writes_a_chronicle_entry_with_a_photo(live_server: Any, browser: Any,
                                                      width: int, tmp_path: Path) -> None:
    world = _world()
    photo = tmp_path / "table.png"
    photo.write_bytes(make_png((900, 600), colour="#2b4a6f").getvalue())
    context, page = signed_in(browser, live_server, world["gm"], width)
    try:
        page.goto(f"{live_server.url}/c/told/chronicle/")
        page.get_by_role("link", name="Write in the chronicle").click()
        page.get_by_label("Title").fill("The long winter")
        page.get_by_label("The story").fill("Snow lay on the passes.\n\nRed waited for spring.")
        page.get_by_label("Photo").set_input_files(str(photo))
        assert_accessible(page)
        page.get_by_role("button", name="Write it in").click()
        page.wait_for_url("**/chronicle/#event-*")
        entry = ChronicleEntry.objects.get()
        story = page.locator(f"#event-{entry.event.seq} .story-entry")
        assert story.locator("h3").inner_text() == "The long winter"
        assert story.locator(".story-text p").all_inner_texts() == [
            "Snow lay on the passes.", "Red waited for spring."]
        image = story.locator("img.story-photo")
        # A lazy image loads once on screen, and a moment after the page's own load.
        image.scroll_into_view_if_needed()
        page.wait_for_function("img => img.complete && img.naturalWidth > 0",
                               arg=image.element_handle(), timeout=10_000)
        assert image.evaluate("img => img.naturalWidth") == 320
        no_sideways_scroll(page, width)
        assert_accessible(page)
        shot(page, f"17-chronicle-entry-gm-{width}")
    finally:
        context.close()
    context, page = signed_in(browser, live_server, world["red_user"], width)
    try:
        page.goto(f"{live_server.url}/c/told/chronicle/")
        story = page.locator(".story-entry")
        assert story.locator("h3").inner_text() == "The long winter"
        assert "Change or remove this entry" not in page.content()
        assert_accessible(page)
        shot(page, f"17-chronicle-entry-player-{width}")
    finally:
        context.close()
