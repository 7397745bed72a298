"""What each Mighty Kingdoms sheet prints: page count, page size, names and numbers."""

from __future__ import annotations

import re
from typing import Callable

import pytest

from battles.models import Army, Battle, Unit
from campaign import pdf
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
    # A map that fits one page either way prints portrait unless asked otherwise.
    ("", A4),
    ("paper=letter", LETTER),
    ("landscape=1", (A4[1], A4[0])),
    ("paper=letter&landscape=1&eco=1", (LETTER[1], LETTER[0])),
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


@pytest.mark.parametrize(("width", "height", "paper", "automatic", "pages"), [
    # 24 x 16 on A4: 2 map pages portrait, 4 landscape.
    (24, 16, "a4", "portrait", {"portrait": 2, "landscape": 4}),
    # On Letter too: 2 portrait, 4 landscape (issue 16: it took 4 pages either way).
    (24, 16, "letter", "portrait", {"portrait": 2, "landscape": 4}),
    # A long, low map: 3 pages portrait, 2 landscape.
    (30, 8, "a4", "landscape", {"portrait": 3, "landscape": 2}),
])
def test_map_sheet_takes_the_orientation_that_needs_fewer_pages(
        gm: object, width: int, height: int, paper: str, automatic: str,
        pages: dict[str, int]) -> None:
    """Without ?landscape= the map sheet prints in the orientation that needs fewer pages
    (portrait on a tie); ?landscape=0 or 1 still decides for one download. Every page of the
    PDF (an overview, then the map's pages) has the chosen size."""
    from django.test import Client
    from django.urls import reverse

    campaign = make_campaign(gm, slug=f"map-{width}x{height}", width=width, height=height,
                             seed=5)
    client = Client()
    client.force_login(gm)  # type: ignore[arg-type]
    url = reverse("campaign:print_sheet_pdf", args=[campaign.slug, "map"])
    sizes = {"a4": A4, "letter": LETTER}[paper]
    portrait, landscape = sizes, (sizes[1], sizes[0])
    for query, orientation in (("", automatic), ("&landscape=0", "portrait"),
                               ("&landscape=1", "landscape")):
        response = client.get(f"{url}?paper={paper}{query}")
        assert response.status_code == 200
        reader = read_pdf(response.content)
        assert len(reader.pages) == pages[orientation] + 1, (query, orientation)
        expected = portrait if orientation == "portrait" else landscape
        assert {page_size(reader, i) for i in range(len(reader.pages))} == {expected}, query
    # The print page leaves the map's orientation to the map; its preview links back so.
    page = client.get(reverse("campaign:print", args=[campaign.slug])).content.decode()
    assert f"map/pdf/?paper={campaign.paper_size}&amp;eco=0" in page
    preview = client.get(reverse("campaign:print_sheet", args=[campaign.slug, "map"])
                         + f"?paper={paper}").content.decode()
    assert f"map/pdf/?paper={paper}&amp;eco=0" in preview
    assert f"{pdf.PAPERS[paper].label} {automatic}, colour" in preview


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


def test_reference_sheet(sheets_world: SheetsWorld, sheet_url: Callable[..., str]) -> None:
    world = sheets_world
    data = _get(world, "observer", sheet_url(world, "reference"))
    reader = read_pdf(data)
    assert 1 <= len(reader.pages) <= 3 and page_size(reader) == A4
    text = pdf_text(data)
    for needle in ("Orders", "Resolution", "Battle", "Reform", "Recall", "Tithe",
                   "MK-EXP-1", "2–7", "21/36", "8–9", "9/36", "11–12", "3/36",
                   "Kings of War games", "4'x4'", "8'x4'", "Village → City",
                   "1 gold + 1 food", "Capital City 3", "Village 1", "Win", "Draw", "Loss",
                   "MK-RESULT-1", "Regroup"):
        assert needle in text, needle
    assert "Wizard's quests" not in text and "Advanced modules" not in text
    # Battles here are Kings of War games only: the Simple battles section is left out.
    assert "Simple battles, step by step" not in text and "Wizard's Tower" not in text


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_reference_with_everything_on_fits_two_pages(sheets_world: SheetsWorld,
                                                     sheet_url: Callable[..., str],
                                                     paper: str) -> None:
    world = sheets_world
    world.campaign.options = {
        **world.campaign.options, "module_terrain_recruit": True, "module_wizard_towers": True,
        "module_artefacts": True, "allow_mode_per_battle": True, "simple_defence": "fixed",
        "voluntary_unfed": False, "sealed_orders": False, "campaign_years": 4,
        "strict_waterways": True, "lone_ship_takes_control": True}
    world.campaign.save()
    data = _get(world, "player", sheet_url(world, "reference", query=f"paper={paper}"))
    assert len(read_pdf(data).pages) == 2
    text = pdf_text(data)
    for needle in ("Simple battles, step by step", "Kings of War games", "Terrain-restricted",
                   "Wizard's quests", "Rare artefact (35–50 pts)", "Magical artefacts",
                   "House rules", "Ships follow connected waterways"):
        assert needle in text, needle


def test_reference_exploration_with_wizards_towers(sheets_world: SheetsWorld,
                                                   sheet_url: Callable[..., str]) -> None:
    """MK-WIZ-1: with towers on, a double calls for a second roll and a second double makes a
    tower, so every chance changes (the rules' own table: 1/36 tower, 123/216 empty...)."""
    world = sheets_world
    world.campaign.options = {**world.campaign.options, "module_wizard_towers": True}
    world.campaign.save()
    text = pdf_text(_get(world, "player", sheet_url(world, "reference")))
    for row in ("2–7 Empty: control marker only 123/216", "8–9 Village 53/216",
                "10 City 17/216", "11–12 Fortress 17/216", "Wizard's Tower 6/216"):
        assert row in text, row
    assert "21/36" not in text and "Wizard's quests MK-QUEST" in text


def test_reference_of_a_simple_campaign_has_no_quests(sheets_world: SheetsWorld,
                                                      sheet_url: Callable[..., str]) -> None:
    """MK-QUEST-7: quests need Heroes, so a campaign of Simple battles has none; nor does it
    need the Kings of War tables."""
    world = sheets_world
    world.campaign.options = {**world.campaign.options, "battle_mode": "simple",
                              "module_wizard_towers": True}
    world.campaign.save()
    text = pdf_text(_get(world, "player", sheet_url(world, "reference")))
    assert "Simple battles, step by step" in text and "Kings of War games" not in text
    assert "Wizard's Tower 6/216" in text
    assert "+1 for each full 100 points the Hero costs" not in text and "35–50" not in text
    assert "Wizard's quests need Heroes" in text and "MK-QUEST-7" in text


# Sentences of the published rules that an earlier wording followed too closely.
BOOK_PHRASES = (
    "pick a tile where you have an upright army or ship and an enemy has tokens",
    "the first time a unit damages",
    "+1 Unit Strength from the next battle",
    "gains +1 Unit Strength from the next battle onwards",
    "chooses a tile in which they have at least one upright army or ship",
)


def test_sheets_state_the_rules_in_their_own_words(sheets_world: SheetsWorld,
                                                   sheet_url: Callable[..., str]) -> None:
    world = sheets_world
    world.campaign.options = {**world.campaign.options, "allow_mode_per_battle": True,
                              "module_wizard_towers": True, "module_artefacts": True}
    world.campaign.save()
    for sheet, obj in (("reference", None), ("roster", world.red_army),
                       ("battle", world.battle)):
        text = pdf_text(_get(world, "gm", sheet_url(world, sheet, obj))).lower()
        for phrase in BOOK_PHRASES:
            assert phrase.lower() not in text, (sheet, phrase)


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
    # Armies and upkeep: 2 armies, 1 food forecast. In Kings of War battles an army's points
    # are its list's (its living units); army #2 has no list yet.
    assert "Upkeep MK-FEED-1 2" in text and "1 army goes unfed" in text
    armies = text.split("Armies and upkeep", 1)[1].split("Upkeep", 1)[0]
    assert re.search(r"\b1 \d{4} upright 350 1\b", armies), armies
    assert re.search(r"\b2 \d{4} on its side – 1\b", armies), armies
    # The last season's entries and room for tithes to both other kingdoms.
    assert "Latest entries: winter of year 1 Year 1, winter" in text
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
    assert "fights at 3" in text and "fights at 0" in text
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
    assert "upright, defending" not in text
    preview = world.client("player").get(sheet_url(world, "simple-roster", world.red, pdf=False))
    assert preview.content.decode().count('class="pts lost"') == 2  # army #2 lost 200 points


def test_simple_roster_defence_counts_defend_as_the_battle_packet_does(
        sheets_world: SheetsWorld, sheet_url: Callable[..., str]) -> None:
    """MK-SIMPLE-2/3: an upright 500-point army with a Defend order has Defence 6, on the
    roster as on the battle packet (both ask rules.battles.simple_defence)."""
    world = sheets_world
    world.campaign.options = {**world.campaign.options, "battle_mode": "simple"}
    world.campaign.save()
    Army.objects.filter(pk=world.red_army.pk).update(defending=True)
    Battle.objects.filter(pk=world.battle.pk).update(mode="simple")
    roster = pdf_text(_get(world, "player", sheet_url(world, "simple-roster", world.red)))
    assert "#1 " in roster and "upright, defending 500 6" in roster
    assert "on its side 300 3" in roster
    packet = pdf_text(_get(world, "player", sheet_url(world, "battle", world.battle)))
    assert "Army #1 · upright, defending · 500 points · Defence 6" in packet


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
    assert "Sea Guard Spearmen" in text and "Red, army #1 · upright · 350 of 500 points" in text
    # Blue's, with no list: no points to give (its limit is not its points).
    assert "Army #1 · upright, defending No list recorded" in text
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

