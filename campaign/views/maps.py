"""The map: the SVG page, the tile panel (an htmx fragment), and the GM's editor."""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import OuterRef, QuerySet, Subquery
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import resolve, reverse
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET, require_POST
from django.views.decorators.vary import vary_on_headers

from campaign import live, mapsvg, mapview, services, tile_actions
from campaign.access import Access, get_campaign_for, get_tile_for
from campaign.forms import GenerateMapForm, TileForm
from campaign.kept_sql import kept_rows
from campaign.models import Event, Map, MapKind, Role, Tile
from campaign.parsing import ParseError, parse_decimal, parse_id
from campaign.views.common import refuse, tabs_context


def _tile_url(access: Access) -> str:
    base = reverse("campaign:tile", args=[access.campaign.slug, "LABEL"])
    return base.replace("LABEL", "{label}")


SIDE_NAMES = {
    ("hex", "flat"): ("N", "NE", "SE", "S", "SW", "NW"),
    ("hex", "pointy"): ("NW", "NE", "E", "SE", "SW", "W"),
    ("square", "flat"): ("N", "E", "S", "W"),
    ("square", "pointy"): ("N", "E", "S", "W"),
}


def side_names(tile: Tile) -> tuple[str, ...]:
    return SIDE_NAMES.get((tile.map.kind, tile.map.orientation), ())


def describe_edges(tile: Tile, labels: dict[str, str]) -> list[tuple[str, str]]:
    """Edge features grouped by feature, e.g. ("River", "NE, NW") or ("Mountains", "all sides")."""
    names = side_names(tile)
    by_feature: dict[str, list[str]] = {}
    for key, feats in sorted(tile.edges.items()):
        index = parse_id(key) if key != "0" else 0  # a direction "0".."5", or a label
        side = names[index] if index is not None and index < len(names) else key
        for feature in feats:
            by_feature.setdefault(feature, []).append(side)
    return [
        (labels.get(f, f), "all sides" if names and len(sides) == len(names) else ", ".join(sides))
        for f, sides in sorted(by_feature.items())
    ]


def _panel_context(access: Access, tile: Tile | None) -> dict:
    if tile is None:
        return {"tile": None}
    from battles.models import Army

    system = access.campaign.system
    terrain = system.terrain(tile.terrain)
    settlement_labels = {c.slug: c.label for c in system.settlements}
    feature_labels = {c.slug: c.label for c in system.edge_features}
    capital_of = tile.map.campaign.kingdoms.filter(capital_tile=tile).first()
    edges = describe_edges(tile, feature_labels)
    context = {
        "tile": tile,
        "terrain_label": terrain.label if terrain else tile.terrain,
        "settlement_label": settlement_labels.get(tile.settlement, tile.settlement),
        "capital_of": capital_of,
        "edges": edges,
        "features": [feature_labels.get(f, f) for f in tile.features],
        "armies": Army.objects.filter(tile=tile).select_related("kingdom"),
        "tokens": [],
        "extra_template": system.template("tile_panel_extra"),
    }
    tile_tokens = system.hook("tile_tokens")
    if tile_tokens is not None:
        context["tokens"] = tile_tokens(tile)
    context["territory"] = tile.map.kind == MapKind.TERRITORY
    actions = tile_actions.actions_for(access, tile)
    context["actions"] = [a for a in actions if a.legal]
    context["actions_not_now"] = [a for a in actions if not a.legal]
    if access.is_gm:
        context["edge_rows"] = [
            (name, key, [(f, f.slug in tile.edges.get(key, [])) for f in system.edge_features])
            for name, key in edge_keys(tile)
        ]
        context["tile_form"] = TileForm(
            campaign=access.campaign, tile=tile,
            initial={
                "terrain": tile.terrain, "settlement": tile.settlement,
                "controller": tile.controller_id, "explored": tile.explored,
                "is_start": tile.is_start, "name": tile.name, "adjacent": tile.adjacent,
            },
        )
    return context


def edge_keys(tile: Tile) -> list[tuple[str, str]]:
    """(what the GM reads, edge key) for each edge of a tile: its sides on grids, its borders
    (keyed by the neighbour's label) on territory maps."""
    if tile.map.kind == MapKind.TERRITORY:
        return [(f"to {label}", label) for label in sorted(tile.adjacent)]
    names = side_names(tile)
    sides = 6 if tile.map.kind == MapKind.HEX else 4
    return [(names[d] if d < len(names) else str(d), str(d)) for d in range(sides)]


def legend(campaign: Any, loaded: mapview.LoadedMap) -> list[tuple[str, str, str]]:
    """The map's legend, from the rule system: (kind, key markup, label) for each terrain,
    kingdom, settlement kind, edge feature and counter the map shows, in the system's order."""
    system = campaign.system
    shown = loaded.shown()
    items: list[tuple[str, str, str]] = []
    for terrain in system.terrains:
        if terrain.slug in shown.terrains:
            items.append(("terrain", format_html('<span class="swatch" data-c="{}"></span>',
                                                 mapsvg.safe_colour(terrain.colour)),
                          terrain.label))
    if shown.unexplored:
        items.append(("terrain", mapsvg.legend_unexplored(), "Unexplored"))
    for kingdom in loaded.kingdoms.values():
        items.append(("kingdom", format_html('<span class="swatch ring" data-c="{}"></span>',
                                             mapsvg.safe_colour(kingdom.colour)), kingdom.name))
    for kind in system.settlements:
        if kind.slug in shown.settlements:
            items.append(("settlement",
                          mapsvg.legend_settlement(system.settlement_shape(kind.slug)),
                          kind.label))
    if mapsvg.CAPITAL in shown.settlements:
        items.append(("settlement", mapsvg.legend_settlement("star"), "Capital"))
    if shown.start:
        items.append(("settlement", mapsvg.legend_start(), "Start tile"))
    for feature in system.edge_features:
        if feature.slug in shown.edge_features:
            items.append(("edge", mapsvg.legend_edge(feature.slug),
                          f"{feature.label.split(' (')[0]} edge"))
    for kind, label in (("army", "Army"), ("ship", "Ship")):
        if kind in shown.markers:
            items.append(("marker", mapsvg.legend_marker(kind), label))
    return items


@dataclass(frozen=True)
class Drawing:
    """The map as a page shows it: the SVG, the legend and the map's row (unsaved when the
    campaign has none yet: ``exists`` False)."""

    svg: str
    legend: list[tuple[str, str, str]]
    game_map: Map
    exists: bool
    # The legend's items as the page lists them (``legend_markup``).
    legend_html: str = ""


def _legend_and_markup(campaign: Any, loaded: mapview.LoadedMap
                       ) -> tuple[tuple[tuple[str, str, str], ...], str]:
    items = legend(campaign, loaded)
    return tuple(items), legend_markup(items)


def legend_markup(items: list[tuple[str, str, str]]) -> str:
    """The legend's list items, as campaign/map.html shows them: each key's markup as made
    (``legend``), kinds and labels escaped."""
    return mark_safe("".join(  # noqa: S308 (the keys are markup made by ``legend``)
        f'<li class="legend-{conditional_escape(kind)}">{key}<span>'
        f"{conditional_escape(label)}</span></li>" for kind, key, label in items))


# Drawings kept in this worker's memory (``drawing``), newest last, with when each was made.
_KEPT: OrderedDict[str, tuple[float, Drawing]] = OrderedDict()
_KEPT_MOST = 8
_KEPT_LOCK = threading.Lock()


def _map_and_latest_seq(campaign_id: int) -> QuerySet[Map]:
    """The campaign's map row, with the number of its latest event (``latest_seq``)."""
    latest = Event.objects.filter(campaign=OuterRef("campaign")).order_by("-seq")
    return (Map.objects.filter(campaign_id=campaign_id)
            .annotate(latest_seq=Subquery(latest.values("seq")[:1])).order_by("pk")[:1])


def drawing(access: Access, selected: str | None = None, *, eco: bool = False) -> Drawing:
    """The campaign's map drawn for a page, with ``selected`` (a tile label) ringed.

    Everything the drawing shows (tiles, their owners, kingdoms, armies, a system's counters,
    the campaign's name) changes only in a service, and every service writes a chronicle
    event; an undo writes one too. So, when ``settings.PAGE_CACHE`` is on (it trusts the same
    rule for whole pages, campaign/live.py), the drawing without a selection is kept in this
    worker's memory under the campaign (its id and creation time), the number of its latest
    event, its name, slug and rule system and ``eco``, and is answered from there until a new
    event is written, for any viewer (the map is the same for everyone). The latest event is
    read with the map's row, in one query and before the tiles: a drawing is never older than
    the number it is kept under. A change made outside the services (the admin) shows after
    the next event, or once a kept drawing is older than the page cache's timeout. At most
    ``_KEPT_MOST`` drawings are kept (the least recently used go); a drawing with a selection,
    or of a campaign without a map, is never kept."""
    campaign = access.campaign
    key = game_map = None
    if selected is None and getattr(settings, "PAGE_CACHE", False):
        found = kept_rows(("maps.drawing",), _map_and_latest_seq, campaign.pk)
        game_map = found[0] if found else None
        if game_map is None:
            game_map = mapview.blank_map(campaign)
        else:
            key = "\x00".join(str(part) for part in (
                campaign.pk, campaign.created_at.isoformat() if campaign.created_at else "",
                game_map.pk, game_map.latest_seq or 0, campaign.name, campaign.slug,
                campaign.rule_system, eco))
            timeout = settings.CACHES.get("pages", {}).get("TIMEOUT", 300) or 0
            with _KEPT_LOCK:
                kept = _KEPT.get(key)
                if kept is not None and time.monotonic() - kept[0] < timeout:
                    _KEPT.move_to_end(key)
                    made = kept[1]
                    return Drawing(made.svg, list(made.legend), game_map, True,
                                   made.legend_html)
    loaded = mapview.load_map(campaign, selected=selected, game_map=game_map, reuse=True)
    # The legend is made of the views, the rule system and the kingdoms' names and colours.
    items, markup = loaded.worked_out(
        ("legend", tuple((k.colour, k.name) for k in loaded.kingdoms.values())),
        lambda: _legend_and_markup(campaign, loaded))
    made = Drawing(mapview.render(campaign, loaded, tile_url=_tile_url(access), eco=eco),
                   list(items), loaded.game_map, loaded.exists, markup)
    if key is not None:
        with _KEPT_LOCK:
            _KEPT[key] = (time.monotonic(), made)
            _KEPT.move_to_end(key)
            while len(_KEPT) > _KEPT_MOST:
                _KEPT.popitem(last=False)
    return made


def _map_context(access: Access, selected: Tile | None, *, editing: bool = False) -> dict:
    drawn = drawing(access, selected.label if selected else None)
    return {
        **tabs_context(access, "map"),
        "svg": drawn.svg,
        "game_map": drawn.game_map,
        "has_map": drawn.exists,
        "legend": drawn.legend,
        "legend_html": drawn.legend_html,
        "editing": editing,
        **_panel_context(access, selected),
    }


@login_required
@require_GET
def map_page(request: HttpRequest, slug: str) -> HttpResponse:
    access = get_campaign_for(request, slug)
    label = request.GET.get("tile")
    selected = get_tile_for(access, label) if label else None
    return _map_page(request, _map_context(access, selected))


# Where the map page's template puts the drawing, for ``_map_page`` to put the drawing there.
_DRAWING_SLOT = f"<!--map-drawing-{secrets.token_hex(8)}-->"


def _map_page(request: HttpRequest, context: dict) -> HttpResponse:
    """The map page (campaign/map.html) with the drawing of ``context``. The page is rendered
    around a stand-in for the drawing, which is then put in as bytes (encoded once for every
    page that shows it: live.encoded_block): a drawing of megabytes is not copied through the
    template's every level, nor encoded again for each page, and the page cache compresses it
    once (live.shared_block). The same page, byte for byte, as rendering the drawing in."""
    svg = context["svg"]
    if not context["has_map"] or not svg:
        return render(request, "campaign/map.html", context)
    page = render_to_string("campaign/map.html", {**context, "svg": _DRAWING_SLOT}, request)
    before, slot, after = page.partition(_DRAWING_SLOT)
    if not slot or _DRAWING_SLOT in after:
        return render(request, "campaign/map.html", context)
    head = before.encode()
    response = HttpResponse(b"".join((head, live.encoded_block(svg), after.encode())))
    live.shared_block(response, svg, len(head))
    return response


@login_required
@require_GET
@vary_on_headers("HX-Request")
def tile_panel(request: HttpRequest, slug: str, label: str) -> HttpResponse:
    access = get_campaign_for(request, slug)
    tile = get_tile_for(access, label)
    if request.htmx:
        context = {**tabs_context(access, "map"), **_panel_context(access, tile)}
        return render(request, "campaign/map.html#tile-panel", context)
    return _map_page(request, _map_context(access, tile))


def _panel_answer(request: HttpRequest, access: Access, tile: Tile, status: int = 200,
                  **extra: Any) -> HttpResponse:
    tile = Tile.objects.select_related("map", "controller").get(pk=tile.pk)
    context = {**tabs_context(access, "map"), **_panel_context(access, tile), **extra}
    return render(request, "campaign/map.html#tile-panel", context, status=status)


@login_required
@require_POST
def tile_act(request: HttpRequest, slug: str, label: str) -> HttpResponse:
    """An action of the tile panel (``campaign.tile_actions``): looked up again among the
    actions the rule system offers this viewer on this tile now, then posted to the system's
    own endpoint with its fields, so the services and refusals are the play page's. htmx gets
    the panel back saying what happened (the chronicle's words) or why not; a plain form post
    comes back to the map on this tile."""
    access = get_campaign_for(request, slug)
    tile = get_tile_for(access, label)
    key = request.POST.get("action", "")
    action = next((a for a in tile_actions.actions_for(access, tile)
                   if a.key == key and a.posts), None)
    if action is None:
        message = (f"That cannot be done on {tile.label} now: the campaign has moved on, or it "
                   "is not yours to do. The panel shows what can be done here now.")
        if request.htmx:
            return _panel_answer(request, access, tile, 409, refusal=message)
        return refuse(request, message, status=409, context=tabs_context(access, "map"))
    before = access.campaign.events.order_by("-seq").values_list("seq", flat=True).first() or 0
    match = resolve(action.url)
    posted = QueryDict(mutable=True)
    for name, value in action.fields.items():
        posted.setlist(name, list(value) if isinstance(value, (list, tuple)) else [value])
    request.POST = posted
    response = match.func(request, *match.args, **match.kwargs)
    if response.status_code >= 400:
        if not request.htmx:
            return response
        # The system's refusal, as its endpoint worded and escaped it (campaign.views.common).
        reason = mark_safe(response.content.decode())  # noqa: S308
        return _panel_answer(request, access, tile, response.status_code, refusal=reason)
    recorded = access.campaign.events.filter(seq__gt=before).order_by("seq").only(
        "seq", "summary", "visibility", "kingdom_id")
    events = [e for e in recorded if access.can_see_event(e)]
    said = " ".join(e.summary for e in events) or f"Done: {action.label}."
    if not request.htmx:
        messages.success(request, said)
        return redirect("campaign:tile", slug, tile.label)
    access.campaign.refresh_from_db()
    answer = _panel_answer(request, access, tile, did=said)
    answer["HX-Trigger"] = "map-changed, campaign-changed"
    return answer


@login_required
@require_POST
def tile_edit(request: HttpRequest, slug: str, label: str) -> HttpResponse:
    access = get_campaign_for(request, slug, role=Role.GM)
    tile = get_tile_for(access, label)
    form = TileForm(request.POST, campaign=access.campaign, tile=tile)
    if not form.is_valid():
        errors = "; ".join(f"{k}: {' '.join(v)}" for k, v in form.errors.items())
        return refuse(request, f"The tile was not changed: {errors}",
                      context=tabs_context(access, "map"))
    changes = dict(form.cleaned_data)
    adjacent = changes.pop("adjacent", None)
    edges = {}
    # Edge checkboxes are named edge_<key>; on a territory map only the borders it keeps count.
    keys = [key for _, key in edge_keys(tile)]
    if adjacent is not None:
        keys = [key for key in keys if key in adjacent]
    for key in keys:
        feats = request.POST.getlist(f"edge_{key}")
        if feats:
            edges[key] = feats
    try:
        services.edit_tile(tile, request.user, changes=changes, edges=edges, adjacent=adjacent)
    except services.ServiceError as exc:
        return refuse(request, str(exc), context=tabs_context(access, "map"))
    if request.htmx:
        tile.refresh_from_db()
        context = {**tabs_context(access, "map"), **_panel_context(access, tile), "saved": True}
        response = render(request, "campaign/map.html#tile-panel", context)
        response["HX-Trigger"] = "map-changed"
        return response
    messages.success(request, f"Tile {tile.label} saved.")
    return redirect(f"{reverse('campaign:map', args=[slug])}?tile={tile.label}")


@login_required
@require_GET
@vary_on_headers("HX-Request")
def map_svg(request: HttpRequest, slug: str) -> HttpResponse:
    """The map alone (re-fetched by the page after an edit, and downloadable)."""
    access = get_campaign_for(request, slug)
    drawn = drawing(access, request.GET.get("tile"), eco=request.GET.get("eco") == "1")
    if not drawn.exists:
        raise Http404("This campaign has no map yet.")
    svg = drawn.svg
    if request.htmx:
        return HttpResponse(svg)
    response = HttpResponse(svg, content_type="image/svg+xml")
    response["Content-Disposition"] = f'inline; filename="{access.campaign.slug}-map.svg"'
    return response


@login_required
@require_GET
def editor(request: HttpRequest, slug: str) -> HttpResponse:
    access = get_campaign_for(request, slug, role=Role.GM)
    context = _map_context(access, None, editing=True)
    game_map = context["game_map"]
    context["generate_form"] = GenerateMapForm(
        initial={"width": game_map.width, "height": game_map.height,
                 "orientation": game_map.orientation}
    )
    context["kingdoms"] = list(access.campaign.kingdoms.all())
    context["territory_map"] = context["has_map"] and game_map.kind == MapKind.TERRITORY
    return render(request, "campaign/map_edit.html", context)


@login_required
@require_POST
def paint(request: HttpRequest, slug: str) -> HttpResponse:
    access = get_campaign_for(request, slug, role=Role.GM)
    tile = get_tile_for(access, request.POST.get("tile", ""))
    tool = request.POST.get("tool", "")
    value = request.POST.get("value", "")
    direction = None
    if tool == "controller" and value.strip() and parse_id(value) is None:
        return refuse(request, "Not a valid kingdom.", context=tabs_context(access, "map"))
    if tool == "edge":
        try:
            x = parse_decimal(request.POST.get("x"), -1e6, 1e6, "x")
            y = parse_decimal(request.POST.get("y"), -1e6, 1e6, "y")
        except ParseError:
            return refuse(request, "Tap near the edge you want to change.",
                          context=tabs_context(access, "map"))
        loaded_grid = services.grid_for(tile.map)
        direction = mapview.nearest_edge(loaded_grid, tile.q, tile.r, x, y, label=tile.label)
    try:
        services.paint_tile(tile, request.user, tool=tool, value=value, direction=direction)
    except services.ServiceError as exc:
        return refuse(request, str(exc), context=tabs_context(access, "map"))
    if request.htmx:
        loaded = mapview.load_map(access.campaign, selected=tile.label, reuse=True)
        return HttpResponse(mapview.render(access.campaign, loaded, tile_url=_tile_url(access)))
    return redirect("campaign:map_edit", slug)


@login_required
@require_POST
def generate(request: HttpRequest, slug: str) -> HttpResponse:
    access = get_campaign_for(request, slug, role=Role.GM)
    form = GenerateMapForm(request.POST)
    if not form.is_valid():
        errors = "; ".join(f"{k}: {' '.join(v)}" for k, v in form.errors.items())
        return refuse(request, f"The map was not changed: {errors}",
                      context=tabs_context(access, "map"))
    data = form.cleaned_data
    seed = None if data["blank"] else (data["seed"] if data["seed"] is not None
                                       else services.random_seed())
    try:
        services.regenerate_map(access.campaign, request.user, seed=seed, width=data["width"],
                                height=data["height"], orientation=data["orientation"])
    except services.ServiceError as exc:
        return refuse(request, str(exc), context=tabs_context(access, "map"))
    messages.success(request, "New map made." + (f" Seed {seed}." if seed is not None else ""))
    return redirect("campaign:map_edit", slug)
