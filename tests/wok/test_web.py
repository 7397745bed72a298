"""War of Kings through the web: who may do what, bad input refused with a 4xx changing nothing,
every kind of action undone exactly, constant queries as the board grows, the campaign file
round trip, the demo and the sheets."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaign import transfer
from campaign.chronicle import undo_latest
from campaign.models import Campaign, Kingdom, Role
from campaign.systems.war_of_kings import services
from campaign.systems.war_of_kings import state as st
from campaign.systems.war_of_kings.rules import board as wb
from campaign.systems.war_of_kings.rules.armies import destinations
from tests.conftest import add_member, make_campaign_of, make_user
from tests.wok.conftest import Game, dump


def _url(game: Game, name: str, *args: Any) -> str:
    return reverse(f"wok:{name}", kwargs={"slug": game.campaign.slug,
                                          **({"kingdom_id": args[0]} if args else {})})


def _to(game: Game, phase: str) -> None:
    while game.loaded().state.phase != phase:
        services.advance(game.campaign, game.gm, dice=["red", "green", "blue"])


# --- roles -------------------------------------------------------------------------------------

@pytest.mark.parametrize(("persona", "status"), [
    ("gm", 200), ("Red", 200), ("Blue", 200), ("observer", 200), ("outsider", 404),
    ("anonymous", 302),
])
def test_wok_turn_7_pages_by_role(game: Game, persona: str, status: int) -> None:
    """WOK-TURN-7: stockpiles, ledgers and AP are public to every member; outsiders see no
    campaign (404), anonymous users are sent to log in."""
    user = {"gm": game.gm, "observer": game.observer, "outsider": game.outsider,
            "anonymous": None}.get(persona) or game.players.get(persona)
    client = game.client(user)
    for url in (reverse("campaign:play", args=[game.campaign.slug]),
                reverse("campaign:detail", args=[game.campaign.slug]),
                _url(game, "ledger", game.kingdoms["Blue"].pk)):
        assert client.get(url).status_code == status, url


@pytest.mark.parametrize(("persona", "status"), [
    ("gm", 302), ("Red", 302), ("Blue", 409), ("observer", 403), ("outsider", 404),
])
def test_wok_cost_3_who_may_build_for_red(game: Game, persona: str, status: int) -> None:
    """WOK-COST-3: a player builds for their own kingdom, a GM for any; Blue naming Red builds
    for Blue (who does not hold Red's front, so it is refused); observers 403, outsiders 404.
    A refusal changes nothing."""
    _to(game, wb.CONSTRUCTION)
    user = {"gm": game.gm, "observer": game.observer,
            "outsider": game.outsider}.get(persona) or game.players.get(persona)
    before = dump(game.campaign)
    front = game.kingdoms["Red"].data["front"]
    response = game.client(user).post(_url(game, "build"), {
        "kingdom": game.kingdoms["Red"].pk, "item": "town", "where": front})
    assert response.status_code == status
    if status == 302:
        assert game.loaded().state.lvl(front) == wb.TOWN
    else:
        assert dump(game.campaign) == before
    if persona == "Blue":
        assert "WOK-SET-7" in response.content.decode()


@pytest.mark.parametrize(("persona", "status"), [
    ("gm", 302), ("Red", 403), ("observer", 403), ("outsider", 404)])
def test_wok_board_5_only_the_gm_edits_the_board(game: Game, persona: str, status: int) -> None:
    """WOK-BOARD-5, WOK-AMB-30: the GM enters a territory's emblem details."""
    user = {"gm": game.gm, "observer": game.observer,
            "outsider": game.outsider}.get(persona) or game.players.get(persona)
    response = game.client(user).post(_url(game, "territory"), {
        "label": "Peak", "primary": "", "secondary": "", "fort": "0"})
    assert response.status_code == status


def test_wok_turn_3_only_the_active_player_ends_their_phase(game: Game) -> None:
    """WOK-TURN-3: in a turn phase the active player (Red leads) or a GM ends the phase; Blue may
    not."""
    _to(game, wb.EVENT_DIE)
    assert game.loaded().state.active == "Red"
    refused = game.client(game.players["Blue"]).post(_url(game, "next"))
    assert refused.status_code == 409
    assert game.client(game.players["Red"]).post(_url(game, "next")).status_code == 302
    assert game.loaded().state.phase == wb.MOVEMENT


# --- bad input -----------------------------------------------------------------------------------

@pytest.mark.parametrize(("name", "data", "status", "words"), [
    ("build", {"item": "palace", "where": "Peak"}, 400, "“item” must be one of"),
    ("build", {"item": "town", "where": ""}, 400, "Say where to build."),
    ("build", {"item": "town", "where": "Nowhere"}, 409, "There is no territory Nowhere"),
    ("build", {"item": "village", "where": "Peak"}, 409, "WOK-SET-7"),
    ("trade", {"give": "gold", "receive": "gold"}, 400, "“receive” must be one of"),
    ("trade", {"give": "cattle", "receive": "stone", "lots": "x"}, 400, "whole number"),
    ("trade", {"give": "cattle", "receive": "stone", "lots": "3"}, 409, "WOK-MKT-1"),
    ("deal", {"to": "abc"}, 400, "Say which kingdom receives."),
    ("support", {"army_1": "feed"}, 400, "provisioned or removed"),
    ("territory", {"label": "Peak", "primary": "gold", "secondary": ""}, 400, "“primary”"),
    ("territory", {"label": "Peak", "primary": "", "secondary": "", "fort": "9"}, 400,
     "fortification"),
])
def test_wok_mkt_1_bad_input_is_refused_and_changes_nothing(game: Game, name: str,
                                                            data: dict[str, str], status: int,
                                                            words: str) -> None:
    """WOK-MKT-1, WOK-SET-7: out-of-shape input is a 400, a refusal by the rules a 409 naming
    the rule; nothing changes."""
    _to(game, wb.CONSTRUCTION)
    before = dump(game.campaign)
    url = reverse(f"wok:{'settle' if name == 'support' else name}",
                  args=[game.campaign.slug])
    response = game.client(game.gm).post(url, {"kingdom": game.kingdoms["Red"].pk, **data})
    assert response.status_code == status
    assert words in response.content.decode()
    assert dump(game.campaign) == before


def test_wok_econ_2_bad_dice_are_refused(game: Game) -> None:
    """WOK-ECON-2: three colours, or none for the app to roll."""
    _to(game, wb.RESOURCE_GENERATION)
    before = dump(game.campaign)
    response = game.client(game.gm).post(reverse("campaign:advance", args=[game.campaign.slug]),
                                         {"die1": "red", "die2": "purple", "die3": ""})
    assert response.status_code == 409
    assert "WOK-ECON-2" in response.content.decode()
    assert dump(game.campaign) == before


# --- undo of every kind of action ----------------------------------------------------------------

def _first_move(game: Game) -> tuple[int, str]:
    state = game.loaded().state
    army = state.armies_of(state.active or "")[0]
    paths = destinations(state, army.id)
    target = sorted(t for t in paths if state.ctrl(t) is None
                    and state.map.territory(t).playable)[0]
    return int(army.id[1:]), target


ACTIONS: dict[str, tuple[str, Callable[[Game], Any]]] = {
    "gold": (wb.RECEIVE_GOLD, lambda g: services.advance(g.campaign, g.gm)),
    "dice": (wb.RESOURCE_GENERATION,
             lambda g: services.advance(g.campaign, g.gm, roll=lambda sides: 2)),
    "close construction": (wb.CONSTRUCTION, lambda g: services.advance(g.campaign, g.gm)),
    "village": (wb.CONSTRUCTION, lambda g: services.build(
        g.campaign, g.gm, g.kingdoms["Red"], "walls", g.kingdoms["Red"].data["front"])),
    "army": (wb.CONSTRUCTION, lambda g: services.build(
        g.campaign, g.gm, g.kingdoms["Red"], "army", g.loaded().state.capital("Red"))),
    "trade": (wb.CONSTRUCTION, lambda g: services.trade(
        g.campaign, g.gm, g.kingdoms["Red"], "wheat", "stone", 1)),
    "deal": (wb.CONSTRUCTION, lambda g: services.deal(
        g.campaign, g.gm, g.kingdoms["Red"], g.kingdoms["Blue"], wb.Stock(gold=3))),
    "territory": (wb.CONSTRUCTION, lambda g: services.edit_territory(
        g.campaign, g.gm, "Peak", {"malador": True})),
    "v0.6": (wb.CONSTRUCTION, lambda g: services.use_v06(g.campaign, g.gm)),
    "move": (wb.MOVEMENT, lambda g: services.move(g.campaign, g.gm, *_first_move(g))),
}


@pytest.mark.parametrize("kind", sorted(ACTIONS))
def test_wok_turn_4_every_action_undone_exactly(game: Game, kind: str) -> None:
    """WOK-TURN-4: board, ledger, armies and clock after an undo equal those before the
    action, row for row."""
    phase, action = ACTIONS[kind]
    _to(game, phase)
    before = dump(game.campaign)
    action(game)
    assert dump(game.campaign) != before
    undo_latest(game.campaign, game.gm)
    assert dump(game.campaign) == before


def test_wok_expl_2_exploration_and_end_of_round_undone_exactly(game: Game) -> None:
    """WOK-EXPL-2, WOK-TURN-5: an exploration that finds resources, and the end of a round that
    readies every army, each undone exactly."""
    _to(game, wb.MOVEMENT)
    number, target = _first_move(game)
    services.move(game.campaign, game.gm, number, target)
    services.advance(game.campaign, game.gm)
    before = dump(game.campaign)
    services.explore(game.campaign, game.gm, target, "green", 3)
    state = game.loaded().state
    assert state.ctrl(target) == "Red"
    undo_latest(game.campaign, game.gm)
    assert dump(game.campaign) == before
    _to(game, wb.END_OF_ROUND)
    before = dump(game.campaign)
    services.advance(game.campaign, game.gm)
    assert game.loaded().state.round == 2
    assert all(a.ready for a in game.loaded().state.armies)
    undo_latest(game.campaign, game.gm)
    assert dump(game.campaign) == before


def test_wok_setup_9_setup_undone_exactly(db: Any) -> None:
    """WOK-SETUP-9: the whole setup is one event; undo returns to the empty board."""
    gm = make_user("undo-gm")
    campaign = make_campaign_of("war-of-kings", gm, slug="undo-setup", width=0, height=0,
                                seed=None)
    kingdoms = [Kingdom.objects.create(campaign=campaign, name=n, colour="#112233")
                for n in ("A", "B")]
    before = dump(campaign)
    from campaign.systems.war_of_kings.rules.boards import hex_realm

    crests = hex_realm().crests
    services.start_game(campaign, gm, [services.SeatChoice(k, c.capital, c.front)
                                       for k, c in zip(kingdoms, crests, strict=False)],
                        roll=lambda sides: 2)
    campaign.refresh_from_db()
    assert st.load(campaign).state.lead == "B"
    undo_latest(campaign, gm)
    assert dump(campaign) == before


# --- queries -----------------------------------------------------------------------------------

def _patch_game(slug: str, size: int) -> tuple[Campaign, Any]:
    gm = make_user(f"{slug}-gm")
    campaign = make_campaign_of("war-of-kings", gm, slug=slug, width=size, height=size, seed=3)
    a = Kingdom.objects.create(campaign=campaign, name="A", colour="#aa0000")
    b = Kingdom.objects.create(campaign=campaign, name="B", colour="#0000aa")
    user = make_user(f"{slug}-a")
    membership = add_member(campaign, user, Role.PLAYER)
    Kingdom.objects.filter(pk=a.pk).update(player=membership)
    last = f"{size:02d}"
    services.start_game(campaign, gm, [
        services.SeatChoice(a, f"{last}01", f"{size - 1:02d}01"),
        services.SeatChoice(b, f"01{last}", f"02{last}")], drawn=0)
    campaign.refresh_from_db()
    while campaign.phase != wb.CONSTRUCTION:
        services.advance(campaign, gm, dice=["red", "red", "red"])
        campaign.refresh_from_db()
    return campaign, user


def test_wok_ledger_1_play_page_queries_do_not_grow_with_the_board(db: Any) -> None:
    """WOK-LEDGER-1: the play page and the ledger page read a 5x5 and a 15x15 board in the same
    number of queries."""
    counts = []
    for slug, size in (("small-board", 5), ("large-board", 15)):
        campaign, user = _patch_game(slug, size)
        from django.test import Client

        client = Client()
        client.force_login(user)
        kingdom = Kingdom.objects.get(campaign=campaign, name="B")
        with CaptureQueriesContext(connection) as play:
            assert client.get(reverse("campaign:play", args=[slug])).status_code == 200
        with CaptureQueriesContext(connection) as ledger:
            assert client.get(reverse("wok:ledger", args=[slug, kingdom.pk])).status_code == 200
        counts.append((len(play), len(ledger)))
    assert counts[0] == counts[1]


# --- campaign file, demo, sheets ---------------------------------------------------------------

def test_wok_var_6_campaign_file_round_trip(game: Game) -> None:
    """WOK-VAR-6, WOK-EVENT-4: a game in progress exports and imports back to the same
    document, its armies, cultures, cards in hand, holders and lead included."""
    from campaign.systems.war_of_kings import battles
    from tests.campaign.conftest import as_imported, without_import_event

    battles.take_card(game.campaign, game.gm, game.kingdoms["Blue"], "Shield Wall", "+1 die")
    _to(game, wb.MOVEMENT)
    services.move(game.campaign, game.gm, *_first_move(game))
    first = transfer.export_campaign(game.campaign)
    assert first["campaign"]["systems"]["war-of-kings"]["cards"] == [
        {"holder": "Blue", "name": "Shield Wall", "effect": "+1 die", "drawn_round": 1,
         "played_round": None}]
    copy_ = transfer.import_campaign(json.loads(transfer.dumps(first)), game.gm, slug="wok-copy")
    second = transfer.export_campaign(Campaign.objects.get(pk=copy_.pk))
    assert without_import_event(second, game.gm.username) == as_imported(first,
                                                                          game.gm.username)
    loaded = st.load(Campaign.objects.get(pk=copy_.pk))
    assert loaded.state.lead == "Red" and loaded.state.active == "Red"
    assert len(loaded.state.armies) == 4
    assert loaded.state.holding(loaded.state.capital("Blue")).culture == "Blue"


def test_wok_tv_4_demo_in_round_six_with_a_broken_chain_and_a_battle(db: Any) -> None:
    """WOK-TV-4, WOK-ECON-8, WOK-MAL-14: the demo stops in round 6's first Battle Resolution
    Phase with an offer of battle pending, two Marauder armies and others in the field,
    roads, fortifications, a settlement cut off by a Malador-held link and a close race."""
    from campaign.demo import DEMO_USERS
    from campaign.systems.war_of_kings import demo
    from campaign.systems.war_of_kings.reading import standings
    from campaign.systems.war_of_kings.rules.economy import gold_report

    users = {name: make_user(name) for name, _, _ in DEMO_USERS}
    campaign = demo.build(users)
    campaign.refresh_from_db()
    loaded = st.load(campaign)
    state = loaded.state
    assert (state.round, state.phase) == (6, wb.BATTLE_RESOLUTION)
    from campaign.systems.war_of_kings.models import Battle

    battle = Battle.objects.get(campaign=campaign, status="pending")
    assert battle.attacker.name == state.active
    assert len([a for a in state.armies if a.owner == wb.MALADOR]) == 2
    assert len(state.armies) >= 8
    assert len(state.roads) >= 12
    assert sum(state.fort(t) for t in state.map.codes) >= 5
    cut = [line for k in state.kingdoms for line in gold_report(state, k)
           if "held by Malador" in line.reason and "Every road chain" in line.reason]
    assert cut
    ap = sorted(row["score"].total for row in standings(loaded))
    assert ap[-1] - ap[0] <= 3
    # WOK-EVENT-4, WOK-EVENT-5: a secret card in the lead player's hand, a played harvest card
    # booked by the GM in the next player's ledger under the card's name.
    from campaign.systems.war_of_kings.models import Card
    from ledger.models import LedgerEntry

    held = Card.objects.get(campaign=campaign, played_round__isnull=True)
    assert (held.name, held.holder.name) == ("Shield Wall", state.active)
    played = Card.objects.get(campaign=campaign, played_round=6)
    assert played.name == "Bountiful Harvest" and played.holder.name != state.active
    assert list(LedgerEntry.objects.filter(kingdom=played.holder, rule_id="WOK-EVENT-5")
                .values_list("resource", "amount", "source")) == [
        ("wheat", 3, "card Bountiful Harvest: the card's 3 wheat")]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_wok_ledger_4_sheets_print(game: Game, paper: str) -> None:
    """WOK-LEDGER-4: the ledger pad, the kingdom sheet, the map and the reference print as PDFs
    on A4 and Letter."""
    client = game.client(game.players["Red"])
    red = game.kingdoms["Red"].pk
    for url in (f"/c/{game.campaign.slug}/print/wok-ledger/{red}/pdf/",
                f"/c/{game.campaign.slug}/print/wok-kingdom/{red}/pdf/",
                f"/c/{game.campaign.slug}/print/wok-map/pdf/",
                f"/c/{game.campaign.slug}/print/wok-reference/pdf/"):
        response = client.get(url + f"?paper={paper}")
        assert response.status_code == 200, url
        assert response["Content-Type"] == "application/pdf"
        assert b"".join(response.streaming_content if response.streaming else
                        [response.content]).startswith(b"%PDF")


def test_wok_board_4_editing_one_detail_keeps_the_others(game: Game) -> None:
    """WOK-BOARD-4, WOK-TERR-1: marking a territory as the Malador's keeps its emblem
    resources, fortification and settlement culture."""
    capital = game.loaded().state.capital("Red")
    before = game.loaded().state.map.territory(capital)
    services.edit_territory(game.campaign, game.gm, capital, {"malador": True})
    state = game.loaded().state
    terr = state.map.territory(capital)
    assert (terr.primary, terr.secondary) == (before.primary, before.secondary) == (
        "cattle", "timber")
    assert state.ctrl(capital) == wb.MALADOR and state.holding(capital).culture == "Red"
