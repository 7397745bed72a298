"""The GM's own words on the pages that show them: ``{% load gm_words %}``, then
``{% notes_on access kingdom=kingdom as notes %}`` (or ``tile=tile``): the notes this viewer
may read there (GM-only notes for GMs alone); ``{% chronicle_entries events as entries %}``
and ``{{ entries|entry_for:event.pk }}``: the entries a page of the chronicle shows, in one
query."""

from __future__ import annotations

from typing import Any

from django import template

from campaign import notes

register = template.Library()


@register.simple_tag
def notes_on(access: Any, kingdom: Any = None, tile: Any = None) -> list[Any]:
    if access is None or (kingdom is None and tile is None):
        return []
    return notes.notes_on(access, kingdom=kingdom, tile=tile)


@register.simple_tag
def chronicle_entries(events: Any) -> dict[int, Any]:
    return notes.entries_for(list(events or ()))


@register.filter
def entry_for(entries: dict[int, Any], event_id: int) -> Any:
    return (entries or {}).get(event_id)
