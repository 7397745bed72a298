"""War of Kings pages and actions.

Every action is a POST a player makes for their own kingdom, or a GM for any kingdom
(``kingdom`` in the form). Input out of shape is refused with 400, a refusal by the rules or the
services with 409 and the reason (which names the rule); nothing changes either way. An htmx
POST gets the play page's fragment back, a plain POST is redirected to the play page.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.safestring import SafeString
from django.views.decorators.http import require_GET, require_POST

from campaign.access import Access, get_campaign_for, get_kingdom_for
from campaign.kept_sql import kept_rows
from campaign.models import Kingdom, Role
from campaign.once import applies_once
from campaign.parsing import ParseError, parse_id, parse_int
from campaign.services import ServiceError
from campaign.systems.war_of_kings import battles, services
from campaign.systems.war_of_kings import state as st
from campaign.systems.war_of_kings.fragments import (
    economy_html,
    economy_ledger_html,
    field_html,
    kingdom_options,
    ledger_prefix,
    standings_table,
    turn_order_html,
)
from campaign.systems.war_of_kings.reading import (
    RESOURCE_NAMES,
    kingdom_economy,
    standings,
    standings_figures,
)
from campaign.systems.war_of_kings.rules import board as wb
from campaign.systems.war_of_kings.rules import construction, economy
from campaign.systems.war_of_kings.rules.armies import support
from campaign.systems.war_of_kings.rules.boards import hex_realm
from campaign.systems.war_of_kings.rules.turns import turn_order
from campaign.views.common import refuse, tabs_context

SLUG = "war-of-kings"


def wok_access(request: HttpRequest, slug: str, role: str = Role.PLAYER) -> Access:
    access = get_campaign_for(request, slug, role=role)
    if access.campaign.rule_system != SLUG:
        raise Http404("This page belongs to War of Kings campaigns.")
    return access


def acting_kingdom(request: HttpRequest, access: Access) -> Kingdom:
    """The kingdom this request acts for: the player's own, or the one a GM names."""
    if access.is_gm:
        raw = request.POST.get("kingdom", "").strip()
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
    return access.kingdom


def _run(request: HttpRequest, access: Access, action: Callable[[], Any]) -> HttpResponse:
    try:
        event = action()
    except ParseError as exc:
        return refuse(request, str(exc), status=400, context=tabs_context(access, "play"))
    except ServiceError as exc:
        return refuse(request, str(exc), status=409, context=tabs_context(access, "play"))
    if request.htmx:
        from campaign.views.play import render_play

        access.campaign.refresh_from_db()
        response = render_play(request, access, fragment=True)
        response["HX-Trigger"] = "campaign-changed"
        return response
    messages.success(request, event.summary)
    return redirect("campaign:play", access.campaign.slug)


def _choice(request: HttpRequest, name: str, allowed: tuple[str, ...]) -> str:
    value = request.POST.get(name, "").strip()
    if value not in allowed:
        raise ParseError(f"“{name}” must be one of: {', '.join(allowed)}.")
    return value


def dice_from(inputs: Mapping[str, str]) -> list[str] | None:
    """The three Resource Dice colours typed in (``die1``..``die3``), or None to roll."""
    typed = [str(inputs.get(f"die{i}", "")).strip() for i in (1, 2, 3)]
    if not any(typed):
        return None
    if not all(d in wb.COLOURS for d in typed):
        raise ServiceError("WOK-ECON-2: give the colour of all three Resource Dice (red, yellow, "
                           "green or blue), or leave them empty for the app to roll.")
    return typed


# --- actions --------------------------------------------------------------------------------

@login_required
@require_POST
def setup(request: HttpRequest, slug: str) -> HttpResponse:
    """WOK-SETUP-2..9: the GM seats the kingdoms at crest positions and the lead is drawn."""
    access = wok_access(request, slug, role=Role.GM)

    def action() -> Any:
        seats = []
        for kingdom in Kingdom.objects.filter(campaign=access.campaign).order_by("pk"):
            raw = request.POST.get(f"seat_{kingdom.pk}", "").strip()
            if not raw:
                continue
            capital, _, front = raw.partition("|")
            if not capital or not front or len(raw) > 90:
                raise ParseError("Each seat is a crest position from the form.")
            seats.append((parse_int(request.POST.get(f"order_{kingdom.pk}", ""), 1, 9,
                                    "seat order", default=9), kingdom.pk,
                           services.SeatChoice(kingdom, capital, front)))
        if not seats:  # nobody to seat: no lead to draw either
            raise ParseError("Choose a crest position for each kingdom that plays.")
        seats.sort(key=lambda s: (s[0], s[1]))
        lead = request.POST.get("lead", "").strip()
        drawn = parse_int(lead, 1, len(seats) or 1, "lead marker") - 1 if lead else None
        return services.start_game(access.campaign, request.user, [s[2] for s in seats], drawn)

    return _run(request, access, action)


@login_required
@require_POST
@applies_once
def build(request: HttpRequest, slug: str) -> HttpResponse:
    """WOK-COST-1: build or upgrade in a territory, raise an army, or build a road."""
    access = wok_access(request, slug)

    def action() -> Any:
        kingdom = acting_kingdom(request, access)
        step = request.POST.get("step", "").strip()
        if step:
            # One field from the resource-card form: "item|where" of a listed build.
            item_raw, _, where = step.partition("|")
            if len(step) > 100:
                raise ParseError("Pick a build from the list.")
        else:
            item_raw, where = request.POST.get("item", ""), request.POST.get("where", "")
        item = item_raw.strip()
        items = (*construction.TERRITORY_ITEMS, construction.ROAD_ITEM)
        if item not in items:
            raise ParseError(f"“item” must be one of: {', '.join(items)}.")
        where = where.strip()
        if not where or len(where) > 90:
            raise ParseError("Say where to build.")
        card = None
        card_name = request.POST.get("card", "").strip()
        if card_name:
            card = services.CardUnits(
                card_name[:61], _choice(request, "card_resource", wb.RESOURCES),
                parse_int(request.POST.get("card_units", ""), 1, 3, "card units", default=3))
        return services.build(access.campaign, request.user, kingdom, item, where, card)

    return _run(request, access, action)


@login_required
@require_POST
def trade(request: HttpRequest, slug: str) -> HttpResponse:
    """WOK-MKT-1: a trade with the market."""
    access = wok_access(request, slug)

    def action() -> Any:
        kingdom = acting_kingdom(request, access)
        give = _choice(request, "give", (wb.GOLD, *wb.RESOURCES))
        receive = _choice(request, "receive", wb.RESOURCES)
        lots = parse_int(request.POST.get("lots", ""), 1, 99, "how many", default=1)
        return services.trade(access.campaign, request.user, kingdom, give, receive, lots)

    return _run(request, access, action)


@login_required
@require_POST
def deal(request: HttpRequest, slug: str) -> HttpResponse:
    """WOK-MKT-2: goods handed to another kingdom by agreement."""
    access = wok_access(request, slug)

    def action() -> Any:
        giver = acting_kingdom(request, access)
        pk = parse_id(request.POST.get("to", ""))
        if pk is None:
            raise ParseError("Say which kingdom receives.")
        taker = get_kingdom_for(access, pk)
        amount = wb.Stock(**{r: parse_int(request.POST.get(r, ""), 0, 999, r, default=0)
                             for r in st.STOCK_FIELDS})
        note = request.POST.get("note", "").strip()[:100]
        return services.deal(access.campaign, request.user, giver, taker, amount, note)

    return _run(request, access, action)


@login_required
@require_POST
def settle(request: HttpRequest, slug: str) -> HttpResponse:
    """WOK-SUPPORT-4: provisions or removal for each unsupported army."""
    access = wok_access(request, slug)

    def action() -> Any:
        kingdom = acting_kingdom(request, access)
        provision, remove = [], []
        for key, value in request.POST.items():
            if not key.startswith("army_"):
                continue
            number = parse_int(key[5:], 1, 999_999, "army")
            if value == "provision":
                provision.append(number)
            elif value == "remove":
                remove.append(number)
            elif value != "":
                raise ParseError("Each army is provisioned or removed.")
        return services.settle(access.campaign, request.user, kingdom, provision, remove)

    return _run(request, access, action)


@login_required
@require_POST
def next_phase(request: HttpRequest, slug: str) -> HttpResponse:
    """The active player closes a phase of their own turn (WOK-TURN-3); the GM may too."""
    access = wok_access(request, slug)

    def action() -> Any:
        campaign = access.campaign
        active = (campaign.state or {}).get("active")
        if not access.is_gm and (access.kingdom is None or access.kingdom.pk != active):
            raise ServiceError("Only the player whose turn it is, or a GM, ends this phase "
                               "(WOK-TURN-3).")
        if campaign.phase not in wb.TURN_PHASES:
            raise ServiceError("Only a GM closes the steps of the Construction Phase and the "
                               "round (WOK-TURN-2).")
        expected = request.POST.get("clock", "")
        if expected and expected != campaign.clock_label():
            raise ServiceError("The game moved on while this page was open; look again.")
        return services.advance(campaign, request.user)

    return _run(request, access, action)


@login_required
@require_POST
def territory(request: HttpRequest, slug: str) -> HttpResponse:
    """The GM sets a territory's resources, culture, fortification and Malador control."""
    access = wok_access(request, slug, role=Role.GM)

    def action() -> Any:
        label = request.POST.get("label", "").strip()
        culture_raw = request.POST.get("culture", "").strip()
        culture: Any = None
        if culture_raw == "malador":
            culture = "malador"
        elif culture_raw:
            culture = parse_int(culture_raw, 1, 9, "culture")
        values = {
            "primary": _choice(request, "primary", ("", *wb.RESOURCES)),
            "secondary": _choice(request, "secondary", ("", *wb.RESOURCES)),
            "fort": parse_int(request.POST.get("fort", ""), 0, 3, "fortification", default=0),
            "culture": culture,
            "malador": request.POST.get("malador") == "on",
        }
        return services.edit_territory(access.campaign, request.user, label, values)

    return _run(request, access, action)


@login_required
@require_POST
def use_v06(request: HttpRequest, slug: str) -> HttpResponse:
    """WOK-V06-*: the GM switches the campaign to the v0.6 preview's numbers."""
    access = wok_access(request, slug, role=Role.GM)
    return _run(request, access, lambda: services.use_v06(access.campaign, request.user))


@login_required
@require_GET
def ledger_page(request: HttpRequest, slug: str, kingdom_id: int) -> HttpResponse:
    """A kingdom's economic ledger with every figure explained: which territory, which level,
    connected or why not (WOK-LEDGER-3, WOK-ECON-4..8). Public, like the stockpile
    (WOK-TURN-7)."""
    access = wok_access(request, slug, role=Role.OBSERVER)
    kingdom = get_kingdom_for(access, kingdom_id)
    loaded = st.load(access.campaign)
    if kingdom.name not in loaded.state.capitals:
        raise Http404("This kingdom has no seat in the game yet.")
    figures, html = economy_parts(loaded, kingdom)
    context = {**tabs_context(access, "play"), "kingdom": kingdom, **figures,
               "economy_html": html}
    return render(request, "campaign/systems/war_of_kings/ledger.html", context)


# --- contexts -------------------------------------------------------------------------------

def _seat_options(loaded: st.Loaded) -> list[dict[str, str]]:
    """Crest positions for setup: the preset's, else every territory with exactly three
    playable neighbours, each with a neighbour in front (WOK-SETUP-4, WOK-SETUP-10)."""
    game_map = loaded.state.map
    preset = hex_realm()
    crests = [c for c in preset.crests
              if c.capital in game_map and c.front in game_map
              and game_map.adjacent(c.capital, c.front)]
    if crests:
        return [{"value": f"{c.capital}|{c.front}",
                 "label": f"Crest {c.column}: {c.capital} (front {c.front})"} for c in crests]
    found = []
    for code in game_map.codes:
        if not game_map.territory(code).playable:
            continue
        near = sorted(t for t in game_map.neighbours(code) if game_map.territory(t).playable)
        if len(near) == 3:
            found.extend({"value": f"{code}|{front}", "label": f"{code} (front {front})"}
                         for front in near)
    return found


def standings_parts(loaded: st.Loaded) -> tuple[tuple[dict[str, Any], ...], SafeString]:
    """The standings' figures by kingdom name (``reading.standings_figures``) and their table,
    the table kept with the board (``Loaded.kept``) under the holders, the options and the
    ledger's address, which with the kingdoms the board is kept under are all it shows."""
    figures = standings_figures(loaded)
    ledger = ledger_prefix(loaded.campaign.slug)
    return figures, loaded.kept(("standings_html", loaded.holders, loaded.options, ledger),
                                lambda: standings_table(standings(loaded), ledger))


def _kept_options(loaded: st.Loaded, pks: list[int]) -> SafeString:
    """``kingdom_options`` of the loaded kingdoms of ids ``pks``, kept with the board (whose key
    holds every kingdom's id and name) under those ids."""
    return loaded.kept(("kingdom_options", tuple(pks)),
                       lambda: kingdom_options([loaded.kingdoms[pk] for pk in pks]))


def economy_parts(loaded: st.Loaded, kingdom: Kingdom) -> tuple[dict[str, Any], SafeString]:
    """A kingdom's figures (``reading.kingdom_economy``) and their section (``economy_html``),
    its ledger and gold lines kept with the board under the figures they show."""
    figures = kingdom_economy(loaded, kingdom.name)
    ledger = loaded.kept(("economy_ledger_html", kingdom.name, loaded.holders, loaded.options,
                          tuple(figures["last_dice"])), lambda: economy_ledger_html(figures))
    return figures, economy_html(kingdom, figures, ledger)


def play_context(access: Access) -> dict[str, Any]:
    loaded = st.load(access.campaign)
    state = loaded.state
    campaign = loaded.campaign
    context: dict[str, Any] = {
        "wok": loaded, "phase_label": services.clock_label(campaign),
        "phase": state.phase, "setup": not loaded.started, "over": loaded.over,
        "phase_title": services.phase_name(state.phase),
        "colours": wb.COLOURS, "resources": wb.RESOURCES, "stock_fields": st.STOCK_FIELDS,
        "resource_names": RESOURCE_NAMES,
    }
    if not loaded.started:
        context["seat_options"] = _seat_options(loaded) if access.is_gm else []
        context["kingdoms"] = list(loaded.kingdoms.values())
        return context
    run = campaign.state or {}
    order = turn_order(state) if state.seats else ()
    rows, table = standings_parts(loaded)
    # Every kingdom in the game: shown as the kingdoms a GM or a player may pick.
    others = [pk for pk, name in loaded.names.items() if name in state.capitals]
    context.update({
        "order_html": loaded.kept(("turn_order_html", tuple(order), state.active),
                                  lambda: turn_order_html([loaded.by_name[k] for k in order],
                                                          loaded.kingdom(state.active))),
        "lead": loaded.kingdom(state.lead),
        "active": loaded.kingdom(state.active),
        "my_turn": bool(access.kingdom and state.active == access.kingdom.name),
        "in_turn": state.phase in wb.TURN_PHASES,
        "standings": rows,
        "standings_html": table,
        "winner": loaded.kingdoms.get(run.get("winner")) if run.get("winner") else None,
        "tied": [loaded.kingdoms[pk] for pk in run.get("tied", []) if pk in loaded.kingdoms],
        # Shown only in their own steps of the Construction Phase.
        "gold_due": [(loaded.by_name[k], economy.gold_generation(state, k))
                     for k in state.kingdoms] if state.phase == wb.RECEIVE_GOLD else [],
        "support_due": [(loaded.by_name[k], support(state, k),
                         k in run.get("settled", [])) for k in state.kingdoms]
        if state.phase == wb.CHECK_SUPPORT else [],
        # WOK-ARMY-1, WOK-ARMY-6: every army on the board is in plain view at the table.
        "field": [{"number": int(a.id[1:]), "kingdom": loaded.kingdom(a.owner),
                   "owner": wb.who(a.owner), "where": a.territory,
                   "where_name": loaded.territory_name(a.territory),
                   "ready": a.ready, "damage": a.damage} for a in state.armies],
        "target": loaded.options.ap_target,
    })
    context["field_html"] = field_html(context["field"])
    if state.phase in wb.TURN_PHASES:
        context.update(turn_context(loaded, access))
    if state.phase == wb.CHECK_SUPPORT and access.is_gm:
        # The GM settles for any kingdom that has not (WOK-SUPPORT-4).
        context["gm_support"] = [
            {"kingdom": loaded.by_name[k], "unsupported": check.unsupported,
             "choosable": [int(a[1:]) for a in check.choosable]}
            for k in state.kingdoms
            for check in (support(state, k),)
            if check.unsupported and k not in run.get("settled", [])]
    if access.is_gm and not loaded.over:
        from campaign.systems.war_of_kings.models import Card

        # WOK-EVENT-5: the GM carries out a card's effect; recently played cards are offered.
        context["other_options"] = _kept_options(loaded, others)
        context["card_effects"] = {
            "armies": [{"number": int(a.id[1:]), "owner": wb.who(a.owner), "where": a.territory,
                        "damage": a.damage, "ready": a.ready} for a in state.armies],
            "played": list(dict.fromkeys(
                Card.objects.filter(campaign=campaign, played_round__isnull=False)
                .order_by("-played_round", "-pk").values_list("name", flat=True)[:20])),
        }
    me = access.kingdom if access.kingdom and access.kingdom.name in state.capitals else None
    if me is None and access.is_gm and state.active:
        me = loaded.kingdom(state.active)
    if me is not None:
        context["me"] = me
        context["rival_options"] = _kept_options(loaded, [pk for pk in others if pk != me.pk])
        from campaign.systems.war_of_kings.models import Card

        # WOK-EVENT-4: a hand is seen by its holder (and a GM acting for it) only.
        context["hand"] = kept_rows(("wok.hand",), _hand, me.pk)
        economy_figures, context["economy_html"] = economy_parts(loaded, me)
        context.update(economy_figures)
        if state.phase == wb.CONSTRUCTION:
            # WOK-EVENT-5 (FAQ 1): units of resource cards played earlier this phase pay first,
            # so a build they make affordable is offered.
            left = services.cards_left(run, me.name)
            context["card_left"] = left
            shown = state
            if left:
                stock = state.stock(me.name)
                for entry in left:
                    stock = replace(stock, **{entry["resource"]: stock.amount(entry["resource"])
                                              + entry["units"]})
                shown = state.with_stock(me.name, stock)
            context["builds"] = construction.available_builds(shown, me.name, loaded.options)
        if state.phase == wb.CHECK_SUPPORT:
            check = support(state, me.name)
            context["my_unsupported"] = check.unsupported
            context["my_choosable"] = [int(a[1:]) for a in check.choosable]
            context["settled"] = me.name in run.get("settled", [])
    return context


def overview_context(access: Access) -> dict[str, Any]:
    loaded = st.load(access.campaign)
    if not loaded.started:
        return {}
    rows, table = standings_parts(loaded)
    return {"wok_standings": rows, "wok_standings_html": table,
            "target": loaded.options.ap_target}


def kingdom_context(access: Access, kingdom: Kingdom) -> dict[str, Any]:
    loaded = st.load(access.campaign)
    if kingdom.name not in loaded.state.capitals:
        return {}
    figures, html = economy_parts(loaded, kingdom)
    return {"wok_kingdom": kingdom, **figures, "wok_economy_html": html}


# --- armies, battles and the turn (WOK-MOVE, WOK-EXPL, WOK-BATTLE, WOK-RESUPPLY, WOK-EVENT) -----

SYMBOL_LETTERS = {"h": "warhammer", "f": "flail", "s": "shield", "b": "blank"}


def _active_or_gm(access: Access) -> None:
    active = (access.campaign.state or {}).get("active")
    if not access.is_gm and (access.kingdom is None or access.kingdom.pk != active):
        raise PermissionDenied("Only the player whose turn it is, or a GM, acts now "
                               "(WOK-TURN-3).")


def _symbols(request: HttpRequest, name: str) -> tuple[str, ...]:
    raw = request.POST.get(name, "").replace(" ", "").replace(",", "").lower()
    if len(raw) > 40 or any(c not in SYMBOL_LETTERS for c in raw):
        raise ParseError(f"“{name}”: type one letter per die: H warhammer, F flail, S shield, "
                         "B blank.")
    return tuple(SYMBOL_LETTERS[c] for c in raw)


def _allocation(request: HttpRequest, name: str) -> dict[int, int] | None:
    """Damage chosen by hand as "army:counters" pairs, e.g. "4:3 5:1" (WOK-BATTLE-12); empty
    for the app's allocation."""
    raw = request.POST.get(name, "").replace(",", " ").strip()
    if not raw:
        return None
    if len(raw) > 120:
        raise ParseError(f"“{name}” is too long.")
    chosen: dict[int, int] = {}
    for pair in raw.split():
        army, _, hits = pair.partition(":")
        chosen[parse_int(army, 1, 999_999, name)] = parse_int(hits, 0, 3, name)
    return chosen


def _number(request: HttpRequest, name: str) -> int:
    return parse_int(request.POST.get(name, ""), 1, 999_999, name)


def _text(request: HttpRequest, name: str) -> str:
    value = request.POST.get(name, "").strip()
    if len(value) > 40:
        raise ParseError(f"“{name}” is too long.")
    return value


@login_required
@require_POST
def event_die(request: HttpRequest, slug: str) -> HttpResponse:
    """WOK-EVENT-1: the Event Die and Resource Die the active player rolled."""
    access = wok_access(request, slug)
    _active_or_gm(access)
    return _run(request, access, lambda: battles.event_die(
        access.campaign, request.user, _choice(request, "face", ("axe", "flag", "V", "T", "C")),
        _choice(request, "colour", wb.COLOURS)))


@login_required
@require_POST
def move(request: HttpRequest, slug: str) -> HttpResponse:
    """WOK-MOVE-1..8: move one army of the active player."""
    access = wok_access(request, slug)
    _active_or_gm(access)
    return _run(request, access, lambda: services.move(
        access.campaign, request.user, _number(request, "army"), _text(request, "to"),
        request.POST.get("forced_march") == "on", raze=request.POST.get("raze") == "on"))


@login_required
@require_POST
def explore(request: HttpRequest, slug: str) -> HttpResponse:
    """WOK-EXPL-1, WOK-EXPL-2: the Table 9 row the table read for a territory."""
    access = wok_access(request, slug)
    _active_or_gm(access)

    def action() -> Any:
        roads = [r for r in (_text(request, "road1"), _text(request, "road2")) if r]
        hits: dict[int, int] = {}
        for key, value in request.POST.items():
            if key.startswith("plague_") and value.strip():
                hits[parse_int(key[7:], 1, 999_999, "army")] = parse_int(value, 0, 6,
                                                                        "plague hits")
        face = _choice(request, "face", ("", "warhammer", "flail", "shield", "blank"))
        row = parse_int(request.POST.get("row", ""), 1, 3, "row", default=0 if face else None)
        return services.explore(access.campaign, request.user, _text(request, "territory"),
                                _choice(request, "colour", wb.COLOURS), row, roads, hits,
                                face=face)

    return _run(request, access, action)


@login_required
@require_POST
def fight(request: HttpRequest, slug: str) -> HttpResponse:
    """WOK-BATTLE-6..11: one battle round, from typed symbols or rolled by the app."""
    access = wok_access(request, slug)
    _active_or_gm(access)

    def action() -> Any:
        from campaign.systems.war_of_kings.rules.battle import Rolls

        rolls = [_symbols(request, n) for n in ("attack", "defense", "counter", "negation")]
        cards = [parse_int(request.POST.get(n, ""), 0, 9, n, default=0)
                 for n in ("card_att", "card_def")]
        typed = Rolls(*rolls) if any(rolls) else None
        return battles.fight(access.campaign, request.user, _number(request, "battle"), typed,
                             card_att=cards[0], card_def=cards[1],
                             to_defenders=_allocation(request, "to_defenders"),
                             to_attackers=_allocation(request, "to_attackers"))

    return _run(request, access, action)


@login_required
@require_POST
def withdraw(request: HttpRequest, slug: str) -> HttpResponse:
    """WOK-BATTLE-2, WOK-BATTLE-11: a defending army withdraws (an unready one by Forced March,
    WOK-V06-20), or the attackers pull back."""
    access = wok_access(request, slug)
    if not access.is_gm and access.kingdom is None:
        raise PermissionDenied("You have no kingdom in this campaign.")
    acting = None if access.is_gm else access.kingdom.name  # type: ignore[union-attr]
    return _run(request, access, lambda: battles.withdraw(
        access.campaign, request.user, _number(request, "battle"), _number(request, "army"),
        _text(request, "to"), acting, forced_march=request.POST.get("forced_march") == "on"))


@login_required
@require_POST
def conquer(request: HttpRequest, slug: str) -> HttpResponse:
    """WOK-CONQ-2: capture or raze the settlement of a won battle."""
    access = wok_access(request, slug)
    _active_or_gm(access)
    return _run(request, access, lambda: battles.settle_conquest(
        access.campaign, request.user, _number(request, "battle"),
        _choice(request, "choice", ("capture", "raze")) == "raze"))


@login_required
@require_POST
def resupply(request: HttpRequest, slug: str) -> HttpResponse:
    """WOK-RESUPPLY-1: resupply armies in the Supply Phase."""
    access = wok_access(request, slug)
    _active_or_gm(access)
    return _run(request, access, lambda: battles.resupply_armies(
        access.campaign, request.user,
        [parse_int(v, 1, 999_999, "army") for v in request.POST.getlist("army")[:50]]))


@login_required
@require_POST
def marauders(request: HttpRequest, slug: str) -> HttpResponse:
    """WOK-MAL-12..16: the GM places Marauder armies a card brings."""
    access = wok_access(request, slug, role=Role.GM)
    return _run(request, access, lambda: battles.place_marauders(
        access.campaign, request.user, _text(request, "territory"),
        parse_int(request.POST.get("count", ""), 1, 5, "count", default=1)))


def _pending_battles(campaign_id: int) -> Any:
    from campaign.systems.war_of_kings.models import Battle

    return Battle.objects.filter(campaign_id=campaign_id,
                                 status=Battle.Status.PENDING).order_by("number")


def _hand(kingdom_id: int) -> Any:
    from campaign.systems.war_of_kings.models import Card

    return Card.objects.filter(holder_id=kingdom_id, played_round__isnull=True)


def turn_context(loaded: st.Loaded, access: Access) -> dict[str, Any]:
    """What the active player (and the GM) needs in the turn's phases."""
    from campaign.systems.war_of_kings.rules.armies import destinations

    state = loaded.state
    active = state.active
    context: dict[str, Any] = {}
    if active is None:
        return context
    if state.phase == wb.MOVEMENT:
        # WOK-MOVE-4, WOK-MOVE-8: only legal destinations are offered; those only Forced March
        # reaches (an unready army's single step among them) are listed apart.
        movable = []
        for a in state.armies_of(active):
            usual = set(destinations(state, a.id)) if a.ready else set()
            forced = set(destinations(state, a.id, forced_march=True)) - usual
            if usual or forced:
                movable.append({"number": int(a.id[1:]), "where": a.territory, "ready": a.ready,
                                "to": sorted(usual), "forced": sorted(forced)})
        context["movable"] = movable
    elif state.phase == wb.EXPLORATION:
        context["to_explore"] = [
            {"code": code, "armies": [int(a.id[1:]) for a in state.armies_in(code, active)]}
            for code in dict.fromkeys(a.territory for a in state.armies_of(active))
            if state.ctrl(code) is None]
    elif state.phase == wb.SUPPLY:
        context["resupply"] = battles.resupply_options(loaded, active)
    elif state.phase == wb.EVENT_DIE:
        from campaign.systems.war_of_kings.cards import rebels

        # WOK-MAL-17: what "Incite Revolt" could turn now, for the player to the left (WOK-MAL-9).
        context["rebels"] = rebels(loaded)
    from campaign.systems.war_of_kings.rules.conquest import malador_decider

    # WOK-MAL-9: the player to the active player's left decides and rolls for the Malador.
    context["malador_decider"] = loaded.kingdom(malador_decider(state))
    context["explore_faces"] = loaded.options.explore_faces_known
    context["forced_withdraw"] = loaded.options.forced_march_withdraw
    battles_ = kept_rows(("wok.pending_battles",), _pending_battles, loaded.campaign.pk)
    labels = {t.pk: code for code, t in loaded.tiles.items()} if battles_ else {}
    rows = []
    for b in battles_:
        here = labels[b.tile_id] if b.tile_id in labels else b.tile.label
        holder = state.ctrl(here)
        rows.append({"battle": b, "here": here, "holder": holder or "nobody",
                     "attackers": b.data.get("attackers", []),
                     "defenders": [{"number": int(a.id[1:]), "ready": a.ready,
                                    "damage": a.damage,
                                    "to": sorted(t for t in state.map.neighbours(here)
                                                 if state.ctrl(t) == holder)}
                                   for a in state.armies_in(here, holder)] if holder else [],
                     "militia": state.lvl(here) and not state.armies_in(here, holder),
                     "last": (b.data.get("rounds") or [{}])[-1].get("outcome"),
                     "won": b.data.get("won"), "explored": b.data.get("explored"),
                     "ambush": b.data.get("ambush"), "malador": b.attacker_id is None,
                     "to_raze": b.data.get("raze")})
    context["pending_battles"] = rows
    return context


@login_required
@require_POST
def forfeit(request: HttpRequest, slug: str) -> HttpResponse:
    """WOK-ELIM-2: a player forfeits their own kingdom (a GM any kingdom)."""
    access = wok_access(request, slug)
    return _run(request, access, lambda: services.forfeit(
        access.campaign, request.user, acting_kingdom(request, access)))


@login_required
@require_POST
def card(request: HttpRequest, slug: str) -> HttpResponse:
    """WOK-EVENT-4: take a card into the hand, play it, or hand it to another kingdom."""
    access = wok_access(request, slug)

    def action() -> Any:
        kingdom = acting_kingdom(request, access)
        what = _choice(request, "do", ("take", "play", "give"))
        if what == "take":
            return battles.take_card(access.campaign, request.user, kingdom,
                                     request.POST.get("name", "")[:61],
                                     request.POST.get("effect", "")[:301])
        card_id = parse_id(request.POST.get("card", ""))
        if card_id is None:
            raise ParseError("Say which card.")
        to = None
        if what == "give":
            pk = parse_id(request.POST.get("to", ""))
            if pk is None:
                raise ParseError("Say which kingdom receives the card.")
            to = get_kingdom_for(access, pk)
        return battles.play_card(access.campaign, request.user, kingdom, card_id, to)

    return _run(request, access, action)


@login_required
@require_POST
def marauders_move(request: HttpRequest, slug: str) -> HttpResponse:
    """WOK-MAL-9, WOK-MAL-16: the player to the active player's left (or a GM) moves a Marauder
    army a card sends."""
    access = wok_access(request, slug)
    if not access.is_gm and access.kingdom is None:
        raise PermissionDenied("You have no kingdom in this campaign.")
    acting = None if access.is_gm else access.kingdom.name  # type: ignore[union-attr]
    return _run(request, access, lambda: battles.marauders_move(
        access.campaign, request.user, _number(request, "army"), _text(request, "to"), acting,
        forced_march=request.POST.get("forced_march") == "on"))


@login_required
@require_POST
def malador_die(request: HttpRequest, slug: str) -> HttpResponse:
    """WOK-MAL-8, WOK-MAL-9: the blue die the player to the active player's left (or a GM)
    rolled for the Malador over a settlement they took."""
    access = wok_access(request, slug)
    if not access.is_gm and access.kingdom is None:
        raise PermissionDenied("You have no kingdom in this campaign.")
    acting = None if access.is_gm else access.kingdom.name  # type: ignore[union-attr]
    return _run(request, access, lambda: battles.settle_conquest(
        access.campaign, request.user, _number(request, "battle"), False,
        _choice(request, "face", ("flail", "warhammer", "shield", "blank")), acting))


# --- card effects, rebellion and culture (WOK-EVENT-5, WOK-MAL-17, WOK-CULT-1) ------------------

CARD_EFFECTS = ("stockpile", "army", "place", "road")


def _signed_int(request: HttpRequest, name: str, lo: int, hi: int) -> int:
    raw = request.POST.get(name, "").strip()
    return parse_int(raw[1:] if raw.startswith("+") else raw, lo, hi, name, default=0)


@login_required
@require_POST
def card_effect(request: HttpRequest, slug: str) -> HttpResponse:
    """WOK-EVENT-5: the GM carries out what a card says (its text is not in the rulebook):
    goods into or out of a stockpile, damage or readiness of an army, a new army, a road. The
    card's name and a reason are required and go into the chronicle and the ledger."""
    from campaign.systems.war_of_kings import cards

    access = wok_access(request, slug, role=Role.GM)

    def action() -> Any:
        what = _choice(request, "effect", CARD_EFFECTS)
        card = request.POST.get("card", "")[:61]
        reason = request.POST.get("reason", "")[:121]
        if what == "stockpile":
            kingdom = acting_kingdom(request, access)
            changes = {r: _signed_int(request, r, -99, 99) for r in st.STOCK_FIELDS}
            return cards.adjust_stockpile(access.campaign, request.user, kingdom, changes,
                                          card, reason)
        if what == "army":
            ready = _choice(request, "ready", ("", "ready", "unready"))
            return cards.change_army(access.campaign, request.user, _number(request, "army"),
                                     card, reason, damage=_signed_int(request, "damage", -3, 3),
                                     ready=None if not ready else ready == "ready")
        if what == "place":
            return cards.place_army(access.campaign, request.user,
                                    acting_kingdom(request, access),
                                    _text(request, "territory"), card, reason)
        return cards.lay_road(access.campaign, request.user, _text(request, "a"),
                              _text(request, "b"), card, reason)

    return _run(request, access, action)


@login_required
@require_POST
def rebellion(request: HttpRequest, slug: str) -> HttpResponse:
    """WOK-MAL-17, WOK-MAL-9: under "Incite Revolt" a settlement rebels; the player to the
    active player's left (or a GM) carries the card out."""
    from campaign.systems.war_of_kings import cards

    access = wok_access(request, slug)
    if not access.is_gm and access.kingdom is None:
        raise PermissionDenied("You have no kingdom in this campaign.")
    acting = None if access.is_gm else access.kingdom.name  # type: ignore[union-attr]
    return _run(request, access, lambda: cards.rebellion(
        access.campaign, request.user, _text(request, "territory"), acting))


@login_required
@require_POST
def culture(request: HttpRequest, slug: str) -> HttpResponse:
    """WOK-CULT-1: the GM picks the culture of a territory's settlement from the kingdoms in
    the game (or the Malador) on the map's tile panel; the rest of the territory stays."""
    access = wok_access(request, slug, role=Role.GM)

    def action() -> Any:
        label = _text(request, "label")
        raw = request.POST.get("culture", "").strip()
        value: Any
        if raw == "malador":
            value = "malador"
        elif raw:
            value = parse_int(raw, 1, 9, "culture")
        else:
            value = None
        return services.edit_territory(access.campaign, request.user, label,
                                       {"culture": value})

    try:
        event = action()
    except ParseError as exc:
        return refuse(request, str(exc), status=400, context=tabs_context(access, "map"))
    except ServiceError as exc:
        return refuse(request, str(exc), status=409, context=tabs_context(access, "map"))
    messages.success(request, event.summary)
    return redirect(f"{reverse('campaign:map', args=[access.campaign.slug])}"
                    f"?tile={_text(request, 'label')}")

