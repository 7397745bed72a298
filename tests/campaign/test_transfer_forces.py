"""Campaign files, version 2: battles, army lists, units, Unit Strength, orders, tithes,
purchases, magical artefacts and Wizard's quests travel with the campaign, and the database ids
kept inside JSON fields are carried as natural keys and come back as the new campaign's ids.
"""

from __future__ import annotations

import copy
import json
import re
from io import StringIO
from pathlib import Path
from typing import Any, Callable

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import models
from django.urls import reverse

from battles.models import Army, ArmyList, Battle, Unit, UnitStrengthEvent
from campaign import chronicle, services, transfer
from campaign.models import Campaign, Event, Kingdom, Membership, Photo, Role, Tile
from campaign.systems.mighty_kingdoms import advanced, phases
from campaign.systems.mighty_kingdoms.models import (
    Artefact,
    Order,
    Purchase,
    Ship,
    Tithe,
    WizardQuest,
)
from campaign.systems.mighty_kingdoms.rules import campaign as mk
from campaign.systems.mighty_kingdoms.state import load_state
from ledger.models import Balance, LedgerEntry
from tests.campaign.conftest import as_imported, seat_again, without_import_event
from tests.conftest import MIGHTY_KINGDOMS, add_member, make_campaign
from tests.mk.test_quests import fixed_list

# Files of Mighty Kingdoms campaigns: the sections in them are that system's.
pytestmark = pytest.mark.system(MIGHTY_KINGDOMS)

MODELS: tuple[type[models.Model], ...] = (
    Campaign, Membership, Kingdom, Tile, Army, Ship, Event, LedgerEntry, Balance, Photo,
    Battle, ArmyList, Unit, UnitStrengthEvent, Order, Tithe, Purchase, Artefact, WizardQuest,
)


def counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in MODELS}


def campaign_counts(campaign: Campaign) -> dict[str, int]:
    """How many rows of each model belong to ``campaign``."""
    paths = {
        Campaign: "pk", Membership: "campaign", Kingdom: "campaign", Tile: "map__campaign",
        Army: "campaign", Ship: "campaign", Event: "campaign", LedgerEntry: "campaign",
        Balance: "kingdom__campaign", Photo: "campaign", Battle: "campaign",
        ArmyList: "army__campaign", Unit: "army_list__army__campaign",
        UnitStrengthEvent: "unit__army_list__army__campaign", Order: "campaign",
        Tithe: "campaign", Purchase: "campaign", Artefact: "campaign", WizardQuest: "campaign",
    }
    value = campaign.pk
    return {model.__name__: model.objects.filter(**{paths[model]: value}).count()
            for model in MODELS}


def comparable(data: dict[str, Any]) -> dict[str, Any]:
    data = copy.deepcopy(data)
    data.pop("exported_at")
    data["campaign"].pop("slug")
    return data


def _event(campaign: Campaign, kind: str, summary: str, data: dict[str, Any],
           **extra: Any) -> Event:
    last = campaign.events.order_by("-seq").values_list("seq", flat=True).first() or 0
    return Event.objects.create(campaign=campaign, seq=last + 1, kind=kind, summary=summary,
                                data=data, reversible=False, **extra)


def add_forces(campaign: Campaign) -> dict[str, Any]:
    """Battles, army lists, units, Unit Strength marks, orders, a tithe and a purchase, with
    database ids inside their JSON the way the Mighty Kingdoms services write them."""
    first, second = Kingdom.objects.filter(campaign=campaign).order_by("name")[:2]
    a1 = Army.objects.filter(kingdom=first).order_by("number").first()
    a2 = Army.objects.filter(kingdom=second).order_by("number").first()
    assert a1 is not None and a2 is not None and a1.tile is not None
    ship = Ship.objects.filter(kingdom=second).order_by("number").first()
    if ship is None:
        ship = Ship.objects.create(campaign=campaign, kingdom=second, number=1, tile=a2.tile)
    tile = a1.tile
    target = Tile.objects.filter(map__campaign=campaign).exclude(pk=tile.pk).order_by("label")[0]
    t1, t2, pair = f"army:{a1.pk}", f"army:{a2.pk}", f"pair:{ship.pk}"
    fought = Battle.objects.create(
        campaign=campaign, year=9, month=2, seq=1, tile=tile, kind="land", mode="simple",
        chooser=first, opponent=second, status=Battle.Status.RESOLVED, result_chooser="win",
        result_opponent="loss",
        data={
            "legal_kinds": ["land"], "chooser_fighters": [t1], "opponent_fighters": [t2, pair],
            "tokens": {t1: "army #1", t2: "army #1", pair: "ship #1 with army #1"},
            "board": "6x4", "defended": {"kingdom": second.pk, "row": "one"},
            "control": [second.pk, first.pk], "removed": ["army #1"], "destroyed": [],
            "retreated": [["army #1", target.label]],
            "retreats": {t2: {"kingdom": second.pk, "name": "army #1",
                              "options": [target.label], "crowded": [], "on_side": True}},
            "winner_move": {"kingdom": first.pk,
                            "tokens": {t1: {"name": "army #1", "options": [target.label]}},
                            "done": None},
            "play": {"type": "simple", "defence_mode": "points",
                     "sides": {"attacker": {"kingdom": first.pk, "dice": [6, 5],
                                            "source": "table",
                                            "armies": [{"id": t1, "points": 500}]},
                               "defender": {"kingdom": second.pk, "dice": [1, 2],
                                            "source": "server",
                                            "armies": [{"id": t2, "points": 500}]}},
                     "steps": [["attacker", 0, t2]], "final": {t1: 500, t2: 400}},
        },
    )
    pending = Battle.objects.create(
        campaign=campaign, year=9, month=3, seq=1, tile=target, kind="naval",
        chooser=second, opponent=first, data={"chooser_fighters": [pair], "winner_move": None},
    )
    listed = ArmyList.objects.create(army=a1, race="Elves", points_limit=500, fixed_at=fought
                                     .created_at, revealed_at_battle=fought, year=9,
                                     season="summer", month=1, phase="A")
    draft = ArmyList.objects.create(army=a2, race="Dwarfs", allied=True, year=9)
    spears = Unit.objects.create(army_list=listed, position=1, name="Spearmen",
                                 unit_type="Regiment", points=120, base_us=2,
                                 keywords=["infantry", "shield"], magic_item="Brew of Haste")
    hero = Unit.objects.create(army_list=listed, position=2, name="Sea Lord", unit_type="Hero",
                               points=90, living_legend=True, artefact="Crown of the Deep")
    lost = Unit.objects.create(army_list=listed, position=4, name="Archers", unit_type="Troop",
                               points=70, base_us=1, destroyed_year=9, destroyed_season="summer",
                               destroyed_month=2, destroyed_phase="D",
                               destroyed_reason=Unit.Reason.BATTLE)
    Unit.objects.create(army_list=draft, position=1, name="Ironclad", unit_type="Regiment",
                        points=130, allied=True)
    fight = _event(campaign, "summer.battle_result", "The battle is fought.",
                   {"battle": fought.pk, "play": fought.data["play"]},
                   dice=[{"purpose": "attack", "values": [6, 5], "source": "table"}])
    marks = _event(campaign, "unit_strength.battle", "Unit Strength after the battle.",
                   {"battle": fought.pk})
    _event(campaign, "army_list.written", "A list is written.", {"army": a1.pk},
           visibility="kingdom", kingdom=first)
    UnitStrengthEvent.objects.create(unit=spears, battle=fought, delta=1, reason="routed_enemy",
                                     year=9, season="summer", month=2, phase="D", event=marks)
    UnitStrengthEvent.objects.create(unit=lost, battle=fought, delta=-1, reason="routed",
                                     year=9, season="summer", month=2, phase="D", event=marks)
    UnitStrengthEvent.objects.create(unit=spears, delta=-1, reason="quest", year=9,
                                     season="summer", month=3, phase="B")
    tithe = _event(campaign, "winter.tithe", f"{first.name} tithes.",
                   {"giver": first.pk, "receiver": second.pk, "gold": 1, "food": 1})
    Tithe.objects.create(campaign=campaign, year=9, giver=first, receiver=second, gold=1, food=1,
                         event=tithe)
    bought = _event(campaign, "winter.buy", "A fortress.", {"kind": "settle"})
    Purchase.objects.create(campaign=campaign, year=9, kingdom=second, kind="settle",
                            tile_label=target.label, from_state="village", to_state="fortress",
                            gold=2, food=1, seq=1, event=bought)
    Order.objects.create(
        campaign=campaign, kingdom=first, year=9, month=1, token=t1, army=a1, kind="move",
        from_tile=tile, target=target, given_seq=1, resolved_seq=2,
        outcome={"token_name": "army #1", "control": [None, first.pk], "tile": target.label,
                 "dice": [4, 5], "source": "table"},
    )
    Order.objects.create(campaign=campaign, kingdom=second, year=9, month=1, token=pair,
                         ship=ship, army=None, kind="defend", from_tile=ship.tile, given_seq=2)
    winter = campaign.state.get("winter") or {
        "year": 9, "recall": {str(second.pk): {"armies": True}},
        "cycles": {"tithe": [[first.pk, False], [second.pk, True]], "buy": []},
        "fed": {str(first.pk): {"fed": [1], "unfed": []}},
        "deploy": {"order": [second.pk, first.pk], "rolls": {str(first.pk): [6]},
                   "placed": {str(a1.pk): tile.label}, "last": first.pk},
    }
    Campaign.objects.filter(pk=campaign.pk).update(
        state={**campaign.state, f"settled:{first.pk}": True, "winter": winter},
    )
    campaign.refresh_from_db()
    return {"first": first, "second": second, "fought": fought, "pending": pending,
            "fight": fight, "hero": hero}


@pytest.fixture
def small(campaign: Campaign, gm: User, player: User, other_player: User) -> Campaign:
    """The test campaign (Red and Blue) with an army each and every kind of force row."""
    tiles = list(Tile.objects.filter(map__campaign=campaign).order_by("label"))
    red = Kingdom.objects.get(campaign=campaign, name="Red")
    blue = Kingdom.objects.get(campaign=campaign, name="Blue")
    Army.objects.create(campaign=campaign, kingdom=red, number=1, tile=tiles[0])
    Army.objects.create(campaign=campaign, kingdom=red, number=2, tile=tiles[3])
    Army.objects.create(campaign=campaign, kingdom=blue, number=1, tile=tiles[0])
    add_forces(campaign)
    return campaign


@pytest.fixture
def doc(small: Campaign) -> dict[str, Any]:
    return json.loads(transfer.dumps(transfer.export_campaign(small)))


@pytest.fixture
def demo(db: Any) -> Campaign:
    """The demo campaign, played into its second winter, plus battles and army lists."""
    call_command("load_demo", "--on-a-live-site", stdout=StringIO())
    campaign = Campaign.objects.get(slug="shattered-coast")
    add_forces(campaign)
    return campaign


# Mighty Kingdoms' section of a version 3 file, and the prefix of its paths in messages.
MK = "campaign.systems.mighty-kingdoms."


def _mk(doc: dict[str, Any]) -> dict[str, Any]:
    """The Mighty Kingdoms section of a document (or of its ``campaign``)."""
    body = doc["campaign"] if "campaign" in doc else doc
    return body["systems"]["mighty-kingdoms"]


# -- export ---------------------------------------------------------------------------------------


def test_export_carries_natural_keys_not_ids(small: Campaign) -> None:
    data = transfer.export_campaign(small)
    body = data["campaign"]
    assert data["version"] == 4 and _mk(body)["version"] == 1
    red, blue = Army.objects.get(kingdom__name="Red", number=1), Army.objects.get(
        kingdom__name="Blue", number=1)
    fought = body["battles"][0]
    assert [(b["year"], b["month"], b["seq"]) for b in body["battles"]] == [(9, 2, 1), (9, 3, 1)]
    assert (fought["chooser"], fought["opponent"], fought["status"]) == ("Blue", "Red",
                                                                           "resolved")
    assert fought["data"]["chooser_fighters"] == ["army:Blue#1"]
    assert fought["data"]["opponent_fighters"] == ["army:Red#1", "pair:Red#1"]
    assert fought["data"]["tokens"] == {"army:Blue#1": "army #1", "army:Red#1": "army #1",
                                        "pair:Red#1": "ship #1 with army #1"}
    assert fought["data"]["control"] == ["Red", "Blue"]
    assert fought["data"]["defended"] == {"kingdom": "Red", "row": "one"}
    assert fought["data"]["retreats"]["army:Red#1"]["kingdom"] == "Red"
    assert fought["data"]["winner_move"]["kingdom"] == "Blue"
    assert fought["data"]["play"]["sides"]["attacker"]["kingdom"] == "Blue"
    assert fought["data"]["play"]["final"] == {"army:Blue#1": 500, "army:Red#1": 400}
    assert fought["data"]["play"]["steps"] == [["attacker", 0, "army:Red#1"]]
    lists = body["army_lists"]
    assert [(a["kingdom"], a["army"]) for a in lists] == [("Blue", 1), ("Red", 1)]
    assert lists[0]["revealed_at_battle"] == "9/2/1" and lists[1]["revealed_at_battle"] is None
    units = lists[0]["units"]
    assert [u["position"] for u in units] == [1, 2, 4]
    assert units[0]["strength"] == [
        {"delta": 1, "reason": "routed_enemy", "battle": "9/2/1", "event": units[0]["strength"][
            0]["event"], "clock": {"year": 9, "season": "summer", "month": 2, "phase": "D"}},
        {"delta": -1, "reason": "quest", "battle": None, "event": None,
         "clock": {"year": 9, "season": "summer", "month": 3, "phase": "B"}},
    ]
    assert units[2]["destroyed"] == {"reason": "battle", "clock": {
        "year": 9, "season": "summer", "month": 2, "phase": "D"}}
    assert units[0]["destroyed"] is None
    assert [(o["kingdom"], o["token"], o["army"], o["ship"]) for o in _mk(body)["orders"]] == [
        ("Blue", "army:Blue#1", "Blue#1", None), ("Red", "pair:Red#1", None, "Red#1")]
    assert _mk(body)["orders"][0]["outcome"]["control"] == [None, "Blue"]
    assert _mk(body)["tithes"] == [{"year": 9, "giver": "Blue", "receiver": "Red", "gold": 1,
                               "food": 1, "event": _mk(body)["tithes"][0]["event"]}]
    assert _mk(body)["purchases"][0]["kingdom"] == "Red"
    purchase = _mk(body)["purchases"][0]
    assert purchase["tile_label"] and purchase["event"] is not None
    state = body["state"]
    assert state["settled:Blue"] is True
    assert state["winter"]["cycles"]["tithe"] == [["Blue", False], ["Red", True]]
    assert state["winter"]["recall"] == {"Red": {"armies": True}}
    assert state["winter"]["deploy"] == {"order": ["Red", "Blue"], "rolls": {"Blue": [6]},
                                         "placed": {"Blue#1": state["winter"]["deploy"]["placed"][
                                             "Blue#1"]}, "last": "Blue"}
    by_kind = {e["kind"]: e["data"] for e in body["events"]}
    assert by_kind["winter.tithe"] == {"giver": "Blue", "receiver": "Red", "gold": 1, "food": 1}
    assert by_kind["army_list.written"] == {"army": "Blue#1"}
    assert by_kind["unit_strength.battle"] == {"battle": "9/2/1"}
    assert by_kind["summer.battle_result"]["battle"] == "9/2/1"
    assert by_kind["summer.battle_result"]["play"]["sides"]["defender"]["kingdom"] == "Red"
    text = transfer.dumps(data)
    assert not re.search(r'"(army|ship|pair):\d+"', text)
    assert f"settled:{red.kingdom_id}" not in text and f"settled:{blue.kingdom_id}" not in text


def test_export_of_a_dangling_id_is_null(small: Campaign) -> None:
    """An id naming nothing in the campaign (a row an undo removed) is not carried over."""
    event = _event(small, "army_list.written", "Gone.", {"army": 99999})
    Battle.objects.filter(campaign=small, seq=1, month=2).update(
        data={"chooser_fighters": ["army:99999"], "retreats": {"army:99999": {"kingdom": 1}}})
    body = transfer.export_campaign(small)["campaign"]
    assert next(e for e in body["events"] if e["seq"] == event.seq)["data"] == {"army": None}
    assert body["battles"][0]["data"] == {"chooser_fighters": [None], "retreats": {}}


# -- round trip of the played demo ----------------------------------------------------------------


def test_demo_round_trip_keeps_every_row(demo: Campaign, login: Callable[..., Any]) -> None:
    gm, alice = User.objects.get(username="gm"), User.objects.get(username="alice")
    first = transfer.export_campaign(demo)
    body = first["campaign"]
    assert len(_mk(body)["orders"]) == Order.objects.filter(campaign=demo).count() > 70
    before = campaign_counts(demo)
    assert before["Purchase"] >= 9 and before["Battle"] >= 2 and before["Unit"] >= 4

    copy_ = transfer.import_campaign(json.loads(transfer.dumps(first)), gm, slug="coast-copy")
    second = transfer.export_campaign(Campaign.objects.get(slug="coast-copy"))
    assert without_import_event(second, "gm") == as_imported(first, "gm")
    assert campaign_counts(copy_) == before | {"Event": before["Event"] + 1, "Membership": 1}
    # The GM invites the players back and they take their kingdoms again.
    seat_again(copy_, demo)

    # Balances and ledger are the same, kingdom by kingdom.
    def balances(campaign: Campaign) -> dict[tuple[str, str], int]:
        return {(b.kingdom.name, b.resource): b.amount
                for b in Balance.objects.filter(kingdom__campaign=campaign)
                .select_related("kingdom")}

    assert balances(copy_) == balances(demo)

    # The JSON fields name the copy's own rows.
    def army(campaign: Campaign, name: str, number: int) -> Army:
        return Army.objects.get(campaign=campaign, kingdom__name=name, number=number)

    names = {k.pk: k.name for k in Kingdom.objects.filter(campaign=copy_)}
    old_names = {k.pk: k.name for k in Kingdom.objects.filter(campaign=demo)}
    fought = Battle.objects.get(campaign=copy_, year=9, month=2, seq=1)
    source = Battle.objects.get(campaign=demo, year=9, month=2, seq=1)
    first_army = army(copy_, fought.chooser.name, 1)
    assert fought.data["chooser_fighters"] == [f"army:{first_army.pk}"]
    assert [names[k] for k in fought.data["control"]] == [old_names[k] for k in
                                                          source.data["control"]]
    assert fought.data["play"]["sides"]["attacker"]["kingdom"] == fought.chooser_id
    assert fought.data["play"]["final"][f"army:{first_army.pk}"] == 500
    state, old = copy_.state, demo.state
    assert {k for k in state if k.startswith("settled:")} == {
        f"settled:{k.pk}" for k in Kingdom.objects.filter(campaign=copy_)}
    assert [[names[pk], passed] for pk, passed in state["winter"]["cycles"]["buy"]] == [
        [old_names[pk], passed] for pk, passed in old["winter"]["cycles"]["buy"]]
    assert [names[pk] for pk, _passed in state["winter"]["cycles"]["tithe"]] == [
        old_names[pk] for pk, _passed in old["winter"]["cycles"]["tithe"]]
    for order in Order.objects.filter(campaign=copy_).select_related("army", "ship"):
        mover = order.army or order.ship
        assert mover is not None and mover.campaign_id == copy_.pk
        assert order.token in (f"army:{order.army_id}", f"ship:{order.ship_id}",
                               f"pair:{order.ship_id}")
    tithe_event = Event.objects.get(campaign=copy_, kind="winter.tithe")
    assert names[tithe_event.data["giver"]] == fought.chooser.name
    assert Tithe.objects.get(campaign=copy_, year=9).event == tithe_event

    # Army lists, units and Unit Strength history.
    def lists(campaign: Campaign) -> list[tuple[Any, ...]]:
        return [
            (u.army_list.army.kingdom.name, u.army_list.army.number, u.army_list.race,
             u.army_list.fixed_at, u.army_list.revealed_at_battle and (
                 u.army_list.revealed_at_battle.year, u.army_list.revealed_at_battle.seq),
             u.position, u.name, u.points, u.base_us, u.keywords, u.artefact, u.destroyed_reason,
             [(e.delta, e.reason, e.battle and e.battle.seq, e.event and e.event.seq)
              for e in u.us_events.order_by("pk")])
            for u in Unit.objects.filter(army_list__army__campaign=campaign)
            .order_by("army_list__army__kingdom__name", "army_list__army__number", "position")
        ]

    assert lists(copy_) == lists(demo)
    assert [(b.kind, b.status, b.result_chooser, b.created_at) for b in
            Battle.objects.filter(campaign=copy_)] == [
        (b.kind, b.status, b.result_chooser, b.created_at) for b in
        Battle.objects.filter(campaign=demo)]
    fight = Event.objects.get(campaign=copy_, kind="summer.battle_result", data__battle=fought.pk)
    assert fight.dice == [{"purpose": "attack", "values": [6, 5], "source": "table"}]

    # The game goes on where it stopped: the same kingdom is to buy.
    def to_buy(campaign: Campaign) -> str:
        fresh = Campaign.objects.get(pk=campaign.pk)
        handler = phases.handler_for(fresh)
        assert handler.turn is not None
        pk = handler.turn(load_state(fresh))
        assert pk is not None
        return Kingdom.objects.get(pk=pk).name

    assert to_buy(copy_) == to_buy(demo)

    # Every other demo campaign makes the same round trip.
    for other in Campaign.objects.exclude(pk__in=[demo.pk, copy_.pk]):
        exported = transfer.export_campaign(other)
        again = transfer.import_campaign(exported, gm, slug=f"{other.slug}-copy")
        assert without_import_event(transfer.export_campaign(again), "gm") == as_imported(
            exported, "gm")
        seat_again(again, other)
        assert campaign_counts(again) == campaign_counts(other) | {
            "Event": campaign_counts(other)["Event"] + 1}

    # Pages of the copy render for the GM and a player.
    alice_kingdom = Kingdom.objects.get(campaign=copy_, player__user=alice)
    alice_army = Army.objects.filter(kingdom=alice_kingdom).order_by("number").first()
    assert alice_army is not None
    pages = [
        reverse("campaign:play", args=[copy_.slug]),
        reverse("campaign:detail", args=[copy_.slug]),
        reverse("campaign:chronicle", args=[copy_.slug]),
        reverse("campaign:kingdom", args=[copy_.slug, alice_kingdom.pk]),
        reverse("campaign:ledger:index", args=[copy_.slug]),
        reverse("campaign:ledger:kingdom", args=[copy_.slug, alice_kingdom.pk]),
        reverse("mk:armies:index", args=[copy_.slug]),
        reverse("mk:armies:army", args=[copy_.slug, alice_army.pk]),
    ]
    gm_only = [reverse("mk:armies:battle", args=[copy_.slug, fought.pk])]
    for user, urls in ((gm, pages + gm_only), (alice, pages)):
        client = login(user)
        for url in urls:
            assert client.get(url, follow=True).status_code == 200, (user.username, url)


def test_undo_right_after_import_is_refused(demo: Campaign, login: Callable[..., Any]) -> None:
    gm = User.objects.get(username="gm")
    copy_ = transfer.import_campaign(transfer.export_campaign(demo), gm, slug="coast-copy")
    assert not Event.objects.filter(campaign=copy_, reversible=True).exists()
    exported = transfer.export_campaign(copy_)
    latest = copy_.events.order_by("-seq").first()
    assert latest is not None and latest.kind == "campaign.imported"
    with pytest.raises(chronicle.UndoError, match="There is nothing left to undo."):
        chronicle.undo_latest(copy_, gm)
    response = login(gm).post(reverse("campaign:undo", args=[copy_.slug]),
                              {"seq": str(latest.seq)})
    assert response.status_code == 409
    assert "There is nothing left to undo." in response.content.decode()
    assert comparable(transfer.export_campaign(copy_)) == comparable(exported)

    # A change made after the import can be undone, and then undo stops at the import again.
    services.create_invitation(copy_, gm, role="player", single_use=True)
    undo = chronicle.undo_latest(copy_, gm)
    assert undo.undo_of is not None and undo.undo_of.kind == "invitation.created"
    with pytest.raises(chronicle.UndoError, match="There is nothing left to undo."):
        chronicle.undo_latest(copy_, gm)
    assert campaign_counts(copy_) == campaign_counts(demo) | {
        "Event": campaign_counts(demo)["Event"] + 3, "Membership": 1}


# -- version 1 ------------------------------------------------------------------------------------


def test_version_1_file_imports_with_empty_new_sections(doc: dict[str, Any], gm: User) -> None:
    # Version 1 kept ships at the top level of "campaign" and had no other section.
    doc["campaign"]["ships"] = doc["campaign"].pop("systems")["mighty-kingdoms"]["ships"]
    for key in ("battles", "army_lists"):
        doc["campaign"].pop(key)
    doc["version"] = 1
    doc["campaign"]["state"] = {"settled:3": True}
    doc["campaign"]["events"][-1]["data"] = {"giver": 3}
    copy_ = transfer.import_campaign(doc, gm, slug="old")
    counted = campaign_counts(copy_)
    assert [counted[m] for m in ("Battle", "ArmyList", "Unit", "UnitStrengthEvent", "Order",
                                 "Tithe", "Purchase")] == [0] * 7
    assert counted["Army"] == 3 and counted["Ship"] == 1
    # A version 1 file carried these JSON fields as they were, and they are read as they are.
    assert copy_.state == {"settled:3": True}
    assert copy_.events.exclude(kind="campaign.imported").order_by("-seq").first().data == {
        "giver": 3}
    assert transfer.export_campaign(copy_)["version"] == 4


# -- refusals -------------------------------------------------------------------------------------


def _c(doc: dict[str, Any]) -> dict[str, Any]:
    return doc["campaign"]


def _unit(doc: dict[str, Any], i: int = 0) -> dict[str, Any]:
    return _c(doc)["army_lists"][0]["units"][i]


def _tithe_event(doc: dict[str, Any]) -> dict[str, Any]:
    return next(e for e in _c(doc)["events"] if e["kind"] == "winter.tithe")


REFUSALS: list[tuple[str, Callable[[dict[str, Any]], Any], str]] = [
    ("battle chooser", lambda d: _c(d)["battles"][0].update(chooser="Purple"),
     "campaign.battles[0].chooser: no kingdom named 'Purple'."),
    ("battle tile", lambda d: _c(d)["battles"][1].update(tile="9999"),
     "campaign.battles[1].tile: no tile labelled '9999' on the map."),
    ("battle tile null", lambda d: _c(d)["battles"][1].update(tile=None),
     "campaign.battles[1].tile: expected a string, got null."),
    ("battle twice", lambda d: _c(d)["battles"][1].update(month=2),
     "campaign.battles[1]: battle 9/2/1 is listed twice (also at campaign.battles[0])."),
    ("battle seq type", lambda d: _c(d)["battles"][0].update(seq="1"),
     "campaign.battles[0].seq: expected a whole number, got the string '1'."),
    ("battle status", lambda d: _c(d)["battles"][0].update(status="won"),
     "campaign.battles[0].status: 'won' is not one of 'pending', 'resolved'."),
    ("battle data type", lambda d: _c(d)["battles"][0].update(data=[]),
     "campaign.battles[0].data: expected an object, got a list."),
    ("battle data token", lambda d: _c(d)["battles"][0]["data"].update(
        chooser_fighters=["army:Purple#1"]),
     "campaign.battles[0].data.chooser_fighters[0]: no army 'Purple#1' in this file."),
    ("battle data kingdom", lambda d: _c(d)["battles"][0]["data"]["winner_move"].update(
        kingdom="Purple"),
     "campaign.battles[0].data.winner_move.kingdom: no kingdom named 'Purple' in this file."),
    ("battle data id", lambda d: _c(d)["battles"][0]["data"].update(control=[4, "Red"]),
     "campaign.battles[0].data.control[0]: expected a kingdom reference or null, "
     "got the number 4."),
    ("battle data unit", lambda d: _c(d)["battles"][0]["data"].update(
        unit_results={"Blue#1/9": {"routed": True}}),
     "campaign.battles[0].data.unit_results['Blue#1/9']: no unit 'Blue#1/9' in this file."),
    ("list army", lambda d: _c(d)["army_lists"][0].update(army=7),
     "campaign.army_lists[0].army: Blue has no army #7."),
    ("list kingdom", lambda d: _c(d)["army_lists"][0].update(kingdom="Purple"),
     "campaign.army_lists[0].kingdom: no kingdom named 'Purple'."),
    ("list twice", lambda d: _c(d)["army_lists"].append(copy.deepcopy(_c(d)["army_lists"][0])),
     "campaign.army_lists[2]: the list of army #1 of Blue is listed twice "
     "(also at campaign.army_lists[0])."),
    ("list battle", lambda d: _c(d)["army_lists"][0].update(revealed_at_battle="1/1/1"),
     "campaign.army_lists[0].revealed_at_battle: no battle '1/1/1' in this file."),
    ("list fixed", lambda d: _c(d)["army_lists"][0].update(fixed_at="soon"),
     "campaign.army_lists[0].fixed_at: 'soon' is not an ISO 8601 timestamp."),
    ("unit position", lambda d: _unit(d, 1).update(position=1),
     "campaign.army_lists[0].units[1].position: unit position 1 is listed twice "
     "(also at campaign.army_lists[0].units[0].position)."),
    ("unit points", lambda d: _unit(d).update(points=-5),
     "campaign.army_lists[0].units[0].points: must be at least 0, got -5."),
    ("unit keywords", lambda d: _unit(d).update(keywords="infantry"),
     "campaign.army_lists[0].units[0].keywords: expected a list, got the string 'infantry'."),
    ("unit destroyed", lambda d: _unit(d, 2)["destroyed"].update(reason="bored"),
     "campaign.army_lists[0].units[2].destroyed.reason: 'bored' is not one of"),
    ("strength delta", lambda d: _unit(d)["strength"][0].update(delta=2),
     "campaign.army_lists[0].units[0].strength[0].delta: must be at most 1, got 2."),
    ("strength zero", lambda d: _unit(d)["strength"][0].update(delta=0),
     "campaign.army_lists[0].units[0].strength[0].delta: must be 1 or -1, got 0."),
    ("strength battle", lambda d: _unit(d)["strength"][0].update(battle="9/9/9"),
     "campaign.army_lists[0].units[0].strength[0].battle: no battle '9/9/9' in this file."),
    ("strength event", lambda d: _unit(d)["strength"][0].update(event=999),
     "campaign.army_lists[0].units[0].strength[0].event: there is no event #999."),
    ("strength twice", lambda d: _unit(d)["strength"].append(
        copy.deepcopy(_unit(d)["strength"][0])),
     "campaign.army_lists[0].units[0].strength[2].reason: the routed_enemy mark of unit "
     "Blue#1/1 in battle 9/2/1 is listed twice"),
    ("order army", lambda d: _mk(d)["orders"][0].update(army="Blue#9"),
     MK + "orders[0].army: no army 'Blue#9' in this file."),
    ("order ship", lambda d: _mk(d)["orders"][1].update(ship="Blue#1"),
     MK + "orders[1].ship: no ship 'Blue#1' in this file."),
    ("order token id", lambda d: _mk(d)["orders"][0].update(token="army:12"),
     MK + "orders[0].token: 'army:12' is not a token such as 'army:Red#1'"),
    ("order token ref", lambda d: _mk(d)["orders"][0].update(token="army:Red#9"),
     MK + "orders[0].token: no army 'Red#9' in this file."),
    ("order twice", lambda d: _mk(d)["orders"][1].update(token="army:Blue#1"),
     MK + "orders[1].token: the order for army:Blue#1 in year 9, month 1 is listed twice"),
    ("order kind", lambda d: _mk(d)["orders"][0].update(kind="fly"),
     MK + "orders[0].kind: 'fly' is not one of"),
    ("order target", lambda d: _mk(d)["orders"][0].update(target="nowhere"),
     MK + "orders[0].target: no tile labelled 'nowhere' on the map."),
    ("order outcome", lambda d: _mk(d)["orders"][0]["outcome"].update(control=[None, "Purple"]),
     MK + "orders[0].outcome.control[1]: no kingdom named 'Purple' in this file."),
    ("tithe giver", lambda d: _mk(d)["tithes"][0].update(giver="Nobody"),
     MK + "tithes[0].giver: no kingdom named 'Nobody'."),
    ("tithe gold", lambda d: _mk(d)["tithes"][0].update(gold=-1),
     MK + "tithes[0].gold: must be at least 0, got -1."),
    ("tithe event", lambda d: _mk(d)["tithes"][0].update(event=999),
     MK + "tithes[0].event: there is no event #999."),
    ("tithe twice", lambda d: _mk(d)["tithes"].append(copy.deepcopy(_mk(d)["tithes"][0])),
     MK + "tithes[1]: the tithe of Blue to Red in year 9 is listed twice"),
    ("purchase kingdom", lambda d: _mk(d)["purchases"][0].update(kingdom=5),
     MK + "purchases[0].kingdom: expected a string, got the number 5."),
    ("purchase seq", lambda d: _mk(d)["purchases"][0].pop("seq"),
     MK + "purchases[0]: the field 'seq' is missing."),
    ("state kingdom", lambda d: _c(d)["state"].update({"settled:Purple": True}),
     "campaign.state['settled:Purple']: no kingdom named 'Purple' in this file."),
    ("state army", lambda d: _c(d)["state"]["winter"]["deploy"].update(placed={"Red#7": "0101"}),
     "campaign.state.winter.deploy.placed['Red#7']: no army 'Red#7' in this file."),
    ("event data", lambda d: _tithe_event(d)["data"].update(receiver="Purple"),
     "].data.receiver: no kingdom named 'Purple' in this file."),
    ("section type", lambda d: _mk(d).update(orders={}),
     MK + "orders: expected a list, got an object."),
    ("army twice", lambda d: _c(d)["armies"].append(copy.deepcopy(_c(d)["armies"][0])),
     "campaign.armies[3]: army #1 of Blue is listed twice (also at campaign.armies[0])."),
]


@pytest.mark.parametrize("change, expected", [(c, e) for _n, c, e in REFUSALS],
                         ids=[n for n, _c, _e in REFUSALS])
def test_refused_documents_write_nothing(doc: dict[str, Any], gm: User, change: Any,
                                         expected: str, settings: Any) -> None:
    change(doc)
    before = counts()
    media = sorted(Path(settings.MEDIA_ROOT).rglob("*"))
    with pytest.raises(transfer.ImportRefused) as info:
        transfer.import_campaign(doc, gm, slug="copy")
    assert expected in str(info.value)
    assert counts() == before
    assert sorted(Path(settings.MEDIA_ROOT).rglob("*")) == media


def test_small_round_trip(small: Campaign, gm: User) -> None:
    first = transfer.export_campaign(small)
    copy_ = transfer.import_campaign(json.loads(transfer.dumps(first)), gm, slug="copy")
    assert without_import_event(transfer.export_campaign(copy_), "gm") == as_imported(first, "gm")
    seat_again(copy_, small)
    assert campaign_counts(copy_) == campaign_counts(small) | {
        "Event": campaign_counts(small)["Event"] + 1}


# -- the advanced modules: magical artefacts and Wizard's quests ----------------------------------


def _clock(campaign: Campaign, **clock: Any) -> Campaign:
    Campaign.objects.filter(pk=campaign.pk).update(**clock)
    return Campaign.objects.get(pk=campaign.pk)


@pytest.fixture
def towers(gm: User, player: User, other_player: User) -> Campaign:
    """A Kings of War campaign with the Wizard's towers and artefacts modules, played through
    one winter: a pool of four artefacts, three quests (Red's Garrek brings back the Crown of
    Ages, Blue's Thane nothing, Red's Brokk the Amulet of Dawn), then at winter D) Deploy Red
    gives the Crown to its regiment Ironguard and keeps the Amulet in its Capital City.

    The map is the summer scene's (tests/mk/test_summer_scene.py): Red's capital is the city
    0303, towers stand at 0404 and 0304, Blue holds the village 0504 next to 0404.
    """
    campaign = make_campaign(gm, slug="towers", seed=None)
    red = Kingdom.objects.create(campaign=campaign, name="Red", colour="#aa0000",
                                 order_position=1,
                                 player=add_member(campaign, player, Role.PLAYER))
    blue = Kingdom.objects.create(campaign=campaign, name="Blue", colour="#0000aa",
                                  order_position=2,
                                  player=add_member(campaign, other_player, Role.PLAYER))
    tiles = Tile.objects.filter(map__campaign=campaign)
    for label, owner, settlement in (("0303", red, "city"), ("0302", red, "village"),
                                     ("0402", red, ""), ("0403", red, "fortress"),
                                     ("0504", blue, "village"), ("0604", blue, "")):
        tiles.filter(label=label).update(controller=owner, explored=True, settlement=settlement)
    tiles.filter(label__in=["0404", "0304"]).update(explored=True, data={"wizard_tower": True})
    capital = tiles.get(label="0303")
    Kingdom.objects.filter(pk=red.pk).update(start_tile=capital, capital_tile=capital)
    red1 = Army.objects.create(campaign=campaign, kingdom=red, number=1, tile=capital)
    red2 = Army.objects.create(campaign=campaign, kingdom=red, number=2,
                               tile=tiles.get(label="0403"))
    blue1 = Army.objects.create(campaign=campaign, kingdom=blue, number=1,
                                tile=tiles.get(label="0504"))
    campaign = _clock(campaign, options={**campaign.options, "module_wizard_towers": True,
                                         "module_artefacts": True, "battle_mode": "kow"})
    garrek, ironguard, brokk = fixed_list(red1, ("Garrek", "hero", 150, 0),
                                          ("Ironguard", "regiment", 120, 2),
                                          ("Brokk", "hero", 150, 0))
    (thane,) = fixed_list(blue1, ("Thane", "hero", 100, 0))
    (spears,) = fixed_list(red2, ("Spears", "regiment", 100, 2))
    pool = {name: advanced.add_artefact(campaign, gm, name, points).pk for name, points in (
        ("Amulet of Dawn", 10), ("Crown of Ages", 25), ("Orb of Night", 40),
        ("Ring of Storms", 45))}

    campaign = _clock(campaign, season="winter", year=1, month=None, phase="C",
                      sub_phase=mk.SUB_BUY)
    red, blue = Kingdom.objects.get(pk=red.pk), Kingdom.objects.get(pk=blue.pk)
    advanced.send_quest(red, gm, tower="0404", hero_id=garrek.pk, die=4,
                        artefact_id=pool["Crown of Ages"], gm=True)
    advanced.send_quest(blue, other_player, tower="0404", hero_id=thane.pk, die=2)
    advanced.send_quest(red, player, tower="0304", hero_id=brokk.pk, die=3)

    campaign = _clock(campaign, phase="D", sub_phase="")
    advanced.assign_artefact(red, player, pool["Crown of Ages"], ironguard.pk)
    # A battle of that year's summer, its results keyed by unit id, and the Amulet marked as
    # won there, the way a capture leaves it.
    battle = Battle.objects.create(
        campaign=campaign, year=1, month=3, seq=1, tile=tiles.get(label="0504"), kind="land",
        mode="kow", chooser=red, opponent=blue, status=Battle.Status.RESOLVED,
        result_chooser="win", result_opponent="loss",
        data={"chooser_fighters": [f"army:{red2.pk}"], "opponent_fighters": [f"army:{blue1.pk}"],
              "unit_results": {str(spears.pk): {"routed_enemy": True, "routed": False}}},
    )
    Artefact.objects.filter(pk=pool["Amulet of Dawn"]).update(captured_in=battle)
    return Campaign.objects.get(pk=campaign.pk)


@pytest.fixture
def towers_doc(towers: Campaign) -> dict[str, Any]:
    return json.loads(transfer.dumps(transfer.export_campaign(towers)))


def holders(campaign: Campaign) -> list[tuple[Any, ...]]:
    """Each artefact of ``campaign`` with where it is, by natural keys."""
    return [
        (a.name, a.points, a.in_pool,
         a.holder_unit and (a.holder_unit.army_list.army.kingdom.name,
                            a.holder_unit.army_list.army.number, a.holder_unit.name),
         a.held_by_capital_of and a.held_by_capital_of.name,
         a.captured_in and (a.captured_in.year, a.captured_in.month, a.captured_in.seq))
        for a in Artefact.objects.filter(campaign=campaign).order_by("name")
        .select_related("holder_unit__army_list__army__kingdom", "held_by_capital_of",
                        "captured_in")
    ]


def quest_rows(campaign: Campaign) -> list[tuple[Any, ...]]:
    return [
        (q.year, q.kingdom.name, q.hero.name, q.hero.army_list.army.kingdom.name, q.tower.label,
         q.die, q.modifier, q.total, q.result, q.artefact and q.artefact.name,
         q.event and (q.event.seq, q.event.kind))
        for q in WizardQuest.objects.filter(campaign=campaign).order_by("pk")
        .select_related("kingdom", "hero__army_list__army__kingdom", "tower", "artefact",
                        "event")
    ]


def test_export_carries_artefacts_and_quests_by_natural_keys(towers: Campaign) -> None:
    body = transfer.export_campaign(towers)["campaign"]
    assert _mk(body)["artefacts"] == [
        {"name": "Amulet of Dawn", "points": 10, "in_pool": False, "holder_unit": None,
         "held_by_capital_of": "Red", "captured_in": "1/3/1"},
        {"name": "Crown of Ages", "points": 25, "in_pool": False, "holder_unit": "Red#1/2",
         "held_by_capital_of": None, "captured_in": None},
        {"name": "Orb of Night", "points": 40, "in_pool": True, "holder_unit": None,
         "held_by_capital_of": None, "captured_in": None},
        {"name": "Ring of Storms", "points": 45, "in_pool": True, "holder_unit": None,
         "held_by_capital_of": None, "captured_in": None},
    ]
    quest_events = [e for e in body["events"] if e["kind"] == "winter.quest"]
    assert [e["data"] for e in quest_events] == [
        {"tower": "0404", "hero": "Red#1/1", "result": "great_artefact"},
        {"tower": "0404", "hero": "Blue#1/1", "result": "nothing"},
        {"tower": "0304", "hero": "Red#1/3", "result": "artefact"},
    ]
    assert [{k: v for k, v in q.items() if k != "event"} for q in _mk(body)["quests"]] == [
        {"year": 1, "kingdom": "Red", "hero": "Red#1/1", "tower": "0404", "die": 4,
         "modifier": 1, "total": 5, "result": "great_artefact", "artefact": "Crown of Ages"},
        {"year": 1, "kingdom": "Blue", "hero": "Blue#1/1", "tower": "0404", "die": 2,
         "modifier": 1, "total": 3, "result": "nothing", "artefact": None},
        {"year": 1, "kingdom": "Red", "hero": "Red#1/3", "tower": "0304", "die": 3,
         "modifier": 1, "total": 4, "result": "artefact", "artefact": "Amulet of Dawn"},
    ]
    assert [q["event"] for q in _mk(body)["quests"]] == [e["seq"] for e in quest_events]
    assert [(p["kingdom"], p["kind"], p["tile_label"]) for p in _mk(body)["purchases"]] == [
        ("Red", "quest", "0404"), ("Blue", "quest", "0404"), ("Red", "quest", "0304")]
    assert body["state"]["winter"]["cycles"]["buy"] == [["Red", False], ["Blue", False],
                                                        ["Red", False]]
    assert body["battles"][0]["data"]["unit_results"] == {
        "Red#2/1": {"routed_enemy": True, "routed": False}}
    crown_carrier = body["army_lists"][1]["units"][1]
    assert (crown_carrier["name"], crown_carrier["artefact"]) == ("Ironguard", "Crown of Ages")


def test_artefacts_and_quests_round_trip(towers: Campaign, gm: User, player: User,
                                         other_player: User, login: Callable[..., Any]) -> None:
    first = transfer.export_campaign(towers)
    copy_ = transfer.import_campaign(json.loads(transfer.dumps(first)), gm, slug="towers-copy")
    assert without_import_event(transfer.export_campaign(copy_), "gm") == as_imported(first, "gm")
    seat_again(copy_, towers)
    assert campaign_counts(copy_) == campaign_counts(towers) | {
        "Event": campaign_counts(towers)["Event"] + 1}
    assert campaign_counts(copy_)["Artefact"] == 4 and campaign_counts(copy_)["WizardQuest"] == 3
    assert holders(copy_) == holders(towers)
    assert quest_rows(copy_) == quest_rows(towers)

    # The rows and the JSON name the copy's own units, kingdoms and battles.
    crown = Artefact.objects.get(campaign=copy_, name="Crown of Ages")
    assert crown.holder_unit is not None
    assert crown.holder_unit.army_list.army.campaign_id == copy_.pk
    assert crown.holder_unit.artefact == "Crown of Ages"
    amulet = Artefact.objects.get(campaign=copy_, name="Amulet of Dawn")
    red = Kingdom.objects.get(campaign=copy_, name="Red")
    assert amulet.held_by_capital_of == red and amulet.captured_in is not None
    assert amulet.captured_in.campaign_id == copy_.pk
    for quest in WizardQuest.objects.filter(campaign=copy_).select_related("event", "hero"):
        assert quest.event is not None and quest.event.campaign_id == copy_.pk
        assert quest.event.data["hero"] == quest.hero.pk
        assert quest.tower.map.campaign_id == copy_.pk
        assert quest.hero.army_list.army.kingdom_id == quest.kingdom_id
    assert [row[0] for row in copy_.state["winter"]["cycles"]["buy"]] == [
        red.pk, Kingdom.objects.get(campaign=copy_, name="Blue").pk, red.pk]
    assert advanced.artefacts_of(copy_, red) == [amulet, crown]
    assert [a.name for a in advanced.pool(copy_)] == ["Orb of Night", "Ring of Storms"]

    # The advanced page renders for the GM and for Red's player, each seeing Red's artefacts.
    url = reverse("mk:advanced", args=[copy_.slug])
    for user in (gm, player):
        response = login(user).get(url)
        assert response.status_code == 200, user.username
        page = response.content.decode()
        assert "carried by Ironguard of army #1" in page
        assert "Garrek at 0404: 4 + 1 = 5" in page and "Orb of Night" in page
    other_page = login(other_player).get(url).content.decode()
    assert "Crown of Ages" not in other_page and "Thane at 0404" in other_page

    # The game goes on on the copy: Red moves the Crown back into its Capital City.
    advanced.assign_artefact(red, player, crown.pk, None)
    assert Artefact.objects.get(pk=crown.pk).held_by_capital_of == red
    assert Unit.objects.get(pk=crown.holder_unit.pk).artefact == ""


def test_a_file_without_the_advanced_sections_imports_with_none(towers_doc: dict[str, Any],
                                                                 gm: User) -> None:
    for key in ("artefacts", "quests"):
        _mk(towers_doc).pop(key)
    copy_ = transfer.import_campaign(towers_doc, gm, slug="towers-copy")
    counted = campaign_counts(copy_)
    assert (counted["Artefact"], counted["WizardQuest"], counted["Unit"]) == (0, 0, 5)
    assert _mk(transfer.export_campaign(copy_))["artefacts"] == []


def _art(doc: dict[str, Any], name: str) -> dict[str, Any]:
    return next(a for a in _mk(doc)["artefacts"] if a["name"] == name)


def _quest(doc: dict[str, Any], i: int = 0) -> dict[str, Any]:
    return _mk(doc)["quests"][i]


ADVANCED_REFUSALS: list[tuple[str, Callable[[dict[str, Any]], Any], str]] = [
    ("holder unknown unit", lambda d: _art(d, "Crown of Ages").update(holder_unit="Red#1/9"),
     MK + "artefacts[1].holder_unit: no unit 'Red#1/9' in this file."),
    ("holder unit type", lambda d: _art(d, "Crown of Ages").update(holder_unit=7),
     MK + "artefacts[1].holder_unit: expected a string, got the number 7."),
    ("capital unknown kingdom", lambda d: _art(d, "Amulet of Dawn").update(
        held_by_capital_of="Purple"),
     MK + "artefacts[0].held_by_capital_of: no kingdom named 'Purple'."),
    ("artefact twice", lambda d: _art(d, "Orb of Night").update(name="crown of ages"),
     MK + "artefacts[2].name: artefact 'crown of ages' is listed twice "
     "(also at " + MK + "artefacts[1].name)."),
    ("artefact name empty", lambda d: _art(d, "Orb of Night").update(name=" "),
     MK + "artefacts[2].name: must not be empty."),
    ("artefact name long", lambda d: _art(d, "Orb of Night").update(name="x" * 101),
     MK + "artefacts[2].name: longer than 100 characters (101)."),
    ("artefact points", lambda d: _art(d, "Orb of Night").update(points=-1),
     MK + "artefacts[2].points: must be at least 0, got -1."),
    ("artefact in two places", lambda d: _art(d, "Crown of Ages").update(
        held_by_capital_of="Red"),
     MK + "artefacts[1]: an artefact out of the pool is held by exactly one unit"),
    ("artefact nowhere", lambda d: _art(d, "Crown of Ages").update(holder_unit=None),
     MK + "artefacts[1]: an artefact out of the pool is held by exactly one unit"),
    ("pooled artefact held", lambda d: _art(d, "Orb of Night").update(
        held_by_capital_of="Blue"),
     MK + "artefacts[2].in_pool: an artefact in the pool is held by nobody"),
    ("artefact battle", lambda d: _art(d, "Amulet of Dawn").update(captured_in="1/1/1"),
     MK + "artefacts[0].captured_in: no battle '1/1/1' in this file."),
    ("artefacts type", lambda d: _mk(d).update(artefacts={}),
     MK + "artefacts: expected a list, got an object."),
    ("quest unknown unit", lambda d: _quest(d).update(hero="Red#1/9"),
     MK + "quests[0].hero: no unit 'Red#1/9' in this file."),
    ("quest hero of another kingdom", lambda d: _quest(d).update(hero="Blue#1/1"),
     MK + "quests[0].hero: 'Blue#1/1' is not a unit of Red."),
    ("quest hero twice", lambda d: _quest(d, 2).update(hero="Red#1/1", tower="0305"),
     MK + "quests[2].hero: the quest of unit Red#1/1 in year 1 is listed twice "
     "(also at " + MK + "quests[0].hero)."),
    ("quest tower twice", lambda d: _quest(d, 2).update(tower="0404"),
     MK + "quests[2].tower: the quest of Red to the tower at 0404 in year 1 is listed "
     "twice (also at " + MK + "quests[0].tower)."),
    ("quest unknown tower", lambda d: _quest(d).update(tower="9999"),
     MK + "quests[0].tower: no tile labelled '9999' on the map."),
    ("quest kingdom", lambda d: _quest(d).update(kingdom="Purple"),
     MK + "quests[0].kingdom: no kingdom named 'Purple'."),
    ("quest bad result", lambda d: _quest(d).update(result="triumph"),
     MK + "quests[0].result: 'triumph' is not one of 'hero_lost', 'injured', 'nothing', "
     "'artefact', 'great_artefact', 'rare_artefact'."),
    ("quest result type", lambda d: _quest(d).update(result=5),
     MK + "quests[0].result: expected a string, got the number 5."),
    ("quest die", lambda d: _quest(d).update(die=7, total=8),
     MK + "quests[0].die: a die shows 1 to 6, got 7."),
    ("quest total", lambda d: _quest(d).update(total=6),
     MK + "quests[0].total: must be die + modifier (4 + 1), got 6."),
    ("quest artefact unknown", lambda d: _quest(d).update(artefact="Sword of Dusk"),
     MK + "quests[0].artefact: no artefact 'Sword of Dusk' in this file."),
    ("quest artefact without success", lambda d: _quest(d, 1).update(artefact="Orb of Night"),
     MK + "quests[1].artefact: a quest with the result 'nothing' brings back no artefact."),
    ("quest event", lambda d: _quest(d).update(event=999),
     MK + "quests[0].event: there is no event #999."),
    ("quest year", lambda d: _quest(d).pop("year"),
     MK + "quests[0]: the field 'year' is missing."),
    ("quest event data hero", lambda d: next(
        e for e in d["campaign"]["events"] if e["kind"] == "winter.quest")["data"].update(
        hero="Red#4/1"),
     "].data.hero: no unit 'Red#4/1' in this file."),
]


@pytest.mark.parametrize("change, expected", [(c, e) for _n, c, e in ADVANCED_REFUSALS],
                         ids=[n for n, _c, _e in ADVANCED_REFUSALS])
def test_refused_advanced_sections_write_nothing(towers_doc: dict[str, Any], gm: User,
                                                 change: Any, expected: str) -> None:
    change(towers_doc)
    before = counts()
    with pytest.raises(transfer.ImportRefused) as info:
        transfer.import_campaign(towers_doc, gm, slug="towers-copy")
    assert expected in str(info.value)
    assert counts() == before
    assert not Campaign.objects.filter(slug="towers-copy").exists()
