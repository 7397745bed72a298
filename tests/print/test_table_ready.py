"""What a table trips over on paper (issue 16): each test prints what went wrong before.

Points in the battle packet, results a battle can have, kingdoms and tokens told apart in black
and white and in grey, tokens on their side or defending, every army on the packet's map, the
campaign book's large map, page counts on Letter, headings and rule IDs that stay with their
text, legible type, the ledger's winter tally, pending battles on maps, a place for the game's
scenario, and the units' stat lines on the roster.
"""

from __future__ import annotations

import re
import subprocess
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import transaction

from battles.models import Army, Battle
from campaign import mapsvg, mapview, pdf
from campaign.chronicle import Recorder
from campaign.models import Kingdom, Tile
from campaign.systems.mighty_kingdoms import forces, sheets
from campaign.systems.mighty_kingdoms.army_views import UnitForm
from campaign.systems.mighty_kingdoms.models import Ship
from campaign.systems.mighty_kingdoms.rules import battles as kow
from tests.conftest import make_campaign
from tests.print.conftest import UNITS, SheetsWorld, pdf_text, read_pdf

pytestmark = pytest.mark.django_db

A4 = pdf.PrintOptions("a4")


def _layout_text(data: bytes) -> list[str]:
    """The PDF's pages as poppler lays them out (one string per page, lines kept)."""
    out = subprocess.run(["pdftotext", "-layout", "-", "-"], input=data, capture_output=True,
                         check=True).stdout.decode()
    return out.split("\f")


def _runs(data: bytes) -> list[tuple[int, str, float, bool, float]]:
    """(page, text, size in points, bold, top in points) of every run of text on the pages
    (text inside images, such as maps, left out)."""
    runs = []
    reader = read_pdf(data)
    for index, page in enumerate(reader.pages):
        height = float(page.mediabox.height)

        def visit(text: str, cm: list[float], tm: list[float], font: Any, size: float,
                  index: int = index, height: float = height) -> None:
            if not text.strip():
                return
            bold = "Bold" in str((font or {}).get("/BaseFont", ""))
            runs.append((index, text.strip(), size * cm[0] * tm[0], bold,
                         height - (tm[5] * cm[3] + cm[5])))

        page.extract_text(visitor_text=visit)
    return runs


def _tile_markup(svg: str, label: str) -> str:
    """The markup of one tile of a drawn map, up to the next tile."""
    return svg.split(f'data-tile="{label}"', 1)[1].split("data-tile=", 1)[0]


def _tiles(svg: str) -> dict[str, str]:
    parts = svg.split('data-tile="')[1:]
    return {part.split('"', 1)[0]: part for part in parts}


# --- the battle packet ---------------------------------------------------------------------------


def test_kow_packet_gives_each_armys_units_total_of_the_limit(sheets_world: SheetsWorld) -> None:
    """The header of an army in a Kings of War packet says what its units add up to, of the
    limit (as the roster, the armies sheet and the ledger do), never the limit alone."""
    world = sheets_world
    access = world.access("gm")
    data = sheets.battle_packet_pdf(access, world.battle, A4)
    text = pdf_text(data)
    listed = sum(points for _n, _t, points, _b, _c, _i in UNITS)
    assert listed == 350
    assert f"Red, army #1 · upright · 350 of {kow.ARMY_POINTS_LIMIT} points" in text
    assert f"· {kow.ARMY_POINTS_LIMIT} points" not in text
    # A place for what the players agree before the game.
    for needle in ("Scenario agreed Deployment Points a side",):
        assert needle in text, needle


def test_naval_packet_offers_no_draw(sheets_world: SheetsWorld) -> None:
    """MK-NAVAL: a naval battle is never a draw, so its packet has no box for one; a land
    battle's has."""
    world = sheets_world
    access = world.access("gm")
    land = pdf_text(sheets.battle_packet_pdf(access, world.battle, A4))
    assert re.search(r"Blue wins draw Red wins", land)
    Battle.objects.filter(pk=world.battle.pk).update(kind="naval")
    world.battle.refresh_from_db()
    naval = pdf_text(sheets.battle_packet_pdf(access, world.battle, A4))
    assert "never a draw" in naval
    assert re.search(r"Blue wins Red wins", naval) and "wins draw" not in naval


def test_kow_packet_map_shows_every_army_on_the_tile(sheets_world: SheetsWorld) -> None:
    """Five armies on the battle's tile: the packet's map draws all five tokens, none hidden
    behind a "+N" token."""
    world = sheets_world
    for number in (2, 3, 4):
        Army.objects.create(campaign=world.campaign, kingdom=world.blue, number=number,
                            tile=world.capital)
    context = sheets.battle_packet_context(world.access("gm"), world.battle, A4)
    tile = _tile_markup(context["crop"].svg, world.capital.label)
    tokens = re.findall(r'<g class="(ma|ms|mo)"', tile)
    assert tokens == ["ma"] * 5
    titles = re.findall(r"<title>((?:Red|Blue) army \d)", tile)
    assert sorted(titles) == ["Blue army 1", "Blue army 2", "Blue army 3", "Blue army 4",
                              "Red army 1"]


# --- kingdoms and tokens told apart ---------------------------------------------------------

# Sixteen colours in pairs that print as the same grey (equal luminance, 0.299 R + 0.587 G +
# 0.114 B): a black-and-white printer cannot tell the two of a pair apart by colour.
SIXTEEN = ["#cc0000", "#00686d", "#1f5fa8", "#5a4a8f", "#2e7d32", "#7a5a2a", "#c79100",
           "#8a8a2a", "#8e3b8e", "#3b6e8e", "#00796b", "#6b6b6b", "#5d4037", "#2d4f39",
           "#ff8800", "#a0a000"]


def _sixteen_kingdoms(gm: User) -> Any:
    campaign = make_campaign(gm, slug="sixteen", width=16, height=4, seed=3)
    tiles = list(Tile.objects.filter(map__campaign=campaign).order_by("label"))
    for index, colour in enumerate(SIXTEEN):
        kingdom = Kingdom.objects.create(campaign=campaign, name=f"Realm {index + 1}",
                                         colour=colour)
        tile = tiles[index * 4]
        tile.controller, tile.explored, tile.terrain = kingdom, True, "plain"
        tile.save()
        Army.objects.create(campaign=campaign, kingdom=kingdom, number=1, tile=tile)
        Ship.objects.create(campaign=campaign, kingdom=kingdom, number=1, tile=tile)
    return campaign


def _styles(svg: str) -> dict[str, dict[str, tuple[str, bool]]]:
    """Per kingdom (by its tokens' titles): the ring's and each token's line style as drawn
    (dash pattern, double line or not)."""
    found: dict[str, dict[str, tuple[str, bool]]] = {}
    for body in _tiles(svg).values():
        names = re.findall(r"<title>(Realm \d+) army 1</title>", body)
        if not names:
            continue
        name = names[0]
        ring = re.search(r'-i" stroke="[^"]+"(?: stroke-dasharray="([^"]*)")?(/><use href="#'
                         r'[^"]+-j")?', body)
        assert ring is not None, body[:300]
        entry = {"ring": (ring.group(1) or "", bool(ring.group(2)))}
        for kind, cls in (("army", "ma"), ("ship", "ms")):
            token = re.search(rf'<g class="{cls}"[^>]*><title>[^<]*</title><rect [^>]*?'
                              r'(?: stroke-dasharray="([^"]*)")?/>(<rect [^>]*fill="none")?',
                              body)
            assert token is not None, (kind, body[:400])
            entry[kind] = (token.group(1) or "", bool(token.group(2)))
        found[name] = entry
    return found


@pytest.mark.parametrize("eco", [True, False])
def test_sixteen_kingdoms_each_have_their_own_ring_and_token_styles(gm: User, eco: bool) -> None:
    """Up to sixteen kingdoms (and more), each kingdom's tiles, army tokens and ship tokens
    carry a line style no other kingdom has, in black and white and in colour, so two
    kingdoms' "S1" ships differ and colours that print as one grey still differ; the legend's
    marks and the marks beside the names follow the same styles."""
    campaign = _sixteen_kingdoms(gm)
    loaded = mapview.load_map(campaign)
    svg, _w, _h = pdf.draw_tiles(campaign, loaded, None, eco=eco, scale=0.3)
    styles = _styles(svg)
    assert len(styles) == 16
    for part in ("ring", "army", "ship"):
        assert len({entry[part] for entry in styles.values()}) == 16, part
    if not eco:
        greys = {name: round(mapsvg._luminance(colour), 2)
                 for name, colour in zip((f"Realm {i + 1}" for i in range(16)), SIXTEEN)}
        assert len(set(greys.values())) < 16  # the colours alone would print alike
        assert len({(greys[name], entry["ring"]) for name, entry in styles.items()}) == 16
    keys = pdf._kingdom_keys(loaded, eco, pdf.KEY_MM)
    assert len(set(keys.values())) == 16
    marks = pdf.kingdom_swatches(Kingdom.objects.filter(campaign=campaign), eco)
    assert len(set(marks.values())) == 16
    # Never a square that reads as a tick box, in black and white too.
    assert all(m.startswith("<svg") and "background" not in m for m in marks.values())
    # The styles run out only past eighteen kingdoms.
    assert len({mapsvg.line_style(i) for i in range(18)}) == 18


def test_a_kingdom_keeps_its_style_on_every_page_and_crop(sheets_world: SheetsWorld) -> None:
    """A kingdom's line style comes from the order the kingdoms were founded: the whole map, a
    part of it (a page, a battle's crop) and the legend agree."""
    world = sheets_world
    loaded = mapview.load_map(world.campaign)
    styles = pdf.kingdom_line_styles(loaded.kingdoms.values())
    ordered = sorted(loaded.kingdoms)
    assert [styles[pk] for pk in ordered] == [mapsvg.line_style(i) for i in range(len(ordered))]

    def rings(svg: str) -> dict[str, str]:
        found = {}
        for label, body in _tiles(svg).items():
            ring = re.search(r'-i" stroke="#000"(?: stroke-dasharray="([^"]*)")?', body)
            if ring:
                found[label] = ring.group(1) or ""
        return found

    controlled = {t.label: t.controller_id for t in Tile.objects.filter(
        map__campaign=world.campaign, controller__isnull=False)}
    expected = {label: styles[pk].dash for label, pk in controlled.items()}
    whole, _, _ = pdf.draw_tiles(world.campaign, loaded, None, eco=True, scale=0.3)
    assert rings(whole) == expected
    green = {label for label, pk in controlled.items() if pk == world.green.pk}
    part, _, _ = pdf.draw_tiles(world.campaign, loaded, green, eco=True, scale=0.3)
    assert rings(part) == {label: expected[label] for label in green}
    keys = pdf._kingdom_keys(loaded, True, pdf.KEY_MM)
    for kingdom in (world.red, world.blue, world.green):
        dash = styles[kingdom.pk].dash
        assert ("stroke-dasharray" in keys[kingdom.pk]) == bool(dash)


def test_tokens_on_their_side_or_defending_are_drawn_so(sheets_world: SheetsWorld) -> None:
    """Red's army #2 lies on its side, Blue's army #1 defends: the map draws the first turned
    a quarter and the second with a shield, and the legend explains both."""
    world = sheets_world
    context = sheets.map_context(world.access("gm"), None, A4)
    svg = context["pages"][0]["image"].svg
    lying = re.search(r'<g class="ma" transform="translate\([^)]*\) rotate\(-90\)"><title>'
                      r'Red army 2 \(on its side\)</title>', svg)
    assert lying is not None
    upright = re.search(r'<g class="ma" transform="translate\([^)]*\)"><title>Red army 1</title>',
                        svg)
    assert upright is not None
    defending = re.search(r'<title>Blue army 1</title>(.*?)</g>', svg)
    assert defending is not None and 'fill="#000" stroke="#fff"' in defending.group(1)
    labels = [item["label"] for item in context["legend"]]
    assert "On its side" in labels and "Defending" in labels


def test_maps_mark_the_tiles_where_a_battle_waits(sheets_world: SheetsWorld) -> None:
    world = sheets_world
    context = sheets.map_context(world.access("gm"), None, pdf.PrintOptions("a4", eco=True))
    svg = context["pages"][0]["image"].svg
    marked = [label for label, body in _tiles(svg).items() if 'class="battle"' in body]
    assert marked == [world.capital.label]
    assert "Battle waiting" in [item["label"] for item in context["legend"]]
    # A cut map's overview shows it too.
    wide = make_campaign(world.gm, slug="wide-battle", width=24, height=16, seed=5)
    tile = Tile.objects.get(map__campaign=wide, label="1208")
    kingdoms = [Kingdom.objects.create(campaign=wide, name=n, colour=c)
                for n, c in (("North", "#1f5fa8"), ("South", "#b3261e"))]
    Battle.objects.create(campaign=wide, year=1, month=1, seq=1, tile=tile, kind="land",
                          mode="kow", chooser=kingdoms[0], opponent=kingdoms[1])
    overview = sheets.map_context(pdf.access_for_user(wide, world.gm), None, A4)["overview"]
    assert [label for label, body in _tiles(overview.svg).items()
            if 'class="battle"' in body] == ["1208"]
    Battle.objects.filter(pk=world.battle.pk).update(status=Battle.Status.RESOLVED)
    after = sheets.map_context(world.access("gm"), None, A4)
    assert 'class="battle"' not in after["pages"][0]["image"].svg


# --- large maps ---------------------------------------------------------------------------------


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_24_by_16_map_takes_two_pages_and_an_overview_on_either_paper(gm: User,
                                                                        paper: str) -> None:
    """On A4 and on Letter, in the orientation the sheet chooses, a 24 x 16 map is cut into two
    pages (and the overview), its text never below 7 pt."""
    campaign = make_campaign(gm, slug=f"wide-{paper}", width=24, height=16, seed=5)
    access = pdf.access_for_user(campaign, gm)
    sheet = pdf.find_sheet(access, "map")
    options = sheet.download_options(access, None, {"paper": paper})
    context = sheets.map_context(access, None, options)
    assert context["paper"].split and len(context["paper"].pages) <= 2
    data = sheet.render(access, None, options)
    assert len(read_pdf(data).pages) <= 3
    scale = context["paper"].scale_mm
    for page in context["pages"]:
        sizes = [float(s) for s in re.findall(r'font-size="([\d.]+)"', page["image"].svg)]
        tile_text = [s for s in sizes if s * scale < pdf.CUT_FONT_MM]
        assert min(tile_text) * scale / pdf.PT_MM >= pdf.MIN_TEXT_PT - 0.05


def test_the_campaign_book_cuts_a_large_map_like_the_map_sheet(gm: User) -> None:
    """The book's map of a 24 x 16 campaign is the map sheet's: cut pages with an overview,
    tiles as large as on the map sheet, not one page of 3 mm tiles."""
    campaign = make_campaign(gm, slug="wide-book", width=24, height=16, seed=5)
    access = pdf.access_for_user(campaign, gm)
    context = sheets.map_context(access, None, pdf.PrintOptions("a4", landscape=True),
                                 in_book=True)
    paper = context["paper"]
    assert paper.split and paper.tile_mm >= pdf.MIN_TILE_MM
    html, _count = pdf.book_html(pdf.system_book(campaign), access, A4)
    assert "Map page 1 of" in html and "overview of" in html


def test_the_book_has_no_armies_page_for_kingdoms_without_lists(sheets_world: SheetsWorld
                                                                ) -> None:
    world = sheets_world
    sections = sheets.book_sections(world.access("gm"))
    armies = [s.obj.name for s in sections if s.sheet is sheets.KINGDOM_ROSTERS]
    assert armies == ["Red"]


# --- layout -------------------------------------------------------------------------------------


def _headings_at_foot(data: bytes) -> list[tuple[int, str]]:
    """Headings (bold, 10.5 pt or more, or the book's group names) that are the last text of
    their page above the page number."""
    runs = _runs(data)
    found = []
    for page in {r[0] for r in runs}:
        body = [r for r in runs if r[0] == page and not r[1].startswith("page ")]
        last_top = max(r[4] for r in body)
        last = [r for r in body if abs(r[4] - last_top) < 1]
        if all(r[3] for r in last) and len(" ".join(r[1] for r in last)) < 60:
            found.append((page, " ".join(r[1] for r in last)))
    return found


def test_no_heading_is_left_alone_at_a_page_foot(gm: User) -> None:
    """The book's contents of a campaign of many kingdoms run onto a second page: no group's
    name stays behind at the foot of the first. The rules reference neither."""
    campaign = make_campaign(gm, slug="crowded", width=10, height=6, seed=2)
    for index in range(26):
        Kingdom.objects.create(campaign=campaign, name=f"Crown {index + 1}",
                               colour=f"#{index * 9:02x}4080")
    access = pdf.access_for_user(campaign, gm)
    book = pdf.system_book(campaign)
    html, _count = pdf.book_html(book, access, A4)
    cover = html.split('<section class="book-section')[0] + "</body></html>"
    data = pdf.html_to_pdf(cover)
    assert len(read_pdf(data).pages) >= 2
    assert _headings_at_foot(data) == []
    reference = sheets.reference_pdf(access, None, pdf.PrintOptions("letter"))
    assert _headings_at_foot(reference) == []


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_reference_keeps_the_winter_table_under_its_heading_and_fills_its_pages(
        sheets_world: SheetsWorld, paper: str) -> None:
    """The winter purchases table is printed right under its own heading; the second page is
    used, not two-thirds blank."""
    world = sheets_world
    data = sheets.reference_pdf(world.access("observer"), None, pdf.PrintOptions(paper))
    pages = _layout_text(data)
    whole = "\n".join(pages)
    lines = [line.strip() for line in whole.splitlines() if line.strip()]
    purchases = [i for i, line in enumerate(lines) if re.search(r"Purchases\s+MK-BUY", line)]
    assert purchases, "no heading over the purchases table"
    assert re.search(r"Purchase\s+Cost", lines[purchases[0] + 1])
    runs = _runs(data)
    last_page = max(r[0] for r in runs)
    height = float(read_pdf(data).pages[last_page].mediabox.height)
    lowest = max(r[4] for r in runs if r[0] == last_page and not r[1].startswith("page "))
    assert lowest > height * 0.6  # at most the page's lower part blank
    assert "The year at the table" in pdf_text(data)


def test_roster_header_and_chronicle_rule_ids_do_not_break_badly(sheets_world: SheetsWorld,
                                                                  gm: User) -> None:
    """"Routed an enemy" takes at most two lines at the head of the roster's column; a rule ID
    in the chronicle is never split at its hyphens, wherever the line ends."""
    world = sheets_world
    roster = sheets.army_roster_pdf(world.access("gm"), world.red_army, A4)
    header = [r for r in _runs(roster) if r[3] and r[1] in ("Routed an enemy", "Routed an",
                                                             "enemy", "Routed", "an")]
    assert header and len({round(r[4]) for r in header}) <= 2
    with transaction.atomic():
        for pad in range(40):
            with Recorder(world.campaign, gm, "test.rule",
                          "Red pays " + "a" * pad + " for army #2 under MK-RECRUIT-2 and "
                          "feeds it under MK-FEED-1 as told."):
                pass
    data = sheets.chronicle_pdf(world.access("gm"), None, A4)
    text = "\n".join(_layout_text(data))
    assert text.count("MK-RECRUIT-2") == 40 and text.count("MK-FEED-1") == 40
    assert not re.search(r"MK-(?:RECRUIT-?|FEED-?)?\s*$", text, re.M)


def test_no_small_grey_numbers_on_simple_rosters(sheets_world: SheetsWorld) -> None:
    """The 100-point boxes of a Simple roster print their numbers at 8 pt at least."""
    world = sheets_world
    world.campaign.options = {**world.campaign.options, "battle_mode": "simple"}
    world.campaign.save()
    data = sheets.simple_roster_pdf(world.access("gm"), world.red, A4)
    hundreds = [r for r in _runs(data) if r[1].replace(" ", "").strip("0") == "1"]
    assert hundreds
    assert min(size for _p, _t, size, _b, _top in _runs(data)) >= 7.5


# --- the ledger's winter tally -----------------------------------------------------------------


def test_ledger_winter_tally_opens_and_closes_and_names_its_season(sheets_world: SheetsWorld
                                                                   ) -> None:
    """In winter of year 1 Red holds 4 gold and 3 food after this winter's entries (gold +2
    -1, food +1 -1): the tally opens at 3 gold and 3 food, has a closing row, and the entries
    are headed as this winter's."""
    world = sheets_world
    world.campaign.season, world.campaign.year = "winter", 1
    world.campaign.phase, world.campaign.sub_phase, world.campaign.month = "C", "buy", None
    world.campaign.save()
    text = pdf_text(sheets.ledger_pdf(world.access("player"), world.red, A4))
    assert "Opening balance 3 3" in text and "Closing balance" in text
    assert "This winter's entries (year 1)" in text
    assert "Last season's entries" not in text
    world.campaign.season, world.campaign.year = "summer", 2
    world.campaign.phase, world.campaign.sub_phase, world.campaign.month = "A", "", 1
    world.campaign.save()
    later = pdf_text(sheets.ledger_pdf(world.access("player"), world.red, A4))
    assert "Latest entries: winter of year 1" in later and "Opening balance 4 3" in later


# --- stat lines and special rules ---------------------------------------------------------------


def test_units_keep_stat_lines_and_special_rules_pasted_or_typed(sheets_world: SheetsWorld
                                                                 ) -> None:
    """MK-SETUP-6: a pasted list keeps each unit's stat line and special rules, a typed unit
    too, and the roster prints them under the unit's name."""
    parsed = kow.parse_plain_list(
        "Ironguard, regiment, 145; US 2; stats Sp 4 Me 3+ Ra - De 6+ Att 12 Ne 14/16; "
        "rules Headstrong, Shield Wall\nBallista, war engine, 60; US 0")
    assert parsed.ok
    assert parsed.units[0].stats == "Sp 4 Me 3+ Ra - De 6+ Att 12 Ne 14/16"
    assert parsed.units[0].special_rules == "Headstrong, Shield Wall"
    assert (parsed.units[1].stats, parsed.units[1].special_rules) == ("", "")
    twice = kow.parse_plain_list("Ironguard, regiment, 145; stats Sp 4; stats Sp 5")
    assert not twice.ok and "given twice" in twice.errors[0][1]
    form = UnitForm(data={"name": "Bulwarkers", "unit_type": "troop", "points": "95",
                          "base_us": "1", "stats": "Sp 4  Me 4+", "special_rules": "Phalanx"})
    assert form.is_valid(), form.errors
    entry = form.entry()
    assert (entry.stats, entry.special_rules) == ("Sp 4 Me 4+", "Phalanx")
    world = sheets_world
    army = Army.objects.create(campaign=world.campaign, kingdom=world.blue, number=2,
                               tile=world.tiles["blue_city"])
    forces.paste_army_list(army, "Ironguard, regiment, 145; US 2; stats Sp 4 Me 3+ Ra - De 6+ "
                           "Att 12 Ne 14/16; rules Headstrong, Shield Wall", world.other_player,
                           fix=True)
    unit = army.army_list.units.get()
    assert (unit.stats, unit.special_rules) == ("Sp 4 Me 3+ Ra - De 6+ Att 12 Ne 14/16",
                                                "Headstrong, Shield Wall")
    text = pdf_text(sheets.army_roster_pdf(world.access("other_player"), army, A4))
    assert "Sp 4 Me 3+ Ra - De 6+ Att 12 Ne 14/16 · Headstrong, Shield Wall" in text
    # The army's page shows them too.
    from django.urls import reverse

    page = world.client("other_player").get(reverse("mk:armies:army",
                                                     args=[world.campaign.slug, army.pk]))
    assert page.status_code == 200
    assert "Sp 4 Me 3+ Ra - De 6+ Att 12 Ne 14/16 · Headstrong, Shield Wall" in (
        page.content.decode())


def test_unit_rows_carry_the_detail_they_print() -> None:
    rows = sheets._unit_rows([{"name": "Sea Guard", "unit_type": "horde", "points": 160,
                               "unit_strength": 3, "us_history": [], "magic_item": "",
                               "base_us": 3, "stats": "Sp 5 Me 4+", "special_rules": "Phalanx"}],
                             180, 0.27, 0.16)
    assert rows[0]["detail"] == "Sp 5 Me 4+ · Phalanx"
    assert sheets._roster_row_mm(rows[0], 180) > sheets._roster_row_mm(
        {**rows[0], "detail": ""}, 180)


def test_stat_lines_travel_in_the_campaign_file(sheets_world: SheetsWorld) -> None:
    """A unit's stat line and special rules leave in the campaign file and come back with it;
    units without them write neither field."""
    import json

    from battles.models import Unit
    from campaign import transfer
    from ledger.models import Balance

    world = sheets_world
    # The file's money check: balances are the sums of their entries (gold +2 -1, food +1 -1).
    Balance.objects.filter(kingdom=world.red, resource="gold").update(amount=1)
    Balance.objects.filter(kingdom=world.red, resource="food").update(amount=0)
    unit = world.red_army.army_list.units.order_by("position").first()
    Unit.objects.filter(pk=unit.pk).update(stats="Sp 5 Me 4+ Ra - De 4+", special_rules="Phalanx")
    exported = transfer.export_campaign(world.campaign)
    text = transfer.dumps(exported)
    assert text.count('"stats"') == 1 and text.count('"special_rules"') == 1
    copy = transfer.import_campaign(json.loads(text), world.gm, slug="stats-copy")
    units = Unit.objects.filter(army_list__army__campaign=copy).order_by("position")
    assert [(u.name, u.stats, u.special_rules) for u in units] == [
        ("Sea Guard Spearmen", "Sp 5 Me 4+ Ra - De 4+", "Phalanx"),
        ("Paladin Knights of the Order of the Radiant Dawn", "", ""),
        ("High Paladin", "", ""),
    ]
