"""Swords & Stones' printed sheets on the print framework (campaign.pdf): the kingdom sheet, the
honours roll, the map, the post-game report form and the reference sheet, on A4 or Letter."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.utils.safestring import mark_safe

from campaign import mapview
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
from campaign.systems.swords_and_stones import pages, reports
from campaign.systems.swords_and_stones.rules import grand_campaign as gc
from campaign.systems.swords_and_stones.rules import points as pts
from campaign.systems.swords_and_stones.rules import titles as tt
from campaign.systems.swords_and_stones.state import load, pid

_PRINT = "campaign/systems/swords_and_stones/print/"


def _base(access: Access, title: str, options: PrintOptions, heading: str) -> dict[str, Any]:
    campaign = access.campaign
    width = text_area_mm(options)[0]
    return {
        "campaign": campaign,
        "access": access,
        "sheet_title": title,
        "heading": heading,
        "heading_style": fit_style(heading, width, size_pt=16, min_pt=10, bold=True),
        "running_title": running_title(heading, options),
        "clock": campaign.clock_label(),
    }


def _kingdoms(access: Access) -> list[Kingdom]:
    return list(access.campaign.kingdoms.order_by("order_position", "pk"))


def _get_kingdom(access: Access, pk: int) -> Kingdom:
    kingdom = access.campaign.kingdoms.filter(pk=pk).first()
    if kingdom is None:
        raise Http404("No such kingdom in this campaign.")
    return kingdom


def kingdom_context(access: Access, kingdom: Kingdom, options: PrintOptions, *,
                    base_url: str | None = None, in_book: bool = False) -> dict[str, Any]:
    """SNS-KING-1, SNS-PTS-2, SNS-SUP-1..4: the King and his Titles, points, land by state and
    the supply-line options each Territory gives the next game."""
    st = load(access.campaign)
    view = pages.kingdom_view(access, kingdom)["sns_kingdom"]
    slots = gc.supply_slots(st.map, pid(kingdom), st.options)
    supply = [(st.territory_name(t), "settled", gc.SETTLED_SUPPLY) for t in slots.settled]
    supply += [(st.territory_name(t), "claimed", gc.CLAIMED_SUPPLY) for t in slots.claimed]
    return {
        **_base(access, "Kingdom sheet", options, f"{kingdom.name}: kingdom sheet"),
        "k": view,
        "supply": [(name, kind, [b.describe() for b in table.values()])
                   for name, kind, table in supply],
        "options_vp": [o for o in pts.SPEND_OPTIONS if o.currency == pts.VP],
        "options_ven": [o for o in pts.SPEND_OPTIONS if o.currency == pts.VEN],
        "title_defs": tt.TITLE_BY_CODE,
    }


def honours_context(access: Access, obj: None, options: PrintOptions, *,
                    base_url: str | None = None, in_book: bool = False) -> dict[str, Any]:
    """SNS-KING-1, SNS-KING-3, SNS-TITLE-G3: every reign of every kingdom with its Titles."""
    roll = pages.reigns(access.campaign)
    return {
        **_base(access, "Honours roll", options, f"{access.campaign.name}: honours roll"),
        "rows": [(k, roll.get(k.pk, [])) for k in _kingdoms(access)],
        "titles": tt.TITLES,
    }


def map_context(access: Access, obj: None, options: PrintOptions, *,
                base_url: str | None = None, in_book: bool = False) -> dict[str, Any]:
    """SNS-GC-9, SNS-GC-12: the Map of Avalon on one page, each Territory's state drawn by its
    symbol and its owner's colour, and the kingdoms' land by state."""
    campaign = access.campaign
    width, height = text_area_mm(options)
    loaded = mapview.load_map(campaign)
    paper = paper_map(campaign, options, areas=[("below", (width, height * 0.62))],
                      page_area_mm=(width, height * 0.62), loaded=loaded, one_page=True)
    st = load(campaign)
    rows = []
    for row in pages.standings(st):
        rows.append({"kingdom": row.kingdom, "row": row.row,
                     "key": mark_safe(paper.kingdom_keys.get(row.kingdom.pk, ""))})
    page = paper.pages[0]
    return {
        **_base(access, "Map", options, f"Map of {campaign.name}"),
        "image": GeneratedImage(page.svg),
        "frame_w": page.width_mm,
        "frame_h": page.height_mm,
        "legend": [{"svg": mark_safe(i.svg), "label": i.label} for i in paper.legend],
        "rows": rows,
        "granularity": dict(gc.OPTIONS[0].choices)[st.options.territory_granularity],
        "territories": len(st.map.territories),
    }


def report_form_context(access: Access, obj: None, options: PrintOptions, *,
                        base_url: str | None = None, in_book: bool = False) -> dict[str, Any]:
    """SNS-STAT-*: the post-game report to fill in by hand at the table."""
    return {
        **_base(access, "Post-game report", options, "Post-game report"),
        "groups": [(g, [f for f in reports.FIELDS if f.group == g]) for g in reports.GROUPS],
    }


def reference_context(access: Access, obj: None, options: PrintOptions, *,
                      base_url: str | None = None, in_book: bool = False) -> dict[str, Any]:
    """Part A in our words: states, the outcome matrix, compensation, capitals, supply lines,
    points and what they buy, Kings and Titles."""
    st = load(access.campaign)
    return {
        **_base(access, "Reference", options, "Grand Campaign reference"),
        "opts": st.options,
        "spends": pts.SPEND_OPTIONS,
        "gondor": sorted(pts.GONDOR_TABLE.items()),
        "claimed_supply": [b.describe() for b in gc.CLAIMED_SUPPLY.values()],
        "settled_supply": [b.describe() for b in gc.SETTLED_SUPPLY.values()],
        "titles": tt.TITLES,
        "fortifications": gc.CAPITAL_FORTIFICATIONS,
    }


def _open_game_kingdoms(access: Access) -> list[Kingdom]:
    """The kingdoms of the game being set up or played (the game-start sheet is theirs)."""
    from campaign.systems.swords_and_stones.models import Game

    game = (Game.objects.filter(campaign=access.campaign).exclude(status="played")
            .order_by("-number").first())
    if game is None:
        return []
    return [p.kingdom for p in game.participants.select_related("kingdom").order_by("pk")]


def game_start_context(access: Access, kingdom: Kingdom, options: PrintOptions, *,
                       base_url: str | None = None, in_book: bool = False) -> dict[str, Any]:
    """SNS-ECON-10, SNS-KING-2, SNS-CAP-2: a kingdom's start of the coming game: the bundle line
    by line, the declared Title or crate item, the fortifications of a contested Capital."""
    from campaign.systems.swords_and_stones.models import Game, Participant
    from campaign.systems.swords_and_stones.stockpile import starting_stockpile

    st = load(access.campaign)
    game = (Game.objects.filter(campaign=access.campaign).exclude(status="played")
            .order_by("-number").first())
    part = (Participant.objects.filter(game=game, kingdom=kingdom)
            .select_related("kingdom", "king", "declared_crate").first() if game else None)
    stock, problem = None, ""
    if part is not None:
        spends = list(game.spends.filter(kingdom=kingdom).values_list("code", flat=True))
        try:
            stock = starting_stockpile(st, part, spends)
        except gc.RuleViolation as exc:
            problem = str(exc)
    defends_capital = bool(game and game.capital_advantage and game.defender_id == kingdom.pk)
    beside = ""
    if part is not None and kingdom.pk not in (game.challenger_id, game.defender_id):
        beside = (game.challenger.name if part.side == "challenger" else
                  game.defender.name if game.defender else game.ai_name)
    return {
        "beside": beside,
        **_base(access, "Game start", options, f"{kingdom.name}: start of game "
                f"{game.number if game else ''}"),
        "game": game, "part": part, "stock": stock, "problem": problem,
        "title": tt.TITLE_BY_CODE.get(part.declared_title) if part and part.declared_title
        else None,
        "fortifications": gc.CAPITAL_FORTIFICATIONS if defends_capital else (),
    }


def ledger_pad_context(access: Access, obj: None, options: PrintOptions, *,
                       base_url: str | None = None, in_book: bool = False) -> dict[str, Any]:
    """SNS-ECON-11, SNS-ECON-42..44: a turn ledger pad for a Stockpile kept on paper."""
    return {**_base(access, "Turn ledger pad", options, "Turn ledger pad"),
            "turns": range(1, 26), "resources": ("food", "wood", "stone", "iron", "gold",
                                                 "favor")}


def _cost_text(cost: Any) -> str:
    """A printed cost: "2 food + 3 ?" (a ? where the source lost the resource's symbol,
    SNS-AMB-30); "free" for none."""
    if not cost.amounts:
        return "free"
    parts = [f"{amount} {kind or '?'}" for amount, kind in zip(cost.amounts, cost.types)]
    return " + ".join(parts) + (" (types guessed)" if cost.guessed else "")


#: SNS-ECON-11: the four phases and their steps, in our words.
PHASES: tuple[tuple[str, str, str], ...] = (
    ("Harvest", "Forests (wood, or food by hunting); Outcrops (stone, gold, iron); Farms, then "
     "fishing; favor at the Temple; last everything else (Guild gold, Relics, Totems). Sites are "
     "done before the Farm dice.", "SNS-ECON-20"),
    ("Compulsory", "Every die timer goes down 1; units at foundations take off Build Points; "
     "upkeep is paid in food; the turn's growth rate is worked out.", "SNS-ECON-40..44"),
    ("Advance", "In any order: train (no more than the growth rate), lay foundations, buy "
     "upgrades, use abilities, trade at the Market or with players, declare war or peace.",
     "SNS-ECON-50"),
    ("Move & combat", "Moves, then close combat, then ranged combat; auto-resolved battles are "
     "fought once the defender's advance phase is over.", "SNS-ECON-11"),
)
#: SNS-ECON-20..29: the harvest dice, in our words: source, who rolls, success, yield.
HARVEST: tuple[tuple[str, str, str, str], ...] = (
    ("Forest", "each unit touching it", "2 to 6", "1 wood"),
    ("Forest, hunting", "each unit touching it that has not harvested", "5+ (Hunting Cabins 4+, "
     "Paganites 3+)", "1 food"),
    ("Outcrop", "each unit touching it", "2 to 6", "1 stone; gold or iron at the Site's threshold"),
    ("Fishing from land", "each land unit touching water", "4+ (Cultured Fishers 3+)", "1 food"),
    ("Fishing by ship", "each ship (Fishing Fleets)", "3+ (Cultured Fishers 2+)", "1 food"),
    ("Farm", "one die per Farm", "2+", "1 food (+1 Heavy Plough)"),
    ("Temple", "a die per 3 non-military units (Avalonian), 3 worshipper points (Paganite), "
     "or per Monk, Caster, King or Queen (Damned)", "2 to 6", "1 favor"),
    ("Merchant's Guild", "one die at the end", "2 to 6", "1 gold per unit touching, at most 3"),
)


def economy_context(access: Access, obj: None, options: PrintOptions, *,
                    base_url: str | None = None, in_book: bool = False) -> dict[str, Any]:
    """SNS-ECON-11..57, SNS-BLD, SNS-UNIT, SNS-AR-1..7, in our words: the phases, the harvest
    dice, upkeep and growth with the worked example D.8, building and unit costs (a ? where the
    source lost the type, SNS-AMB-30), trade rates and the auto-resolve scores."""
    from campaign.systems.swords_and_stones.rules import autoresolve as ar
    from campaign.systems.swords_and_stones.rules import econ_advance as adv
    from campaign.systems.swords_and_stones.rules.catalogue import DEFAULT_CATALOGUE

    cat = DEFAULT_CATALOGUE
    buildings = sorted(cat.buildings.values(), key=lambda b: b.name)
    growth = [b for b in buildings if b.growth or b.upkeep_food]
    army: dict[int, list[str]] = {}
    for code, tenths in ar.ARMY_POINTS_TENTHS.items():
        name = cat.units[code].name if code in cat.units else code.replace("_", " ").title()
        army.setdefault(tenths, []).append(name)
    channels = {"market": "Market", "tavern": "Tavern", "trade_routes": "Trade Routes (Market)",
                "shipping_routes": "Shipping Routes (Dock)"}
    return {
        **_base(access, "Economy reference", options, "Swords & Stones: economy reference"),
        "phases": PHASES, "harvest": HARVEST,
        "growth": [(b.name, b.growth, b.upkeep_food) for b in growth],
        "buildings": [(b.name, _cost_text(b.cost), b.bp, b.hp, b.staffed) for b in buildings],
        "units": [(u.name, cat.buildings[u.trained_at].name if u.trained_at else "—",
                   _cost_text(u.cost)) for u in cat.units.values()],
        "trades": [(channels[c], give, get) for c, (give, get, _b, _u)
                   in adv.TRADE_CHANNELS.items()],
        "army": [(f"{tenths / 10:g}", ", ".join(sorted(names)))
                 for tenths, names in sorted(army.items())],
        "defence": [("Guard Tower, each", ar.DEFENCE_POINTS["guard_tower"]),
                    ("Upgrade at Barracks, Stables, Castle, University or Workshop, each; "
                     "Attack Towers", ar.DEFENCE_POINTS["upgrade"]),
                    ("Island kingdom", ar.DEFENCE_POINTS["island"]),
                    ("Completed Palisade Wall", ar.DEFENCE_POINTS["palisade_wall"]),
                    ("Completed Stone Wall", ar.DEFENCE_POINTS["stone_wall"]),
                    ("Completed Trench", ar.DEFENCE_POINTS["trench"]),
                    ("Castle, each", ar.DEFENCE_POINTS["castle"]),
                    ("Completed Moat", ar.DEFENCE_POINTS["moat"]),
                    (f"Favor spent, each (at most {ar.MAX_DEFENCE_FAVOR})", 1)],
        "halving": "up" if ar_halving_up(access) else "down",
    }


def ar_halving_up(access: Access) -> bool:
    from campaign.systems.swords_and_stones.rules import autoresolve as ar

    names = {spec.name for spec in ar.AR_OPTIONS}
    options = ar.AROptions.from_dict({k: v for k, v in (access.campaign.options or {}).items()
                                      if k in names})
    return options.halving_rounds_up


def _own_kingdom(access: Access, kingdom: Kingdom) -> bool:
    return True  # a Grand Campaign keeps nothing secret: every kingdom sheet is public


KINGDOM = PdfSheet(
    slug="kingdom", title="Kingdom sheet", template=_PRINT + "kingdom.html",
    context=kingdom_context, objects=_kingdoms, get=_get_kingdom, label=lambda k: k.name,
    may_see=_own_kingdom, group="Kingdoms",
    filename=lambda access, k: download_name(access.campaign.slug, "kingdom", k.name),
    description="King, Titles, crate items, points, Territories and supply options.",
)
HONOURS = PdfSheet(
    slug="honours", title="Honours roll", template=_PRINT + "honours.html",
    context=honours_context,
    filename=lambda access, obj: download_name(access.campaign.slug, "honours-roll"),
    description="Every King of every kingdom with the Titles of his reign.",
)
MAP = PdfSheet(
    slug="map", title="Map", template=_PRINT + "map.html", context=map_context,
    filename=lambda access, obj: download_name(access.campaign.slug, "map",
                                               f"game-{access.campaign.year}"),
    description="The Map of Avalon with every Territory's state and owner.",
)
REPORT = PdfSheet(
    slug="report", title="Post-game report", template=_PRINT + "report.html",
    context=report_form_context,
    filename=lambda access, obj: download_name(access.campaign.slug, "post-game-report"),
    description="The statistics Titles need, to fill in by hand after a game.",
)
REFERENCE = PdfSheet(
    slug="reference", title="Reference", template=_PRINT + "reference.html",
    context=reference_context,
    filename=lambda access, obj: download_name(access.campaign.slug, "reference"),
    description="Territory states, challenges, supply lines, points, Kings and Titles.",
)

GAME_START = PdfSheet(
    slug="game-start", title="Game start", template=_PRINT + "game_start.html",
    context=game_start_context, objects=_open_game_kingdoms, get=_get_kingdom,
    label=lambda k: k.name, group="Kingdoms",
    filename=lambda access, k: download_name(access.campaign.slug, "game-start", k.name,
                                             f"game-{access.campaign.year}"),
    description="The starting Stockpile line by line, the start bonus and fortifications.",
)
LEDGER_PAD = PdfSheet(
    slug="ledger-pad", title="Turn ledger pad", template=_PRINT + "ledger_pad.html",
    context=ledger_pad_context,
    filename=lambda access, obj: download_name(access.campaign.slug, "turn-ledger-pad"),
    description="A Stockpile kept on paper: each turn's harvest, upkeep, growth and balances.",
)

ECONOMY = PdfSheet(
    slug="economy", title="Economy reference", template=_PRINT + "economy.html",
    context=economy_context,
    filename=lambda access, obj: download_name(access.campaign.slug, "economy-reference"),
    description="Phases, harvest dice, upkeep and growth, costs, trades, auto-resolve scores.",
)

SHEETS = (MAP, KINGDOM, GAME_START, HONOURS, REPORT, LEDGER_PAD, REFERENCE, ECONOMY)
