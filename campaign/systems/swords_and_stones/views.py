"""Grand Campaign pages and actions: one POST per action, the game pages, the report form and
the honours roll.

A player acts for their own kingdom, a GM for the kingdom named in the form. Input that is not
well formed gets 400; a refusal of the rules or the services 409 with the reason; nothing changes
either way. Success gives htmx the play page's fragment, else a redirect with the event's summary.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from campaign.access import Access, get_campaign_for, get_kingdom_for
from campaign.models import Kingdom, Role
from campaign.once import applies_once
from campaign.parsing import ParseError, parse_id, parse_int
from campaign.services import ServiceError
from campaign.systems.swords_and_stones import (
    buildings,
    costs,
    pages,
    reports,
    services,
    sites,
    table,
)
from campaign.systems.swords_and_stones.models import Game, Participant, Spend
from campaign.systems.swords_and_stones.rules import grand_campaign as gc
from campaign.systems.swords_and_stones.rules import titles as tt
from campaign.views.common import refuse, tabs_context

SLUG = "swords-and-stones"
MAX_TEXT = 60


def sns_access(request: HttpRequest, slug: str, role: str = Role.PLAYER) -> Access:
    access = get_campaign_for(request, slug, role=role)
    if access.campaign.rule_system != SLUG:
        raise Http404("This page belongs to Swords & Stones campaigns.")
    return access


def acting_kingdom(request: HttpRequest, access: Access) -> Kingdom:
    """The kingdom this request acts for: the player's own, or the one a GM names."""
    raw = request.POST.get("kingdom", "").strip()
    if access.is_gm:
        if raw:
            pk = parse_id(raw)
            if pk is None:
                raise ParseError("“kingdom” must be a kingdom's id from the form.")
            return get_kingdom_for(access, pk)
        if access.kingdom is not None:
            return access.kingdom
        raise ParseError("Say which kingdom this is for.")
    if access.kingdom is None:
        raise PermissionDenied("You have no kingdom in this campaign.")
    if raw and parse_id(raw) != access.kingdom.pk:
        raise PermissionDenied("You act for your own kingdom only.")
    return access.kingdom


def _text(request: HttpRequest, name: str, limit: int = MAX_TEXT) -> str:
    value = request.POST.get(name, "").strip()
    if len(value) > limit:
        raise ParseError(f"“{name}” is at most {limit} characters.")
    return value


def _game(access: Access, raw: object) -> Game:
    number = parse_int(raw, 1, 99_999, "game")
    game = Game.objects.filter(campaign=access.campaign, number=number).select_related(
        "challenger", "defender").first()
    if game is None:
        raise Http404(f"There is no game {number} in this campaign.")
    return game


def done(request: HttpRequest, access: Access, message: str,
         to: str | None = None) -> HttpResponse:
    """After a successful action: the phase fragment for htmx, else back to the page."""
    if request.htmx and to is None:
        from campaign.views.play import render_play

        access.campaign.refresh_from_db()
        response = render_play(request, access, fragment=True)
        response["HX-Trigger"] = "campaign-changed"
        return response
    messages.success(request, message)
    if to is None:
        return redirect("campaign:play", access.campaign.slug)
    if request.htmx:
        return HttpResponseClientRedirect(to)
    return redirect(to)


def run(request: HttpRequest, access: Access, action: Callable[[], Any],
        to: str | None = None) -> HttpResponse:
    """Call a service: its summary is the success message, a refusal a 409 with the reason."""
    try:
        result = action()
    except (ServiceError, gc.RuleViolation) as exc:
        return refuse(request, str(exc), status=409, context=tabs_context(access, "play"))
    message = result if isinstance(result, str) else getattr(result, "summary", "Done.")
    if isinstance(result, Game):
        message = f"Game {result.number}: {result.challenger.name} challenges for " \
                  f"{result.territory_name}."
    return done(request, access, message, to)


def _game_url(access: Access, game: Game) -> str:
    return reverse("sns:game", kwargs={"slug": access.campaign.slug, "number": game.number})


def _bad(request: HttpRequest, access: Access, exc: Exception) -> HttpResponse:
    return refuse(request, str(exc), status=400, context=tabs_context(access, "play"))


# --- placement and Kings ------------------------------------------------------------------------


@login_required
@require_POST
@applies_once
def name_king(request: HttpRequest, slug: str) -> HttpResponse:
    """SNS-KING-7, SNS-KING-3: a first King or an heir."""
    access = sns_access(request, slug)
    try:
        kingdom = acting_kingdom(request, access)
        name = _text(request, "name")
    except ParseError as exc:
        return _bad(request, access, exc)
    return run(request, access,
               lambda: services.name_king(access.campaign, request.user, kingdom, name))


@login_required
@require_POST
def place(request: HttpRequest, slug: str) -> HttpResponse:
    """SNS-GC-3: Capital and two claims."""
    access = sns_access(request, slug)
    try:
        kingdom = acting_kingdom(request, access)
        capital = _text(request, "capital", 40)
        claims = [c.strip()[:40] for c in request.POST.getlist("claim") if c.strip()]
    except ParseError as exc:
        return _bad(request, access, exc)
    return run(request, access, lambda: services.place(access.campaign, request.user, kingdom,
                                                       capital, claims))


@login_required
@require_POST
def preset(request: HttpRequest, slug: str) -> HttpResponse:
    """SNS-GC-9: the GM lays out the preset Map of Avalon."""
    access = sns_access(request, slug, Role.GM)
    return run(request, access, lambda: services.load_preset(access.campaign, request.user))


@login_required
@require_POST
def newcomer(request: HttpRequest, slug: str) -> HttpResponse:
    """SNS-NEW-1..4: the GM gives a new kingdom its land as proposed."""
    access = sns_access(request, slug, Role.GM)
    try:
        kingdom = acting_kingdom(request, access)
    except ParseError as exc:
        return _bad(request, access, exc)
    return run(request, access,
               lambda: services.add_newcomer(access.campaign, request.user, kingdom))


@login_required
@require_POST
def artificial(request: HttpRequest, slug: str) -> HttpResponse:
    """SNS-GC-1: the GM marks a kingdom as an artificial player, or not."""
    access = sns_access(request, slug, Role.GM)
    try:
        kingdom = acting_kingdom(request, access)
        flag = _text(request, "is_ai", 3)
        if flag not in ("yes", "no"):
            raise ParseError("“is_ai” is yes or no.")
    except ParseError as exc:
        return _bad(request, access, exc)
    to = reverse("campaign:kingdom", args=[access.campaign.slug, kingdom.pk])
    return run(request, access, lambda: services.set_artificial(
        access.campaign, request.user, kingdom, flag == "yes"), to=to)


# --- challenges and games -----------------------------------------------------------------------


@login_required
@require_POST
@applies_once
def challenge(request: HttpRequest, slug: str) -> HttpResponse:
    """SNS-GC-4, SNS-GC-8: the kingdom whose turn it is challenges for a Territory."""
    access = sns_access(request, slug)
    try:
        kingdom = acting_kingdom(request, access)
        territory = _text(request, "territory", 40)
        raw = request.POST.get("defender", "").strip()
        defender = None
        if raw and raw != "ai":
            pk = parse_id(raw)
            if pk is None:
                raise ParseError("“defender” must be a kingdom's id or ai.")
            defender = get_kingdom_for(access, pk)
        ai_name = _text(request, "ai_name")
        map_type = _text(request, "map_type", 40)
        game_mode = _text(request, "game_mode", 40)
    except ParseError as exc:
        return _bad(request, access, exc)
    return run(request, access, lambda: services.challenge(
        access.campaign, request.user, kingdom, territory, defender, ai_name, map_type,
        game_mode))


@login_required
@require_POST
def set_up(request: HttpRequest, slug: str) -> HttpResponse:
    """SNS-SUP-1..4, SNS-KING-2, SNS-KING-7: a kingdom's start of the coming game."""
    access = sns_access(request, slug)
    try:
        kingdom = acting_kingdom(request, access)
        game = _game(access, request.POST.get("game"))
        faction = _text(request, "faction", 20)
        supply = []
        for key in request.POST:
            if key.startswith("supply_"):
                value = request.POST.get(key, "").strip()
                if value:
                    supply.append((key.removeprefix("supply_")[:40], value[:20]))
        title = _text(request, "title", 20)
        variant = _text(request, "variant", 20)
        raw = request.POST.get("crate", "").strip()
        crate = None
        if raw:
            crate = parse_id(raw)
            if crate is None:
                raise ParseError("“crate” must be an item's id from the form.")
    except ParseError as exc:
        return _bad(request, access, exc)
    return run(request, access, lambda: services.set_up(
        access.campaign, request.user, game, kingdom, faction=faction, supply=supply,
        title=title, variant=variant, crate_item=crate))


@login_required
@require_POST
def begin(request: HttpRequest, slug: str) -> HttpResponse:
    """SNS-PTS-4: turn 1 begins."""
    access = sns_access(request, slug, Role.GM)
    try:
        game = _game(access, request.POST.get("game"))
    except ParseError as exc:
        return _bad(request, access, exc)
    return run(request, access, lambda: services.begin_game(access.campaign, request.user, game))


@login_required
@require_POST
def result(request: HttpRequest, slug: str) -> HttpResponse:
    """SNS-GC-6, SNS-PTS-1, SNS-KING-3..5: the GM records a game's result."""
    access = sns_access(request, slug, Role.GM)
    try:
        game = _game(access, request.POST.get("game"))
        outcome = _text(request, "result", 10)
        if outcome not in gc.RESULTS:
            raise ParseError("“result” is win, loss or draw (the challenger's).")
        fates = {}
        for part in game.participants.all():
            fate = request.POST.get(f"fate_{part.kingdom_id}", gc.ALIVE).strip() or gc.ALIVE
            if fate not in gc.KING_OUTCOMES:
                raise ParseError("A King's fate is alive, dead, surrendered or fled.")
            fates[part.kingdom_id] = fate
        decline_raw = request.POST.get("decline", "").strip()
        decline = {"": None, "no": False, "yes": True}.get(decline_raw)
        if decline_raw not in ("", "no", "yes"):
            raise ParseError("“decline” is yes or no.")
    except ParseError as exc:
        return _bad(request, access, exc)
    return run(request, access, lambda: services.record_result(
        access.campaign, request.user, game, outcome, fates, decline))


@login_required
@require_POST
def compensation(request: HttpRequest, slug: str) -> HttpResponse:
    """SNS-GC-7: the defender's compensation, chosen by that player or a GM."""
    access = sns_access(request, slug)
    try:
        game = _game(access, request.POST.get("game"))
        choice = _text(request, "choice", 20)
        if choice not in (gc.TAKE_CLAIMED, gc.STAKE_UNCLAIMED, "decline"):
            raise ParseError("“choice” is take_claimed, stake_unclaimed or decline.")
        territories = [t.strip()[:40] for t in request.POST.getlist("territory") if t.strip()]
    except ParseError as exc:
        return _bad(request, access, exc)
    offer = game.pending.get("compensation")
    if offer is not None and not access.is_gm:
        if access.kingdom is None or access.kingdom.name != offer["beneficiary"]:
            raise PermissionDenied("Only the defender who won chooses the compensation.")
    return run(request, access, lambda: services.choose_compensation(
        access.campaign, request.user, game, None if choice == "decline" else choice,
        territories))


@login_required
@require_POST
def capital(request: HttpRequest, slug: str) -> HttpResponse:
    """SNS-CAP-3: a new Capital after losing one."""
    access = sns_access(request, slug)
    try:
        game = _game(access, request.POST.get("game"))
        territory = _text(request, "territory", 40)
    except ParseError as exc:
        return _bad(request, access, exc)
    who = game.pending.get("capital_for")
    if who is not None and not access.is_gm:
        if access.kingdom is None or access.kingdom.name != who:
            raise PermissionDenied("Only the kingdom that lost its Capital names a new one.")
    return run(request, access, lambda: services.name_capital(access.campaign, request.user,
                                                              game, territory))


# --- points -------------------------------------------------------------------------------------


@login_required
@require_POST
@applies_once
def spend(request: HttpRequest, slug: str) -> HttpResponse:
    """SNS-PTS-3: spend Victory or Vengeance points."""
    access = sns_access(request, slug)
    try:
        kingdom = acting_kingdom(request, access)
        code = _text(request, "code", 12)
        target = _text(request, "target", 40)
    except ParseError as exc:
        return _bad(request, access, exc)
    return run(request, access, lambda: services.spend(access.campaign, request.user, kingdom,
                                                       code, target or None))


@login_required
@require_POST
def gondor(request: HttpRequest, slug: str) -> HttpResponse:
    """SNS-VEN-GONDOR: the die of a Gondor Calls for Aid! spend."""
    access = sns_access(request, slug)
    try:
        kingdom = acting_kingdom(request, access)
        pk = parse_id(request.POST.get("spend", ""))
        die = parse_int(request.POST.get("die", ""), 1, 6, "die")
    except ParseError as exc:
        return _bad(request, access, exc)
    row = Spend.objects.filter(campaign=access.campaign, kingdom=kingdom, pk=pk).first()
    if row is None:
        raise Http404("No such spend of this kingdom.")
    return run(request, access, lambda: services.roll_gondor(access.campaign, request.user,
                                                             row, die))


# --- games, reports and Titles ------------------------------------------------------------------


def _game_page_context(access: Access, game: Game) -> dict[str, Any]:
    views = pages.report_views(access.campaign, game)
    return {**tabs_context(access, "play"), "game": game, "report_views": views,
            "fields": reports.FIELDS,
            "mine": [v for v in views if access.can_edit_kingdom(v.part.kingdom)]}


@login_required
@require_GET
def games(request: HttpRequest, slug: str) -> HttpResponse:
    """Every game of the campaign, newest first."""
    access = sns_access(request, slug, Role.OBSERVER)
    rows = list(Game.objects.filter(campaign=access.campaign).select_related(
        "challenger", "defender").order_by("-number"))
    return render(request, "campaign/systems/swords_and_stones/games.html",
                  {**tabs_context(access, "play"), "games": rows})


@login_required
@require_GET
def game_page(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """One game: its challenge, result, reports and the Titles they earn."""
    access = sns_access(request, slug, Role.OBSERVER)
    game = _game(access, str(number))
    return render(request, "campaign/systems/swords_and_stones/game.html",
                  _game_page_context(access, game))


@login_required
@require_http_methods(["GET", "POST"])
def report(request: HttpRequest, slug: str, number: int, kingdom_id: int) -> HttpResponse:
    """SNS-STAT-*: the post-game report of one kingdom, filled in by its player or the GM."""
    access = sns_access(request, slug)
    game = _game(access, str(number))
    kingdom = get_kingdom_for(access, kingdom_id, edit=True)
    part = Participant.objects.filter(game=game, kingdom=kingdom).select_related(
        "kingdom", "king").first()
    if part is None:
        raise Http404(f"{kingdom.name} did not play game {game.number}.")
    context = {**tabs_context(access, "play"), "game": game, "part": part,
               "groups": [(g, [f for f in reports.FIELDS if f.group == g])
                          for g in reports.GROUPS],
               "values": part.report, "factions": gc.FACTIONS}
    if request.method == "GET":
        return render(request, "campaign/systems/swords_and_stones/report.html", context)
    try:
        values = reports.parse(request.POST)
    except ParseError as exc:
        return refuse(request, str(exc), status=400, context=tabs_context(access, "play"))
    confirm = access.is_gm and request.POST.get("confirm") == "yes"
    target = _game_url(access, game)
    return run(request, access, lambda: services.file_report(
        access.campaign, request.user, game, kingdom, values, confirm=confirm), to=target)


@login_required
@require_POST
def confirm(request: HttpRequest, slug: str) -> HttpResponse:
    """SNS-TITLE-G1: the GM confirms a report and answers its Titles' questions."""
    access = sns_access(request, slug, Role.GM)
    try:
        game = _game(access, request.POST.get("game"))
        kingdom = acting_kingdom(request, access)
        yes = [c.strip()[:20] for c in request.POST.getlist("gm_yes") if c.strip()]
    except ParseError as exc:
        return _bad(request, access, exc)
    target = _game_url(access, game)
    return run(request, access, lambda: services.confirm_report(
        access.campaign, request.user, game, kingdom, yes), to=target)


@login_required
@require_POST
def titles(request: HttpRequest, slug: str) -> HttpResponse:
    """SNS-TITLE-G2: the player takes a Title the confirmed report earned."""
    access = sns_access(request, slug)
    try:
        game = _game(access, request.POST.get("game"))
        kingdom = acting_kingdom(request, access)
        picks = [c.strip()[:20] for c in request.POST.getlist("title") if c.strip()]
        unknown = [c for c in picks if c not in tt.TITLE_BY_CODE]
        if unknown:
            raise ParseError("Unknown Title: " + ", ".join(unknown) + ".")
    except ParseError as exc:
        return _bad(request, access, exc)
    target = _game_url(access, game)
    return run(request, access, lambda: services.take_titles(
        access.campaign, request.user, game, kingdom, picks), to=target)


@login_required
@require_POST
def crate(request: HttpRequest, slug: str) -> HttpResponse:
    """SNS-CRATE-5: crate items used or lost, and the one a living King carries on."""
    access = sns_access(request, slug)
    try:
        game = _game(access, request.POST.get("game"))
        kingdom = acting_kingdom(request, access)
        gone = []
        for raw in request.POST.getlist("gone"):
            pk = parse_id(raw)
            if pk is None:
                raise ParseError("“gone” lists item ids from the form.")
            gone.append(pk)
        name = _text(request, "name")
        kind = _text(request, "kind", 10) or tt.GENERAL
        effect = _text(request, "effect", 200)
    except ParseError as exc:
        return _bad(request, access, exc)
    target = _game_url(access, game)
    return run(request, access, lambda: services.carry_crate_item(
        access.campaign, request.user, game, kingdom, gone=gone, name=name, kind=kind,
        effect=effect), to=target)


@login_required
@require_GET
def honours(request: HttpRequest, slug: str) -> HttpResponse:
    """SNS-KING-1, SNS-TITLE-G3: every reign of every kingdom with its Titles."""
    access = sns_access(request, slug, Role.OBSERVER)
    kingdoms = list(access.campaign.kingdoms.order_by("order_position", "pk"))
    roll = pages.reigns(access.campaign)
    return render(request, "campaign/systems/swords_and_stones/honours.html",
                  {**tabs_context(access, "play"),
                   "rows": [(k, roll.get(k.pk, [])) for k in kingdoms]})


# --- the game at the table (the Stockpile ledger) -----------------------------------------------


def _table_kingdom(access: Access, kingdom_id: int) -> Kingdom:
    return get_kingdom_for(access, kingdom_id, edit=True)


def _table_context(campaign: Any, game: Game, kingdom: Kingdom) -> dict[str, Any]:
    """The Stockpile, the kingdom's buildings, Sites and timers, and what it may do now."""
    context = table.table_view(campaign, game, kingdom)
    types = costs.cost_types(campaign)
    return {**context, **buildings.holdings_view(campaign, game, context["part"], types)}


def _kinds(request: HttpRequest, name: str = "types") -> list[str]:
    """Resources named for the amounts whose type the source lost, in order (SNS-AMB-30)."""
    words = [w for w in _text(request, name, 80).replace(" ", "").lower().split(",") if w]
    return words


def _pick(request: HttpRequest, name: str) -> int:
    value = parse_id(request.POST.get(name, ""))
    if value is None:
        raise ParseError(f"“{name}” must be an id from the form.")
    return value


def _table_act(request: HttpRequest, access: Access, game: Game, kingdom: Kingdom,
               action: str) -> Callable[[], str] | None:
    """The buildings, Sites and timers actions at the table (None: not one of them)."""
    user, campaign, post = request.user, access.campaign, request.POST
    args = (campaign, user, game, kingdom)
    if action == "site":
        kind = _text(request, "kind", 10)
        level = parse_int(post.get("level", ""), 1, 12, "level")
        secondary = _text(request, "secondary", 10) or None
        threshold = parse_int(post.get("threshold", ""), 2, 6, "threshold") if secondary \
            else None
        label, set_name = _text(request, "label", 20), _text(request, "set", 4) or "A"
        island, mountain = post.get("middle_island") == "yes", post.get("mountain") == "yes"
        return lambda: sites.record_site(*args, label, kind, level, set_name=set_name,
                                         secondary=secondary, threshold=threshold,
                                         middle_island=island, at_mountain=mountain)
    if action == "site_harvest":
        from campaign.parsing import parse_dice

        site_id, dice = _pick(request, "site"), parse_dice(post.get("dice", ""))
        if not dice:
            raise ParseError("Type the harvest dice rolled at the table.")
        stone = parse_int(post.get("stone_instead", ""), 0, 60, "stone instead", default=0)
        inside = post.get("inside_siege") == "yes"
        return lambda: sites.harvest_site(*args, site_id, dice, stone_instead=stone,
                                          inside_siege_line=inside)
    if action == "scarcity":
        site_id = _pick(request, "site")
        points = parse_int(post.get("points", ""), 1, 12, "points", default=1)
        return lambda: sites.add_scarcity(*args, site_id, points)
    if action == "site_level":
        if not access.is_gm:
            raise PermissionDenied("The GM sets a Site's level (SNS-STATE-5).")
        site_id = _pick(request, "site")
        level = parse_int(post.get("level", ""), 1, 12, "level")
        return lambda: sites.set_level(*args, site_id, level)
    if action == "plant":
        label, kind = _text(request, "label", 20), _text(request, "type", 10) or None
        return lambda: sites.plant_forest(*args, label, kind)
    if action == "found":
        code = _text(request, "building", 20).upper()
        kinds = _kinds(request)
        wood = parse_int(post.get("wood_for_stone", ""), 0, 99, "wood for stone", default=0)
        over, outside = post.get("over_impassable") == "yes", post.get("outside") == "yes"
        return lambda: buildings.lay_foundation(*args, code, kinds, wood_for_stone=wood,
                                                over_impassable=over,
                                                in_own_section=not outside)
    if action == "cancel":
        work_id = _pick(request, "work")
        return lambda: buildings.cancel_foundation(*args, work_id)
    if action == "upgrade":
        code, kinds = _text(request, "upgrade", 20).upper(), _kinds(request)
        alternative = parse_int(post.get("alternative", ""), 0, 2, "alternative", default=0)
        return lambda: buildings.buy_upgrade(*args, code, kinds, alternative=alternative)
    if action == "discard":
        code = _text(request, "upgrade", 20).upper()
        return lambda: buildings.discard_upgrade(*args, code)
    if action == "staff":
        work_id, flag = _pick(request, "work"), post.get("staffed") == "yes"
        return lambda: buildings.set_staff(*args, work_id, flag)
    if action == "damage":
        work_id = _pick(request, "work")
        fire = parse_int(post.get("fire", ""), 1, 6, "fire die", default=0) or None
        wounds = parse_int(post.get("wounds", ""), 0, 99, "wounds", default=0)
        if fire is None and not wounds:
            raise ParseError("Give the wounds, or the fire die rolled (SNS-CBT-5, SNS-CBT-8).")
        return lambda: buildings.damage(*args, work_id, wounds=wounds, fire_die=fire)
    if action == "repair":
        work_id = _pick(request, "work")
        wounds = parse_int(post.get("wounds", ""), 1, 99, "wounds")
        return lambda: buildings.repair(*args, work_id, wounds)
    if action == "timer":
        name = _text(request, "name", 40)
        value = parse_int(post.get("value", ""), 1, 99, "value", default=0) or None
        if not name:
            raise ParseError("Name the timer (SNS-STATE-3).")
        return lambda: buildings.start_timer(*args, name, value)
    if action == "end_timer":
        timer_id = _pick(request, "timer")
        return lambda: buildings.end_timer(*args, timer_id)
    return None


@login_required
@require_GET
def table_page(request: HttpRequest, slug: str, number: int, kingdom_id: int) -> HttpResponse:
    """SNS-ECON-2: a kingdom's Stockpile through a game, for its player and the GM."""
    access = sns_access(request, slug)
    game = _game(access, str(number))
    kingdom = _table_kingdom(access, kingdom_id)
    context = {**tabs_context(access, "play"), "game": game, "kingdom": kingdom,
               **_table_context(access.campaign, game, kingdom)}
    if context["part"] is None:
        raise Http404(f"{kingdom.name} does not play game {game.number}.")
    template = "campaign/systems/swords_and_stones/table.html"
    return render(request, template + "#table" if request.htmx else template, context)


@login_required
@require_POST
def table_action(request: HttpRequest, slug: str, number: int, kingdom_id: int,
                 action: str) -> HttpResponse:
    """SNS-ECON-11..61: one action at the table: Farm dice, a typed line, the compulsory phase,
    training, the next phase, the Stockpile working or not, a siege laid or lifted."""
    access = sns_access(request, slug)
    game = _game(access, str(number))
    kingdom = _table_kingdom(access, kingdom_id)
    user, campaign = request.user, access.campaign
    post = request.POST
    try:
        if action == "farm":
            from campaign.parsing import parse_dice

            dice = parse_dice(post.get("dice", ""))
            outcomes = [o.strip() for o in post.get("outcomes", "").split(",") if o.strip()]
            act: Callable[[], str] = lambda: table.farm_harvest(  # noqa: E731
                campaign, user, game, kingdom, dice, outcomes)
        elif action == "line":
            resource = _text(request, "resource", 10)
            amount = parse_int(post.get("amount", ""), -999, 999, "amount")
            rule = _text(request, "rule", 20)
            reason = _text(request, "reason", 80)
            act = lambda: table.book_line(campaign, user, game, kingdom,  # noqa: E731
                                          resource, amount, rule, reason)
        elif action == "compulsory":
            besieged = post.get("besieged") == "yes"
            typed: dict[str, int] | None = None
            if any(f"b_{code}" in post for code in table.BUILDINGS):
                typed = {code: parse_int(post.get(f"b_{code}", "") or "0", 0, 99, code)
                         for code in table.BUILDINGS}
            workers = {parse_int(k[2:], 1, 10**6, "foundation"):
                       parse_int(v or "0", 0, 99, "workers")
                       for k, v in post.items() if k.startswith("w_")}
            idle = [parse_int(k[5:], 1, 10**6, "building") for k in post
                    if k.startswith("idle_")]
            act = lambda: table.compulsory(campaign, user, game, kingdom,  # noqa: E731
                                           typed, besieged,
                                           workers={k: n for k, n in workers.items() if n},
                                           idle=idle)
        elif action == "train":
            code = _text(request, "unit", 20).upper()
            count = parse_int(post.get("count", ""), 1, 99, "count")
            types = [t for t in post.get("types", "").replace(" ", "").split(",") if t]
            act = lambda: table.train(campaign, user, game, kingdom, code,  # noqa: E731
                                      count, types)
        elif action == "event":
            from campaign.parsing import parse_dice

            table_name = _text(request, "table", 20)
            roll = parse_int(post.get("roll", ""), 3, 18, "roll")
            subs = parse_dice(post.get("sub_rolls", ""), field="sub-rolls")
            picks = [c.strip() for c in post.get("choices", "").split(",") if c.strip()]
            site = parse_id(post.get("site", "")) if post.get("site") else None
            if post.get("site") and site is None:
                raise ParseError("“site” must be a Site from the form.")
            act = lambda: table.event(campaign, user, game, kingdom,  # noqa: E731
                                      table_name, roll, subs, picks, site)
        elif action == "next":
            act = lambda: table.next_phase(campaign, user, game, kingdom)  # noqa: E731
        elif action == "operational":
            flag = post.get("operational") == "yes"
            act = lambda: table.set_operational(campaign, user, game,  # noqa: E731
                                                kingdom, flag)
        elif action == "siege":
            flag = post.get("besieged") == "yes"
            act = lambda: table.set_besieged(campaign, user, game, kingdom, flag)  # noqa: E731
        else:
            found = _table_act(request, access, game, kingdom, action)
            if found is None:
                raise Http404("No such action at the table.")
            act = found
    except ParseError as exc:
        return _bad(request, access, exc)
    try:
        summary = act()
    except (ServiceError, gc.RuleViolation) as exc:
        return refuse(request, str(exc), status=409, context=tabs_context(access, "play"))
    target = reverse("sns:table", kwargs={"slug": campaign.slug, "number": game.number,
                                          "kingdom_id": kingdom.pk})
    if request.htmx:
        context = {**tabs_context(access, "play"), "game": game, "kingdom": kingdom,
                   "done": summary, **_table_context(campaign, game, kingdom)}
        return render(request, "campaign/systems/swords_and_stones/table.html#table", context)
    messages.success(request, summary)
    return redirect(target)


def _codes(raw: str, field: str) -> list[str]:
    """Unit codes typed as "SWORDS SWORDS KNIGHTS" or "2 SWORDS, KNIGHTS"."""
    from campaign.systems.swords_and_stones.rules import autoresolve as ar

    found: list[str] = []
    words = raw.replace(",", " ").upper().split()
    if len(words) > 200:
        raise ParseError(f"“{field}”: at most 200 units.")
    count = 1
    for word in words:
        if word.isascii() and word.isdigit():
            count = parse_int(word, 1, 99, field)
            continue
        if word not in ar.ARMY_POINTS_TENTHS:
            raise ParseError(f"“{field}”: {word} is not a unit the battle counts (SNS-AR-6).")
        found += [word] * count
        count = 1
    return found


@login_required
@require_GET
def battle(request: HttpRequest, slug: str) -> HttpResponse:
    """SNS-AR-1..7: an auto-resolved battle worked out from what the table types in: both
    sides' scores, the defenders committed, the winner and, with the winner's dice, who comes
    home. A calculator: it changes nothing."""
    from campaign.parsing import parse_dice
    from campaign.systems.swords_and_stones.rules import autoresolve as ar

    access = sns_access(request, slug, Role.OBSERVER)
    q = request.GET
    context: dict[str, Any] = {**tabs_context(access, "play"), "q": q,
                               "points": sorted(ar.ARMY_POINTS_TENTHS.items())}
    if q.get("attackers"):
        try:
            attackers = _codes(q.get("attackers", ""), "attackers")
            available = _codes(q.get("defenders", ""), "defenders")
            defences = ar.Defences(
                guard_towers=parse_int(q.get("guard_towers", "") or "0", 0, 50, "guard towers"),
                castles=parse_int(q.get("castles", "") or "0", 0, 10, "castles"),
                stone_wall=q.get("stone_wall") == "yes", palisade_wall=q.get("palisade") == "yes",
                damned=q.get("defender_damned") == "yes")
            dice = parse_dice(q.get("dice", ""), field="survival dice")
        except ParseError as exc:
            return refuse(request, str(exc), status=400, context=tabs_context(access, "play"))
        damned = q.get("attacker_damned") == "yes"
        walls = defences.stone_wall
        names = {spec.name for spec in ar.AR_OPTIONS}
        options = ar.AROptions.from_dict({k: v for k, v in access.campaign.options.items()
                                          if k in names})
        try:
            a_total = ar.attacker_total(attackers, defender_walls=walls, damned=damned,
                                        options=options)
            commitment = ar.commit_defenders(a_total, ar.defence_score(defences), available,
                                             damned=defences.damned)
            won = ar.winner(a_total, commitment.total, options)
            result = None
            rolled = (commitment.units if won == ar.DEFENDER else attackers)
            if dice:
                result = ar.resolve_battle(attackers, defences, available, survival_dice=dice,
                                           attacker_damned=damned, defender_walls=walls,
                                           options=options)
        except (ValueError, gc.RuleViolation) as exc:
            return refuse(request, str(exc), status=409, context=tabs_context(access, "play"))
        context.update({"attacker_total": a_total, "defence": ar.defence_score(defences),
                        "commitment": commitment, "won": won, "result": result,
                        "dice_needed": len(rolled)})
    return render(request, "campaign/systems/swords_and_stones/battle.html", context)


# --- the campaign's cost types (SNS-AMB-30) ----------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def cost_types(request: HttpRequest, slug: str) -> HttpResponse:
    """SNS-AMB-30: every cost whose resource types the source lost, with the types this
    campaign uses; the GM sets them (one cost per form) or puts the catalogue's back."""
    access = sns_access(request, slug, Role.OBSERVER)
    if request.method == "POST":
        if not access.is_gm:
            raise PermissionDenied("The GM sets the campaign's cost types.")
        key = _text(request, "cost", 40)
        entry = costs.ENTRIES.get(key)
        if entry is None:
            return refuse(request, f"SNS-AMB-30: {key!r} is not a cost whose types were lost.",
                          status=400, context=tabs_context(access, "play"))
        kinds: list[str | None] = []
        for i in range(len(entry.cost.amounts)):
            raw = _text(request, f"t{i}", 10)
            if raw and raw not in costs.RESOURCES:
                return refuse(request, f"SNS-ECON-1: {raw!r} is not a resource.", status=400,
                              context=tabs_context(access, "play"))
            kinds.append(raw or None)
        try:
            summary = costs.set_cost_types(access.campaign, request.user, key, kinds)
        except ServiceError as exc:
            return refuse(request, str(exc), status=409, context=tabs_context(access, "play"))
        messages.success(request, summary)
        return redirect(reverse("sns:costs", args=[access.campaign.slug])
                        + f"?saved={key}#c-{key}")
    types = costs.cost_types(access.campaign)
    saved = costs.ENTRIES.get(request.GET.get("saved", ""))
    groups: dict[str, list[dict[str, Any]]] = {}
    for entry in costs.ENTRIES.values():
        cost = costs.campaign_cost(entry, types)
        groups.setdefault(entry.area, []).append({
            "entry": entry, "note": costs.note(entry.key, types), "set": entry.key in types,
            "amounts": [{"i": i, "amount": a, "kind": k, "source": s}
                        for i, (a, k, s) in enumerate(zip(cost.amounts, cost.types,
                                                          entry.cost.types))]})
    return render(request, "campaign/systems/swords_and_stones/costs.html",
                  {**tabs_context(access, "play"), "groups": list(groups.items()),
                   "resources": costs.RESOURCES, "overridden": len(types), "saved": saved})
