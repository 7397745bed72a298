"""The demo Grand Campaign, its campaign file and its printed sheets: the demo loads once with
everything the issue asks for, exports and imports back to the same document, a bad section is
refused with its path, and every sheet prints on A4 and Letter."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from django.contrib.auth.models import User

from campaign import transfer
from campaign.demo import load_demo
from campaign.models import Campaign, Event, Kingdom
from campaign.pdf import PrintOptions, access_for_user
from campaign.systems.swords_and_stones.models import (
    CrateItem,
    Game,
    King,
    Participant,
    Spend,
    TerritoryRecord,
    TitleAward,
)
from campaign.systems.swords_and_stones.sheets import SHEETS
from campaign.transfer.base import ImportRefused
from tests.campaign.conftest import as_imported, without_import_event

pytestmark = pytest.mark.django_db

SLUG = "avalon-grand-campaign"


def counts() -> tuple[int, ...]:
    return tuple(m.objects.count() for m in (Campaign, Kingdom, Event, Game, King, TitleAward,
                                             CrateItem, Participant, Spend, TerritoryRecord))


@pytest.fixture
def demo(db: Any) -> Campaign:
    _, created = load_demo("swords-and-stones")
    assert created == [SLUG]
    return Campaign.objects.get(slug=SLUG)


def test_sns_gc_1_the_demo_is_five_kingdoms_after_eight_games(demo: Campaign) -> None:
    """SNS-GC-1, SNS-KING-3, SNS-PTS-3, SNS-TITLE-G2: five kingdoms (one artificial) after
    eight games, Titles taken, points spent, a dead King and his heir, the ninth challenge
    at the table at turn 12; loading again changes nothing."""
    kingdoms = list(demo.kingdoms.order_by("pk"))
    assert [k.name for k in kingdoms] == ["Kingdom of Aldmere", "Blackwater", "Greenhollow",
                                          "Goldmarch", "The Hollow Crown"]
    assert [k.data.get("is_ai", False) for k in kingdoms] == [False] * 4 + [True]
    games = list(Game.objects.filter(campaign=demo).values_list("number", "status"))
    assert games == [(n, "played") for n in range(1, 9)] + [(9, "playing")]
    tables = dict(Participant.objects.filter(game__number=9).values_list("kingdom__name",
                                                                          "table"))
    assert {k: (t["turn"], t["phase"]) for k, t in tables.items()} == {
        "Goldmarch": (12, "harvest"), "The Hollow Crown": (12, "harvest")}
    assert demo.year == 9 and demo.phase == "campaign"
    assert list(King.objects.filter(kingdom__name="Kingdom of Aldmere").values_list(
        "name", "reign", "current", "died_in__number")) == [("Aldous", 1, False, 6),
                                                          ("Bertram", 2, True, None)]
    assert sorted(TitleAward.objects.values_list("code", flat=True)) == [
        "BRAVE", "FRUGAL", "KINGSLAYER", "LEARNED", "RAIDER"]
    assert sorted(Spend.objects.values_list("code", flat=True)) == [
        "BLACKSHEEP", "BROTHERS", "EMPIRE"]
    before = counts()
    _, created = load_demo("swords-and-stones")
    assert created == [] and counts() == before


def test_sns_gc_11_the_campaign_file_round_trips(demo: Campaign) -> None:
    """Everything of the Grand Campaign (Kings, games, reports, Titles, crate items, spends,
    history) exports, imports and exports again to the same document."""
    gm = User.objects.get(username="gm")
    first = transfer.export_campaign(demo)
    section = first["campaign"]["systems"]["swords-and-stones"]
    assert section["version"] == 1
    assert len(section["games"]) == 9 and len(section["kings"]) == 6
    assert [i["name"] for i in section["crate_items"]] == ["Rusty Key"]
    assert section["games"][8]["participants"][0]["table"]["turn"] == 12
    copy_ = transfer.import_campaign(copy.deepcopy(first), gm, slug="avalon-copy")
    second = transfer.export_campaign(copy_)
    assert without_import_event(second, "gm") == as_imported(first, "gm")


BAD_SECTIONS = (
    (("games", 0, "status"), "lost",
     "campaign.systems.swords-and-stones.games[0].status: 'lost' is not one of"),
    (("kings", 0, "reign"), 2,
     "campaign.systems.swords-and-stones.kings[5]: Kingdom of Aldmere has two Kings of "
     "reign 2."),
    (("titles", 0, "code"), "GREAT",
     "campaign.systems.swords-and-stones.titles[0].code: 'GREAT' is not one of"),
    (("spends", 0, "game"), 42,
     "campaign.systems.swords-and-stones.spends[0].game: there is no game 42."),
    (("games", 8, "participants", 0, "table"), [1],
     "campaign.systems.swords-and-stones.games[8].participants[0].table: expected an object"),
)


def test_a_bad_section_is_refused_with_its_path(demo: Campaign) -> None:
    """A file whose Swords & Stones section breaks the rules is refused before anything is
    written, naming where."""
    gm = User.objects.get(username="gm")
    exported = transfer.export_campaign(demo)
    before = counts()
    for path, value, message in BAD_SECTIONS:
        doc = copy.deepcopy(exported)
        node: Any = doc["campaign"]["systems"]["swords-and-stones"]
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
        with pytest.raises(ImportRefused) as caught:
            transfer.import_campaign(doc, gm, slug="bad-copy")
        assert str(caught.value).startswith(message), path
        assert counts() == before


def test_every_sheet_prints_on_a4_and_letter(demo: Campaign) -> None:
    """The map, kingdom sheet, game start, honours roll, post-game report, turn ledger pad
    and reference print as PDFs."""
    access = access_for_user(demo, User.objects.get(username="alice"))
    kingdom = demo.kingdoms.get(name="Goldmarch")
    for sheet in SHEETS:
        obj = kingdom if sheet.per_object else None
        for paper in ("a4", "letter"):
            data = sheet.render(access, obj, PrintOptions(paper=paper))
            assert data.startswith(b"%PDF"), (sheet.slug, paper)
