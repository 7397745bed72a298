"""Mighty Kingdoms pages and actions shared by the phases, and the setup steps (MK-SETUP).

Every action is a POST that a player makes for their own kingdom, or a GM for any kingdom
(``kingdom`` in the form). An htmx POST gets the play page's phase fragment back; a plain POST
is redirected to the play page.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Callable

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from campaign import outcome, words
from campaign.access import Access, get_campaign_for, get_kingdom_for
from campaign.chronicle import recording
from campaign.models import Campaign, Event, Kingdom, Role, Visibility
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


def done(request: HttpRequest, access: Access, message: str,
         events: list[Event] | None = None) -> HttpResponse:
    """After a successful action: a plain statement of what happened at the top of the phase
    (``campaign.outcome``, with "Take it back" while that may be done), then the phase fragment
    for htmx, else back to the play page."""
    outcome.remember(request, access.campaign, message, events[-1] if events else None)
    if request.htmx:
        from campaign.views.play import render_play

        # The action moved the campaign on (whose turn, the clock): show it as it is now.
        access.campaign.refresh_from_db()
        response = render_play(request, access, fragment=True)
        response["HX-Trigger"] = "campaign-changed"
        return response
    return redirect("campaign:play", access.campaign.slug)


def run(request: HttpRequest, access: Access, action: Callable[[], Any],
        message: str | Callable[[Any], str] | None = None) -> HttpResponse:
    """Call a service; a refusal becomes a 4xx with its reason and changes nothing. Once the
    campaign is over (MK-AMB-20) every action is refused. ``message`` says what happened: a
    text, a function of what the service returned, or (None) the summary of the event the
    action recorded, which says it in the chronicle's words."""
    if standings.ended(access.campaign):
        return refuse(request, standings.end_message(access.campaign), status=409,
                      context=tabs_context(access, "play"))
    try:
        with recording() as events:
            result = action()
    except ServiceError as exc:
        return refuse(request, str(exc), status=409, context=tabs_context(access, "play"))
    except mk.RuleViolation as exc:
        return refuse(request, str(exc), status=409, context=tabs_context(access, "play"))
    text = message(result) if callable(message) else message
    return done(request, access, text or said(access, events), events)


def said(access: Access, events: list[Event]) -> str:
    """What the action did, in the words of the last event it recorded that this viewer may
    read (a GM-only note is not repeated to a player)."""
    for event in reversed(events):
        if access.is_gm or event.visibility != Visibility.GM:
            return event.summary
    return "Done."


def step_open(campaign: Campaign, event: Event) -> bool:
    """The ``step_open`` shell hook: whether the step ``event`` was recorded in is still open,
    so its player may take it back. A step is the point of the clock (year, season, month,
    phase; in winter's phase C the sub-phase its kind belongs to, MK-WINTER-1); closing a phase
    is the GM's and never a player's step."""
    if event.kind == "phase.advanced" or event.undo_of_id is not None:
        return False
    if any(getattr(campaign, name) != getattr(event, name)
           for name in ("year", "season", "month", "phase")):
        return False
    sub = SUB_PHASE_OF_KIND.get(event.kind)
    return sub is None or sub == campaign.sub_phase


# Winter's spending steps share phase C; the kind of an event says which one it was taken in.
SUB_PHASE_OF_KIND = {"winter.tithe": mk.SUB_TITHE, "winter.tithe.pass": mk.SUB_TITHE,
                     "winter.buy": mk.SUB_BUY, "winter.buy.pass": mk.SUB_BUY,
                     "winter.feed": mk.SUB_FEED}


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
    if step == "race":
        context["too_few_kingdoms"] = len(state.kingdom_rows) < 2
        context["can_found"] = access.is_gm or (access.is_player and mine is None)
        if mine is not None:
            context["my_race"] = setup.races(state, [mine.pk])[mine.pk]
        return context
    # Capitals, settlements and first armies go in player order (MK-SETUP-3..5): the form is
    # for the kingdom whose turn it is, shown to its player and to the GMs; a kingdom that has
    # done the step, or waits for its turn, is told so instead.
    turn = setup.setup_turn(state)
    actor = None
    if turn is not None and (access.is_gm or (mine is not None and mine.pk == turn)):
        actor = state.kingdom_rows[turn]
    elif mine is not None and step in SETUP_DONE:
        done_by = SETUP_DONE[step](state)
        context["setup_waiting"] = (
            SETUP_DONE_TEXT[step] if mine.pk in done_by else
            f"Your turn comes in player order; {state.kingdom_rows[turn].name} goes now."
            if turn is not None else None)
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


SETUP_DONE = {"capital": setup.capital_done, "settle": setup.settled, "army": setup.army_done}
SETUP_DONE_TEXT = {
    "capital": "Your capital is founded; the others found theirs in player order (MK-SETUP-3).",
    "settle": "Your first settlements are placed; the others place theirs in player order "
              "(MK-SETUP-4).",
    "army": "Your first army is placed; the others place theirs in player order (MK-SETUP-5).",
}


@login_required
@require_POST
def choose_race(request: HttpRequest, slug: str) -> HttpResponse:
    access = mk_access(request, slug)
    kingdom = acting_kingdom(request, access)
    race = request.POST.get("race", "")
    whose = "Your" if access.kingdom is not None and access.kingdom.pk == kingdom.pk else (
        f"{kingdom.name}'s")
    return run(request, access, lambda: setup.choose_race(kingdom, request.user, race),
               f"{whose} race is sealed: {' '.join(race.split())}. Nobody else sees it until "
               "everyone has chosen (MK-SETUP-1).")


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
                   lambda names: f"Player order entered: {words.and_list(names)}.")
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
               lambda names: f"Player order drawn: {words.and_list(names)}.")


@login_required
@require_POST
def choose_capital(request: HttpRequest, slug: str) -> HttpResponse:
    access = mk_access(request, slug)
    kingdom = acting_kingdom(request, access)
    label = request.POST.get("tile", "")
    return run(request, access, lambda: setup.choose_capital(kingdom, request.user, label),
               f"Founded {kingdom.name}'s capital at {label}.")


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
        settlements_placed(kingdom, by_kind),
    )


def settlements_placed(kingdom: Kingdom, by_kind: dict[str, list[str]]) -> str:
    """"Placed Red's settlements: a city at 0506, a fortress at 0507, villages at 0603 and
    0604, control markers at 0605 and 0606." (MK-SETUP-4)"""
    parts = []
    for kind, one, many in (("city", "a city", "cities"), ("fortress", "a fortress", "fortresses"),
                            ("village", "a village", "villages"),
                            ("marker", "a control marker", "control markers")):
        labels = sorted(by_kind.get(kind, []))
        if labels:
            parts.append(f"{one if len(labels) == 1 else many} at {words.and_list(labels)}")
    return f"Placed {kingdom.name}'s settlements: {', '.join(parts)}."


@login_required
@require_POST
def place_army(request: HttpRequest, slug: str) -> HttpResponse:
    access = mk_access(request, slug)
    kingdom = acting_kingdom(request, access)
    label = request.POST.get("tile", "")
    return run(request, access, lambda: setup.place_first_army(kingdom, request.user, label),
               f"Placed {kingdom.name}'s army #1 at {label}.")
