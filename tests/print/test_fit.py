"""Sheets keep to their page: long names shrink or wrap inside it, a typical ledger and battle
packet fit one page, longer ones run on with their table heads repeated, and every font in a
PDF is one of ours."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Callable

import pytest
from django.conf import settings

from battles.models import Army, Unit
from ledger.models import LedgerEntry
from tests.print.conftest import (
    MARGIN_PT,
    UNITS,
    SheetsWorld,
    assert_inside_the_page,
    give_list,
    pdf_text,
    read_pdf,
)

PAPERS = ["a4", "letter"]

# Wide letters, no spaces: the hardest names to fit.
LONG_KINGDOM = ("Wyrmwatch" * 7)[:60]
LONG_UNITS = [
    ("WyrmwatchHouseholdGuardoftheWesternMarch", "Regiment", 130, 2, [1, -1], "Blade of Slashing"),
    ("Wardens of the Windswept Western Wall Way", "Horde", 200, 3, [], "Brew of Strength"),
    ("MmmWwwMmmWwwMmmWwwMmmWwwMmmWwwMmmWwwMmmW", "Troop", 100, 1, [1], "Boots of Levitation"),
    ("Wolfriders of the Whispering Wilderness W", "Troop", 110, 1, [-1], ""),
    ("Warmongers of the Wyrmwatch Northern Wood", "Regiment", 120, 2, [1, 1], "Mace of Crushing"),
    ("Wyrmwatch Wall Warden on a Winged Wyvernn", "Hero", 150, 0, [], "Wand of Wonders"),
    ("Westmarch Wayfarers and Wandering Warders", "Troop", 90, 1, [], ""),
    ("Wildwood Watchers with Heavy Wall Bows Ww", "Regiment", 100, 2, [-1], ""),
    ("Wyvern Riders of the Western Wyrmwatch Wa", "Troop", 180, 1, [1], "Helm of Warding"),
    ("WarEngineWyrmwatchWallBallistaBatteryWWWW", "War Engine", 60, 1, [], ""),
]
LONG_CAMPAIGN = ("The Wars of the Wyrmwatch Succession across the Western Marches and the "
                 "Windswept Northern Waste")[:100]


def _get(world: SheetsWorld, persona: str, url: str) -> bytes:
    response = world.client(persona).get(url)
    assert response.status_code == 200, response.status_code
    return response.content


def _squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


@pytest.fixture
def long_names(sheets_world: SheetsWorld) -> SheetsWorld:
    """Red with a 60-character name without a space, ten units of 40-character names in army
    #1, the campaign with a 100-character name; Red's army defends, so the battle packet names
    Red as the defender."""
    world = sheets_world
    world.campaign.name = LONG_CAMPAIGN
    world.campaign.save()
    world.red.name = LONG_KINGDOM
    world.red.save()
    Unit.objects.filter(army_list__army=world.red_army).delete()
    world.red_army.army_list.delete()
    give_list(world.red_army, LONG_UNITS)
    Army.objects.filter(pk=world.blue_army.pk).update(defending=False)
    Army.objects.filter(pk=world.red_army.pk).update(defending=True)
    return world


@pytest.mark.parametrize("paper", PAPERS)
def test_long_names_stay_on_the_page(long_names: SheetsWorld, sheet_url: Callable[..., str],
                                     paper: str) -> None:
    world = long_names
    query = f"paper={paper}"
    pages = {"ledger": 1, "roster": 1, "battle": 1, "armies": 1}
    for sheet, obj in (("ledger", world.red), ("roster", world.red_army),
                       ("battle", world.battle), ("armies", world.red), ("map", None),
                       ("chronicle", None), ("reference", None)):
        data = _get(world, "gm", sheet_url(world, sheet, obj, query=query))
        if sheet in pages:
            assert len(read_pdf(data).pages) == pages[sheet], sheet
        runs = assert_inside_the_page(data)
        text = _squash(pdf_text(data))
        if sheet not in ("reference", "chronicle"):
            assert _squash(LONG_KINGDOM) in text, sheet
        # The running header and the title beside it keep to one line each, in the margin.
        top_runs = [r for r in runs if r.page == 0 and r.top < 16 / 25.4 * 72]
        assert top_runs, sheet
        assert len({round(r.top) for r in top_runs}) == 1, (sheet, top_runs)
        header = next(r for r in top_runs if r.left < MARGIN_PT + 3)
        assert header.text.startswith("The Wars of the Wyrmwatch"), header
    roster = pdf_text(_get(world, "gm", sheet_url(world, "roster", world.red_army,
                                                  query=query)))
    for name, *_rest in LONG_UNITS:
        assert _squash(name) in _squash(roster), name
    assert "Notes" in roster


@pytest.mark.parametrize("paper", PAPERS)
def test_roster_rows_make_room_for_long_unit_names(long_names: SheetsWorld,
                                                   sheet_url: Callable[..., str],
                                                   paper: str) -> None:
    """Blank rows fill what the units leave: fewer when names wrap, and the notes stay on the
    roster's one page."""
    world = long_names
    preview = world.client("gm").get(sheet_url(world, "roster", world.red_army, pdf=False,
                                               query=f"paper={paper}")).content.decode()
    with_long = preview.count('<td class="write">') // 6
    Unit.objects.filter(army_list__army=world.red_army).update(name="Spears")
    preview = world.client("gm").get(sheet_url(world, "roster", world.red_army, pdf=False,
                                               query=f"paper={paper}")).content.decode()
    assert preview.count('<td class="write">') // 6 > with_long >= 4
    data = _get(world, "gm", sheet_url(world, "roster", world.red_army,
                                       query=f"paper={paper}"))
    assert len(read_pdf(data).pages) == 1 and "Notes" in pdf_text(data)


def _eight_units(prefix: str) -> list[tuple[str, str, int, int | None, list[int], str]]:
    return [(f"{prefix} {name}", kind, points, base, changes, item)
            for name, kind, points, base, changes, item in (UNITS * 3)[:8]]


@pytest.mark.parametrize("paper", PAPERS)
def test_battle_packet_of_two_eight_unit_armies_fits_one_page(
        sheets_world: SheetsWorld, sheet_url: Callable[..., str], paper: str) -> None:
    world = sheets_world
    world.red_army.army_list.delete()
    give_list(world.red_army, _eight_units("Red"))
    give_list(world.blue_army, _eight_units("Blue"))
    data = _get(world, "gm", sheet_url(world, "battle", world.battle, query=f"paper={paper}"))
    assert len(read_pdf(data).pages) == 1
    text = pdf_text(data)
    assert text.count("Red Sea Guard Spearmen") == 3 and text.count("Blue High Paladin") == 2
    # Each army's units add up to their points, of the 500-point limit.
    assert re.search(r"Blue, army #1 · upright, defending · \d+ of 500 points", text)
    assert re.search(r"Red, army #1 · upright · \d+ of 500 points", text)
    assert_inside_the_page(data)


def test_a_long_battle_packet_breaks_inside_a_side_with_its_head_repeated(
        sheets_world: SheetsWorld, sheet_url: Callable[..., str]) -> None:
    world = sheets_world
    world.red_army.army_list.delete()
    give_list(world.red_army, _eight_units("Red"))
    give_list(world.blue_army, _eight_units("Blue"))
    for number in (2, 3):
        army = Army.objects.create(campaign=world.campaign, kingdom=world.blue,
                                   number=number, tile=world.capital)
        give_list(army, _eight_units(f"Blue{number}"))
    data = _get(world, "gm", sheet_url(world, "battle", world.battle, query="paper=letter"))
    reader = read_pdf(data)
    assert len(reader.pages) == 2
    first, second = (" ".join((p.extract_text() or "").split()) for p in reader.pages)
    # The sides follow on from each other, without a gap kept for a whole side.
    assert "Blue, army #1" in first and "Red, army #1" in second
    # Where a table runs on, its head comes again: whose army, then the columns.
    continued = second.split("Red, army #1")[0]
    assert re.search(r"Blue, army #\d · upright · \d+ of 500 points Unit Type Points",
                     continued), (
        continued[:300])


@pytest.mark.parametrize("paper", PAPERS)
def test_kingdom_ledger_fits_one_page(sheets_world: SheetsWorld, sheet_url: Callable[..., str],
                                      paper: str) -> None:
    world = sheets_world
    data = _get(world, "player", sheet_url(world, "ledger", world.red, query=f"paper={paper}"))
    assert len(read_pdf(data).pages) == 1
    assert "Net, 4 entries +1 +0" in pdf_text(data)


def test_a_long_ledger_runs_on_with_the_net_only_at_the_end(
        sheets_world: SheetsWorld, sheet_url: Callable[..., str]) -> None:
    world = sheets_world
    for month in range(40):
        LedgerEntry.objects.create(campaign=world.campaign, kingdom=world.red, resource="gold",
                                   amount=1 if month % 2 else -1, rule_id="MK-BUY-3",
                                   source=f"purchase number {month}", year=1,
                                   season="winter", phase="C")
    data = _get(world, "player", sheet_url(world, "ledger", world.red))
    reader = read_pdf(data)
    assert len(reader.pages) == 2
    first, second = (" ".join((p.extract_text() or "").split()) for p in reader.pages)
    assert "Net," not in first
    assert "Net, 44 entries +1 +0" in second
    # The list runs on under its head again.
    assert re.search(r"Year 1, winter Rule Gold Food (?:Purchase number|Army|Village)",
                     second), second[:300]
    assert "Winter tally" in first and "Tithes this winter" in first


# --- fonts --------------------------------------------------------------------------------------


def _our_fonts() -> set[str]:
    """The family names of the font files in static/fonts, as a PDF names them."""
    from fontTools.ttLib import TTFont

    names = set()
    for path in Path(settings.BASE_DIR, "static", "fonts").glob("*.ttf"):
        family = TTFont(path)["name"].getDebugName(1)
        names.add(family.replace(" ", "-"))
    return names


def _embedded_fonts(data: bytes) -> set[str]:
    """Every font a PDF embeds, in its pages and in the images and patterns they draw."""
    found: set[str] = set()

    def scan(resources: Any, seen: set[int]) -> None:
        if resources is None:
            return
        resources = resources.get_object()
        for font in (resources.get("/Font") or {}).values():
            font = font.get_object()
            descendants = font.get("/DescendantFonts") or [font]
            for part in descendants:
                descriptor = part.get_object().get("/FontDescriptor")
                assert descriptor is not None and any(
                    key in descriptor.get_object() for key in ("/FontFile2", "/FontFile3",
                                                               "/FontFile")), font
            found.add(str(font["/BaseFont"]))
        for kind in ("/XObject", "/Pattern"):
            for item in (resources.get(kind) or {}).values():
                if id(item.get_object()) in seen:
                    continue
                seen.add(id(item.get_object()))
                scan(item.get_object().get("/Resources"), seen)

    for page in read_pdf(data).pages:
        scan(page.get("/Resources"), set())
    return found


def test_every_embedded_font_is_one_of_ours(sheets_world: SheetsWorld,
                                            sheet_url: Callable[..., str]) -> None:
    """Arrows (→ on the ledger, ← ↑ → ↓ on a cut map) come from Hexkeep Symbols, never from a
    font of the machine that made the PDF."""
    world = sheets_world
    ours = _our_fonts()
    assert {"Atkinson-Hyperlegible", "Hexkeep-Symbols"} <= ours
    seen: set[str] = set()
    for sheet, obj in (("map", None), ("reference", None), ("chronicle", None),
                       ("ledger", world.red), ("roster", world.red_army),
                       ("armies", world.red), ("battle", world.battle)):
        for query in ("", "eco=1&paper=letter"):
            data = _get(world, "gm", sheet_url(world, sheet, obj, query=query))
            for name in _embedded_fonts(data):
                base = name.lstrip("/").split("+", 1)[-1]
                family = re.sub(r"-(Bold|Italic|BoldItalic|Regular)$", "", base)
                assert family in ours, (sheet, name)
                seen.add(family)
    assert "→" in pdf_text(_get(world, "gm", sheet_url(world, "ledger", world.red)))
    assert seen == {"Atkinson-Hyperlegible", "Hexkeep-Symbols"}
