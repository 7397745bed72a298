"""War of Kings battles, militia, conquest, the Malador, capitals and elimination by rule ID."""

from __future__ import annotations

from dataclasses import replace

import pytest

from campaign.systems.war_of_kings.rules import achievements as ach
from campaign.systems.war_of_kings.rules import battle as bt
from campaign.systems.war_of_kings.rules import conquest as cq
from campaign.systems.war_of_kings.rules import economy as eco
from campaign.systems.war_of_kings.rules.board import (
    CASTLE,
    CITY,
    FORTRESS,
    MALADOR,
    MOVEMENT,
    TOWN,
    VILLAGE,
    WALLS,
    WINTER,
    WINTER_CENTER,
    Army,
    RuleViolation,
    Stock,
)
from campaign.systems.war_of_kings.rules.options import Options, v06_options
from tests.wok.factory import hold, terr, world

HIT, FLAIL, SHIELD, BLANK = bt.WARHAMMER, bt.FLAIL, bt.SHIELD, bt.BLANK


def roll(n: int, good: int, symbol: str) -> tuple[str, ...]:
    """``n`` dice of which ``good`` show ``symbol`` and the rest are blank."""
    return (symbol,) * good + (BLANK,) * (n - good)


def rolls(dice: bt.Dice, hits: int = 0, shields: int = 0, counter: int = 0,
          negation: int = 0) -> bt.Rolls:
    return bt.Rolls(roll(dice.attack, hits, HIT), roll(dice.defense, shields, SHIELD),
                    roll(dice.counter, counter, FLAIL), roll(dice.negation, negation, SHIELD))


def field(defenders=(("b1", 0),), attackers=(("r1", 0),), level=TOWN, fort=0, **extra):
    """Red attacks B, held by Blue, from A."""
    armies = [Army(i, "Red", "B", d, ready=False, came_from="A") for i, d in attackers]
    armies += [Army(i, "Blue", "B", d) for i, d in defenders]
    return world(["A", "B", "C"], ["A-B", "B-C"],
                 {"A": hold("Red", TOWN), "B": hold("Blue", level, fort=fort),
                  "C": hold("Blue")}, capitals={"Red": "A", "Blue": "C"}, armies=armies,
                 stock=Stock(), **extra)


# --- dice and superiority -------------------------------------------------------------------

def test_wok_tv_9_and_battle_6_numerical_superiority() -> None:
    """WOK-TV-9, WOK-BATTLE-6: 2 v 2 no bonus; 2 v 1 gives the attacker one purple die on the
    attack and one on the negation roll."""
    assert bt.superiority(2, 2) == (0, 0)
    dice = bt.dice_for_round(2, 1)
    assert (dice.bonus_att, dice.attack, dice.negation, dice.bonus_def) == (1, 5, 3, 0)
    assert bt.superiority(1, 3) == (0, 2)


def test_wok_battle_5_symbols_and_die_counts_checked() -> None:
    """WOK-BATTLE-5: unknown symbols and wrong dice counts are refused."""
    state = field()
    dice = bt.dice_for_round(1, 1)
    bad = bt.Rolls(("sword?",) * 4, roll(2, 0, SHIELD), roll(4, 0, FLAIL), roll(2, 0, SHIELD))
    with pytest.raises(RuleViolation, match="WOK-BATTLE-5: 'sword\\?' is not a battle-die"):
        bt.fight_round(state, "B", ["r1"], bad)
    short = replace(rolls(dice), attack=roll(3, 0, HIT))
    with pytest.raises(RuleViolation, match="the attack roll takes 4 dice; 3 were entered"):
        bt.fight_round(state, "B", ["r1"], short)


def test_wok_battle_7_to_9_one_round_with_armies() -> None:
    """WOK-BATTLE-7, WOK-BATTLE-8, WOK-BATTLE-9: 3 hammers against 1 shield put 2 on the
    defender; 3 flails against 1 shield put 2 on the attacker; both stand: continue."""
    state = field()
    dice = bt.dice_for_round(1, 1)
    assert (dice.attack, dice.defense, dice.counter, dice.negation) == (4, 2, 4, 2)
    result = bt.fight_round(state, "B", ["r1"], rolls(dice, 3, 1, 3, 1))
    assert (result.hits, result.shields, result.counter_hits, result.counter_shields) == (
        3, 1, 3, 1)
    assert (dict(result.to_defenders), dict(result.to_attackers)) == ({"b1": 2}, {"r1": 2})
    assert [(a.id, a.damage) for a in result.state.armies] == [("r1", 2), ("b1", 2)]
    assert result.outcome == "continue"


def test_wok_fort_10_and_fort_11_grey_dice_defend_only() -> None:
    """WOK-FORT-10, WOK-FORT-11: walls 1, fortress 2, castle 3 grey dice on the defense roll;
    none on the counterattack or for the attacker."""
    counts = [bt.dice_for_round(1, 1, fort=f) for f in (WALLS, FORTRESS, CASTLE)]
    assert [(d.defense, d.counter, d.attack) for d in counts] == [(3, 4, 4), (4, 4, 4),
                                                                   (5, 4, 4)]


def test_wok_v06_8_grey_dice_on_the_counterattack_too() -> None:
    """WOK-V06-8: under v0.6 a castle adds 3 dice to the counterattack as well."""
    dice = bt.dice_for_round(1, 1, fort=CASTLE, options=v06_options())
    assert (dice.defense, dice.counter) == (5, 7)


def test_wok_v06_9_sword_symbol_hits() -> None:
    """WOK-V06-9: a preview sword counts as a hit on the attack."""
    state = field()
    dice = bt.dice_for_round(1, 1)
    swords = replace(rolls(dice), attack=(bt.SWORD, bt.SWORD, BLANK, BLANK))
    assert bt.fight_round(state, "B", ["r1"], swords).hits == 2


def test_wok_battle_15_and_event_5_card_dice_stack() -> None:
    """WOK-BATTLE-15, WOK-EVENT-5: two Heroic Charges give the attacker 2 more dice on both of
    its rolls; a Shield Wall 1 more on both defender rolls."""
    dice = bt.dice_for_round(1, 1, card_att=2, card_def=1)
    assert (dice.attack, dice.negation, dice.defense, dice.counter) == (6, 4, 3, 5)


# --- damage -----------------------------------------------------------------------------------

def test_wok_battle_12_and_amb_10_finish_armies_first() -> None:
    """WOK-BATTLE-12, WOK-AMB-10: 4 hits on armies with 2, 0 and 1 damage finish the 2 and the
    1 (1 + 2 hits) and put the last on the fresh one; a spread-out allocation is refused, an
    equally good one accepted."""
    damage = {"a": 2, "b": 0, "c": 1}
    assert bt.allocate(damage, 4) == {"a": 1, "b": 1, "c": 2}
    bt.check_allocation(damage, 4, {"a": 1, "b": 1, "c": 2})
    with pytest.raises(RuleViolation, match="as many armies as possible"):
        bt.check_allocation(damage, 4, {"a": 0, "b": 2, "c": 2})
    with pytest.raises(RuleViolation, match="single army"):
        bt.check_allocation({"a": 0, "b": 0}, 2, {"a": 1, "b": 1})
    bt.check_allocation({"a": 0, "b": 0}, 2, {"a": 0, "b": 2})


def test_wok_battle_7_excess_hits_lost() -> None:
    """WOK-BATTLE-7, WOK-ARMY-6: 7 hits on one fresh army place 3; the rest are lost."""
    assert bt.allocate({"a": 0}, 7) == {"a": 3}


def test_wok_battle_10_and_army_7_finished_armies_still_counterattack() -> None:
    """WOK-BATTLE-10, WOK-ARMY-7: a defender finished in step 4 still kills the attacker in
    step 5; both removed at step 8: the defender keeps the territory (WOK-AMB-11)."""
    state = field(defenders=(("b1", 2),), attackers=(("r1", 2),))
    dice = bt.dice_for_round(1, 1)
    result = bt.fight_round(state, "B", ["r1"], rolls(dice, 1, 0, 1, 0))
    assert (result.removed, result.outcome) == (("b1", "r1"), "both_wiped")
    assert result.state.ctrl("B") == "Blue"


def test_wok_battle_11_attacker_wins_and_becomes_unready() -> None:
    """WOK-BATTLE-11, WOK-ARMY-5: all defenders removed with attackers left: the attacker wins,
    attackers unready."""
    state = field(attackers=(("r1", 0), ("r2", 0)))
    state = state.with_army(replace(state.army("r2"), ready=True))
    dice = bt.dice_for_round(2, 1)
    result = bt.fight_round(state, "B", ["r1", "r2"], rolls(dice, 3, 0, 0, 0))
    assert result.outcome == "attacker_wins"
    assert [(a.id, a.ready) for a in result.state.armies] == [("r1", False), ("r2", False)]


def test_wok_battle_11_defender_wins() -> None:
    """WOK-BATTLE-11: attackers gone, defender standing."""
    state = field(attackers=(("r1", 2),))
    dice = bt.dice_for_round(1, 1)
    result = bt.fight_round(state, "B", ["r1"], rolls(dice, 0, 0, 2, 1))
    assert (result.outcome, result.removed) == ("defender_wins", ("r1",))


def test_wok_battle_11_attacker_withdraws_to_where_it_came_from() -> None:
    """WOK-BATTLE-11 (FAQ 11): a withdrawing attacker returns to its last territory, keeps its
    damage and is unready."""
    state = field(attackers=(("r1", 1),))
    back = bt.attacker_withdraw(state, ["r1"])
    assert (back.army("r1").territory, back.army("r1").damage, back.army("r1").ready) == (
        "A", 1, False)


def test_wok_battle_13_defenders_stay_ready() -> None:
    """WOK-BATTLE-13: defending does not make an army unready."""
    state = field()
    dice = bt.dice_for_round(1, 1)
    assert bt.fight_round(state, "B", ["r1"], rolls(dice, 1)).state.army("b1").ready is True


def test_wok_battle_2_defender_withdraws_ready_into_own_neighbour() -> None:
    """WOK-BATTLE-2: b1 (ready) withdraws into Blue's C and is unready; it cannot withdraw into
    Red's A, nor again once unready."""
    state = field()
    moved = bt.defender_withdraw(state, "B", "b1", "C")
    assert (moved.army("b1").territory, moved.army("b1").ready) == ("C", False)
    with pytest.raises(RuleViolation, match="WOK-BATTLE-2: b1 can withdraw only"):
        bt.defender_withdraw(state, "B", "b1", "A")
    tired = state.with_army(replace(state.army("b1"), ready=False))
    with pytest.raises(RuleViolation, match="b1 is unready and must wage battle"):
        bt.defender_withdraw(tired, "B", "b1", "C")


def test_wok_v06_20_forced_march_lets_an_unready_defender_withdraw() -> None:
    """WOK-V06-20, WOK-BATTLE-2: under v0.6's ruling the unready b1 withdraws into Blue's C by
    Forced March and stays unready; still never into Red's A. Without the ruling (v1.01, the
    default) Forced March does not help; a ready army needs no card."""
    tired = field().with_army(replace(field().army("b1"), ready=False))
    v06 = v06_options()
    assert v06.forced_march_withdraw is True and Options().forced_march_withdraw is False
    moved = bt.defender_withdraw(tired, "B", "b1", "C", forced_march=True, options=v06)
    assert (moved.army("b1").territory, moved.army("b1").ready,
            moved.army("b1").damage) == ("C", False, 0)
    with pytest.raises(RuleViolation, match="WOK-BATTLE-2: b1 can withdraw only"):
        bt.defender_withdraw(tired, "B", "b1", "A", forced_march=True, options=v06)
    with pytest.raises(RuleViolation, match="unless Forced March is played"):
        bt.defender_withdraw(tired, "B", "b1", "C", options=v06)
    with pytest.raises(RuleViolation, match="WOK-V06-20: this campaign does not play"):
        bt.defender_withdraw(tired, "B", "b1", "C", forced_march=True)
    with pytest.raises(RuleViolation, match="WOK-V06-20: b1 is ready"):
        bt.defender_withdraw(field(), "B", "b1", "C", forced_march=True, options=v06)


def test_wok_battle_4_and_mil_3_everyone_withdrew_no_militia() -> None:
    """WOK-BATTLE-4, WOK-MIL-3: once every defender has withdrawn, the lone town raises no
    militia and the attacker conquers."""
    state = bt.defender_withdraw(field(), "B", "b1", "C")
    assert bt.everyone_withdrew(state, "B", ["r1"]) is True
    assert cq.conquer(state, "B", "Red").state.ctrl("B") == "Red"


def test_wok_battle_1_attacker_must_be_in_the_territory() -> None:
    """WOK-BATTLE-1: attacking armies stand in the contested territory."""
    state = field()
    with pytest.raises(RuleViolation, match="WOK-BATTLE-1: b1 is not in A|WOK-BATTLE-1"):
        bt.fight_round(state, "A", ["r1"], rolls(bt.dice_for_round(1, 1)))


# --- militia ------------------------------------------------------------------------------------

def test_wok_mil_4_and_v06_7_militia_table() -> None:
    """WOK-MIL-4, WOK-V06-7: v1.01 damage 1/2/3, defend 2, counter 3; v0.6 village 1/2/2, town
    1/2/3, city 2/2/3."""
    assert [bt.militia(level) for level in (VILLAGE, TOWN, CITY)] == [
        bt.Militia(1, 2, 3), bt.Militia(2, 2, 3), bt.Militia(3, 2, 3)]
    assert [bt.militia(level, v06_options()) for level in (VILLAGE, TOWN, CITY)] == [
        bt.Militia(1, 2, 2), bt.Militia(1, 2, 3), bt.Militia(2, 2, 3)]


def test_wok_mil_1_mil_2_mil_5_militia_round() -> None:
    """WOK-MIL-1, WOK-MIL-2, WOK-MIL-5, WOK-AMB-13: an undefended walled town: the militia counts
    as one army (2 attackers get 1 purple die), rolls 2 blue + 1 grey to defend and 3 blue to
    counterattack, never gains purple dice; 2 net hits finish it."""
    state = field(defenders=(), attackers=(("r1", 0), ("r2", 0)), fort=WALLS)
    dice = bt.dice_for_round(2, 0, militia_level=TOWN, fort=WALLS)
    assert (dice.attack, dice.defense, dice.counter, dice.negation) == (5, 3, 3, 3)
    first = bt.fight_round(state, "B", ["r1", "r2"], rolls(dice, 2, 1, 0, 0))
    assert (first.militia_damage, first.outcome) == (1, "continue")
    second = bt.fight_round(first.state, "B", ["r1", "r2"], rolls(dice, 1, 0, 0, 0),
                            militia_damage=first.militia_damage)
    assert (second.militia_damage, second.outcome) == (0, "attacker_wins")


def test_wok_amb_13_card_dice_still_help_a_militia() -> None:
    """WOK-AMB-13: a Shield Wall adds one die to the militia's defense and counterattack."""
    dice = bt.dice_for_round(1, 0, militia_level=VILLAGE, card_def=1)
    assert (dice.defense, dice.counter, dice.bonus_def) == (3, 4, 1)


def test_wok_amb_12_and_amb_11_full_damage_militia_still_counterattacks() -> None:
    """WOK-AMB-12, WOK-AMB-11: a village militia takes its 1 hit yet kills the lone damaged
    attacker: both wiped, the defender keeps B. With a second attacker alive, the attacker
    wins."""
    state = field(defenders=(), attackers=(("r1", 2),), level=VILLAGE)
    dice = bt.dice_for_round(1, 0, militia_level=VILLAGE)
    result = bt.fight_round(state, "B", ["r1"], rolls(dice, 1, 0, 1, 0))
    assert (result.outcome, result.militia_damage, result.state.ctrl("B")) == (
        "both_wiped", 0, "Blue")
    two = field(defenders=(), attackers=(("r1", 2), ("r2", 0)), level=VILLAGE)
    dice2 = bt.dice_for_round(2, 0, militia_level=VILLAGE)
    assert bt.fight_round(two, "B", ["r1", "r2"], rolls(dice2, 1, 0, 1, 0)).outcome == \
        "attacker_wins"


def test_wok_mil_6_and_battle_3_same_culture_is_liberated() -> None:
    """WOK-MIL-6, WOK-BATTLE-3, WOK-CULT-3, WOK-CONQ-4: a lone Red-culture village held by Blue
    does not fight Red; it is liberated. Razing it means fighting its militia first."""
    state = field(defenders=(), level=VILLAGE)
    state = state.with_holding("B", hold("Blue", VILLAGE, cult="Red"))
    with pytest.raises(RuleViolation, match="WOK-BATTLE-3"):
        bt.fight_round(state, "B", ["r1"], rolls(bt.dice_for_round(1, 0, militia_level=1)))
    assert cq.liberate(state, "B", "r1").ctrl("B") == "Red"
    with pytest.raises(RuleViolation, match="WOK-MIL-6: to raze"):
        cq.liberate(state, "B", "r1", raze=True)


def test_wok_amb_24_malador_liberate_malador_villages() -> None:
    """WOK-AMB-24: a Marauder army retakes an undefended Malador village held by Red."""
    state = world(["A", "B"], ["A-B"], {"A": hold("Red", TOWN),
                                        "B": hold("Red", VILLAGE, cult=MALADOR)},
                  capitals={"Red": "A"}, armies=[Army("m1", MALADOR, "B", ready=False)])
    assert cq.liberate(state, "B", "m1").ctrl("B") == MALADOR


def test_wok_amb_9_ambush_marauder_attacks_without_grey_dice() -> None:
    """WOK-AMB-9: the Marauder rolls the attacker's 4 red dice; the explorers defend with 2 blue
    plus superiority and no grey dice; when the Marauder dies the explorers win."""
    state = world(["A", "U"], ["A-U"], {"A": hold("Red", TOWN), "U": hold(MALADOR,
                                                                       fort=WALLS)},
                  capitals={"Red": "A"},
                  armies=[Army("r1", "Red", "U", ready=False), Army("r2", "Red", "U",
                                                                  ready=False),
                          Army("m1", MALADOR, "U", ready=False)])
    dice = bt.dice_for_round(1, 2)
    assert (dice.attack, dice.defense, dice.counter) == (4, 3, 5)
    result = bt.fight_round(state, "U", ["m1"], rolls(dice, 1, 1, 3, 0),
                            defenders=["r1", "r2"], fortified=False)
    assert (result.outcome, result.removed) == ("defender_wins", ("m1",))


# --- conquest -----------------------------------------------------------------------------------

def test_wok_conq_1_to_3_capture_keeps_everything_but_the_marker() -> None:
    """WOK-CONQ-1, WOK-CONQ-2, WOK-CONQ-3, WOK-FORT-12, WOK-CONQ-7: a captured walled town keeps
    culture, level and walls; it works for Red at once (AP, gold) and leaves Blue's ledger."""
    state = field(defenders=(), fort=WALLS)
    state = state.with_holding("B", hold("Blue", TOWN, fort=WALLS)).with_road("A", "B")
    before = (eco.gold_generation(state, "Red"), ach.settlement_ap(state, "Blue"))
    after = cq.conquer(state, "B", "Red").state
    holding = after.holding("B")
    assert (holding.controller, holding.culture, holding.level, holding.fort) == (
        "Red", "Blue", TOWN, WALLS)
    assert before == (6, 2)
    assert (eco.gold_generation(after, "Red"), ach.settlement_ap(after, "Blue")) == (12, 0)


def test_wok_conq_5_conq_6_tv_14_raze_loot() -> None:
    """WOK-CONQ-5, WOK-CONQ-6, WOK-TV-14: razing pays 2/1/1/1/0, 5/3/3/3/0 or 9/5/5/6/2 and
    removes any fortification for nothing; no settlement, no raze."""
    assert [cq.raze_loot(level) for level in (VILLAGE, TOWN, CITY)] == [
        Stock(2, 1, 1, 1, 0), Stock(5, 3, 3, 3, 0), Stock(9, 5, 5, 6, 2)]
    state = field(defenders=(), level=CITY, fort=CASTLE)
    done = cq.conquer(state, "B", "Red", raze=True)
    holding = done.state.holding("B")
    assert (holding.controller, holding.level, holding.fort, holding.culture) == (
        "Red", 0, 0, None)
    assert done.state.stock("Red") == Stock(9, 5, 5, 6, 2)
    with pytest.raises(RuleViolation, match="WOK-CONQ-5"):
        cq.conquer(state.with_holding("B", hold("Blue")), "B", "Red", raze=True)


def test_wok_v06_10_city_raze_loot() -> None:
    """WOK-V06-10: the preview's city yields 9/5/5/5/1."""
    assert cq.raze_loot(CITY, v06_options()) == Stock(9, 5, 5, 5, 1)


def test_wok_cap_1_and_cap_2_taking_a_capital_gives_no_second_one() -> None:
    """WOK-CAP-1, WOK-CAP-2: Red takes Blue's capital C; Blue's capital is still C and Blue's
    gold stops; Red's capital is still A."""
    state = world(["A", "B", "C", "D"], ["A-B", "B-C", "C-D"],
                  {"A": hold("Red", TOWN), "B": hold("Red"), "C": hold("Blue", TOWN),
                   "D": hold("Blue", VILLAGE)}, roads=["C-D"],
                  capitals={"Red": "A", "Blue": "C"})
    assert eco.gold_generation(state, "Blue") == 9
    after = cq.conquer(state, "C", "Red").state
    assert (after.capital("Blue"), after.capital("Red")) == ("C", "A")
    assert eco.gold_generation(after, "Blue") == 0


def test_wok_cap_4_empire_needs_the_capital_city() -> None:
    """WOK-CAP-4: a city elsewhere does not make an Empire."""
    state = world(["A", "B", "C", "D"], [],
                  {"A": hold("Red", TOWN), "B": hold("Red", CITY),
                   "C": hold("Red", TOWN, cult="Blue"), "D": hold("Red", VILLAGE, cult="Blue")},
                  capitals={"Red": "A"})
    assert ach.empire_check(state, "Red") == ach.EmpireCheck(False, 2, 3)


def test_wok_board_3_nobody_conquers_the_winter_centre() -> None:
    """WOK-BOARD-3: the centre cannot be controlled."""
    state = world(["A", terr("X", None, None, kind=WINTER_CENTER)], ["A-X"],
                  {"A": hold("Red", TOWN)}, capitals={"Red": "A"}, side=WINTER)
    with pytest.raises(RuleViolation, match="WOK-BOARD-3"):
        cq.conquer(state, "X", "Red")


# --- the Malador ----------------------------------------------------------------------------------

def test_wok_mal_8_raze_or_keep_by_blue_die() -> None:
    """WOK-MAL-8, WOK-MAL-1: a flail razes the town with its walls and nobody gains; a shield
    keeps it; the marker is orange either way."""
    state = world(["A", "B"], ["A-B"], {"A": hold("Red", TOWN),
                                        "B": hold("Red", TOWN, fort=WALLS)},
                  capitals={"Red": "A"}, stock=Stock())
    razed = cq.malador_takes(state, "B", bt.FLAIL)
    assert (razed.razed, razed.state.holding("B")) == (True, hold(MALADOR))
    assert razed.state.stock("Red") == Stock()
    kept = cq.malador_takes(state, "B", bt.SHIELD)
    assert (kept.state.ctrl("B"), kept.state.lvl("B"), kept.state.fort("B")) == (
        MALADOR, TOWN, WALLS)
    with pytest.raises(RuleViolation, match="WOK-MAL-8"):
        cq.conquer(state, "B", MALADOR)


def test_wok_mal_1_to_mal_5_malador_bookkeeping() -> None:
    """WOK-MAL-1, WOK-MAL-3, WOK-MAL-5: Malador cities pay nobody gold, the Malador get no
    gold at Receive Gold and no capital; WOK-MAL-6: no turn in the order."""
    from campaign.systems.war_of_kings.rules import turns

    state = world(["A", "B"], ["A-B"], {"A": hold("Red", TOWN), "B": hold(MALADOR, CITY)},
                  roads=["A-B"], capitals={"Red": "A"}, stock=Stock(), phase="receive_gold",
                  lead="Red")
    paid = eco.receive_gold(state)
    assert (paid.stock("Red").gold, paid.stock(MALADOR).gold) == (6, 0)
    assert MALADOR not in state.capitals
    assert turns.turn_order(state) == ("Red",)


def test_wok_mal_9_and_battle_14_left_hand_player_decides() -> None:
    """WOK-MAL-9, WOK-BATTLE-14: the player to the active player's left runs the Malador."""
    state = world(["A", "B", "C"], [], {}, capitals={"Red": "A", "Blue": "B", "Green": "C"},
                  active="Green", phase=MOVEMENT)
    assert cq.malador_decider(state) == "Red"
    assert cq.malador_decider(replace(state, active="Red")) == "Blue"


def test_wok_mal_12_14_15_placing_marauders() -> None:
    """WOK-MAL-12, WOK-MAL-14, WOK-MAL-15, WOK-MAL-16: placed unready with an orange marker in an
    empty territory, which stays after they leave; never in a player's territory or the winter
    centre (such a card cannot be played there)."""
    state = world(["A", "U", terr("X", None, None, kind=WINTER_CENTER)], ["A-U", "U-X"],
                  {"A": hold("Red", TOWN)}, capitals={"Red": "A"}, side=WINTER)
    placed = cq.place_marauders(state, "U", ["m1"])
    assert (placed.ctrl("U"), placed.army("m1").ready) == (MALADOR, False)
    assert placed.without_army("m1").ctrl("U") == MALADOR
    with pytest.raises(RuleViolation, match="WOK-MAL-15: Marauders are never placed in a "
                                            "territory a player controls"):
        cq.place_marauders(state, "A", ["m2"])
    with pytest.raises(RuleViolation, match="WOK-MAL-15"):
        cq.place_marauders(state, "X", ["m2"])


def test_wok_mal_17_and_amb_21_rebellion() -> None:
    """WOK-MAL-17, WOK-CULT-5, WOK-AMB-21, WOK-V06-19: a Blue town held by Red with no army
    rebels to Blue; under v0.6 to the Malador; not with an army present."""
    state = world(["A", "B", "C"], [], {"A": hold("Red", TOWN),
                                        "B": hold("Red", TOWN, cult="Blue"),
                                        "C": hold("Blue", TOWN)},
                  capitals={"Red": "A", "Blue": "C"})
    assert cq.rebel(state, "B").ctrl("B") == "Blue"
    assert cq.rebel(state, "B", v06_options()).ctrl("B") == MALADOR
    guarded = state.with_army(Army("r1", "Red", "B"))
    with pytest.raises(RuleViolation, match="WOK-MAL-17: an army stands in B"):
        cq.rebel(guarded, "B")
    with pytest.raises(RuleViolation, match="WOK-MAL-17: only a settlement of a foreign"):
        cq.rebel(state, "A")


# --- elimination and forfeiture -------------------------------------------------------------

def test_wok_elim_1_and_amb_19_elimination() -> None:
    """WOK-ELIM-1, WOK-AMB-19: no armies and no settlements eliminates Blue even with empty
    territories; they go to the Malador by default, or become uncontrolled; Blue's Warlord
    card returns."""
    state = world(["A", "B", "C"], [], {"A": hold("Red", TOWN), "B": hold("Blue"),
                                        "C": hold("Blue")},
                  capitals={"Red": "A", "Blue": "B"})
    assert cq.is_eliminated(state, "Blue") is True
    gone = cq.eliminate(state, "Blue")
    assert (gone.ctrl("B"), gone.ctrl("C"), gone.kingdoms) == (MALADOR, MALADOR, ("Red",))
    bare = cq.eliminate(state, "Blue", Options(eliminated_territories="uncontrolled"))
    assert (bare.ctrl("B"), bare.ctrl("C")) == (None, None)
    assert ach.update_holders(gone, ach.Holders(warlord="Blue")).warlord is None
    with pytest.raises(RuleViolation, match="WOK-ELIM-1"):
        cq.eliminate(state.with_army(Army("b1", "Blue", "B")), "Blue")


def test_wok_elim_2_and_amb_20_forfeiture() -> None:
    """WOK-ELIM-2, WOK-AMB-20, WOK-V06-18: at any moment (here mid-Movement) Blue forfeits: its
    territories and armies become the Malador's, cultures unchanged, so Red counts a Blue town
    it holds as foreign; Blue no longer scores."""
    state = world(["A", "B", "C"], [], {"A": hold("Red", CITY), "B": hold("Blue", TOWN),
                                        "C": hold("Red", TOWN, cult="Blue")},
                  capitals={"Red": "A", "Blue": "B"}, armies=[Army("b1", "Blue", "B")],
                  phase=MOVEMENT, active="Red")
    after = cq.forfeit(state, "Blue")
    assert (after.ctrl("B"), after.holding("B").culture) == (MALADOR, "Blue")
    assert (after.army("b1").owner, after.army("b1").culture) == (MALADOR, "Blue")
    assert after.kingdoms == ("Red",)
    assert ach.foreign_settlements(after, "Red") == ("C",)
