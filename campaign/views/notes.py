"""The GM's own words: notes on kingdoms and tiles, and chronicle entries.

Only a GM writes them (members below get 403, outsiders 404). Notes are read where they belong
(the kingdom page and the tile panel, through ``{% notes_on %}``), entries in the chronicle and
the campaign book. A note or entry of another campaign is a 404.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from campaign import notes as services
from campaign.access import Access, get_campaign_for, get_kingdom_for, get_tile_for
from campaign.images import ImageRejected
from campaign.models import ChronicleEntry, Note, Role
from campaign.once import applies_once
from campaign.services import ServiceError
from campaign.views.common import refuse, tabs_context


class NoteForm(forms.Form):
    text = forms.CharField(label="Note", widget=forms.Textarea(attrs={"rows": 3}),
                           max_length=services.NOTE_LENGTH)
    shared = forms.BooleanField(label="Shared: players and observers see it too",
                                required=False,
                                help_text="Left unticked, only the GMs ever see it.")


class EntryForm(forms.Form):
    title = forms.CharField(max_length=services.TITLE_LENGTH, required=False)
    text = forms.CharField(label="The story", widget=forms.Textarea(attrs={"rows": 6}),
                           max_length=services.ENTRY_LENGTH)
    photo = forms.FileField(
        required=False, help_text="Optional: PNG, JPEG or WebP, up to 5 MB.",
        widget=forms.ClearableFileInput(attrs={"accept": "image/png,image/jpeg,image/webp"}))


class EntryEditForm(EntryForm):
    drop_photo = forms.BooleanField(label="Take the photo away", required=False)


# -- notes ---------------------------------------------------------------------------------------


def _where(access: Access, note: Note) -> str:
    """The page a note is read on."""
    slug = access.campaign.slug
    if note.kingdom_id is not None:
        return reverse("campaign:kingdom", args=[slug, note.kingdom_id]) + "#notes"
    return reverse("campaign:map", args=[slug]) + f"?tile={note.tile.label}#notes"


def _note_for(access: Access, note_id: int) -> Note:
    note = (Note.objects.filter(campaign=access.campaign, pk=note_id)
            .select_related("kingdom", "tile").first())
    if note is None:
        raise Http404("No such note in this campaign.")
    return note


def _add(request: HttpRequest, access: Access, **target: Any) -> HttpResponse:
    form = NoteForm(request.POST)
    note = Note(campaign=access.campaign, **target)
    if not form.is_valid():
        return _note_page(request, access, note, form, status=400)
    try:
        services.add_note(access.campaign, request.user, text=form.cleaned_data["text"],
                          shared=form.cleaned_data["shared"], **target)
    except ServiceError as exc:
        return _note_page(request, access, note, form, status=409, error=str(exc))
    messages.success(request, "Note added" + (", shared with the players." if
                                              form.cleaned_data["shared"] else
                                              ", for the GMs only."))
    return redirect(_where(access, note))


def _note_page(request: HttpRequest, access: Access, note: Note, form: NoteForm, *,
               status: int = 200, error: str = "") -> HttpResponse:
    return render(request, "campaign/note_form.html", {
        **tabs_context(access, "map" if note.tile_id else "kingdom"), "note": note,
        "form": form, "error": error, "back": _where(access, note),
    }, status=status)


@login_required
@require_POST
@applies_once
def add_kingdom_note(request: HttpRequest, slug: str, kingdom_id: int) -> HttpResponse:
    access = get_campaign_for(request, slug, role=Role.GM)
    return _add(request, access, kingdom=get_kingdom_for(access, kingdom_id))


@login_required
@require_POST
@applies_once
def add_tile_note(request: HttpRequest, slug: str, label: str) -> HttpResponse:
    access = get_campaign_for(request, slug, role=Role.GM)
    return _add(request, access, tile=get_tile_for(access, label))


@login_required
@require_http_methods(["GET", "POST"])
def edit_note(request: HttpRequest, slug: str, note_id: int) -> HttpResponse:
    access = get_campaign_for(request, slug, role=Role.GM)
    note = _note_for(access, note_id)
    if request.method == "GET":
        return _note_page(request, access, note,
                          NoteForm(initial={"text": note.text, "shared": note.shared}))
    form = NoteForm(request.POST)
    if not form.is_valid():
        return _note_page(request, access, note, form, status=400)
    try:
        services.update_note(note, request.user, text=form.cleaned_data["text"],
                             shared=form.cleaned_data["shared"])
    except ServiceError as exc:
        return _note_page(request, access, note, form, status=409, error=str(exc))
    messages.success(request, "Note saved.")
    return redirect(_where(access, note))


@login_required
@require_POST
def remove_note(request: HttpRequest, slug: str, note_id: int) -> HttpResponse:
    access = get_campaign_for(request, slug, role=Role.GM)
    note = _note_for(access, note_id)
    try:
        services.remove_note(note, request.user)
    except ServiceError as exc:
        return refuse(request, str(exc), status=409, context=tabs_context(access, "map"))
    messages.success(request, "Note removed.")
    return redirect(_where(access, note))


# -- chronicle entries ---------------------------------------------------------------------------


def _entry_for(access: Access, entry_id: int) -> ChronicleEntry:
    entry = ChronicleEntry.objects.filter(campaign=access.campaign, pk=entry_id).first()
    if entry is None:
        raise Http404("No such entry in this campaign's chronicle.")
    return entry


def _entry_page(request: HttpRequest, access: Access, form: EntryForm, *,
                entry: ChronicleEntry | None = None, status: int = 200,
                error: str = "") -> HttpResponse:
    return render(request, "campaign/entry_form.html", {
        **tabs_context(access, "chronicle"), "form": form, "entry": entry, "error": error,
    }, status=status)


@login_required
@require_http_methods(["GET", "POST"])
@applies_once
def write_entry(request: HttpRequest, slug: str) -> HttpResponse:
    """A GM writes a paragraph of the story into the chronicle, with a photo if they like."""
    access = get_campaign_for(request, slug, role=Role.GM)
    if request.method == "GET":
        return _entry_page(request, access, EntryForm())
    form = EntryForm(request.POST, request.FILES)
    if not form.is_valid():
        return _entry_page(request, access, form, status=400)
    data = form.cleaned_data
    try:
        entry = services.add_entry(access.campaign, request.user, title=data["title"],
                                   text=data["text"], upload=data["photo"])
    except ImageRejected as exc:
        form.add_error("photo", str(exc))
        return _entry_page(request, access, form, status=400)
    except ServiceError as exc:
        return _entry_page(request, access, form, status=409, error=str(exc))
    messages.success(request, "Entry written into the chronicle.")
    return redirect(reverse("campaign:chronicle", args=[slug]) + f"#event-{entry.event.seq}")


@login_required
@require_http_methods(["GET", "POST"])
def edit_entry(request: HttpRequest, slug: str, entry_id: int) -> HttpResponse:
    access = get_campaign_for(request, slug, role=Role.GM)
    entry = _entry_for(access, entry_id)
    if request.method == "GET":
        return _entry_page(request, access, EntryEditForm(
            initial={"title": entry.title, "text": entry.text}), entry=entry)
    form = EntryEditForm(request.POST, request.FILES)
    if not form.is_valid():
        return _entry_page(request, access, form, entry=entry, status=400)
    data = form.cleaned_data
    try:
        services.update_entry(entry, request.user, title=data["title"], text=data["text"],
                              upload=data["photo"], drop_photo=data["drop_photo"])
    except ImageRejected as exc:
        form.add_error("photo", str(exc))
        return _entry_page(request, access, form, entry=entry, status=400)
    except ServiceError as exc:
        return _entry_page(request, access, form, entry=entry, status=409, error=str(exc))
    messages.success(request, "Entry saved.")
    return redirect("campaign:chronicle", slug)


@login_required
@require_POST
def remove_entry(request: HttpRequest, slug: str, entry_id: int) -> HttpResponse:
    access = get_campaign_for(request, slug, role=Role.GM)
    entry = _entry_for(access, entry_id)
    try:
        services.remove_entry(entry, request.user)
    except ServiceError as exc:
        return refuse(request, str(exc), status=409, context=tabs_context(access, "chronicle"))
    messages.success(request, "Entry removed from the chronicle.")
    return redirect("campaign:chronicle", slug)
