"""The GM's own words: notes on a kingdom or a tile, and hand-written chronicle entries.

Every write is one chronicle event the GM can undo. A note is the GM's alone unless it is
shared: a GM-only note's events are GM-only too, so neither a player's chronicle nor the live
poll's version (campaign.live) moves when one is written, and nobody else learns it exists. An
event that touches a shared note (or makes a note shared, or takes a shared one back) is public,
since it changes what players see; its summary never quotes a note.

A chronicle entry is a story paragraph, with an optional photo of the table (re-encoded by
``campaign.images.process_photo``); the chronicle shows it in the place of the event that added
it, and the campaign book prints it (campaign.pdf).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Exists, OuterRef, Q, QuerySet

from campaign.access import Access
from campaign.chronicle import Recorder
from campaign.images import delete_files, process_photo
from campaign.kept_sql import kept_rows
from campaign.locking import lock_campaign
from campaign.models import Campaign, ChronicleEntry, Event, Kingdom, Note, Tile, Visibility
from campaign.services import ServiceError

NOTE_LENGTH = 4000
ENTRY_LENGTH = 6000
TITLE_LENGTH = 120


# -- reading -------------------------------------------------------------------------------------


def visible_notes(access: Access) -> QuerySet[Note]:
    """The campaign's notes this viewer may read: every note for a GM, shared ones otherwise."""
    notes = Note.objects.filter(campaign=access.campaign).select_related("author")
    return notes if access.is_gm else notes.filter(shared=True)


def _notes_on(campaign_id: int, target_id: int, *, gm: bool, on: str) -> QuerySet[Note]:
    notes = Note.objects.filter(campaign_id=campaign_id).select_related("author")
    if not gm:
        notes = notes.filter(shared=True)
    return notes.filter(**{f"{on}_id": target_id})


def notes_on(access: Access, *, kingdom: Kingdom | None = None,
             tile: Tile | None = None) -> list[Note]:
    """The notes on ``kingdom`` (or else ``tile``) this viewer may read, as ``visible_notes``
    chooses them, oldest first: one query, its SQL kept (``kept_sql.kept_rows``)."""
    on, target = ("kingdom", kingdom) if kingdom is not None else ("tile", tile)
    if target is None:
        return []
    gm = access.is_gm
    return kept_rows(("notes_on", on, gm),
                     lambda c, t: _notes_on(c, t, gm=gm, on=on),
                     access.campaign.pk, target.pk, known={"campaign": access.campaign})


def entries_for(events: Any) -> dict[int, ChronicleEntry]:
    """The chronicle entries written by ``events`` (one query), by event id. Events read
    through ``with_entry_flags`` say whether they wrote one: when none did, no query."""
    ids = [e.pk for e in events]
    if not ids or all(getattr(e, "has_entry", None) is False for e in events):
        return {}
    return {entry.event_id: entry
            for entry in ChronicleEntry.objects.filter(event_id__in=ids).order_by("pk")}


def with_entry_flags(events: QuerySet[Event]) -> QuerySet[Event]:
    """``events``, each with ``has_entry``: whether a chronicle entry stands in its place (an
    EXISTS in the same query, so that a page of events without entries reads none)."""
    return events.annotate(has_entry=Exists(ChronicleEntry.objects.filter(event=OuterRef("pk"))))


def _latest_events(campaign_id: int, kingdom_id: int | None = None, *, gm: bool = False,
                   count: int = 8) -> QuerySet[Event]:
    events = (Event.objects.filter(campaign_id=campaign_id).select_related("actor", "kingdom")
              .defer("changes"))
    if not gm:
        allowed = Q(visibility=Visibility.PUBLIC)
        if kingdom_id is not None:
            allowed |= Q(visibility=Visibility.KINGDOM, kingdom_id=kingdom_id)
        events = events.filter(allowed)
    return with_entry_flags(events)[:count]


def latest_events(access: Access, count: int = 8) -> list[Event]:
    """The latest ``count`` events this viewer may read (as ``access.visible_events`` chooses
    them), latest first, each with ``has_entry`` and its campaign, without their before-images
    (``changes``, which a list of events does not show): one query, its SQL kept
    (``kept_sql.kept_rows``)."""
    campaign = access.campaign
    known = {"campaign": campaign}
    if access.is_gm:
        return kept_rows(("latest_events", "gm", count),
                         lambda c: _latest_events(c, gm=True, count=count), campaign.pk,
                         known=known)
    if access.kingdom is not None:
        return kept_rows(("latest_events", "kingdom", count),
                         lambda c, k: _latest_events(c, k, count=count), campaign.pk,
                         access.kingdom.pk, known=known)
    return kept_rows(("latest_events", "public", count),
                     lambda c: _latest_events(c, count=count), campaign.pk, known=known)


def visible_entries(access: Access) -> list[ChronicleEntry]:
    """The story so far, oldest first: every entry whose event this viewer may read (entries
    are written in public events; the check keeps it so should that change)."""
    entries = ChronicleEntry.objects.filter(campaign=access.campaign).select_related("event")
    return [e for e in entries.order_by("created_at", "pk")
            if e.event is None or access.can_see_event(e.event)]


# -- notes ---------------------------------------------------------------------------------------


def _target(note: Note) -> str:
    if note.kingdom_id is not None:
        return f"kingdom {note.kingdom.name}"
    return f"tile {note.tile.label}"


def _kind(shared: bool) -> str:
    """How a note's events name it, at the start of a summary."""
    return "Shared note" if shared else "GM-only note"


def _clean_text(text: str) -> str:
    text = text.strip().replace("\r\n", "\n")
    if not text:
        raise ServiceError("Write something in the note.")
    if len(text) > NOTE_LENGTH:
        raise ServiceError(f"A note holds at most {NOTE_LENGTH} characters.")
    return text


def add_note(campaign: Campaign, user: Any, *, text: str, shared: bool,
             kingdom: Kingdom | None = None, tile: Tile | None = None) -> Note:
    if (kingdom is None) == (tile is None):
        raise ServiceError("A note belongs to one kingdom or one tile.")
    text = _clean_text(text)
    with transaction.atomic():
        campaign = lock_campaign(campaign)
        note = Note(campaign=campaign, kingdom=kingdom, tile=tile, text=text, shared=shared,
                    author=user if getattr(user, "is_authenticated", False) else None)
        with Recorder(campaign, user, "note.added",
                      f"{_kind(shared)} added on {_target(note)}.",
                      visibility=Visibility.PUBLIC if shared else Visibility.GM) as rec:
            rec.create(note)
    return note


def update_note(note: Note, user: Any, *, text: str, shared: bool) -> Note:
    text = _clean_text(text)
    with transaction.atomic():
        campaign = lock_campaign(note.campaign)
        note = (Note.objects.select_for_update(of=("self",)).select_related("kingdom", "tile")
                .filter(pk=note.pk).first())
        if note is None:
            raise ServiceError("That note is no longer there.")
        if note.text == text and note.shared == shared:
            raise ServiceError("Nothing to change: the note already reads so.")
        if note.shared == shared:
            summary = f"{_kind(shared)} on {_target(note)} changed."
        elif shared:
            summary = f"A note on {_target(note)} is now shared with the players."
        else:
            summary = f"A shared note on {_target(note)} is now for the GMs only."
        public = shared or note.shared
        with Recorder(campaign, user, "note.changed", summary,
                      visibility=Visibility.PUBLIC if public else Visibility.GM) as rec:
            rec.update(note, text=text, shared=shared)
    return note


def remove_note(note: Note, user: Any) -> None:
    with transaction.atomic():
        campaign = lock_campaign(note.campaign)
        note = (Note.objects.select_for_update(of=("self",)).select_related("kingdom", "tile")
                .filter(pk=note.pk).first())
        if note is None:
            raise ServiceError("That note is no longer there.")
        with Recorder(campaign, user, "note.removed",
                      f"{_kind(note.shared)} removed from {_target(note)}.",
                      visibility=Visibility.PUBLIC if note.shared else Visibility.GM) as rec:
            rec.delete(note)


# -- chronicle entries ---------------------------------------------------------------------------


def _clean_entry(title: str, text: str) -> tuple[str, str]:
    title = " ".join(title.split())
    text = text.strip().replace("\r\n", "\n")
    if not text:
        raise ServiceError("Write the entry's paragraph.")
    if len(text) > ENTRY_LENGTH:
        raise ServiceError(f"An entry holds at most {ENTRY_LENGTH} characters.")
    if len(title) > TITLE_LENGTH:
        raise ServiceError(f"A title holds at most {TITLE_LENGTH} characters.")
    return title, text


def _headline(title: str, text: str) -> str:
    if title:
        return title
    first = " ".join(text.split())
    return first if len(first) <= 60 else first[:57].rstrip() + "…"


def _store_photo(entry: ChronicleEntry, upload: Any, written: list[str]) -> None:
    image, thumb = process_photo(upload)
    entry.image.save(image.name, image, save=False)
    written.append(entry.image.name)
    entry.thumbnail.save(thumb.name, thumb, save=False)
    written.append(entry.thumbnail.name)


def add_entry(campaign: Campaign, user: Any, *, title: str, text: str,
              upload: Any = None) -> ChronicleEntry:
    """Write a paragraph into the chronicle (a refused photo raises ``ImageRejected`` before
    anything is written)."""
    title, text = _clean_entry(title, text)
    written: list[str] = []
    try:
        with transaction.atomic():
            campaign = lock_campaign(campaign)
            entry = ChronicleEntry(
                campaign=campaign, title=title, text=text,
                author=user if getattr(user, "is_authenticated", False) else None,
                year=campaign.year, season=campaign.season, month=campaign.month,
                phase=campaign.phase)
            if upload is not None:
                _store_photo(entry, upload, written)
            with Recorder(campaign, user, "chronicle.entry",
                          f"Chronicle entry: {_headline(title, text)}") as rec:
                rec.create(entry)
                rec.on_saved(lambda event: _link(entry, event))
    except BaseException:
        delete_files(written)
        raise
    return entry


def _link(entry: ChronicleEntry, event: Event) -> None:
    ChronicleEntry.objects.filter(pk=entry.pk).update(event=event)
    entry.event = event


def update_entry(entry: ChronicleEntry, user: Any, *, title: str, text: str,
                 upload: Any = None, drop_photo: bool = False) -> ChronicleEntry:
    """Change an entry's words, and its photo: a new one replaces it, ``drop_photo`` takes it
    away. The old photo's files stay until nothing points to them (undo may bring it back)."""
    title, text = _clean_entry(title, text)
    written: list[str] = []
    try:
        with transaction.atomic():
            campaign = lock_campaign(entry.campaign)
            entry = ChronicleEntry.objects.select_for_update().filter(pk=entry.pk).first()
            if entry is None:
                raise ServiceError("That entry is no longer in the chronicle.")
            values: dict[str, Any] = {"title": title, "text": text}
            if upload is not None:
                probe = ChronicleEntry(campaign=campaign)
                _store_photo(probe, upload, written)
                values.update(image=probe.image.name, thumbnail=probe.thumbnail.name)
            elif drop_photo:
                values.update(image="", thumbnail="")
            if all(str(getattr(entry, k) or "") == str(v) for k, v in values.items()):
                raise ServiceError("Nothing to change: the entry already reads so.")
            with Recorder(campaign, user, "chronicle.entry_changed",
                          f"Chronicle entry changed: {_headline(title, text)}") as rec:
                rec.update(entry, **values)
    except BaseException:
        delete_files(written)
        raise
    return entry


def remove_entry(entry: ChronicleEntry, user: Any) -> None:
    with transaction.atomic():
        campaign = lock_campaign(entry.campaign)
        entry = ChronicleEntry.objects.select_for_update().filter(pk=entry.pk).first()
        if entry is None:
            raise ServiceError("That entry is no longer in the chronicle.")
        with Recorder(campaign, user, "chronicle.entry_removed",
                      f"Chronicle entry removed: {_headline(entry.title, entry.text)}") as rec:
            rec.delete(entry)
