"""Wizard's quests and magical artefacts (MK-QUEST, MK-ART): the page, the play page's quest
panel and one POST per action.

The page shows every member the pool and this winter's quests; a player also sees their own
artefacts and where they are, a GM every kingdom's (MK-ART-2/3: secret like army lists). A
player acts for their own kingdom, a GM for the kingdom named in the form. A refusal is a 409
with the reason and changes nothing. Success: the play page's phase fragment for htmx, else a
redirect (to the play page from the play page's quest panel, to this page otherwise).
"""

from __future__ import annotations

from typing import Any, Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from campaign.access import Access
from campaign.chronicle import recording
from campaign.models import Role
from campaign.parsing import ParseError, parse_id, parse_int
from campaign.services import ServiceError
from campaign.systems.mighty_kingdoms import advanced, standings
from campaign.systems.mighty_kingdoms import winter_services as ws
from campaign.systems.mighty_kingdoms.clock import phase_key
from campaign.systems.mighty_kingdoms.rules import campaign as mk
from campaign.systems.mighty_kingdoms.state import MKState, load_state
from campaign.systems.mighty_kingdoms.views import acting_kingdom, done, mk_access
from campaign.views.common import refuse, tabs_context

PAGE = "campaign/systems/mighty_kingdoms/advanced.html"


BadInput = ParseError


def _number(request: HttpRequest, name: str, *, optional: bool = False) -> int | None:
    """An id from the form (None for an empty optional one)."""
    raw = request.POST.get(name, "").strip()
    if raw == "" and optional:
        return None
    pk = parse_id(raw)
    if pk is None:
        raise BadInput(f"“{name}” must be a whole number (an id from the form).")
    return pk


def _count(request: HttpRequest, name: str, lo: int, hi: int, *,
           optional: bool = False) -> int | None:
    """A number typed in (a die, points), from ``lo`` to ``hi``."""
    if optional and request.POST.get(name, "").strip() == "":
        return None
    return parse_int(request.POST.get(name, ""), lo, hi, name)


# --- what the pages show ------------------------------------------------------------------------


def _quest_actor(state: MKState, access: Access) -> Any:
    """Whose quest panel this viewer sees: a player their own kingdom; a GM the kingdom whose
    buy turn it is (or none)."""
    if access.is_gm:
        if phase_key(state.campaign) != ws.BUY:
            return None
        _, turn = ws.cycle(state, mk.SUB_BUY)
        return state.kingdom_rows.get(turn) if turn else None
    if access.is_player and access.kingdom is not None and access.kingdom.pk in state.kingdoms:
        return state.kingdom_rows[access.kingdom.pk]
    return None


def play_context(state: MKState, access: Access) -> dict[str, Any]:
    """The quest panel of winter C) 2. Build and recruit: the form when the viewer's kingdom may
    send a Hero, else the reason (MK-QUEST-1/2/3/7, MK-AMB-22)."""
    if not state.options.module_wizard_towers or phase_key(state.campaign) != ws.BUY:
        return {}
    actor = _quest_actor(state, access)
    choice = advanced.quest_choice(state, actor) if actor is not None else None
    return {"quest": {"choice": choice, "quests": advanced.quests_of_winter(state.campaign),
                      "gm": access.is_gm}}


def page_context(access: Access) -> dict[str, Any]:
    state = load_state(access.campaign)
    c = state.campaign
    key = phase_key(c)
    own = ([state.kingdom_rows[pk] for pk in state.order] if access.is_gm
           else [access.kingdom] if access.is_player and access.kingdom is not None else [])
    holdings = []
    for row in own:
        held = advanced.artefacts_of(c, row)
        holdings.append({
            "kingdom": row,
            "artefacts": [{"artefact": a, "claim": advanced.winning_units(a)} for a in held],
            "units": advanced.carriers_of(state, row.pk) if key == ws.DEPLOY else [],
        })
    actor = _quest_actor(state, access)
    return {
        **tabs_context(access, "play"),
        "options": state.options,
        "pool": advanced.pool(c),
        "quests": advanced.quests_of_winter(c),
        "choice": (advanced.quest_choice(state, actor)
                   if actor is not None and state.options.module_wizard_towers else None),
        "holdings": holdings,
        "deploy": key == ws.DEPLOY,
        "towers": [t.label for t in advanced.towers(state)],
    }


@login_required
@require_GET
def page(request: HttpRequest, slug: str) -> HttpResponse:
    """MK-QUEST, MK-ART: the pool, this winter's quests, the quest form, the viewer's artefacts."""
    access = mk_access(request, slug, role=Role.OBSERVER)
    return render(request, PAGE, page_context(access))


# --- actions --------------------------------------------------------------------------------


def _act(request: HttpRequest, access: Access, action: Callable[[], str]) -> HttpResponse:
    if standings.ended(access.campaign):  # MK-AMB-20: nothing more is played
        return refuse(request, standings.end_message(access.campaign), status=409,
                      context=tabs_context(access, "play"))
    try:
        with recording() as events:
            summary = action()
    except (ServiceError, mk.RuleViolation) as exc:
        return refuse(request, str(exc), status=409, context=tabs_context(access, "play"))
    if request.htmx or request.POST.get("back") == "play":
        access.campaign.refresh_from_db()
        return done(request, access, summary, events)
    messages.success(request, summary)
    return redirect("mk:advanced", access.campaign.slug)


def _bad(request: HttpRequest, access: Access, exc: BadInput) -> HttpResponse:
    return refuse(request, str(exc), status=400, context=tabs_context(access, "play"))


@login_required
@require_POST
def quest(request: HttpRequest, slug: str) -> HttpResponse:
    """MK-QUEST-1..6: a Hero to a tower, the die typed in (or left to the server); a GM may
    record the artefact card drawn at the table."""
    access = mk_access(request, slug)
    kingdom = acting_kingdom(request, access)
    tower = request.POST.get("tower", "").strip()
    try:
        hero = _number(request, "hero")
        die = _count(request, "die", 1, 6, optional=True)
        artefact = _number(request, "artefact", optional=True)
    except BadInput as exc:
        return _bad(request, access, exc)
    assert hero is not None
    return _act(request, access, lambda: advanced.send_quest(
        kingdom, request.user, tower=tower, hero_id=hero, die=die, artefact_id=artefact,
        gm=access.is_gm))


@login_required
@require_POST
def add_to_pool(request: HttpRequest, slug: str) -> HttpResponse:
    """MK-ART-1: a GM adds an artefact (name, points) to the pool."""
    access = mk_access(request, slug, role=Role.GM)
    try:
        points = _count(request, "points", 0, 99_999)
    except BadInput as exc:
        return _bad(request, access, exc)
    assert points is not None
    name = request.POST.get("name", "")
    return _act(request, access, lambda: advanced.add_artefact(
        access.campaign, request.user, name, points).name + " joins the pool (MK-ART-1).")


@login_required
@require_POST
def remove_from_pool(request: HttpRequest, slug: str, artefact_id: int) -> HttpResponse:
    """MK-ART-1: a GM takes an artefact nobody holds out of the pool."""
    access = mk_access(request, slug, role=Role.GM)
    return _act(request, access, lambda: advanced.remove_artefact(
        access.campaign, request.user, artefact_id))


@login_required
@require_POST
def assign(request: HttpRequest, slug: str) -> HttpResponse:
    """MK-ART-2: at winter D) Deploy, one artefact to a unit (or back to the Capital City)."""
    access = mk_access(request, slug)
    kingdom = acting_kingdom(request, access)
    try:
        artefact = _number(request, "artefact")
        unit = _number(request, "unit", optional=True)
    except BadInput as exc:
        return _bad(request, access, exc)
    assert artefact is not None
    return _act(request, access, lambda: advanced.assign_artefact(
        kingdom, request.user, artefact, unit))


@login_required
@require_POST
def claim(request: HttpRequest, slug: str) -> HttpResponse:
    """MK-ART-5/8: a captured artefact to a suitable unit of the winning army."""
    access = mk_access(request, slug)
    kingdom = acting_kingdom(request, access)
    try:
        artefact = _number(request, "artefact")
        unit = _number(request, "unit")
    except BadInput as exc:
        return _bad(request, access, exc)
    assert artefact is not None and unit is not None
    return _act(request, access, lambda: advanced.claim_captured(
        kingdom, request.user, artefact, unit))
