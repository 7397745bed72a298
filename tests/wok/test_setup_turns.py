"""War of Kings setup and the round sequence by rule ID (WOK-SETUP-*, WOK-TURN-*, WOK-VAR-*)."""

from __future__ import annotations

from dataclasses import fields, replace

import pytest

from campaign.systems.war_of_kings.rules import achievements as ach
from campaign.systems.war_of_kings.rules import armies, turns
from campaign.systems.war_of_kings.rules import economy as eco
from campaign.systems.war_of_kings.rules.board import (
    BATTLE_RESOLUTION,
    CHECK_SUPPORT,
    COMPONENTS,
    CONSTRUCTION,
    END_OF_ROUND,
    EVENT_DIE,
    EXPLORATION,
    LEDGER_UPDATE,
    MALADOR,
    MOVEMENT,
    RECEIVE_GOLD,
    RESOURCE_GENERATION,
    SUMMER,
    SUPPLY,
    TOWN,
    VILLAGE,
    WINTER,
    Army,
    RuleViolation,
    Stock,
    make_map,
)
from campaign.systems.war_of_kings.rules.options import OPTION_SPECS
from tests.wok.factory import terr

Seat = turns.Seat


def board(side: str = SUMMER):
    """Three capitals: A (B, C, D around it), E (F, G, H) and I (J, K, L); D-F and H-J join
    them."""
    codes = "ABCDEFGHIJKL"
    borders = [("A", "B"), ("A", "C"), ("A", "D"), ("E", "F"), ("E", "G"), ("E", "H"),
               ("I", "J"), ("I", "K"), ("I", "L"), ("D", "F"), ("H", "J")]
    return make_map([terr(c) for c in codes], borders, side)


def game(lead: str = "Red", players: int = 2):
    seats = [Seat("Red", "A", "C"), Seat("Blue", "E", "G"), Seat("Green", "I", "K")][:players]
    return turns.setup(board(), seats, lead)


def test_wok_setup_1_board_side_is_the_maps() -> None:
    """WOK-SETUP-1, WOK-VAR-1: the chosen side travels with the map."""
    winter = turns.setup(board(WINTER), [Seat("Red", "A", "C"), Seat("Blue", "E", "G")], "Red")
    assert (game().map.side, winter.map.side) == (SUMMER, WINTER)


def test_wok_setup_2_malador_cannot_be_chosen_and_kingdoms_differ() -> None:
    """WOK-SETUP-2: orange is the Malador's; two players cannot share a kingdom."""
    with pytest.raises(RuleViolation, match="WOK-SETUP-2: orange belongs to the Malador"):
        turns.setup(board(), [Seat(MALADOR, "A", "C"), Seat("Blue", "E", "G")], "Blue")
    with pytest.raises(RuleViolation, match="WOK-SETUP-2"):
        turns.setup(board(), [Seat("Red", "A", "C"), Seat("Red", "E", "G")], "Red")


def test_wok_setup_3_and_setup_4_starting_kingdom_layout() -> None:
    """WOK-SETUP-3, WOK-SETUP-4: capital town, village and a ready army in front, markers on the
    two other neighbours, a road capital-front: 4 territories, 1 town, 1 village, 1 army."""
    state = game()
    assert [(t, state.ctrl(t), state.lvl(t)) for t in "ABCD"] == [
        ("A", "Red", TOWN), ("B", "Red", 0), ("C", "Red", VILLAGE), ("D", "Red", 0)]
    assert state.holding("A").culture == "Red" and state.holding("C").culture == "Red"
    assert state.roads == frozenset({frozenset("AC"), frozenset("EG")})
    assert [(a.owner, a.territory, a.ready, a.damage) for a in state.armies] == [
        ("Red", "C", True, 0), ("Blue", "G", True, 0)]


def test_wok_setup_4_front_must_border_the_capital() -> None:
    """WOK-SETUP-4: the front territory is a neighbour; start territories do not overlap."""
    with pytest.raises(RuleViolation, match="must border the capital"):
        turns.setup(board(), [Seat("Red", "A", "E"), Seat("Blue", "E", "G")], "Red")
    with pytest.raises(RuleViolation, match="would start in two kingdoms"):
        turns.setup(board(), [Seat("Red", "A", "C"), Seat("Blue", "E", "G"),
                              Seat("Green", "E", "F")], "Red")


def test_wok_setup_5_blank_cards_removed() -> None:
    """WOK-SETUP-5, WOK-COMP-1, WOK-VAR-3: blanks leave the deck; a custom card written on a
    blank stays."""
    assert armies.prepare_deck(["Forced March", "", "  ", "Our Own Card"]) == (
        "Forced March", "Our Own Card")
    assert (COMPONENTS["event_cards"], COMPONENTS["marauder_cards"]) == (36, 16)


def test_wok_setup_6_market_pays_gold_without_limit() -> None:
    """WOK-SETUP-6: the market is the general supply; gold comes from it each round."""
    state = replace(game(), phase=RECEIVE_GOLD)
    state = eco.receive_gold(eco.receive_gold(state))
    assert state.stock("Red").gold == 7 + 9 + 9


def test_wok_setup_7_starting_stockpile() -> None:
    """WOK-SETUP-7: 7 gold, 5 timber, 7 wheat, 7 cattle, 2 stone each."""
    state = game()
    assert state.stock("Red") == state.stock("Blue") == Stock(7, 5, 7, 7, 2)


def test_wok_setup_8_initial_ledger_gold_nine_ap_three() -> None:
    """WOK-SETUP-8: every kingdom starts with 9 gold per round and 3 AP."""
    state = game()
    assert [eco.ledger(state, k).gold for k in ("Red", "Blue")] == [9, 9]
    assert [ach.score(state, k, ach.Holders()).total for k in ("Red", "Blue")] == [3, 3]


def test_wok_setup_9_lead_player_by_blind_draw() -> None:
    """WOK-SETUP-9, WOK-V06-5: the drawn marker's owner leads for the whole game (v0.6 picks by
    the next birthday; the table enters whose marker or birthday it is)."""
    assert turns.draw_lead(("Red", "Blue", "Green"), 2) == "Green"
    with pytest.raises(RuleViolation, match="WOK-SETUP-9"):
        turns.draw_lead(("Red", "Blue"), 2)
    with pytest.raises(RuleViolation, match="WOK-SETUP-9"):
        turns.setup(board(), [Seat("Red", "A", "C"), Seat("Blue", "E", "G")], "Green")


def test_wok_setup_10_recommended_capitals_and_player_count() -> None:
    """WOK-SETUP-10, WOK-VAR-5, WOK-AMB-29: column positions per board, count and option; 2 to 5
    players."""
    assert turns.recommended_capitals(SUMMER, 2, "a") == (2, 6)
    assert turns.recommended_capitals(WINTER, 3, "b") == (2, 3, 5)
    assert turns.recommended_capitals(SUMMER, 4) == (3, 4, 5, 6)
    assert turns.recommended_capitals(WINTER, 5) is None
    with pytest.raises(RuleViolation, match="WOK-SETUP-10"):
        turns.recommended_capitals(SUMMER, 6)
    with pytest.raises(RuleViolation, match="2 to 5 players, not 1"):
        turns.setup(board(), [Seat("Red", "A", "C")], "Red")


def test_wok_tv_2_standard_setup_totals() -> None:
    """WOK-TV-2: stockpile, 9 gold, 3 AP, 4 territories, one ready army in C supported by the
    village; 1 supported, 0 unsupported."""
    state = game()
    check = armies.support(state, "Red")
    assert (ach.territory_count(state, "Red"), check.supported, check.unsupported) == (4, 1, 0)
    assert (check.local_slots, check.global_slots) == ({"A": 1, "C": 1}, 1)


def test_wok_turn_1_order_from_the_lead_going_left() -> None:
    """WOK-TURN-1: turns run from the lead player clockwise (seating order)."""
    assert turns.turn_order(game("Blue", 3)) == ("Blue", "Green", "Red")


def test_wok_turn_2_construction_steps_in_order() -> None:
    """WOK-TURN-2: Receive Gold, Check for Support, Resource Generation, Construction, Ledger
    update, then the first player's Event Die Phase."""
    state = game("Blue")
    phases = [state.phase]
    for _ in range(5):
        state = turns.advance(state)
        phases.append(state.phase)
    assert phases == [RECEIVE_GOLD, CHECK_SUPPORT, RESOURCE_GENERATION, CONSTRUCTION,
                      LEDGER_UPDATE, EVENT_DIE]
    assert state.active == "Blue"


def test_wok_turn_3_player_turn_phases_then_next_player() -> None:
    """WOK-TURN-3, WOK-EXPL-4, WOK-AMB-15: Event Die, Movement, Exploration, Battle Resolution,
    Supply; then the next player rolls the Event Die on their own turn; after the last, the end
    of the round."""
    state = replace(game("Red"), phase=EVENT_DIE, active="Red")
    seen = []
    while state.phase != END_OF_ROUND:
        seen.append((state.active, state.phase))
        state = turns.advance(state)
    assert seen == [("Red", EVENT_DIE), ("Red", MOVEMENT), ("Red", EXPLORATION),
                    ("Red", BATTLE_RESOLUTION), ("Red", SUPPLY),
                    ("Blue", EVENT_DIE), ("Blue", MOVEMENT), ("Blue", EXPLORATION),
                    ("Blue", BATTLE_RESOLUTION), ("Blue", SUPPLY)]


def test_wok_turn_5_end_of_round_readies_every_army_and_keeps_the_lead() -> None:
    """WOK-TURN-5, WOK-MAL-12: all armies, Malador's too, flip to ready; a new round opens at
    Receive Gold with the same lead."""
    state = replace(game("Blue"), phase=END_OF_ROUND)
    state = state.with_army(replace(state.army("Red-1"), ready=False))
    state = state.with_army(Army("m1", MALADOR, "L", ready=False))
    after, result = turns.finish_round(state, ach.Holders())
    assert result.winner is None
    assert [a.ready for a in after.armies] == [True, True, True]
    assert (after.round, after.phase, after.lead) == (2, RECEIVE_GOLD, "Blue")


def test_wok_turn_6_victory_only_at_the_end_of_a_round() -> None:
    """WOK-TURN-6: the check is refused before every player has had a turn; a won game does not
    open another round."""
    with pytest.raises(RuleViolation, match="WOK-TURN-6"):
        turns.finish_round(replace(game(), phase=SUPPLY, active="Blue"), ach.Holders())
    from campaign.systems.war_of_kings.rules.options import Options

    state = replace(game(), phase=END_OF_ROUND)
    after, result = turns.finish_round(state, ach.Holders(), Options(ap_target=3))
    assert (result.winner, result.tied, after.round) == (None, ("Red", "Blue"), 1)


def test_wok_turn_7_public_standings_without_cards() -> None:
    """WOK-TURN-7: stockpile, gold per round, territories and AP are public; no card hand is
    part of the public view."""
    lines = ach.public_standings(game(), ach.Holders())
    assert [(p.kingdom, p.stock.gold, p.gold_per_round, p.territories, p.ap) for p in lines] \
        == [("Red", 7, 9, 4, 3), ("Blue", 7, 9, 4, 3)]
    assert "cards" not in {f.name for f in fields(lines[0])}


def test_wok_var_4_and_army_8_miniatures_change_nothing() -> None:
    """WOK-VAR-4, WOK-ARMY-8: miniatures are cosmetic; an army is its owner, place, damage and
    ready flag, with nothing for the figure used."""
    assert {f.name for f in fields(Army)} == {"id", "owner", "territory", "damage", "ready",
                                               "raised_round", "culture", "came_from"}


def test_wok_var_6_configuration_switches() -> None:
    """WOK-VAR-6: MM/Warlord value, exclusive timing, piece caps and elimination leftovers are
    options; exploration rows are entered by the players (WOK-AMB-7), so RNG is the caller's."""
    names = {spec.name for spec in OPTION_SPECS}
    assert {"merchant_ap", "warlord_ap", "exclusive_timing", "village_cap", "town_cap",
            "city_cap", "eliminated_territories"} <= names
    assert {spec.rule_id for spec in OPTION_SPECS if spec.name.endswith("_ap")} == {"WOK-AMB-1"}
