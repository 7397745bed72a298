"""The chronicle (what happened, filtered to what the viewer may see), undo, and table photos."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

from campaign import outcome, services
from campaign.access import get_campaign_for, visible_events
from campaign.chronicle import UndoError, latest_standing, take_back, undo_latest
from campaign.forms import PhotoForm
from campaign.images import ImageRejected
from campaign.models import Role
from campaign.once import applies_once
from campaign.parsing import parse_filter, parse_id
from campaign.views.common import refuse, tabs_context
from campaign.views.play import render_play


@login_required
@require_GET
@vary_on_headers("HX-Request")
def chronicle(request: HttpRequest, slug: str) -> HttpResponse:
    access = get_campaign_for(request, slug)
    events = visible_events(access)
    kind = request.GET.get("kind", "")
    year = request.GET.get("year", "")
    if kind and (len(kind) > 60 or not kind.isascii()):
        kind = ""  # no kind of event is named so: every kind (a database pattern stays small)
    if kind:
        events = events.filter(kind__startswith=kind)
    year_number = parse_filter(year, 0, 32767)  # not a year: every year
    if year_number is not None:
        events = events.filter(year=year_number)
    page = Paginator(events.defer("changes"), 50).get_page(request.GET.get("page"))
    # The page offers exactly what undo_latest would do: the latest event still in effect, or,
    # when that one cannot be undone, why nothing can.
    latest = latest_standing(access.campaign) if access.is_gm else None
    # Only kinds of events this viewer may read: a GM-only kind would hint at GM secrets.
    kinds = sorted({k.split(".")[0] for k in
                    visible_events(access).order_by().values_list("kind", flat=True).distinct()})
    context = {
        **tabs_context(access, "chronicle"),
        "page": page,
        "latest_undoable": latest if latest is not None and latest.reversible else None,
        "undo_barrier": latest if latest is not None and not latest.reversible else None,
        "kinds": kinds,
        "kind": kind,
        "year": year,
    }
    if request.htmx:
        return render(request, "campaign/chronicle.html#events", context)
    return render(request, "campaign/chronicle.html", context)


@login_required
@require_POST
def undo(request: HttpRequest, slug: str) -> HttpResponse:
    access = get_campaign_for(request, slug, role=Role.GM)
    expected = parse_id(request.POST.get("seq", ""))
    if expected is None:
        return refuse(request, "Say which event to undo.",
                      context=tabs_context(access, "chronicle"))
    try:
        event = undo_latest(access.campaign, request.user, expected_seq=expected)
    except UndoError as exc:
        return refuse(request, str(exc), status=409, context=tabs_context(access, "chronicle"))
    messages.success(request, event.summary)
    return redirect("campaign:chronicle", slug)


@login_required
@require_POST
def take_back_view(request: HttpRequest, slug: str) -> HttpResponse:
    """A member takes back their own latest action while its step is open
    (``campaign.chronicle.take_back``); back to the play page with what happened."""
    access = get_campaign_for(request, slug)
    seq = parse_id(request.POST.get("seq", ""))
    if seq is None:
        return refuse(request, "Say which action to take back.",
                      context=tabs_context(access, "play"))
    try:
        undo = take_back(access.campaign, request.user, seq)
    except UndoError as exc:
        return refuse(request, str(exc), status=409, context=tabs_context(access, "play"))
    access.campaign.refresh_from_db()
    summary = undo.undo_of.summary.rstrip(".") if undo.undo_of else ""
    outcome.remember(request, access.campaign, f"Taken back: {summary}.", undo)
    if request.htmx:
        response = render_play(request, access, fragment=True)
        response["HX-Trigger"] = "campaign-changed"
        return response
    return redirect("campaign:play", slug)


@login_required
@require_http_methods(["GET", "POST"])
@applies_once
def photos(request: HttpRequest, slug: str) -> HttpResponse:
    access = get_campaign_for(request, slug)
    posted = request.method == "POST"
    form = PhotoForm(request.POST if posted else None, request.FILES if posted else None)
    status = 200
    if request.method == "POST":
        if not access.at_least(Role.PLAYER):
            return refuse(request, "Observers cannot add photos.", status=403,
                          context=tabs_context(access, "overview"))
        if form.is_valid():
            try:
                services.add_photo(access.campaign, request.user, form.cleaned_data["image"],
                                   form.cleaned_data["caption"])
            except ImageRejected as exc:
                form.add_error("image", str(exc))
            else:
                messages.success(request, "Photo added to this turn.")
                return redirect("campaign:photos", slug)
        status = 400
    context = {
        **tabs_context(access, "overview"),
        "photos": access.campaign.photos.select_related("uploaded_by"),
        "form": form,
        "can_upload": access.at_least(Role.PLAYER),
    }
    return render(request, "campaign/photos.html", context, status=status)
