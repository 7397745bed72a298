"""Summer D) Reform (MK-REFORM-1..4, MK-AMB-7) and the new player order (MK-PORDER-1/2).

``reform_plan`` works out everything from the month's resolved Move orders and the map, and the
play page shows it before the GM closes the phase; ``close_reform`` writes the same plan, rolls
the tie-breaks, and tells the story in the phase-change event.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from django.db.models import Count

from battles.models import Army
from campaign.chronicle import Recorder
from campaign.models import Tile
from campaign.services import ServiceError
from campaign.systems.mighty_kingdoms import summer_common as common
from campaign.systems.mighty_kingdoms.clock import note
from campaign.systems.mighty_kingdoms.forces import capital_changes_hands, reform_unit_strength
from campaign.systems.mighty_kingdoms.rules import campaign as mk
from campaign.systems.mighty_kingdoms.state import MKState, load_state
from campaign.systems.mighty_kingdoms.summer_common import (
    all_movers,
    kingdom_name,
    kingdom_orders,
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


def reform_plan(state: MKState, kingdom: int | None = None) -> ReformPlan:
    """MK-REFORM-1..4, MK-AMB-7/14/15/38, MK-PORDER-2: what Reform will do now.

    The map is read around what Reform looks at (the tiles armies stand on, the month's moves,
    the settlements waiting to be turned back up), never whole. With ``kingdom``, only what
    Reform does to that kingdom: its tokens slowed, the tiles it gains or loses, its defend
    markers (and every settlement turned back up, and every kingdom's army count), reading only
    its own tokens and orders and the tokens on its tiles."""
    plan = ReformPlan()
    if kingdom is None:
        movers = all_movers(state)
        orders = month_orders(state)
        armies = state.armies
    else:
        state.read_tokens_of([kingdom])
        movers = {m.key: m for m in state.movers_of(kingdom)}
        orders = kingdom_orders(state, kingdom)
        holdings = [t.label for t in state.holdings_map([kingdom]).controlled_by(kingdom)]
        armies = state.tokens_at([a.tile for a in state.armies_of(kingdom)] + holdings)[0]
    moves = []
    for order in orders:
        outcome = order.outcome or {}
        if order.kind != mk.MOVE or not outcome.get("moved"):
            continue
        mover = movers.get(order.token)
        if mover is None or mover.on_side:
            continue  # destroyed, or already lying on its side (e.g. after a lost battle)
        moves.append((order.token, mover, mk.MoveRecord(outcome["origin"], outcome["tile"])))
    razed = list(Tile.objects.filter(map_id=state.map_row.pk, data__has_key="raze_pending")
                 .order_by().values_list("label", flat=True))
    tiles = state.map_around(
        [a.tile for a in armies] + razed
        + [label for _, _, move in moves for label in (move.origin, move.destination)], 0)
    for key, mover, move in moves:
        check = mk.terrain_check(mover.kind, move, tiles)
        if check.on_side:
            plan.slowed.append(Slowed(key, token_title(state, mover), check))
    plan.flip_back = mk.raze_flip_back(tiles)
    plan.ownership = tuple(change for change in mk.reform_ownership(tiles, armies)
                           if kingdom is None or kingdom in (change.old, change.new))
    plan.defenders = [a.id for a in armies if a.defending
                      and (kingdom is None or a.kingdom == kingdom)]
    plan.counts = (mk.army_counts(state.order, state.armies) if kingdom is None
                   else army_counts(state))
    plan.tied = mk.tied_groups(plan.counts)
    return plan


def army_counts(state: MKState) -> dict[int, int]:
    """MK-PORDER-2, MK-AMB-29: armies on the map per kingdom, in player order (one grouped
    query, or from the tokens once read)."""
    if state.tokens_read:
        return mk.army_counts(state.order, state.armies)
    found = dict(Army.objects.filter(campaign=state.campaign, tile__isnull=False).order_by()
                 .values("kingdom_id").annotate(n=Count("id")).values_list("kingdom_id", "n"))
    return {pk: found.get(pk, 0) for pk in state.order}


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


def close_reform(state: MKState, rec: Recorder,
                 dice: Mapping[int, Sequence[int]] | None = None) -> None:
    """Apply Reform in the rules' order, then set the player order (MK-PORDER-1).

    Ties in the army count are broken by ``dice``, the table's rolls typed in by the GM (one or
    more D6 per tied kingdom), or, for a tie without them, by the server's dice; every roll is
    kept with the event, marked "table" or "server"."""
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
    names = {pk: kingdom_name(state, pk) for pk in plan.counts}
    try:
        typed = mk.check_tiebreak_rolls(plan.counts, dice or {}, names, "MK-PORDER-1")
    except mk.RuleViolation as exc:
        raise ServiceError(str(exc)) from exc
    # A tie nobody typed dice for (e.g. one that only a unit lost at this Reform made) is
    # rolled by the server.
    rolls: dict[int, Sequence[int]] = {**typed, **tiebreak_rolls(
        tuple(g for g in plan.tied if not any(k in typed for k in g)), common.RNG)}
    for group in plan.tied:
        for kingdom in group:
            rec.roll(f"player order tie-break: {kingdom_name(state, kingdom)} (MK-PORDER-1)",
                     rolls[kingdom], "table" if kingdom in typed else "server")
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
