"""War of Kings armies and battles played through the services: Marauders placed by a card, an
offer of battle, rounds from typed symbols and from the app's dice, withdrawals, a militia, the
capture-or-raze choice, resupply and the Event Die; each undone exactly."""

from __future__ import annotations

import pytest

from campaign.chronicle import undo_latest
from campaign.services import ServiceError
from campaign.systems.war_of_kings import battles, services
from campaign.systems.war_of_kings.models import Battle
from campaign.systems.war_of_kings.rules import board as wb
from campaign.systems.war_of_kings.rules.battle import Rolls
from tests.wok.conftest import Game, dump

H, F, S, B = "warhammer", "flail", "shield", "blank"


def _to(game: Game, phase: str) -> None:
    while game.loaded().state.phase != phase:
        services.advance(game.campaign, game.gm, dice=["red", "green", "blue"])


def _marauders_next_to_red(game: Game, count: int = 1) -> str:
    """Marauders placed by a card in an unexplored neighbour of Red's army (WOK-MAL-14)."""
    state = game.loaded().state
    army = state.armies_of("Red")[0]
    target = sorted(t for t in state.map.neighbours(army.territory)
                    if state.ctrl(t) is None and state.map.territory(t).playable)[0]
    battles.place_marauders(game.campaign, game.gm, target, count)
    return target


def test_wok_battle_7_two_rounds_from_typed_symbols(game: Game) -> None:
    """WOK-MAL-12, WOK-MAL-14, WOK-MOVE-5, WOK-BATTLE-6..11, WOK-CONQ-1: Red's army attacks a
    Marauder army: round 1, 3 warhammers against 1 shield put 2 counters on it and 1 flail is
    negated; round 2 finishes it and Red takes the empty territory, its army unready."""
    _to(game, wb.MOVEMENT)
    target = _marauders_next_to_red(game)
    state = game.loaded().state
    assert state.ctrl(target) == wb.MALADOR
    marauder = state.armies_in(target)[0]
    assert not marauder.ready
    services.move(game.campaign, game.gm, 1, target)
    battle = Battle.objects.get(campaign=game.campaign)
    assert battle.data == {"attackers": [1]} and battle.status == "pending"
    with pytest.raises(ServiceError, match="WOK-BATTLE-1"):
        battles.fight(game.campaign, game.gm, battle.number,
                      Rolls((H, H, H, B), (S, B), (F, B, B, B), (S, B)))
    _to(game, wb.BATTLE_RESOLUTION)
    with pytest.raises(ServiceError, match="WOK-BATTLE-5"):
        battles.fight(game.campaign, game.gm, battle.number,
                      Rolls((H, H, H), (S, B), (F, B, B, B), (S, B)))
    battles.fight(game.campaign, game.gm, battle.number,
                  Rolls((H, H, H, B), (S, B), (F, B, B, B), (S, B)))
    state = game.loaded().state
    assert state.army(marauder.id).damage == 2 and state.army("A1").damage == 0
    before = dump(game.campaign)
    battles.fight(game.campaign, game.gm, battle.number,
                  Rolls((H, B, B, B), (B, B), (F, F, B, B), (S, B)))
    state = game.loaded().state
    assert state.ctrl(target) == "Red"
    assert state.army("A1").damage == 1 and not state.army("A1").ready
    assert not state.armies_in(target, wb.MALADOR)
    battle.refresh_from_db()
    assert battle.status == "fought" and [r["outcome"] for r in battle.data["rounds"]] == [
        "continue", "attacker_wins"]
    undo_latest(game.campaign, game.gm)
    assert dump(game.campaign) == before


def test_wok_battle_11_attacker_withdraws_after_a_round(game: Game) -> None:
    """WOK-BATTLE-11, WOK-BATTLE-1: the attacker is committed to one round, then may pull back
    to where it came from, keeping its damage and unready."""
    _to(game, wb.MOVEMENT)
    start = game.loaded().state.army("A1").territory
    target = _marauders_next_to_red(game, 2)
    services.move(game.campaign, game.gm, 1, target)
    _to(game, wb.BATTLE_RESOLUTION)
    number = Battle.objects.get(campaign=game.campaign).number
    with pytest.raises(ServiceError, match="WOK-BATTLE-1"):
        battles.withdraw(game.campaign, game.gm, number, 1)
    battles.fight(game.campaign, game.gm, number,
                  Rolls((B, B, B, B), (B, B, B), (F, B, B, B, B), (B, B)))
    battles.withdraw(game.campaign, game.gm, number, 1)
    state = game.loaded().state
    assert state.army("A1").territory == start and state.army("A1").damage == 1
    assert Battle.objects.get(number=number).status == "fought"


def test_wok_amb_14_the_app_rolls_from_its_face_tables(game: Game) -> None:
    """WOK-AMB-14, WOK-AMB-11: without typed symbols the app rolls from its face tables; the
    round is kept with its symbols and marked simulated."""
    _to(game, wb.MOVEMENT)
    target = _marauders_next_to_red(game)
    services.move(game.campaign, game.gm, 1, target)
    _to(game, wb.BATTLE_RESOLUTION)
    number = Battle.objects.get(campaign=game.campaign).number
    battles.fight(game.campaign, game.gm, number, roll=lambda sides: 1)
    battle = Battle.objects.get(number=number)
    first = battle.data["rounds"][0]
    assert first["simulated"] is True
    # Face 1 everywhere: 4 warhammers against 2 flails (no shield) remove the Marauders, and 4
    # flails against 2 warhammers remove Red's army too: the defender keeps the territory.
    assert first["attack"] == [H, H, H, H] and first["defense"] == [F, F]
    assert first["counter"] == [F, F, F, F] and first["negation"] == [H, H]
    assert first["outcome"] == "both_wiped" and battle.status == "fought"
    state = game.loaded().state
    assert state.ctrl(target) == wb.MALADOR and not state.armies_of("Red")


def test_wok_mil_4_militia_then_raze_for_table_8_loot(game: Game) -> None:
    """WOK-EXPL-2, WOK-AMB-8, WOK-MIL-4, WOK-CONQ-2, WOK-CONQ-6, WOK-TV-14: exploring finds a
    Malador village; its militia (1 damage, 2 defend dice, 3 counter dice) falls to one hit;
    Red razes the village for 2 gold, 1 timber, 1 wheat, 1 cattle."""
    _to(game, wb.MOVEMENT)
    state = game.loaded().state
    army = state.army("A1")
    target = sorted(t for t in state.map.neighbours(army.territory)
                    if state.ctrl(t) is None and state.map.territory(t).playable)[0]
    services.move(game.campaign, game.gm, 1, target)
    _to(game, wb.EXPLORATION)
    services.explore(game.campaign, game.gm, target, "green", 1)
    state = game.loaded().state
    assert state.ctrl(target) == wb.MALADOR and state.lvl(target) == wb.VILLAGE
    _to(game, wb.BATTLE_RESOLUTION)
    number = Battle.objects.get(campaign=game.campaign).number
    battles.fight(game.campaign, game.gm, number,
                  Rolls((H, B, B, B), (B, B), (F, B, B), (S, B)))
    with pytest.raises(ServiceError, match="WOK-CONQ-2"):
        battles.fight(game.campaign, game.gm, number,
                      Rolls((H, B, B, B), (B, B), (F, B, B), (S, B)))
    stock = game.loaded().state.stock("Red")
    before = dump(game.campaign)
    battles.settle_conquest(game.campaign, game.gm, number, raze=True)
    state = game.loaded().state
    assert state.ctrl(target) == "Red" and state.lvl(target) == 0
    assert state.stock("Red") - stock == wb.Stock(2, 1, 1, 1, 0)
    entry = game.kingdoms["Red"].ledger_entries.order_by("-pk").first()
    assert entry.rule_id == "WOK-CONQ-6"
    undo_latest(game.campaign, game.gm)
    assert dump(game.campaign) == before


def test_wok_resupply_1_and_event_die(game: Game) -> None:
    """WOK-RESUPPLY-1, WOK-EVENT-2: a damaged ready army next to the capital town's road is
    resupplied for 2 gold; the flag on red draws an Event Card (Red holds a red territory), the
    C face on red does not (no city)."""
    _to(game, wb.EVENT_DIE)
    battles.event_die(game.campaign, game.gm, "C", "red")
    battles.event_die(game.campaign, game.gm, "flag", "red")
    game.kingdoms["Red"].refresh_from_db()
    assert game.kingdoms["Red"].data["event_cards"] == 1
    _to(game, wb.SUPPLY)
    from campaign.chronicle import Recorder
    from campaign.systems.war_of_kings.models import Army

    row = Army.objects.get(campaign=game.campaign, number=1)
    with Recorder(game.campaign, game.gm, "test.damage", "damage for the test") as rec:
        rec.update(row, damage=2)
    gold = game.loaded().state.stock("Red").gold
    before = dump(game.campaign)
    battles.resupply_armies(game.campaign, game.gm, [1])
    state = game.loaded().state
    assert state.army("A1").damage == 0 and state.stock("Red").gold == gold - 2
    undo_latest(game.campaign, game.gm)
    assert dump(game.campaign) == before


def test_wok_mal_15_marauders_never_in_a_players_territory(game: Game) -> None:
    """WOK-MAL-15: a card cannot place Marauders in a territory a player controls."""
    capital = game.loaded().state.capital("Blue")
    with pytest.raises(ServiceError, match="WOK-MAL-15"):
        battles.place_marauders(game.campaign, game.gm, capital, 1)


def test_wok_turn_3_a_turn_through_the_web_forms(game: Game) -> None:
    """WOK-TURN-3, WOK-MOVE-1, WOK-BATTLE-7, WOK-EVENT-1: Red's player rolls the Event Die, moves
    into Marauder land, fights a round from typed letters and takes the territory, all by
    posting the play page's forms; Blue may not fight Red's battle; bad letters are a 400."""
    from django.urls import reverse

    _to(game, wb.EVENT_DIE)
    red = game.client(game.players["Red"])
    slug = game.campaign.slug
    assert red.post(reverse("wok:event_die", args=[slug]),
                    {"face": "flag", "colour": "red"}).status_code == 302
    assert red.post(reverse("wok:next", args=[slug])).status_code == 302
    target = _marauders_next_to_red(game)
    page = red.get(reverse("campaign:play", args=[slug])).content.decode()
    assert f'<option value="{target}">' in page
    assert red.post(reverse("wok:move", args=[slug]), {"army": "1", "to": target}
                    ).status_code == 302
    _to(game, wb.BATTLE_RESOLUTION)
    number = Battle.objects.get(campaign=game.campaign).number
    page = red.get(reverse("campaign:play", args=[slug])).content.decode()
    assert "Fight a round" in page and f"Battle {number} in {target}" in page
    before = dump(game.campaign)
    blue = game.client(game.players["Blue"])
    assert "Fight a round" not in blue.get(reverse("campaign:play", args=[slug])).content.decode()
    assert blue.post(reverse("wok:fight", args=[slug]), {"battle": number}).status_code == 403
    bad = red.post(reverse("wok:fight", args=[slug]), {"battle": number, "attack": "hhxz"})
    assert bad.status_code == 400
    assert dump(game.campaign) == before
    assert red.post(reverse("wok:fight", args=[slug]), {
        "battle": number, "attack": "h h h h", "defense": "bb", "counter": "bbbb",
        "negation": "bb"}).status_code == 302
    assert game.loaded().state.ctrl(target) == "Red"


def test_wok_elim_2_forfeit_mid_turn_passes_the_turn_on(game: Game) -> None:
    """WOK-ELIM-2, WOK-AMB-20, WOK-TURN-1: Red forfeits during its own Movement Phase: its
    territories and army become the Malador's (cultures unchanged), and play passes to Blue;
    undo restores it."""
    from django.urls import reverse

    _to(game, wb.MOVEMENT)
    capital = game.loaded().state.capital("Red")
    before = dump(game.campaign)
    response = game.client(game.players["Red"]).post(
        reverse("wok:forfeit", args=[game.campaign.slug]))
    assert response.status_code == 302
    state = game.loaded().state
    assert state.ctrl(capital) == wb.MALADOR and state.holding(capital).culture == "Red"
    assert state.army("A1").owner == wb.MALADOR and state.army("A1").culture == "Red"
    assert "Red" not in state.kingdoms
    for _ in range(4):
        services.advance(game.campaign, game.gm)
    assert game.loaded().state.active == "Blue"
    for _ in range(4):
        undo_latest(game.campaign, game.gm)
    undo_latest(game.campaign, game.gm)
    assert dump(game.campaign) == before


def test_wok_elim_1_a_kingdom_without_armies_or_settlements_is_out(game: Game) -> None:
    """WOK-ELIM-1, WOK-AMB-19: at the end of the round a kingdom with no army and no settlement
    leaves the game; its empty territories pass to the Malador."""
    from campaign.chronicle import Recorder
    from campaign.models import Tile
    from campaign.systems.war_of_kings.models import Army

    with Recorder(game.campaign, game.gm, "test.ruin", "Black is ruined for the test") as rec:
        rec.delete_many(Army.objects.filter(campaign=game.campaign, owner=game.kingdoms["Black"]))
        for tile in Tile.objects.filter(controller=game.kingdoms["Black"]).exclude(settlement=""):
            rec.update(tile, settlement="")
    _to(game, wb.END_OF_ROUND)
    held = game.loaded().state.controlled("Black")
    services.advance(game.campaign, game.gm)
    state = game.loaded().state
    assert "Black" not in state.kingdoms and "Black" in state.eliminated
    assert all(state.ctrl(t) == wb.MALADOR for t in held)
    event = game.campaign.events.order_by("-seq").first()
    assert "WOK-ELIM-1" in event.summary


def test_wok_support_4_the_gm_settles_for_a_kingdom(game: Game) -> None:
    """WOK-SUPPORT-4, WOK-SUPPORT-5, WOK-TV-7: with two more Red armies in an empty territory,
    the village covers the army in front of the capital, the capital town one army anywhere,
    and one army is unsupported: the GM's page offers it, the check cannot close until Red
    settles, and provisions cost 5 gold."""
    from django.urls import reverse

    from campaign.chronicle import Recorder
    from campaign.systems.war_of_kings.models import Army

    _to(game, wb.CHECK_SUPPORT)
    state = game.loaded().state
    empty = next(t for t in state.controlled("Red") if not state.lvl(t))
    from campaign.models import Tile

    tile = Tile.objects.get(map__campaign=game.campaign, label=empty)
    with Recorder(game.campaign, game.gm, "test.armies", "two armies for the test") as rec:
        for number in (20, 21):
            rec.create(Army(campaign=game.campaign, number=number, owner=game.kingdoms["Red"],
                            culture=game.kingdoms["Red"], tile=tile))
    slug = game.campaign.slug
    gm = game.client(game.gm)
    page = gm.get(reverse("campaign:play", args=[slug])).content.decode()
    assert "Red: support (WOK-SUPPORT-4)" in page and 'name="army_21"' in page
    with pytest.raises(ServiceError, match="WOK-SUPPORT-4: Red must first"):
        services.advance(game.campaign, game.gm)
    gold = game.loaded().state.stock("Red").gold
    response = gm.post(reverse("wok:settle", args=[slug]),
                       {"kingdom": game.kingdoms["Red"].pk, "army_21": "provision"})
    assert response.status_code == 302
    assert game.loaded().state.stock("Red").gold == gold - 5
    services.advance(game.campaign, game.gm)
    assert game.loaded().state.phase == wb.RESOURCE_GENERATION


def test_wok_battle_6_battle_sheet_prints_both_sides_and_the_dice(game: Game) -> None:
    """WOK-BATTLE-6, WOK-FORT-11: the battle sheet of a pending offer lists both sides and the
    next round's dice: 1 attacker against 2 Marauders gives the defender a purple die."""
    _to(game, wb.MOVEMENT)
    target = _marauders_next_to_red(game, 2)
    services.move(game.campaign, game.gm, 1, target)
    battle = Battle.objects.get(campaign=game.campaign)
    client = game.client(game.players["Blue"])
    page = client.get(f"/c/{game.campaign.slug}/print/wok-battle/{battle.pk}/")
    text = page.content.decode()
    assert page.status_code == 200
    assert "Purple superiority dice: attacker 0, defender 1" in text
    pdf = client.get(f"/c/{game.campaign.slug}/print/wok-battle/{battle.pk}/pdf/?paper=letter")
    data = b"".join(pdf.streaming_content) if pdf.streaming else pdf.content
    assert pdf.status_code == 200 and data.startswith(b"%PDF")


def test_wok_mal_9_the_left_hand_player_withdraws_for_the_malador(game: Game) -> None:
    """WOK-MAL-9, WOK-BATTLE-2, WOK-BATTLE-4, WOK-BATTLE-14: in Red's battle the player to
    Red's left (Blue) decides for the Marauders: Green may not withdraw them, Blue may; with
    every defender gone Red takes the territory without a fight."""
    from django.urls import reverse

    from campaign.chronicle import Recorder
    from campaign.systems.war_of_kings.models import Army

    _to(game, wb.MOVEMENT)
    target = _marauders_next_to_red(game)
    state = game.loaded().state
    marauder = state.armies_in(target, wb.MALADOR)[0]
    with Recorder(game.campaign, game.gm, "test.ready", "ready for the test") as rec:
        rec.update(Army.objects.get(campaign=game.campaign, number=int(marauder.id[1:])),
                   ready=True)
    services.move(game.campaign, game.gm, 1, target)
    _to(game, wb.BATTLE_RESOLUTION)
    number = Battle.objects.get(campaign=game.campaign).number
    retreat = sorted(t for t in state.map.neighbours(target)
                     if state.ctrl(t) is None and state.map.territory(t).playable)[0]
    url = reverse("wok:withdraw", args=[game.campaign.slug])
    data = {"battle": number, "army": marauder.id[1:], "to": retreat}
    # No Malador territory borders it yet: nowhere to withdraw to (WOK-BATTLE-2).
    nowhere = game.client(game.players["Blue"]).post(url, data)
    assert nowhere.status_code == 409 and "WOK-BATTLE-2" in nowhere.content.decode()
    services.edit_territory(game.campaign, game.gm, retreat, {"malador": True})
    refused = game.client(game.players["Green"]).post(url, data)
    assert refused.status_code == 409 and "Blue decides" in refused.content.decode()
    assert game.client(game.players["Blue"]).post(url, data).status_code == 302
    state = game.loaded().state
    assert state.ctrl(target) == "Red" and state.army(marauder.id).territory == retreat
    assert not state.army(marauder.id).ready


def test_wok_v06_20_an_unready_defender_withdraws_by_forced_march(game: Game) -> None:
    """WOK-V06-20, WOK-MAL-9, WOK-BATTLE-4: the Marauders Red attacks are unready (placed by a
    card). Under v1.01 they may not withdraw, Forced March or not; once the campaign plays
    v0.6's ruling, Blue (to Red's left) is offered Forced March on the turn page and withdraws
    them with it. Every defender gone, Red takes the territory; undo restores every row."""
    from django.urls import reverse

    from campaign.chronicle import Recorder

    _to(game, wb.MOVEMENT)
    target = _marauders_next_to_red(game)
    state = game.loaded().state
    marauder = state.armies_in(target, wb.MALADOR)[0]
    assert not marauder.ready
    services.move(game.campaign, game.gm, 1, target)
    _to(game, wb.BATTLE_RESOLUTION)
    retreat = sorted(t for t in state.map.neighbours(target)
                     if state.ctrl(t) is None and state.map.territory(t).playable)[0]
    services.edit_territory(game.campaign, game.gm, retreat, {"malador": True})
    number = Battle.objects.get(campaign=game.campaign).number
    url = reverse("wok:withdraw", args=[game.campaign.slug])
    data = {"battle": number, "army": marauder.id[1:], "to": retreat, "forced_march": "on"}
    blue = game.client(game.players["Blue"])
    turn = f"/c/{game.campaign.slug}/play/"
    assert "Play Forced March and withdraw" not in blue.get(turn).content.decode()
    before = dump(game.campaign)
    refused = blue.post(url, data)
    assert refused.status_code == 409 and "WOK-V06-20" in refused.content.decode()
    plain = blue.post(url, {**data, "forced_march": ""})
    assert plain.status_code == 409 and "unready and must wage battle" in plain.content.decode()
    assert dump(game.campaign) == before
    with Recorder(game.campaign, game.gm, "test.options", "v0.6 ruling for the test") as rec:
        rec.update(game.campaign, options={**game.campaign.options,
                                           "forced_march_withdraw": True})
    page = blue.get(turn).content.decode()
    assert "Play Forced March and withdraw (WOK-V06-20)" in page
    before = dump(game.campaign)
    assert blue.post(url, data).status_code == 302
    state = game.loaded().state
    assert state.army(marauder.id).territory == retreat and not state.army(marauder.id).ready
    assert state.ctrl(target) == "Red"
    event = game.campaign.events.order_by("-seq").first()
    assert event.summary.startswith(f"Army {marauder.id[1:]} withdraws from {target} to "
                                    f"{retreat} by Forced March (WOK-V06-20).")
    undo_latest(game.campaign, game.gm)
    assert dump(game.campaign) == before


def test_wok_amb_8_explorers_may_pull_back_before_any_round(game: Game) -> None:
    """WOK-AMB-8: explorers who find a walled Maladorian village with two Marauder armies may
    withdraw at once, unready, to where they came from; the territory stays the Malador's."""
    _to(game, wb.MOVEMENT)
    state = game.loaded().state
    start = state.army("A1").territory
    target = sorted(t for t in state.map.neighbours(start)
                    if state.ctrl(t) is None and state.map.territory(t).playable)[0]
    services.move(game.campaign, game.gm, 1, target)
    _to(game, wb.EXPLORATION)
    services.explore(game.campaign, game.gm, target, "red", 1)
    state = game.loaded().state
    assert state.fort(target) == wb.WALLS and len(state.armies_in(target, wb.MALADOR)) == 2
    number = Battle.objects.get(campaign=game.campaign).number
    battles.withdraw(game.campaign, game.gm, number, 1, acting="Red")
    state = game.loaded().state
    assert state.army("A1").territory == start and not state.army("A1").ready
    assert state.ctrl(target) == wb.MALADOR


def test_wok_event_4_hands_are_secret_and_cards_trade(game: Game) -> None:
    """WOK-EVENT-4, WOK-EVENT-5, WOK-VAR-3, WOK-AMB-26, WOK-V06-14: Red writes a drawn card into
    its hand by name; Blue sees neither the card on the play page nor the chronicle entry; Red
    hands it to Blue (v1.01 allows trading), Blue plays it for all to read; under the v0.6
    numbers trading is refused. Each step is undone exactly."""
    from django.urls import reverse

    from campaign.systems.war_of_kings.models import Card

    slug = game.campaign.slug
    red, blue = game.client(game.players["Red"]), game.client(game.players["Blue"])
    url = reverse("wok:card", args=[slug])
    before = dump(game.campaign)
    assert red.post(url, {"do": "take", "name": "Shield Wall",
                          "effect": "+1 defender die this round"}).status_code == 302
    play = reverse("campaign:play", args=[slug])
    chronicle = reverse("campaign:chronicle", args=[slug])
    assert "Shield Wall" in red.get(play).content.decode()
    assert "Shield Wall" not in blue.get(play).content.decode()
    assert "Shield Wall" not in blue.get(chronicle).content.decode()
    assert "Shield Wall" in red.get(chronicle).content.decode()
    card = Card.objects.get(campaign=game.campaign)
    undo_latest(game.campaign, game.gm)
    assert dump(game.campaign) == before
    red.post(url, {"do": "take", "name": "Shield Wall", "effect": "+1 defender die"})
    card = Card.objects.get(campaign=game.campaign)
    assert red.post(url, {"do": "give", "card": card.pk,
                          "to": game.kingdoms["Blue"].pk}).status_code == 302
    assert blue.post(url, {"do": "play", "card": card.pk}).status_code == 302
    card.refresh_from_db()
    assert card.holder == game.kingdoms["Blue"] and card.played_round == 1
    assert "Blue plays Shield Wall: +1 defender die" in game.client(
        game.players["Green"]).get(chronicle).content.decode()
    services.use_v06(game.campaign, game.gm)
    red.post(url, {"do": "take", "name": "Forced March"})
    second = Card.objects.get(campaign=game.campaign, name="Forced March")
    refused = red.post(url, {"do": "give", "card": second.pk, "to": game.kingdoms["Blue"].pk})
    assert refused.status_code == 409 and "WOK-V06-14" in refused.content.decode()
    stolen = blue.post(url, {"do": "play", "card": second.pk})
    assert stolen.status_code == 409


def test_wok_amb_9_an_ambush_is_fought_at_once_with_the_roles_turned(game: Game) -> None:
    """WOK-AMB-9, WOK-EXPL-2: red row 2 ambushes the explorer with one Marauder army, fought in
    the Exploration Phase: the Marauders roll the attack (2 warhammers against 1 shield: 1
    counter on Red's army, no fortification dice), Red's army counterattacks with the
    defender's 4 blue dice (3 flails, no shield back) and the Marauders fall; Red takes the
    territory."""
    _to(game, wb.MOVEMENT)
    state = game.loaded().state
    start = state.army("A1").territory
    target = sorted(t for t in state.map.neighbours(start)
                    if state.ctrl(t) is None and state.map.territory(t).playable)[0]
    services.move(game.campaign, game.gm, 1, target)
    _to(game, wb.EXPLORATION)
    services.explore(game.campaign, game.gm, target, "red", 2)
    battle = Battle.objects.get(campaign=game.campaign)
    assert battle.data["ambush"] is True
    battles.fight(game.campaign, game.gm, battle.number,
                  Rolls((H, H, B, B), (S, B), (F, F, F, B), (B, B)))
    state = game.loaded().state
    assert state.ctrl(target) == "Red" and state.army("A1").damage == 1
    assert not state.armies_in(target, wb.MALADOR)
    battle.refresh_from_db()
    assert battle.status == "fought" and battle.data["rounds"][0]["outcome"] == "attacker_wins"


def test_wok_battle_12_damage_placed_by_hand_must_finish_as_many(game: Game) -> None:
    """WOK-BATTLE-12, WOK-AMB-10: 4 hits on two Marauder armies: 3 + 1 is the app's choice and
    1 + 3 an equal one the attacker may pick; 2 + 2 finishes none and is refused."""
    from django.urls import reverse

    _to(game, wb.MOVEMENT)
    target = _marauders_next_to_red(game, 2)
    first, second = sorted(int(a.id[1:]) for a in game.loaded().state.armies_in(target))
    services.move(game.campaign, game.gm, 1, target)
    _to(game, wb.BATTLE_RESOLUTION)
    number = Battle.objects.get(campaign=game.campaign).number
    url = reverse("wok:fight", args=[game.campaign.slug])
    rolls = {"battle": number, "attack": "hhhh", "defense": "bbb", "counter": "bbbbb",
             "negation": "bb"}
    red = game.client(game.players["Red"])
    before = dump(game.campaign)
    refused = red.post(url, {**rolls, "to_defenders": f"{first}:2 {second}:2"})
    assert refused.status_code == 409 and "WOK-BATTLE-12" in refused.content.decode()
    assert dump(game.campaign) == before
    assert red.post(url, {**rolls, "to_defenders": f"{first}:1 {second}:3"}).status_code == 302
    state = game.loaded().state
    assert state.army(f"A{first}").damage == 1
    assert f"A{second}" not in {a.id for a in state.armies}


def test_wok_mal_8_marauders_attack_a_village_and_the_blue_die_razes_it(game: Game) -> None:
    """WOK-MAL-16, WOK-MAL-9, WOK-MAL-8, WOK-MAL-1, WOK-MIL-4: in Red's Event Die Phase a
    Marauder card moves Marauders (Blue, to Red's left, decides; Green may not) into Red's
    village territory after Red's army left it; the militia falls to one hit and a flail on the
    blue die, rolled by Blue (Red may not), razes the village: the Malador take the territory and
    nobody gains anything."""
    from campaign.chronicle import Recorder
    from campaign.models import Tile
    from campaign.systems.war_of_kings.models import Army

    _to(game, wb.EVENT_DIE)
    state = game.loaded().state
    front = state.army("A1").territory
    spot = sorted(t for t in state.map.neighbours(front)
                  if state.ctrl(t) is None and state.map.territory(t).playable)[0]
    battles.place_marauders(game.campaign, game.gm, spot, 1)
    marauder = game.loaded().state.armies_in(spot, wb.MALADOR)[0]
    number = int(marauder.id[1:])
    with Recorder(game.campaign, game.gm, "test.setup", "for the test") as rec:
        rec.update(Army.objects.get(campaign=game.campaign, number=number), ready=True)
        rec.update(Army.objects.get(campaign=game.campaign, number=1),
                   tile=Tile.objects.get(map__campaign=game.campaign,
                                         label=state.capital("Red")))
    with pytest.raises(ServiceError, match="WOK-MAL-9: Blue"):
        battles.marauders_move(game.campaign, game.gm, number, front, acting="Green")
    battles.marauders_move(game.campaign, game.gm, number, front, acting="Blue")
    battle = Battle.objects.get(campaign=game.campaign)
    assert battle.data["marauder_card"] is True and battle.attacker is None
    stock = {k: game.loaded().state.stock(k) for k in game.kingdoms}
    from django.urls import reverse

    page = game.client(game.players["Red"]).get(
        reverse("campaign:play", args=[game.campaign.slug])).content.decode()
    assert "Fight a round" in page
    battles.fight(game.campaign, game.gm, battle.number,
                  Rolls((H, B, B, B), (B, B), (B, B, B), (B, B)))
    play = reverse("campaign:play", args=[game.campaign.slug])
    assert "Blue die for the Malador" in game.client(game.players["Blue"]).get(play) \
        .content.decode()
    red_page = game.client(game.players["Red"]).get(play).content.decode()
    assert "Blue die for the Malador" not in red_page
    assert "Blue rolls one blue die for the Malador (WOK-MAL-8, WOK-MAL-9)." in red_page
    url = reverse("wok:malador_die", args=[game.campaign.slug])
    refused = game.client(game.players["Red"]).post(url, {"battle": battle.number,
                                                          "face": "flail"})
    assert refused.status_code == 409 and "WOK-MAL-9: Blue" in refused.content.decode()
    response = game.client(game.players["Blue"]).post(url, {"battle": battle.number,
                                                           "face": "flail"})
    assert response.status_code == 302
    state = game.loaded().state
    assert state.ctrl(front) == wb.MALADOR and state.lvl(front) == 0
    assert {k: state.stock(k) for k in game.kingdoms} == stock
