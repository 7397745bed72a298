"""Swords & Stones event tables: results, sub-rolls, choices and their ledger effects
(SNS-EVT-1..5, SNS-ECON-13/30/31, SNS-FAC-4/7/9, SNS-AMB-31b/32/38/40/42)."""

from __future__ import annotations

import pytest

from campaign.systems.swords_and_stones.rules import events as ev
from campaign.systems.swords_and_stones.rules.econ_turn import GrowthLine, Timer
from campaign.systems.swords_and_stones.rules.economy import (
    AVALONIAN,
    DAMNED,
    FAVOR,
    FOOD,
    GOLD,
    IRON,
    PAGANITE,
    STONE,
    WOOD,
    LedgerLine,
    RuleViolation,
    Stockpile,
    net,
)

LATE = 30


def _amounts(outcome: ev.EventOutcome) -> dict[str, int]:
    assert not outcome.pending, outcome.pending
    return {r: n for r, n in net(outcome.lines).items() if n}


def ctx(**kwargs: object) -> ev.EventContext:
    return ev.EventContext(**kwargs)  # type: ignore[arg-type]


def test_sns_evt_1_one_table_per_activity() -> None:
    """SNS-EVT-1: Forest, Outcrop, Farm, Fishing, Favor and Kingdom tables, each covering 3 to 18
    without a gap."""
    assert set(ev.EVENT_TABLES) == {"forest", "outcrop", "farm", "fishing", "favor", "kingdom"}
    for entries in ev.EVENT_TABLES.values():
        covered = [n for e in entries for n in range(e.low, e.high + 1)]
        assert covered == list(range(3, 19))


def test_sns_evt_2_rolls_are_3d6_and_sub_rolls_are_checked() -> None:
    """SNS-EVT-2: 3 to 18 only; sub-rolls are d6; extra sub-rolls or choices are refused."""
    with pytest.raises(RuleViolation, match="SNS-EVT-2"):
        ev.resolve_event("forest", 2, turn=LATE)
    with pytest.raises(ValueError):
        ev.resolve_event("outcrop", 15, turn=LATE, sub_rolls=(7, 1))
    with pytest.raises(RuleViolation, match="SNS-EVT-2"):
        ev.resolve_event("outcrop", 14, turn=LATE, sub_rolls=(3,))
    with pytest.raises(RuleViolation, match="SNS-EVT-2"):
        ev.resolve_event("outcrop", 13, turn=LATE, choices=("melt",))


def test_sns_econ_13_before_turn_10_every_event_is_idle() -> None:
    """SNS-ECON-13, SNS-EVT-3: before turn 10 no table is rolled: Idle Villagers."""
    early = ev.resolve_event("kingdom", 10, turn=9)
    assert (early.name, early.lines, early.pending) == ("Idle Villagers", (), "")
    assert ev.resolve_event("kingdom", 10, turn=10).pending == "2 d6 (building, then damage)"


def test_sns_evt_3_kingdom_events_from_farms_wait_until_turn_25() -> None:
    """SNS-EVT-3: a Kingdom Event on the Farm or Fishing table is re-rolled before turn 25, then
    sends the player to the Kingdom table; "re-roll if Damned" results are re-rolled."""
    assert ev.resolve_event("farm", 4, turn=24).reroll
    assert ev.resolve_event("fishing", 6, turn=25).chain == "kingdom"
    assert ev.resolve_event("farm", 7, turn=LATE, context=ctx(faction=DAMNED)).reroll
    assert not ev.resolve_event("farm", 7, turn=LATE).reroll


def test_sns_amb_42_sickness_costs_growth_by_table() -> None:
    """SNS-AMB-42: Farm Sickness -1 growth, Fishing Sickness -2, each with 1 unit lost."""
    farm = ev.resolve_event("farm", 8, turn=LATE)
    fishing = ev.resolve_event("fishing", 8, turn=LATE)
    assert [g.amount for g in farm.growth] == [-1] and farm.units_lost == 1
    assert [g.amount for g in fishing.growth] == [-2] and fishing.units_lost == 1


def test_forest_results_with_fixed_effects() -> None:
    """SNS-EVT-2 (Forest table): Strange Disappearance loses a unit, Resource Scarcity adds a
    point, High Quality Timber Patch 3 wood, Mystery Crate a card."""
    assert ev.resolve_event("forest", 3, turn=LATE).units_lost == 1
    assert ev.resolve_event("forest", 10, turn=LATE).scarcity == 1
    assert _amounts(ev.resolve_event("forest", 13, turn=LATE)) == {WOOD: 3}
    assert ev.resolve_event("forest", 16, turn=LATE).cards == ("Mystery Crate",)


def test_sns_amb_40_bandits_keep_their_own_tables() -> None:
    """SNS-AMB-40: Forest Bandits: 3 Farms or fewer give 1 food; else pay half the food or refuse
    and roll (5-6 1 gold 1 iron; 1-2 with 0-1 gold +1 gold, else lose half the gold). Outcrop
    Bandits: 3 food or fewer give 1 food; refusing on 1-2 gives 3 gold with 2 gold or less."""
    assert _amounts(ev.resolve_event("forest", 14, turn=LATE, context=ctx(farms=3))) == {FOOD: 1}
    rich = ctx(farms=5, stockpile=Stockpile(food=9, gold=7))
    assert _amounts(ev.resolve_event("forest", 14, turn=LATE, context=rich,
                                     choices=("pay",))) == {FOOD: -4}
    assert _amounts(ev.resolve_event("forest", 14, turn=LATE, context=rich, choices=("refuse",),
                                     sub_rolls=(6,))) == {GOLD: 1, IRON: 1}
    assert _amounts(ev.resolve_event("forest", 14, turn=LATE, context=rich, choices=("refuse",),
                                     sub_rolls=(2,))) == {GOLD: -3}
    pending = ev.resolve_event("forest", 14, turn=LATE, context=rich)
    assert pending.pending == "choice: pay / refuse" and pending.lines == ()
    poor_gold = ctx(stockpile=Stockpile(food=8, gold=2))
    assert _amounts(ev.resolve_event("outcrop", 9, turn=LATE, context=poor_gold,
                                     choices=("refuse",), sub_rolls=(1,))) == {GOLD: 3}
    assert _amounts(ev.resolve_event("outcrop", 9, turn=LATE,
                                     context=ctx(stockpile=Stockpile(food=3)))) == {FOOD: 1}


def test_sns_fac_7_damned_bandits_become_a_zombie_and_caverns_a_fantasm() -> None:
    """SNS-FAC-7: for the Damned, Bandits become a Zombie; a Deep Underground Cavern also raises
    a Fantasm."""
    bandits = ev.resolve_event("outcrop", 9, turn=LATE, context=ctx(faction=DAMNED))
    assert bandits.units_gained == (("ZOMBIE", 1),) and bandits.lines == ()
    cavern = ev.resolve_event("outcrop", 18, turn=LATE, context=ctx(faction=DAMNED),
                              sub_rolls=(4, 4))
    assert cavern.name == "Deep Underground Cavern: Underground Kingdom"
    assert cavern.units_gained == (("FANTASM", 1),)


def test_sns_amb_32_detailed_tables_win_unless_the_summary_is_chosen() -> None:
    """SNS-AMB-32, SNS-EVT-5: Gemstone Patch 6 gold (summary 5), Giant Amorphous Object 5 iron
    (summary 6), Fishing Minor Food Spoilage 2 food (summary 1)."""
    summary = ev.EventOptions(prefer_summary=True)
    assert _amounts(ev.resolve_event("outcrop", 14, turn=LATE)) == {GOLD: 6}
    assert _amounts(ev.resolve_event("outcrop", 14, turn=LATE, options=summary)) == {GOLD: 5}
    assert _amounts(ev.resolve_event("outcrop", 13, turn=LATE, choices=("keep",))) == {IRON: 5}
    assert _amounts(ev.resolve_event("outcrop", 13, turn=LATE, choices=("keep",),
                                     options=summary)) == {IRON: 6}
    stock = ctx(stockpile=Stockpile(food=5))
    assert _amounts(ev.resolve_event("fishing", 11, turn=LATE, context=stock)) == {FOOD: -2}
    assert _amounts(ev.resolve_event("fishing", 11, turn=LATE, context=stock,
                                     options=summary)) == {FOOD: -1}


def test_outcrop_dice_results_and_re_rolled_ones() -> None:
    """SNS-EVT-2: Chest Unearthed 2d6 gold; the summary re-rolls 1s, so a 1 must not be
    entered; selling the Giant Amorphous Object is d6 gold."""
    assert _amounts(ev.resolve_event("outcrop", 15, turn=LATE, sub_rolls=(1, 5))) == {GOLD: 6}
    with pytest.raises(RuleViolation, match="re-rolls 1s"):
        ev.resolve_event("outcrop", 15, turn=LATE, sub_rolls=(1, 5),
                         options=ev.EventOptions(prefer_summary=True))
    assert _amounts(ev.resolve_event("outcrop", 13, turn=LATE, choices=("sell",),
                                     sub_rolls=(4,))) == {GOLD: 4}
    assert ev.resolve_event("outcrop", 15, turn=LATE, sub_rolls=(5,)).pending == "2d6"


def test_sns_amb_38_mine_shaft_collapse_timer() -> None:
    """SNS-AMB-38: Mine Shaft Collapse fails the Site's dice and starts a timer of 4 (3 in the
    glossary's reading)."""
    collapse = ev.resolve_event("outcrop", 6, turn=LATE)
    assert collapse.all_dice_fail and collapse.timers == (Timer("Mine Shaft Collapse", 4,
                                                                subject="Mine Shaft Collapse"),)
    short = ev.resolve_event("outcrop", 6, turn=LATE,
                             options=ev.EventOptions(mine_shaft_timer=3))
    assert short.timers[0].remaining == 3


def test_heart_of_the_mountain_by_level_and_scarcity() -> None:
    """SNS-EVT-2 (Outcrop 17, Heart of the Mountain): the gem's dice by level and scarcity; a
    value above 6 is carried home as a Relic token."""
    assert ev.heart_of_the_mountain_dice(3, 1) == (1, False)
    assert ev.heart_of_the_mountain_dice(4, 4) == (3, True)
    assert ev.heart_of_the_mountain_dice(6, 1) is None
    assert ev.heart_of_the_mountain_dice(6, 5) == (4, False)
    small = ev.resolve_event("outcrop", 17, turn=LATE, sub_rolls=(5, 4),
                             context=ctx(site_level=3, site_scarcity=1))
    assert small.name == "Precious Discovery: Heart of the Mountain" and _amounts(small) == {
        GOLD: 4}
    big = ev.resolve_event("outcrop", 17, turn=LATE, sub_rolls=(6, 4, 5),
                           context=ctx(site_level=4, site_scarcity=3))
    assert big.lines == () and big.cards == ("Relic token worth 9 gold",)


def test_sns_amb_31b_strange_discovery_gm_pick_or_suggestion() -> None:
    """SNS-AMB-31b: a d6 of 1-2 is a Forest Village; 3-6 has no printed result, so the GM names
    it, unless the group uses the suggested split (3-4 Coven, 5 old man, 6 woman)."""
    village = ev.resolve_event("forest", 15, turn=LATE, sub_rolls=(2, 5))
    assert village.name == "Strange Discovery: Forest Village: Brotherhood pact"
    assert village.units_gained == (("KNIGHTS", 2),)
    asked = ev.resolve_event("forest", 15, turn=LATE, sub_rolls=(4,))
    assert asked.pending.startswith("gm:")
    picked = ev.resolve_event("forest", 15, turn=LATE, sub_rolls=(4, 4, 4), sub_pick=2)
    assert picked.name == "Strange Discovery: Strange old man: Sinterklaas"
    assert _amounts(picked) == {GOLD: 6}
    suggested = ev.resolve_event("forest", 15, turn=LATE, sub_rolls=(5, 5, 5),
                                 options=ev.EventOptions(suggested_strange_discovery=True))
    assert _amounts(suggested) == {GOLD: 7}


def test_forest_sub_tables_choices_and_nested_rolls() -> None:
    """SNS-EVT-2: Amicable Forest Protectors accepted give 12 wood and 2 scarcity; the Strange
    woman's Kindness d6 favor (1s re-rolled) and +3 growth; the Lady of the Lake's gift is 15
    gold with a Queen; an optional Forest Village may be declined."""
    accept = ev.resolve_event("forest", 15, turn=LATE, sub_rolls=(1, 3), choices=("accept",))
    assert _amounts(accept) == {WOOD: 12} and accept.scarcity == 2
    kind = ev.resolve_event("forest", 15, turn=LATE, sub_rolls=(6, 4, 5), sub_pick=3)
    assert _amounts(kind) == {FAVOR: 5}
    assert kind.growth == (GrowthLine(3, "SNS-EVT-2",
                                      "Strange Discovery: Strange woman: Kindness (this turn)"),)
    lady = ev.resolve_event("forest", 15, turn=LATE, sub_rolls=(6, 6, 4), sub_pick=3,
                            context=ctx(queen=True))
    assert _amounts(lady) == {GOLD: 15} and lady.cards == ("Swords of the Lady",)
    declined = ev.resolve_event("forest", 15, turn=LATE, sub_rolls=(1,), choices=("decline",))
    assert "declined" in declined.name and declined.lines == ()


def test_lair_on_2d6() -> None:
    """SNS-EVT-2 (Forest 17, Lair): a 2d6 sub-table; Forest Kernel gives d6 wood (1s
    re-rolled); the Trapped Great Eagle is 5 food or an ally."""
    kernel = ev.resolve_event("forest", 17, turn=LATE, sub_rolls=(5, 5, 3))
    assert kernel.name == "Lair: Forest Kernel" and _amounts(kernel) == {WOOD: 3}
    eagle = ev.resolve_event("forest", 17, turn=LATE, sub_rolls=(3, 4), choices=("feast",))
    assert _amounts(eagle) == {FOOD: 5}


def test_farm_results_feed_the_farm_harvest() -> None:
    """SNS-EVT-2 (Farm table), worked example D.8: Rain and Insect Plague tell the Farm harvest
    what the event die became; Dragon Passover 5 favor."""
    assert ev.resolve_event("farm", 14, turn=LATE).farm_outcome == "rain"
    assert ev.resolve_event("farm", 13, turn=LATE).farm_outcome == "insect_plague"
    assert ev.resolve_event("farm", 10, turn=LATE).farm_outcome == "fail"
    assert _amounts(ev.resolve_event("farm", 18, turn=LATE)) == {FAVOR: 5}
    assert ev.resolve_event("farm", 15, turn=LATE, context=ctx(ice_lands=True)).reroll


def test_spoilage_guards_save_food() -> None:
    """SNS-UPG-SALTSAFE, SNS-UPG-SMOKEHOUSE: each saves 1 food on a spoilage event; losses never
    exceed the Stockpile."""
    stock = Stockpile(food=3)
    assert _amounts(ev.resolve_event("farm", 9, turn=LATE, sub_rolls=(5,),
                                     context=ctx(stockpile=stock))) == {FOOD: -3}
    guarded = ctx(stockpile=Stockpile(food=9), spoilage_guards=2)
    assert _amounts(ev.resolve_event("farm", 9, turn=LATE, sub_rolls=(5,),
                                     context=guarded)) == {FOOD: -3}
    assert ev.resolve_event("farm", 11, turn=LATE, context=guarded).lines == ()


def test_upgrades_rituals_and_spells_turn_results_idle() -> None:
    """SNS-UPG-HERESY, SNS-UPG-GONGFARMING, SNS-BLD-BATHHOUSE, SNS-UPG-CROPROTATION,
    SNS-UPG-STEAMHARVESTER, SNS-UPG-REGENFORESTRY, SNS-UPG-WORMSPRAY, SNS-UPG-CRIMEPUNISH,
    SNS-FAC-4 (Piya, Amanti, Talos): the results they change."""
    def run(table: str, roll: int, *protections: str, **kw: object) -> ev.EventOutcome:
        return ev.resolve_event(table, roll, turn=LATE,
                                context=ctx(protections=frozenset(protections), **kw))
    assert run("forest", 3, "HERESY").name == "Strange Disappearance (turned to Idle Villagers)"
    assert run("farm", 7, "GONGFARMING").units_lost == 0
    both = run("farm", 7, "GONGFARMING", "BATHHOUSE")
    assert both.units_gained == (("VILLAGER", 1),)
    assert run("farm", 12, "CROPROTATION").farm_outcome == "success"
    assert run("farm", 13, "STEAMHARVESTER").farm_outcome == "success"
    assert run("forest", 10, "REGENFORESTRY").scarcity == 0
    assert run("outcrop", 10, "unlimited").scarcity == 0
    assert run("farm", 6, "WORMSPRAY").hostiles == ()
    assert run("farm", 10, "CRIMEPUNISH", town_center_operational=True).farm_outcome == "success"
    assert run("farm", 10, "CRIMEPUNISH").farm_outcome == "fail"
    assert run("farm", 13, "Piya").farm_outcome == "fail"
    assert run("forest", 9, "Amanti").units_lost == 0
    assert run("kingdom", 13, "Talos").growth == ()
    assert run("forest", 9, "Prayer of Gian").units_lost == 0


def test_sns_fac_9_kingdom_of_bone_rerolls_its_list() -> None:
    """SNS-FAC-9: a Kingdom of Bone re-rolls Sickness, Revolt, Crime Spree, Karma Count, Wish and
    Shunned (its faction still Damned)."""
    bone = ctx(faction=DAMNED, kingdom_of_bone=True)
    for table, roll in (("favor", 18), ("favor", 5), ("kingdom", 11), ("favor", 10)):
        assert ev.resolve_event(table, roll, turn=LATE, context=bone).reroll


def test_fishing_results() -> None:
    """SNS-EVT-2 (Fishing): Big Lunker School 3 food; Leviathan finished 10 food or pushed back
    (2-3: 5 favor); Kraken is a hostile."""
    assert _amounts(ev.resolve_event("fishing", 12, turn=LATE)) == {FOOD: 3}
    assert _amounts(ev.resolve_event("fishing", 15, turn=LATE, choices=("finish",))) == {
        FOOD: 10}
    pushed = ev.resolve_event("fishing", 15, turn=LATE, choices=("push back",), sub_rolls=(3,))
    assert _amounts(pushed) == {FAVOR: 5}
    assert ev.resolve_event("fishing", 4, turn=LATE).hostiles == (
        "Kraken (3 HP); its killer gains 6 food",)


def test_kingdom_results_with_growth_and_timers() -> None:
    """SNS-EVT-2 (Kingdom): Assassin (King out on 1-4 ungarrisoned, else +1 growth), Revolt fixes
    growth at 1, Plague -1 growth for 4 turns less reliefs (timer 5), Refugees admitted: 3
    Villagers and +2 growth (timer 6), robbed: -1 growth and d6-2 food and gold (d6 with Spies,
    SNS-UPG-SPIES)."""
    out = ev.resolve_event("kingdom", 6, turn=LATE, sub_rolls=(3,))
    assert out.timers == (Timer("Unconscious King", 3, subject="Assassin!"),)
    caught = ev.resolve_event("kingdom", 6, turn=LATE, sub_rolls=(3,),
                              context=ctx(king_garrisoned=True))
    assert [g.amount for g in caught.growth] == [1]
    assert ev.resolve_event("kingdom", 8, turn=LATE, sub_rolls=(4,)).growth_set == 1
    plague = ev.resolve_event("kingdom", 13, turn=LATE, context=ctx(relief_turns=1))
    assert plague.timers[0].remaining == 4 and plague.growth[0].amount == -1
    admit = ev.resolve_event("kingdom", 15, turn=LATE, choices=("admit",))
    assert admit.units_gained == (("VILLAGER", 3),)
    assert admit.timers == (Timer("Refugees", 6, subject="Refugees"),)
    rob = ev.resolve_event("kingdom", 15, turn=LATE, choices=("rob",), sub_rolls=(5, 2))
    assert _amounts(rob) == {FOOD: 3} and rob.growth[0].amount == -1
    spies = ev.resolve_event("kingdom", 15, turn=LATE, choices=("rob",), sub_rolls=(5, 2),
                             context=ctx(protections=frozenset({"SPIES"})))
    assert _amounts(spies) == {FOOD: 5, GOLD: 2}


def test_kingdom_results_that_cost_resources() -> None:
    """SNS-EVT-2 (Kingdom): Corruption loses d6 of each resource but favor, then a choice; Crime
    Spree takes d6 gold and d6 wood, the shortfall from food; paying it off needs Town Watch
    (SNS-UPG-TOWNWATCH); Carnival admitted pays 1 gold per Villager, Monk, Archer."""
    stock = Stockpile(food=9, wood=9, stone=9, iron=9, gold=9, favor=9)
    corrupt = ev.resolve_event("kingdom", 12, turn=LATE, context=ctx(stockpile=stock),
                               sub_rolls=(1, 2, 3, 4, 5), choices=("villager",))
    assert _amounts(corrupt) == {FOOD: -1, WOOD: -2, STONE: -3, IRON: -4, GOLD: -5}
    assert corrupt.units_gained == (("VILLAGER", 1),)
    spree = ev.resolve_event("kingdom", 11, turn=LATE,
                             context=ctx(stockpile=Stockpile(food=9, wood=1, gold=2)),
                             choices=("lose",), sub_rolls=(4, 3))
    assert _amounts(spree) == {GOLD: -2, WOOD: -1, FOOD: -4}
    with pytest.raises(RuleViolation, match="SNS-UPG-TOWNWATCH"):
        ev.resolve_event("kingdom", 11, turn=LATE, context=ctx(stockpile=stock),
                         choices=("pay",))
    carnival = ev.resolve_event("kingdom", 16, turn=LATE, choices=("admit",), sub_rolls=(4,),
                                context=ctx(villagers_monks_archers=6))
    assert _amounts(carnival) == {GOLD: 6}
    assert ev.resolve_event("kingdom", 16, turn=LATE, context=ctx(enemies_near=True)).reroll


def test_favor_results() -> None:
    """SNS-EVT-2 (Favor): Shunned starts a timer of 4 (Flagellation Parades turn it into 1 favor,
    SNS-UPG-FLAGELLATION); Wish 10 favor and a card; Spiritual Sabotage fails the dice."""
    shunned = ev.resolve_event("favor", 5, turn=LATE)
    assert shunned.timers[0] == Timer("Shunned", 4, subject="Shunned!")
    flag = ev.resolve_event("favor", 5, turn=LATE,
                            context=ctx(protections=frozenset({"FLAGELLATION"})))
    assert _amounts(flag) == {FAVOR: 1}
    wish = ev.resolve_event("favor", 18, turn=LATE)
    assert _amounts(wish) == {FAVOR: 10} and wish.cards == ("Wish",)
    assert ev.resolve_event("favor", 9, turn=LATE).all_dice_fail


def test_sns_evt_4_divine_intervention_card_and_avalonian_protection() -> None:
    """SNS-EVT-4, SNS-ECON-31: Divine Intervention gives its card (or a gamble); an Avalonian may
    once a game turn a just-determined event into Idle Villagers."""
    card = ev.resolve_event("kingdom", 18, turn=LATE, choices=("card",))
    assert card.cards == ("Divine Intervention",)
    gamble = ev.resolve_event("kingdom", 18, turn=LATE, choices=("gamble",), sub_rolls=(1,))
    assert gamble.hostiles == ("a female Dragon",)
    bad = ev.resolve_event("fishing", 9, turn=LATE, sub_rolls=(4,),
                           context=ctx(stockpile=Stockpile(food=6)))
    saved = ev.avalonian_protection(bad, AVALONIAN, used=False)
    assert saved.lines == () and saved.notes == ("by Ehyehs protection",)
    with pytest.raises(RuleViolation, match="SNS-ECON-31"):
        ev.avalonian_protection(bad, AVALONIAN, used=True)
    with pytest.raises(RuleViolation, match="SNS-ECON-31"):
        ev.avalonian_protection(bad, PAGANITE, used=False)


def test_sns_econ_30_several_events_resolved_one_by_one() -> None:
    """SNS-ECON-30: the lines of several resolved events, in order; an unresolved one blocks."""
    first = ev.resolve_event("forest", 13, turn=LATE)
    second = ev.resolve_event("fishing", 12, turn=LATE)
    assert ev.event_lines((first, second)) == (
        LedgerLine(WOOD, 3, "SNS-EVT-2", "High Quality Timber Patch"),
        LedgerLine(FOOD, 3, "SNS-EVT-2", "Big Lunker School"))
    with pytest.raises(RuleViolation, match="SNS-ECON-30"):
        ev.event_lines((first, ev.resolve_event("outcrop", 15, turn=LATE)))


def test_sns_evt_5_summary_values_are_data() -> None:
    """SNS-EVT-5: the summary's different numbers are kept as data for the option."""
    assert set(ev.SUMMARY_VALUES) == {("outcrop", "Gemstone Patch"),
                                      ("outcrop", "Chest Unearthed"),
                                      ("fishing", "Minor Food Spoilage")}
    assert set(ev.SUMMARY_CHOICES) == {("outcrop", "Giant Amorphous Object")}
