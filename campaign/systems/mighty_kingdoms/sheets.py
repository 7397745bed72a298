"""Mighty Kingdoms printable sheets: map, reference, kingdom ledger, rosters, battle packet,
chronicle and the campaign book that gathers them (the framework is campaign/pdf.py).

Each sheet has one function returning PDF bytes (``*_pdf``) and one building its template's
context (``*_context``); ``SHEETS`` lists them for the registry. Numbers and tables come from the
rules modules, so a sheet and the site can never disagree.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import replace
from fractions import Fraction
from itertools import product
from typing import Any

from django.db.models import Q, Sum
from django.http import Http404
from django.urls import NoReverseMatch, reverse
from django.utils.safestring import mark_safe

from battles.models import Army, Battle, Unit
from campaign import mapview
from campaign.access import Access
from campaign.models import Campaign, Kingdom, Tile
from campaign.pdf import (
    LEGEND_KEY_MM,
    PT_MM,
    BookSection,
    GeneratedImage,
    PdfBook,
    PdfSheet,
    PrintOptions,
    download_name,
    draw_tiles,
    fit_style,
    keep_rule_ids,
    kingdom_swatches,
    legend_labels,
    map_pages,
    paper_map,
    running_title,
    sheet_pdf,
    text_area_mm,
    text_lines,
    text_width_mm,
)
from campaign.systems.mighty_kingdoms import forces as army_lists
from campaign.systems.mighty_kingdoms.advanced import quests_on
from campaign.systems.mighty_kingdoms.models import Ship, Tithe
from campaign.systems.mighty_kingdoms.rules import battles as kow
from campaign.systems.mighty_kingdoms.rules import campaign as mk
from campaign.systems.mighty_kingdoms.rules import ledger as economy
from campaign.systems.mighty_kingdoms.state import load_state
from ledger import pdf as ledger_sheets

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


def _base(access: Access, title: str, options: PrintOptions, heading: str,
          heading_mm: float | None = None) -> dict[str, Any]:
    """What every sheet shows: ``title`` names it (the browser's tab, the preview), ``heading``
    is its big title, shrunk to fit ``heading_mm`` (the text width if None) and repeated,
    shortened, at the top right of every page."""
    campaign = access.campaign
    width = heading_mm if heading_mm is not None else text_area_mm(options)[0]
    return {
        "campaign": campaign,
        "access": access,
        "sheet_title": title,
        "heading": heading,
        "heading_style": fit_style(heading, width, size_pt=16, min_pt=10, bold=True),
        "running_title": running_title(heading, options),
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


def _swatches(campaign: Campaign, options: PrintOptions) -> dict[int, str]:
    """The mark beside each kingdom's name: its map ring, in its line style (one query)."""
    return kingdom_swatches(Kingdom.objects.filter(campaign=campaign).only("pk", "colour"),
                            options.eco)


def _battle_tiles(campaign: Campaign) -> frozenset[str]:
    """The tiles where a battle waits to be fought, marked on the maps."""
    return frozenset(Battle.objects.filter(campaign=campaign, status=Battle.Status.PENDING)
                     .values_list("tile__label", flat=True))


def _army_state(army: Army) -> str:
    state = "on its side" if army.on_side else "upright"
    if army.defending:
        state += ", defending"
    return state


# --- map ----------------------------------------------------------------------------------------

MAP_SIDEBAR_MM = 64  # the legend and kingdoms beside the map (sheet.css .map-key)
MAP_PAGE_TITLE_MM = 9  # the heading above each page of a cut map (sheet.css .map-page h2)
LEGEND_ROW_MM = 8.6  # a legend key (pdf.LEGEND_KEY_MM), its border and the gap under it
KINGDOM_ROW_MM = 6.9  # a kingdom's row at least: its mark (sheet.css td.key svg) and padding
_LINE_MM = 1.3 * PT_MM  # a line of text per point of its size (line-height 1.3)


_CUT_CAPTION = ("{clock} · overview of {pages} map pages. Neighbouring pages share one column or "
                "row of tiles; on each page a dashed line marks where the next one starts. Tiles "
                "on the pages are {tile} mm wide.")


def _kingdoms_mm(rows: list[dict[str, Any]], width: float, *, narrow: bool) -> float:
    """Height of the map's table of kingdoms ``width`` wide: its head, then a row per kingdom.
    Narrow (beside the map), the holdings go under the name; else in a column of their own."""
    if not rows:
        return 0.0
    name_mm = width - 30 - 2.6 if narrow else (width - 56) / 2 - 2.6
    total = 6.0
    for row in rows:
        lines = text_lines(row["kingdom"].name, name_mm, 9) * 9 * _LINE_MM
        holdings = (text_lines(row["holdings"], name_mm, 8.5) * 8.5 * _LINE_MM
                    if row["holdings"] else 0.0)
        total += max(KINGDOM_ROW_MM, 1.5 + (lines + holdings if narrow else max(lines, holdings)))
    return total + 3


def _map_areas(labels: list[str], rows: list[dict[str, Any]], width: float, room: float
               ) -> list[tuple[str, tuple[float, float]]]:
    """The room each layout of the map sheet leaves for the map: the legend and the kingdoms
    beside it ("side", if both fit the page's height), the legend beside it and the kingdoms
    below ("legend-side"), or both below it ("below")."""
    legend_side = math.ceil(len(labels) / 2) * LEGEND_ROW_MM + 10
    used, legend_rows = 0.0, 1 if labels else 0
    for label in labels:
        item = LEGEND_KEY_MM[0] + 1.2 + text_width_mm(label, 8.5) + 3.5
        if used and used + item > width:
            legend_rows += 1
            used = 0.0
        used += item
    legend_below = legend_rows * LEGEND_ROW_MM + 6
    beside = width - MAP_SIDEBAR_MM - 4
    wide = _kingdoms_mm(rows, width, narrow=False)
    areas = [("below", (width, max(room - legend_below - wide, room / 4)))]
    if legend_side <= room - wide:
        areas.insert(0, ("legend-side", (beside, room - wide)))
    if legend_side + _kingdoms_mm(rows, MAP_SIDEBAR_MM, narrow=True) <= room:
        areas.insert(0, ("side", (beside, room)))
    return areas


def _map_kingdoms(campaign: Campaign, loaded: Any) -> list[dict[str, Any]]:
    """The map sheet's table of kingdoms: tiles, holdings, armies and ships of each."""
    counts: Counter = Counter()
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
    return [
        {
            "pk": pk,
            "kingdom": kingdom,
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


def _map_room(campaign: Campaign, options: PrintOptions, loaded: Any,
              kingdoms: list[dict[str, Any]], battles: frozenset[str] = frozenset()
              ) -> tuple[list[tuple[str, tuple[float, float]]], tuple[float, float]]:
    """The room the map sheet leaves for the map on this paper: for each layout (the legend and
    the kingdoms beside the map, or below it, see ``_map_areas``), and on each page of a cut
    map."""
    width, height = text_area_mm(options)
    title = f"Map of {campaign.name}"
    title_pt = _style_pt(fit_style(title, width, size_pt=16, min_pt=10, bold=True), 16.0)
    # The title, and the longer of the two captions (a cut map's), as they wrap.
    above = (text_lines(title, width, title_pt, bold=True) * title_pt * 1.15 * PT_MM + 1.5
             + text_lines(_CUT_CAPTION.format(clock=campaign.clock_label(), pages=9, tile=99),
                          width, 8.5) * 8.5 * _LINE_MM + 3 + 2)
    areas = _map_areas(legend_labels(campaign, loaded, battles), kingdoms, width,
                       height - above)
    return areas, (width, height - MAP_PAGE_TITLE_MM)


def map_orientation(access: Access, obj: None, options: PrintOptions) -> bool:
    """The map sheet's automatic orientation on ``options``' paper: landscape when the map
    needs fewer pages that way, else portrait (a map that fits one page either way, or needs
    as many pages, prints portrait)."""
    campaign = access.campaign
    loaded = mapview.load_map(campaign)
    kingdoms = _map_kingdoms(campaign, loaded)
    battles = _battle_tiles(campaign)
    pages = {}
    for landscape in (False, True):
        turned = replace(options, landscape=landscape)
        areas, page_area = _map_room(campaign, turned, loaded, kingdoms, battles)
        pages[landscape] = map_pages(campaign, turned, areas=areas, page_area_mm=page_area,
                                     loaded=loaded)
    return pages[True] < pages[False]


def map_context(access: Access, obj: None, options: PrintOptions, *,
                base_url: str | None = None, in_book: bool = False) -> dict[str, Any]:
    campaign = access.campaign
    width, _height = text_area_mm(options)
    loaded = mapview.load_map(campaign)
    kingdoms = _map_kingdoms(campaign, loaded)
    # The legend and the kingdoms go beside the map or below it, whichever draws it larger;
    # beside it only if they fit the page's height. A map too large for one page is cut into
    # overlapping pages with an overview, in the campaign book too.
    title = f"Map of {campaign.name}"
    battles = _battle_tiles(campaign)
    areas, page_area = _map_room(campaign, options, loaded, kingdoms, battles)
    paper = paper_map(campaign, options, areas=areas, page_area_mm=page_area, loaded=loaded,
                      battles=battles)
    name_mm = MAP_SIDEBAR_MM - 30 if paper.layout == "side" else (width - 56) / 2
    for row in kingdoms:
        row["key"] = mark_safe(paper.kingdom_keys.get(row["pk"], ""))
        row["name_style"] = fit_style(row["kingdom"].name, name_mm, size_pt=9, min_pt=7)
    return {
        **_base(access, "Map", options, title),
        "cut_caption": _CUT_CAPTION.format(clock=campaign.clock_label(), pages=len(paper.pages),
                                           tile=f"{paper.tile_mm:.0f}"),
        "paper": paper,
        "pages": [{"page": p, "image": GeneratedImage(p.svg)} for p in paper.pages],
        "overview": GeneratedImage(paper.overview),
        "legend": [{"svg": mark_safe(i.svg), "label": i.label} for i in paper.legend],
        "kingdoms": kingdoms,
        "narrow_kingdoms": paper.layout == "side",
        "game_map": loaded.game_map,
        # A territory map has no grid of numbered tiles to describe.
        "territory": loaded.game_map.kind == "territory",
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


def _hit_chance(defence: int) -> str:
    """MK-SIMPLE-5: a die hits when it rolls the army's Defence or more."""
    return f"{sum(1 for die in range(1, 7) if die >= defence)}/6"


def _exploration_chances(wizard_towers: bool) -> dict[str, Fraction]:
    """MK-EXP-1, MK-WIZ-1: the chance of each exploration result, from the rule itself over
    every roll (and every second roll after a double when the towers module is on)."""
    ways: Counter = Counter()
    faces = list(product(range(1, 7), repeat=2))
    for d1, d2 in faces:
        if mk.exploration_needs_reroll(d1, d2, wizard_towers):
            for again in faces:
                ways[mk.exploration_result(d1, d2, again, wizard_towers)] += 1
        else:
            ways[mk.exploration_result(d1, d2, None, wizard_towers)] += len(faces)
    return {result: Fraction(count, len(faces) ** 2) for result, count in ways.items()}


def _fraction(value: Fraction, over: int) -> str:
    """``value`` as a fraction with denominator ``over`` (21/36, 53/216)."""
    ways = value * over
    if ways.denominator != 1:
        raise ValueError(f"{value} is not a whole number of {over}ths.")
    return f"{ways.numerator}/{over}"


def reference_context(access: Access, obj: None, options: PrintOptions, *,
                      base_url: str | None = None, in_book: bool = False) -> dict[str, Any]:
    campaign = access.campaign
    opts = mk.MKOptions.from_dict(campaign.options)
    towers = opts.module_wizard_towers
    chances = _exploration_chances(towers)
    exploration = [
        {"roll": f"{low}–{high}" if low != high else str(low),
         "result": {mk.EXPLORE_EMPTY: "Empty: control marker only"}.get(result,
                                                                       result.capitalize()),
         "chance": _fraction(chances[result], 216 if towers else 36)}
        for low, high, result in mk.EXPLORATION_TABLE
    ]
    if towers:
        exploration.append({"roll": "double, then double", "result": "Wizard's Tower",
                            "chance": _fraction(chances[mk.EXPLORE_TOWER], 216)})
    defence = [
        {"points": points, "defence": kow.simple_defence(points),
         "defending": kow.simple_defence(points, defending=True),
         "hit": _hit_chance(kow.simple_defence(points)),
         "hit_defending": _hit_chance(kow.simple_defence(points, defending=True))}
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
            parts.append(f"move, take away or set down {allowance.adjust_pieces} piece of "
                         "terrain")
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
        **_base(access, "Rules reference", options, "Rules reference: Mighty Kingdoms"),
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
        # MK-QUEST-7, MK-AMB-22: quests need Heroes, so only Kings of War campaigns have them.
        "quests": quests_on(opts),
        "house_rules": house_rules,
        "max_armies": opts.max_armies,
        "start_points": mk.STARTING_ARMY_POINTS,
        "us_min": kow.US_BATTLE_MIN,
        "us_max": kow.US_BATTLE_MAX,
        "us_destroyed": kow.US_DESTROYED_AT,
        "show_simple": opts.battle_mode == "simple" or opts.allow_mode_per_battle,
        "show_kow": opts.battle_mode == "kow" or opts.allow_mode_per_battle,
        # The rules take a page and a third; with one kind of battle and no module, the second
        # page has room for a track of the year to tick off at the table (with both kinds or a
        # module the rules fill it).
        "year_track": ([f"Month {m}" for m in range(1, mk.SUMMER_MONTHS + 1)] + ["Winter"]
                       if not (opts.allow_mode_per_battle or opts.module_terrain_recruit
                               or opts.module_wizard_towers or opts.module_artefacts
                               or house_rules) else []),
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


def _army_points(campaign: Campaign, armies: list[Army]) -> dict[int, int | None]:
    """Each army's points as the ledger prints them: its Simple roster's (MK-SETUP-6) where
    Simple battles are fought, else its Kings of War list's living units (None: no list yet)."""
    if army_lists.simple_rosters(campaign):
        return {army.pk: army.points for army in armies}
    listed = dict(Unit.objects.filter(army_list__army__in=[a.pk for a in armies],
                                      destroyed_reason="")
                  .values_list("army_list__army_id").annotate(total=Sum("points"))
                  .values_list("army_list__army_id", "total"))
    return {army.pk: listed.get(army.pk) for army in armies}


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
    points = _army_points(campaign, army_rows)
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
    # The season whose entries are printed: this one, or an earlier one.
    current = season is not None and (season.year, season.season) == (campaign.year,
                                                                       campaign.season)
    if season is None:
        entries_heading = "Entries"
    elif current:
        entries_heading = f"This {season.season}'s entries (year {season.year})"
    else:
        entries_heading = f"Latest entries: {season.season or 'year'} of year {season.year}"
    # The winter tally opens with the stock before this winter's entries (what is held now, if
    # the winter has not begun) and closes with what is left before MK-WINTER-4 wipes it.
    in_winter = campaign.season == "winter"
    opening = {r: stock_now[r] - (season.total(r) if current and in_winter else 0)
               for r in RESOURCES}
    width = text_area_mm(options)[0]
    half = (width - 5) / 2  # a column (sheet.css .cols-2)
    others = [k for k in _kingdoms(access) if k.pk != kingdom.pk]
    swatches = kingdom_swatches([kingdom, *others], options.eco)
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
        **_base(access, f"Kingdom ledger: {kingdom.name}", options, f"{kingdom.name}: ledger",
                width - 45),
        "kingdom": kingdom,
        "kingdom_swatch": swatches[kingdom.pk],
        "race": _race(access, kingdom),
        "player": kingdom.player.user.get_username() if kingdom.player_id else "",
        "stock": stock_now,
        "income": income,
        "forecast": forecast,
        "settlement_groups": settlement_groups,
        "armies": [{"army": a, "state": _army_state(a), "points": points[a.pk]}
                   for a in army_rows],
        "ships": ship_rows,
        "upkeep": upkeep,
        "food_after_upkeep": forecast.food - upkeep,
        "shortfall": max(0, upkeep - forecast.food),
        "max_armies": state.options.max_armies,
        "season": season,
        "entries_heading": entries_heading,
        "opening": opening,
        "season_totals": {r: season.total(r) for r in RESOURCES} if season else {},
        "tithe_rows": [{"kingdom": k, "swatch": swatches[k.pk],
                        "name_style": fit_style(k.name, half * 0.52 - 7, size_pt=9.5,
                                                min_pt=7),
                        **tithes.get(k.pk, {})} for k in others],
        # The season's entries go beside the tithes and the winter tally while they are about
        # as long; a longer list goes under both, across the page, free to run on.
        "entries_wide": len(season.entries) > max(12, len(others) + 9) if season else False,
        "capacity": sum(limits.values()),
    }


def ledger_pdf(access: Access, kingdom: Kingdom, options: PrintOptions, *,
               base_url: str | None = None) -> bytes:
    """A kingdom's ledger: stock, winter forecast, settlements and their upgrades, armies and
    upkeep, the latest season's entries and room for tithes."""
    return sheet_pdf(LEDGER, access, kingdom, options, base_url=base_url)


# --- rosters ------------------------------------------------------------------------------------

# The roster's units table (templates/print/mk_army_roster.html colgroup), as fractions of the
# text width, and the heights its rows print at (measured from WeasyPrint's layout).
ROSTER_COLUMNS = {"name": 0.27, "type": 0.11, "us": 0.09, "history": 0.11, "item": 0.16}
DETAIL_PT = 7.8  # a unit's stat line and special rules, under its name (sheet.css .unit-detail)
ROSTER_ROW_MM = 8.95  # a written-in row (sheet.css table.roster td.write and its padding)
UNIT_ROW_MM = 6.1  # a unit's row of one line, tick boxes included
CELL_PAD_MM = 2.6  # a cell's padding, left and right
# Everything on a roster besides its title block and its rows: the state line, the "Units"
# heading, the table's head and the note and notes lines under it.
ROSTER_FIXED_MM = 86.0
ROSTER_SPARE_MM = 4.0  # kept free at the foot of the page
TABLE_PT = 9.5  # sheet.css table
SMALL_PT = 8.5  # sheet.css .small


def _unit_rows(units: list[dict[str, Any]], width_mm: float, name_part: float,
               item_part: float, *, size_pt: float = TABLE_PT, lines: int = 2
               ) -> list[dict[str, Any]]:
    """The battles app's unit dicts, with what the sheets add: shrink-to-fit for a name and a
    magic item (in columns ``name_part`` and ``item_part`` of ``width_mm``, set at ``size_pt``
    in up to ``lines`` lines), the value a unit fights at (MK-US-6) and its Unit Strength from
    the base on (MK-US-4/5). Units destroyed come last."""
    name_mm = width_mm * name_part - CELL_PAD_MM
    item_mm = width_mm * item_part - CELL_PAD_MM
    rows = []
    for unit in sorted(units, key=lambda u: bool(u.get("destroyed"))):
        total = unit["unit_strength"]
        base = unit.get("base_us")
        history = ([base] if base is not None else []) + list(unit["us_history"])
        item = ", ".join(x for x in (unit["magic_item"], unit.get("artefact") or "") if x)
        rows.append({
            **unit,
            "item": item,
            "name_style": fit_style(unit["name"], lines * name_mm, size_pt=size_pt, min_pt=7),
            "item_style": fit_style(item, lines * item_mm, size_pt=size_pt, min_pt=7),
            "battle_us": kow.battle_unit_strength(total) if total is not None else None,
            "history": " → ".join(str(v) for v in history),
            "destroyed": bool(unit.get("destroyed")),
            # The stat line and special rules the player keeps with the list.
            "detail": " · ".join(x for x in (unit.get("stats") or "",
                                             unit.get("special_rules") or "") if x),
        })
    return rows


def _style_pt(style: str, default: float) -> float:
    """The font size a ``fit_style`` sets, or ``default``."""
    return float(style.removeprefix("font-size:").removesuffix("pt")) if style else default


def _lines_mm(text: str, width_mm: float, size_pt: float, *, bold: bool = False) -> float:
    return text_lines(text, width_mm, size_pt, bold=bold) * size_pt * _LINE_MM


def _roster_row_mm(unit: dict[str, Any], width_mm: float) -> float:
    """How tall a unit's row prints: its tallest cell, as the text wraps in its column."""
    column = {key: width_mm * part - CELL_PAD_MM for key, part in ROSTER_COLUMNS.items()}
    name = unit["name"] + (" [1]" if unit.get("living_legend") else "")
    if unit["destroyed"]:
        name += " (destroyed)"
    # "fights at 3" goes under the Unit Strength, on a line of its own (7.5 pt).
    fights = unit["unit_strength"] is not None and unit["battle_us"] != unit["unit_strength"]
    detail = (_lines_mm(unit["detail"], column["name"], DETAIL_PT) if unit.get("detail")
              else 0.0)
    tallest = max(
        _lines_mm(name, column["name"], _style_pt(unit["name_style"], TABLE_PT)) + detail,
        _lines_mm(unit["unit_type"] or "", column["type"], TABLE_PT),
        TABLE_PT * _LINE_MM + (7.5 * _LINE_MM if fights else 0),
        _lines_mm(unit["history"], column["history"], SMALL_PT),
        _lines_mm(unit["item"], column["item"], _style_pt(unit["item_style"], TABLE_PT)),
    )
    return max(UNIT_ROW_MM, tallest + 1.7)


def _title_mm(title: str, style: str, army_name: str, army_name_style: str, width_mm: float
              ) -> float:
    """The title block of a roster: the big title as it wraps, the army's name, the line under
    them; never less than the token and facts beside them."""
    size = _style_pt(style, 16.0)
    text = (text_lines(title, width_mm, size, bold=True) * size * 1.15 * PT_MM + 1.5
            + (_lines_mm(army_name, width_mm, _style_pt(army_name_style, 11.0))
               if army_name else 0.0) + 10 * _LINE_MM)
    return max(19.2, text) + 3.5


def army_roster_context(access: Access, army: Army, options: PrintOptions, *,
                        base_url: str | None = None, in_book: bool = False) -> dict[str, Any]:
    width, height = text_area_mm(options)
    units = _unit_rows(army_lists.army_units(army), width, ROSTER_COLUMNS["name"],
                       ROSTER_COLUMNS["item"])
    listed = sum(u["points"] or 0 for u in units if not u["destroyed"])
    kingdom = army.kingdom
    title = f"{kingdom.name}: army #{army.number}"
    base = _base(access, f"Army roster: {kingdom.name} #{army.number}", options, title, 110)
    army_name_style = fit_style(army.name, 110, size_pt=11)
    # On its own a roster fills its page with rows to write in, as many as the units leave
    # room for (at least four); the book keeps two.
    room = (height - _title_mm(title, base["heading_style"], army.name, army_name_style, 110)
            - ROSTER_FIXED_MM - ROSTER_SPARE_MM - sum(_roster_row_mm(u, width) for u in units))
    blank = 2 if in_book else max(4, int(room // ROSTER_ROW_MM))
    return {
        **base,
        "army": army,
        "kingdom": kingdom,
        "kingdom_swatch": _swatches(access.campaign, options)[kingdom.pk],
        "army_name_style": army_name_style,
        "race": _race(access, kingdom),
        "state": _army_state(army),
        "units": units,
        "list_points": listed if units else None,
        "points_limit": kow.ARMY_POINTS_LIMIT,
        "blank_rows": range(blank),
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
            # The battle packet's rule: +1 while it holds a Defend order (MK-SIMPLE-2/3).
            "defence": kow.simple_defence(army.points, army.defending),
            "boxes": [{"lost": i >= left} for i in range(boxes)],
        })
    own = _own_kingdom(access, kingdom)
    blank = max(0, opts.max_armies - len(armies)) if own else 0
    return {
        **_base(access, f"Simple roster: {kingdom.name}", options,
                f"{kingdom.name}: Simple roster", text_area_mm(options)[0] - 45),
        "kingdom": kingdom,
        "kingdom_swatch": _swatches(access.campaign, options)[kingdom.pk],
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
    width = text_area_mm(options)[0]
    armies = []
    for army in _visible_armies(access, kingdom):
        units = _unit_rows(army_lists.army_units(army), width, 0.33, 0.22)
        armies.append({
            "army": army,
            "state": _army_state(army),
            "units": units,
            "list_points": (sum(u["points"] or 0 for u in units if not u["destroyed"])
                            if units else None),
        })
    return {
        **_base(access, f"Rosters: {kingdom.name}", options, f"{kingdom.name}: armies",
                width - 30),
        "kingdom": kingdom,
        "kingdom_swatch": _swatches(access.campaign, options)[kingdom.pk],
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
          role: str, width: float) -> dict[str, Any]:
    armies = [army for army in fighting if army.kingdom_id == kingdom.pk]
    ships = list(Ship.objects.filter(kingdom=kingdom, tile=battle.tile).order_by("number"))
    rows = []
    simple = army_lists.simple_rosters(access.campaign) or (battle.kind == "land"
                                                            and battle.mode == "simple")
    for army in armies:
        visible = army_lists.roster_visible(access, army)
        # One line a unit: the packet holds two armies of eight units on a page.
        units = [u for u in _unit_rows(army_lists.army_units(army), width, 0.38, 0.20,
                                       size_pt=8.8, lines=1)
                 if not u["destroyed"]]
        # A Simple army's points are its own (MK-SETUP-6, its Defence comes from them); a list's
        # are its living units' (as the roster and the ledger count them), of the limit.
        if simple:
            points = f"{army.points} points"
        elif visible and units:
            points = f"{sum(u['points'] or 0 for u in units)} of {kow.ARMY_POINTS_LIMIT} points"
        else:
            points = ""
        rows.append({"army": army, "state": _army_state(army), "visible": visible,
                     "units": units if visible else [], "points": points,
                     "defence": kow.simple_defence(army.points, army.defending)})
    half = (width - 5) / 2  # a column of the packet's top (sheet.css .cols-2)
    return {
        "role": role,
        "kingdom": kingdom,
        "name_style": fit_style(kingdom.name, width - 8 - text_width_mm(f"· {role}", 8.5),
                                size_pt=12, min_pt=8, bold=True),
        "result_style": fit_style(kingdom.name, half - 20, size_pt=10, min_pt=7),
        "army_style": fit_style(kingdom.name, width * 0.55, size_pt=8.5, min_pt=7, bold=True),
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
    width = text_area_mm(options)[0]
    sides = [_side(access, battle, fighting, battle.chooser,
                   "Attacker: chose the battle (MK-BSEL-6)", width),
             _side(access, battle, fighting, battle.opponent, "Opponent", width)]
    swatches = _swatches(campaign, options)
    for side in sides:
        side["swatch"] = swatches[side["kingdom"].pk]
    board = None
    if all(s["upright"] for s in sides):
        board = kow.board_size(sides[0]["upright"], sides[1]["upright"])
    capital = Kingdom.objects.filter(campaign=campaign, capital_tile=tile).exists()
    settlement = "capital" if capital and tile.settlement == "city" else tile.settlement
    defending = [s["kingdom"].pk for s in sides if s["defending"]]
    benefit = kow.defended_tile_benefit(settlement, tile.controller_id, defending)
    loaded = mapview.load_map(campaign)
    grid = loaded.grid
    near = {tile.label}
    by_pos = {(v.q, v.r): v.label for v in loaded.views}
    if hasattr(grid, "step"):
        for d in range(grid.edge_count):
            label = by_pos.get(grid.step(tile.q, tile.r, d))
            if label:
                near.add(label)
    battles = frozenset({tile.label})
    crop, crop_w, crop_h = draw_tiles(campaign, loaded, near, eco=options.eco, scale=0.5,
                                      highlight=tile.label, battles=battles)
    if crop_w > 58 or crop_h > 56:
        crop, crop_w, crop_h = draw_tiles(campaign, loaded, near, eco=options.eco,
                                          scale=0.5 * min(58 / crop_w, 56 / crop_h),
                                          highlight=tile.label, battles=battles)
    result_path = battle_result_url(battle)
    result_url = (base_url or "").rstrip("/") + result_path if base_url else result_path
    title = f"Battle at {tile.label}" + (f" · {tile.name}" if tile.name else "")
    benefit_kingdom = next((s["kingdom"] for s in sides
                            if benefit and s["kingdom"].pk == benefit.kingdom), None)
    return {
        **_base(access, f"Battle packet: {tile.label}", options, title, width - 34),
        "battle": battle,
        "tile": tile,
        "settlement": _SETTLEMENT_NAMES.get(settlement or "", settlement) if settlement else "none",
        "controller": tile.controller,
        "sides": sides,
        "board": board,
        "benefit": benefit,
        "benefit_kingdom": benefit_kingdom,
        "benefit_style": (fit_style(benefit_kingdom.name, (width - 5) / 2 - 3, size_pt=10,
                                    min_pt=7, bold=True) if benefit_kingdom else ""),
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
    from campaign.access import visible_events

    year = access.campaign.year
    events = list(visible_events(access).filter(year=year).defer("changes").order_by("seq"))
    for event in events:
        event.summary_html = keep_rule_ids(event.summary)
    return {
        **_base(access, f"Chronicle of year {year}", options, f"Chronicle of year {year}"),
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
    # Landscape in the campaign book; a download takes the orientation that needs fewer pages.
    landscape=True, orientation=map_orientation, pdf=map_pdf,
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


def _has_lists(access: Access, kingdom: Kingdom) -> bool:
    """Whether any army of ``kingdom`` this viewer may see has units on its list."""
    armies = [army.pk for army in _visible_armies(access, kingdom)]
    return Unit.objects.filter(army_list__army__in=armies).exists()


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
        if kow_mode and _kingdom_armies_visible(access, kingdom) and _has_lists(access, kingdom):
            # In the book a kingdom's rosters share one sheet; each army's own roster (with
            # rows to write in and boxes to tick) is printed from the print page. A kingdom
            # without lists gets no page of its own: its ledger lists its armies.
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
