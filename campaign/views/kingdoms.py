"""Kingdoms: founding, editing (name, colour, crest), claiming and assigning."""

from __future__ import annotations

from collections import Counter

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.functional import SimpleLazyObject
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from battles.models import Army
from campaign import services
from campaign.access import get_campaign_for, get_kingdom_for
from campaign.forms import AssignKingdomForm, KingdomForm
from campaign.images import ImageRejected
from campaign.kept_sql import kept_rows
from campaign.models import Role, Tile
from campaign.once import applies_once
from campaign.views.common import refuse, tabs_context


@login_required
@require_http_methods(["GET", "POST"])
@applies_once
def create(request: HttpRequest, slug: str) -> HttpResponse:
    access = get_campaign_for(request, slug, role=Role.PLAYER)
    if access.is_player and access.kingdom is not None:
        return refuse(request, "You already rule a kingdom in this campaign.", status=409,
                      context=tabs_context(access, "overview"))
    posted = request.method == "POST"
    form = KingdomForm(request.POST if posted else None, request.FILES if posted else None,
                       campaign=access.campaign, allow_player=access.is_gm)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        player = data.get("player") if access.is_gm else access.membership
        try:
            kingdom = services.create_kingdom(
                access.campaign, request.user, name=data["name"], colour=data["colour"],
                player=player, crest=data.get("crest"),
            )
        except ImageRejected as exc:
            form.add_error("crest", str(exc))
        except services.ServiceError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, f"{kingdom.name} is founded.")
            return redirect("campaign:kingdom", access.campaign.slug, kingdom.pk)
    status = 400 if request.method == "POST" else 200
    return render(request, "campaign/kingdom_form.html",
                  {**tabs_context(access, "kingdom"), "form": form, "kingdom": None}, status=status)


def _tiles_of(kingdom_id: int) -> QuerySet[Tile]:
    return Tile.objects.filter(controller_id=kingdom_id).order_by("label")


def _armies_of(kingdom_id: int) -> QuerySet[Army]:
    """The kingdom's armies in play (taken off for good, an army keeps its row with
    ``data["removed"]``), with their tiles, by number (one kingdom's: the model's ordering by
    kingdom would join the kingdoms for nothing)."""
    return (Army.objects.filter(kingdom_id=kingdom_id).select_related("tile")
            .exclude(data__has_key="removed").order_by("number"))


@login_required
@require_GET
def detail(request: HttpRequest, slug: str, kingdom_id: int) -> HttpResponse:
    access = get_campaign_for(request, slug)
    # A player's own kingdom came with their access (the page a phone opens most).
    kingdom = (access.kingdom if access.kingdom is not None and access.kingdom.pk == kingdom_id
               else get_kingdom_for(access, kingdom_id))
    # Whole rows, kept in the request's memo with the kingdom's armies (with their tiles, read
    # when first used: a system that shows armies of its own never reads these), so that a
    # system's part of the page takes them from there instead of reading them again.
    tiles = kept_rows(("kingdom", "tiles"), _tiles_of, kingdom.pk)
    kingdom_pk = kingdom.pk
    armies = SimpleLazyObject(lambda: kept_rows(("kingdom", "armies"), _armies_of, kingdom_pk))
    access.memo["kingdom_tiles"] = (kingdom.pk, tiles)
    access.memo["kingdom_armies"] = (kingdom.pk, armies)
    counts = Counter(t.settlement for t in tiles if t.settlement)
    settlements = [{"settlement": kind, "n": counts[kind]} for kind in sorted(counts)]
    if access.membership is not None and kingdom.player_id == access.membership.pk:
        kingdom.player = access.membership  # already read, with its user
    context = {
        **tabs_context(access, "kingdom" if access.kingdom == kingdom else "overview"),
        "kingdom": kingdom,
        "tiles": tiles,
        "settlements": settlements,
        "armies": armies,
        "can_edit": access.can_edit_kingdom(kingdom),
        "assign_form": AssignKingdomForm(campaign=access.campaign,
                                         initial={"player": kingdom.player_id})
        if access.is_gm else None,
        "summary_template": access.campaign.system.template("kingdom_summary"),
    }
    kingdom_context = access.campaign.system.hook("kingdom_context")
    if kingdom_context is not None:
        context.update(kingdom_context(access, kingdom))
    return render(request, "campaign/kingdom.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def edit(request: HttpRequest, slug: str, kingdom_id: int) -> HttpResponse:
    access = get_campaign_for(request, slug, role=Role.PLAYER)
    kingdom = get_kingdom_for(access, kingdom_id, edit=True)
    initial = {"name": kingdom.name, "colour": kingdom.colour}
    posted = request.method == "POST"
    form = KingdomForm(request.POST if posted else None, request.FILES if posted else None,
                       initial=initial, campaign=access.campaign, allow_player=False)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            services.update_kingdom(kingdom, request.user, name=data["name"],
                                    colour=data["colour"], crest=data.get("crest"))
        except ImageRejected as exc:
            form.add_error("crest", str(exc))
        except services.ServiceError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, "Kingdom saved.")
            return redirect("campaign:kingdom", access.campaign.slug, kingdom.pk)
    status = 400 if request.method == "POST" else 200
    return render(request, "campaign/kingdom_form.html",
                  {**tabs_context(access, "kingdom"), "form": form, "kingdom": kingdom},
                  status=status)


@login_required
@require_POST
def claim(request: HttpRequest, slug: str, kingdom_id: int) -> HttpResponse:
    access = get_campaign_for(request, slug, role=Role.PLAYER)
    kingdom = get_kingdom_for(access, kingdom_id)
    if not access.is_player or access.membership is None:
        raise PermissionDenied("Only players claim kingdoms; a GM assigns them instead.")
    try:
        services.claim_kingdom(kingdom, request.user, access.membership)
    except services.ServiceError as exc:
        return refuse(request, str(exc), status=409, context=tabs_context(access, "overview"))
    messages.success(request, f"You now rule {kingdom.name}.")
    return redirect("campaign:kingdom", access.campaign.slug, kingdom.pk)


@login_required
@require_POST
def assign(request: HttpRequest, slug: str, kingdom_id: int) -> HttpResponse:
    access = get_campaign_for(request, slug, role=Role.GM)
    kingdom = get_kingdom_for(access, kingdom_id)
    form = AssignKingdomForm(request.POST, campaign=access.campaign)
    if not form.is_valid():
        return refuse(request, "Choose one of this campaign's players.",
                      context=tabs_context(access, "overview"))
    try:
        services.assign_kingdom(kingdom, request.user, form.cleaned_data["player"])
    except services.ServiceError as exc:
        return refuse(request, str(exc), status=409, context=tabs_context(access, "overview"))
    messages.success(request, "Kingdom assigned.")
    return redirect("campaign:kingdom", access.campaign.slug, kingdom.pk)
