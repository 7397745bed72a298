"""The GM's own words, for every rule system: notes on kingdoms and tiles (GM-only or shared)
and hand-written chronicle entries. A GM-only note reaches nobody but the GMs: not the kingdom
page, the tile panel, the chronicle, the live poll's version, or a campaign file (only a GM may
export one). Every write is an event the GM can undo, and only a GM writes."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from campaign import notes
from campaign.chronicle import snapshot, undo_latest
from campaign.models import ChronicleEntry, Event, Note, Tile, Visibility
from tests.campaign.conftest import PERSONAS, World, error_text, image_bytes, media_files

pytestmark = pytest.mark.django_db

SECRET = "The duke of Red is a traitor"
OPEN = "The harbour of Red is closed by ice"
READERS = ("observer", "player", "other_player")


def tile_of(world: World) -> Tile:
    return Tile.objects.filter(map__campaign=world.campaign).order_by("label").first()


def both_notes(world: World, **target: Any) -> tuple[Note, Note]:
    secret = notes.add_note(world.campaign, world.gm, text=SECRET, shared=False, **target)
    shared = notes.add_note(world.campaign, world.gm, text=OPEN, shared=True, **target)
    return secret, shared


def rows() -> dict[str, list[dict[str, Any]]]:
    return {"notes": [snapshot(n) for n in Note.objects.order_by("pk")],
            "entries": [snapshot(e) for e in ChronicleEntry.objects.order_by("pk")]}


@pytest.mark.parametrize("persona", PERSONAS)
def test_kingdom_notes_by_role(world: World, persona: str) -> None:
    both_notes(world, kingdom=world.red)
    response = world.client(persona).get(
        reverse("campaign:kingdom", args=[world.campaign.slug, world.red.pk]))
    expected = {"anonymous": 302, "outsider": 404}.get(persona, 200)
    assert response.status_code == expected
    text = response.content.decode()
    assert SECRET not in text if persona not in ("gm", "admin") else SECRET in text
    if expected == 200:
        assert OPEN in text
        assert ("Add a note" in text) == (persona in ("gm", "admin"))


@pytest.mark.parametrize("persona", PERSONAS)
def test_tile_notes_by_role_in_the_panel_and_the_map_page(world: World, persona: str) -> None:
    tile = tile_of(world)
    both_notes(world, tile=tile)
    client = world.client(persona)
    panel = client.get(reverse("campaign:tile", args=[world.campaign.slug, tile.label]),
                       HTTP_HX_REQUEST="true")
    page = client.get(reverse("campaign:map", args=[world.campaign.slug]), {"tile": tile.label})
    expected = {"anonymous": 302, "outsider": 404}.get(persona, 200)
    assert (panel.status_code, page.status_code) == (expected, expected)
    for response in (panel, page):
        text = response.content.decode()
        assert (SECRET in text) == (persona in ("gm", "admin"))
        assert (OPEN in text) == (expected == 200)


def test_a_gm_only_note_leaves_no_trace_for_players_in_the_chronicle_or_the_live_poll(
        world: World) -> None:
    live = reverse("campaign:live", args=[world.campaign.slug])
    chronicle = reverse("campaign:chronicle", args=[world.campaign.slug])
    before = {p: world.client(p).get(live)["X-Live-Version"] for p in READERS + ("gm",)}
    secret = notes.add_note(world.campaign, world.gm, text=SECRET, shared=False,
                            kingdom=world.red)
    notes.update_note(secret, world.gm, text=SECRET + "!", shared=False)
    after = {p: world.client(p).get(live)["X-Live-Version"] for p in READERS + ("gm",)}
    assert {p: after[p] == before[p] for p in READERS} == {p: True for p in READERS}
    assert int(after["gm"]) == int(before["gm"]) + 2
    for persona in READERS:
        page = world.client(persona).get(chronicle).content.decode()
        assert "note" not in error_text(world.client(persona).get(chronicle)).lower()
        assert SECRET not in page
    gm_page = error_text(world.client("gm").get(chronicle))
    assert "GM-only note added on kingdom Red." in gm_page
    assert SECRET not in gm_page  # summaries never quote a note
    shared = notes.add_note(world.campaign, world.gm, text=OPEN, shared=True, kingdom=world.red)
    assert Event.objects.get(kind="note.added", visibility=Visibility.PUBLIC).summary == (
        "Shared note added on kingdom Red.")
    for persona in READERS:
        assert int(world.client(persona).get(live)["X-Live-Version"]) > int(before[persona])
    # Taking a shared note back from the players is news to them; its words stay unsaid.
    notes.update_note(shared, world.gm, text=OPEN, shared=False)
    event = Event.objects.order_by("-seq").first()
    assert (event.visibility, event.summary) == (
        Visibility.PUBLIC, "A shared note on kingdom Red is now for the GMs only.")
    assert OPEN not in world.client("player").get(
        reverse("campaign:kingdom", args=[world.campaign.slug, world.red.pk])).content.decode()


@pytest.mark.parametrize("persona", ["anonymous", "outsider", "observer", "player",
                                     "other_player"])
def test_only_a_gm_writes_notes_and_entries(world: World, persona: str) -> None:
    secret, _shared = both_notes(world, kingdom=world.red)
    entry = notes.add_entry(world.campaign, world.gm, title="Spring", text="The thaw came.")
    slug = world.campaign.slug
    tile = tile_of(world)
    before = rows()
    client = world.client(persona)
    answers = [
        client.post(reverse("campaign:kingdom_note_add", args=[slug, world.red.pk]),
                    {"text": "mine", "shared": "on"}).status_code,
        client.post(reverse("campaign:tile_note_add", args=[slug, tile.label]),
                    {"text": "mine"}).status_code,
        client.get(reverse("campaign:note_edit", args=[slug, secret.pk])).status_code,
        client.post(reverse("campaign:note_edit", args=[slug, secret.pk]),
                    {"text": "changed", "shared": "on"}).status_code,
        client.post(reverse("campaign:note_remove", args=[slug, secret.pk])).status_code,
        client.get(reverse("campaign:entry_write", args=[slug])).status_code,
        client.post(reverse("campaign:entry_write", args=[slug]),
                    {"text": "My story"}).status_code,
        client.post(reverse("campaign:entry_edit", args=[slug, entry.pk]),
                    {"text": "Changed"}).status_code,
        client.post(reverse("campaign:entry_remove", args=[slug, entry.pk])).status_code,
    ]
    refused = {"anonymous": 302, "outsider": 404}.get(persona, 403)
    assert answers == [refused] * len(answers)
    assert rows() == before
    if persona != "anonymous":
        page = client.get(reverse("campaign:note_edit", args=[slug, secret.pk]))
        assert SECRET not in page.content.decode()


def test_the_gm_writes_changes_and_removes_notes_through_the_pages(world: World) -> None:
    client = world.client("gm")
    slug = world.campaign.slug
    tile = tile_of(world)
    added = client.post(reverse("campaign:tile_note_add", args=[slug, tile.label]),
                        {"text": "  Bandits hide here.  "})
    assert added.status_code == 302
    assert added["Location"] == f"/c/{slug}/map/?tile={tile.label}#notes"
    note = Note.objects.get()
    assert (note.text, note.shared, note.tile_id, note.kingdom_id) == (
        "Bandits hide here.", False, tile.pk, None)
    assert client.post(reverse("campaign:note_edit", args=[slug, note.pk]),
                       {"text": "Bandits hide here.", "shared": "on"}).status_code == 302
    assert Note.objects.get().shared is True
    empty = client.post(reverse("campaign:kingdom_note_add", args=[slug, world.red.pk]),
                        {"text": "   "})
    assert empty.status_code == 400 and "This field is required." in error_text(empty)
    foreign = Note.objects.create(campaign=world.elsewhere, kingdom=world.elsewhere.kingdoms
                                  .create(name="Far", colour="#123456"), text="far")
    assert client.post(reverse("campaign:note_remove", args=[slug, foreign.pk])).status_code \
        == 404
    assert client.post(reverse("campaign:note_remove", args=[slug, note.pk])).status_code == 302
    assert list(Note.objects.filter(campaign=world.campaign)) == []


@pytest.mark.parametrize("action", ["add", "change", "share", "remove"])
def test_every_note_write_is_undone_exactly(world: World, action: str) -> None:
    note = notes.add_note(world.campaign, world.gm, text=SECRET, shared=False,
                          tile=tile_of(world))
    before = rows()
    if action == "add":
        notes.add_note(world.campaign, world.gm, text=OPEN, shared=True, kingdom=world.blue)
    elif action == "change":
        notes.update_note(note, world.gm, text="Another thought", shared=False)
    elif action == "share":
        notes.update_note(note, world.gm, text=SECRET, shared=True)
    else:
        notes.remove_note(note, world.gm)
    assert rows() != before
    undo = undo_latest(world.campaign, world.gm)
    assert rows() == before
    # The undo is as secret as what it undid.
    undone = undo.undo_of
    assert undo.visibility == undone.visibility


@pytest.mark.parametrize("persona", PERSONAS)
def test_a_chronicle_entry_with_its_photo_reads_the_same_for_every_member(
        world: World, persona: str) -> None:
    response = world.client("gm").post(
        reverse("campaign:entry_write", args=[world.campaign.slug]),
        {"title": "The long winter", "text": "Snow fell on Red.\n\nBlue waited.",
         "photo": image_bytes((800, 600))})
    entry = ChronicleEntry.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/c/{world.campaign.slug}/chronicle/#event-{entry.event.seq}"
    page = world.client(persona).get(reverse("campaign:chronicle", args=[world.campaign.slug]))
    expected = {"anonymous": 302, "outsider": 404}.get(persona, 200)
    assert page.status_code == expected
    if expected == 200:
        text = page.content.decode()
        assert "The long winter" in text and "<p>Snow fell on Red.</p>" in text
        assert entry.thumbnail.url in text
        assert ("Change or remove this entry" in text) == (persona in ("gm", "admin"))
        assert ("Write in the chronicle" in text) == (persona in ("gm", "admin"))


def test_a_chronicle_entry_is_undone_with_its_photo_files(
        world: World, django_capture_on_commit_callbacks: Any) -> None:
    files = media_files()
    entry = notes.add_entry(world.campaign, world.gm, title="", text="A quiet month.",
                            upload=image_bytes())
    assert entry.event.summary == "Chronicle entry: A quiet month."
    assert len(media_files()) == len(files) + 2
    with django_capture_on_commit_callbacks(execute=True):
        undo_latest(world.campaign, world.gm)
    assert ChronicleEntry.objects.count() == 0
    assert media_files() == files


@pytest.mark.parametrize("action", ["change", "new photo", "drop photo", "remove"])
def test_every_entry_write_is_undone_exactly(world: World, action: str) -> None:
    entry = notes.add_entry(world.campaign, world.gm, title="Spring", text="The thaw came.",
                            upload=image_bytes())
    before = rows()
    if action == "change":
        notes.update_entry(entry, world.gm, title="Spring", text="The thaw came late.")
    elif action == "new photo":
        notes.update_entry(entry, world.gm, title="Spring", text="The thaw came.",
                           upload=image_bytes(colour="blue"))
    elif action == "drop photo":
        notes.update_entry(entry, world.gm, title="Spring", text="The thaw came.",
                           drop_photo=True)
    else:
        notes.remove_entry(entry, world.gm)
    assert rows() != before
    undo_latest(world.campaign, world.gm)
    assert rows() == before
    restored = ChronicleEntry.objects.get()
    assert restored.image.storage.exists(restored.image.name)


def test_an_entry_refuses_a_file_that_is_no_image_and_writes_nothing(world: World) -> None:
    from io import BytesIO

    fake = BytesIO(b"not an image at all")
    fake.name = "story.png"
    events = Event.objects.count()
    response = world.client("gm").post(
        reverse("campaign:entry_write", args=[world.campaign.slug]),
        {"text": "Words", "photo": fake})
    assert response.status_code == 400
    assert "not a readable PNG, JPEG or WebP image" in error_text(response)
    assert "Words" in response.content.decode()  # what was typed stays
    assert Event.objects.count() == events and ChronicleEntry.objects.count() == 0


@pytest.mark.parametrize("persona", PERSONAS)
def test_only_a_gm_exports_the_campaign_file_that_carries_gm_only_notes(
        world: World, persona: str) -> None:
    both_notes(world, kingdom=world.red)
    response = world.client(persona).get(reverse("campaign:export",
                                                 args=[world.campaign.slug]))
    expected = {"anonymous": 302, "outsider": 404, "gm": 200, "admin": 200}.get(persona, 403)
    assert response.status_code == expected
    assert (SECRET in response.content.decode()) == (expected == 200)


def test_the_media_sweep_keeps_the_photos_of_chronicle_entries(world: World) -> None:
    import io

    from django.core.management import call_command

    entry = notes.add_entry(world.campaign, world.gm, title="", text="Spring.",
                            upload=image_bytes())
    replaced = ChronicleEntry.objects.get(pk=entry.pk)
    notes.update_entry(entry, world.gm, title="", text="Spring.", upload=image_bytes(colour="blue"))
    out = io.StringIO()
    call_command("prune_media", "--delete", stdout=out)
    assert out.getvalue().splitlines() == ["Deleted 0 file(s)."]
    kept = ChronicleEntry.objects.get(pk=entry.pk)
    for name in (kept.image.name, kept.thumbnail.name, replaced.image.name):
        assert kept.image.storage.exists(name)  # the replaced photo comes back with an undo


def test_the_overview_shows_an_entry_in_its_events_place_and_reads_entries_only_when_one_is_there(
        world: World) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    overview = reverse("campaign:detail", args=[world.campaign.slug])
    client = world.client("player")

    def entry_queries() -> tuple[str, int]:
        with CaptureQueriesContext(connection) as queries:
            page = client.get(overview)
        assert page.status_code == 200
        read = sum('"campaign_chronicleentry"' in q["sql"] and "EXISTS" not in q["sql"]
                   for q in queries.captured_queries)
        return page.content.decode(), read

    text, read = entry_queries()
    assert 'class="story-entry"' not in text and read == 0  # no entry: none read
    entry = notes.add_entry(world.campaign, world.gm, title="The long winter",
                            text="Snow fell on Red.")
    text, read = entry_queries()
    assert read == 1
    assert f'id="event-{entry.event.seq}" class=" story"' in text
    assert "The long winter" in text and "<p>Snow fell on Red.</p>" in text
