"""The kingdom's buildings at the table: foundations from the catalogue paid first, Build Points
worked off in the compulsory phase, staff, upgrades on operational buildings, the campaign's
types for costs the source lost, damage, fire and destruction, repairs, cancelled foundations
and die timers; every action undone exactly."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from campaign.systems.swords_and_stones import buildings, costs, table
from campaign.systems.swords_and_stones.models import CostType, Game, Participant
from campaign.systems.swords_and_stones.state import SnsError
from tests.sns.conftest import Avalon, dump, undo
from tests.sns.test_table import SIX, game, refused, stock  # noqa: F401

pytestmark = pytest.mark.django_db


def to_phase(avalon: Avalon, game: Game, kingdom: Any, phase: str) -> None:
    """On through the phases to ``phase``, running any compulsory phase met on the way."""
    while (state := seat(avalon, kingdom))["phase"] != phase:
        if state["phase"] == "compulsory" and state.get("compulsory_done") != state["turn"]:
            table.compulsory(avalon.campaign, avalon.gm, game, kingdom)
        table.next_phase(avalon.campaign, avalon.gm, game, kingdom)


def seat(avalon: Avalon, kingdom: Any) -> dict[str, Any]:
    return Participant.objects.get(game__campaign=avalon.campaign, kingdom=kingdom).table


def works(avalon: Avalon, kingdom: Any) -> list[tuple[int, str, int, bool]]:
    return [(w["id"], w["code"], w["bp"], w["staffed"]) for w in seat(avalon, kingdom)["works"]]


def give(avalon: Avalon, game: Game, kingdom: Any, **amounts: int) -> None:
    """The GM books resources (a correction line) so a test can pay for things."""
    for resource, amount in amounts.items():
        table.book_line(avalon.campaign, avalon.gm, game, kingdom, resource, amount,
                        "SNS-ECON-3", "test stock")


def next_turn_compulsory(avalon: Avalon, game: Game, kingdom: Any, **kw: Any) -> str:
    """On to the next compulsory phase and run it."""
    to_phase(avalon, game, kingdom, "move_combat")
    to_phase(avalon, game, kingdom, "compulsory")
    return table.compulsory(avalon.campaign, avalon.gm, game, kingdom, **kw)


def test_sns_econ_5_the_game_opens_with_the_stockpile_standing(avalon: Avalon,
                                                               game: Game) -> None:
    """SNS-ECON-5, SNS-BLD-STOCKPILE: the only building at the start is the Stockpile."""
    assert works(avalon, avalon.red) == [(1, "STOCKPILE", 0, True)]


def test_sns_econ_53_a_farm_is_paid_first_laid_and_built_by_build_points(avalon: Avalon,
                                                                         game: Game) -> None:
    """SNS-ECON-53, SNS-ECON-3, SNS-BLD-FARM, SNS-ECON-41, SNS-ECON-54: a Farm costs 3 wood
    (Red has 3) and has 2 BP; a second is refused; two Villagers working it in the next
    compulsory phase finish it and one of them staffs it; the Farm then counts as operational
    from the next turn."""
    to_phase(avalon, game, avalon.red, "compulsory")
    table.compulsory(avalon.campaign, avalon.gm, game, avalon.red)
    to_phase(avalon, game, avalon.red, "advance")
    refused(lambda: buildings.lay_foundation(avalon.campaign, avalon.gm, game, avalon.red,
                                             "CASTLE", ["wood"] * 4),
            "A Castle needs WORKSHOP first (SNS-BLD-CASTLE, SNS-ECON-53).")
    summary = buildings.lay_foundation(avalon.campaign, avalon.gm, game, avalon.red, "FARM")
    assert summary == ("Red, turn 1: the foundation of a Farm (2 BP), paid 3 wood "
                       "(SNS-BLD-FARM, SNS-ECON-53).")
    assert stock(avalon, avalon.red)["wood"] == 0
    assert works(avalon, avalon.red) == [(1, "STOCKPILE", 0, True), (2, "FARM", 2, False)]
    refused(lambda: buildings.lay_foundation(avalon.campaign, avalon.gm, game, avalon.red,
                                             "FARM"),
            "foundation of a Farm: you need 3 more wood first; resources are paid before "
            "anything is placed (SNS-ECON-3).")
    summary = next_turn_compulsory(avalon, game, avalon.red, workers={2: 2})
    assert summary == ("Red, turn 2: 2 units worked foundations; Farm complete (SNS-ECON-40, "
                       "SNS-ECON-41); upkeep 0 food; growth 1 (SNS-ECON-42..44).")
    state = seat(avalon, avalon.red)
    assert works(avalon, avalon.red) == [(1, "STOCKPILE", 0, True), (2, "FARM", 0, True)]
    assert state["units"] == {"VILLAGER": 2, "KING": 1}
    assert state["buildings"] == {"STOCKPILE": 1}
    next_turn_compulsory(avalon, game, avalon.red)
    assert seat(avalon, avalon.red)["buildings"] == {"STOCKPILE": 1, "FARM": 1}


def test_sns_econ_41_working_a_building_that_is_no_foundation_is_refused(
        avalon: Avalon, game: Game) -> None:
    """SNS-ECON-41: Build Points are removed from foundations only."""
    to_phase(avalon, game, avalon.red, "compulsory")
    refused(lambda: table.compulsory(avalon.campaign, avalon.gm, game, avalon.red,
                                     workers={1: 2}),
            "SNS-ECON-41: Red has no foundation 1.")


def test_sns_econ_4_no_foundation_while_the_stockpile_does_not_work(avalon: Avalon,
                                                                    game: Game) -> None:
    """SNS-ECON-4: a Stockpile that does not work pays for nothing."""
    to_phase(avalon, game, avalon.red, "advance")
    table.set_operational(avalon.campaign, avalon.gm, game, avalon.red, False)
    refused(lambda: buildings.lay_foundation(avalon.campaign, avalon.gm, game, avalon.red,
                                             "FARM"),
            "Your Stockpile is not working (it is at 1 HP, unstaffed or touched by an enemy), "
            "so you cannot spend wood; only favor still moves (SNS-ECON-4).")


def test_sns_econ_50_foundations_belong_to_the_advance_phase(avalon: Avalon,
                                                            game: Game) -> None:
    """SNS-ECON-50, SNS-ECON-11: no foundation in the harvest phase."""
    refused(lambda: buildings.lay_foundation(avalon.campaign, avalon.gm, game, avalon.red,
                                             "FARM"),
            "SNS-ECON-11: Red is in the harvest phase of turn 1; this belongs to the advance "
            "phase.")


def test_sns_fac_1_the_catalogue_offers_what_the_faction_and_holdings_allow(
        avalon: Avalon, game: Game) -> None:
    """SNS-FAC-1, SNS-FAC-3, SNS-BLD-FOUNDRY, SNS-BLD-SACREDGROUND, SNS-BLD-STABLE: an
    Avalonian with only a Stockpile may found a Foundry but no Sacred Ground (Paganite) and no
    Stable (needs a Barracks); the upgrades on offer are the Stockpile's, and the only unit it
    may train is the Villager (SNS-ECON-51)."""
    to_phase(avalon, game, avalon.red, "advance")
    part = Participant.objects.get(game=game, kingdom=avalon.red)
    view = buildings.holdings_view(avalon.campaign, game, part, {})
    codes = [b["code"] for b in view["can_build"]]
    assert "FOUNDRY" in codes and "BARRACKS" in codes and "FARM" in codes
    assert "SACREDGROUND" not in codes and "STABLE" not in codes and "STOCKPILE" not in codes
    assert codes == ["COMMUNE", "FARM", "MILL", "MARKET", "TAVERN", "TEMPLE", "TOTEM",
                     "UNIVERSITY", "BARRACKS", "WORKSHOP", "FOUNDRY", "SIEGECAMP", "DOCK",
                     "GUARDTOWER", "WOODBRIDGE", "PALISADEWALL", "PALISADEGATE", "STONEBRIDGE",
                     "STONEWALL", "STONEGATE", "TRENCHES", "MOUNDS"]
    assert [u["code"] for u in view["can_buy"]] == ["REGENFORESTRY", "HUNTINGCABINS"]
    assert [u["code"] for u in view["units_to_train"]] == ["VILLAGER"]
    refused(lambda: buildings.lay_foundation(avalon.campaign, avalon.gm, game, avalon.red,
                                             "SACREDGROUND", ["wood"]),
            "Sacred Ground is not open to your faction (SNS-BLD-SACREDGROUND, SNS-FAC-1).")


def test_sns_amb_30_an_uncertain_cost_asks_for_its_types_or_takes_the_campaigns(
        avalon: Avalon, game: Game) -> None:
    """SNS-AMB-30, SNS-BLD-BARRACKS: the Barracks' 4, 4 lost their symbols; without types the
    foundation is refused; the GM gives them (wood, stone) for the campaign, through an
    undoable event, and the foundation is paid in them; the note says what the campaign
    uses."""
    to_phase(avalon, game, avalon.red, "advance")
    give(avalon, game, avalon.red, wood=1, stone=4)
    refused(lambda: buildings.lay_foundation(avalon.campaign, avalon.gm, game, avalon.red,
                                             "BARRACKS"),
            "The resource type of part of this cost is not known (the symbols were lost in the "
            "rulebook text); the GM must fill it in or the player must name it (SNS-AMB-30).")
    assert costs.note("SNS-BLD-BARRACKS", {}) == (
        "Cost type uncertain in the source; 2 of its amounts have no type yet: name them when "
        "you pay (4 ?, 4 ?; SNS-AMB-30).")
    before = dump()
    summary = costs.set_cost_types(avalon.campaign, avalon.gm, "SNS-BLD-BARRACKS",
                                   ["wood", "stone"])
    assert summary == "Barracks: this campaign pays 4 wood, 4 stone (SNS-AMB-30)."
    assert costs.note("SNS-BLD-BARRACKS", costs.cost_types(avalon.campaign)) == (
        "Cost type uncertain in the source; this campaign uses 4 wood, 4 stone (SNS-AMB-30).")
    undo(avalon)
    assert dump() == before and not CostType.objects.exists()
    costs.set_cost_types(avalon.campaign, avalon.gm, "SNS-BLD-BARRACKS", ["wood", "stone"])
    summary = buildings.lay_foundation(avalon.campaign, avalon.gm, game, avalon.red, "BARRACKS")
    assert summary == ("Red, turn 1: the foundation of a Barracks (4 BP), paid 4 wood, 4 stone "
                       "(SNS-BLD-BARRACKS, SNS-ECON-53).")
    assert stock(avalon, avalon.red) == {"food": 1, "wood": 0, "stone": 0, "iron": 0, "gold": 0,
                                         "favor": 0}
    costs.set_cost_types(avalon.campaign, avalon.gm, "SNS-BLD-BARRACKS", [None, None])
    assert not CostType.objects.exists()
    with pytest.raises(SnsError, match=r"^SNS-AMB-30: nothing changes\.$"):
        costs.set_cost_types(avalon.campaign, avalon.gm, "SNS-BLD-BARRACKS", [None, None])
    with pytest.raises(SnsError, match=r"^This cost has 2 amounts; 1 types were given"):
        costs.set_cost_types(avalon.campaign, avalon.gm, "SNS-BLD-BARRACKS", ["wood"])


def test_sns_amb_30_a_unit_cost_takes_the_campaigns_types_too(avalon: Avalon,
                                                              game: Game) -> None:
    """SNS-AMB-30, SNS-UNIT-SWORDS, SNS-ECON-51: with the Swords' 1, 2 set to food and iron
    (and a Barracks counted), training pays them without naming any."""
    costs.set_cost_types(avalon.campaign, avalon.gm, "SNS-UNIT-SWORDS", ["food", "iron"])
    give(avalon, game, avalon.red, iron=2)
    to_phase(avalon, game, avalon.red, "compulsory")
    table.compulsory(avalon.campaign, avalon.gm, game, avalon.red,
                     {"STOCKPILE": 1, "BARRACKS": 1})
    to_phase(avalon, game, avalon.red, "advance")
    table.train(avalon.campaign, avalon.gm, game, avalon.red, "SWORDS")
    assert stock(avalon, avalon.red) == {"food": 0, "wood": 3, "stone": 0, "iron": 0, "gold": 0,
                                         "favor": 0}


def test_sns_econ_56_an_upgrade_is_bought_once_on_its_operational_building(
        avalon: Avalon, game: Game) -> None:
    """SNS-ECON-56, SNS-UPG-HUNTINGCABINS, SNS-UPG-FESTAG: Hunting Cabins (2, 2) bought at the
    Stockpile for 2 wood and 2 stone, kept on it, counted for the report; not twice; an ability
    is used, not bought; undo puts everything back."""
    to_phase(avalon, game, avalon.red, "advance")
    give(avalon, game, avalon.red, stone=2)
    before = dump()
    summary = buildings.buy_upgrade(avalon.campaign, avalon.gm, game, avalon.red,
                                    "HUNTINGCABINS", ["wood", "stone"])
    assert summary == ("Red, turn 1: buys Hunting Cabins, paid 2 wood, 2 stone "
                       "(SNS-UPG-HUNTINGCABINS, SNS-ECON-56).")
    state = seat(avalon, avalon.red)
    assert state["upgrades"] == [{"code": "HUNTINGCABINS", "work": 1, "turn": 1}]
    assert state["bought_upgrades"] == 1
    assert stock(avalon, avalon.red)["wood"] == 1 and stock(avalon, avalon.red)["stone"] == 0
    refused(lambda: buildings.buy_upgrade(avalon.campaign, avalon.gm, game, avalon.red,
                                          "HUNTINGCABINS", ["wood", "stone"]),
            "You already own Hunting Cabins (SNS-ECON-56).")
    refused(lambda: buildings.buy_upgrade(avalon.campaign, avalon.gm, game, avalon.red,
                                          "FESTAG", ["gold"]),
            "Festag is an ability: use it, do not buy it (SNS-UPG-FESTAG).")
    refused(lambda: buildings.buy_upgrade(avalon.campaign, avalon.gm, game, avalon.red,
                                          "WELLS", ["wood", "stone"]),
            "Wells is bought at an operational Mill (SNS-ECON-55, SNS-ECON-56).")
    undo(avalon)
    assert dump() == before


def test_sns_econ_44_crime_and_punishment_lowers_growth_while_owned(avalon: Avalon,
                                                                   game: Game) -> None:
    """SNS-ECON-44, SNS-UPG-CRIMEPUNISH: an owned Crime and Punishment is -1 growth in every
    compulsory phase; discarded, it no longer counts (SNS-ECON-56)."""
    give(avalon, game, avalon.red, food=1)
    part = Participant.objects.get(game=game, kingdom=avalon.red)
    Participant.objects.filter(pk=part.pk).update(table={
        **part.table, "upgrades": [{"code": "CRIMEPUNISH", "work": None, "turn": 1}]})
    to_phase(avalon, game, avalon.red, "compulsory")
    assert table.compulsory(avalon.campaign, avalon.gm, game, avalon.red,
                            {"STOCKPILE": 1, "TAVERN": 1}).endswith(
        "upkeep 1 food; growth 1 (SNS-ECON-42..44).")
    assert buildings.discard_upgrade(avalon.campaign, avalon.gm, game, avalon.red,
                                     "CRIMEPUNISH") == (
        "Red, turn 1: Crime and Punishment is used up or discarded (SNS-ECON-56).")
    assert next_turn_compulsory(avalon, game, avalon.red,
                                operational={"STOCKPILE": 1, "TAVERN": 1}).endswith(
        "growth 2 (SNS-ECON-42..44).")


def _barracks(avalon: Avalon, game: Game) -> None:
    """Red lays a Barracks (4 wood, 4 stone) in turn 1 and four Villagers... three work it in
    turn 2 and one in turn 3: it stands from turn 3, staffed."""
    costs.set_cost_types(avalon.campaign, avalon.gm, "SNS-BLD-BARRACKS", ["wood", "stone"])
    give(avalon, game, avalon.red, wood=1, stone=4)
    to_phase(avalon, game, avalon.red, "advance")
    buildings.lay_foundation(avalon.campaign, avalon.gm, game, avalon.red, "BARRACKS")
    next_turn_compulsory(avalon, game, avalon.red, workers={2: 3})
    next_turn_compulsory(avalon, game, avalon.red, workers={2: 1})


def test_sns_cbt_8_a_fire_puts_a_building_out_of_work_the_whole_next_turn(
        avalon: Avalon, game: Game) -> None:
    """SNS-CBT-8, SNS-ECON-55, SNS-CBT-5, SNS-ECON-56: a fire hit of 4 leaves the Barracks at
    2 of 6 HP; it works this turn, not the next, and again the one after; 2 more wounds
    destroy it and take it from the operational buildings; its upgrades stay."""
    _barracks(avalon, game)
    assert works(avalon, avalon.red)[1] == (2, "BARRACKS", 0, True)
    part = Participant.objects.get(game=game, kingdom=avalon.red)
    Participant.objects.filter(pk=part.pk).update(table={
        **part.table, "upgrades": [{"code": "GAMBESONS", "work": 2, "turn": 3}]})
    summary = buildings.damage(avalon.campaign, avalon.gm, game, avalon.red, 2, fire_die=4)
    assert summary == ("Red, turn 3: the Barracks takes 4 wounds from a fire (4 on the die): 2 "
                       "of 6 HP left; out of work the whole next turn (SNS-CBT-8).")
    next_turn_compulsory(avalon, game, avalon.red)
    assert seat(avalon, avalon.red)["buildings"] == {"STOCKPILE": 1}
    next_turn_compulsory(avalon, game, avalon.red)
    assert seat(avalon, avalon.red)["buildings"] == {"STOCKPILE": 1, "BARRACKS": 1}
    summary = buildings.damage(avalon.campaign, avalon.gm, game, avalon.red, 2, wounds=2)
    assert summary == ("Red, turn 5: the Barracks takes 2 wounds and is destroyed (SNS-CBT-5; "
                       "its upgrades stay, SNS-ECON-56).")
    state = seat(avalon, avalon.red)
    assert state["buildings"] == {"STOCKPILE": 1}
    assert state["works"][1]["destroyed_turn"] == 5
    assert state["upgrades"] == [{"code": "GAMBESONS", "work": 2, "turn": 3}]
    refused(lambda: buildings.damage(avalon.campaign, avalon.gm, game, avalon.red, 2,
                                     wounds=1),
            "SNS-CBT-5: the Barracks is already destroyed.")


def test_sns_cbt_6_wounds_on_a_foundation_add_build_points(avalon: Avalon,
                                                           game: Game) -> None:
    """SNS-CBT-6: a Barracks foundation with 1 of 4 BP left takes a wound: 3 BP; another
    would make 5, past its 4, and destroys it (no refund)."""
    costs.set_cost_types(avalon.campaign, avalon.gm, "SNS-BLD-BARRACKS", ["wood", "stone"])
    give(avalon, game, avalon.red, wood=1, stone=4)
    to_phase(avalon, game, avalon.red, "advance")
    buildings.lay_foundation(avalon.campaign, avalon.gm, game, avalon.red, "BARRACKS")
    next_turn_compulsory(avalon, game, avalon.red, workers={2: 3})
    assert buildings.damage(avalon.campaign, avalon.gm, game, avalon.red, 2, wounds=1) == (
        "Red, turn 2: the Barracks foundation takes 1 wound: 3 of 4 BP left (SNS-CBT-6).")
    assert buildings.damage(avalon.campaign, avalon.gm, game, avalon.red, 2, wounds=1) == (
        "Red, turn 2: the Barracks foundation takes 1 wound and is destroyed (SNS-CBT-6).")
    assert works(avalon, avalon.red) == [(1, "STOCKPILE", 0, True)]
    assert stock(avalon, avalon.red)["stone"] == 0


def test_sns_econ_4_a_stockpile_at_1_hp_stops_working_until_repaired(avalon: Avalon,
                                                                     game: Game) -> None:
    """SNS-ECON-4, SNS-CBT-5, SNS-CBT-7: 9 wounds leave the Stockpile at 1 HP (never less): it
    stops working; a repair of 1 in the advance phase lifts it to 2 HP and it works again."""
    summary = buildings.damage(avalon.campaign, avalon.gm, game, avalon.red, 1, wounds=9)
    assert summary == ("Red, turn 1: the Stockpile takes 9 wounds: 1 of 5 HP left; the "
                       "Stockpile is at 1 HP and stops working (SNS-ECON-4).")
    assert seat(avalon, avalon.red)["operational"] is False
    to_phase(avalon, game, avalon.red, "advance")
    assert buildings.repair(avalon.campaign, avalon.gm, game, avalon.red, 1, 1) == (
        "Red, turn 1: the Stockpile is repaired to 2 HP (SNS-CBT-7); the Stockpile works again "
        "(SNS-ECON-4).")
    assert seat(avalon, avalon.red)["operational"] is True


def test_sns_econ_58_a_cancelled_foundation_is_refunded_in_full(avalon: Avalon,
                                                                game: Game) -> None:
    """SNS-ECON-58: the Farm foundation cancelled gives its 3 wood back."""
    to_phase(avalon, game, avalon.red, "advance")
    buildings.lay_foundation(avalon.campaign, avalon.gm, game, avalon.red, "FARM")
    assert buildings.cancel_foundation(avalon.campaign, avalon.gm, game, avalon.red, 2) == (
        "Red, turn 1: the Farm foundation is cancelled, 3 wood back (SNS-ECON-58).")
    assert stock(avalon, avalon.red)["wood"] == 3
    assert works(avalon, avalon.red) == [(1, "STOCKPILE", 0, True)]


def test_sns_econ_54_staff_steps_out_and_the_building_stops_working(avalon: Avalon,
                                                                    game: Game) -> None:
    """SNS-ECON-54, SNS-ECON-55: the Barracks' staff steps out as a Villager; the Barracks is
    not counted in the next compulsory phase; a Villager staffs it again."""
    _barracks(avalon, game)
    units = seat(avalon, avalon.red)["units"]["VILLAGER"]
    buildings.set_staff(avalon.campaign, avalon.gm, game, avalon.red, 2, False)
    assert seat(avalon, avalon.red)["units"]["VILLAGER"] == units + 1
    next_turn_compulsory(avalon, game, avalon.red)
    assert seat(avalon, avalon.red)["buildings"] == {"STOCKPILE": 1}
    buildings.set_staff(avalon.campaign, avalon.gm, game, avalon.red, 2, True)
    assert seat(avalon, avalon.red)["units"]["VILLAGER"] == units
    refused(lambda: buildings.set_staff(avalon.campaign, avalon.gm, game, avalon.red, 1, False),
            "SNS-ECON-54: the Stockpile takes no staff now.")


def test_sns_econ_55_the_table_says_an_enemy_touches_a_building(avalon: Avalon,
                                                               game: Game) -> None:
    """SNS-ECON-55: the Stockpile marked idle gives no growth this turn."""
    to_phase(avalon, game, avalon.red, "compulsory")
    assert table.compulsory(avalon.campaign, avalon.gm, game, avalon.red, idle=[1]).endswith(
        "growth 0 (SNS-ECON-42..44).")


def test_sns_state_3_die_timers_tick_down_in_the_compulsory_phase(avalon: Avalon,
                                                                  game: Game) -> None:
    """SNS-STATE-3, SNS-ECON-40, SNS-ECON-44: Plague starts at 5, costs 1 growth in each of the
    four compulsory phases it runs through and runs out in the fifth; a Dire Warning flood at
    turn 1 is (80 - 1) / 3 rounded up: 27."""
    assert buildings.start_timer(avalon.campaign, avalon.gm, game, avalon.red, "Plague") == (
        "Red, turn 1: Plague timer set at 5, -1 growth while it runs (SNS-STATE-3).")
    buildings.start_timer(avalon.campaign, avalon.gm, game, avalon.red, "Flood")
    to_phase(avalon, game, avalon.red, "compulsory")
    assert table.compulsory(avalon.campaign, avalon.gm, game, avalon.red).endswith(
        "growth 0 (SNS-ECON-42..44).")
    assert [(t["name"], t["remaining"]) for t in seat(avalon, avalon.red)["timers"]] == [
        ("Plague", 4), ("Flood", 26)]
    for _ in range(3):
        assert next_turn_compulsory(avalon, game, avalon.red).endswith(
            "growth 0 (SNS-ECON-42..44).")
    summary = next_turn_compulsory(avalon, game, avalon.red)
    assert summary == ("Red, turn 5: Plague ran out (SNS-ECON-40, SNS-ECON-41); upkeep 0 food; "
                       "growth 1 (SNS-ECON-42..44).")
    assert [(t["name"], t["remaining"]) for t in seat(avalon, avalon.red)["timers"]] == [
        ("Flood", 22)]
    refused(lambda: buildings.start_timer(avalon.campaign, avalon.gm, game, avalon.red,
                                          "Made up"),
            "SNS-STATE-3: 'Made up' has no printed start; give its value.")
    assert buildings.end_timer(avalon.campaign, avalon.gm, game, avalon.red, 2) == (
        "Red, turn 5: the Flood timer is taken off (SNS-ECON-40).")


def test_sns_evt_2_an_event_with_a_timer_starts_it(avalon: Avalon, game: Game) -> None:
    """SNS-EVT-2, SNS-STATE-3: Karma Count (Favor event 10) at turn 10 starts its timer of
    6."""
    part = Participant.objects.get(game=game, kingdom=avalon.red)
    Participant.objects.filter(pk=part.pk).update(table={**part.table, "turn": 10})
    table.event(avalon.campaign, avalon.gm, game, avalon.red, "favor", 10)
    assert [(t["name"], t["remaining"]) for t in seat(avalon, avalon.red)["timers"]] == [
        ("Karma Count", 6)]


def test_sns_state_3_public_executions_add_growth_for_three_turns(avalon: Avalon,
                                                                  game: Game) -> None:
    """SNS-STATE-3, SNS-ECON-44, SNS-EVT-2: Public Executions (+1 growth, timer 4) chosen in the
    advance phase of turn 10 count in the compulsory phases of turns 11, 12 and 13: the
    event's own line in turn 11, the timer's in 12 and 13; none in 14."""
    part = Participant.objects.get(game=game, kingdom=avalon.red)
    Participant.objects.filter(pk=part.pk).update(table={**part.table, "turn": 10})
    to_phase(avalon, game, avalon.red, "advance")
    summary = table.event(avalon.campaign, avalon.gm, game, avalon.red, "kingdom", 12,
                          sub_rolls=[1, 1, 1, 1, 1], choices=["growth"])
    assert summary.startswith("Red, turn 10: kingdom event 12: Corruption")
    rates = [next_turn_compulsory(avalon, game, avalon.red).rsplit("growth ", 1)[1]
             for _ in range(4)]
    assert rates == ["2 (SNS-ECON-42..44).", "2 (SNS-ECON-42..44).", "2 (SNS-ECON-42..44).",
                     "1 (SNS-ECON-42..44)."]


def test_the_table_page_shows_buildings_upgrades_timers_and_cost_notes(
        avalon: Avalon, game: Game, player: Any) -> None:
    """The page lists the kingdom's buildings with their upgrades and state, the timers, and the
    catalogue's choices with the note on uncertain costs (SNS-AMB-30); the GM's cost types page
    is read by a player, changed by the GM only (403 for the player, nothing written)."""
    to_phase(avalon, game, avalon.red, "advance")
    give(avalon, game, avalon.red, stone=2)
    buildings.buy_upgrade(avalon.campaign, avalon.gm, game, avalon.red, "HUNTINGCABINS",
                          ["wood", "stone"])
    buildings.start_timer(avalon.campaign, avalon.gm, game, avalon.red, "Shunned")
    buildings.damage(avalon.campaign, avalon.gm, game, avalon.red, 1, fire_die=2)
    client = Client()
    client.force_login(player)
    url = reverse("sns:table", kwargs={"slug": avalon.campaign.slug, "number": 1,
                                       "kingdom_id": avalon.red.pk})
    body = client.get(url).content.decode()
    assert "Upgrades: Hunting Cabins" in body
    assert "3 of 5 HP, on fire: out of work next turn (SNS-CBT-8)" in body
    assert "<strong>Shunned</strong>: 4 turns left" in body
    assert ("Barracks: Cost type uncertain in the source; 2 of its amounts have no type yet"
            in body)
    costs_url = reverse("sns:costs", args=[avalon.campaign.slug])
    page = client.get(costs_url)
    assert page.status_code == 200 and "SNS-BLD-BARRACKS" in page.content.decode()
    before = dump()
    response = client.post(costs_url, {"cost": "SNS-BLD-BARRACKS", "t0": "wood", "t1": "stone"})
    assert response.status_code == 403 and dump() == before
    gm = Client()
    gm.force_login(avalon.gm)
    response = gm.post(costs_url, {"cost": "SNS-BLD-BARRACKS", "t0": "wood", "t1": "stone"})
    assert response.status_code == 302
    assert response["Location"] == costs_url + "?saved=SNS-BLD-BARRACKS#c-SNS-BLD-BARRACKS"
    saved = gm.get(response["Location"]).content.decode()
    assert '<details open><summary>The 28 costs and their resources</summary>' in saved
    assert saved.count("<details open>") == 2
    assert CostType.objects.get().types == ["wood", "stone"]
    body = client.get(url).content.decode()
    assert ("Barracks: Cost type uncertain in the source; this campaign uses 4 wood, 4 stone "
            "(SNS-AMB-30)." in body)
    response = gm.post(costs_url, {"cost": "SNS-BLD-BARRACKS", "t0": "mithril", "t1": ""})
    assert response.status_code == 400


def test_the_buildings_forms_through_the_web(avalon: Avalon, game: Game, player: Any,
                                            other_player: Any) -> None:
    """The advance-phase forms lay a foundation and buy an upgrade for the player's kingdom
    (htmx gets the fragment); another player is refused and nothing changes; a bad id is 400."""
    to_phase(avalon, game, avalon.red, "advance")
    give(avalon, game, avalon.red, stone=2, wood=2)
    args = {"slug": avalon.campaign.slug, "number": 1, "kingdom_id": avalon.red.pk}

    def post(user: Any, action: str, data: dict[str, str]) -> Any:
        client = Client()
        client.force_login(user)
        return client.post(reverse("sns:table_action", kwargs={**args, "action": action}),
                           data, headers={"HX-Request": "true"})

    before = dump()
    assert post(other_player, "found", {"building": "FARM"}).status_code == 403
    assert dump() == before
    assert post(player, "damage", {"work": "x"}).status_code == 400
    response = post(player, "found", {"building": "FARM"})
    assert response.status_code == 200
    assert "the foundation of a Farm (2 BP), paid 3 wood" in response.content.decode()
    response = post(player, "upgrade", {"upgrade": "HUNTINGCABINS", "types": "wood, stone"})
    assert response.status_code == 200, response.content.decode()[-400:]
    assert seat(avalon, avalon.red)["upgrades"][0]["code"] == "HUNTINGCABINS"
    response = post(player, "upgrade", {"upgrade": "HUNTINGCABINS", "types": "wood,stone"})
    assert response.status_code == 409
    assert "You already own Hunting Cabins (SNS-ECON-56)." in response.content.decode()
