"""The Middle Sea's actions: one POST each, from the play page's forms.

Every form carries a one-time token (``campaign.once``): a form sent twice (a double tap, a
phone resending) is applied once. A player acts for their own kingdom; a GM may act for
whoever must act (the player to play, a defender, the owner of a rebellion, the player in 1st).
Input that is not even well formed (a space that does not exist, letters for a number) is
refused with 400; what the rules refuse (an illegal move, a payment the player cannot make,
acting out of turn) with 409 and the rule's words; nothing changes either way. Success: the
play page's fragment for htmx, else a redirect to the play page with the event's summary.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from campaign.access import Access, get_campaign_for
from campaign.models import Event, Role
from campaign.once import applies_once
from campaign.parsing import ParseError, parse_id, parse_int
from campaign.services import ServiceError
from campaign.systems.middle_sea import SLUG
from campaign.systems.middle_sea import services as ms
from campaign.systems.middle_sea.game import Acting
from campaign.systems.middle_sea.rules.board import SUITS, split_space
from campaign.systems.middle_sea.rules.conflict import MILITARY, MISSIONARY, TARGET_KINDS
from campaign.systems.middle_sea.rules.state import GOLD, GOODS, IN_RESERVE, RuleViolation
from campaign.views.common import refuse, tabs_context


def _access(request: HttpRequest, slug: str, role: str = Role.PLAYER) -> Access:
    access = get_campaign_for(request, slug, role=role)
    if access.campaign.rule_system != SLUG:
        raise Http404("This page belongs to Kingdoms of the Middle Sea campaigns.")
    return access


def _acting(request: HttpRequest, access: Access) -> Acting:
    return Acting(request.user, access.is_gm, access.kingdom)


def _done(request: HttpRequest, access: Access, message: str) -> HttpResponse:
    if request.htmx:
        from campaign.views.play import render_play

        access.campaign.refresh_from_db()
        response = render_play(request, access, fragment=True)
        response["HX-Trigger"] = "campaign-changed"
        return response
    messages.success(request, message)
    return redirect("campaign:play", access.campaign.slug)


def _run(request: HttpRequest, access: Access, action: Callable[[], Event]) -> HttpResponse:
    try:
        event = action()
    except (ServiceError, RuleViolation) as exc:
        return refuse(request, str(exc), status=409, context=tabs_context(access, "play"))
    return _done(request, access, event.summary)


def _bad(request: HttpRequest, access: Access, exc: ParseError) -> HttpResponse:
    return refuse(request, str(exc), status=400, context=tabs_context(access, "play"))


def _space(request: HttpRequest, field: str, *, allow: tuple[str, ...] = ()) -> str:
    return _space_value(request.POST.get(field, "").strip(), field, allow)


def _space_value(raw: str, field: str, allow: tuple[str, ...] = ()) -> str:
    if raw in allow:
        return raw
    try:
        split_space(raw)
    except RuleViolation:
        raise ParseError(f"“{field}” must name a space of the table, such as N-FL.") from None
    return raw


def _number(request: HttpRequest, field: str, lo: int, hi: int,
            default: int | None = None) -> int:
    return parse_int(request.POST.get(field, ""), lo, hi, field, default=default)


def _one_of(request: HttpRequest, field: str, options: tuple[str, ...]) -> str:
    raw = request.POST.get(field, "").strip()
    if raw not in options:
        raise ParseError(f"“{field}” must be one of {', '.join(options)}.")
    return raw


def _rolls(raw: str, field: str) -> list[int]:
    """Dice typed as "4" or "4 2" (a first roll, then rerolls): each face 0 (null) to 5."""
    parts = raw.replace(",", " ").split()
    if len(parts) > 10:
        raise ParseError(f"“{field}” holds at most 10 rolls.")
    return [parse_int(part, 0, 5, field) for part in parts]


@login_required
@require_POST
@applies_once
def setup(request: HttpRequest, slug: str) -> HttpResponse:
    """MS-SETUP: seats 1-4 each name a kingdom, its suit and (optionally) its setup rolls."""
    access = _access(request, slug, Role.GM)
    seats: list[tuple[int, str]] = []
    rolls: dict[int, list[int]] = {}
    try:
        for i in range(1, 5):
            raw = request.POST.get(f"seat_{i}", "").strip()
            if not raw:
                continue
            pk = parse_id(raw)
            if pk is None:
                raise ParseError(f"“seat_{i}” must be a kingdom's id from the form.")
            suit = _one_of(request, f"suit_{i}", SUITS)
            seats.append((pk, suit))
            rolls[pk] = _rolls(request.POST.get(f"roll_{i}", ""), f"roll_{i}")
    except ParseError as exc:
        return _bad(request, access, exc)
    try:
        table = _one_of(request, "table", ("", *ms.TABLES)) if request.POST.get("table") else ""
    except ParseError as exc:
        return _bad(request, access, exc)
    return _run(request, access, lambda: ms.setup_game(access.campaign, _acting(request, access),
                                                       seats, rolls, table=table))


@login_required
@require_POST
@applies_once
def end_turn(request: HttpRequest, slug: str) -> HttpResponse:
    access = _access(request, slug)
    return _run(request, access, lambda: ms.end_turn(access.campaign, _acting(request, access)))


@login_required
@require_POST
@applies_once
def settle_control(request: HttpRequest, slug: str) -> HttpResponse:
    access = _access(request, slug)
    try:
        payments = _number(request, "payments", 0, 30, default=0)
        rebels = [_space_value(raw.strip(), "rebels")
                  for raw in request.POST.getlist("rebels")[:30]]
    except ParseError as exc:
        return _bad(request, access, exc)
    return _run(request, access, lambda: ms.settle_control(
        access.campaign, _acting(request, access), payments, rebels))


@login_required
@require_POST
@applies_once
def put_down(request: HttpRequest, slug: str) -> HttpResponse:
    access = _access(request, slug)
    try:
        city = _space(request, "city")
        leader = _number(request, "leader", 0, 5)
        hires = _number(request, "hires", 0, 99, default=0)
    except ParseError as exc:
        return _bad(request, access, exc)
    return _run(request, access, lambda: ms.put_down(
        access.campaign, _acting(request, access), city, leader, hires))


@login_required
@require_POST
@applies_once
def end_rebellion(request: HttpRequest, slug: str) -> HttpResponse:
    access = _access(request, slug)
    return _run(request, access, lambda: ms.end_rebellion(access.campaign,
                                                          _acting(request, access)))


@login_required
@require_POST
@applies_once
def order_dominance(request: HttpRequest, slug: str) -> HttpResponse:
    access = _access(request, slug)
    raw = request.POST.get("order", "")
    if len(raw) > 400:
        return _bad(request, access, ParseError("“order” is too long."))
    choice = [name.strip() for name in raw.split(",") if name.strip()]
    return _run(request, access, lambda: ms.order_dominance(
        access.campaign, _acting(request, access), choice))


@login_required
@require_POST
@applies_once
def explore(request: HttpRequest, slug: str) -> HttpResponse:
    access = _access(request, slug)
    try:
        suit = _one_of(request, "suit", SUITS)
        place = _space(request, "place", allow=("",)) or None
    except ParseError as exc:
        return _bad(request, access, exc)
    return _run(request, access, lambda: ms.explore(
        access.campaign, _acting(request, access), suit, place))


@login_required
@require_POST
@applies_once
def road(request: HttpRequest, slug: str) -> HttpResponse:
    access = _access(request, slug)
    raw = request.POST.get("road", "")
    start, _, end = raw.partition(">")
    try:
        for name in (start, end):
            split_space(name)
    except RuleViolation:
        return _bad(request, access, ParseError("“road” must be two spaces, such as N-CAP>N-FL."))
    return _run(request, access, lambda: ms.build_road(
        access.campaign, _acting(request, access), start, end))


@login_required
@require_POST
@applies_once
def port(request: HttpRequest, slug: str) -> HttpResponse:
    access = _access(request, slug)
    try:
        place = _space(request, "place")
        piers = _number(request, "piers", 1, 5)
    except ParseError as exc:
        return _bad(request, access, exc)
    return _run(request, access, lambda: ms.build_port(
        access.campaign, _acting(request, access), place, piers))


@login_required
@require_POST
@applies_once
def exchange(request: HttpRequest, slug: str) -> HttpResponse:
    access = _access(request, slug)
    try:
        give = _one_of(request, "give", (GOODS, GOLD))
        received = _number(request, "received", 1, 999)
    except ParseError as exc:
        return _bad(request, access, exc)
    return _run(request, access, lambda: ms.exchange(
        access.campaign, _acting(request, access), give, received))


@login_required
@require_POST
@applies_once
def change_king(request: HttpRequest, slug: str) -> HttpResponse:
    access = _access(request, slug)
    try:
        value = _number(request, "leader", 0, 5)
    except ParseError as exc:
        return _bad(request, access, exc)
    return _run(request, access, lambda: ms.change_king(
        access.campaign, _acting(request, access), value))


@login_required
@require_POST
@applies_once
def activate(request: HttpRequest, slug: str) -> HttpResponse:
    access = _access(request, slug)
    try:
        value = _number(request, "leader", 0, 5)
    except ParseError as exc:
        return _bad(request, access, exc)
    return _run(request, access, lambda: ms.activate(
        access.campaign, _acting(request, access), value))


@login_required
@require_POST
@applies_once
def move(request: HttpRequest, slug: str) -> HttpResponse:
    access = _access(request, slug)
    try:
        value = _number(request, "leader", 0, 5)
        destination = _space(request, "destination", allow=(IN_RESERVE,))
    except ParseError as exc:
        return _bad(request, access, exc)
    return _run(request, access, lambda: ms.move_leader(
        access.campaign, _acting(request, access), value, destination))


@login_required
@require_POST
@applies_once
def attack(request: HttpRequest, slug: str) -> HttpResponse:
    """MS-ATK: ``attack`` is "kind:target:space" as the form lists them."""
    access = _access(request, slug)
    try:
        value = _number(request, "leader", 0, 5)
        hires = _number(request, "hires", 0, 99, default=0)
        kind, _, rest = request.POST.get("attack", "").partition(":")
        target, _, place = rest.partition(":")
        if kind not in (MILITARY, MISSIONARY) or target not in TARGET_KINDS[kind]:
            raise ParseError("“attack” must be one of the attacks the form lists.")
        split_space(place)
    except RuleViolation:
        return _bad(request, access, ParseError("“attack” must name a space of the table."))
    except ParseError as exc:
        return _bad(request, access, exc)
    return _run(request, access, lambda: ms.declare_attack(
        access.campaign, _acting(request, access), kind, value, target, place, hires))


@login_required
@require_POST
@applies_once
def defend(request: HttpRequest, slug: str) -> HttpResponse:
    access = _access(request, slug)
    try:
        hires = _number(request, "hires", 0, 99, default=0)
        adds = _one_of(request, "add_leader", ("yes", "no")) == "yes" if request.POST.get(
            "add_leader") else False
    except ParseError as exc:
        return _bad(request, access, exc)
    return _run(request, access, lambda: ms.defend(
        access.campaign, _acting(request, access), hires, adds))


@login_required
@require_POST
@applies_once
def start_clock(request: HttpRequest, slug: str) -> HttpResponse:
    access = _access(request, slug, Role.GM)
    try:
        minutes = _number(request, "minutes", 1, 1440)
    except ParseError as exc:
        return _bad(request, access, exc)
    return _run(request, access, lambda: ms.start_clock(
        access.campaign, _acting(request, access), minutes))


@login_required
@require_POST
@applies_once
def call_time(request: HttpRequest, slug: str) -> HttpResponse:
    access = _access(request, slug, Role.GM)
    return _run(request, access, lambda: ms.call_time(access.campaign,
                                                      _acting(request, access)))
