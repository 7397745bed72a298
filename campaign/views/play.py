"""The play page: where the campaign stands, what blocks the current phase, whose turn it is,
and the actions of this viewer. Its content comes from the rule system's "play" slot."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from campaign import outcome
from campaign.access import Access, get_campaign_for
from campaign.models import Role
from campaign.services import ServiceError
from campaign.views.common import refuse, tabs_context


def render_play(request: HttpRequest, access: Access, *, fragment: bool = False,
                status: int = 200) -> HttpResponse:
    system = access.campaign.system
    context = {**tabs_context(access, "play"), "play_template": system.template("play")}
    play_context = system.hook("play_context")
    problem = system.clock_problem(access.campaign.clock)
    if problem:
        # A clock changed by hand in the admin: say what is wrong instead of failing.
        return refuse(request, f"{access.campaign.name} stands at a point {system.label} cannot "
                      f"be at: {problem}", status=409, context=tabs_context(access, "play"))
    # The map's row, read once here, is kept on the campaign for the system's context.
    if system.map_required and not hasattr(access.campaign, "map"):
        return refuse(request, f"{access.campaign.name} has no map yet, and {system.label} is "
                      "played on one: " + ("make it in the map editor." if access.is_gm else
                                           "the GM makes it in the map editor."),
                      status=409, context=tabs_context(access, "play"))
    if play_context is not None:
        try:
            context.update(play_context(access))
        except ServiceError as exc:
            # The system cannot show this campaign where it stands: say why.
            return refuse(request, str(exc), status=409, context=tabs_context(access, "play"))
    context.update(outcome.page_context(request, access))
    template = "campaign/play.html#phase" if fragment else "campaign/play.html"
    return render(request, template, context, status=status)


@login_required
@require_GET
def play(request: HttpRequest, slug: str) -> HttpResponse:
    access = get_campaign_for(request, slug)
    return render_play(request, access, fragment=bool(request.htmx))


@login_required
@require_POST
def advance(request: HttpRequest, slug: str) -> HttpResponse:
    access = get_campaign_for(request, slug, role=Role.GM)
    hook = access.campaign.system.hook("advance")
    if hook is None:
        return refuse(request, "This rule system has no phases to advance.", status=409,
                      context=tabs_context(access, "play"))
    expected = request.POST.get("clock", "")
    if expected and expected != access.campaign.clock_label():
        return refuse(request, "The campaign moved on while this page was open; look again.",
                      status=409, context=tabs_context(access, "play"))
    try:
        event = hook(access.campaign, request.user, request.POST)
    except ServiceError as exc:
        return refuse(request, str(exc), status=409, context=tabs_context(access, "play"))
    # The statement of what happened sits at the top of the new phase (campaign.outcome), not
    # in a banner that would outlive the phase.
    outcome.remember(request, access.campaign, event.summary, event)
    return redirect("campaign:play", slug)
