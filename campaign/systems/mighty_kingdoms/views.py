"""Mighty Kingdoms pages and actions shared by the phases, and the setup steps (MK-SETUP).

Every action is a POST that a player makes for their own kingdom, or a GM for any kingdom
(``kingdom`` in the form). An htmx POST gets the play page's phase fragment back; a plain POST
is redirected to the play page.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from campaign.access import Access, get_campaign_for, get_kingdom_for
from campaign.models import Kingdom, Role
from campaign.parsing import ParseError, parse_dice, parse_id, parse_ids, parse_int
from campaign.services import ServiceError
from campaign.systems.mighty_kingdoms import map_actions, setup, standings
from campaign.systems.mighty_kingdoms.rules import campaign as mk
from campaign.systems.mighty_kingdoms.state import MKState
from campaign.views.common import refuse, tabs_context

SLUG = "mighty-kingdoms"


def mk_access(request: HttpRequest, slug: str, role: str = Role.PLAYER) -> Access:
    access = get_campaign_for(request, slug, role=role)
    if access.campaign.rule_system != SLUG:
        raise Http404("This page belongs to Mighty Kingdoms campaigns.")
    return access


def acting_kingdom(request: HttpRequest, access: Access) -> Kingdom:
    """The kingdom this request acts for: the player's own, or the one a GM names."""
    if access.is_gm:
        raw = request.POST.get("kingdom", "").strip()
        if raw:
            pk = parse_id(raw)
            if pk is None:
                raise ParseError("Say which kingdom this is for: “kingdom” must be a kingdom's "
                                 "id from the form.")
            return get_kingdom_for(access, pk)
        if access.kingdom is not None:
            return access.kingdom
        raise Http404("Say which kingdom this is for.")
    if access.kingdom is None:
        raise PermissionDenied("You have no kingdom in this campaign.")
    return access.kingdom


def done(request: HttpRequest, access: Access, message: str) -> HttpResponse:
    """After a successful action: the phase fragment for htmx, else back to the play page."""
    if request.htmx:
        from campaign.views.play import render_play

        # The action moved the campaign on (whose turn, the clock): show it as it is now.
        access.campaign.refresh_from_db()
        response = render_play(request, access, fragment=True)
        response["HX-Trigger"] = "campaign-changed"
        return response
    messages.success(request, message)
    return redirect("campaign:play", access.campaign.slug)


def run(request: HttpRequest, access: Access, action: Callable[[], Any],
        message: str) -> HttpResponse:
    """Call a service; a refusal becomes a 4xx with its reason and changes nothing. Once the
    campaign is over (MK-AMB-20) every action is refused."""
    if standings.ended(access.campaign):
        return refuse(request, standings.end_message(access.campaign), status=409,
                      context=tabs_context(access, "play"))
    try:
        action()
    except ServiceError as exc:
        return refuse(request, str(exc), status=409, context=tabs_context(access, "play"))
    except mk.RuleViolation as exc:
        return refuse(request, str(exc), status=409, context=tabs_context(access, "play"))
    return done(request, access, message)


TIEBREAK_HELP = ("Type in each tie-break die as a number from 1 to 6; after a re-roll, the new "
                 "die goes after the first (e.g. 4 2).")


def tiebreak_dice(data: Mapping[str, str] | None) -> dict[int, list[int]] | None:
    """MK-PORDER-1, MK-DEPLOY-2: the tie-break dice typed in with "Close this phase", one field
    ``tiebreak_<kingdom id>`` per tied kingdom ("4", or "4 2" after a re-roll). None when every
    field is empty: the server rolls. Unreadable dice are refused (``ServiceError``)."""
    dice: dict[int, list[int]] = {}
    for key, raw in (data or {}).items():
        pk = parse_id(key.removeprefix("tiebreak_")) if key.startswith("tiebreak_") else None
        if pk is None:
            continue
        text = str(raw).replace(",", " ").strip()
        if not text:
            continue
        if " " not in text and len(text) > 1:
            raise ServiceError(TIEBREAK_HELP)
        try:
            dice[pk] = parse_dice(text, most=12)
        except ParseError:
            raise ServiceError(TIEBREAK_HELP) from None
    return dice or None


def order_tiebreak(state: MKState, access: Access, counts: dict[int, int] | None,
                   rule_id: str) -> dict[str, Any]:
    """For the GM's "Close this phase" form: the kingdoms the coming player order will find
    level (MK-PORDER-1, MK-DEPLOY-2), so the table's dice can be typed in. Empty when nobody
    ties (or for anyone but a GM)."""
    if not access.is_gm or counts is None:
        return {}
    groups = [(counts[group[0]], [state.kingdom_rows[pk] for pk in group])
              for group in mk.tied_groups(counts)]
    return {"tiebreak": {"rule": rule_id, "groups": groups}} if groups else {}


def setup_context(state: MKState, access: Access, limit: int | None = None) -> dict[str, Any]:
    """The setup step's choices for this viewer: only legal options are offered.

    ``race_rows`` is the player order with each race this viewer may see; after setup, a
    player's page asks for its first ``limit`` kingdoms only."""
    mine = access.kingdom
    revealed = setup.races_revealed(state)
    race_rows = []
    listed = state.order if state.campaign.season == "setup" or limit is None else (
        state.order[:limit])
    races = setup.races(state, listed)
    for pk in listed:
        row = state.kingdom_rows[pk]
        race = races[pk]
        shown = race if (revealed or access.is_gm or (mine and mine.pk == pk)) else None
        race_rows.append((row, bool(race), shown))
    context: dict[str, Any] = {"race_rows": race_rows}
    if state.campaign.season != "setup":
        return context
    step = context["setup_step"] = state.campaign.phase
    actor = mine
    turn = setup.setup_turn(state)
    if access.is_gm and turn is not None:
        actor = state.kingdom_rows[turn]
    if actor is not None:
        context["setup_actor"] = actor
        if step == "capital":
            context["start_tiles"] = map_actions.choices(
                state, mk.legal_start_tiles(state.map), state.map)
        elif step == "settle" and state.kingdoms[actor.pk].start_tile:
            start = state.kingdoms[actor.pk].start_tile
            context["settle_tiles"] = map_actions.choices(
                state, mk.legal_setup_tiles(state.map, start, actor.pk), state.map)
            context["settle_warnings"] = mk.setup_warnings(state.map, start)
            context["settle_start"] = start
        elif step == "army":
            context["army_tiles"] = map_actions.choices(
                state, mk.legal_starting_army_tiles(state.map, actor.pk), state.map)
    return context


@login_required
@require_POST
def choose_race(request: HttpRequest, slug: str) -> HttpResponse:
    access = mk_access(request, slug)
    kingdom = acting_kingdom(request, access)
    race = request.POST.get("race", "")
    return run(request, access, lambda: setup.choose_race(kingdom, request.user, race),
               "Race chosen. It stays secret until everyone has chosen.")


@login_required
@require_POST
def roll_order(request: HttpRequest, slug: str) -> HttpResponse:
    access = mk_access(request, slug, role=Role.GM)
    rolls: dict[int, int] | None = None
    if request.POST.get("source") == "entered":
        places = request.POST.getlist("order")
        try:
            order = parse_ids(places, "order")
        except ParseError:
            order = []
        if not order:
            return refuse(request, "Choose a kingdom for each place in the player order.",
                          context=tabs_context(access, "play"))
        return run(request, access,
                   lambda: setup.enter_initial_order(access.campaign, request.user, order),
                   "Player order entered.")
    if request.POST.get("source") == "table":
        rolls = {}
        for kingdom in access.campaign.kingdoms.all():
            try:
                rolls[kingdom.pk] = parse_int(request.POST.get(f"roll_{kingdom.pk}", ""), 1, 99,
                                              f"roll_{kingdom.pk}")
            except ParseError:
                return refuse(request, f"Enter the roll for {kingdom.name} as a number.",
                              context=tabs_context(access, "play"))
    return run(request, access, lambda: setup.roll_initial_order(access.campaign, request.user,
                                                                 rolls),
               "Player order drawn.")


@login_required
@require_POST
def choose_capital(request: HttpRequest, slug: str) -> HttpResponse:
    access = mk_access(request, slug)
    kingdom = acting_kingdom(request, access)
    label = request.POST.get("tile", "")
    return run(request, access, lambda: setup.choose_capital(kingdom, request.user, label),
               f"Capital founded at {label}.")


@login_required
@require_POST
def place_settlements(request: HttpRequest, slug: str) -> HttpResponse:
    access = mk_access(request, slug)
    kingdom = acting_kingdom(request, access)
    plan = {label: request.POST.get(f"place_{label}", "") for label in
            request.POST.getlist("tiles")}
    by_kind: dict[str, list[str]] = {"city": [], "fortress": [], "village": [], "marker": []}
    for label, kind in plan.items():
        if kind not in by_kind:
            return refuse(request, f"Choose what goes on {label}.",
                          context=tabs_context(access, "play"))
        by_kind[kind].append(label)
    if len(by_kind["city"]) > 1 or len(by_kind["fortress"]) > 1:
        return refuse(request, "Place exactly 1 city and 1 fortress (MK-SETUP-4).", status=409,
                      context=tabs_context(access, "play"))
    return run(
        request, access,
        lambda: setup.place_settlements(
            kingdom, request.user, city=(by_kind["city"] or [""])[0],
            fortress=(by_kind["fortress"] or [""])[0], villages=by_kind["village"],
            markers=by_kind["marker"],
        ),
        "First settlements placed.",
    )


@login_required
@require_POST
def place_army(request: HttpRequest, slug: str) -> HttpResponse:
    access = mk_access(request, slug)
    kingdom = acting_kingdom(request, access)
    label = request.POST.get("tile", "")
    return run(request, access, lambda: setup.place_first_army(kingdom, request.user, label),
               f"Army #1 placed at {label}.")
