"""A kingdom's Stockpile during a campaign game: the start the campaign brings (SNS-ECON-10),
opened when turn 1 begins and put away when the result is recorded, with the figures the
post-game report needs (SNS-STAT-18). The lowest of the game-at-the-table services: the
campaign's services call it, the table's actions (``table``) build on it.

The Stockpile is the kingdom's ledger balances of the six resources, booked under the game's
number (the campaign's ``year`` while the game is open)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from campaign.chronicle import Recorder
from campaign.locking import lock_campaign, lock_kingdoms
from campaign.models import Campaign, Kingdom
from campaign.systems.swords_and_stones.models import Game, Participant, Spend
from campaign.systems.swords_and_stones.rules import economy as eco
from campaign.systems.swords_and_stones.rules import grand_campaign as gc
from campaign.systems.swords_and_stones.rules import holdings as hold
from campaign.systems.swords_and_stones.rules import points as pts
from campaign.systems.swords_and_stones.state import (
    PointsLine,
    SnsError,
    SnsState,
    pid,
    rules_check,
)
from ledger.models import LedgerEntry
from ledger.services import balances, post

RESOURCES = eco.RESOURCES


def line_of(line: eco.LedgerLine, prefix: str = "") -> PointsLine:
    """An economy line as a ledger line (its reason, after ``prefix``, is the entry's
    source)."""
    return PointsLine(line.resource, line.amount, line.rule_id, prefix + line.reason)


def start_declaration(st: SnsState, part: Participant) -> gc.StartDeclaration | None:
    if not part.declared_title and part.declared_crate is None:
        return None
    player = st.state.player(pid(part.kingdom))
    return gc.declare_start_bonus(
        player, part.declared_title or None,
        part.declared_crate.name if part.declared_crate is not None else None, st.options)


def starting_stockpile(st: SnsState, part: Participant,
                       spends: Sequence[str]) -> pts.StartingStockpile:
    """SNS-SUP-1..4, SNS-KING-2, D.4: the start a campaign brings to this game."""
    supply = gc.supply_from_territories(
        st.map, pid(part.kingdom), [(t, o) for t, o in part.supply], st.options)
    start = [c for c in spends if pts.SPEND_BY_CODE[c].timing == pts.START]
    return pts.starting_stockpile(supply, start, start_declaration(st, part),
                                  part.title_variant or None)


def stockpile_of(kingdom: Kingdom, state: Mapping[str, Any]) -> eco.Stockpile:
    """The kingdom's Stockpile: its ledger balances of the six resources (SNS-ECON-2)."""
    return eco.Stockpile(**stock_balances([kingdom])[kingdom.pk],
                         operational=bool(state.get("operational", True)))


def stock_balances(kingdoms: Sequence[Kingdom]) -> dict[int, dict[str, int]]:
    """The six resources of each kingdom's Stockpile (the ledger also keeps its points)."""
    found = balances(kingdoms, RESOURCES)
    return {pk: {r: have.get(r, 0) for r in RESOURCES} for pk, have in found.items()}


def open_tables(rec: Recorder, st: SnsState, game: Game) -> None:
    """SNS-ECON-5, SNS-ECON-10, SNS-VP-FRONTLINE: every kingdom of the game opens its Stockpile
    with the start its campaign brings, line by line, at turn 1 (turn 0 with Front line
    Advantage)."""
    # Only the participants' rows are locked ("self"): PostgreSQL cannot lock the nullable side
    # of the outer joins that bring the King and the declared crate item.
    parts = list(game.participants.select_for_update(of=("self",))
                 .select_related("kingdom", "king", "declared_crate"))
    spends: dict[int, list[str]] = {}
    for kingdom_id, code in Spend.objects.filter(game=game).values_list("kingdom_id", "code"):
        spends.setdefault(kingdom_id, []).append(code)
    lines = []
    for part in parts:
        start = rules_check(lambda p=part: starting_stockpile(st, p, spends.get(p.kingdom_id, [])))
        opening = eco.opening(start, game.game_mode if game.game_mode in eco.GAME_MODES
                              else eco.STANDARD)
        lines += [(part.kingdom, line_of(line, "start: ")) for line in opening.lines]
        rec.update(part, table={
            "turn": 0 if opening.turn_zero else opening.turn, "phase": eco.HARVEST,
            "units": dict(opening.units), "operational": True,
            "buildings": dict(opening.buildings), "growth": opening.growth_rate,
            "trained": 0, "shortfall": 0, "upkeep": opening.upkeep,
            "works": hold.opening_works(opening.buildings),
        })
    post(rec, lines)


def close_tables(rec: Recorder, st: SnsState, game: Game,
                 parts: Sequence[Participant]) -> None:
    """SNS-STAT-18, SNS-ECON-2: at the end of a game each Stockpile is put away (its balances
    back to 0) and the figures the post-game report needs are written into it."""
    number = st.campaign.year
    gold = {p.kingdom_id: 0 for p in parts}
    peak = dict(gold)
    for kingdom_id, amount in (LedgerEntry.objects.filter(
            campaign=st.campaign, year=number, resource=eco.GOLD,
            kingdom_id__in=list(gold)).order_by("pk").values_list("kingdom_id", "amount")):
        gold[kingdom_id] += amount
        peak[kingdom_id] = max(peak[kingdom_id], gold[kingdom_id])
    have = stock_balances([p.kingdom for p in parts])
    lines = []
    for part in parts:
        if not part.table:
            continue
        for resource in RESOURCES:
            if have[part.kingdom_id][resource]:
                lines.append((part.kingdom, PointsLine(
                    resource, -have[part.kingdom_id][resource], "SNS-ECON-2",
                    f"game {game.number} over: the Stockpile is put away")))
        report = dict(part.report)
        report.setdefault("peak_gold", peak[part.kingdom_id])
        trained = part.table.get("bought_upgrades")
        if trained:
            report.setdefault("upgrades_purchased", trained)
        rec.update(part, report=report, table={**part.table, "closed": True})
    post(rec, lines)


def econ_options(campaign: Any, game: Game | None = None) -> eco.EconOptions:
    """SNS-MAP-*, SNS-AMB-29..41: the economy's house rules of the campaign, with the map type
    the game is played on (when it is one with an economic effect)."""
    names = {spec.name for spec in eco.ECON_OPTIONS}
    data = {k: v for k, v in (campaign.options or {}).items() if k in names}
    map_type = (game.map_type_played or "").strip().lower().replace(" ", "_") if game else ""
    if map_type in dict(next(s for s in eco.ECON_OPTIONS if s.name == "map_type").choices):
        data["map_type"] = map_type
    return eco.EconOptions.from_dict(data)


def lock_table(campaign: Campaign, game: Game, kingdom_ids: Sequence[int]
               ) -> tuple[Campaign, Game, dict[int, Kingdom]]:
    """What two kingdoms at one table (a trade, an auto-resolved battle) write under: the
    campaign, then the kingdoms by id (the documented order), then the game, which must be
    being played (SNS-ECON-11)."""
    locked = lock_campaign(campaign)
    rows = lock_kingdoms(locked, kingdom_ids)
    if len(rows) != len(set(kingdom_ids)):
        raise SnsError("Both kingdoms must belong to this campaign.")
    row = Game.objects.select_for_update().filter(campaign=locked, pk=game.pk).first()
    if row is None:
        raise SnsError("That game is not part of this campaign.")
    if row.status != Game.Status.PLAYING:
        raise SnsError(f"SNS-ECON-11: game {row.number} is not being played.")
    return locked, row, rows


def open_seat(game: Game, kingdom: Kingdom) -> Participant:
    """A kingdom's seat at the game, locked, with its Stockpile open (SNS-ECON-10)."""
    part = (Participant.objects.select_for_update(of=("self",))
            .filter(game=game, kingdom_id=kingdom.pk).first())
    if part is None:
        raise SnsError(f"{kingdom.name} does not play game {game.number}.")
    if not part.table or part.table.get("closed"):
        raise SnsError(f"SNS-ECON-10: {kingdom.name} has no Stockpile open in game "
                       f"{game.number}.")
    return part
