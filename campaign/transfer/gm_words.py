"""The campaign's unit catalogue and the GM's own words in a campaign file (version 4 on):
``unit_catalogue``, ``notes`` and ``chronicle_entries`` of the campaign object.

Files of versions 1 to 3 have none of them and import with an empty catalogue, no notes and no
entries. Notes keep whether they are shared: only a GM may export a campaign
(campaign.views.transfer), so GM-only notes travel only in a GM's file. docs/campaign-file.md
describes every field.
"""

from __future__ import annotations

import base64
from typing import Any, Callable

from django.core.files.storage import default_storage

from battles.models import UnitProfile
from campaign.models import Campaign, ChronicleEntry, Event, Kingdom, Note, Tile
from campaign.transfer.base import (
    ImportRefused,
    Node,
    bulk_create,
    clock_fields,
    insert_as_given,
    iso,
    max_length,
    row_clock,
    unique,
)

# -- export --------------------------------------------------------------------------------------


def _b64_file(name: str) -> str | None:
    if not name:
        return None
    try:
        with default_storage.open(name, "rb") as handle:
            return base64.b64encode(handle.read()).decode("ascii")
    except (FileNotFoundError, OSError):
        return None  # the file is gone from storage: the entry travels without it


def export_gm_words(campaign: Campaign) -> dict[str, Any]:
    profiles = [
        {"name": p["name"], "type": p["unit_type"], "points": p["points"],
         "base_us": p["base_us"], "stats": p["stats"], "special_rules": p["special_rules"]}
        for p in UnitProfile.objects.filter(campaign=campaign).order_by("name", "unit_type")
        .values("name", "unit_type", "points", "base_us", "stats", "special_rules")
    ]
    notes = [
        {"kingdom": n["kingdom__name"], "tile": n["tile__label"], "text": n["text"],
         "shared": n["shared"], "author": n["author__username"],
         "created_at": iso(n["created_at"])}
        for n in Note.objects.filter(campaign=campaign).order_by("created_at", "pk")
        .values("kingdom__name", "tile__label", "text", "shared", "author__username",
                "created_at")
    ]
    entries = [
        {"title": e["title"], "text": e["text"], "author": e["author__username"],
         "event": e["event__seq"], "clock": row_clock(e), "created_at": iso(e["created_at"]),
         "image": _b64_file(e["image"])}
        for e in ChronicleEntry.objects.filter(campaign=campaign).order_by("created_at", "pk")
        .values("title", "text", "author__username", "event__seq", "year", "season", "month",
                "phase", "created_at", "image")
    ]
    return {"unit_catalogue": profiles, "notes": notes, "chronicle_entries": entries}


# -- import: check -------------------------------------------------------------------------------


def plan_gm_words(root: Node, kingdoms: set[str], tiles: set[str],
                  seqs: set[int]) -> dict[str, list[dict[str, Any]]]:
    """Check the three parts (absent in files before version 4: empty)."""
    profiles: list[dict[str, Any]] = []
    seen: dict[Any, str] = {}
    for node in root.nodes("unit_catalogue", default=[]):
        spec = {
            "name": node.text("name", max_length=max_length(UnitProfile, "name"), blank=False),
            "unit_type": node.text("type", max_length=max_length(UnitProfile, "unit_type"),
                                   blank=False),
            "points": node.integer("points", minimum=1, maximum=32767),
            "base_us": node.integer("base_us", minimum=0, maximum=32767, default=None,
                                    null=True),
            "stats": node.text("stats", max_length=max_length(UnitProfile, "stats"),
                               default=""),
            "special_rules": node.text(
                "special_rules", max_length=max_length(UnitProfile, "special_rules"),
                default=""),
        }
        unique(seen, (spec["name"], spec["unit_type"]), node.path,
               f"the profile {spec['name']} ({spec['unit_type']})")
        profiles.append(spec)

    notes: list[dict[str, Any]] = []
    for node in root.nodes("notes", default=[]):
        kingdom = node.optional_text("kingdom", max_length=max_length(Kingdom, "name"))
        tile = node.optional_text("tile", max_length=max_length(Tile, "label"))
        if (kingdom is None) == (tile is None):
            raise ImportRefused(f"{node.path}: a note names one kingdom or one tile.")
        if kingdom is not None and kingdom not in kingdoms:
            raise ImportRefused(f"{node.at('kingdom')}: no kingdom is named {kingdom!r}.")
        if tile is not None and tile not in tiles:
            raise ImportRefused(f"{node.at('tile')}: the map has no tile {tile!r}.")
        notes.append({
            "kingdom": kingdom, "tile": tile,
            "text": node.text("text", max_length=Note._meta.get_field("text").max_length,
                              blank=False),
            "shared": node.boolean("shared", default=False),
            "author": node.optional_text("author", max_length=150),
            "created_at": node.timestamp("created_at"),
        })

    entries: list[dict[str, Any]] = []
    for node in root.nodes("chronicle_entries", default=[]):
        event = node.integer("event", minimum=1, default=None, null=True)
        if event is not None and event not in seqs:
            raise ImportRefused(f"{node.at('event')}: the chronicle has no event #{event}.")
        entries.append({
            "title": node.text("title", max_length=max_length(ChronicleEntry, "title"),
                               default=""),
            "text": node.text("text", max_length=ChronicleEntry._meta.get_field("text")
                              .max_length, blank=False),
            "author": node.optional_text("author", max_length=150),
            "event": event,
            **clock_fields(node, "clock"),
            "created_at": node.timestamp("created_at"),
            "image": node.image("image", kind="photo"),
        })
    return {"unit_catalogue": profiles, "notes": notes, "chronicle_entries": entries}


# -- import: write -------------------------------------------------------------------------------


def write_gm_words(plan: dict[str, list[dict[str, Any]]], campaign: Campaign,
                   kingdoms: dict[str, Kingdom], tiles: dict[str, Tile],
                   events: dict[int, Event], who: Callable[[str | None], Any],
                   save_file: Callable[[Any, str, bytes], None]) -> None:
    if not plan:
        return
    bulk_create(UnitProfile, [UnitProfile(campaign=campaign, **spec)
                              for spec in plan["unit_catalogue"]])
    insert_as_given(Note, [
        Note(campaign=campaign,
             kingdom=kingdoms[spec["kingdom"]] if spec["kingdom"] else None,
             tile=tiles[spec["tile"]] if spec["tile"] else None,
             text=spec["text"], shared=spec["shared"], author=who(spec["author"]),
             created_at=spec["created_at"])
        for spec in plan["notes"]
    ])
    entries = []
    for spec in plan["chronicle_entries"]:
        entry = ChronicleEntry(
            campaign=campaign, title=spec["title"], text=spec["text"],
            author=who(spec["author"]),
            event=events[spec["event"]] if spec["event"] is not None else None,
            year=spec["year"], season=spec["season"], month=spec["month"],
            phase=spec["phase"], created_at=spec["created_at"])
        if spec["image"] is not None:
            save_file(entry.image, "photo.jpg", spec["image"].content)
            save_file(entry.thumbnail, "thumb.jpg", spec["image"].thumbnail)
        entries.append(entry)
    insert_as_given(ChronicleEntry, entries)
