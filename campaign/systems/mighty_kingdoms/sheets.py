"""Mighty Kingdoms printable sheets: map, reference, kingdom ledger, rosters, battle packet,
chronicle and the campaign book that gathers them (the framework is campaign/pdf.py).

Each sheet has one function returning PDF bytes (``*_pdf``) and one building its template's
context (``*_context``); ``SHEETS`` lists them for the registry. Numbers and tables come from the
rules modules, so a sheet and the site can never disagree.
"""

from __future__ import annotations

from collections import Counter
from itertools import product
from typing import Any

from django.db.models import Q
from django.http import Http404
from django.urls import NoReverseMatch, reverse
from django.utils.safestring import mark_safe

from battles import services as army_lists
from battles.models import Army, Battle, Ship
from battles.rules import mighty_kingdoms as kow
from campaign import mapview
from campaign.access import Access
from campaign.models import Campaign, Kingdom, Tile
from campaign.pdf import (
    BookSection,
    GeneratedImage,
    PdfBook,
    PdfSheet,
    PrintOptions,
    download_name,
    draw_tiles,
    fit_style,
    paper_map,
    sheet_pdf,
    swatch,
    text_area_mm,
)
from campaign.rules import mighty_kingdoms as mk
from campaign.systems.mighty_kingdoms.state import load_state
from ledger import pdf as ledger_sheets
from ledger.models import Tithe
from ledger.rules import mighty_kingdoms as economy

RESOURCES = ("gold", "food")


# --- who may see what ---------------------------------------------------------------------------


def _members(access: Access, obj: Any) -> bool:
    return True


def _own_kingdom(access: Access, kingdom: Kingdom) -> bool:
    """A kingdom's ledger: its player and the GM (DESIGN 6)."""
    return access.is_gm or (access.kingdom is not None and access.kingdom.pk == kingdom.pk)


def _army_roster_visible(access: Access, army: Army) -> bool:
    """An army's roster: the battles app decides who may read a list (MK-SETUP-7)."""
    return army_lists.roster_visible(access, army)


def _kingdom_armies(kingdom: Kingdom) -> list[Army]:
    """The kingdom's armies still in the campaign (removed ones keep their row)."""
    rows = Army.objects.filter(kingdom=kingdom).select_related("tile", "kingdom", "army_list")
    return [army for army in rows if not army_lists.is_removed(army)]


def _visible_armies(access: Access, kingdom: Kingdom) -> list[Army]:
    return [a for a in _kingdom_armies(kingdom) if army_lists.roster_visible(access, a)]


def _kingdom_armies_visible(access: Access, kingdom: Kingdom) -> bool:
    """A kingdom's rosters (Simple, or all its armies) show the armies this viewer may see;
    another player sees them once a battle has revealed one of them."""
    if _own_kingdom(access, kingdom):
        return True
    return access.is_player and bool(_visible_armies(access, kingdom))


def _battle_side(access: Access, battle: Battle) -> bool:
    """A battle packet: the GM and the two kingdoms fighting."""
    if access.is_gm:
        return True
    return access.kingdom is not None and access.kingdom.pk in (battle.chooser_id,
                                                                battle.opponent_id)


def _kow_battles(campaign: Campaign) -> bool:
    return army_lists.lists_in_use(campaign)


def _simple_battles(campaign: Campaign) -> bool:
    return army_lists.simple_rosters(campaign)


# --- objects ------------------------------------------------------------------------------------


def _kingdoms(access: Access) -> list[Kingdom]:
    return list(Kingdom.objects.filter(campaign=access.campaign).select_related("player__user"))


def _get_kingdom(access: Access, pk: int) -> Kingdom:
    kingdom = Kingdom.objects.filter(campaign=access.campaign, pk=pk).first()
    if kingdom is None:
        raise Http404("No such kingdom in this campaign.")
    return kingdom


def _armies(access: Access) -> list[Army]:
    rows = (Army.objects.filter(campaign=access.campaign)
            .select_related("kingdom", "tile", "army_list")
            .order_by("kingdom__order_position", "kingdom__name", "number"))
    return [army for army in rows if not army_lists.is_removed(army)]


def _get_army(access: Access, pk: int) -> Army:
    army = (Army.objects.filter(campaign=access.campaign, pk=pk)
            .select_related("kingdom", "tile", "army_list").first())
    if army is None or army_lists.is_removed(army):
        raise Http404("No such army in this campaign.")
    return army


def _pending_battles(access: Access) -> list[Battle]:
    return list(Battle.objects.filter(campaign=access.campaign, status=Battle.Status.PENDING)
                .select_related("tile", "chooser", "opponent"))


def _get_battle(access: Access, pk: int) -> Battle:
    battle = (Battle.objects.filter(campaign=access.campaign, pk=pk)
              .select_related("tile", "chooser", "opponent").first())
    if battle is None:
        raise Http404("No such battle in this campaign.")
    return battle


def _army_label(army: Army) -> str:
    return f"{army.kingdom.name}, army #{army.number}"


def _battle_label(battle: Battle) -> str:
    return (f"{battle.chooser.name} against {battle.opponent.name} at {battle.tile.label} "
            f"(year {battle.year}, month {battle.month})")


# --- shared bits --------------------------------------------------------------------------------


def _base(access: Access, title: str) -> dict[str, Any]:
    campaign = access.campaign
    return {
        "campaign": campaign,
        "access": access,
        "sheet_title": title,
        "clock": campaign.clock_label(),
        "mk_options": mk.MKOptions.from_dict(campaign.options),
    }


def _race(access: Access, kingdom: Kingdom) -> str:
    """MK-SETUP-1: a kingdom's race, once revealed (or to its own player and the GM)."""
    race = (kingdom.data or {}).get("race") or ""
    if access.campaign.state.get("races_revealed") or _own_kingdom(access, kingdom):
        return race
    return ""


def _cost(cost: economy.Resources) -> str:
    parts = [f"{cost.gold} gold" if cost.gold else "", f"{cost.food} food" if cost.food else ""]
    return " + ".join(p for p in parts if p) or "free"


def _army_state(army: Army) -> str:
    state = "on its side" if army.on_side else "upright"
    if army.defending:
        state += ", defending"
    return state


# --- map ----------------------------------------------------------------------------------------

MAP_SIDEBAR_MM = 62  # the legend and kingdoms beside the map
MAP_TITLE_MM = 24  # the title and caption above it


def map_context(access: Access, obj: None, options: PrintOptions, *,
                base_url: str | None = None, in_book: bool = False) -> dict[str, Any]:
    campaign = access.campaign
    width, height = text_area_mm(options)
    loaded = mapview.load_map(campaign)
    # The legend and the kingdoms go beside the map or below it, whichever draws it larger. In
    # the campaign book the map always fits one page: the map sheet is the one to play on.
    rows = len(loaded.kingdoms)
    paper = paper_map(campaign, options, areas=[
        ("side", (width - MAP_SIDEBAR_MM - 4, height - MAP_TITLE_MM)),
        ("below", (width, height - MAP_TITLE_MM - 22 - (8 + 6.2 * rows if rows else 0))),
    ], page_area_mm=(width, height - MAP_TITLE_MM), loaded=loaded, one_page=in_book)
    counts = Counter()
    settlements: dict[int, Counter] = {}
    capitals = {k.capital_tile_id for k in loaded.kingdoms.values()}
    for tile in Tile.objects.filter(map__campaign=campaign, controller__isnull=False).values(
            "controller_id", "settlement", "id"):
        counts[tile["controller_id"]] += 1
        kind = "capital" if tile["id"] in capitals and tile["settlement"] == "city" else (
            tile["settlement"])
        if kind:
            settlements.setdefault(tile["controller_id"], Counter())[kind] += 1
    armies = Counter(Army.objects.filter(campaign=campaign, tile__isnull=False)
                     .values_list("kingdom_id", flat=True))
    ships = Counter(Ship.objects.filter(campaign=campaign, tile__isnull=False)
                    .values_list("kingdom_id", flat=True))
    kingdoms = [
        {
            "kingdom": kingdom,
            "key": mark_safe(paper.kingdom_keys.get(pk, "")),
            "name_style": fit_style(kingdom.name, 34 if paper.layout == "side" else 90),
            "tiles": counts[pk],
            "settlements": settlements.get(pk, Counter()),
            "holdings": _holdings_words(settlements.get(pk, Counter())),
            "armies": armies[pk],
            "ships": ships[pk],
        }
        for pk, kingdom in sorted(loaded.kingdoms.items(),
                                  key=lambda item: (item[1].order_position is None,
                                                    item[1].order_position or 0, item[1].name))
    ]
    return {
        **_base(access, "Map"),
        "paper": paper,
        "pages": [{"page": p, "image": GeneratedImage(p.svg)} for p in paper.pages],
        "overview": GeneratedImage(paper.overview),
        "legend": [{"svg": mark_safe(i.svg), "label": i.label} for i in paper.legend],
        "kingdoms": kingdoms,
        "game_map": loaded.game_map,
    }


def _holdings_words(counts: Counter) -> str:
    words = []
    for kind, one, many in (("capital", "capital", "capitals"), ("city", "city", "cities"),
                            ("fortress", "fortress", "fortresses"),
                            ("village", "village", "villages")):
        if counts.get(kind):
            words.append(f"{counts[kind]} {one if counts[kind] == 1 else many}")
    return ", ".join(words)


def map_pdf(access: Access, obj: None, options: PrintOptions, *,
            base_url: str | None = None) -> bytes:
    """The campaign map, one page or cut into overlapping pages with an overview."""
    return sheet_pdf(MAP, access, obj, options, base_url=base_url)


# --- reference ----------------------------------------------------------------------------------


def _two_dice_chance(low: int, high: int) -> str:
    ways = sum(1 for a, b in product(range(1, 7), repeat=2) if low <= a + b <= high)
    return f"{ways}/36"


def reference_context(access: Access, obj: None, options: PrintOptions, *,
                      base_url: str | None = None, in_book: bool = False) -> dict[str, Any]:
    campaign = access.campaign
    opts = mk.MKOptions.from_dict(campaign.options)
    exploration = [
        {"roll": f"{low}–{high}" if low != high else str(low),
         "result": {mk.EXPLORE_EMPTY: "Empty: control marker only"}.get(result,
                                                                       result.capitalize()),
         "chance": _two_dice_chance(low, high)}
        for low, high, result in mk.EXPLORATION_TABLE
    ]
    defence = [
        {"points": points, "defence": points // 100, "defending": points // 100 + 1,
         "hit": f"{7 - points // 100}/6", "hit_defending": f"{max(0, 6 - points // 100)}/6"}
        for points in range(mk.STARTING_ARMY_POINTS, 0, -100)
    ]
    boards = [
        {"armies": f"{low}–{high}" if low != high else str(low), "board": size.label}
        for low, high, size in kow.BOARD_SIZES
    ]
    allowances = []
    for row, allowance in kow.DEFENCE_ALLOWANCES.items():
        parts = []
        if allowance.adjust_pieces:
            parts.append(f"add, remove or move {allowance.adjust_pieces} terrain piece")
        if allowance.blocking_or_difficult:
            parts.append(f"up to {allowance.blocking_or_difficult} blocking/difficult")
        if allowance.obstacles:
            parts.append(f"up to {allowance.obstacles} obstacles")
        if allowance.objectives:
            plural = "s" if allowance.objectives > 1 else ""
            parts.append(f"{allowance.objectives} objective{plural} in own half, "
                         f"{allowance.objective_vp} VP each")
        allowances.append({"settlement": "None" if row is kow.Settlement.NONE
                           else row.value.capitalize(), "allowance": "; ".join(parts)})
    settle_costs = [
        {"from": (before or "empty").capitalize(),
         "to": "Capital City" if after == mk.CAPITAL else after.capitalize(),
         "cost": _cost(cost)}
        for (before, after), cost in economy.SETTLEMENT_COSTS.items()
    ]
    deploy = [
        {"settlement": "Capital City" if kind == mk.CAPITAL else kind.capitalize(),
         "limit": limit}
        for kind, limit in sorted(mk.DEPLOY_LIMITS.items(), key=lambda item: item[1])
    ]
    quest = [
        {"roll": f"{roll}+" if roll == max(kow.QUEST_TABLE) else str(roll),
         "result": _QUEST_WORDS[result],
         "band": (f"{kow.ARTEFACT_BANDS[result].low}–{kow.ARTEFACT_BANDS[result].high} pts"
                  if result in kow.ARTEFACT_BANDS else "")}
        for roll, result in sorted(kow.QUEST_TABLE.items())
    ]
    house_rules = []
    defaults = mk.DEFAULT_OPTIONS
    for spec in mk.OPTIONS:
        value = getattr(opts, spec.name, None)
        if spec.name.startswith("module_") or spec.name == "battle_mode":
            continue
        if value != getattr(defaults, spec.name, None):
            shown = dict(spec.choices).get(value, value) if spec.choices else (
                "on" if value is True else "off" if value is False else value)
            house_rules.append({"label": spec.label, "value": shown, "rule": spec.rule_id})
    return {
        **_base(access, "Rules reference"),
        "opts": opts,
        "summer_phases": list(mk.SUMMER_PHASE_NAMES.items()),
        "winter_phases": list(mk.WINTER_PHASE_NAMES.items()),
        "sub_phases": [mk.SUB_PHASE_NAMES[s] for s in mk.SPEND_SUB_PHASES],
        "months": mk.SUMMER_MONTHS,
        "exploration": exploration,
        "defence": defence,
        "boards": boards,
        "allowances": allowances,
        "naval": kow.NAVAL_ROLL_TABLE,
        "settle_costs": settle_costs,
        "ship_cost": _cost(economy.SHIP_COST),
        "recruit_cost": _cost(economy.RECRUIT_COST),
        "deploy": deploy,
        "quest": quest,
        "house_rules": house_rules,
        "max_armies": opts.max_armies,
        "start_points": mk.STARTING_ARMY_POINTS,
        "us_min": kow.US_BATTLE_MIN,
        "us_max": kow.US_BATTLE_MAX,
        "us_destroyed": kow.US_DESTROYED_AT,
        "show_simple": opts.battle_mode == "simple" or opts.allow_mode_per_battle,
        "show_kow": opts.battle_mode == "kow" or opts.allow_mode_per_battle,
    }


_QUEST_WORDS = {
    kow.QuestResult.HERO_LOST: "Hero lost: strike it from the list",
    kow.QuestResult.INJURED: "Injured: −1 Unit Strength, then check for destruction",
    kow.QuestResult.NOTHING: "Back empty-handed",
    kow.QuestResult.ARTEFACT: "Artefact",
    kow.QuestResult.GREAT_ARTEFACT: "Great artefact",
    kow.QuestResult.RARE_ARTEFACT: "Rare artefact",
}


def reference_pdf(access: Access, obj: None, options: PrintOptions, *,
                  base_url: str | None = None) -> bytes:
    """The rules of Mighty Kingdoms in short, with this campaign's modules and house rules."""
    return sheet_pdf(REFERENCE, access, obj, options, base_url=base_url)


# --- kingdom ledger -----------------------------------------------------------------------------

_SETTLEMENT_ORDER = {"capital": 0, mk.CITY: 1, mk.FORTRESS: 2, mk.VILLAGE: 3, mk.EMPTY: 4}
_SETTLEMENT_NAMES = {"capital": "Capital City", mk.CITY: "City", mk.FORTRESS: "Fortress",
                     mk.VILLAGE: "Village", mk.EMPTY: "Empty"}


def _purchase_words(option: economy.PurchaseOption) -> str:
    purchase = option.purchase
    if purchase.kind == economy.SETTLE:
        target = "Capital City" if purchase.to_state == mk.CAPITAL else purchase.to_state
        return f"→ {target}"
    if purchase.kind == economy.SHIP:
        return "build a ship"
    words = "recruit an allied army" if purchase.allied else "recruit an army"
    return words + (" (disband one first)" if option.needs_disband else "")


def ledger_context(access: Access, kingdom: Kingdom, options: PrintOptions, *,
                   base_url: str | None = None, in_book: bool = False) -> dict[str, Any]:
    campaign = access.campaign
    state = load_state(campaign)
    rules_kingdom = state.kingdoms[kingdom.pk]
    holdings = economy.Holdings.of(rules_kingdom, state.map, state.kingdoms.values())
    income = economy.winter_income(holdings, state.options)
    forecast = economy.totals(income)
    stock_now = ledger_sheets.balances(kingdom, RESOURCES)
    stock = economy.Resources(stock_now["gold"], stock_now["food"])
    army_rows = _kingdom_armies(kingdom)
    ship_rows = list(Ship.objects.filter(kingdom=kingdom).select_related("tile"))
    docked = frozenset(s.tile.label for s in ship_rows if s.tile is not None)
    winter = economy.KingdomWinter(rules_kingdom, stock, tuple(state.armies_of(kingdom.pk)),
                                   docked=docked)
    options_by_tile: dict[str, list[economy.PurchaseOption]] = {}
    for option in economy.affordable_purchases(winter, state.map, state.options):
        options_by_tile.setdefault(option.purchase.tile, []).append(option)
    capital = mk.current_capital(rules_kingdom, state.map)
    limits = mk.deployment_capacity(rules_kingdom, state.map)
    groups: dict[str, list[dict[str, Any]]] = {}
    for tile in holdings.tiles:
        kind = "capital" if tile.label == capital else tile.settlement
        notes = [n for n, on in (("coast", tile.is_coastal), ("river", tile.has_river)) if on]
        groups.setdefault(kind, []).append({
            "label": tile.label,
            "terrain": tile.terrain.replace("_", " "),
            "notes": ", ".join(notes),
            "deploy": limits.get(tile.label, 0),
            "options": [{"words": _purchase_words(o), "cost": _cost(o.cost), "rule": o.rule_id,
                         "affordable": o.affordable}
                        for o in options_by_tile.get(tile.label, [])],
        })
    settlement_groups = [
        {"kind": kind, "name": _SETTLEMENT_NAMES.get(kind, kind), "tiles": tiles}
        for kind, tiles in sorted(groups.items(), key=lambda g: _SETTLEMENT_ORDER.get(g[0], 9))
    ]
    upkeep = economy.food_needed(len(army_rows))
    season = ledger_sheets.last_season(kingdom)
    others = [k for k in _kingdoms(access) if k.pk != kingdom.pk]
    tithes: dict[int, dict[str, int]] = {}
    for tithe in Tithe.objects.filter(Q(giver=kingdom) | Q(receiver=kingdom),
                                      campaign=campaign, year=campaign.year):
        other = tithe.receiver_id if tithe.giver_id == kingdom.pk else tithe.giver_id
        entry = tithes.setdefault(other, {"gave_gold": 0, "gave_food": 0, "got_gold": 0,
                                          "got_food": 0})
        prefix = "gave" if tithe.giver_id == kingdom.pk else "got"
        entry[f"{prefix}_gold"] += tithe.gold
        entry[f"{prefix}_food"] += tithe.food
    return {
        **_base(access, f"Kingdom ledger: {kingdom.name}"),
        "kingdom": kingdom,
        "kingdom_swatch": swatch(kingdom.colour, options.eco),
        "name_style": fit_style(f"{kingdom.name}: ledger", 120, size_pt=16, min_pt=10),
        "race": _race(access, kingdom),
        "player": kingdom.player.user.get_username() if kingdom.player_id else "",
        "stock": stock_now,
        "income": income,
        "forecast": forecast,
        "settlement_groups": settlement_groups,
        "armies": [{"army": a, "state": _army_state(a)} for a in army_rows],
        "ships": ship_rows,
        "upkeep": upkeep,
        "food_after_upkeep": forecast.food - upkeep,
        "shortfall": max(0, upkeep - forecast.food),
        "max_armies": state.options.max_armies,
        "season": season,
        "season_totals": {r: season.total(r) for r in RESOURCES} if season else {},
        "tithe_rows": [{"kingdom": k, "swatch": swatch(k.colour, options.eco),
                        **tithes.get(k.pk, {})} for k in others],
        # The entries go under the shorter of the two columns beside them: the tithes (one row
        # per other kingdom) or the winter tally (five rows).
        "entries_left": len(others) < 6,
        "capacity": sum(limits.values()),
    }


def ledger_pdf(access: Access, kingdom: Kingdom, options: PrintOptions, *,
               base_url: str | None = None) -> bytes:
    """A kingdom's ledger: stock, winter forecast, settlements and their upgrades, armies and
    upkeep, the latest season's entries and room for tithes."""
    return sheet_pdf(LEDGER, access, kingdom, options, base_url=base_url)


# --- rosters ------------------------------------------------------------------------------------

ROSTER_ROW_MM = 8.0  # a written-in roster row (static/css/sheet.css table.roster td.write)
ROSTER_FIXED_MM = 135  # the roster's title block, table head, note and notes lines


def _unit_rows(units: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The battles app's unit dicts, with what the sheets add: shrink-to-fit, the value a unit
    fights at (MK-US-6) and its Unit Strength from the base on (MK-US-4/5). Units destroyed
    come last."""
    rows = []
    for unit in sorted(units, key=lambda u: bool(u.get("destroyed"))):
        total = unit["unit_strength"]
        base = unit.get("base_us")
        history = ([base] if base is not None else []) + list(unit["us_history"])
        item = ", ".join(x for x in (unit["magic_item"], unit.get("artefact") or "") if x)
        rows.append({
            **unit,
            "item": item,
            "name_style": fit_style(unit["name"], 2 * 58, size_pt=10, min_pt=7.5),
            "item_style": fit_style(item, 2 * 34, size_pt=10, min_pt=7.5),
            "battle_us": kow.battle_unit_strength(total) if total is not None else None,
            "history": " → ".join(str(v) for v in history),
            "destroyed": bool(unit.get("destroyed")),
        })
    return rows


def _roster_rows(options: PrintOptions) -> int:
    """Unit rows that fill one page of this paper, written-in rows included."""
    return int((text_area_mm(options)[1] - ROSTER_FIXED_MM) // ROSTER_ROW_MM)


def army_roster_context(access: Access, army: Army, options: PrintOptions, *,
                        base_url: str | None = None, in_book: bool = False) -> dict[str, Any]:
    units = _unit_rows(army_lists.army_units(army))
    listed = sum(u["points"] or 0 for u in units if not u["destroyed"])
    kingdom = army.kingdom
    return {
        **_base(access, f"Army roster: {kingdom.name} #{army.number}"),
        "army": army,
        "kingdom": kingdom,
        "kingdom_swatch": swatch(kingdom.colour, options.eco),
        "name_style": fit_style(f"{kingdom.name}: army #{army.number}", 110, size_pt=16,
                                min_pt=10),
        "army_name_style": fit_style(army.name, 110, size_pt=11),
        "race": _race(access, kingdom),
        "state": _army_state(army),
        "units": units,
        "list_points": listed if units else None,
        "points_limit": kow.ARMY_POINTS_LIMIT,
        # On its own a roster fills its page with rows to write in; the book keeps two.
        "blank_rows": range(2 if in_book else max(4, _roster_rows(options) - len(units))),
        "in_book": in_book,
        "ship": Ship.objects.filter(paired_army=army).first(),
    }


def army_roster_pdf(access: Access, army: Army, options: PrintOptions, *,
                    base_url: str | None = None) -> bytes:
    """A Kings of War army roster: the token, its state and every unit with its Unit Strength,
    tick boxes for the next battle's routs and blank rows."""
    return sheet_pdf(ARMY_ROSTER, access, army, options, base_url=base_url)


def simple_roster_context(access: Access, kingdom: Kingdom, options: PrintOptions, *,
                          base_url: str | None = None, in_book: bool = False) -> dict[str, Any]:
    opts = mk.MKOptions.from_dict(access.campaign.options)
    boxes = mk.STARTING_ARMY_POINTS // 100
    rows = []
    armies = _visible_armies(access, kingdom)
    for army in armies:
        left = max(0, min(army.points, mk.STARTING_ARMY_POINTS)) // 100
        rows.append({
            "army": army,
            "state": _army_state(army),
            "defence": army.points // 100,
            "boxes": [{"lost": i >= left} for i in range(boxes)],
        })
    own = _own_kingdom(access, kingdom)
    blank = max(0, opts.max_armies - len(armies)) if own else 0
    return {
        **_base(access, f"Simple roster: {kingdom.name}"),
        "kingdom": kingdom,
        "kingdom_swatch": swatch(kingdom.colour, options.eco),
        "name_style": fit_style(f"{kingdom.name}: Simple roster", 130, size_pt=16, min_pt=10),
        "rows": rows,
        "total_points": sum(row["army"].points for row in rows),
        "blank_rows": [range(boxes)] * max(blank, 2 if own else 0),
        "complete": own,
        "max_armies": opts.max_armies,
        "start_points": mk.STARTING_ARMY_POINTS,
    }


def kingdom_rosters_context(access: Access, kingdom: Kingdom, options: PrintOptions, *,
                            base_url: str | None = None,
                            in_book: bool = False) -> dict[str, Any]:
    armies = []
    for army in _visible_armies(access, kingdom):
        units = _unit_rows(army_lists.army_units(army))
        armies.append({
            "army": army,
            "state": _army_state(army),
            "units": units,
            "list_points": (sum(u["points"] or 0 for u in units if not u["destroyed"])
                            if units else None),
        })
    return {
        **_base(access, f"Rosters: {kingdom.name}"),
        "kingdom": kingdom,
        "kingdom_swatch": swatch(kingdom.colour, options.eco),
        "name_style": fit_style(f"{kingdom.name}: armies", 130, size_pt=16, min_pt=10),
        "race": _race(access, kingdom),
        "armies": armies,
        "complete": _own_kingdom(access, kingdom),
        "points_limit": kow.ARMY_POINTS_LIMIT,
    }


def kingdom_rosters_pdf(access: Access, kingdom: Kingdom, options: PrintOptions, *,
                        base_url: str | None = None) -> bytes:
    """Every army of a kingdom this viewer may see, with its units, on as few pages as fit (the
    campaign book's form of the rosters)."""
    return sheet_pdf(KINGDOM_ROSTERS, access, kingdom, options, base_url=base_url)


def simple_roster_pdf(access: Access, kingdom: Kingdom, options: PrintOptions, *,
                      base_url: str | None = None) -> bytes:
    """A Simple-battles roster: every army of a kingdom with its points as 100-point boxes to
    strike off (MK-SETUP-6, MK-SIMPLE-5)."""
    return sheet_pdf(SIMPLE_ROSTER, access, kingdom, options, base_url=base_url)


# --- battle packet ------------------------------------------------------------------------------


def battle_result_url(battle: Battle) -> str:
    """Where the result of ``battle`` is entered: the battle's own page when the system has one,
    else the play page (whose battle phase holds the result form) pointing at it."""
    slug = battle.campaign.slug
    for name in ("mk:battle_play", "mk:battle"):
        try:
            return reverse(name, args=[slug, battle.pk])
        except NoReverseMatch:
            continue
    return reverse("campaign:play", args=[slug]) + f"?battle={battle.pk}#battle-{battle.pk}"


def qr_svg(url: str, size_mm: float = 30) -> str:
    """A QR code of ``url`` as inline SVG (drawn by us; no image is fetched)."""
    import qrcode
    import qrcode.image.svg

    image = qrcode.make(url, image_factory=qrcode.image.svg.SvgPathImage, border=2)
    svg = image.to_string(encoding="unicode")
    svg = svg.replace('width="', 'data-w="', 1).replace('height="', 'data-h="', 1)
    return svg.replace("<svg ", f'<svg width="{size_mm}mm" height="{size_mm}mm" '
                                 'shape-rendering="crispEdges" ', 1)


def _side(access: Access, battle: Battle, fighting: list[Army], kingdom: Kingdom,
          role: str) -> dict[str, Any]:
    armies = [army for army in fighting if army.kingdom_id == kingdom.pk]
    ships = list(Ship.objects.filter(kingdom=kingdom, tile=battle.tile).order_by("number"))
    rows = []
    for army in armies:
        visible = army_lists.roster_visible(access, army)
        units = [u for u in _unit_rows(army_lists.army_units(army)) if not u["destroyed"]]
        rows.append({"army": army, "state": _army_state(army), "visible": visible,
                     "units": units if visible else [],
                     "defence": kow.simple_defence(army.points, army.defending)})
    return {
        "role": role,
        "kingdom": kingdom,
        "swatch": swatch(kingdom.colour, access.campaign.eco_print),
        "name_style": fit_style(kingdom.name, 80, size_pt=12, min_pt=8),
        "armies": rows,
        "ships": ships,
        "upright": sum(1 for a in armies if not a.on_side),
        "defending": any(a.defending for a in armies),
    }


def battle_packet_context(access: Access, battle: Battle, options: PrintOptions, *,
                          base_url: str | None = None, in_book: bool = False) -> dict[str, Any]:
    campaign = access.campaign
    tile = battle.tile
    fighting = army_lists.battle_armies(battle)
    sides = [_side(access, battle, fighting, battle.chooser,
                   "Attacker: chose the battle (MK-BSEL-6)"),
             _side(access, battle, fighting, battle.opponent, "Opponent")]
    for side in sides:
        side["swatch"] = swatch(side["kingdom"].colour, options.eco)
    board = None
    if all(s["upright"] for s in sides):
        board = kow.board_size(sides[0]["upright"], sides[1]["upright"])
    capital = Kingdom.objects.filter(campaign=campaign, capital_tile=tile).exists()
    settlement = "capital" if capital and tile.settlement == "city" else tile.settlement
    defending = [s["kingdom"].pk for s in sides if s["defending"]]
    benefit = kow.defended_tile_benefit(settlement, tile.controller_id, defending)
    allowance_rows = []
    for row, allowance in kow.DEFENCE_ALLOWANCES.items():
        allowance_rows.append({"row": row, "allowance": allowance,
                               "this": benefit is not None and benefit.allowance.row == row})
    loaded = mapview.load_map(campaign)
    grid = loaded.grid
    near = {tile.label}
    by_pos = {(v.q, v.r): v.label for v in loaded.views}
    if hasattr(grid, "step"):
        for d in range(grid.edge_count):
            label = by_pos.get(grid.step(tile.q, tile.r, d))
            if label:
                near.add(label)
    crop, crop_w, crop_h = draw_tiles(campaign, loaded, near, eco=options.eco, scale=0.6,
                                      highlight=tile.label)
    if crop_w > 72:
        crop, crop_w, crop_h = draw_tiles(campaign, loaded, near, eco=options.eco,
                                          scale=0.6 * 72 / crop_w, highlight=tile.label)
    result_path = battle_result_url(battle)
    result_url = (base_url or "").rstrip("/") + result_path if base_url else result_path
    return {
        **_base(access, f"Battle packet: {tile.label}"),
        "battle": battle,
        "tile": tile,
        "settlement": _SETTLEMENT_NAMES.get(settlement or "", settlement) if settlement else "none",
        "controller": tile.controller,
        "sides": sides,
        "board": board,
        "benefit": benefit,
        "benefit_kingdom": next((s["kingdom"] for s in sides
                                 if benefit and s["kingdom"].pk == benefit.kingdom), None),
        "allowance_rows": allowance_rows,
        "crop": GeneratedImage(crop),
        "crop_w": crop_w,
        "crop_h": crop_h,
        "result_url": result_url,
        "qr": mark_safe(qr_svg(result_url, size_mm=26)),
        "kind": battle.kind.replace("_", "/"),
        # How the battle is fought decides what the packet needs: a table for Kings of War land
        # battles only; dice for the rest (MK-SIMPLE, MK-NAVAL, MK-LW).
        "fought": ("kow" if battle.kind == "land" and battle.mode == "kow"
                   else "simple" if battle.kind == "land" else battle.kind),
        "mode": {"kow": "Kings of War", "simple": "Simple battle"}.get(battle.mode, battle.mode),
    }


def battle_packet_pdf(access: Access, battle: Battle, options: PrintOptions, *,
                      base_url: str | None = None) -> bytes:
    """A pending battle's packet: both sides' lists, board size, the defender's terrain
    allowance, a map of the tile and its neighbours and a QR code to enter the result."""
    return sheet_pdf(BATTLE_PACKET, access, battle, options, base_url=base_url)


# --- chronicle ----------------------------------------------------------------------------------


def chronicle_context(access: Access, obj: None, options: PrintOptions, *,
                      base_url: str | None = None, in_book: bool = False) -> dict[str, Any]:
    from campaign.views.chronicle import visible_events

    year = access.campaign.year
    events = list(visible_events(access).filter(year=year).defer("changes").order_by("seq"))
    return {
        **_base(access, f"Chronicle of year {year}"),
        "year": year,
        "events": events,
    }


def chronicle_pdf(access: Access, obj: None, options: PrintOptions, *,
                  base_url: str | None = None) -> bytes:
    """The chronicle of the current year, as this viewer may read it."""
    return sheet_pdf(CHRONICLE, access, obj, options, base_url=base_url)


# --- the registry's list ------------------------------------------------------------------------

MAP = PdfSheet(
    slug="map", title="Map", template="print/map.html", context=map_context,
    filename=lambda access, obj: download_name(access.campaign.slug, "map",
                                               f"year-{access.campaign.year}"),
    landscape=True, pdf=map_pdf,
    description="The campaign map with hex labels, legend and kingdoms; large maps are cut "
                "into overlapping pages with an overview.",
)
REFERENCE = PdfSheet(
    slug="reference", title="Rules reference", template="print/mk_reference.html",
    context=reference_context, pdf=reference_pdf,
    filename=lambda access, obj: download_name(access.campaign.slug, "rules-reference"),
    description="The year, orders, tables, battles, winter and this campaign's modules.",
)
CHRONICLE = PdfSheet(
    slug="chronicle", title="Chronicle of the year", template="print/chronicle.html",
    context=chronicle_context, pdf=chronicle_pdf,
    filename=lambda access, obj: download_name(access.campaign.slug, "chronicle",
                                               f"year-{access.campaign.year}"),
    description="What happened this year, as you may read it.",
)
LEDGER = PdfSheet(
    slug="ledger", title="Kingdom ledger", template="print/mk_ledger.html",
    context=ledger_context, pdf=ledger_pdf, may_see=_own_kingdom, objects=_kingdoms,
    get=_get_kingdom, label=lambda k: k.name, group="Kingdoms",
    filename=lambda access, k: download_name(access.campaign.slug, "ledger", k.name,
                                             f"year-{access.campaign.year}"),
    description="Stock, winter forecast, settlements and upgrades, armies, entries, tithes.",
)
SIMPLE_ROSTER = PdfSheet(
    slug="simple-roster", title="Simple roster", template="print/mk_simple_roster.html",
    context=simple_roster_context, pdf=simple_roster_pdf, may_see=_kingdom_armies_visible,
    objects=_kingdoms, get=_get_kingdom, label=lambda k: k.name, applies=_simple_battles,
    group="Kingdoms",
    filename=lambda access, k: download_name(access.campaign.slug, "simple-roster", k.name),
    description="Every army with its points as 100-point boxes to strike off.",
)
ARMY_ROSTER = PdfSheet(
    slug="roster", title="Army roster", template="print/mk_army_roster.html",
    context=army_roster_context, pdf=army_roster_pdf, may_see=_army_roster_visible,
    objects=_armies, get=_get_army, label=_army_label, applies=_kow_battles, group="Armies",
    filename=lambda access, a: download_name(access.campaign.slug, "roster", a.kingdom.name,
                                             f"army-{a.number}"),
    description="Units, Unit Strength, rout boxes for the next battle and rows to fill in.",
)
KINGDOM_ROSTERS = PdfSheet(
    slug="armies", title="Kingdom's armies", template="print/mk_kingdom_rosters.html",
    context=kingdom_rosters_context, pdf=kingdom_rosters_pdf, may_see=_kingdom_armies_visible,
    objects=_kingdoms, get=_get_kingdom, label=lambda k: k.name, applies=_kow_battles,
    group="Kingdoms",
    filename=lambda access, k: download_name(access.campaign.slug, "armies", k.name),
    description="Every army of the kingdom with its units and Unit Strength, on one sheet.",
)
BATTLE_PACKET = PdfSheet(
    slug="battle", title="Battle packet", template="print/mk_battle_packet.html",
    context=battle_packet_context, pdf=battle_packet_pdf, may_see=_battle_side,
    objects=_pending_battles, get=_get_battle, label=_battle_label, group="Battles",
    filename=lambda access, b: download_name(access.campaign.slug, "battle", b.tile.label,
                                             f"y{b.year}m{b.month}"),
    description="Both sides, board size, terrain allowance, the local map and a QR code.",
)


def book_sections(access: Access) -> list[BookSection]:
    """The campaign book: map, each kingdom's ledger and rosters, the chronicle of the year and
    the rules reference, as far as this viewer may see them."""
    campaign = access.campaign
    sections = [BookSection(MAP, None, "Map", "Campaign")]
    kow_mode, simple_mode = _kow_battles(campaign), _simple_battles(campaign)
    for kingdom in sorted(_kingdoms(access), key=lambda k: (k.order_position is None,
                                                             k.order_position or 0, k.name)):
        if _own_kingdom(access, kingdom):
            sections.append(BookSection(LEDGER, kingdom, "Ledger", kingdom.name))
        if simple_mode and _kingdom_armies_visible(access, kingdom):
            sections.append(BookSection(SIMPLE_ROSTER, kingdom, "Simple roster", kingdom.name))
        if kow_mode and _kingdom_armies_visible(access, kingdom):
            # In the book a kingdom's rosters share one sheet; each army's own roster (with
            # rows to write in and boxes to tick) is printed from the print page.
            sections.append(BookSection(KINGDOM_ROSTERS, kingdom, "Armies", kingdom.name))
    sections.append(BookSection(CHRONICLE, None, f"Chronicle of year {campaign.year}",
                                "The year and the rules"))
    sections.append(BookSection(REFERENCE, None, "Rules reference", "The year and the rules"))
    return sections


BOOK = PdfBook(sections=book_sections)

SHEETS: list[PdfSheet | PdfBook] = [
    MAP, REFERENCE, CHRONICLE, LEDGER, SIMPLE_ROSTER, KINGDOM_ROSTERS, ARMY_ROSTER, BATTLE_PACKET,
    BOOK,
]
