"""Swords & Stones economy core: resources, the Stockpile, ledger lines, paying first, the
start of a game and the turn's shape (SNS-ECON-1..14)."""

from __future__ import annotations

import pytest

from campaign.systems.swords_and_stones.rules import economy as e
from campaign.systems.swords_and_stones.rules.economy import (
    FAVOR,
    FOOD,
    GOLD,
    IRON,
    STONE,
    WOOD,
    LedgerLine,
    RuleViolation,
    Stockpile,
)
from campaign.systems.swords_and_stones.rules.grand_campaign import Bundle, SupplyLine
from campaign.systems.swords_and_stones.rules.points import starting_stockpile


def test_sns_econ_1_six_resources() -> None:
    """SNS-ECON-1: food, wood, stone, iron, gold and favor; nothing else is a resource."""
    assert e.RESOURCES == ("food", "wood", "stone", "iron", "gold", "favor")
    with pytest.raises(ValueError, match="Unknown resource"):
        LedgerLine("villager", 1, "SNS-ECON-1", "not a resource")


def test_sns_econ_2_every_gain_goes_to_the_stockpile() -> None:
    """SNS-ECON-2: gains are lines booked into the Stockpile; the net of lines adds up."""
    lines = (LedgerLine(WOOD, 3, "SNS-ECON-22", "wood"), LedgerLine(WOOD, -1, "SNS-ECON-53", "x"),
             LedgerLine(GOLD, 2, "SNS-ECON-23", "gold"))
    after = e.book(Stockpile(wood=1), lines)
    assert after == Stockpile(wood=3, gold=2)
    assert e.net(lines) == {FOOD: 0, WOOD: 2, STONE: 0, IRON: 0, GOLD: 2, FAVOR: 0}


def test_sns_econ_3_pay_first_refuses_what_cannot_be_paid() -> None:
    """SNS-ECON-3: a spend larger than the Stockpile is refused, naming what is missing; the
    forecast lines are the booking lines."""
    stock = Stockpile(food=2, wood=5)
    lines = e.pay(stock, {FOOD: 1, WOOD: 4}, "SNS-ECON-51", "train", subject="X", count=2)
    assert lines == (LedgerLine(FOOD, -1, "SNS-ECON-51", "train", "X", 2),
                     LedgerLine(WOOD, -4, "SNS-ECON-51", "train", "X", 0))
    assert e.book(stock, lines) == Stockpile(food=1, wood=1)
    with pytest.raises(RuleViolation, match=r"3 more food.*SNS-ECON-3"):
        e.pay(stock, {FOOD: 5}, "SNS-ECON-51", "train")
    with pytest.raises(RuleViolation, match="short by 1 wood.*SNS-ECON-3"):
        e.book(stock, (LedgerLine(WOOD, -6, "SNS-ECON-53", "x"),))
    with pytest.raises(ValueError, match="SNS-ECON-3"):
        Stockpile(food=-1)


def test_sns_econ_4_non_operational_stockpile_moves_only_favor() -> None:
    """SNS-ECON-4: a Stockpile at 1 HP (or unstaffed, or touched by an enemy) neither pays nor
    receives anything but favor; forced losses still happen."""
    stock = Stockpile(food=4, favor=3, operational=False)
    with pytest.raises(RuleViolation, match="SNS-ECON-4"):
        e.pay(stock, {FOOD: 1}, "SNS-ECON-51", "train")
    with pytest.raises(RuleViolation, match="SNS-ECON-4"):
        e.book(stock, (LedgerLine(WOOD, 2, "SNS-ECON-22", "wood"),))
    assert e.pay(stock, {FAVOR: 2}, "SNS-STATE-2", "cast") == (
        LedgerLine(FAVOR, -2, "SNS-STATE-2", "cast", "", 1),)
    assert e.book(stock, (LedgerLine(FAVOR, 1, "SNS-ECON-28", "worship"),)).favor == 4
    lost = e.lose_up_to(stock, FOOD, 6, "SNS-EVT-2", "spoilage")
    assert lost == (LedgerLine(FOOD, -4, "SNS-EVT-2", "spoilage"),)
    assert e.book(stock, lost, forced=True).food == 0


def test_sns_econ_5_standard_start() -> None:
    """SNS-ECON-5: a Stockpile, 3 Villagers and the King, every resource 0, turn 1, growth 1,
    upkeep 0."""
    start = e.opening()
    assert start.lines == ()
    assert start.units == {"VILLAGER": 3, "KING": 1}
    assert start.buildings == {"STOCKPILE": 1}
    assert (start.turn, start.growth_rate, start.upkeep, start.turn_zero) == (1, 1, 0, False)
    assert start.stockpile() == Stockpile()


def test_sns_econ_6_site_pool() -> None:
    """SNS-ECON-6, SNS-ECON-7 (placement is the table's business): each player brings 6 Forests
    and 6 Outcrops and removes an Outcrop; Isle of Gold removes none (SNS-MAP-4), Great Sandy
    removes a Forest instead (SNS-MAP-8)."""
    assert e.site_pool(2) == {"forest": 12, "outcrop": 10}
    assert e.site_pool(3, "isle_of_gold") == {"forest": 18, "outcrop": 18}
    assert e.site_pool(2, "great_sandy") == {"forest": 10, "outcrop": 12}


def test_sns_econ_8_training_outside_the_map_section_doubles_food() -> None:
    """SNS-ECON-8: the map section decides where training costs double food."""
    assert e.training_food_factor(False) == 1
    assert e.training_food_factor(True) == 2


def test_sns_econ_9_game_mode_kits() -> None:
    """SNS-ECON-9: Deathmatch kit: 10 Villagers, a King, buildings and 20 of each resource but
    favor; Invaders attackers get 10 more gold; King of the Hill and Villager League use it."""
    kit = e.opening(mode=e.DEATHMATCH)
    assert kit.stockpile() == Stockpile(food=20, wood=20, stone=20, iron=20, gold=20)
    assert kit.units == {"VILLAGER": 10, "KING": 1}
    assert kit.buildings == {"STOCKPILE": 1, "BARRACKS": 1, "TOWNCENTER": 1,
                             "MERCHANTSGUILD": 1, "MILL": 1, "FARM": 3, "MARKET": 1}
    assert all(line.rule_id == "SNS-ECON-9" for line in kit.lines)
    assert e.opening(mode=e.INVADERS, invading=True).stockpile().gold == 30
    assert e.opening(mode=e.INVADERS).stockpile().gold == 20
    assert e.opening(mode=e.VILLAGER_LEAGUE).stockpile().wood == 20
    with pytest.raises(ValueError):
        e.base_kit("gold rush")


def test_sns_econ_10_worked_example_d4_starting_stockpile() -> None:
    """SNS-ECON-10, worked example D.4: Red's supply (A1 3 wood, A3 2 iron, B1 1 food, C3 1
    stone), Favor of the King and The Frugal, booked line by line: 1 food, 3 wood, 1 stone,
    2 iron, 3 gold, 10 favor, 3 Villagers and the King."""
    from campaign.systems.swords_and_stones.rules.grand_campaign import StartDeclaration

    supply = (
        SupplyLine("A1", "settled", "WOOD", Bundle(wood=3)),
        SupplyLine("A3", "settled", "IRON", Bundle(iron=2)),
        SupplyLine("B1", "claimed", "FOOD", Bundle(food=1)),
        SupplyLine("C3", "claimed", "STONE", Bundle(stone=1)),
    )
    start = starting_stockpile(supply, ("FAVOR",), StartDeclaration("Red", title="FRUGAL"))
    game = e.opening(start)
    assert [(line.resource, line.amount) for line in game.lines] == [
        (WOOD, 3), (IRON, 2), (FOOD, 1), (STONE, 1), (FAVOR, 10), (GOLD, 3)]
    assert game.stockpile() == Stockpile(food=1, wood=3, stone=1, iron=2, gold=3, favor=10)
    assert game.units == {"VILLAGER": 3, "KING": 1}
    assert game.lines[4].rule_id == "SNS-VP-FAVOR"


def test_sns_econ_10_supply_villager_is_a_unit_and_front_line_gives_turn_zero() -> None:
    """SNS-ECON-10 (steps 2 and 5): a supply Villager joins the units, not the Stockpile; Front
    line Advantage opens with a turn 0."""
    supply = (SupplyLine("A1", "settled", "VILLAGER", Bundle(villagers=1)),)
    game = e.opening(starting_stockpile(supply, ("FRONTLINE",)))
    assert game.units == {"VILLAGER": 4, "KING": 1}
    assert game.lines == ()
    assert game.turn_zero is True


def test_sns_econ_11_phases_in_order() -> None:
    """SNS-ECON-11: harvest, compulsory, advance, move and combat; then the next turn."""
    assert e.PHASES == ("harvest", "compulsory", "advance", "move_combat")
    assert e.next_phase(4, e.HARVEST) == (4, e.COMPULSORY)
    assert e.next_phase(4, e.MOVE_COMBAT) == (5, e.HARVEST)


def test_sns_econ_12_war_makes_move_and_combat_turn_by_turn() -> None:
    """SNS-ECON-12: all phases simultaneous in peace; at war Move & Combat goes side by side,
    AI skirmishers first, then the declaring side."""
    assert e.simultaneous_play(e.MOVE_COMBAT, at_war=False)
    assert not e.simultaneous_play(e.MOVE_COMBAT, at_war=True)
    assert e.simultaneous_play(e.ADVANCE, at_war=True)
    assert e.war_turn_order("Blue", "Red", ("bandits",)) == ("bandits", "Blue", "Red")


def test_sns_econ_13_beginners_play_one_at_a_time_until_turn_10() -> None:
    """SNS-ECON-13: events from turn 10 on; under 5 games played, one player at a time before
    then."""
    assert e.FIRST_EVENT_TURN == 10
    assert e.advise_one_at_a_time(9, 4)
    assert not e.advise_one_at_a_time(10, 4)
    assert not e.advise_one_at_a_time(3, 5)


def test_sns_econ_14_one_action_per_unit() -> None:
    """SNS-ECON-14: a unit fights, works a Build Point or harvests, once a turn."""
    e.check_one_action_each([("v1", "harvest"), ("v2", "build")])
    with pytest.raises(RuleViolation, match="SNS-ECON-14"):
        e.check_one_action_each([("v1", "harvest"), ("v1", "build")])


def test_econ_options_validate_their_values() -> None:
    """SNS-AMB-29, SNS-AMB-33, SNS-AMB-39, SNS-AMB-30: options refuse values they do not know."""
    with pytest.raises(ValueError, match="SNS-AMB-29"):
        e.EconOptions(monument_cost_source="book")
    with pytest.raises(ValueError, match="SNS-AMB-33"):
        e.EconOptions(upkeep_when="never")
    with pytest.raises(ValueError, match="SNS-AMB-39"):
        e.EconOptions(temple_die_units="all")
    with pytest.raises(ValueError, match="SNS-AMB-30"):
        e.EconOptions(market_price_resource="silver")


def test_options_from_stored_json() -> None:
    """SNS-AMB-29, SNS-AMB-30, SNS-AMB-31b, SNS-AMB-32, SNS-AMB-36, SNS-AMB-37, SNS-AMB-38,
    SNS-MAP-1: a campaign's stored options become the economy's, event and auto-resolve options,
    defaults filled in, bad values refused."""
    from campaign.rules.options import OptionError
    from campaign.systems.swords_and_stones.rules.autoresolve import AROptions
    from campaign.systems.swords_and_stones.rules.events import EventOptions

    assert e.EconOptions.from_dict(None) == e.EconOptions()
    stored = e.EconOptions.from_dict({"map_type": "ice_lands", "spear_against_queen": 3,
                                      "market_price_resource": "food"})
    assert (stored.map_type, stored.spear_against_queen, stored.market_price_resource) == (
        "ice_lands", 3, FOOD)
    assert stored.as_dict()["monument_cost_source"] == "profile"
    with pytest.raises(OptionError):
        e.EconOptions.from_dict({"map_type": "atlantis"})
    with pytest.raises(OptionError):
        e.EconOptions.from_dict({"spear_against_queen": 4})
    with pytest.raises(OptionError):
        e.EconOptions.from_dict({"dragons": True})
    assert EventOptions.from_dict({"mine_shaft_timer": 3}) == EventOptions(mine_shaft_timer=3)
    assert EventOptions.from_dict({"prefer_summary": True}).prefer_summary
    assert AROptions.from_dict({"tie_goes_to": "attacker"}) == AROptions(tie_goes_to="attacker")
    assert AROptions.from_dict(None) == AROptions()
