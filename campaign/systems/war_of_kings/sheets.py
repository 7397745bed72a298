"""War of Kings printable sheets (the framework is campaign/pdf.py): the economic ledger in the
layout of the game's ledger pad, a kingdom sheet with achievements, the map, a reference, a
battle reference and a battle sheet per offer of battle.

Every figure comes from the rules modules through ``reading.kingdom_economy`` and
``views.standings``, so paper and screen cannot disagree.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.utils.safestring import mark_safe

from campaign.access import Access
from campaign.models import Kingdom
from campaign.pdf import (
    GeneratedImage,
    PdfSheet,
    PrintOptions,
    download_name,
    fit_style,
    paper_map,
    running_title,
    text_area_mm,
)
from campaign.systems.war_of_kings import reading, services
from campaign.systems.war_of_kings import state as st
from campaign.systems.war_of_kings.rules import board as wb
from campaign.systems.war_of_kings.rules import construction
from campaign.systems.war_of_kings.rules.achievements import (
    EMPIRE_AP,
    FORTIFIED_AP,
    FORTIFIED_THRESHOLD,
    MERCHANT_THRESHOLD,
    WARLORD_THRESHOLD,
)
from campaign.systems.war_of_kings.rules.economy import (
    GOLD_BY_LEVEL,
    PRIMARY_BY_LEVEL,
    SECONDARY_BY_LEVEL,
)

T = "campaign/systems/war_of_kings/print/"


def _base(access: Access, title: str, options: PrintOptions, heading: str) -> dict[str, Any]:
    campaign = access.campaign
    return {
        "campaign": campaign, "access": access, "sheet_title": title, "heading": heading,
        "heading_style": fit_style(heading, text_area_mm(options)[0], size_pt=16, min_pt=10,
                                   bold=True),
        "running_title": running_title(heading, options), "clock": campaign.clock_label(),
    }


def _seated(access: Access) -> list[Kingdom]:
    return list(Kingdom.objects.filter(campaign=access.campaign, capital_tile__isnull=False)
                .order_by("order_position", "pk"))


def _get_kingdom(access: Access, pk: int) -> Kingdom:
    kingdom = Kingdom.objects.filter(campaign=access.campaign, pk=pk,
                                     capital_tile__isnull=False).first()
    if kingdom is None:
        raise Http404("No such kingdom in this game.")
    return kingdom


def ledger_context(access: Access, kingdom: Kingdom, options: PrintOptions, *,
                   base_url: str | None = None, in_book: bool = False) -> dict[str, Any]:
    """WOK-LEDGER-1..4: four colour columns by resource, gold per round and AP."""
    loaded = st.load(access.campaign)
    heading = f"Economic ledger: {kingdom.name}"
    return {**_base(access, "Economic ledger", options, heading), "kingdom": kingdom,
            **reading.kingdom_economy(loaded, kingdom.name)}


def kingdom_context(access: Access, kingdom: Kingdom, options: PrintOptions, *,
                    base_url: str | None = None, in_book: bool = False) -> dict[str, Any]:
    """A kingdom's territories, settlements, fortifications and armies, and where each
    achievement stands (WOK-ACH-1..8)."""
    loaded = st.load(access.campaign)
    state = loaded.state
    name = kingdom.name
    rows = []
    for code in state.controlled(name):
        holding = state.holding(code)
        terr = state.map.territory(code)
        rows.append({"code": code, "colour": terr.color, "primary": terr.primary,
                     "secondary": terr.secondary,
                     "settlement": wb.SETTLEMENT_NAMES[holding.level] if holding.level else "",
                     "culture": holding.culture if holding.level else "",
                     "fort": wb.FORTIFICATION_NAMES[holding.fort] if holding.fort else "",
                     "capital": code == state.capital(name)})
    armies = [{"id": a.id[1:], "where": a.territory, "ready": a.ready, "damage": a.damage}
              for a in state.armies_of(name)]
    return {**_base(access, "Kingdom sheet", options, f"Kingdom of {kingdom.name}"),
            "kingdom": kingdom, "rows": rows, "armies": armies,
            **reading.kingdom_economy(loaded, name),
            "holders": loaded.holders, "options": loaded.options,
            "thresholds": {"fortified": FORTIFIED_THRESHOLD, "merchant": MERCHANT_THRESHOLD,
                           "warlord": WARLORD_THRESHOLD}}


def map_context(access: Access, obj: None, options: PrintOptions, *,
                base_url: str | None = None, in_book: bool = False) -> dict[str, Any]:
    """The board with controllers' colours, settlements and army counters (number, a dash when
    unready, a dot per damage), and every territory in a table readable in black and white."""
    campaign = access.campaign
    width, height = text_area_mm(options)
    paper = paper_map(campaign, options, areas=[("below", (width, height * 0.62))],
                      page_area_mm=(width, height - 20), one_page=True)
    loaded = st.load(campaign)
    state = loaded.state
    territories = []
    for code in state.map.codes:
        terr = state.map.territory(code)
        holding = state.holding(code)
        roads = sorted(t for t in state.map.neighbours(code) if state.has_road(code, t))
        territories.append({
            "code": code, "kind": terr.kind, "colour": terr.color or "",
            "resources": "/".join(r for r in (terr.primary, terr.secondary) if r),
            "ctrl": holding.controller or "", "settlement": wb.SETTLEMENT_NAMES[holding.level]
            if holding.level else "", "fort": wb.FORTIFICATION_NAMES[holding.fort]
            if holding.fort else "", "roads": ", ".join(roads),
            # Spelt out, so readiness and damage read without colour (WOK-ARMY-1, WOK-ARMY-6).
            "armies": "; ".join(f"{a.id[1:]} {a.owner}, {'ready' if a.ready else 'unready'}"
                                + (f", {a.damage} damage" if a.damage else "")
                                for a in state.armies_in(code)),
        })
    page = paper.pages[0]
    return {**_base(access, "Map", options, f"Map of {campaign.name}"),
            "image": GeneratedImage(page.svg), "frame_w": page.width_mm,
            "frame_h": page.height_mm,
            "legend": [{"svg": mark_safe(i.svg), "label": i.label} for i in paper.legend],
            "territories": territories}


def reference_context(access: Access, obj: None, options: PrintOptions, *,
                      base_url: str | None = None, in_book: bool = False) -> dict[str, Any]:
    """Phases, the Resource Dice, Table 3, Table 4 and the achievements, in our own words,
    with this campaign's options."""
    loaded = st.load(access.campaign)
    opts = loaded.options
    prices = [(item, construction.price(item, opts)) for item in (
        construction.ROAD_ITEM, construction.VILLAGE_ITEM, construction.TOWN_ITEM,
        construction.CITY_ITEM, construction.WALLS_ITEM, construction.FORTRESS_ITEM,
        construction.CASTLE_ITEM, construction.ARMY_ITEM, construction.PROVISIONS_ITEM,
        construction.RESUPPLY_ITEM)]
    table3 = [(("control only", "village", "town", "city")[lvl], GOLD_BY_LEVEL[lvl],
               PRIMARY_BY_LEVEL[lvl], SECONDARY_BY_LEVEL[lvl]) for lvl in range(4)]
    return {**_base(access, "Rules reference", options, "War of Kings: reference"),
            "prices": prices, "table3": table3, "opts": opts,
            "steps": [services.phase_name(p) for p in (*wb.CONSTRUCTION_STEPS,
                                                       *wb.TURN_PHASES)],
            "empire_ap": EMPIRE_AP, "fortified_ap": FORTIFIED_AP,
            "fortified": FORTIFIED_THRESHOLD, "merchant": MERCHANT_THRESHOLD,
            "warlord": WARLORD_THRESHOLD}


#: Table 9 results in our own words, by the rules' result names (WOK-EXPL-2).
_EXPLORATION_WORDS = {
    "walled_malador_village": "a walled Malador village and 2 Marauder armies: fight or pull back",
    "ambush": "ambush by 1 Marauder army: fight a round at once",
    "one_marauder": "1 Marauder army: fight or pull back",
    "ancient_road": "a road to any neighbour; the land is yours",
    "find_primary_3_secondary_2": "3 primary and 2 secondary resource; the land is yours",
    "plague": "plague: 1 blue die per army, a flail is a hit; yours if any survive",
    "malador_village": "a Malador village: fight its militia or pull back",
    "two_ancient_roads": "2 roads to neighbours; the land is yours",
    "find_primary_2": "2 primary resource; the land is yours",
    "fortified_malador_village": "a Malador village with a fortress and 1 Marauder army",
    "horrible_plague": "plague: 2 blue dice per army; yours if any survive",
}


def battle_reference_context(access: Access, obj: None, options: PrintOptions, *,
                             base_url: str | None = None, in_book: bool = False
                             ) -> dict[str, Any]:
    """Movement, the dice, a battle round, militia and fortification dice, conquest and Table 8,
    support and resupply, and Table 9, in our own words with this campaign's options
    (WOK-MOVE-*, WOK-BATTLE-*, WOK-MIL-4, WOK-FORT-11, WOK-CONQ-6, WOK-SUPPORT-2,
    WOK-EXPL-2)."""
    from collections import Counter

    from campaign.systems.war_of_kings.rules.armies import EXPLORATION_TABLE
    from campaign.systems.war_of_kings.rules.battle import FORTIFICATION_DICE, militia
    from campaign.systems.war_of_kings.rules.conquest import raze_loot

    opts = st.load(access.campaign).options

    def faces(die: str) -> str:
        counted = Counter(opts.face_table(die))
        return ", ".join(f"{n} {symbol}" for symbol, n in counted.items())

    dice = [
        {"name": "Red battle die", "sides": 8, "who": "attacker",
         "counts": "warhammer hits on the attack; shield cancels on the negation",
         "faces": faces("red")},
        {"name": "Blue battle die", "sides": 8, "who": "defender and militia",
         "counts": "shield cancels on the defense; flail hits on the counterattack",
         "faces": faces("blue")},
        {"name": "Purple bonus die", "sides": 6, "who": "the side entitled",
         "counts": "as the roll it joins; blank nothing", "faces": faces("purple")},
        {"name": "Grey fortification die", "sides": 6, "who": "defender, defense only",
         "counts": "shield cancels", "faces": faces("grey")},
    ]
    levels = ((wb.VILLAGE, wb.WALLS), (wb.TOWN, wb.FORTRESS), (wb.CITY, wb.CASTLE))
    militia_rows = []
    for level, fort in levels:
        table = militia(level, opts)
        militia_rows.append({"name": wb.SETTLEMENT_NAMES[level], "damage": table.damage,
                             "defend": table.defend, "counter": table.counter,
                             "fort": wb.FORTIFICATION_NAMES[fort],
                             "grey": FORTIFICATION_DICE[fort]})
    face_rows = [(face, opts.explore_row(face))
                 for face in ("warhammer", "flail", "shield", "blank") if opts.explore_row(face)]
    return {**_base(access, "Battle reference", options, "War of Kings: moving and fighting"),
            "opts": opts, "dice": dice, "militia": militia_rows,
            "raze": [(wb.SETTLEMENT_NAMES[lvl], raze_loot(lvl, opts))
                     for lvl in (wb.VILLAGE, wb.TOWN, wb.CITY)],
            "exploration": [(colour, [_EXPLORATION_WORDS.get(r, r.replace("_", " "))
                                      for r in EXPLORATION_TABLE[colour]])
                            for colour in wb.COLOURS],
            "face_rows": face_rows}


def _pending_battles(access: Access) -> list[Any]:
    from campaign.systems.war_of_kings.models import Battle

    return list(Battle.objects.filter(campaign=access.campaign, status=Battle.Status.PENDING)
                .select_related("tile", "attacker").order_by("number"))


def _get_battle(access: Access, pk: int) -> Any:
    from campaign.systems.war_of_kings.models import Battle

    battle = Battle.objects.filter(campaign=access.campaign, pk=pk).select_related(
        "tile", "attacker").first()
    if battle is None:
        raise Http404("No such battle in this game.")
    return battle


def battle_context(access: Access, battle: Any, options: PrintOptions, *,
                   base_url: str | None = None, in_book: bool = False) -> dict[str, Any]:
    """Both sides of an offer of battle, the dice of the next round (superiority, fortification
    dice, militia) and the rounds fought so far, with the order of a round in our own words
    (WOK-BATTLE-5..12, WOK-MIL-4, WOK-FORT-11)."""
    from campaign.systems.war_of_kings.rules.battle import dice_for_round
    from campaign.systems.war_of_kings.rules.battle import militia as militia_table

    loaded = st.load(access.campaign)
    state = loaded.state
    here = battle.tile.label
    numbers = set(battle.data.get("attackers", []))
    attackers = [a for a in state.armies_in(here) if int(a.id[1:]) in numbers]
    holder = state.ctrl(here)
    defenders = [a for a in state.armies_in(here, holder)] if holder else []
    militia = state.lvl(here) if not defenders else 0
    dice = None
    if attackers and (defenders or militia):
        dice = dice_for_round(len(attackers), len(defenders), militia, state.fort(here),
                              options=loaded.options)

    def rows(armies: list[wb.Army]) -> list[dict[str, Any]]:
        return [{"id": a.id[1:], "owner": a.owner, "culture": a.culture, "damage": a.damage,
                 "ready": a.ready} for a in armies]
    return {**_base(access, "Battle sheet", options, f"Battle {battle.number} in {here}"),
            "battle": battle, "here": here, "holder": holder or "nobody",
            "attackers": rows(attackers), "defenders": rows(defenders),
            "militia": militia_table(militia, loaded.options) if militia else None,
            "settlement": wb.SETTLEMENT_NAMES[state.lvl(here)] if state.lvl(here) else "",
            "fort": wb.FORTIFICATION_NAMES[state.fort(here)] if state.fort(here) else "",
            "dice": dice, "rounds": battle.data.get("rounds", [])}


def _own_or_public(access: Access, kingdom: Kingdom) -> bool:
    """Stockpiles, ledgers and AP are public in War of Kings (WOK-TURN-7)."""
    return True


LEDGER = PdfSheet(
    slug="wok-ledger", title="Economic ledger", template=T + "ledger.html",
    context=ledger_context, may_see=_own_or_public, objects=_seated, get=_get_kingdom,
    label=lambda k: k.name, group="Kingdoms",
    filename=lambda access, k: download_name(access.campaign.slug, "ledger", k.name,
                                             f"round-{access.campaign.year}"),
    description="The ledger pad: what each Resource Die colour pays, gold per round, AP.",
)
KINGDOM = PdfSheet(
    slug="wok-kingdom", title="Kingdom sheet", template=T + "kingdom.html",
    context=kingdom_context, may_see=_own_or_public, objects=_seated, get=_get_kingdom,
    label=lambda k: k.name, group="Kingdoms",
    filename=lambda access, k: download_name(access.campaign.slug, "kingdom", k.name,
                                             f"round-{access.campaign.year}"),
    description="Territories, settlements, fortifications, armies and achievements.",
)
MAP = PdfSheet(
    slug="wok-map", title="Map", template=T + "map.html", context=map_context,
    filename=lambda access, obj: download_name(access.campaign.slug, "map",
                                               f"round-{access.campaign.year}"),
    description="The board, and every territory with its holder, settlement, roads and armies.",
)
REFERENCE = PdfSheet(
    slug="wok-reference", title="Rules reference", template=T + "reference.html",
    context=reference_context,
    filename=lambda access, obj: download_name(access.campaign.slug, "reference"),
    description="Phases, Resource Dice, Tables 3 and 4, achievements, with this game's options.",
)
BATTLE_REFERENCE = PdfSheet(
    slug="wok-battle-reference", title="Battle reference", template=T + "battle_reference.html",
    context=battle_reference_context,
    filename=lambda access, obj: download_name(access.campaign.slug, "battle-reference"),
    description="Moving, the dice and their faces, a battle round, militia, fortification "
                "dice, razing, support, resupply and exploring, with this game's options.",
)

BATTLE = PdfSheet(
    slug="wok-battle", title="Battle sheet", template=T + "battle.html",
    context=battle_context, objects=_pending_battles, get=_get_battle,
    label=lambda b: f"Battle {b.number} in {b.tile.label}", group="Battles",
    filename=lambda access, b: download_name(access.campaign.slug, "battle", b.number),
    description="Both sides, the next round's dice, fortification and militia, the rounds so "
                "far, and the order of a round.",
)

SHEETS = [MAP, REFERENCE, BATTLE_REFERENCE, LEDGER, KINGDOM, BATTLE]
