"""Who may use every Mighty Kingdoms, ledger and armies page: a persona table.

Each row names a URL, its method, how to put the campaign where the request makes sense, and the
exact answer for every persona: anonymous (sent to log in), an outsider (404: the campaign's
existence is not revealed), the observer, Red's player, Blue's player (``other``), the GM and a
site admin (who acts as a GM). A player acts for their own kingdom whatever the form says; a GM
acts for the kingdom the form names (``kingdom``). A refusal (403, 404, 409 or 400) changes
nothing at all; for a 409 the reason is checked too, so the request is known to have passed the
access checks and been refused by the rules for the reason given.

The scene is the summer test scene (tests/mk/test_summer_scene.py): Red (``player``) holds its
capital 0303 and 0302, 0402, 0403; Blue (``other``) holds 0504 and 0604; Red armies #1 on 0303
and #2 on 0403, Blue army #1 on 0504. Each row's ``prep_*`` moves it to where the request makes
sense (a setup step, a battle, a winter sub-phase).

At the end, the order of the checks: who asks is checked before what they sent.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable
from urllib.parse import quote

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from battles.models import Army, ArmyList, Battle, Unit
from campaign.models import Campaign, Event, Kingdom, Membership, Tile
from campaign.systems.mighty_kingdoms import forces as battle_services
from campaign.systems.mighty_kingdoms import phases, summer
from campaign.systems.mighty_kingdoms.models import Artefact, Order, Ship
from campaign.systems.mighty_kingdoms.rules import battles as mkb
from ledger.models import Balance, LedgerEntry
from tests.mk.test_summer_scene import (  # noqa: F401
    Scene,
    army_key,
    campaign,
    give_in_turn,
    scene,
)

PERSONAS = ("anonymous", "outsider", "observer", "player", "other", "gm", "admin")
DUMPED = (Campaign, Membership, Kingdom, Tile, Army, Ship, Order, Battle, ArmyList, Unit,
          Artefact, Event, LedgerEntry, Balance)


def dump() -> dict[str, list[dict[str, Any]]]:
    return {model.__name__: list(model.objects.order_by("pk").values()) for model in DUMPED}


@dataclass
class People:
    scene: Scene
    observer: User
    outsider: User
    admin: User
    extra: dict[str, Any] = field(default_factory=dict)

    def user(self, persona: str) -> User | None:
        return {"anonymous": None, "outsider": self.outsider, "observer": self.observer,
                "player": self.scene.player, "other": self.scene.other, "gm": self.scene.gm,
                "admin": self.admin}[persona]

    def client(self, persona: str) -> Client:
        client = Client()
        user = self.user(persona)
        if user is not None:
            client.force_login(user)
        return client


@pytest.fixture
def people(scene: Scene, observer: User, outsider: User, admin_user: User) -> People:
    return People(scene, observer, outsider, admin_user)


# -- putting the campaign where each request makes sense ---------------------------------------

Prepared = tuple[list[Any], dict[str, Any]]


def _clock(s: Scene, season: str, phase: str, month: int | None = None,
           sub_phase: str = "") -> None:
    Campaign.objects.filter(pk=s.campaign.pk).update(season=season, phase=phase, month=month,
                                                     sub_phase=sub_phase, year=1)
    s.refresh()


def _options(s: Scene, **options: Any) -> None:
    merged = dict(s.campaign.options or {})
    merged.update(options)
    Campaign.objects.filter(pk=s.campaign.pk).update(options=merged)
    s.refresh()


def _for(s: Scene, kingdom: Kingdom | None = None, **data: Any) -> dict[str, Any]:
    """Form data; ``kingdom`` (default Red) is whom a GM acts for."""
    return {"kingdom": str((kingdom or s.red).pk), **data}


def prep_race(p: People) -> Prepared:
    s = p.scene
    _clock(s, "setup", "race")
    return [], _for(s, race="Basileans")


def prep_order(p: People) -> Prepared:
    s = p.scene
    _clock(s, "setup", "order")
    Kingdom.objects.filter(campaign=s.campaign).update(order_position=None)
    return [], {"source": "table", f"roll_{s.red.pk}": "6", f"roll_{s.blue.pk}": "2"}


def prep_capital(p: People) -> Prepared:
    s = p.scene
    _clock(s, "setup", "capital")
    Kingdom.objects.filter(pk=s.red.pk).update(capital_tile=None, start_tile=None)
    s.set_tile("0606", is_start=True)
    return [], _for(s, tile="0606")


def prep_settle(p: People) -> Prepared:
    s = p.scene
    _clock(s, "setup", "settle")
    return [], _for(s, tiles=["0202"], place_0202="village")


def prep_army(p: People) -> Prepared:
    s = p.scene
    _clock(s, "setup", "army")
    Army.objects.filter(campaign=s.campaign).delete()
    return [], _for(s, tile="0303")


def prep_order_given(p: People) -> Prepared:
    s = p.scene
    return [], _for(s, token=army_key(s.red, 1), kind="defend")


def _docked(s: Scene) -> Ship:
    """Red ship #1 beside Red army #1, at the capital's coast."""
    s.set_tile("0203", terrain="open_water", explored=True, controller=None)
    s.set_tile("0303", edges={"5": ["coast"]})
    return s.ship(s.red, 1, "0303")


def prep_pair(p: People) -> Prepared:
    s = p.scene
    ship = _docked(s)
    return [], _for(s, army=str(s.get_army(s.red, 1).pk), ship=str(ship.pk))


def prep_unpair(p: People) -> Prepared:
    s = p.scene
    ship = _docked(s)
    Ship.objects.filter(pk=ship.pk).update(paired_army=s.get_army(s.red, 1))
    return [], _for(s, ship=str(ship.pk))


def prep_resolve(p: People) -> Prepared:
    s = p.scene
    give_in_turn(s, {s.red: [(army_key(s.red, 1), "defend", None),
                             (army_key(s.red, 2), "defend", None)],
                     s.blue: [(army_key(s.blue, 1), "defend", None)]})
    phases.advance(s.campaign, s.gm)
    s.refresh()
    order = Order.objects.get(campaign=s.campaign, token=army_key(s.red, 1))
    return [], _for(s, order=str(order.pk), source="server")


def _clash(s: Scene) -> None:
    """Red army #2 has marched into Blue's village 0504, where Blue army #1 stands; battle
    phase."""
    Army.objects.filter(kingdom=s.red, number=2).update(tile=s.tile("0504"))
    s.at("C")


def prep_choose_battle(p: People) -> Prepared:
    s = p.scene
    _clash(s)
    return [], _for(s, tile="0504", opponent=str(s.blue.pk))


def _kow_battle(s: Scene) -> Battle:
    _clash(s)
    s.set_tile("0505", controller=s.blue, explored=True)
    return summer.choose_battle(s.red, s.player, "0504", s.blue.pk)


def prep_battle_result(p: People) -> Prepared:
    s = p.scene
    battle = _kow_battle(s)
    return [battle.pk], {"result": "win"}


def _won(s: Scene) -> Battle:
    battle = _kow_battle(s)
    summer.enter_result(battle.pk, s.gm, s.campaign, result="win")
    return battle


def prep_retreat(p: People) -> Prepared:
    s = p.scene
    battle = _won(s)
    key = army_key(s.blue, 1)
    return [battle.pk], _for(s, s.blue, **{f"retreat_{key}": "0505"})


def prep_winner_move(p: People) -> Prepared:
    s = p.scene
    battle = _won(s)
    summer.choose_retreats(s.blue, s.other, battle.pk, {army_key(s.blue, 1): "0505"})
    return [battle.pk], _for(s, stay="1")


def _simple(s: Scene) -> Battle:
    """TV-MK-1: a Simple battle at 0504, Red (chooser, attacking) against Blue defending."""
    _options(s, battle_mode="simple", simple_defence="dynamic")
    Army.objects.filter(kingdom=s.red, number=2).update(tile=s.tile("0504"))
    Army.objects.filter(kingdom=s.blue, number=1).update(defending=True)
    s.at("C")
    return summer.choose_battle(s.red, s.player, "0504", s.blue.pk)


def prep_battle_page(p: People) -> Prepared:
    return [_simple(p.scene).pk], {}


def prep_battle_start(p: People) -> Prepared:
    return [_simple(p.scene).pk], {}


def _started(p: People) -> Battle:
    from campaign.systems.mighty_kingdoms import battle_play as bp

    s = p.scene
    battle = _simple(s)
    bp.start_simple(battle.pk, s.gm, s.campaign, None)
    return battle


def prep_battle_roll(p: People) -> Prepared:
    battle = _started(p)
    return [battle.pk], {"side": "attacker", "source": "table", "dice": "6"}


def prep_battle_allocate(p: People) -> Prepared:
    from campaign.systems.mighty_kingdoms import battle_play as bp

    s = p.scene
    battle = _started(p)
    bp.roll_simple(battle.pk, s.player, s.campaign, s.red, "attacker", [6])
    bp.roll_simple(battle.pk, s.other, s.campaign, s.blue, "defender", [5])
    return [battle.pk], {"side": "attacker", "die": "0",
                         "target": army_key(s.blue, 1)}


def prep_battle_auto(p: People) -> Prepared:
    return [_started(p).pk], {}


def _naval(s: Scene) -> Battle:
    s.set_tile("0505", terrain="open_water", explored=True, controller=None)
    s.ship(s.red, 1, "0505")
    s.ship(s.blue, 1, "0505")
    s.at("C")
    return summer.choose_battle(s.red, s.player, "0505", s.blue.pk, True)


def prep_battle_losses(p: People) -> Prepared:
    from campaign.systems.mighty_kingdoms import battle_play as bp

    s = p.scene
    battle = _naval(s)
    s.ship(s.red, 2, "0505")
    bp.roll_naval(battle.pk, s.player, s.campaign, s.red, "attacker", [3, 2])
    bp.roll_naval(battle.pk, s.other, s.campaign, s.blue, "defender", [4])
    red2 = Ship.objects.get(kingdom=s.red, number=2)
    return [battle.pk], {"side": "attacker", "lost": [f"ship:{red2.pk}"]}


def prep_battle_concede(p: People) -> Prepared:
    """After a first round where nothing sank, the chooser (Red) may concede first."""
    from campaign.systems.mighty_kingdoms import battle_play as bp

    s = p.scene
    battle = _naval(s)
    bp.roll_naval(battle.pk, s.player, s.campaign, s.red, "attacker", [1])
    bp.roll_naval(battle.pk, s.other, s.campaign, s.blue, "defender", [1])
    bp.choose_naval_losses(battle.pk, s.player, s.campaign, s.red, "attacker", [])
    bp.choose_naval_losses(battle.pk, s.other, s.campaign, s.blue, "defender", [])
    return [battle.pk], {"side": "attacker"}


def prep_kow_result(p: People) -> Prepared:
    s = p.scene
    battle = _kow_battle(s)
    return [battle.pk], {"result": "win"}


def _slaughter(s: Scene) -> Battle:
    """MK-LAND-4: Red's two armies against Blue's army lying on its side at 0504."""
    Army.objects.filter(kingdom=s.blue, number=1).update(on_side=True)
    s.army(s.blue, 2, "0504", on_side=True)
    Army.objects.filter(kingdom=s.red, number=2).update(tile=s.tile("0504"))
    s.at("C")
    return summer.choose_battle(s.red, s.player, "0504", s.blue.pk)


def prep_slaughter(p: People) -> Prepared:
    s = p.scene
    battle = _slaughter(s)
    return [battle.pk], {"slaughtered": army_key(s.blue, 2)}


# -- winter ----------------------------------------------------------------------------------


def prep_recall(p: People) -> Prepared:
    s = p.scene
    _clock(s, "winter", "A")
    return [], _for(s, tile="0303")


def prep_tithe(p: People) -> Prepared:
    s = p.scene
    _clock(s, "winter", "C", sub_phase="tithe")
    Balance.objects.create(kingdom=s.red, resource="gold", amount=3)
    Balance.objects.create(kingdom=s.red, resource="food", amount=3)
    return [], _for(s, receiver=str(s.blue.pk), gold="1", food="0")


def prep_pass(p: People) -> Prepared:
    s = p.scene
    _clock(s, "winter", "C", sub_phase="tithe")
    return [], _for(s, sub="tithe")


def prep_buy(p: People) -> Prepared:
    s = p.scene
    _clock(s, "winter", "C", sub_phase="buy")
    Balance.objects.create(kingdom=s.red, resource="gold", amount=5)
    return [], _for(s, kind="settle", tile="0402", to="village")


def prep_feed(p: People) -> Prepared:
    s = p.scene
    _clock(s, "winter", "C", sub_phase="feed")
    Balance.objects.create(kingdom=s.red, resource="food", amount=5)
    return [], _for(s, fed=["1", "2"])


def prep_deploy(p: People) -> Prepared:
    s = p.scene
    _clock(s, "winter", "D")
    return [], _for(s, army="1", tile="0302")


# -- advanced modules ---------------------------------------------------------------------------


def _artefact(s: Scene, name: str = "Crown of Ages", **where: Any) -> Artefact:
    return Artefact.objects.create(campaign=s.campaign, name=name, points=25, **where)


def prep_advanced(p: People) -> Prepared:
    s = p.scene
    _options(s, module_artefacts=True, module_wizard_towers=True)
    _artefact(s)
    return [], {}


def prep_quest(p: People) -> Prepared:
    """A Wizard's Tower at 0404, by Red's land; Red's hero Garrek; winter C) Build and recruit."""
    s = p.scene
    _options(s, module_wizard_towers=True)
    s.set_tile("0404", explored=True, data={"wizard_tower": True})
    hero = _listed(s, s.get_army(s.red, 1))[1]
    _clock(s, "winter", "C", sub_phase="buy")
    return [], _for(s, tower="0404", hero=str(hero.pk), die="3")


def prep_artefact_add(p: People) -> Prepared:
    s = p.scene
    _options(s, module_artefacts=True)
    return [], {"name": "Orb of Night", "points": "30"}


def prep_artefact_remove(p: People) -> Prepared:
    s = p.scene
    _options(s, module_artefacts=True)
    return [_artefact(s).pk], {}


def _listed(s: Scene, army: Army) -> list[Unit]:
    battle_services.write_army_list(
        army, [mkb.UnitEntry(name="Ironguard", unit_type="regiment", points=150, base_us=2),
               mkb.UnitEntry(name="Garrek", unit_type="hero", points=100, base_us=1)],
        s.player if army.kingdom_id == s.red.pk else s.other, fix=True)
    return list(Unit.objects.filter(army_list__army=army).order_by("position"))


def prep_artefact_assign(p: People) -> Prepared:
    s = p.scene
    _options(s, module_artefacts=True)
    _clock(s, "winter", "D")
    units = _listed(s, s.get_army(s.red, 1))
    artefact = _artefact(s, in_pool=False, held_by_capital_of=s.red)
    return [], _for(s, artefact=str(artefact.pk), unit=str(units[0].pk))


def prep_artefact_claim(p: People) -> Prepared:
    s = p.scene
    _options(s, module_artefacts=True)
    units = _listed(s, s.get_army(s.red, 2))
    battle = _won(s)
    artefact = _artefact(s, in_pool=False, held_by_capital_of=s.red, captured_in=battle)
    return [], _for(s, artefact=str(artefact.pk), unit=str(units[0].pk))


# -- the ledger ---------------------------------------------------------------------------------


def _booked(s: Scene) -> None:
    for kingdom in (s.red, s.blue):
        LedgerEntry.objects.create(campaign=s.campaign, kingdom=kingdom, resource="gold",
                                   amount=4, rule_id="MK-SETUP-3", source="starting gold",
                                   year=1, season="summer")
        Balance.objects.create(kingdom=kingdom, resource="gold", amount=4)


def prep_ledger_index(p: People) -> Prepared:
    _booked(p.scene)
    return [], {}


def prep_ledger_red(p: People) -> Prepared:
    _booked(p.scene)
    return [p.scene.red.pk], {}


# -- armies and their lists ---------------------------------------------------------------------


def prep_armies(p: People) -> Prepared:
    return [], {}


def prep_roster(p: People) -> Prepared:
    return [p.scene.red.pk], {}


def prep_red_army(p: People) -> Prepared:
    return [p.scene.get_army(p.scene.red, 1).pk], {}


def _draft(s: Scene) -> tuple[Army, list[Unit]]:
    army = s.get_army(s.red, 1)
    battle_services.write_army_list(
        army, [mkb.UnitEntry(name="Ironguard", unit_type="regiment", points=150, base_us=2)],
        s.player, fix=False)
    return army, list(Unit.objects.filter(army_list__army=army))


def prep_save_unit(p: People) -> Prepared:
    army = p.scene.get_army(p.scene.red, 1)
    return [army.pk], {"name": "Spearmen", "unit_type": "regiment", "points": "120",
                       "base_us": "2"}


def prep_unit_action(p: People) -> Prepared:
    army, units = _draft(p.scene)
    return [army.pk, units[0].pk], {}


def prep_details(p: People) -> Prepared:
    army, _units = _draft(p.scene)
    return [army.pk], {"race": "Basileans"}


def prep_fix(p: People) -> Prepared:
    army, _units = _draft(p.scene)
    return [army.pk], {}


def prep_paste(p: People) -> Prepared:
    army = p.scene.get_army(p.scene.red, 1)
    return [army.pk], {"text": "Spearmen, regiment, 120, 2", "race": "Basileans"}


def prep_unit_artefact(p: People) -> Prepared:
    """Without the artefacts module, a unit's magical artefact is written on its list."""
    s = p.scene
    army = s.get_army(s.red, 1)
    units = _listed(s, army)
    return [army.pk, units[0].pk], {"artefact": "Crown of Ages"}


def prep_battles_battle(p: People) -> Prepared:
    """A pending Kings of War battle whose lists are not revealed yet."""
    s = p.scene
    _clash(s)
    battle = Battle.objects.create(
        campaign=s.campaign, year=1, month=1, seq=1, tile=s.tile("0504"), kind="land",
        mode="kow", chooser=s.red, opponent=s.blue,
        data={"chooser_fighters": [army_key(s.red, 2)],
              "opponent_fighters": [army_key(s.blue, 1)]})
    return [battle.pk], {}


# -- the table ------------------------------------------------------------------------------------

# The answer for an allowed persona: a status, or (status, text the page must hold).
Answer = Any


@dataclass(frozen=True)
class Row:
    name: str
    method: str
    prepare: Callable[[People], Prepared]
    answers: dict[str, Answer]


ROWS: list[Row] = []
NOT_YOURS_TURN = "It is Red&#x27;s turn"


def row(name: str, method: str, prepare: Callable[[People], Prepared], *,
        observer: Answer = 403, **answers: Answer) -> None:
    """Anonymous is sent to log in and an outsider gets 404 everywhere; ``observer`` defaults
    to 403 (the campaign's pages for players); the others are given."""
    ROWS.append(Row(name, method, prepare,
                    {"anonymous": 302, "outsider": 404, "observer": observer, **answers}))


def gm_only(name: str, method: str, prepare: Callable[[People], Prepared], ok: int) -> None:
    gm_role = (403, "This needs the game master role in Summer.")
    row(name, method, prepare, observer=gm_role, player=gm_role, other=gm_role, gm=ok, admin=ok)


def red_acts(name: str, prepare: Callable[[People], Prepared], other: Answer, *,
             ok: Answer = 302) -> None:
    """A POST for Red: Red's player and a GM naming Red act; Blue's player acts for Blue and is
    refused with ``other``."""
    row(name, "post", prepare, player=ok, other=other, gm=ok, admin=ok)


# Setup (MK-SETUP-1..5).
row("mk:setup_race", "post", prep_race, player=302, other=302, gm=302, admin=302)
gm_only("mk:setup_order", "post", prep_order, 302)
red_acts("mk:setup_capital", prep_capital,
         (409, "It is Red&#x27;s turn: setup goes in player order (MK-SETUP-3..5)."))
red_acts("mk:setup_settle", prep_settle,
         (409, "It is Red&#x27;s turn: setup goes in player order (MK-SETUP-3..5)."),
         ok=(409, "0203 belongs to your starting kingdom too: put a settlement or a control "
                  "marker on it (MK-SETUP-4)."))
red_acts("mk:setup_army", prep_army,
         (409, "It is Red&#x27;s turn: setup goes in player order (MK-SETUP-3..5)."))
# Summer A) Orders and B) Resolution.
red_acts("mk:summer_order", prep_order_given,
         (409, "Red&#x27;s army #1 is not yours: you give orders to your own tokens (MK-ORD-1)."))
red_acts("mk:summer_pair", prep_pair, (409, "Red army #1 is not yours (MK-SHIP-2)."))
red_acts("mk:summer_unpair", prep_unpair, (409, "Red ship #1 is not yours (MK-SHIP-2)."))
red_acts("mk:summer_resolve", prep_resolve,
         (409, "That order belongs to another kingdom (MK-RES-1)."))
# Summer C) Battle: choosing, the result, the loser's retreat and the winner's move.
red_acts("mk:summer_battle", prep_choose_battle,
         (409, "It is Red&#x27;s turn: this goes round in player order (MK-BSEL-1)."))
gm_only("mk:summer_battle_result", "post", prep_battle_result, 302)
row("mk:summer_retreat", "post", prep_retreat,  # Blue lost: Blue retreats
    player=(409, "Red has no token to retreat from this battle."), other=302, gm=302, admin=302)
red_acts("mk:summer_winner_move", prep_winner_move,
         (409, "Blue did not win this battle, so it has no move to make (MK-RESULT-3)."))
# A battle fought in the app (Simple, naval), and a Kings of War battle's result.
row("mk:battle_play", "get", prep_battle_page, player=200, other=200, gm=200, admin=200)
row("mk:battle_start", "post", prep_battle_start, player=302, other=302, gm=302, admin=302)
red_acts("mk:battle_roll", prep_battle_roll, (409, "That is for Red to do, not Blue."))
red_acts("mk:battle_allocate", prep_battle_allocate, (409, "That is for Red to do, not Blue."))
# Resolving automatically is for GMs (both sides' dice at once).
gm_only("mk:battle_auto", "post", prep_battle_auto, 302)
red_acts("mk:battle_losses", prep_battle_losses, (409, "That is for Red to do, not Blue."))
red_acts("mk:battle_concede", prep_battle_concede, (409, "That is for Red to do, not Blue."))
gm_only("mk:battle_kow_result", "post", prep_kow_result, 302)
row("mk:battle_slaughter", "post", prep_slaughter,  # Blue, slaughtered, gives up a token
    player=(409, "Blue chooses which of its tokens is lost, not Red (MK-AMB-6)."),
    other=302, gm=302, admin=302)
# Winter.
red_acts("mk:winter_recall", prep_recall,
         (409, "Blue has nothing left to choose at Recall."),
         ok=(409, "Red has nothing left to choose at Recall."))
red_acts("mk:winter_tithe", prep_tithe, (409, "It is Red&#x27;s turn (MK-TITHE-1)."))
red_acts("mk:winter_pass", prep_pass, (409, "It is Red&#x27;s turn (MK-TITHE-1)."))
red_acts("mk:winter_buy", prep_buy, (409, "It is Red&#x27;s turn (MK-BUY-1)."))
red_acts("mk:winter_feed", prep_feed, (409, "Army #2 is not one of yours (MK-FEED-1)."))
red_acts("mk:winter_deploy", prep_deploy,
         (409, "It is Red&#x27;s turn to deploy: one army each, in player order "
               "(MK-DEPLOY-4)."))
# The advanced modules: Wizard's quests and magical artefacts.
row("mk:advanced", "get", prep_advanced, observer=200, player=200, other=200, gm=200,
    admin=200)
red_acts("mk:quest", prep_quest, (409, "It is Red&#x27;s turn (MK-BUY-1)."))
gm_only("mk:artefact_add", "post", prep_artefact_add, 302)
gm_only("mk:artefact_remove", "post", prep_artefact_remove, 302)
red_acts("mk:artefact_assign", prep_artefact_assign,
         (409, "Blue does not hold that artefact (MK-ART-1)."))
red_acts("mk:artefact_claim", prep_artefact_claim,
         (409, "Blue does not hold that artefact (MK-ART-1)."))
# The ledger: a kingdom's ledger is its player's and the GMs'.
row("campaign:ledger:index", "get", prep_ledger_index,
    observer=(403, "Only a kingdom&#x27;s player and the GMs read its ledger."),
    player=302, other=302, gm=200, admin=200)  # a player is sent to their own kingdom's
for ledger_page in ("campaign:ledger:kingdom", "campaign:ledger:csv"):
    row(ledger_page, "get", prep_ledger_red,
        observer=(403, "A kingdom&#x27;s ledger is for its player and the GMs."),
        player=200, other=(403, "A kingdom&#x27;s ledger is for its player and the GMs."),
        gm=200, admin=200)
# Armies: rosters are public, a list is its player's (and the GMs') until a battle reveals it.
for public in ("mk:armies:index", "mk:armies:roster"):
    row(public, "get", prep_armies if public.endswith("index") else prep_roster,
        observer=200, player=200, other=200, gm=200, admin=200)
SECRET = (403, "This army&#x27;s list is secret until it fights a battle (MK-SETUP-7).")
row("mk:armies:army", "get", prep_red_army, observer=SECRET, player=200, other=SECRET,
    gm=200, admin=200)
NOT_THEIRS = (403, "Only the army&#x27;s player or a GM may write its list.")
PLAYER_ROLE = (403, "This needs the player role in Summer.")
for name, method, prepare, ok in (
        ("mk:armies:edit", "get", prep_red_army, 200),
        ("mk:armies:save_unit", "post", prep_save_unit, 302),
        ("mk:armies:copy_unit", "post", prep_unit_action, 302),
        ("mk:armies:remove_unit", "post", prep_unit_action, 302),
        ("mk:armies:details", "post", prep_details, 302),
        ("mk:armies:fix", "post", prep_fix, 302),
        ("mk:armies:paste", "get", prep_paste, 200),
        ("mk:armies:paste", "post", prep_paste, 302)):
    row(name, method, prepare, observer=PLAYER_ROLE, player=ok, other=NOT_THEIRS, gm=ok,
        admin=ok)
ARTEFACTS_OFF = (409, "Magical artefacts are not used in this campaign (MK-CFG-3).")
row("mk:armies:artefact", "post", prep_unit_artefact, observer=PLAYER_ROLE,
    player=ARTEFACTS_OFF,
    other=(403, "Only the army&#x27;s player or a GM may assign its artefacts."),
    gm=ARTEFACTS_OFF, admin=ARTEFACTS_OFF)
gm_only("mk:armies:battle", "get", prep_battles_battle, 200)
gm_only("mk:armies:reveal", "post", prep_battles_battle, 302)


def _routes() -> set[str]:
    """Every mk:*, ledger and armies URL name."""
    from django.urls import URLPattern, URLResolver, get_resolver

    found: set[str] = set()

    def walk(patterns: Any, namespaces: list[str]) -> None:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns,
                     namespaces + [pattern.namespace] if pattern.namespace else namespaces)
            elif isinstance(pattern, URLPattern) and pattern.name:
                found.add(":".join(namespaces + [pattern.name]))

    walk(get_resolver().url_patterns, [])
    return {n for n in found if n.startswith(("mk:", "campaign:ledger:", "mk:armies:"))}


def test_the_table_covers_every_route() -> None:
    assert {r.name for r in ROWS} == _routes()
    assert len({(r.name, r.method) for r in ROWS}) == len(ROWS)
    for r in ROWS:
        assert set(r.answers) == set(PERSONAS), r.name


def _answer(answer: Answer) -> tuple[int, str | None]:
    return (answer, None) if isinstance(answer, int) else answer


@pytest.mark.parametrize("persona", PERSONAS)
@pytest.mark.parametrize("r", ROWS, ids=[f"{r.name}-{r.method}" for r in ROWS])
def test_access(people: People, r: Row, persona: str) -> None:
    args, data = r.prepare(people)
    url = reverse(r.name, args=[people.scene.campaign.slug, *args])
    status, text = _answer(r.answers[persona])
    before = dump()
    client = people.client(persona)
    response = client.get(url) if r.method == "get" else client.post(url, data)
    body = response.content.decode()
    assert response.status_code == status, body[-600:]
    if text is not None:
        assert text in body
    if persona == "anonymous":
        assert response["Location"] == f"{reverse('login')}?next={quote(url)}"
    if status == 404:
        assert "No such campaign." in body and people.scene.campaign.name not in body
    if status >= 400 or persona == "anonymous" or r.method == "get":
        assert dump() == before
    else:
        # Done. (A battle fought in the app keeps its steps on the battle and writes one
        # chronicle entry when it ends; every other action is an event of its own.)
        after = dump()
        assert after != before
        if not r.name.startswith("mk:battle_") or r.name in ("mk:battle_auto",
                                                             "mk:battle_concede"):
            assert len(after["Event"]) > len(before["Event"])


# -- what a player's request does: always for their own kingdom -------------------------------


def test_a_player_naming_another_kingdom_still_acts_for_their_own(people: People) -> None:
    args, data = prep_race(people)
    s = people.scene
    data["kingdom"] = str(s.red.pk)
    response = people.client("other").post(reverse("mk:setup_race", args=[s.campaign.slug]),
                                           data)
    assert response.status_code == 302
    assert Kingdom.objects.get(pk=s.blue.pk).data.get("race") == "Basileans"
    assert not Kingdom.objects.get(pk=s.red.pk).data.get("race")


def test_a_gm_acts_for_the_kingdom_named(people: People) -> None:
    args, data = prep_race(people)
    s = people.scene
    data["kingdom"] = str(s.blue.pk)
    response = people.client("gm").post(reverse("mk:setup_race", args=[s.campaign.slug]), data)
    assert response.status_code == 302
    assert Kingdom.objects.get(pk=s.blue.pk).data.get("race") == "Basileans"
    assert not Kingdom.objects.get(pk=s.red.pk).data.get("race")


def test_a_gm_naming_a_kingdom_of_another_campaign_gets_404(people: People) -> None:
    from tests.conftest import make_campaign, make_user

    elsewhere = make_campaign(make_user("stranger"), slug="elsewhere", seed=None, width=3,
                              height=3)
    far = Kingdom.objects.create(campaign=elsewhere, name="Far")
    args, data = prep_race(people)
    data["kingdom"] = str(far.pk)
    before = dump()
    response = people.client("gm").post(
        reverse("mk:setup_race", args=[people.scene.campaign.slug]), data)
    assert response.status_code == 404
    assert "No such kingdom in this campaign." in response.content.decode()
    assert dump() == before


# -- the wrong method ------------------------------------------------------------------------------


def _other_method(r: Row) -> str:
    return "get" if r.method == "post" else "post"


# The paste form answers both methods (GET shows it, POST sends it).
BOTH = {"mk:armies:paste"}


@pytest.mark.parametrize("persona", ["outsider", "observer", "player", "gm"])
@pytest.mark.parametrize("r", [r for r in ROWS if r.name not in BOTH],
                         ids=[f"{r.name}-{r.method}" for r in ROWS if r.name not in BOTH])
def test_the_wrong_method_is_405_and_changes_nothing(people: People, r: Row,
                                                     persona: str) -> None:
    args, data = r.prepare(people)
    url = reverse(r.name, args=[people.scene.campaign.slug, *args])
    before = dump()
    client = people.client(persona)
    response = client.get(url) if _other_method(r) == "get" else client.post(url, data)
    assert response.status_code == 405
    assert dump() == before


# -- who asks comes before what they asked ---------------------------------------------------------


@pytest.mark.parametrize(("persona", "status"), [("outsider", 404), ("observer", 403)])
def test_unreadable_dice_from_someone_not_allowed_to_roll(people: People, persona: str,
                                                          status: int) -> None:
    args, _data = prep_battle_roll(people)
    url = reverse("mk:battle_roll", args=[people.scene.campaign.slug, *args])
    response = people.client(persona).post(url, {"side": "attacker", "source": "table",
                                                 "dice": "x"})
    assert response.status_code == status


def test_resolving_automatically_is_refused_to_players_as_forbidden(people: People) -> None:
    args, data = prep_battle_auto(people)
    url = reverse("mk:battle_auto", args=[people.scene.campaign.slug, *args])
    assert people.client("player").post(url, data).status_code == 403


def test_the_battle_page_is_read_only(people: People) -> None:
    args, _data = prep_battle_page(people)
    url = reverse("mk:battle_play", args=[people.scene.campaign.slug, *args])
    assert people.client("player").post(url, {}).status_code == 405
