"""Campaign files: export, import, the GM's buttons and the management commands.

The central promise (DESIGN principle 9): a campaign exports to a versioned JSON file and imports
back exactly, so exporting the imported copy gives the same document. A refused file writes
nothing at all.
"""

from __future__ import annotations

import base64
import copy
import io
import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse
from PIL import Image

from battles.models import Army
from campaign import chronicle, services, transfer
from campaign.models import Campaign, Event, Kingdom, Membership, Photo, Role, Tile
from campaign.systems.mighty_kingdoms.models import Ship
from ledger.models import Balance, LedgerEntry
from tests.campaign.conftest import as_imported, without_import_event
from tests.conftest import MIGHTY_KINGDOMS, make_campaign, make_png, make_user

# Files of Mighty Kingdoms campaigns: the sections in them are that system's.
pytestmark = pytest.mark.system(MIGHTY_KINGDOMS)

# -- helpers ----------------------------------------------------------------------------------


def counts() -> dict[str, int]:
    return {
        "campaigns": Campaign.objects.count(),
        "tiles": Tile.objects.count(),
        "events": Event.objects.count(),
        "kingdoms": Kingdom.objects.count(),
        "memberships": Membership.objects.count(),
        "photos": Photo.objects.count(),
        "entries": LedgerEntry.objects.count(),
    }


def comparable(data: dict[str, Any]) -> dict[str, Any]:
    """The document without what legitimately differs between two exports of copies."""
    data = copy.deepcopy(data)
    data.pop("exported_at")
    data["campaign"].pop("slug")
    return data


def page_text(response: Any) -> str:
    text = re.sub(r"<[^>]+>", " ", response.content.decode())
    return " ".join(text.split()).replace("&#x27;", "'").replace("&quot;", '"')


def upload(content: bytes | str, name: str = "campaign.hexkeep.json") -> SimpleUploadedFile:
    if isinstance(content, str):
        content = content.encode("utf-8")
    return SimpleUploadedFile(name, content, content_type="application/json")


def refused(data: Any, user: User, slug: str | None = "copy") -> str:
    with pytest.raises(transfer.ImportRefused) as info:
        transfer.import_campaign(data, user, slug=slug)
    return str(info.value)


@pytest.fixture
def rich(campaign: Campaign, gm: User, player: User, other_player: User,
         observer: User) -> Campaign:
    """The fixture campaign with something in every part of the file."""
    red = Kingdom.objects.get(campaign=campaign, name="Red")
    blue = Kingdom.objects.get(campaign=campaign, name="Blue")
    services.update_kingdom(red, gm, name="Red", colour="#bb1111", crest=make_png())
    services.update_kingdom(blue, gm, name="Blue", colour="#1111bb",
                            crest=make_png((20, 50), colour="blue"))
    tiles = list(Tile.objects.filter(map__campaign=campaign).order_by("label"))
    first, second, third = tiles[0], tiles[1], tiles[2]
    services.edit_tile(
        first, gm,
        changes={"terrain": "hills", "settlement": "city", "controller": red, "explored": True,
                 "name": "Redhold"},
        edges={"0": ["river"], "3": ["mountain", "forest"]},
        features=["river", "coast"],
    )
    services.edit_tile(second, gm, changes={"controller": blue, "settlement": "village"})
    Tile.objects.filter(pk=third.pk).update(data={"ruins": True, "note": "Ünïcode ✓"})
    Kingdom.objects.filter(pk=red.pk).update(start_tile=first, capital_tile=first,
                                             order_position=1, data={"race": "elves"})
    Kingdom.objects.filter(pk=blue.pk).update(start_tile=second, order_position=2)
    army = Army.objects.create(campaign=campaign, kingdom=red, number=1, name="First Host",
                               tile=first, points=450, defending=True, data={"general": "Ana"})
    Army.objects.create(campaign=campaign, kingdom=red, number=2, tile=None, on_side=True)
    Army.objects.create(campaign=campaign, kingdom=blue, number=1, tile=second, is_allied=True)
    Ship.objects.create(campaign=campaign, kingdom=red, number=1, tile=first, paired_army=army)
    Ship.objects.create(campaign=campaign, kingdom=blue, number=3, tile=None, on_side=True,
                        data={"name": "Gull"})
    # A reversible event that gets undone, and the undo event.
    services.create_kingdom(campaign, gm, name="Green", colour="#00aa00", player=None)
    chronicle.undo_latest(campaign, gm)
    services.add_photo(campaign, player, make_png((64, 48), fmt="JPEG", colour="green"),
                       "The table after turn one")
    booked = services.create_invitation(campaign, gm, role=Role.PLAYER, single_use=False)
    event = campaign.events.order_by("-seq").first()
    assert booked is not None and event is not None
    for kingdom, resource, amount, rule in [
        (red, "gold", 10, "MK-SETUP-3"),
        (red, "food", 4, "MK-SETUP-3"),
        (blue, "gold", 12, "MK-SETUP-3"),
        (red, "gold", -3, "MK-WINTER-2"),
    ]:
        LedgerEntry.objects.create(
            campaign=campaign, kingdom=kingdom, resource=resource, amount=amount, rule_id=rule,
            source=f"{rule}: test", event=event if amount < 0 else None, year=1, season="spring",
        )
    Balance.objects.create(kingdom=red, resource="gold", amount=7)
    Balance.objects.create(kingdom=red, resource="food", amount=4)
    Balance.objects.create(kingdom=blue, resource="gold", amount=12)
    Campaign.objects.filter(pk=campaign.pk).update(state={"passed": ["Blue"], "turn": "Red"})
    campaign.refresh_from_db()
    return campaign


# -- export -----------------------------------------------------------------------------------


def test_export_holds_the_whole_campaign(rich: Campaign) -> None:
    data = transfer.export_campaign(rich)
    assert data["format"] == "hexkeep-campaign" and data["version"] == 4
    assert data["exported_at"].startswith("20")
    body = data["campaign"]
    assert body["slug"] == rich.slug and body["rule_system"] == "mighty-kingdoms"
    assert set(body["clock"]) == {"year", "season", "month", "phase", "sub_phase"}
    assert body["state"] == {"passed": ["Blue"], "turn": "Red"}
    assert [m["username"] for m in body["members"]] == ["gm", "observer", "other", "player"]
    assert "invitations" not in body and "invitation" not in transfer.dumps(data).lower().split(
        '"kind"')[0]
    red = next(k for k in body["kingdoms"] if k["name"] == "Red")
    assert red["player"] == "player" and red["start_tile"] == red["capital_tile"]
    crest = Image.open(io.BytesIO(base64.b64decode(red["crest"])))
    assert crest.format == "PNG" and crest.size == (256, 256)
    assert Image.open(io.BytesIO(base64.b64decode(red["crest_thumb"]))).size == (64, 64)
    tiles = body["map"]["tiles"]
    assert [t["label"] for t in tiles] == sorted(t["label"] for t in tiles)
    assert len(tiles) == 48
    assert tiles[0]["edges"] == {"0": ["river"], "3": ["forest", "mountain"]}
    assert tiles[0]["controller"] == "Red" and tiles[0]["settlement"] == "city"
    mk = body["systems"]["mighty-kingdoms"]
    assert mk["version"] == 1 and [s["paired_army"] for s in mk["ships"]] == [None, 1]
    assert [e["seq"] for e in body["events"]] == sorted(e["seq"] for e in body["events"])
    assert all("changes" not in e and "reversible" not in e for e in body["events"])
    undo = next(e for e in body["events"] if e["kind"] == "undo")
    undone = next(e for e in body["events"] if e["seq"] == undo["undo_of"])
    assert undone["undone_by"] == "gm" and undone["undone_at"]
    assert len(body["ledger"]["entries"]) == 4 and len(body["ledger"]["balances"]) == 3
    assert body["ledger"]["entries"][-1]["event"] is not None
    photo = body["photos"][0]
    assert photo["uploaded_by"] == "player"
    assert Image.open(io.BytesIO(base64.b64decode(photo["image"]))).format == "JPEG"
    # No database ids anywhere: references are names, labels, numbers and usernames.
    keys = set(_all_keys(data))
    assert not {k for k in keys if k in ("id", "pk") or k.endswith("_id")} - {"rule_id"}


def _all_keys(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [k for k in value] + [k for v in value.values() for k in _all_keys(v)]
    if isinstance(value, list):
        return [k for v in value for k in _all_keys(v)]
    return []


def test_dumps_is_stable_sorted_and_utf8(rich: Campaign) -> None:
    data = transfer.export_campaign(rich)
    text = transfer.dumps(data)
    assert text.endswith("}\n") and "Ünïcode ✓" in text
    assert text == json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    assert json.loads(text) == data


# -- round trip -------------------------------------------------------------------------------


def test_round_trip_gives_the_same_document(rich: Campaign, gm: User) -> None:
    first = transfer.export_campaign(rich)
    copy_ = transfer.import_campaign(json.loads(transfer.dumps(first)), gm, slug="copy")
    assert copy_.slug == "copy" and copy_.pk != rich.pk
    second = transfer.export_campaign(Campaign.objects.get(slug="copy"))
    assert without_import_event(second, "gm") == as_imported(first, "gm")
    assert second["campaign"]["slug"] == "copy"


def test_round_trip_of_a_copy_is_exact(rich: Campaign, gm: User) -> None:
    """Exported again by its GM, an imported campaign imports back to the same document: only
    the chronicle grows, by one import event each time."""
    once = transfer.export_campaign(
        transfer.import_campaign(transfer.export_campaign(rich), gm, slug="once"))
    twice = transfer.export_campaign(transfer.import_campaign(once, gm, slug="twice"))
    assert without_import_event(twice, "gm") == comparable(once)


def test_a_gm_only_campaign_round_trips_exactly(gm: User) -> None:
    solo = make_campaign(gm, slug="solo", width=5, height=4, seed=3)
    services.create_kingdom(solo, gm, name="Red", colour="#aa0000", player=None,
                            crest=make_png())
    services.add_photo(solo, gm, make_png(fmt="JPEG"), "Setting up")
    first = transfer.export_campaign(solo)
    second = transfer.export_campaign(transfer.import_campaign(first, gm, slug="solo-copy"))
    assert without_import_event(second, "gm") == comparable(first)
    assert as_imported(first, "gm") == comparable(first)


def test_imported_history_is_read_only(rich: Campaign, gm: User) -> None:
    copy_ = transfer.import_campaign(transfer.export_campaign(rich), gm, slug="copy")
    events = list(copy_.events.all())
    assert len(events) == rich.events.count() + 1
    assert all(not e.reversible and e.changes == [] for e in events)
    imported = events[0]
    assert (imported.kind, imported.actor, imported.seq) == (
        "campaign.imported", gm, rich.events.order_by("-seq").first().seq + 1)
    assert not chronicle.undoable_events(copy_).exists()
    with pytest.raises(chronicle.UndoError):
        chronicle.undo_latest(copy_, gm)
    # New events continue the numbering and can be undone again.
    red = Kingdom.objects.get(campaign=copy_, name="Red")
    services.update_kingdom(red, gm, name="Crimson", colour="#990000")
    latest = copy_.events.order_by("-seq").first()
    assert latest.seq == rich.events.order_by("-seq").first().seq + 2
    chronicle.undo_latest(copy_, gm)
    assert Kingdom.objects.get(pk=red.pk).name == "Red"


def test_import_recreates_rows_and_files(rich: Campaign, gm: User) -> None:
    copy_ = transfer.import_campaign(transfer.export_campaign(rich), gm, slug="copy")
    red = Kingdom.objects.get(campaign=copy_, name="Red")
    original = Kingdom.objects.get(campaign=rich, name="Red")
    assert red.crest.read() == original.crest.read()
    assert red.crest.name != original.crest.name
    assert red.player is None
    assert red.start_tile.label == original.start_tile.label
    assert red.start_tile.map.campaign_id == copy_.pk
    ship = Ship.objects.get(campaign=copy_, kingdom=red, number=1)
    assert ship.paired_army.kingdom_id == red.pk and ship.paired_army.number == 1
    assert ship.tile.map.campaign_id == copy_.pk
    photo = Photo.objects.get(campaign=copy_)
    assert photo.created_at == Photo.objects.get(campaign=rich).created_at
    assert Image.open(photo.thumbnail).size[0] <= 320
    events = {e.seq: e for e in copy_.events.all()}
    for event in rich.events.all():
        assert events[event.seq].created_at == event.created_at
        assert events[event.seq].actor == (gm if event.actor == gm else None)
        assert (events[event.seq].undo_of.seq if events[event.seq].undo_of else None) == (
            event.undo_of.seq if event.undo_of else None
        )
    entry = LedgerEntry.objects.get(campaign=copy_, amount=-3)
    assert entry.event.campaign_id == copy_.pk
    assert not copy_.invitations.exists()
    assert copy_.created_by == gm


def test_only_the_importer_becomes_a_member(rich: Campaign, gm: User) -> None:
    """People named in the file are not made members without their consent, whoever imports."""
    newcomer = make_user("newcomer")
    copy_ = transfer.import_campaign(transfer.export_campaign(rich), newcomer, slug="copy")
    assert list(copy_.memberships.values_list("user__username", "role")) == [("newcomer", "gm")]
    assert not Kingdom.objects.filter(campaign=copy_, player__isnull=False).exists()
    # Nothing in the copy is credited to the file's people, though they have accounts here.
    assert not copy_.events.filter(actor__in=[gm]).exists()
    assert not copy_.events.exclude(kind="campaign.imported").filter(actor__isnull=False).exists()
    assert Photo.objects.get(campaign=copy_).uploaded_by is None
    # And none of them can open it.
    for username in ("gm", "player", "other", "observer"):
        client = Client()
        client.force_login(User.objects.get(username=username))
        assert client.get(reverse("campaign:detail", args=["copy"])).status_code == 404


def test_import_notes_list_the_files_people_without_looking_them_up(rich: Campaign) -> None:
    """The notes repeat what the file says, the same whether a username exists here or not."""
    data = transfer.export_campaign(rich)
    data["campaign"]["members"].append({"username": "nobody-here", "role": "observer"})
    newcomer = make_user("newcomer")
    copy_ = transfer.import_campaign(data, newcomer, slug="copy")
    assert transfer.import_notes(copy_) == [
        "You are the GM of the imported campaign.",
        "The file also names gm (game master), nobody-here (observer), observer (observer), "
        "other (player of Blue), player (player of Red). Nobody joins a campaign without "
        "accepting an invitation: invite them from the Members page; a player who joins can "
        "then claim their kingdom again, or you can give it to them.",
    ]
    event = copy_.events.get(kind="campaign.imported")
    assert event.summary == "newcomer imported the campaign from a file."
    assert event.data == {
        "exported_at": data["exported_at"],
        "file_members": [
            {"username": "gm", "role": "gm", "kingdom": None},
            {"username": "nobody-here", "role": "observer", "kingdom": None},
            {"username": "observer", "role": "observer", "kingdom": None},
            {"username": "other", "role": "player", "kingdom": "Blue"},
            {"username": "player", "role": "player", "kingdom": "Red"},
        ],
    }
    assert (event.visibility, event.reversible, event.actor) == ("public", False, newcomer)


def test_importer_named_in_the_file_is_its_gm(rich: Campaign, observer: User) -> None:
    copy_ = transfer.import_campaign(transfer.export_campaign(rich), observer, slug="copy")
    assert list(copy_.memberships.values_list("user__username", "role")) == [
        ("observer", "gm")]
    notes = " ".join(transfer.import_notes(copy_))
    assert "observer (observer)" not in notes and "player (player of Red)" in notes


def test_invited_again_a_player_claims_their_kingdom(rich: Campaign, gm: User,
                                                    player: User) -> None:
    copy_ = transfer.import_campaign(transfer.export_campaign(rich), gm, slug="copy")
    invitation = services.create_invitation(copy_, gm, role=Role.PLAYER, single_use=True)
    services.accept_invitation(invitation.token, player)
    red = Kingdom.objects.get(campaign=copy_, name="Red")
    services.claim_kingdom(red, player, copy_.memberships.get(user=player))
    assert Kingdom.objects.get(pk=red.pk).player.user == player


# -- refusals ---------------------------------------------------------------------------------


@pytest.fixture
def doc(rich: Campaign) -> dict[str, Any]:
    return json.loads(transfer.dumps(transfer.export_campaign(rich)))


def _tiles(doc: dict[str, Any]) -> list[dict[str, Any]]:
    return doc["campaign"]["map"]["tiles"]


@pytest.mark.parametrize(
    "change, expected",
    [
        (lambda d: d.update(format="something-else"), "not a Hexkeep campaign file"),
        (lambda d: d.pop("format"), "not a Hexkeep campaign file"),
        (lambda d: d.update(version=5),
         "This file is version 5; version 5 is not supported (this site reads versions 1, 2, "
         "3 and 4)"),
        (lambda d: d.update(version=0), "version 0 is not supported"),
        (lambda d: d.update(version="2"),
         "version: expected a whole number (versions 1, 2, 3 and 4), got the string '2'"),
        (lambda d: d.pop("version"),
         "version: expected a whole number (versions 1, 2, 3 and 4), got null"),
        (lambda d: d.pop("campaign"), "The file: the field 'campaign' is missing"),
        (lambda d: d["campaign"].update(rule_system="warhammer-fantasy"),
         "campaign.rule_system: unknown rule system 'warhammer-fantasy'"),
        (lambda d: d["campaign"].update(options={"nonsense": 1}),
         "campaign.options: Unknown option(s): nonsense"),
        (lambda d: d["campaign"].update(name=7),
         "campaign.name: expected a string, got the number 7"),
        (lambda d: d["campaign"]["clock"].update(year="one"),
         "campaign.clock.year: expected a whole number"),
        (lambda d: _tiles(d)[5].update(label=_tiles(d)[4]["label"]),
         "campaign.map.tiles[5].label: tile label '0105' is listed twice "
         "(also at campaign.map.tiles[4].label)"),
        (lambda d: d["campaign"]["map"]["tiles"][12].update(controller="Purple"),
         "campaign.map.tiles[12].controller: no kingdom named 'Purple'"),
        (lambda d: d["campaign"]["map"]["tiles"][3].update(terrain="lava"),
         "campaign.map.tiles[3].terrain: unknown terrain 'lava'"),
        (lambda d: d["campaign"]["map"]["tiles"][3].update(explored="yes"),
         "campaign.map.tiles[3].explored: expected true or false"),
        (lambda d: d["campaign"]["map"]["tiles"][3].update(edges=[]),
         "campaign.map.tiles[3].edges: expected an object, got a list"),
        (lambda d: d["campaign"]["kingdoms"][1].update(start_tile="9999"),
         "campaign.kingdoms[1].start_tile: no tile labelled '9999'"),
        (lambda d: d["campaign"]["kingdoms"][1].update(player="stranger"),
         "campaign.kingdoms[1].player: 'stranger' is not a member"),
        (lambda d: d["campaign"]["kingdoms"][0].update(crest="not base64!"),
         "campaign.kingdoms[0].crest: not valid base64"),
        (lambda d: d["campaign"]["kingdoms"][0].update(crest=base64.b64encode(b"GIF8").decode()),
         "campaign.kingdoms[0].crest: That file is not a readable PNG, JPEG or WebP image"),
        (lambda d: d["campaign"]["photos"][0].update(image=None),
         "campaign.photos[0].image: a photo needs its image"),
        (lambda d: d["campaign"]["members"].append({"username": "gm", "role": "player"}),
         "campaign.members[4].username: member 'gm' is listed twice"),
        (lambda d: d["campaign"]["members"][0].update(role="king"),
         "campaign.members[0].role: 'king' is not one of"),
        (lambda d: d["campaign"]["armies"][0].update(tile="nowhere"),
         "campaign.armies[0].tile: no tile labelled 'nowhere'"),
        (lambda d: d["campaign"]["systems"]["mighty-kingdoms"]["ships"][1].update(paired_army=9),
         "campaign.systems.mighty-kingdoms.ships[1].paired_army: Red has no army #9"),
        (lambda d: d["campaign"]["events"][2].update(seq=1),
         "campaign.events[2].seq: event #1 is listed twice"),
        (lambda d: d["campaign"]["events"][0].update(undo_of=999),
         "campaign.events[0].undo_of: there is no event #999"),
        (lambda d: d["campaign"]["events"][0].update(undo_of=1),
         "campaign.events[0].undo_of: an event cannot undo itself"),
        (lambda d: d["campaign"]["events"][0].update(created_at="yesterday"),
         "campaign.events[0].created_at: 'yesterday' is not an ISO 8601 timestamp"),
        (lambda d: d["campaign"]["ledger"]["entries"][0].update(kingdom="Nobody"),
         "campaign.ledger.entries[0].kingdom: no kingdom named 'Nobody'"),
        (lambda d: d["campaign"]["ledger"]["entries"][3].update(event=999),
         "campaign.ledger.entries[3].event: there is no event #999"),
        (lambda d: d["campaign"]["ledger"]["balances"][0].update(amount=-1),
         "campaign.ledger.balances[0].amount: must be at least 0"),
    ],
)
def test_refused_documents_write_nothing(doc: dict[str, Any], gm: User, change: Any,
                                         expected: str, settings: Any) -> None:
    change(doc)
    before = counts()
    media = sorted(Path(settings.MEDIA_ROOT).rglob("*"))
    message = refused(doc, gm)
    assert expected in message
    assert counts() == before
    assert sorted(Path(settings.MEDIA_ROOT).rglob("*")) == media


@pytest.mark.parametrize("data", [None, [], "text", 3, {"campaign": {}}])
def test_not_a_campaign_file(data: Any, gm: User) -> None:
    assert "not a Hexkeep campaign file" in refused(data, gm)


def test_taken_slug_is_refused_with_advice(doc: dict[str, Any], gm: User) -> None:
    before = counts()
    message = refused(doc, gm, slug=None)
    assert "'test-campaign'" in message and "new slug" in message
    assert "choose another slug" in refused(doc, gm, slug="test-campaign")
    assert "not a valid address" in refused(doc, gm, slug="no spaces please")
    assert counts() == before


def test_minimal_document_imports(gm: User) -> None:
    data = {
        "format": "hexkeep-campaign",
        "version": 1,
        "campaign": {
            "name": "Tiny",
            "slug": "tiny",
            "rule_system": "mighty-kingdoms",
            "clock": {"year": 3, "season": "winter", "phase": "B"},
            "kingdoms": [{"name": "Red"}],
            "map": {"kind": "hex", "width": 1, "height": 1,
                    "tiles": [{"q": 0, "r": 0, "label": "0101", "terrain": "plain",
                               "controller": "Red"}]},
        },
    }
    campaign = transfer.import_campaign(data, gm)
    assert campaign.slug == "tiny" and campaign.year == 3
    assert campaign.memberships.get().user == gm
    assert Tile.objects.get(map__campaign=campaign).controller.name == "Red"
    assert list(campaign.events.values_list("seq", "kind")) == [(1, "campaign.imported")]


# -- the GM's buttons -------------------------------------------------------------------------


def test_export_button_gives_the_gm_an_attachment(rich: Campaign, gm: User, login: Any) -> None:
    response = login(gm).get(reverse("campaign:export", args=[rich.slug]))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    disposition = response["Content-Disposition"]
    assert re.fullmatch(r'attachment; filename="test-campaign-\d{4}-\d\d-\d\d\.hexkeep\.json"',
                        disposition)
    data = json.loads(response.content.decode("utf-8"))
    assert comparable(data) == comparable(transfer.export_campaign(rich))


@pytest.mark.parametrize("persona, status", [("player", 403), ("observer", 403),
                                             ("outsider", 404)])
def test_export_button_is_for_gms_only(rich: Campaign, request: Any, login: Any, persona: str,
                                       status: int) -> None:
    user = request.getfixturevalue(persona)
    response = login(user).get(reverse("campaign:export", args=[rich.slug]))
    assert response.status_code == status
    assert b"hexkeep-campaign" not in response.content


def test_export_button_sends_anonymous_to_login(rich: Campaign, login: Any) -> None:
    response = login(None).get(reverse("campaign:export", args=[rich.slug]))
    assert response.status_code == 302 and "/login/" in response["Location"]


def test_import_page_creates_the_campaign(rich: Campaign, gm: User, login: Any) -> None:
    text = transfer.dumps(transfer.export_campaign(rich))
    response = login(gm).post(reverse("campaign:import"),
                              {"file": upload(text), "slug": "imported"})
    assert response.status_code == 302
    assert response["Location"] == reverse("campaign:detail", args=["imported"])
    imported = Campaign.objects.get(slug="imported")
    assert imported.events.count() == rich.events.count() + 1
    assert Tile.objects.filter(map__campaign=imported).count() == 48


def _bad_files(text: str) -> dict[str, tuple[str, str | None, str]]:
    data = json.loads(text)
    wrong_version = copy.deepcopy(data)
    wrong_version["version"] = 5
    wrong_format = copy.deepcopy(data)
    wrong_format["format"] = "campaign"
    dangling = copy.deepcopy(data)
    dangling["campaign"]["map"]["tiles"][12]["controller"] = "Red "
    return {
        "malformed": (text[: len(text) // 2], "fresh", "This is not a JSON file"),
        "version": (json.dumps(wrong_version), "fresh", "version 5 is not supported"),
        "format": (json.dumps(wrong_format), "fresh", "not a Hexkeep campaign file"),
        "dangling": (json.dumps(dangling), "fresh",
                     "campaign.map.tiles[12].controller: no kingdom named 'Red '"),
        "taken": (text, None, "'test-campaign' of this campaign is already taken"),
    }


@pytest.mark.parametrize("case", ["malformed", "version", "format", "dangling", "taken"])
def test_import_page_refuses_bad_files(rich: Campaign, gm: User, login: Any, case: str,
                                       settings: Any) -> None:
    content, slug, message = _bad_files(transfer.dumps(transfer.export_campaign(rich)))[case]
    before = counts()
    media = sorted(Path(settings.MEDIA_ROOT).rglob("*"))
    payload: dict[str, Any] = {"file": upload(content)}
    if slug:
        payload["slug"] = slug
    response = login(gm).post(reverse("campaign:import"), payload)
    assert response.status_code == 400
    assert message in page_text(response)
    assert counts() == before
    assert sorted(Path(settings.MEDIA_ROOT).rglob("*")) == media


# -- management commands ----------------------------------------------------------------------


def test_export_command_to_stdout_and_file(rich: Campaign, tmp_path: Path) -> None:
    out = io.StringIO()
    call_command("export_campaign", rich.slug, stdout=out)
    data = json.loads(out.getvalue())
    assert comparable(data) == comparable(transfer.export_campaign(rich))
    target = tmp_path / "out.json"
    call_command("export_campaign", rich.slug, "-o", str(target), stdout=io.StringIO(),
                 stderr=io.StringIO())
    text = target.read_text(encoding="utf-8")
    assert comparable(json.loads(text)) == comparable(data)
    with pytest.raises(CommandError, match="no campaign with the slug 'missing'"):
        call_command("export_campaign", "missing", stdout=io.StringIO())


def test_import_command(rich: Campaign, gm: User, tmp_path: Path) -> None:
    source = tmp_path / "campaign.json"
    source.write_text(transfer.dumps(transfer.export_campaign(rich)), encoding="utf-8")
    out = io.StringIO()
    call_command("import_campaign", str(source), "--slug", "from-cli", "--user", "gm", stdout=out)
    assert "imported as /c/from-cli/" in out.getvalue()
    imported = Campaign.objects.get(slug="from-cli")
    assert without_import_event(transfer.export_campaign(imported), "gm") == as_imported(
        transfer.export_campaign(rich), "gm")


def test_import_command_defaults_to_the_first_superuser(rich: Campaign, admin_user: User,
                                                        tmp_path: Path) -> None:
    source = tmp_path / "campaign.json"
    source.write_text(transfer.dumps(transfer.export_campaign(rich)), encoding="utf-8")
    call_command("import_campaign", str(source), "--slug", "by-admin", stdout=io.StringIO())
    imported = Campaign.objects.get(slug="by-admin")
    assert imported.memberships.get(user=admin_user).role == Role.GM


def test_import_command_refusals_write_nothing(rich: Campaign, gm: User, tmp_path: Path) -> None:
    data = transfer.export_campaign(rich)
    data["version"] = 5
    source = tmp_path / "campaign.json"
    source.write_text(transfer.dumps(data), encoding="utf-8")
    before = counts()
    with pytest.raises(CommandError, match=r"version 5 is not supported"):
        call_command("import_campaign", str(source), "--slug", "x", "--user", "gm",
                     stdout=io.StringIO())
    with pytest.raises(CommandError, match="no superuser"):
        call_command("import_campaign", str(source), stdout=io.StringIO())
    with pytest.raises(CommandError, match="no user called 'nobody'"):
        call_command("import_campaign", str(source), "--user", "nobody", stdout=io.StringIO())
    (tmp_path / "broken.json").write_text("{", encoding="utf-8")
    with pytest.raises(CommandError, match="is not a JSON file"):
        call_command("import_campaign", str(tmp_path / "broken.json"), "--user", "gm",
                     stdout=io.StringIO())
    with pytest.raises(CommandError, match="Cannot read"):
        call_command("import_campaign", str(tmp_path / "absent.json"), "--user", "gm",
                     stdout=io.StringIO())
    assert counts() == before


# -- size -------------------------------------------------------------------------------------


def test_large_campaign_round_trip_is_quick(gm: User) -> None:
    big = make_campaign(gm, slug="big", width=50, height=40, seed=11)
    red = Kingdom.objects.create(campaign=big, name="Red")
    last = big.events.order_by("-seq").first().seq
    Event.objects.bulk_create(
        Event(campaign=big, seq=last + i, kind="note", summary=f"Note {i}", kingdom=red,
              visibility="kingdom", dice=[{"purpose": "x", "values": [i % 6 + 1]}])
        for i in range(1, 2001)
    )
    Tile.objects.filter(map__campaign=big, label__startswith="01").update(controller=red)
    started = time.perf_counter()
    data = json.loads(transfer.dumps(transfer.export_campaign(big)))
    copy_ = transfer.import_campaign(data, gm, slug="big-copy")
    elapsed = time.perf_counter() - started
    assert Tile.objects.filter(map__campaign=copy_).count() == 2000
    assert copy_.events.count() == 2002
    assert without_import_event(transfer.export_campaign(copy_), "gm") == as_imported(data, "gm")
    assert elapsed < 10, f"export and import of 2,000 tiles took {elapsed:.1f} s"


def test_the_example_in_the_documentation_imports(db: Any) -> None:
    doc_path = Path(__file__).resolve().parents[2] / "docs" / "campaign-file.md"
    example = doc_path.read_text(encoding="utf-8").split("## A short example")[1]
    data = json.loads(example.split("```json")[1].split("```")[0])
    ana = make_user("ana")
    campaign = transfer.import_campaign(data, ana)
    exported = transfer.export_campaign(campaign)
    # Ana was the file's only member, its GM: her copy exports to the same document again.
    assert without_import_event(exported, "ana") == comparable(data)


def test_crest_in_another_format_is_stored_as_png(doc: dict[str, Any], gm: User) -> None:
    buffer = make_png((30, 30), fmt="JPEG")
    doc["campaign"]["kingdoms"][0]["crest"] = base64.b64encode(buffer.getvalue()).decode()
    copy_ = transfer.import_campaign(doc, gm, slug="copy")
    crest = Kingdom.objects.get(campaign=copy_, name=doc["campaign"]["kingdoms"][0]["name"]).crest
    assert Image.open(crest).format == "PNG"
