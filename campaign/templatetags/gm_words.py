"""The GM's own words on the pages that show them: ``{% load gm_words %}``, then
``{% notes_on access kingdom=kingdom as notes %}`` (or ``tile=tile``): the notes this viewer
may read there (GM-only notes for GMs alone); ``{% chronicle_entries events as entries %}``
and ``{{ entries|entry_for:event.pk }}``: the entries a page of the chronicle shows, in one
query; ``{% event_items events %}``: a list of events with those entries in their place."""

from __future__ import annotations

from typing import Any

from django import template
from django.template.base import render_value_in_context
from django.template.defaultfilters import linebreaks_filter
from django.utils.dates import MONTHS_3
from django.utils.safestring import SafeString, mark_safe
from django.utils.timezone import template_localtime

from campaign import notes
from campaign.templatetags.links import address, current_app

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


_NONE = object()  # what a template variable that does not resolve stands for


def _stamp(moment: Any, year: bool) -> str:
    """``moment|date:"j M Y H:i"`` (``"j M H:i"`` without ``year``), as Django's ``date`` filter
    writes it (the month's short name translated, as its ``M`` does), without the filter's
    format lookup: 50 microseconds a time, two for each event of a list."""
    month = str(MONTHS_3[moment.month]).title()
    when = f"{moment.year:04d} " if year else ""
    return f"{moment.day} {month} {when}{moment.hour:02d}:{moment.minute:02d}"


def _part(value: Any, name: str) -> Any:
    """``value.name`` as a template reads it (a key, else an attribute, called if it can
    be); ``_NONE`` where there is none (the template shows nothing and loops over nothing)."""
    try:
        return value[name]
    except (TypeError, AttributeError, KeyError, ValueError, IndexError):
        pass
    try:
        found = getattr(value, name)
    except AttributeError:
        return _NONE
    return found() if callable(found) else found


@register.simple_tag(takes_context=True)
def event_items(context: template.Context, events: Any) -> SafeString:
    """The list of ``events`` (latest first) with their chronicle entries in their place, as
    ``campaign/includes/event_list.html`` shows them: built here rather than in template
    nodes, which took about 0.15 ms an event (the markup is the same, byte for byte; each
    value goes through ``render_value_in_context`` as a template variable does)."""
    if not events:
        return mark_safe('<p class="muted">Nothing has happened yet.</p>')
    events = list(events)
    entries = notes.entries_for(events)

    def show(value: Any) -> str:
        return "" if value is _NONE else render_value_in_context(value, context)

    def when(value: Any, year: bool) -> str:
        return show(_stamp(template_localtime(value, context.use_tz), year))

    access = context.get("access")
    is_gm = bool(getattr(access, "is_gm", False))
    campaign = context.get("campaign")
    app = current_app(context)
    out = ['\n<ol class="chronicle">\n  ']
    for e in events:
        entry = entries.get(e.pk)
        seq = show(e.seq)
        out.append(f'\n  <li id="event-{seq}" class="{"undone" if e.undone_at else ""}'
                   f'{" story" if entry else ""}">\n'
                   f'    <small class="muted">#{seq} · {show(e.clock_label())} · '
                   f'{when(e.created_at, True)}')
        if e.actor:
            out.append(f" · {show(e.actor.get_username())}")
        if e.visibility != "public":
            who = "GM only" if e.visibility == "gm" else (
                f"{show(e.kingdom.name) if e.kingdom is not None else ''} only")
            out.append(f' · <span class="badge">{who}</span>')
        out.append("</small>\n    ")
        if entry:
            heading = (f'<h3 class="story-title">{show(entry.title)}</h3>' if entry.title
                       else "")
            out.append(
                f'\n    <article class="story-entry" aria-label="'
                f'{show(entry.title or "Chronicle entry")}">\n      {heading}\n      ')
            if entry.thumbnail:
                out.append(
                    f'<a href="{show(entry.image.url)}"><img class="story-photo" '
                    f'src="{show(entry.thumbnail.url)}" alt="Photo for '
                    f'{show(entry.title or "this chronicle entry")}" loading="lazy"></a>')
            out.append(f'\n      <div class="story-text">'
                       f'{show(linebreaks_filter(entry.text, context.autoescape))}</div>\n      ')
            if is_gm:
                url = address("campaign:entry_edit", (campaign.slug, entry.pk), {}, app)
                out.append(f'<a class="small" href="{show(url)}">Change or remove this entry</a>')
            out.append("\n    </article>\n    ")
        else:
            out.append(f'\n    <span class="summary">{show(e.summary)}</span>\n    ')
        out.append("\n    ")
        if e.dice:
            out.append('<span class="dice">')
            for roll in e.dice:
                values = _part(roll, "values")
                for v in (() if values is _NONE or values is None else values):
                    out.append(f'<span class="die" title="{show(_part(roll, "purpose"))} '
                               f'({show(_part(roll, "source"))})">{show(v)}</span>')
            out.append("</span>")
        out.append("\n    ")
        if e.undone_at:
            out.append(f'<small class="muted">undone {when(e.undone_at, False)}</small>')
        out.append("\n  </li>\n  ")
    out.append("\n</ol>\n")
    return mark_safe("".join(out))  # every value above escaped by show()
