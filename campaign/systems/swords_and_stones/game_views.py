"""The game at the table, beyond one kingdom's own Stockpile: seats for a third and fourth
kingdom, trades between two players, and auto-resolved battles step by step.

Each POST is one service call (one chronicle event). A player acts for their own kingdom, a GM
for any; input that is not well formed gets 400, a refusal of the rules 409 with the reason, and
nothing changes either way. Success answers htmx with the Stockpile page's fragment (or the game
page), else redirects there with the event's summary.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect

from campaign.access import Access, get_kingdom_for
from campaign.models import Kingdom
from campaign.once import applies_once
from campaign.parsing import ParseError, parse_dice, parse_id, parse_int
from campaign.services import ServiceError
from campaign.systems.swords_and_stones import autoresolve_play as arp
from campaign.systems.swords_and_stones import seats, table, trades
from campaign.systems.swords_and_stones.models import Game
from campaign.systems.swords_and_stones.rules import autoresolve as ar
from campaign.systems.swords_and_stones.rules import economy as eco
from campaign.systems.swords_and_stones.views import _codes, _game, acting_kingdom, sns_access
from campaign.views.common import refuse, tabs_context

TEMPLATE = "campaign/systems/swords_and_stones/table.html"


def _refused(request: HttpRequest, access: Access, exc: Exception, status: int) -> HttpResponse:
    return refuse(request, str(exc), status=status, context=tabs_context(access, "play"))


def _at_table(request: HttpRequest, access: Access, game: Game, kingdom: Kingdom,
              act: Callable[[], Any]) -> HttpResponse:
    """Run a service for a kingdom at the table; answer with its Stockpile page."""
    try:
        result = act()
    except ServiceError as exc:
        return _refused(request, access, exc, 409)
    summary = result if isinstance(result, str) else getattr(result, "summary", "") or "Done."
    if request.htmx:
        context = {**tabs_context(access, "play"), "game": game, "kingdom": kingdom,
                   "done": summary, **table.table_view(access.campaign, game, kingdom)}
        return render(request, TEMPLATE + "#table", context)
    messages.success(request, summary)
    return redirect("sns:table", slug=access.campaign.slug, number=game.number,
                    kingdom_id=kingdom.pk)


def _me(access: Access, kingdom: Kingdom) -> Kingdom | None:
    """The kingdom a request acts as: None for a GM (who may act for either side)."""
    return None if access.is_gm else kingdom


# --- seats (SNS-RES-3, SNS-AMB-10) --------------------------------------------------------------


@login_required
@require_POST
def seat(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """SNS-RES-3: a kingdom takes a seat in a game being set up (its player, or the GM for
    any kingdom), or gives it up (``leave``)."""
    access = sns_access(request, slug)
    game = _game(access, str(number))
    try:
        kingdom = acting_kingdom(request, access)
        side = request.POST.get("side", "")
        leave = request.POST.get("leave") == "yes"
        if not leave and side not in seats.SIDES:
            raise ParseError("“side” is the challenger's or the defender's.")
    except ParseError as exc:
        return _refused(request, access, exc, 400)
    try:
        if leave:
            summary = seats.leave_game(access.campaign, request.user, game, kingdom)
        else:
            summary = seats.join_game(access.campaign, request.user, game, kingdom, side)
    except ServiceError as exc:
        return _refused(request, access, exc, 409)
    messages.success(request, summary)
    target = reverse("sns:game", kwargs={"slug": access.campaign.slug, "number": game.number})
    if request.htmx:
        return HttpResponseClientRedirect(target)
    return redirect(target)


# --- trades (SNS-ECON-57) -----------------------------------------------------------------------


def _bundle(request: HttpRequest, prefix: str) -> dict[str, int]:
    return {r: parse_int(request.POST.get(f"{prefix}_{r}", "") or "0", 0, trades.MAX_AMOUNT,
                         f"{prefix} {r}") for r in eco.RESOURCES}


def _other(access: Access, game: Game, raw: object, field: str) -> Kingdom:
    pk = parse_id(raw)
    if pk is None:
        raise ParseError(f"“{field}” must be a kingdom's id from the form.")
    kingdom = Kingdom.objects.filter(campaign=access.campaign, pk=pk).first()
    if kingdom is None:
        raise Http404("No such kingdom in this campaign.")
    return kingdom


@login_required
@require_POST
@applies_once
def trade_offer(request: HttpRequest, slug: str, number: int, kingdom_id: int) -> HttpResponse:
    """SNS-ECON-57: offer another kingdom of the game a trade (or a ransom, SNS-CBT-9)."""
    access = sns_access(request, slug)
    game = _game(access, str(number))
    kingdom = get_kingdom_for(access, kingdom_id, edit=True)
    try:
        receiver = _other(access, game, request.POST.get("receiver", ""), "receiver")
        gives, gets = _bundle(request, "give"), _bundle(request, "get")
    except ParseError as exc:
        return _refused(request, access, exc, 400)
    zones = request.POST.get("zones_touch") == "yes"
    ransom = request.POST.get("ransom") == "yes"

    def act() -> str:
        trades.offer(access.campaign, request.user, game, kingdom, receiver, gives, gets,
                     zones_touch=zones, ransom=ransom)
        return (f"{kingdom.name} offers {receiver.name} {trades.describe(gives)} for "
                f"{trades.describe(gets)}; {receiver.name} answers on its own page "
                "(SNS-ECON-57).")

    return _at_table(request, access, game, kingdom, act)


@login_required
@require_POST
def trade_answer(request: HttpRequest, slug: str, number: int, kingdom_id: int, pk: int,
                 answer: str) -> HttpResponse:
    """SNS-ECON-57: the receiver accepts or declines; the offerer may withdraw (decline)."""
    access = sns_access(request, slug)
    game = _game(access, str(number))
    kingdom = get_kingdom_for(access, kingdom_id, edit=True)
    if answer not in ("accept", "decline"):
        raise Http404("A trade is accepted or declined.")
    service = trades.accept if answer == "accept" else trades.decline
    return _at_table(request, access, game, kingdom, lambda: service(
        access.campaign, request.user, game, pk, kingdom))


# --- auto-resolved battles step by step (SNS-AR-1..7) -------------------------------------------


@login_required
@require_POST
@applies_once
def battle_begin(request: HttpRequest, slug: str, number: int, kingdom_id: int) -> HttpResponse:
    """SNS-AR-1, SNS-AR-6: this kingdom attacks another of the game with units it has."""
    access = sns_access(request, slug)
    game = _game(access, str(number))
    kingdom = get_kingdom_for(access, kingdom_id, edit=True)
    try:
        defender = _other(access, game, request.POST.get("defender", ""), "defender")
        units = _codes(request.POST.get("units", ""), "units")
    except ParseError as exc:
        return _refused(request, access, exc, 400)
    walls = request.POST.get("walls") == "yes"
    return _at_table(request, access, game, kingdom, lambda: _begun(arp.begin(
        access.campaign, request.user, game, kingdom, defender, units, defender_walls=walls,
        by=_me(access, kingdom))))


def _begun(battle: Any) -> str:
    return battle.data["steps"][-1]


def _defences(request: HttpRequest) -> ar.Defences:
    post = request.POST

    def n(name: str, most: int) -> int:
        return parse_int(post.get(name, "") or "0", 0, most, name.replace("_", " "))

    return ar.Defences(
        guard_towers=n("guard_towers", 50), defence_upgrades=n("upgrades", 50),
        attack_towers=post.get("attack_towers") == "yes", island=post.get("island") == "yes",
        palisade_wall=post.get("palisade") == "yes", stone_wall=post.get("stone_wall") == "yes",
        trench=post.get("trench") == "yes", castles=n("castles", 10),
        moat=post.get("moat") == "yes", favor_spent=n("favor", ar.MAX_DEFENCE_FAVOR))


@login_required
@require_POST
def battle_step(request: HttpRequest, slug: str, number: int, kingdom_id: int, pk: int,
                step: str) -> HttpResponse:
    """SNS-AR-1..7: one step of a battle: the defences, a unit committed, the buy-back or the
    survival dice (typed, or rolled by the app when left empty)."""
    access = sns_access(request, slug)
    game = _game(access, str(number))
    kingdom = get_kingdom_for(access, kingdom_id, edit=True)
    me, campaign, user = _me(access, kingdom), access.campaign, request.user
    try:
        if step == "defences":
            defences = _defences(request)
            act: Callable[[], str] = lambda: arp.defences(  # noqa: E731
                campaign, user, game, pk, defences, by=me)
        elif step == "commit":
            unit = request.POST.get("unit", "").strip().upper()[:20]
            if unit not in ar.ARMY_POINTS_TENTHS:
                raise ParseError("“unit”: choose one of your units from the list (SNS-AR-6).")
            act = lambda: arp.commit(campaign, user, game, pk, unit, by=me)  # noqa: E731
        elif step == "buy_back":
            chosen = _codes(request.POST.get("units", ""), "units bought back")
            act = lambda: arp.buy_back(campaign, user, game, pk, chosen, by=me)  # noqa: E731
        elif step == "dice":
            rolled = request.POST.get("roll") == "yes"
            dice = parse_dice(request.POST.get("dice", ""), field="survival dice")
            if not dice and not rolled:
                raise ParseError("Type the dice rolled at the table, or let the app roll them.")
            act = lambda: arp.survival(campaign, user, game, pk,  # noqa: E731
                                       None if rolled else dice, by=me)
        else:
            raise Http404("No such step of a battle.")
    except ParseError as exc:
        return _refused(request, access, exc, 400)
    return _at_table(request, access, game, kingdom, act)
