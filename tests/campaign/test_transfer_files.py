"""Campaign files kept as fixtures, rule-system sections, the money check, reserved addresses and
the command's size limit (docs/campaign-file.md).

The fixtures in tests/campaign/fixtures/ were written by earlier versions of the exporter: the two
demo campaigns as version 2 files, and a small hand-made version 1 file. Each must import and say
on export (as version 3) exactly what the file said.
"""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command

from battles.models import Army, ArmyList, Battle, Unit, UnitStrengthEvent
from campaign import transfer
from campaign.models import Campaign, Event, Kingdom, Tile
from campaign.rulesystems import REGISTRY, get_system
from campaign.systems.mighty_kingdoms.models import (
    Artefact,
    Order,
    Purchase,
    Ship,
    Tithe,
    WizardQuest,
)
from campaign.transfer.sections import section_module
from ledger.models import Balance, LedgerEntry
from tests.campaign.conftest import as_imported, without_import_event
from tests.conftest import MIGHTY_KINGDOMS

FIXTURES = Path(__file__).resolve().parent / "fixtures"
# The lists that versions 1 and 2 kept at the top level of "campaign", and version 3 keeps in
# Mighty Kingdoms' own section.
MK_LISTS = ("ships", "orders", "tithes", "purchases", "artefacts", "quests")
MODELS = (Campaign, Kingdom, Tile, Event, LedgerEntry, Balance, Army, Battle, ArmyList, Unit,
          UnitStrengthEvent, Ship, Order, Tithe, Purchase, Artefact, WizardQuest)

# Files of Mighty Kingdoms campaigns: the sections in them are that system's.
pytestmark = pytest.mark.system(MIGHTY_KINGDOMS)


def fixture(name: str) -> dict[str, Any]:
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in MODELS}


def as_current(document: dict[str, Any]) -> dict[str, Any]:
    """A version 1 or 2 document as version 4 writes it: Mighty Kingdoms' lists (every one,
    empty when the file lacks it) in its section, which is version 1, and an empty unit
    catalogue, no notes and no chronicle entries (version 4's parts)."""
    data = copy.deepcopy(document)
    body = data["campaign"]
    section = {key: body.pop(key, []) for key in MK_LISTS}
    body["systems"] = {"mighty-kingdoms": {"version": 1, **section}}
    for key in ("battles", "army_lists"):
        body.setdefault(key, [])
    for key in ("unit_catalogue", "notes", "chronicle_entries"):
        body.setdefault(key, [])
    data["version"] = 4
    return data


def upgraded(document: dict[str, Any]) -> dict[str, Any]:
    """``document`` in version 4, as an import of it by "gm" exports."""
    return as_imported(as_current(document), "gm")


# -- the fixtures import and say what their files say ---------------------------------------------


@pytest.mark.parametrize("name", ["shattered-coast.v2.hexkeep.json",
                                  "ember-marches.v2.hexkeep.json"])
def test_version_2_demo_files_import_as_they_say(gm: User, name: str) -> None:
    """Every row of a version 2 export of a demo campaign comes back, Mighty Kingdoms' lists in
    their section; the new export differs from the file only by the version 3 layout and what an
    import always changes (members, players, other authors, the import event)."""
    document = fixture(name)
    assert document["version"] == 2
    campaign = transfer.import_campaign(document, gm, slug="from-file")
    exported = transfer.export_campaign(campaign)
    assert exported["version"] == 4
    assert without_import_event(exported, "gm") == upgraded(document)
    body = document["campaign"]
    assert Order.objects.filter(campaign=campaign).count() == len(body["orders"]) > 50
    assert Ship.objects.filter(campaign=campaign).count() == len(body["ships"]) >= 3
    assert Purchase.objects.filter(campaign=campaign).count() == len(body["purchases"]) >= 4
    assert Battle.objects.filter(campaign=campaign).count() == len(body["battles"]) >= 1
    assert LedgerEntry.objects.filter(campaign=campaign).count() == len(
        body["ledger"]["entries"])
    assert Event.objects.filter(campaign=campaign).count() == len(body["events"]) + 1


def test_version_1_file_imports_as_it_says(gm: User) -> None:
    """A hand-made version 1 file: ships at the top level, no later sections, and JSON values
    holding the exporting site's ids, which are kept as they are."""
    document = fixture("harbour.v1.hexkeep.json")
    assert document["version"] == 1
    campaign = transfer.import_campaign(document, gm)
    assert campaign.slug == "harbour-wars"
    assert campaign.state == {"settled:41": True}
    events = {e.seq: e for e in Event.objects.filter(campaign=campaign)}
    assert events[2].data == {"giver": 41, "receiver": 42} and events[4].data == {"army": 7}
    assert events[3].undo_of == events[2] and events[2].undone_at is not None
    ships = Ship.objects.filter(campaign=campaign).order_by("number")
    assert [(s.number, s.tile and s.tile.label, s.paired_army and s.paired_army.number, s.data)
            for s in ships] == [(1, "0102", 1, {}), (2, None, None, {"note": "laid up"})]
    assert sorted(Balance.objects.filter(kingdom__campaign=campaign).values_list(
        "kingdom__name", "resource", "amount")) == [
        ("Gull Isles", "food", 3), ("Gull Isles", "gold", 5), ("Red Marches", "food", 0),
        ("Red Marches", "gold", 8)]
    assert sorted(LedgerEntry.objects.filter(campaign=campaign).values_list(
        "kingdom__name", "resource", "amount", "event__seq")) == [
        ("Gull Isles", "food", 3, None), ("Gull Isles", "gold", -1, None),
        ("Gull Isles", "gold", 6, 4), ("Red Marches", "gold", 8, 4)]
    # Everything else exports as the file said; the old ids in JSON values name nothing here,
    # so the export leaves them out, as it does for any id that names nothing.
    exported = without_import_event(transfer.export_campaign(campaign), "gm")
    expected = upgraded(document)
    for body in (exported["campaign"], expected["campaign"]):
        body.pop("state")
        for event in body["events"]:
            event.pop("data")
    assert exported == expected


def test_version_1_file_without_entries_gets_entries_that_match(gm: User) -> None:
    """A file whose ledger stores balances but no entries: one entry per balance that is not 0,
    booked at the campaign's clock, so every balance is the sum of its entries again."""
    document = fixture("harbour.v1.hexkeep.json")
    document["campaign"]["ledger"].pop("entries")
    campaign = transfer.import_campaign(document, gm)
    entries = LedgerEntry.objects.filter(campaign=campaign).order_by("kingdom__name", "resource")
    assert [(e.kingdom.name, e.resource, e.amount, e.rule_id, e.source, e.event,
             e.year, e.season, e.month, e.phase) for e in entries] == [
        ("Gull Isles", "food", 3, "", transfer.OPENING_SOURCE, None, 1, "summer", 2, "A"),
        ("Gull Isles", "gold", 5, "", transfer.OPENING_SOURCE, None, 1, "summer", 2, "A"),
        ("Red Marches", "gold", 8, "", transfer.OPENING_SOURCE, None, 1, "summer", 2, "A"),
    ]
    assert Balance.objects.filter(kingdom__campaign=campaign).count() == 4
    # The same with an empty list of entries.
    document["campaign"]["ledger"]["entries"] = []
    copy_ = transfer.import_campaign(document, gm, slug="harbour-2")
    assert LedgerEntry.objects.filter(campaign=copy_).count() == 3


# -- the money check ------------------------------------------------------------------------------


def _harbour_3() -> dict[str, Any]:
    """The hand-made file as version 3, without the old ids its JSON values held (a version 3
    file names kingdoms and armies by reference strings)."""
    document = as_current(fixture("harbour.v1.hexkeep.json"))
    for key in ("unit_catalogue", "notes", "chronicle_entries"):  # version 4's parts
        document["campaign"].pop(key)
    document["version"] = 3
    document["campaign"]["state"] = {"settled:Gull Isles": True}
    for event in document["campaign"]["events"]:
        event["data"] = {}
    return document


def _documents() -> list[dict[str, Any]]:
    return [fixture("harbour.v1.hexkeep.json"), _harbour_3()]


@pytest.mark.parametrize("version", [1, 3])
@pytest.mark.parametrize("change, expected", [
    (lambda d: d["campaign"]["ledger"]["balances"][1].update(amount=6),
     "campaign.ledger.balances[1]: the gold balance of Gull Isles is 6, but its ledger entries "
     "add up to 5."),
    (lambda d: d["campaign"]["ledger"]["entries"][3].update(amount=-2),
     "campaign.ledger.balances[1]: the gold balance of Gull Isles is 5, but its ledger entries "
     "add up to 4."),
    (lambda d: d["campaign"]["ledger"]["balances"].pop(0),
     "campaign.ledger.entries: the food entries of Gull Isles add up to 3, but the file gives "
     "Gull Isles no food balance."),
    (lambda d: d["campaign"]["ledger"]["balances"][2].update(amount=1),
     "campaign.ledger.balances[2]: the food balance of Red Marches is 1, but its ledger entries "
     "add up to 0."),
])
def test_a_balance_that_is_not_the_sum_of_its_entries_is_refused(
        gm: User, version: int, change: Any, expected: str) -> None:
    document = next(d for d in _documents() if d["version"] == version)
    change(document)
    before = counts()
    with pytest.raises(transfer.ImportRefused) as info:
        transfer.import_campaign(document, gm)
    assert str(info.value) == expected
    assert counts() == before


def test_a_balance_without_entries_of_zero_is_accepted(gm: User) -> None:
    """A zero balance needs no entry; entries that add up to zero need no balance."""
    document = fixture("harbour.v1.hexkeep.json")
    ledger = document["campaign"]["ledger"]
    ledger["entries"] += [
        {**ledger["entries"][0], "resource": "food", "kingdom": "Red Marches", "amount": 2},
        {**ledger["entries"][0], "resource": "stone", "kingdom": "Red Marches", "amount": 2},
        {**ledger["entries"][0], "resource": "stone", "kingdom": "Red Marches", "amount": -2},
    ]
    ledger["balances"][2]["amount"] = 2
    campaign = transfer.import_campaign(document, gm)
    assert LedgerEntry.objects.filter(campaign=campaign).count() == 7
    assert Balance.objects.get(kingdom__campaign=campaign, kingdom__name="Red Marches",
                               resource="food").amount == 2


# -- reserved addresses ---------------------------------------------------------------------------


@pytest.mark.parametrize("slug", ["new", "import"])
def test_a_reserved_address_in_the_file_is_refused(gm: User, slug: str) -> None:
    document = fixture("harbour.v1.hexkeep.json")
    document["campaign"]["slug"] = slug
    before = counts()
    with pytest.raises(transfer.ImportRefused) as info:
        transfer.import_campaign(document, gm)
    assert str(info.value) == (
        f"campaign.slug: '{slug}' cannot be a campaign's address: /c/{slug}/ is a page of this "
        "site. Import it under another slug.")
    assert counts() == before
    # Under a free address the same file imports.
    assert transfer.import_campaign(document, gm, slug="harbour").slug == "harbour"


@pytest.mark.parametrize("slug", ["new", "import"])
def test_a_reserved_address_given_for_the_import_is_refused(gm: User, slug: str) -> None:
    before = counts()
    with pytest.raises(transfer.ImportRefused) as info:
        transfer.import_campaign(fixture("harbour.v1.hexkeep.json"), gm, slug=slug)
    assert str(info.value).startswith(f"the new slug: '{slug}' cannot be a campaign's address")
    assert counts() == before


def test_reserved_addresses_follow_the_site_urls(db: Any) -> None:
    """Every fixed page under /c/ is reserved, and a campaign's address is not."""
    assert [s for s in ("new", "import", "harbour", "export", "members")
            if transfer.is_reserved(s)] == ["new", "import"]


# -- rule-system sections -------------------------------------------------------------------------


@pytest.mark.parametrize("change, expected", [
    (lambda d: d["campaign"]["systems"]["mighty-kingdoms"].update(version=2),
     "campaign.systems.mighty-kingdoms.version: this site reads Mighty Kingdoms sections up to "
     "version 1, not version 2."),
    (lambda d: d["campaign"]["systems"]["mighty-kingdoms"].update(version=0),
     "campaign.systems.mighty-kingdoms.version: must be at least 1, got 0."),
    (lambda d: d["campaign"]["systems"]["mighty-kingdoms"].update(version="1"),
     "campaign.systems.mighty-kingdoms.version: expected a whole number, got the string '1'."),
    (lambda d: d["campaign"]["systems"].update({"dragon-wars": {"version": 1}}),
     "campaign.systems.dragon-wars: this is a Mighty Kingdoms campaign; it has no section for "
     "another rule system ('dragon-wars')."),
    (lambda d: d["campaign"].update(systems=[]),
     "campaign.systems: expected an object, got a list."),
    (lambda d: d["campaign"]["systems"].update({"mighty-kingdoms": []}),
     "campaign.systems.mighty-kingdoms: expected an object, got a list."),
    (lambda d: d["campaign"]["systems"]["mighty-kingdoms"]["ships"][0].update(tile="9999"),
     "campaign.systems.mighty-kingdoms.ships[0].tile: no tile labelled '9999' on the map."),
])
def test_a_bad_section_is_refused_with_its_path(gm: User, change: Any, expected: str) -> None:
    document = _harbour_3()
    change(document)
    before = counts()
    with pytest.raises(transfer.ImportRefused) as info:
        transfer.import_campaign(document, gm)
    assert str(info.value) == expected
    assert counts() == before


def test_a_version_3_file_without_its_section_imports_with_none(gm: User) -> None:
    document = _harbour_3()
    document["campaign"].pop("systems")
    campaign = transfer.import_campaign(document, gm)
    assert Ship.objects.filter(campaign=campaign).count() == 0
    assert campaign.state == {f"settled:{campaign.kingdoms.get(name='Gull Isles').pk}": True}
    section = transfer.export_campaign(campaign)["campaign"]["systems"]["mighty-kingdoms"]
    assert section == {"version": 1, **{key: [] for key in MK_LISTS}}


def test_version_3_lists_at_the_top_level_are_not_read(gm: User) -> None:
    """In a version 3 file only the section counts: top-level lists of older versions are
    fields this version does not know, and are ignored."""
    document = _harbour_3()
    document["campaign"]["ships"] = [{"kingdom": "Nobody", "number": 1, "tile": None}]
    campaign = transfer.import_campaign(document, gm)
    assert Ship.objects.filter(campaign=campaign).count() == 2


@pytest.mark.parametrize("slug", list(REGISTRY))
def test_each_system_section_module_meets_the_hook(slug: str) -> None:
    """A system that names a section module provides what campaign.transfer.sections asks."""
    system = get_system(slug)
    module = section_module(system)
    if not system.transfer:
        assert module is None
        return
    assert isinstance(module.SECTION_VERSION, int) and module.SECTION_VERSION >= 1
    for name in ("export_section", "plan_section", "write_section"):
        assert callable(getattr(module, name)), name


def test_mighty_kingdoms_names_its_section_module() -> None:
    assert get_system("mighty-kingdoms").transfer == "campaign.systems.mighty_kingdoms.transfer"


# -- the command's size limit ---------------------------------------------------------------------


def _write(tmp_path: Path) -> tuple[Path, int]:
    source = tmp_path / "harbour.hexkeep.json"
    text = (FIXTURES / "harbour.v1.hexkeep.json").read_bytes()
    source.write_bytes(text)
    return source, len(text)


def test_import_command_refuses_a_file_over_the_web_limit(gm: User, tmp_path: Path,
                                                          settings: Any) -> None:
    source, size = _write(tmp_path)
    settings.MAX_CAMPAIGN_IMPORT_BYTES = size - 1
    before = counts()
    with pytest.raises(CommandError) as info:
        call_command("import_campaign", str(source), "--user", "gm", stdout=io.StringIO())
    assert str(info.value) == (
        f"{source} is {size} bytes, larger than the limit of {size - 1} bytes: nothing was "
        "imported. Pass --max-bytes N to accept a larger file.")
    assert counts() == before


def test_import_command_max_bytes_raises_the_limit(gm: User, tmp_path: Path,
                                                   settings: Any) -> None:
    source, size = _write(tmp_path)
    settings.MAX_CAMPAIGN_IMPORT_BYTES = size - 1
    out = io.StringIO()
    call_command("import_campaign", str(source), "--user", "gm", "--max-bytes", str(size),
                 stdout=out)
    assert "Harbour Wars imported as /c/harbour-wars/." in out.getvalue()
    with pytest.raises(CommandError, match="larger than the limit of 10 bytes"):
        call_command("import_campaign", str(source), "--user", "gm", "--slug", "h2",
                     "--max-bytes", "10", stdout=io.StringIO())
    with pytest.raises(CommandError, match="--max-bytes must be a positive number of bytes"):
        call_command("import_campaign", str(source), "--user", "gm", "--slug", "h2",
                     "--max-bytes", "0", stdout=io.StringIO())
    assert not Campaign.objects.filter(slug="h2").exists()


def test_import_command_limit_is_the_web_limit(gm: User, tmp_path: Path) -> None:
    """Without --max-bytes, the limit is MAX_CAMPAIGN_IMPORT_BYTES (50 MB), as on the web."""
    from django.conf import settings

    assert settings.MAX_CAMPAIGN_IMPORT_BYTES == 50 * 1024 * 1024
    source, _size = _write(tmp_path)
    call_command("import_campaign", str(source), "--user", "gm", stdout=io.StringIO())
    assert Campaign.objects.filter(slug="harbour-wars").exists()
