"""What each Mighty Kingdoms sheet prints: page count, page size, names and numbers."""

from __future__ import annotations

import re
from typing import Callable

import pytest

from battles.models import Army, Battle, Unit
from campaign import mapsvg, mapview, pdf
from campaign.models import Tile
from campaign.systems.mighty_kingdoms import sheets
from tests.conftest import make_campaign
from tests.print.conftest import A4, LETTER, SheetsWorld, page_size, pdf_text, read_pdf


def _get(world: SheetsWorld, persona: str, url: str) -> bytes:
    response = world.client(persona).get(url)
    assert response.status_code == 200, response.status_code
    assert response["Content-Type"] == "application/pdf"
    return response.content


@pytest.mark.parametrize(("query", "size"), [
    ("", (A4[1], A4[0])),
    ("paper=letter", (LETTER[1], LETTER[0])),
    ("paper=letter&landscape=0&eco=1", LETTER),
])
def test_map_sheet(sheets_world: SheetsWorld, sheet_url: Callable[..., str], query: str,
                   size: tuple[float, float]) -> None:
    world = sheets_world
    data = _get(world, "observer", sheet_url(world, "map", query=query))
    reader = read_pdf(data)
    assert len(reader.pages) == 1
    assert page_size(reader) == size
    text = pdf_text(data)
    assert f"Map of {world.campaign.name}" in text
    for label in ("0101", "0306", world.capital.label):
        assert label in text
    for name in ("Red", "Blue", "Green", "Village", "Fortress", "Capital"):
        assert name in text
    assert "page 1 of 1" in text and f"{world.campaign.name} · " in text


def test_campaign_paper_setting_is_the_default(sheets_world: SheetsWorld,
                                               sheet_url: Callable[..., str]) -> None:
    world = sheets_world
    world.campaign.paper_size = "letter"
    world.campaign.save()
    response = world.client("gm").get(sheet_url(world, "ledger", world.red))
    assert page_size(read_pdf(response.content)) == LETTER
    assert response["Content-Disposition"].endswith('-letter.pdf"')
    response = world.client("gm").get(sheet_url(world, "ledger", world.red, query="paper=a4"))
    assert page_size(read_pdf(response.content)) == A4


def test_large_map_is_cut_into_overlapping_pages(gm: object) -> None:
    campaign = make_campaign(gm, slug="wide-map", width=18, height=6, seed=3)
    access = pdf.access_for_user(campaign, gm)
    options = pdf.PrintOptions("a4", landscape=False, eco=False)
    data = sheets.map_pdf(access, None, options)
    reader = read_pdf(data)
    text = pdf_text(data)
    pages = int(re.search(r"Map page 1 of (\d+) ·", text).group(1))
    assert pages >= 2
    assert len(reader.pages) == pages + 1  # and the overview
    assert "overview" in text and "page 2 →" in text and "← page 1" in text
    labels = set(Tile.objects.filter(map__campaign=campaign).values_list("label", flat=True))
    # Every tile is on some page; the overlap repeats some of them.
    page_texts = [" ".join((p.extract_text() or "").split()) for p in reader.pages[1:]]
    for label in labels:
        assert any(label in t for t in page_texts), label
    assert all(page_size(reader, i) == A4 for i in range(len(reader.pages)))


def test_eco_map_keeps_each_kingdoms_line_style_on_every_page(sheets_world: SheetsWorld) -> None:
    """In black and white a kingdom is its dash pattern: the legend, the whole map and any
    part of it (a page, a battle's crop) must agree."""
    world = sheets_world
    loaded = mapview.load_map(world.campaign)
    order = pdf._eco_order(loaded.views)
    colours = {v.label: mapsvg.safe_colour(v.controller_colour, "") for v in loaded.views
               if v.controller_colour}
    assert len(set(colours.values())) == 3

    def dashes(svg: str) -> dict[str, str]:
        found = {}
        for label, body in re.findall(r'data-tile="([^"]+)" class="tile"[^>]*>(.*?)</g>', svg):
            ring = re.search(r'-i" stroke="#000"(?: stroke-dasharray="([^"]*)")?', body)
            if ring and label in colours:
                found[label] = ring.group(1) or ""
        return found

    expected = {label: mapsvg.ECO_DASHES[order.index(colour)] for label, colour in colours.items()}
    whole, _, _ = pdf.draw_tiles(world.campaign, loaded, None, eco=True, scale=0.3)
    assert dashes(whole) == expected
    green_only = {label for label, colour in colours.items() if colour == "#00aa00"}
    part, _, _ = pdf.draw_tiles(world.campaign, loaded, green_only, eco=True, scale=0.3)
    assert dashes(part) == {label: expected[label] for label in green_only}
    keys = pdf._kingdom_keys(loaded, True, pdf.KEY_MM)
    for kingdom in (world.red, world.blue, world.green):
        dash = mapsvg.ECO_DASHES[order.index(kingdom.colour)]
        assert (f'stroke-dasharray="{dash}"' in keys[kingdom.pk]) == bool(dash)


def test_reference_sheet(sheets_world: SheetsWorld, sheet_url: Callable[..., str]) -> None:
    world = sheets_world
    data = _get(world, "observer", sheet_url(world, "reference"))
    reader = read_pdf(data)
    assert 1 <= len(reader.pages) <= 3 and page_size(reader) == A4
    text = pdf_text(data)
    for needle in ("Orders", "Resolution", "Battle", "Reform", "Recall", "Tithe",
                   "MK-EXP-1", "2–7", "21/36", "8–9", "9/36", "11–12", "3/36",
                   "Simple battles, step by step", "4'x4'", "8'x4'", "Village → City",
                   "1 gold + 1 food", "Capital City 3", "Village 1", "Win", "Draw", "Loss",
                   "MK-RESULT-1", "Regroup"):
        assert needle in text, needle
    assert "Wizard's quests" not in text and "Advanced modules" not in text


def test_reference_shows_the_modules_and_house_rules_switched_on(
        sheets_world: SheetsWorld, sheet_url: Callable[..., str]) -> None:
    world = sheets_world
    world.campaign.options = {**world.campaign.options, "module_wizard_towers": True,
                              "module_artefacts": True, "voluntary_unfed": False}
    world.campaign.save()
    text = pdf_text(_get(world, "player", sheet_url(world, "reference")))
    assert "Advanced modules in this campaign" in text
    assert "Wizard's quests" in text and "35–50 pts" in text and "Magical artefacts" in text
    assert "Terrain-restricted recruiting" not in text
    assert "House rules" in text and "Armies may be left unfed on purpose" in text


def test_kingdom_ledger(sheets_world: SheetsWorld, sheet_url: Callable[..., str]) -> None:
    world = sheets_world
    data = _get(world, "player", sheet_url(world, "ledger", world.red))
    reader = read_pdf(data)
    assert len(reader.pages) <= 2 and page_size(reader) == A4
    text = pdf_text(data)
    capital, village = world.capital.label, world.tiles["village"].label
    assert "Red: ledger" in text and "Basileans" in text
    assert "Gold now 4" in text and "Food now 3" in text and "Armies 2 of 6" in text
    # The forecast, line by line with rule IDs: own capital 2 gold, 1 city, 1 village.
    assert f"Own capital at {capital}" in text and "MK-WINTER-2" in text and "MK-AMB-2" in text
    assert f"Village at {village}" in text
    assert "Total if nothing changes 3 1" in text
    # Settlements, with what each could become and its cost.
    assert "→ city 1 gold + 1 food" in text and "→ fortress 2 gold" in text
    assert "→ village 1 gold" in text and "recruit an army 1 gold" in text
    # Armies and upkeep: 2 armies, 1 food forecast.
    assert "Upkeep MK-FEED-1 2" in text and "1 army goes unfed" in text
    # The last season's entries and room for tithes to both other kingdoms.
    assert "Last season's entries Year 1, winter" in text
    assert "Army #2 at" in text and "MK-RECRUIT-2" in text
    assert "Tithes this winter" in text and "Blue" in text and "Green" in text


def test_army_roster_with_units(sheets_world: SheetsWorld, sheet_url: Callable[..., str]) -> None:
    world = sheets_world
    data = _get(world, "player", sheet_url(world, "roster", world.red_army,
                                           query="paper=letter&eco=1"))
    reader = read_pdf(data)
    assert len(reader.pages) == 1 and page_size(reader) == LETTER
    text = pdf_text(data)
    assert "Red: army #1" in text and "#1" in text and "350 of 500" in text
    assert "Sea Guard Spearmen Regiment 130 2" in text
    assert "2 → 3 → 2" in text and "Blade of Slashing" in text and "Boots of Levitation" in text
    assert "Paladin Knights of the Order of the Radiant Dawn" in text
    assert "(fights at 3)" in text and "(fights at 0)" in text
    assert "Routed an enemy" in text and "Was routed" in text
    assert "upright" in text and "on its side" in text


def test_kingdoms_armies_sheet(sheets_world: SheetsWorld,
                               sheet_url: Callable[..., str]) -> None:
    world = sheets_world
    data = _get(world, "player", sheet_url(world, "armies", world.red))
    assert len(read_pdf(data).pages) == 1
    text = pdf_text(data)
    assert "Red: armies" in text and "Armies 2" in text
    assert "Army #1" in text and "350 of 500 points" in text and "Sea Guard Spearmen" in text
    assert "Army #2" in text and "on its side" in text and "No list recorded" in text
    # Once a battle reveals them, other players see the armies that fought, and only those.
    from tests.print.test_access import _reveal

    _reveal(world)
    other = pdf_text(_get(world, "bystander", sheet_url(world, "armies", world.red)))
    assert "Sea Guard Spearmen" in other and "Only the armies a battle has revealed" in other
    assert "Army #2" not in other


def test_blank_army_roster(sheets_world: SheetsWorld, sheet_url: Callable[..., str]) -> None:
    world = sheets_world
    data = _get(world, "player", sheet_url(world, "roster", world.red_second))
    assert len(read_pdf(data).pages) == 1
    text = pdf_text(data)
    assert "Red: army #2" in text and "on its side" in text and "of 500" in text
    assert "Routed an enemy" in text


def test_simple_roster(sheets_world: SheetsWorld, sheet_url: Callable[..., str]) -> None:
    world = sheets_world
    world.campaign.options = {**world.campaign.options, "battle_mode": "simple"}
    world.campaign.save()
    data = _get(world, "player", sheet_url(world, "simple-roster", world.red))
    reader = read_pdf(data)
    assert len(reader.pages) == 1
    text = pdf_text(data)
    assert "Red: Simple roster" in text and "Armies 2 of 6" in text
    assert "#1" in text and "500 5" in text and "#2" in text and "300 3" in text
    # 5 boxes per army row: 2 armies and 4 blank rows for recruits (6 allowed).
    assert text.count("100 100 100 100 100") == 6
    preview = world.client("player").get(sheet_url(world, "simple-roster", world.red, pdf=False))
    assert preview.content.decode().count('class="pts lost"') == 2  # army #2 lost 200 points


def test_battle_packet(sheets_world: SheetsWorld, sheet_url: Callable[..., str]) -> None:
    world = sheets_world
    data = _get(world, "gm", sheet_url(world, "battle", world.battle))
    reader = read_pdf(data)
    assert len(reader.pages) <= 2 and page_size(reader) == A4
    text = pdf_text(data)
    capital = world.capital.label
    assert f"Battle at {capital}" in text and "Year 1, summer month 2" in text
    assert "Blue" in text and "Attacker" in text and "Red" in text
    assert "4'x4'" in text and "1 against 1 upright army" in text
    assert "Blue took Defend" in text and "objective" in text  # Red's capital: the City row
    assert "Sea Guard Spearmen" in text and "Army #1 · upright, defending" in text
    assert "Army #2" not in text  # Red's second army is elsewhere
    result_url = "http://testserver" + sheets.battle_result_url(world.battle)
    assert str(world.battle.pk) in result_url and world.campaign.slug in result_url
    assert result_url in text.replace(" ", "")
    # The cropped map: the battle tile and its neighbours, not the whole map.
    assert capital in text and "0606" not in text
    html = world.client("gm").get(sheet_url(world, "battle", world.battle, pdf=False))
    assert html.content.decode().count("<path d=\"M") >= 1  # the QR code, drawn inline


@pytest.mark.parametrize(("kind", "mode", "heading", "absent"), [
    ("land", "simple", "Simple battle MK-SIMPLE", "Sea Guard"),
    ("naval", "kow", "Naval battle MK-NAVAL", "Sea Guard"),
    ("land_water", "kow", "Land/water battle MK-LW", "Sea Guard"),
])
def test_battle_packet_fought_with_dice_has_no_table(
        sheets_world: SheetsWorld, sheet_url: Callable[..., str], kind: str, mode: str,
        heading: str, absent: str) -> None:
    """MK-SIMPLE, MK-NAVAL, MK-LW: dice decide these battles, so the packet gives the dice rules
    instead of a Kings of War table and terrain allowance (MK-BOARD-1, MK-DEF-2)."""
    world = sheets_world
    Battle.objects.filter(pk=world.battle.pk).update(kind=kind, mode=mode)
    text = pdf_text(_get(world, "gm", sheet_url(world, "battle", world.battle)))
    assert heading in text
    assert "MK-BOARD-1" not in text and "MK-DEF-2" not in text and absent not in text
    if kind == "land":
        # Defence = points / 100, +1 for Blue's Defend order (MK-SIMPLE-2/3).
        assert "Army #1 · upright · 500 points · Defence 5" in text
        assert "Army #1 · upright, defending · 500 points · Defence 6" in text
        assert "Land · Simple battle" in text
    else:
        assert "Simple battle" not in text and "Kings of War" not in text


def test_chronicle_sheet_respects_event_visibility(sheets_world: SheetsWorld,
                                                  sheet_url: Callable[..., str]) -> None:
    world = sheets_world
    own = pdf_text(_get(world, "player", sheet_url(world, "chronicle")))
    assert "Red raised a banner over the hills." in own
    assert "Red hid gold in the cellar." in own
    other = pdf_text(_get(world, "other_player", sheet_url(world, "chronicle")))
    assert "Red raised a banner" in other and "Red hid gold" not in other


def test_names_are_printed_never_fetched(sheets_world: SheetsWorld, sheet_url: Callable[..., str],
                                         spy_server: tuple[str, list[str]]) -> None:
    """A kingdom name or list entry holding HTML or a URL is text on the sheet."""
    world = sheets_world
    url, hits = spy_server
    world.red.name = f'<img src="{url}/c.png">'  # names hold at most 60 characters
    world.red.colour = f"url({url}/colour.png)"[:7]
    world.red.save()
    Army.objects.filter(pk=world.red_army.pk).update(
        name=f"<link rel=stylesheet href={url}/a.css>")
    Unit.objects.filter(army_list__army=world.red_army).delete()
    Unit.objects.create(army_list=world.red_army.army_list, position=1,
                        name=f'<img src="{url}/unit.png">', magic_item=f"{url}/item",
                        unit_type=f"<b>Horde</b><style>@import '{url}/u'",  # 60 at most
                        points=100)
    for sheet, obj in (("ledger", world.red), ("roster", world.red_army),
                       ("battle", world.battle), ("map", None)):
        text = pdf_text(_get(world, "gm", sheet_url(world, sheet, obj)))
        assert hits == [], sheet
        if sheet != "map":
            assert "<img src=" in text, sheet
    text = pdf_text(_get(world, "gm", sheet_url(world, "roster", world.red_army)))
    assert f"{url}/item" in text.replace(" ", "") and "<b>Horde</b>" in text.replace(" ", "")
    preview = world.client("gm").get(sheet_url(world, "roster", world.red_army, pdf=False))
    body = preview.content.decode()
    assert f'<img src="{url}' not in body and "&lt;img src=" in body
    assert hits == []

