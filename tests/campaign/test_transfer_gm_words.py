"""The unit catalogue, notes and chronicle entries in the campaign file (version 4): they
round-trip, a version 3 file imports without them, and bad ones are refused naming where."""

from __future__ import annotations

import copy
import json
from typing import Any, Callable

import pytest
from django.contrib.auth.models import User

from battles import catalogue
from battles.models import UnitProfile
from battles.rules.catalogue import ProfileEntry
from campaign import notes, transfer
from campaign.models import Campaign, ChronicleEntry, Note, Tile
from tests.campaign.conftest import as_imported, image_bytes, without_import_event
from tests.conftest import make_campaign

pytestmark = pytest.mark.django_db


@pytest.fixture
def told(gm: User) -> Campaign:
    """A campaign run by its GM alone, with a catalogue, notes of both kinds and entries."""
    campaign = make_campaign(gm, slug="told")
    red = campaign.kingdoms.create(name="Red", colour="#aa0000")
    tile = Tile.objects.filter(map__campaign=campaign).order_by("label").first()
    catalogue.import_profiles(campaign, [
        ProfileEntry("Ironguard", "regiment", 145, 2, "Sp 4 Me 3+", "Headstrong, Shield Wall"),
        ProfileEntry("Ironguard", "horde", 240, 3),
        ProfileEntry("Scouts", "troop", 60)], gm)
    notes.add_note(campaign, gm, text="Red plots against Blue.", shared=False, kingdom=red)
    notes.add_note(campaign, gm, text="Bandits here.\nTwo of them.", shared=True, tile=tile)
    notes.add_entry(campaign, gm, title="The first summer", text="Banners went up.\n\nRain.",
                    upload=image_bytes((300, 200)))
    quiet = notes.add_entry(campaign, gm, title="", text="A quiet month.")
    notes.update_entry(quiet, gm, title="", text="A very quiet month.")
    return campaign


def test_the_catalogue_notes_and_entries_round_trip(told: Campaign, gm: User) -> None:
    data = json.loads(transfer.dumps(transfer.export_campaign(told)))
    body = data["campaign"]
    assert data["version"] == 4
    assert body["unit_catalogue"] == [
        {"name": "Ironguard", "type": "horde", "points": 240, "base_us": 3, "stats": "",
         "special_rules": ""},
        {"name": "Ironguard", "type": "regiment", "points": 145, "base_us": 2,
         "stats": "Sp 4 Me 3+", "special_rules": "Headstrong, Shield Wall"},
        {"name": "Scouts", "type": "troop", "points": 60, "base_us": None, "stats": "",
         "special_rules": ""}]
    assert [(n["kingdom"], n["tile"], n["shared"]) for n in body["notes"]] == [
        ("Red", None, False), (None, "0101", True)]
    entries = body["chronicle_entries"]
    assert [(e["title"], e["text"], e["image"] is not None) for e in entries] == [
        ("The first summer", "Banners went up.\n\nRain.", True),
        ("", "A very quiet month.", False)]
    written = {e["seq"]: e["kind"] for e in body["events"]}
    assert [written[e["event"]] for e in entries] == ["chronicle.entry", "chronicle.entry"]

    copy_ = transfer.import_campaign(data, gm, slug="told-again")
    assert without_import_event(transfer.export_campaign(copy_), "gm") == as_imported(data, "gm")
    entry = ChronicleEntry.objects.get(campaign=copy_, title="The first summer")
    assert entry.event.seq == entries[0]["event"] and entry.event.campaign_id == copy_.pk
    assert entry.thumbnail.storage.exists(entry.thumbnail.name)
    assert entry.image.width == 300
    assert Note.objects.filter(campaign=copy_, shared=False).get().kingdom.name == "Red"
    assert UnitProfile.objects.filter(campaign=copy_).count() == 3


def test_a_version_3_file_imports_with_no_catalogue_notes_or_entries(told: Campaign,
                                                                     gm: User) -> None:
    data = json.loads(transfer.dumps(transfer.export_campaign(told)))
    for key in ("unit_catalogue", "notes", "chronicle_entries"):
        data["campaign"].pop(key)
    data["version"] = 3
    copy_ = transfer.import_campaign(data, gm, slug="old-file")
    assert (UnitProfile.objects.filter(campaign=copy_).count(),
            Note.objects.filter(campaign=copy_).count(),
            ChronicleEntry.objects.filter(campaign=copy_).count()) == (0, 0, 0)
    assert copy_.events.filter(kind="chronicle.entry").count() == 2  # the events stay


Change = Callable[[dict[str, Any]], Any]


@pytest.mark.parametrize("change, expected", [
    (lambda b: b["notes"][0].update(kingdom="Nowhere"),
     "campaign.notes[0].kingdom: no kingdom is named 'Nowhere'."),
    (lambda b: b["notes"][1].update(tile="9999"),
     "campaign.notes[1].tile: the map has no tile '9999'."),
    (lambda b: b["notes"][0].update(tile="0101"),
     "campaign.notes[0]: a note names one kingdom or one tile."),
    (lambda b: b["notes"][0].update(text=""), "campaign.notes[0].text: must not be empty."),
    (lambda b: b["chronicle_entries"][0].update(event=999),
     "campaign.chronicle_entries[0].event: the chronicle has no event #999."),
    (lambda b: b["chronicle_entries"][0].update(image="bm90IGFuIGltYWdl"),
     "campaign.chronicle_entries[0].image:"),
    (lambda b: b["unit_catalogue"].append(dict(b["unit_catalogue"][0])),
     "campaign.unit_catalogue[3]: the profile Ironguard (horde) is listed twice"),
    (lambda b: b["unit_catalogue"][0].update(points=0),
     "campaign.unit_catalogue[0].points: must be at least 1, got 0."),
])
def test_bad_parts_are_refused_naming_where_and_nothing_is_written(
        told: Campaign, gm: User, change: Change, expected: str) -> None:
    data = copy.deepcopy(transfer.export_campaign(told))
    change(data["campaign"])
    campaigns = Campaign.objects.count()
    with pytest.raises(transfer.ImportRefused) as info:
        transfer.import_campaign(data, gm, slug="refused")
    assert str(info.value).startswith(expected)
    assert Campaign.objects.count() == campaigns


