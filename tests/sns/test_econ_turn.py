"""Swords & Stones compulsory phase: timers, Build Points, upkeep and growth
(SNS-ECON-40..46, SNS-STATE-3, SNS-AMB-33, SNS-AMB-34)."""

from __future__ import annotations

import pytest

from campaign.systems.swords_and_stones.rules import econ_turn as t
from campaign.systems.swords_and_stones.rules.economy import (
    FOOD,
    EconOptions,
    LedgerLine,
    RuleViolation,
    Stockpile,
)

D8_BUILDINGS = {"STOCKPILE": 1, "TAVERN": 1, "TEMPLE": 1, "TOWNCENTER": 1, "COMMUNE": 1}


def test_sns_econ_40_timers_tick_down_and_expire() -> None:
    """SNS-ECON-40: every die timer drops by 1 in the compulsory phase and ends at 0."""
    timers = (t.start_timer("Shunned"), t.start_timer("Firewall", 1))
    running, expired = t.tick_timers(timers)
    assert running == (t.Timer("Shunned", 3),)
    assert expired == (t.Timer("Firewall", 0),)


def test_sns_state_3_printed_timer_starts() -> None:
    """SNS-STATE-3, SNS-AMB-38: the timers a ledger keeps, with their starts (Mine Shaft
    Collapse 4); the Dire Warning flood is computed from the turn."""
    starts = {name: t.start_timer(name).remaining for name in (
        "Firewall", "Of Earth and Stone", "Dagobah", "Call of the Cold", "Shunned",
        "Karma Count", "Plague", "Public Executions", "Refugees", "Red Wyvern",
        "Human rights abuses", "Mine Shaft Collapse", "Saboteurs gate", "Reforestation",
        "Unconscious King", "Monument victory")}
    assert starts == {
        "Firewall": 3, "Of Earth and Stone": 4, "Dagobah": 5, "Call of the Cold": 4,
        "Shunned": 4, "Karma Count": 6, "Plague": 5, "Public Executions": 4, "Refugees": 6,
        "Red Wyvern": 4, "Human rights abuses": 6, "Mine Shaft Collapse": 4,
        "Saboteurs gate": 4, "Reforestation": 10, "Unconscious King": 3,
        "Monument victory": 25}
    assert t.flood_timer(20) == 20
    assert t.flood_timer(60) == 8
    with pytest.raises(ValueError, match="SNS-STATE-3"):
        t.start_timer("Snowball")


def test_sns_econ_41_build_points_and_treadmill_crane() -> None:
    """SNS-ECON-41, SNS-UPG-TREADMILL: each worker removes 1 BP, complete at 0; with the
    Treadmill Crane at 1, except Farms and buildings outside the own map section."""
    barracks = t.Foundation("BARRACKS", 4, 4)
    assert t.work_foundation(barracks, 3).bp_remaining == 1
    assert not t.work_foundation(barracks, 3).complete
    assert t.work_foundation(barracks, 3, treadmill_crane=True).complete
    assert t.work_foundation(barracks, 6).bp_remaining == 0
    farm = t.Foundation("FARM", 2, 2)
    assert not t.work_foundation(farm, 1, treadmill_crane=True).complete
    far = t.Foundation("TAVERN", 3, 3, in_own_section=False)
    assert not t.work_foundation(far, 2, treadmill_crane=True).complete


def test_sns_econ_42_43_44_worked_example_d8_upkeep_and_growth() -> None:
    """SNS-ECON-42..44, worked example D.8: Tavern, Temple, Town Center working, Arena unstaffed,
    1 Commune, 1 food: upkeep 2, pay 1 (food 0), 1 short, growth 4 - 1 = 3."""
    assert t.upkeep_due(D8_BUILDINGS) == 2
    result = t.compulsory_phase(Stockpile(food=1), D8_BUILDINGS)
    assert result.upkeep == t.Upkeep(2, (LedgerLine(FOOD, -1, "SNS-ECON-42",
                                                    "upkeep (compulsory phase)"),), 1)
    assert result.growth.rate == 3
    assert [(g.amount, g.rule_id) for g in result.growth.lines] == [
        (1, "SNS-ECON-44"), (1, "SNS-ECON-44"), (1, "SNS-ECON-44"), (1, "SNS-ECON-44"),
        (-1, "SNS-ECON-43")]


def test_sns_econ_42_communes_never_make_upkeep_negative() -> None:
    """SNS-ECON-42: Communes lower upkeep to 0, not below; non-operational buildings cost
    nothing; an Arena costs and grows like the others."""
    assert t.upkeep_due({"TAVERN": 1, "COMMUNE": 3}) == 0
    assert t.upkeep_due({"ARENA": 1, "TEMPLE": 2}) == 3
    assert t.upkeep_due({}) == 0


def test_sns_econ_43_a_non_operational_stockpile_pays_no_upkeep() -> None:
    """SNS-ECON-43 with SNS-ECON-4: a Stockpile that cannot spend leaves the whole upkeep short."""
    result = t.pay_upkeep(Stockpile(food=9, operational=False), 2)
    assert (result.lines, result.shortfall) == ((), 2)


def test_sns_amb_33_upkeep_at_either_phase_boundary() -> None:
    """SNS-AMB-33: upkeep charged at the end of the compulsory phase by default, or at the start
    of the advance phase; the same food and growth."""
    late = t.pay_upkeep(Stockpile(food=5), 2, EconOptions(upkeep_when="advance"))
    early = t.pay_upkeep(Stockpile(food=5), 2)
    assert late.lines[0].amount == early.lines[0].amount == -2
    assert late.lines[0].reason == "upkeep (start of the advance phase)"
    assert early.lines[0].reason == "upkeep (compulsory phase)"


def test_sns_econ_44_growth_modifiers() -> None:
    """SNS-ECON-44: Festag, Mass Funeral Service, Taxation and Crime and Punishment, a wounded
    Caster (SNS-CBT-12); a Revolt fixes growth at 1; Kingdom of Bone ignores it."""
    base = {"STOCKPILE": 1, "TAVERN": 1}
    mods = (t.FESTAG, t.MASS_FUNERAL, *t.upgrade_growth_penalties(("TAXATION", "CRIMEPUNISH")))
    assert t.growth_rate(base, modifiers=mods).rate == 2
    assert t.growth_rate(base, modifiers=(t.WOUNDED_HERO,)).rate == 0
    assert t.growth_rate(base, fixed=1, fixed_by="Revolt").rate == 1
    assert t.growth_rate(base, ignored=True).rate is None
    assert t.growth_rate({"TEMPLE": 1}).rate == 1


def test_sns_amb_34_growth_never_below_zero() -> None:
    """SNS-AMB-34: penalties stop at 0."""
    assert t.growth_rate({"STOCKPILE": 1}, shortfall=3, besieged=True).rate == 0


def test_sns_econ_45_units_cost_no_upkeep() -> None:
    """SNS-ECON-45: only buildings cost upkeep; an army of units changes nothing."""
    assert t.upkeep_due({"STOCKPILE": 1, "BARRACKS": 2, "STABLE": 1}) == 0


def test_sns_econ_46_besieged_loses_one_growth() -> None:
    """SNS-ECON-46: a besieged kingdom has -1 growth (its trade limits: econ_advance)."""
    growth = t.growth_rate({"STOCKPILE": 1, "TAVERN": 1}, besieged=True)
    assert growth.rate == 1
    assert growth.lines[-1] == t.GrowthLine(-1, "SNS-ECON-46", "besieged")


def test_sns_econ_51_training_capped_by_growth() -> None:
    """SNS-ECON-51: no more units trained in a turn than the growth rate."""
    growth = t.growth_rate({"STOCKPILE": 1, "TAVERN": 1})
    t.check_training_allowed(growth, 1, 1)
    with pytest.raises(RuleViolation, match="SNS-ECON-51"):
        t.check_training_allowed(growth, 1, 2)
    t.check_training_allowed(t.growth_rate({}, ignored=True), 50, 50)


def test_compulsory_phase_runs_all_four_steps() -> None:
    """SNS-ECON-40..44: timers, foundations, upkeep and growth in one call."""
    result = t.compulsory_phase(
        Stockpile(food=5), {"STOCKPILE": 1, "TEMPLE": 1},
        timers=(t.start_timer("Plague"), t.Timer("Derp", 1)),
        foundations=((t.Foundation("MILL", 3, 3), 3), (t.Foundation("FARM", 2, 2), 1)),
        modifiers=(t.GrowthLine(-1, "SNS-EVT-2", "Plague"),),
    )
    assert result.timers == (t.Timer("Plague", 4),)
    assert [x.name for x in result.expired] == ["Derp"]
    assert result.completed == ("MILL",)
    assert result.foundations == (t.Foundation("FARM", 1, 2),)
    assert result.upkeep.shortfall == 0 and result.upkeep.lines[0].amount == -1
    assert result.growth.rate == 1
