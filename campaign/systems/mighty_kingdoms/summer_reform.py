"""Summer D) Reform (MK-REFORM-1..4, MK-AMB-7) and the new player order (MK-PORDER-1/2).

``reform_plan`` works out everything from the month's resolved Move orders and the map, and the
play page shows it before the GM closes the phase; ``close_reform`` writes the same plan, rolls
the tie-breaks, and tells the story in the phase-change event.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from battles.models import Army
from battles.services import capital_changes_hands, reform_unit_strength
from campaign.chronicle import Recorder
from campaign.rules import mighty_kingdoms as mk
from campaign.systems.mighty_kingdoms import summer_common as common
from campaign.systems.mighty_kingdoms.phases import note
from campaign.systems.mighty_kingdoms.state import MKState, load_state
from campaign.systems.mighty_kingdoms.summer_common import (
    all_movers,
    kingdom_name,
    month_orders,
    token_rows,
    token_title,
)


@dataclass
class Slowed:
    """A token the terrain lays on its side (MK-REFORM-1/2)."""

    key: str
    title: str
    check: mk.TerrainCheck


@dataclass
class ReformPlan:
    slowed: list[Slowed] = field(default_factory=list)
    flip_back: tuple[str, ...] = ()
    ownership: tuple[mk.ControlChange, ...] = ()
    defenders: list[int] = field(default_factory=list)
    counts: dict[int, int] = field(default_factory=dict)
    tied: tuple[tuple[int, ...], ...] = ()


def reform_plan(state: MKState) -> ReformPlan:
    """MK-REFORM-1..4, MK-AMB-7/14/15/38, MK-PORDER-2: what Reform will do now."""
    movers = all_movers(state)
    plan = ReformPlan()
    for order in month_orders(state):
        outcome = order.outcome or {}
        if order.kind != mk.MOVE or not outcome.get("moved"):
            continue
        mover = movers.get(order.token)
        if mover is None or mover.on_side:
            continue  # destroyed, or already lying on its side (e.g. after a lost battle)
        check = mk.terrain_check(mover.kind, mk.MoveRecord(outcome["origin"], outcome["tile"]),
                                 state.map)
        if check.on_side:
            plan.slowed.append(Slowed(order.token, token_title(state, mover), check))
    plan.flip_back = mk.raze_flip_back(state.map)
    plan.ownership = mk.reform_ownership(state.map, state.armies)
    plan.defenders = [a.id for a in state.armies if a.defending]
    plan.counts = mk.army_counts(state.order, state.armies)
    plan.tied = mk.tied_groups(plan.counts)
    return plan


def tiebreak_rolls(groups: tuple[tuple[int, ...], ...],
                   rng: random.Random) -> dict[int, list[int]]:
    """MK-PORDER-1: one D6 per tied kingdom; kingdoms still level roll again."""
    rolls: dict[int, list[int]] = {}
    for group in groups:
        for kingdom in group:
            rolls[kingdom] = [rng.randint(1, 6)]
        while True:
            seen: dict[tuple[int, ...], list[int]] = {}
            for kingdom in group:
                seen.setdefault(tuple(rolls[kingdom]), []).append(kingdom)
            level = [k for ks in seen.values() if len(ks) > 1 for k in ks]
            if not level:
                break
            for kingdom in level:
                rolls[kingdom].append(rng.randint(1, 6))
    return rolls


def close_reform(state: MKState, rec: Recorder) -> None:
    """Apply Reform in the rules' order, then set the player order (MK-PORDER-1)."""
    plan = reform_plan(state)
    movers = all_movers(state)
    for slowed in plan.slowed:
        for row in token_rows(state, movers[slowed.key]):
            rec.update(row, on_side=True)
        note(rec, f"{slowed.title} {slowed.check.reason} and lies on its side "
                  f"({slowed.check.rule_id}).")
    for label in plan.flip_back:
        tile = state.tile_rows[label]
        rec.update(tile, data={k: v for k, v in (tile.data or {}).items() if k != "raze_pending"})
        if tile.settlement:
            note(rec, f"The {tile.settlement} on {label} is turned back up (MK-REFORM-3).")
    for change in plan.ownership:
        rec.update(state.tile_rows[change.tile], controller=state.kingdom_rows[change.new])
        note(rec, f"{change.tile} now belongs to {kingdom_name(state, change.new)}: only its "
                  "armies stand there (MK-REFORM-4).")
        for line in capital_changes_hands(rec, state.campaign, state.tile_rows[change.tile].pk,
                                          change.old, change.new):
            note(rec, line)
    if plan.defenders:
        for army_id in plan.defenders:
            row: Army = state.army_rows[army_id]
            rec.update(row, defending=False)
        note(rec, "Defend markers are taken away (MK-AMB-7).")
    # MK-REFORM-5..7: units worn down to -2 are destroyed, and an army with none left goes;
    # the player order then counts the armies that remain.
    if reform_unit_strength(state.campaign, rec):
        plan = reform_plan(load_state(state.campaign))
    rolls = tiebreak_rolls(plan.tied, common.RNG)
    for kingdom, values in rolls.items():
        rec.roll(f"player order tie-break: {kingdom_name(state, kingdom)} (MK-PORDER-1)",
                 values, "server")
    order = mk.player_order(plan.counts, rolls)
    for position, pk in enumerate(order, start=1):
        row_k = state.kingdom_rows[pk]
        if row_k.order_position != position:
            rec.update(row_k, order_position=position)
    listed = ", ".join(f"{kingdom_name(state, k)} ({plan.counts[k]})" for k in order)
    ties = "".join(
        f" {' and '.join(kingdom_name(state, k) for k in group)} tied and rolled "
        f"{' and '.join('-'.join(str(v) for v in rolls[k]) for k in group)}."
        for group in plan.tied
    )
    note(rec, f"New player order by armies (MK-PORDER-1): {listed}.{ties}")
