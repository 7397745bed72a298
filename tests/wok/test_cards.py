"""War of Kings card effects, rebellion, razing a liberated settlement, the strict timing of the
exclusive cards, the culture picker and the configurable dice, each through the services (and the
web forms where a page offers them): exact numbers, refusals citing the rule, undo exact."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from campaign.chronicle import Recorder, undo_latest
from campaign.models import Tile
from campaign.services import ServiceError
from campaign.systems.war_of_kings import battles, cards, services
from campaign.systems.war_of_kings.models import Army, Battle
from campaign.systems.war_of_kings.rules import board as wb
from campaign.systems.war_of_kings.rules.achievements import score
from campaign.systems.war_of_kings.rules.battle import Rolls
from campaign.systems.war_of_kings.rules.economy import gold_generation, ledger
from ledger.models import LedgerEntry
from ledger.services import check_balances
from tests.wok.conftest import Game, dump

H, F, S, B = "warhammer", "flail", "shield", "blank"


def _to(game: Game, phase: str) -> None:
    while game.loaded().state.phase != phase:
        services.advance(game.campaign, game.gm, dice=["red", "green", "blue"])


def _tile(game: Game, label: str) -> Tile:
    return Tile.objects.get(map__campaign=game.campaign, label=label)


def _set_up(game: Game, **changes: Any) -> None:
    """Test set-up written like any change, inside an event (tiles: label -> field values;
    armies: number -> field values; options; holders)."""
    with Recorder(game.campaign, game.gm, "test.setup", "set up for the test") as rec:
        for label, values in changes.get("tiles", {}).items():
            rec.update(_tile(game, label), **values)
        for number, values in changes.get("armies", {}).items():
            rec.update(Army.objects.get(campaign=game.campaign, number=number), **values)
        campaign = game.campaign
        campaign.refresh_from_db()
        values = {}
        if "options" in changes:
            values["options"] = changes["options"]
        if "holders" in changes:
            values["state"] = {**campaign.state, "holders": changes["holders"]}
        if values:
            rec.update(campaign, **values)
    game.campaign.refresh_from_db()


# --- the GM's stockpile adjustment for card effects -------------------------------------------

def test_wok_event_5_the_gm_adjusts_a_stockpile_for_a_card(game: Game) -> None:
    """WOK-EVENT-5, WOK-LEDGER-2: "Bountiful Harvest" gives Red 3 wheat and costs 2 gold: the
    stockpile goes from 7 wheat and 9 gold (after setup and receive gold) to the new figures,
    the ledger shows both lines under the card's name citing WOK-EVENT-5, and undo restores
    every row."""
    state = game.loaded().state
    red = state.stock("Red")
    before = dump(game.campaign)
    cards.adjust_stockpile(game.campaign, game.gm, game.kingdoms["Red"],
                           {"wheat": 3, "gold": -2}, "Bountiful Harvest", "a rich year")
    after = game.loaded().state.stock("Red")
    assert (after.wheat, after.gold) == (red.wheat + 3, red.gold - 2)
    assert (red.wheat, red.gold) == (7, 7)
    lines = list(LedgerEntry.objects.filter(kingdom=game.kingdoms["Red"], rule_id="WOK-EVENT-5")
                 .order_by("resource").values_list("resource", "amount", "source"))
    assert lines == [("gold", -2, "card Bountiful Harvest: a rich year"),
                     ("wheat", 3, "card Bountiful Harvest: a rich year")]
    assert check_balances(game.kingdoms["Red"]) == {}
    undo_latest(game.campaign, game.gm)
    assert dump(game.campaign) == before


def test_wok_event_5_refusals_name_the_rule_and_change_nothing(game: Game) -> None:
    """WOK-EVENT-5, WOK-LEDGER-2: no reason, no card name, nothing to change, or more taken
    than the stockpile holds: refused, nothing written."""
    before = dump(game.campaign)
    red = game.kingdoms["Red"]
    for changes, card, reason, rule in (
            ({"wheat": 1}, "Early Spring", "", "WOK-EVENT-5"),
            ({"wheat": 1}, "", "because", "WOK-EVENT-5"),
            ({}, "Early Spring", "because", "WOK-EVENT-5"),
            ({"stone": -3}, "Thievery", "stolen", "WOK-LEDGER-2")):
        with pytest.raises(ServiceError, match=rule):
            cards.adjust_stockpile(game.campaign, game.gm, red, changes, card, reason)
    assert dump(game.campaign) == before


def test_wok_event_5_stockpile_form_is_the_gms_only(game: Game) -> None:
    """WOK-EVENT-5: the GM's form books 5 timber to Blue; a player's post is refused (403) and a
    malformed amount is refused (400), neither writing anything."""
    url = reverse("wok:card_effect", args=[game.campaign.slug])
    form = {"effect": "stockpile", "kingdom": game.kingdoms["Blue"].pk, "timber": "+5",
            "card": "Teeming Timber", "reason": "the card's 5 timber"}
    before = dump(game.campaign)
    assert game.client(game.players["Blue"]).post(url, form).status_code == 403
    assert game.client(game.gm).post(url, {**form, "timber": "five"}).status_code == 400
    assert dump(game.campaign) == before
    timber = game.loaded().state.stock("Blue").timber
    assert game.client(game.gm).post(url, form).status_code == 302
    assert game.loaded().state.stock("Blue").timber == timber + 5 == 10
    page = game.client(game.gm).get(reverse("campaign:play", args=[game.campaign.slug]))
    assert "Carry out a card (GM, WOK-EVENT-5)" in page.content.decode()
    assert "Carry out a card" not in game.client(game.players["Red"]).get(
        reverse("campaign:play", args=[game.campaign.slug])).content.decode()


# --- armies, placement and roads from cards ---------------------------------------------------

def test_wok_army_6_a_card_damages_readies_and_removes_armies(game: Game) -> None:
    """WOK-EVENT-5, WOK-ARMY-6, WOK-ARMY-5: "Bombardment" puts 2 counters on Red's army 1 and
    makes it unready; "Rally the Troops" takes 1 away and readies it; a third card adding 2
    more takes it to 3: removed. Taking away more than it has is refused. Each undone
    exactly."""
    before = dump(game.campaign)
    cards.change_army(game.campaign, game.gm, 1, "Bombardment", "two hits", damage=2,
                      ready=False)
    army = game.loaded().state.army("A1")
    assert (army.damage, army.ready) == (2, False)
    cards.change_army(game.campaign, game.gm, 1, "Rally the Troops", "one healed", damage=-1,
                      ready=True)
    army = game.loaded().state.army("A1")
    assert (army.damage, army.ready) == (1, True)
    with pytest.raises(ServiceError, match="WOK-ARMY-6"):
        cards.change_army(game.campaign, game.gm, 1, "Rest", "too much", damage=-2)
    middle = dump(game.campaign)
    cards.change_army(game.campaign, game.gm, 1, "Bombardment", "two more", damage=2)
    assert "A1" not in {a.id for a in game.loaded().state.armies}
    undo_latest(game.campaign, game.gm)
    assert dump(game.campaign) == middle
    undo_latest(game.campaign, game.gm)
    undo_latest(game.campaign, game.gm)
    assert dump(game.campaign) == before


def test_wok_army_3_a_card_places_a_new_army_unready(game: Game) -> None:
    """WOK-EVENT-5, WOK-ARMY-3, WOK-ARMY-2: "Reinforcements" brings Red a new army (number 5,
    after the four of setup) into its capital, unready and of Red's culture; into Blue's
    capital it is refused."""
    state = game.loaded().state
    capital = state.capital("Red")
    with pytest.raises(ServiceError, match="WOK-ARMY-2"):
        cards.place_army(game.campaign, game.gm, game.kingdoms["Red"], state.capital("Blue"),
                         "Reinforcements", "one more army")
    before = dump(game.campaign)
    cards.place_army(game.campaign, game.gm, game.kingdoms["Red"], capital, "Reinforcements",
                     "one more army")
    army = game.loaded().state.army("A5")
    assert (army.owner, army.culture, army.territory, army.ready, army.damage) == (
        "Red", "Red", capital, False, 0)
    assert len(game.loaded().state.armies_of("Red")) == 2
    undo_latest(game.campaign, game.gm)
    assert dump(game.campaign) == before


def test_wok_expl_3_a_card_lays_an_ownerless_road(game: Game) -> None:
    """WOK-EVENT-5, WOK-EXPL-3, WOK-AMB-18, WOK-ROAD-1: "Raise a Road" lays a road across a
    border Red does not control (no control needed); a second road there, or between
    territories that do not touch, is refused."""
    state = game.loaded().state
    capital = state.capital("Red")
    a = sorted(t for t in state.map.neighbours(capital)
               if state.map.territory(t).playable and wb.border(capital, t) not in state.roads)[0]
    b = sorted(t for t in state.map.neighbours(a) if state.map.territory(t).playable
               and t != capital and wb.border(a, t) not in state.roads)[0]
    far = state.capital("Black")
    before = dump(game.campaign)
    cards.lay_road(game.campaign, game.gm, a, b, "Raise a Road", "the card's road")
    assert wb.border(a, b) in game.loaded().state.roads
    assert "road" in _tile(game, a).edges[b] and "road" in _tile(game, b).edges[a]
    with pytest.raises(ServiceError, match="WOK-AMB-18"):
        cards.lay_road(game.campaign, game.gm, b, a, "Raise a Road", "again")
    with pytest.raises(ServiceError, match="WOK-ROAD-1"):
        cards.lay_road(game.campaign, game.gm, capital, far, "Raise a Road", "too far")
    undo_latest(game.campaign, game.gm)
    assert dump(game.campaign) == before


# --- rebellion ---------------------------------------------------------------------------------

def _blue_culture_front(game: Game) -> str:
    """Red's front village carries Blue's culture, and Red's army has gone to the capital."""
    state = game.loaded().state
    front = game.kingdoms["Red"].data["front"]
    tile = _tile(game, front)
    _set_up(game, tiles={front: {"data": {**tile.data,
                                          "culture": game.kingdoms["Blue"].order_position}}},
            armies={1: {"tile": _tile(game, state.capital("Red"))}})
    return front


def test_wok_mal_17_incite_revolt_turns_a_foreign_settlement(game: Game) -> None:
    """WOK-MAL-17, WOK-CULT-5, WOK-AMB-21, WOK-MAL-9, WOK-MAL-16: in Red's Event Die Phase the
    Marauder card "Incite Revolt" turns Red's Blue-culture village (no army in it) to Blue;
    Blue, to Red's left, carries it out (Green may not). Red's ledger loses the village's 2
    units and Blue's gains them; Red's gold per round drops from 9 to 6 (the village's 3) and
    Blue's stays (the village has no road chain to Blue's capital); the AP follow
    (Red 3 to 2, Blue 3 to 4). Undo restores every row."""
    _to(game, wb.EVENT_DIE)
    front = _blue_culture_front(game)
    loaded = game.loaded()
    state = loaded.state
    colour = state.map.territory(front).color
    primary = state.map.territory(front).primary
    red_before = ledger(state, "Red").column(colour).amount(primary)
    blue_before = ledger(state, "Blue").column(colour).amount(primary)
    assert gold_generation(state, "Red") == 9
    blue_gold = gold_generation(state, "Blue")
    assert [score(state, k, loaded.holders).total for k in ("Red", "Blue")] == [3, 3]
    with pytest.raises(ServiceError, match="WOK-MAL-9: Blue"):
        cards.rebellion(game.campaign, game.gm, front, acting="Green")
    before = dump(game.campaign)
    url = reverse("wok:rebellion", args=[game.campaign.slug])
    page = game.client(game.players["Blue"]).get(reverse("campaign:play",
                                                         args=[game.campaign.slug]))
    assert f'<option value="{front}">{front}: Blue culture under Red, goes to Blue' in \
        page.content.decode()
    assert game.client(game.players["Blue"]).post(url, {"territory": front}).status_code == 302
    loaded = game.loaded()
    state = loaded.state
    assert state.ctrl(front) == "Blue" and state.lvl(front) == wb.VILLAGE
    assert ledger(state, "Red").column(colour).amount(primary) == red_before - 2
    assert ledger(state, "Blue").column(colour).amount(primary) == blue_before + 2
    assert gold_generation(state, "Red") == 6
    assert gold_generation(state, "Blue") == blue_gold
    assert [score(state, k, loaded.holders).total for k in ("Red", "Blue")] == [2, 4]
    undo_latest(game.campaign, game.gm)
    assert dump(game.campaign) == before


def test_wok_mal_17_rebellion_refusals(game: Game) -> None:
    """WOK-MAL-17, WOK-MAL-16, WOK-V06-19: outside the Event Die Phase, a settlement of its
    controller's culture, or one with an army in it do not rebel; under the v0.6 option the
    rebels go to the Malador."""
    front = game.kingdoms["Red"].data["front"]
    with pytest.raises(ServiceError, match="WOK-MAL-16"):
        cards.rebellion(game.campaign, game.gm, front)
    _to(game, wb.EVENT_DIE)
    with pytest.raises(ServiceError, match="WOK-MAL-17: only a settlement of a foreign"):
        cards.rebellion(game.campaign, game.gm, front)
    tile = _tile(game, front)
    _set_up(game, tiles={front: {"data": {**tile.data,
                                          "culture": game.kingdoms["Blue"].order_position}}})
    with pytest.raises(ServiceError, match="WOK-MAL-17: an army stands"):
        cards.rebellion(game.campaign, game.gm, front)
    state = game.loaded().state
    _set_up(game, armies={1: {"tile": _tile(game, state.capital("Red"))}},
            options={"rebellion_to": "malador"})
    cards.rebellion(game.campaign, game.gm, front)
    assert game.loaded().state.ctrl(front) == wb.MALADOR


# --- razing a liberated settlement -------------------------------------------------------------

def _red_village_under_blue(game: Game) -> str:
    state = game.loaded().state
    front = game.kingdoms["Red"].data["front"]
    _set_up(game, tiles={front: {"controller": game.kingdoms["Blue"]}},
            armies={1: {"tile": _tile(game, state.capital("Red"))}})
    return front


def test_wok_mil_6_a_liberated_settlement_joins_its_own_culture(game: Game) -> None:
    """WOK-MIL-6, WOK-CONQ-4, WOK-CULT-3: Red's army walks into its own-culture village held by
    Blue with no army: liberated at once, no battle."""
    front = _red_village_under_blue(game)
    _to(game, wb.MOVEMENT)
    services.move(game.campaign, game.gm, 1, front)
    assert game.loaded().state.ctrl(front) == "Red"
    assert not Battle.objects.filter(campaign=game.campaign).exists()


def test_wok_mil_6_razing_a_liberated_settlement_fights_its_militia(game: Game) -> None:
    """WOK-MIL-6, WOK-MIL-4, WOK-CONQ-6: Red comes to raze its own-culture village held by
    Blue: the militia musters (1 damage, 2 defend dice, 3 counter dice) and falls to one hit;
    capture is refused (the point was to raze) and razing gives Red 2 gold, 1 timber, 1 wheat,
    1 cattle. Asking to raze where nothing would be liberated is refused. Undo is exact."""
    front = _red_village_under_blue(game)
    _to(game, wb.MOVEMENT)
    state = game.loaded().state
    from campaign.systems.war_of_kings.rules.armies import destinations

    empty = sorted(t for t in destinations(state, "A1") if t != front)[0]
    with pytest.raises(ServiceError, match="WOK-MIL-6"):
        services.move(game.campaign, game.gm, 1, empty, raze=True)
    response = game.client(game.players["Red"]).post(
        reverse("wok:move", args=[game.campaign.slug]), {"army": 1, "to": front, "raze": "on"})
    assert response.status_code == 302
    battle = Battle.objects.get(campaign=game.campaign)
    assert battle.data == {"attackers": [1], "raze": True}
    assert game.loaded().state.ctrl(front) == "Blue"
    _to(game, wb.BATTLE_RESOLUTION)
    with pytest.raises(ServiceError, match="WOK-BATTLE-5: the counterattack roll takes 3"):
        battles.fight(game.campaign, game.gm, battle.number,
                      Rolls((H, B, B, B), (B, B), (B, B, B, B), (B, B)))
    battles.fight(game.campaign, game.gm, battle.number,
                  Rolls((H, B, B, B), (B, B), (B, B, B), (B, B)))
    with pytest.raises(ServiceError, match="WOK-MIL-6"):
        battles.settle_conquest(game.campaign, game.gm, battle.number, raze=False)
    stock = game.loaded().state.stock("Red")
    before = dump(game.campaign)
    page = game.client(game.players["Red"]).get(reverse("campaign:play",
                                                        args=[game.campaign.slug]))
    assert "Raze for loot (WOK-MIL-6, WOK-CONQ-6)" in page.content.decode()
    assert "Capture (WOK-CONQ-3)" not in page.content.decode()
    battles.settle_conquest(game.campaign, game.gm, battle.number, raze=True)
    state = game.loaded().state
    after = state.stock("Red")
    assert state.ctrl(front) == "Red" and state.lvl(front) == 0
    assert (after.gold - stock.gold, after.timber - stock.timber, after.wheat - stock.wheat,
            after.cattle - stock.cattle, after.stone - stock.stone) == (2, 1, 1, 1, 0)
    undo_latest(game.campaign, game.gm)
    assert dump(game.campaign) == before


# --- the exclusive cards' timing, through the services ----------------------------------------

@pytest.mark.parametrize(("timing", "after_dip", "at_the_end"),
                         [("end_of_round", "Red", "Red"), ("strict", None, None)])
def test_wok_amb_3_warlord_timing_through_the_services(game: Game, timing: str,
                                                       after_dip: str | None,
                                                       at_the_end: str | None) -> None:
    """WOK-AMB-3, WOK-ACH-6, WOK-ACH-5, WOK-MAL-16, WOK-AMB-31: Red holds Warlord with 7
    territories, Blue has 7. In Red's Event Die Phase a Marauder card walks Marauders into an
    empty Red territory (Red 6: below the threshold); in Red's Movement Phase Red's army walks
    into the empty Malador territory they left (Red 7 again, tied with Blue). At the default
    timing Red keeps the card throughout; under the strict option the dip loses it at once and
    the tie at the end of the round awards nobody: Red ends on 3 AP instead of 4."""
    state = game.loaded().state
    front = game.kingdoms["Red"].data["front"]
    x = sorted(t for t in state.map.neighbours(front)
               if state.ctrl(t) is None and state.map.territory(t).playable)[0]
    y = sorted(t for t in state.map.neighbours(x) if state.ctrl(t) is None
               and state.map.territory(t).playable and t not in state.map.neighbours(front)
               and t != front)[0]
    taken = {x, y}
    spare = [t for t in state.map.codes if state.ctrl(t) is None and t not in taken
             and state.map.territory(t).playable
             and not set(state.map.neighbours(t)) & taken]
    red_more = 7 - len(state.controlled("Red")) - 1
    blue_more = 7 - len(state.controlled("Blue"))
    tiles = {y: {"controller": game.kingdoms["Red"], "explored": True}}
    for t in spare[:red_more]:
        tiles[t] = {"controller": game.kingdoms["Red"], "explored": True}
    for t in spare[red_more:red_more + blue_more]:
        tiles[t] = {"controller": game.kingdoms["Blue"], "explored": True}
    _set_up(game, tiles=tiles, options={"exclusive_timing": timing},
            holders={"master_merchant": None, "warlord": game.kingdoms["Red"].pk})
    state = game.loaded().state
    assert (len(state.controlled("Red")), len(state.controlled("Blue"))) == (7, 7)
    _to(game, wb.EVENT_DIE)
    battles.place_marauders(game.campaign, game.gm, x, 1)
    marauder = game.loaded().state.armies_in(x, wb.MALADOR)[0]
    _set_up(game, armies={int(marauder.id[1:]): {"ready": True}})
    battles.marauders_move(game.campaign, game.gm, int(marauder.id[1:]), y)
    loaded = game.loaded()
    assert loaded.state.ctrl(y) == wb.MALADOR and len(loaded.state.controlled("Red")) == 6
    assert loaded.holders.warlord == after_dip
    _to(game, wb.MOVEMENT)
    services.move(game.campaign, game.gm, 1, x)
    state = game.loaded().state
    assert state.ctrl(x) == "Red"
    assert (len(state.controlled("Red")), len(state.controlled("Blue"))) == (7, 7)
    _to(game, wb.END_OF_ROUND)
    services.advance(game.campaign, game.gm)
    loaded = game.loaded()
    assert loaded.holders.warlord == at_the_end
    assert score(loaded.state, "Red", loaded.holders, loaded.options).total == (
        4 if at_the_end == "Red" else 3)


# --- the culture picker ------------------------------------------------------------------------

def test_wok_cult_1_the_gm_picks_a_culture_on_the_tile_panel(game: Game) -> None:
    """WOK-CULT-1, WOK-CULT-3: the tile panel of Red's front village offers the GM the kingdoms
    by name and the Malador; picking Green writes Green's seat number through an event (undone
    exactly); a player may not (403); a culture that is no kingdom is refused (409)."""
    front = game.kingdoms["Red"].data["front"]
    panel = game.client(game.gm).get(reverse("campaign:tile",
                                             args=[game.campaign.slug, front]),
                                     HTTP_HX_REQUEST="true").content.decode()
    green = game.kingdoms["Green"].order_position
    assert f'<option value="{green}">Green</option>' in panel
    assert '<option value="malador">The Malador</option>' in panel
    assert "Settlement culture: " in panel
    url = reverse("wok:culture", args=[game.campaign.slug])
    before = dump(game.campaign)
    assert game.client(game.players["Red"]).post(
        url, {"label": front, "culture": str(green)}).status_code == 403
    assert game.client(game.gm).post(url, {"label": front, "culture": "8"}).status_code == 409
    assert dump(game.campaign) == before
    response = game.client(game.gm).post(url, {"label": front, "culture": str(green)})
    assert response.status_code == 302 and response["Location"].endswith(f"?tile={front}")
    assert _tile(game, front).data["culture"] == green
    assert game.loaded().state.holding(front).culture == "Green"
    event = game.campaign.events.latest("pk")
    assert event.summary == f"The GM sets the culture of the settlement in {front} to Green " \
                            "(WOK-CULT-1)."
    panel = game.client(game.gm).get(reverse("campaign:tile",
                                             args=[game.campaign.slug, front]),
                                     HTTP_HX_REQUEST="true").content.decode()
    assert f'<option value="{green}" selected>Green</option>' in panel
    undo_latest(game.campaign, game.gm)
    assert dump(game.campaign) == before


# --- the dice faces and the exploration rows as options ----------------------------------------

def test_wok_amb_14_battle_die_faces_come_from_the_options(game: Game) -> None:
    """WOK-AMB-14: with red dice set to 8 warhammers and blue to 8 shields, the app's roll of a
    1 on every die gives 4 warhammers against 2 shields and a counterattack of 4 shields (no
    flail): the Marauder army takes 2 counters, Red's army none."""
    _to(game, wb.MOVEMENT)
    state = game.loaded().state
    army = state.army("A1")
    target = sorted(t for t in state.map.neighbours(army.territory)
                    if state.ctrl(t) is None and state.map.territory(t).playable)[0]
    battles.place_marauders(game.campaign, game.gm, target, 1)
    _set_up(game, options={"red_warhammers": 8, "red_shields": 0, "red_flails": 0,
                           "blue_flails": 0, "blue_shields": 8, "blue_warhammers": 0})
    services.move(game.campaign, game.gm, 1, target)
    _to(game, wb.BATTLE_RESOLUTION)
    number = Battle.objects.get(campaign=game.campaign).number
    battles.fight(game.campaign, game.gm, number, roll=lambda sides: sides)
    first = Battle.objects.get(campaign=game.campaign, number=number).data["rounds"][0]
    assert first["attack"] == [H, H, H, H] and first["defense"] == [S, S]
    assert first["counter"] == [S, S, S, S] and first["negation"] == [H, H]
    assert (first["hits"], first["shields"], first["counter_hits"]) == (4, 2, 0)
    state = game.loaded().state
    assert state.armies_in(target, wb.MALADOR)[0].damage == 2
    assert state.army("A1").damage == 0


def test_wok_amb_7_a_bonus_die_symbol_reads_its_configured_row(game: Game) -> None:
    """WOK-AMB-7, WOK-EXPL-2: with a shield set to read row 3, a green Resource Die and a shield
    explore as green row 3 (2 units of the primary resource, the territory conquered); a flail,
    not set, is refused naming WOK-AMB-7."""
    _to(game, wb.MOVEMENT)
    state = game.loaded().state
    army = state.army("A1")
    target = sorted(t for t in state.map.neighbours(army.territory)
                    if state.ctrl(t) is None and state.map.territory(t).playable)[0]
    primary = state.map.territory(target).primary
    _set_up(game, options={"explore_row_shield": 3})
    services.move(game.campaign, game.gm, 1, target)
    _to(game, wb.EXPLORATION)
    page = game.client(game.players["Red"]).get(reverse("campaign:play",
                                                        args=[game.campaign.slug]))
    assert '<option value="shield">shield</option>' in page.content.decode()
    url = reverse("wok:explore", args=[game.campaign.slug])
    refused = game.client(game.players["Red"]).post(
        url, {"territory": target, "colour": "green", "face": "flail"})
    assert refused.status_code == 409 and "WOK-AMB-7" in refused.content.decode()
    before = game.loaded().state.stock("Red").amount(primary)
    response = game.client(game.players["Red"]).post(
        url, {"territory": target, "colour": "green", "face": "shield"})
    assert response.status_code == 302
    state = game.loaded().state
    assert state.ctrl(target) == "Red" and state.stock("Red").amount(primary) == before + 2


# --- a resource card towards a purchase (FAQ 1) ------------------------------------------------

def test_wok_event_5_a_resource_card_is_spread_over_purchases(game: Game) -> None:
    """WOK-EVENT-5 (FAQ 1), WOK-COST-1: "Great Grains" gives 3 wheat. A road (3 gold, 2
    timber, 1 wheat) takes 1: Red's wheat does not change, its gold drops by 3 and timber by 2,
    the ledger shows the card's unit coming in and the price going out, and 2 wheat stay Red's
    for this Construction Phase (shown on the build card, never in the stockpile). Closing
    construction loses them; undone, they are back. A town (6 gold, 4 timber, 4 wheat, 4
    cattle, 1 stone) built through the form with "Bountiful Bovine" (3 cattle) takes the 2
    wheat left first and 3 cattle from the new card: Red pays 2 wheat and 1 cattle of its own,
    and nothing is left. A card of 4 units is refused. Each step undoes exactly."""
    from campaign.systems.war_of_kings.rules import construction

    _to(game, wb.CONSTRUCTION)
    loaded = game.loaded()
    road = next(b for b in construction.available_builds(loaded.state, "Red", loaded.options)
                if b.item == "road" and b.allowed)
    red = game.kingdoms["Red"]
    with pytest.raises(ServiceError, match="WOK-EVENT-5"):
        services.build(game.campaign, game.gm, red, "road", road.where,
                       services.CardUnits("Great Grains", "wheat", 4))
    before_stock = loaded.state.stock("Red")
    before = dump(game.campaign)
    services.build(game.campaign, game.gm, red, "road", road.where,
                   services.CardUnits("Great Grains", "wheat", 3))
    after = game.loaded().state.stock("Red")
    assert (after.gold, after.timber, after.wheat) == (
        before_stock.gold - 3, before_stock.timber - 2, before_stock.wheat)
    lines = sorted(LedgerEntry.objects.filter(kingdom=red, resource="wheat")
                   .order_by("-pk").values_list("amount", "rule_id")[:2])
    assert lines == [(-1, "WOK-COST-1"), (1, "WOK-EVENT-5")]
    event = game.campaign.events.latest("pk")
    assert event.summary.endswith(
        "Great Grains pays 1 wheat; 2 wheat of Great Grains left for other purchases this "
        "Construction Phase (WOK-EVENT-5).")
    game.campaign.refresh_from_db()
    assert game.campaign.state["card_left"] == {
        "Red": [{"card": "Great Grains", "resource": "wheat", "units": 2}]}
    assert check_balances(red) == {}
    page = game.client(game.players["Red"]).get(f"/c/{game.campaign.slug}/play/")
    assert ("Still to spend from resource cards: 2 wheat of Great Grains."
            in page.content.decode())
    # Construction closes with the 2 wheat unspent: they are lost, the stockpile unchanged.
    kept = dump(game.campaign)
    services.advance(game.campaign, game.gm)
    closed = game.campaign.events.latest("pk")
    assert ("Unspent card units are lost (WOK-EVENT-5): Red 2 wheat of Great Grains."
            in closed.summary)
    game.campaign.refresh_from_db()
    assert game.campaign.state["card_left"] == {}
    assert game.loaded().state.stock("Red") == after
    undo_latest(game.campaign, game.gm)
    assert dump(game.campaign) == kept
    # The town, through the build form: the wheat left pays first, then the new card's cattle.
    front = red.data["front"]
    mine = game.loaded().state.stock("Red")
    response = game.client(game.players["Red"]).post(
        reverse("wok:build", args=[game.campaign.slug]),
        {"step": f"town|{front}", "card": "Bountiful Bovine", "card_units": "3",
         "card_resource": "cattle"})
    assert response.status_code == 302
    state = game.loaded().state
    assert state.lvl(front) == wb.TOWN
    assert (state.stock("Red").wheat, state.stock("Red").cattle) == (mine.wheat - 2,
                                                                       mine.cattle - 1)
    assert game.campaign.events.latest("pk").summary.endswith(
        "Great Grains pays 2 wheat; Bountiful Bovine pays 3 cattle (WOK-EVENT-5).")
    game.campaign.refresh_from_db()
    assert game.campaign.state["card_left"] == {}
    assert check_balances(red) == {}
    undo_latest(game.campaign, game.gm)
    assert dump(game.campaign) == kept
    undo_latest(game.campaign, game.gm)
    assert dump(game.campaign) == before


@pytest.mark.parametrize("left", [["Red"], {"Red": "3 wheat"},
                                  {"Red": [{"card": 7, "resource": "wheat", "units": 2},
                                           {"card": "X", "resource": "gold", "units": 2},
                                           {"card": "Y", "resource": "wheat", "units": -1}]}])
def test_wok_event_5_card_units_left_in_a_bad_file_are_ignored(game: Game, left: Any) -> None:
    """WOK-EVENT-5: units left of resource cards, as a campaign file may bring them mangled
    (not a table by kingdom, not a list, a card without a name, gold, fewer than 1 unit), are
    not spent: the Play page shows none and closing construction loses none."""
    _to(game, wb.CONSTRUCTION)
    with Recorder(game.campaign, game.gm, "test.left", "mangled card units") as rec:
        rec.update(game.campaign, state={**game.campaign.state, "card_left": left})
    page = game.client(game.players["Red"]).get(f"/c/{game.campaign.slug}/play/")
    assert page.status_code == 200 and "Still to spend" not in page.content.decode()
    services.advance(game.campaign, game.gm)
    assert "Unspent card units" not in game.campaign.events.latest("pk").summary


def test_wok_mal_4_forced_march_moves_an_unready_marauder_army(game: Game) -> None:
    """WOK-MAL-4, WOK-MOVE-8, WOK-MAL-12, WOK-MAL-16: Marauders placed by a card are unready and
    cannot move; Blue, running them for Red's Event Die Phase, plays its own Forced March to
    move the army one territory, into Red's front village where Red's army stands: an offer of
    battle for this Event Die Phase."""
    _to(game, wb.EVENT_DIE)
    state = game.loaded().state
    front = state.army("A1").territory
    lair = sorted(t for t in state.map.neighbours(front)
                  if state.ctrl(t) is None and state.map.territory(t).playable)[0]
    battles.place_marauders(game.campaign, game.gm, lair, 1)
    number = int(game.loaded().state.armies_in(lair, wb.MALADOR)[0].id[1:])
    url = reverse("wok:marauders_move", args=[game.campaign.slug])
    blue = game.client(game.players["Blue"])
    refused = blue.post(url, {"army": number, "to": front})
    assert refused.status_code == 409 and "WOK-MOVE-7" in refused.content.decode()
    assert blue.post(url, {"army": number, "to": front, "forced_march": "on"}).status_code == 302
    battle = Battle.objects.get(campaign=game.campaign)
    assert battle.data == {"attackers": [number], "marauder_card": True}
    assert battle.tile.label == front
    assert "by Forced March (WOK-MAL-4)" in game.campaign.events.latest("pk").summary


# --- the battle reference sheet -------------------------------------------------------------

def test_wok_battle_5_the_battle_reference_prints_this_games_dice(game: Game) -> None:
    """WOK-BATTLE-5, WOK-AMB-14, WOK-AMB-7, WOK-MIL-4, WOK-CONQ-6, WOK-V06-7: the battle
    reference lists each die's faces as this game set them (8 red warhammers here), the
    militia table of the chosen edition (v0.6: a town falls at 1 hit), Table 8 and the
    bonus-die symbol read as a Table 9 row; it prints as a PDF."""
    _set_up(game, options={"red_warhammers": 8, "red_shields": 0, "red_flails": 0,
                           "militia": "v0.6", "explore_row_flail": 2})
    client = game.client(game.observer)
    page = client.get(f"/c/{game.campaign.slug}/print/wok-battle-reference/")
    text = page.content.decode()
    assert page.status_code == 200
    assert "<td>8 warhammer</td>" in text
    assert "WOK-V06-20" not in text
    assert "<td>3 flail, 2 shield, 1 warhammer, 2 blank</td>" in text
    assert ('<tr><td>town</td><td class="num">1</td><td class="num">2</td>'
            '<td class="num">3</td><td>fortress</td><td class="num">2</td></tr>') in text
    assert ('<tr><td>city</td><td class="num">9</td><td class="num">5</td><td class="num">5'
            '</td><td class="num">6</td><td class="num">2</td></tr>') in text
    assert "flail reads row 2." in text
    # WOK-V06-20: with the v0.6 ruling chosen, the sheet says an unready defender may withdraw.
    _set_up(game, options={**game.campaign.options, "forced_march_withdraw": True})
    text = client.get(f"/c/{game.campaign.slug}/print/wok-battle-reference/").content.decode()
    assert ("an unready defender may withdraw the same way by playing Forced March "
            '<span class="rule">WOK-V06-20</span>') in text
    pdf = client.get(f"/c/{game.campaign.slug}/print/wok-battle-reference/pdf/?paper=letter")
    data = b"".join(pdf.streaming_content) if pdf.streaming else pdf.content
    assert pdf.status_code == 200 and data.startswith(b"%PDF")


@pytest.mark.parametrize(("timing", "holder"), [("end_of_round", "Red"), ("strict", None)])
def test_wok_amb_3_a_gm_recorded_malador_taking_counts_as_a_dip(game: Game, timing: str,
                                                                holder: str | None) -> None:
    """WOK-AMB-3, WOK-TERR-1: Red holds Warlord with exactly 7 territories; the GM records the
    Malador taking an empty one of them. Strict timing: Red loses the card at once; at the
    default timing it keeps it until the end-of-round check. Undo restores the holder."""
    state = game.loaded().state
    spare = [t for t in state.map.codes if state.ctrl(t) is None
             and state.map.territory(t).playable]
    more = 7 - len(state.controlled("Red"))
    _set_up(game, tiles={t: {"controller": game.kingdoms["Red"], "explored": True}
                         for t in spare[:more]},
            options={"exclusive_timing": timing},
            holders={"master_merchant": None, "warlord": game.kingdoms["Red"].pk})
    assert len(game.loaded().state.controlled("Red")) == 7
    before = dump(game.campaign)
    services.edit_territory(game.campaign, game.gm, spare[0], {"malador": True})
    loaded = game.loaded()
    assert loaded.state.ctrl(spare[0]) == wb.MALADOR
    assert loaded.holders.warlord == holder
    undo_latest(game.campaign, game.gm)
    assert dump(game.campaign) == before
