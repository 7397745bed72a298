"""Summer C) Battle: choosing battles (MK-BSEL), their type (MK-BTYPE), and entering results
(MK-RESULT, MK-LAND-4 slaughter with MK-AMB-6).

In player order a player picks a tile and an opponent; that makes a pending ``Battle`` row. The
battle is then fought at the table (or, later, in the app) and the GM enters its result here:
the chooser's win, loss or draw and the tokens the battle removed. ``battle_results`` says what
follows: control, on-side flags, tokens destroyed for want of a retreat tile, and retreats. A
retreat with one legal tile is made at once; where there is a choice, the owner (or the GM)
picks the tile. A tile with a pending battle cannot be chosen again until that battle is over;
battles on other tiles may be chosen meanwhile, so several tables can play at once.
"""

from __future__ import annotations

import html
from typing import Any

from django.db import transaction
from django.db.models import Count, Q
from django.utils.safestring import SafeString, mark_safe

from battles.models import Army, Battle
from campaign import words
from campaign.bounded import keep
from campaign.chronicle import Recorder
from campaign.models import Kingdom
from campaign.services import ServiceError
from campaign.systems.mighty_kingdoms.forces import (
    apply_unit_results,
    artefacts_after_result,
    artefacts_of_removed,
    battle_units,
    is_kow_battle,
    list_of,
    remove_army_for_good,
    remove_ship_for_good,
    reveal_lists,
    roster_visible,
    unit_results_of,
    unit_statuses,
)
from campaign.systems.mighty_kingdoms.models import Ship
from campaign.systems.mighty_kingdoms.rules import battles as mkb
from campaign.systems.mighty_kingdoms.rules import campaign as mk
from campaign.systems.mighty_kingdoms.state import MKState, load_state
from campaign.systems.mighty_kingdoms.summer_common import (
    all_movers,
    cache_of,
    kingdom_name,
    label_of,
    month_battles,
    movers_at,
    require_phase,
    require_turn,
    token_rows,
    token_title,
)

KIND_NAMES = {
    mkb.BattleKind.NAVAL.value: "naval battle",
    mkb.BattleKind.LAND.value: "land battle",
    mkb.BattleKind.LAND_WATER.value: "land/water battle",
    mkb.BattleKind.SLAUGHTER.value: "slaughter",
}
MODE_NAMES = {"kow": "Kings of War", "simple": "Simple battle"}
RESULTS = tuple(r.value for r in mkb.Result)
MIRROR = {"win": "loss", "loss": "win", "draw": "draw"}


def kind_name(kind: str, mode: str = "") -> str:
    name = KIND_NAMES.get(kind, kind)
    if kind == mkb.BattleKind.LAND.value and mode in MODE_NAMES:
        name += f" ({MODE_NAMES[mode]})"
    return name


# -- the forces on the map --------------------------------------------------------------------


def contested_labels(state: MKState) -> list[str]:
    """MK-BSEL-5: the tiles holding tokens of more than one kingdom (from every token once read,
    else one query of the tiles and kingdoms tokens stand on)."""
    cache = cache_of(state)
    if "contested" in cache:
        return cache["contested"]  # type: ignore[no-any-return]
    pairs: set[tuple[str, int]] = set()
    if state.tokens_read:
        pairs = {(m.tile, m.kingdom) for m in all_movers(state).values()}
    else:
        # Armies' and ships' (tile, kingdom) pairs in one query (a union: each pair once),
        # each tile's place along (one row per tile and kingdom all the same).
        fields = ("tile__label", "kingdom_id", "tile_id", "tile__q", "tile__r")
        armies, ships = (model.objects.filter(campaign=state.campaign, tile__isnull=False)
                         .order_by().values_list(*fields) for model in (Army, Ship))
        for label, kingdom, pk, q, r in armies.union(ships):
            pairs.add((label, kingdom))
            state.learn(pk, label, q, r)
    count: dict[str, int] = {}
    for label, _ in pairs:
        count[label] = count.get(label, 0) + 1
    cache["contested"] = sorted(label for label, n in count.items() if n > 1)
    return cache["contested"]  # type: ignore[no-any-return]


def _forces_on(state: MKState, labels: list[str]) -> dict[str, mkb.TileForces]:
    """The tokens on ``labels`` (those holding any), each tile with its controller (None for
    open water and towers); only those tiles are read."""
    position = {pk: i for i, pk in enumerate(state.order)}
    by_tile: dict[str, list[mkb.Token]] = {}
    for mover in movers_at(state, labels).values():
        by_tile.setdefault(mover.tile, []).append(
            mkb.Token(mover.key, mover.kingdom, mover.kind, upright=not mover.on_side))
    tiles = state.tiles_alone(by_tile) if by_tile else None
    result = {}
    for label in sorted(by_tile):
        assert tiles is not None
        tile = tiles.tile(label)
        controller = None if tile.is_open_water or tile.wizard_tower else tile.controller
        tokens = sorted(by_tile[label], key=lambda t: (position.get(t.kingdom, 99), t.id))
        result[label] = mkb.TileForces(label, controller, tuple(tokens))
    known = cache_of(state).setdefault("tile_forces", {})
    known.update({label: result.get(label) for label in labels})
    return result


def forces(state: MKState) -> dict[str, mkb.TileForces]:
    """Every contested tile (MK-BSEL-5), with its forces: where battles can be chosen."""
    cache = cache_of(state)
    if "forces" not in cache:
        cache["forces"] = _forces_on(state, contested_labels(state))
    return cache["forces"]  # type: ignore[no-any-return]


def tile_forces(state: MKState, label: str) -> mkb.TileForces | None:
    """The forces on one tile, contested or not (None: no token stands there); a tile already
    read costs nothing."""
    known = cache_of(state).get("tile_forces", {})
    if label in known:
        return known[label]  # type: ignore[no-any-return]
    return _forces_on(state, [label]).get(label)


# What the rules make of one tile's forces, kept under those forces themselves (see
# ``tile_choices``); at most ``CHOICES_KEPT`` tiles' worth, the oldest forgotten first.
CHOICES_KEPT = 4096
_CHOICES: dict[mkb.TileForces, tuple[tuple[Any, tuple[tuple[Any, mkb.BattleType], ...]], ...]] = {}


def tile_choices(tf: mkb.TileForces) -> tuple[tuple[Any, tuple[tuple[Any, mkb.BattleType], ...]],
                                               ...]:
    """MK-BSEL-1/2, MK-AMB-40, MK-BTYPE-1/2, MK-AMB-11: the kingdoms that may choose a battle in
    this tile, in the tile's order, each with its legal opponents and the battle each choice
    makes (the chooser not calling a naval battle), as ``choosers_in_tile``, ``legal_opponents``
    and ``battle_type`` say.

    Their answer depends on nothing but the tile's forces (its label, its controller and every
    token with its kingdom, kind and whether it stands upright), so it is kept in the process
    under those forces: a page drawn again after an event works out again only the tiles whose
    forces changed. At most ``CHOICES_KEPT`` tiles are kept, the oldest forgotten first."""
    found = _CHOICES.get(tf)
    if found is None:
        found = tuple(
            (chooser, tuple((opp, mkb.battle_type(tf, chooser, opp))
                            for opp in mkb.legal_opponents(tf, chooser)))
            for chooser in mkb.choosers_in_tile(tf))
        keep(_CHOICES, CHOICES_KEPT, tf, found)
    return found


def pending_battles(state: MKState) -> list[Battle]:
    return [b for b in month_battles(state) if b.status == Battle.Status.PENDING]


def free_forces(state: MKState) -> list[mkb.TileForces]:
    """Tiles where a battle may be chosen now: those without a pending battle."""
    busy = {label_of(state, b.tile_id) for b in pending_battles(state)}
    return [tf for label, tf in forces(state).items() if label not in busy]


def battle_turn(state: MKState) -> int | None:
    """MK-BSEL-1/5: whose turn it is to choose a battle (players with no tile are skipped)."""
    battles = month_battles(state)
    previous = battles[-1].chooser_id if battles else None
    return mkb.next_chooser(free_forces(state), state.order, previous)


def battle_blockers(state: MKState) -> list[str]:
    missing = []
    for battle in pending_battles(state):
        label = label_of(state, battle.tile_id)
        if not battle.result_chooser:
            missing.append(
                f"The battle at {label} ({kingdom_name(state, battle.chooser_id)} against "
                f"{kingdom_name(state, battle.opponent_id)}) waits for its result (MK-RESULT)."
            )
        for entry in (battle.data or {}).get("retreats", {}).values():
            missing.append(f"{entry['name']} must retreat from {label}: "
                           f"{kingdom_name(state, entry['kingdom'])} chooses where (MK-RESULT-5).")
    for tf in free_forces(state):
        choosers = [chooser for chooser, _ in tile_choices(tf)]
        if choosers:
            names = " or ".join(kingdom_name(state, k) for k in choosers)
            missing.append(f"At {tf.label}, {names} may still choose a battle (MK-BSEL-5).")
    return missing


def token_names(state: MKState, labels: list[str]) -> dict[str, str]:
    """ "Red's army #2" for the tokens on ``labels``, by key."""
    return {key: token_title(state, mover) for key, mover in movers_at(state, labels).items()}


# -- choosing ---------------------------------------------------------------------------------


def _defended_settlement(state: MKState, label: str) -> str:
    tile = state.map_around([label], 0).tile(label)
    if tile.settlement == mk.CITY and any(
        k.capital_tile == label for k in state.kingdoms.values()
    ):
        return "capital"
    return tile.settlement


def defended_text(defended: dict[str, Any] | None) -> str | None:
    """MK-DEF-2: a battle's stored defended-tile allowance in words (None: nobody has it)."""
    if not defended:
        return None
    return mkb.describe_allowance(mkb.DefenceAllowance(
        mkb.Settlement(defended["row"]), defended["adjust_pieces"],
        defended["blocking_or_difficult"], defended["obstacles"], defended["objectives"],
        defended.get("objective_vp", 1)))


def battle_setup(state: MKState, tf: mkb.TileForces, chooser: int, opponent: int,
                 kind: mkb.BattleKind, mode: str = "") -> dict[str, Any]:
    """MK-LAND-2, MK-BOARD-1 and MK-DEF-1..4 for a Kings of War land battle: table size (from
    the upright armies that fight) and who may alter the table, and how much. Other battles
    need neither."""
    if kind is not mkb.BattleKind.LAND or (mode or state.options.battle_mode) != "kow":
        return {}
    fighting = {
        side: len(mkb.fighting_tokens(tf.tokens_of(side), kind)) for side in (chooser, opponent)
    }
    board = mkb.board_size(fighting[chooser], fighting[opponent])
    defending = [k for k in (chooser, opponent) if any(
        a.defending and a.kingdom == k for a in state.tokens_at([tf.label])[0])]
    benefit = mkb.defended_tile_benefit(_defended_settlement(state, tf.label), tf.controller,
                                        defending)
    setup: dict[str, Any] = {"board": board.label, "defended": None}
    if benefit is not None:
        allowance = benefit.allowance
        setup["defended"] = {
            "kingdom": benefit.kingdom, "row": allowance.row.value,
            "adjust_pieces": allowance.adjust_pieces,
            "blocking_or_difficult": allowance.blocking_or_difficult,
            "obstacles": allowance.obstacles, "objectives": allowance.objectives,
            "objective_vp": allowance.objective_vp,
        }
    return setup


def battle_mode(state: MKState, kind: mkb.BattleKind, asked: str = "") -> str:
    """MK-CFG-1, MK-AMB-30: how a land battle is fought. One mode for the whole campaign, unless
    the ``allow_mode_per_battle`` house rule lets the chooser pick Kings of War or Simple for
    each battle (``asked``; the campaign's mode when not given). Other battle kinds keep the
    campaign's mode, which does not change how they are fought."""
    default = state.options.battle_mode
    if asked and asked not in MODE_NAMES:
        raise ServiceError("A land battle is fought as Kings of War or as a Simple battle "
                           "(MK-CFG-1).")
    if not asked or asked == default:
        return default
    if not state.options.allow_mode_per_battle:
        raise ServiceError(f"This campaign fights every land battle as "
                           f"{MODE_NAMES[default]} (MK-CFG-1); the mode is chosen per battle "
                           "only with that house rule on (MK-AMB-30).")
    if kind is not mkb.BattleKind.LAND:
        raise ServiceError("Only a land battle is fought as Kings of War or as a Simple "
                           "battle; this one is not (MK-AMB-30).")
    return asked


def mode_choices(state: MKState, kind: mkb.BattleKind) -> list[tuple[str, str]]:
    """The modes the chooser picks from for a battle of ``kind`` (MK-AMB-30): both for a land
    battle under the house rule, the campaign's default first; otherwise none to pick."""
    if kind is not mkb.BattleKind.LAND or not state.options.allow_mode_per_battle:
        return []
    default = state.options.battle_mode
    return sorted(MODE_NAMES.items(), key=lambda item: item[0] != default)


def choose_battle(kingdom: Kingdom, user: Any, label: str, opponent_id: int,
                  call_naval: bool = False, mode: str = "") -> Battle:
    """MK-BSEL-1..6, MK-BTYPE-1/2, MK-AMB-11: on its turn a kingdom picks a tile and an enemy
    there; the battle waits for its result. With the ``allow_mode_per_battle`` house rule the
    chooser also says how a land battle is fought (``mode``: "kow" or "simple", MK-AMB-30).
    Choosing reveals the lists of every army in the battle and fixes any still a draft
    (MK-SETUP-7, MK-RECRUIT-6)."""
    with transaction.atomic():
        state = load_state(kingdom.campaign, lock=True)
        require_phase(state, "C")
        name = kingdom_name(state, kingdom.pk)
        if any(label_of(state, b.tile_id) == label for b in pending_battles(state)):
            raise ServiceError(f"The battle at {label} must be finished before another is "
                               "chosen there.")
        require_turn(state, kingdom, battle_turn(state), "MK-BSEL-1",
                     "No tile is left where a battle can be chosen (MK-BSEL-5).")
        tf = tile_forces(state, label)
        if tf is None or not mkb.may_choose_battle_in(tf, kingdom.pk):
            raise ServiceError(f"{name} cannot choose a battle at {label}: that needs an upright "
                               "army or ship of yours there and an enemy token (MK-BSEL-1).")
        allowed = mkb.legal_opponents(tf, kingdom.pk)
        if opponent_id not in allowed:
            must = " or ".join(kingdom_name(state, k) for k in allowed)
            raise ServiceError(f"At {label} {name} must fight {must}: enemies with upright tokens "
                               "come first, and among them the tile's controller (MK-BSEL-2).")
        try:
            btype = mkb.battle_type(tf, kingdom.pk, opponent_id, call_naval=call_naval)
        except mkb.BattleError as exc:
            raise ServiceError(str(exc)) from exc
        mode = battle_mode(state, btype.kind, mode)
        names = token_names(state, [label])
        data = {
            "legal_kinds": [k.value for k in btype.legal_kinds],
            "chooser_fighters": list(btype.chooser_fighters),
            "opponent_fighters": list(btype.opponent_fighters),
            "tokens": {t.id: names.get(t.id, t.id) for t in tf.tokens
                       if t.kingdom in (kingdom.pk, opponent_id)},
            **battle_setup(state, tf, kingdom.pk, opponent_id, btype.kind, mode),
        }
        campaign = state.campaign
        seq = max((b.seq for b in month_battles(state)), default=0) + 1
        rule = "MK-LAND-4" if btype.kind is mkb.BattleKind.SLAUGHTER else "MK-BTYPE-1"
        summary = (f"{name} chooses to fight {kingdom_name(state, opponent_id)} at {label}: "
                   f"a {kind_name(btype.kind.value, mode)} (MK-BSEL-2, {rule}).")
        if data.get("board"):
            summary += f" Board {data['board']} (MK-BOARD-1)."
        with Recorder(campaign, user, "summer.battle", summary) as rec:
            battle = rec.create(Battle(
                campaign=campaign, year=campaign.year, month=campaign.month, seq=seq,
                tile=state.tile_rows[label], kind=btype.kind.value, mode=mode,
                chooser=state.kingdom_rows[kingdom.pk],
                opponent=state.kingdom_rows[opponent_id], data=data,
            ))
            # MK-SETUP-7: once an army fights, every player may read the lists in the battle.
            story: list[str] = []
            reveal_lists(battle, rec, story)
            rec.summary = " ".join([rec.summary, *story])
        return battle  # type: ignore[return-value]


# -- results ----------------------------------------------------------------------------------


def neighbours(state: MKState, label: str) -> list[mkb.Neighbour]:
    """MK-AMB-16: the battle tile's neighbours as plain data for ``battle_results``: who holds
    them, whether an army or a ship could go there, and who stands there."""
    around = state.map_around([label])
    tile = around.tile(label)
    army_ok = set(mk.legal_move_destinations(mk.Mover(mk.ARMY, 0, label), around,
                                             state.options))
    ship_ok = set(mk.legal_move_destinations(mk.Mover(mk.SHIP, 0, label), around,
                                             state.options))
    present: dict[str, set[Any]] = {}
    ships: dict[str, set[Any]] = {}
    for mover in movers_at(state, tile.neighbours).values():
        present.setdefault(mover.tile, set()).add(mover.kingdom)
        if mover.ship is not None:
            ships.setdefault(mover.tile, set()).add(mover.kingdom)
    result = []
    for n in tile.neighbours:
        other = around.get(n)
        if other is None:
            continue
        controller = None if other.is_open_water or other.wizard_tower else other.controller
        result.append(mkb.Neighbour(
            n, controller, army_can_enter=n in army_ok, ship_can_enter=n in ship_ok,
            open_water=other.is_open_water, ship_kingdoms=frozenset(ships.get(n, ())),
            kingdoms_present=frozenset(present.get(n, ())),
        ))
    return result


def removal_reason(battle: Battle) -> tuple[str, str]:
    """Why a token the battle itself took off is gone (reason, rule), for ``data["removed"]``."""
    if battle.kind == mkb.BattleKind.NAVAL.value:
        return "sunk", "MK-NAVAL-3"
    if battle.kind == mkb.BattleKind.SLAUGHTER.value:
        return "slaughtered", "MK-LAND-4"
    if battle.kind == mkb.BattleKind.LAND.value and battle.mode == "simple":
        return "destroyed at 0 points", "MK-SIMPLE-6"
    return "lost in battle", "MK-RESULT"


def _remove(state: MKState, rec: Recorder, mover: mk.Mover, reason: str,
            rule_id: str) -> list[int]:
    """Take a token off the map for good, keeping its rows like every other removal (numbers
    are never reused; lists and Unit Strength history stay). A sunk pair loses its army too
    (MK-NAVAL-3). Returns the ids of the armies removed."""
    armies = []
    # The ship first, so the army it carried has no ship left to unpair.
    for row in sorted(token_rows(state, mover), key=lambda r: isinstance(r, Army)):
        row.campaign = state.campaign
        if isinstance(row, Ship):
            remove_ship_for_good(rec, row, reason, rule_id)
        else:
            remove_army_for_good(rec, row, reason, rule_id)
            armies.append(row.pk)
    return armies


def _move(state: MKState, rec: Recorder, mover: mk.Mover, label: str, on_side: bool) -> None:
    for row in token_rows(state, mover):
        if isinstance(row, Army):
            # MK-AMB-7: a defend marker is lost when the army leaves its tile.
            rec.update(row, tile=state.tile_rows[label], on_side=on_side, defending=False)
        elif isinstance(row, Ship):
            rec.update(row, tile=state.tile_rows[label], on_side=on_side)


def pending_battle(state: MKState, battle_id: int) -> Battle:
    """This month's battle ``battle_id``, still waiting for its result."""
    battle = next((b for b in month_battles(state) if b.pk == battle_id), None)
    if battle is None:
        raise ServiceError("There is no such battle this month.")
    if battle.result_chooser:
        raise ServiceError("This battle's result has already been entered.")
    return battle


def apply_result(state: MKState, rec: Recorder, battle: Battle, *, result: str = "",
                 removed: list[str] | None = None, slaughtered: str = "",
                 units: list[mkb.UnitBattleRecord] | None = None) -> list[str]:
    """MK-RESULT-1..5, MK-LAND-4, MK-AMB-6, MK-US-1..4: write how ``battle`` ended through
    ``rec`` and return the story, sentence by sentence. Every battle type ends here: naval
    battles (MK-NAVAL-6), land/water battles, whose roll damages nothing, so tokens are lost
    only when the result leaves them nowhere to go (MK-LW-3), and Simple battles, which then
    change no Unit Strength (MK-SIMPLE-10). A refusal (raised before any write that matters)
    changes nothing, since the caller's transaction rolls back.

    ``result`` is the chooser's win, loss or draw (the opponent gets the mirror); ``removed``
    lists the tokens the battle itself took off (sunk ships, destroyed Simple armies). For a
    slaughter, ``slaughtered`` is the token its owner gave up: the chooser wins. ``units`` are
    a Kings of War battle's per-unit outcomes (MK-US-1/2), recorded in the same entry.
    """
    label = label_of(state, battle.tile_id)
    chooser, opponent = battle.chooser_id, battle.opponent_id
    tf = tile_forces(state, label) or mkb.TileForces(label, None)
    names = token_names(state, [label])
    movers = movers_at(state, [label])
    if battle.kind == mkb.BattleKind.SLAUGHTER.value:
        if slaughtered not in {t.id for t in tf.tokens_of(opponent)}:
            raise ServiceError(f"Choose which of {kingdom_name(state, opponent)}'s tokens on "
                               f"{label} is given up (MK-LAND-4, MK-AMB-6).")
        try:
            done = mkb.slaughter(tf.tokens_of(opponent), slaughtered)
        except mkb.BattleError as exc:
            raise ServiceError(str(exc)) from exc
        gone = [done.removed]
        outcomes = done.outcome.by_kingdom(chooser, opponent)
    else:
        if result not in RESULTS:
            raise ServiceError("Say whether the chooser won, lost or drew (MK-RESULT).")
        gone = list(dict.fromkeys(removed or []))
        sides = {t.id for t in tf.tokens if t.kingdom in (chooser, opponent)}
        strangers = [key for key in gone if key not in sides]
        if strangers:
            stranger = all_movers(state).get(strangers[0])
            raise ServiceError(f"{token_title(state, stranger) if stranger else strangers[0]} "
                               f"did not fight at "
                               f"{label}.")
        outcomes = {chooser: mkb.Result(result), opponent: mkb.Result(MIRROR[result])}
    after = mkb.TileForces(label, tf.controller,
                           tuple(t for t in tf.tokens if t.id not in gone))
    at_sea = state.map_around([label], 0).tile(label).is_open_water
    try:
        results = mkb.battle_results(after, outcomes, neighbours(state, label),
                                     open_water=at_sea)
    except mkb.BattleError as exc:
        raise ServiceError(str(exc)) from exc
    chooser_result = outcomes[chooser].value
    story = [f"Battle at {label}: {kingdom_name(state, chooser)} "
             f"{_verb(chooser_result)} against {kingdom_name(state, opponent)}."]
    reveal_lists(battle, rec, story)  # MK-SETUP-7: done when chosen, unless made elsewhere
    if units is not None:
        story += apply_unit_results(rec, battle, units)
    reason, rule = removal_reason(battle)
    armies_gone: list[int] = []
    for key in gone:
        armies_gone += _remove(state, rec, movers[key], reason, rule)
        story.append(f"{names[key]} is lost in the fighting"
                     + (" (MK-LAND-4)." if slaughtered else "."))
    if results.control_changed:
        new = results.controller_after
        rec.update(state.tile_rows[label],
                   controller=state.kingdom_rows.get(new) if new is not None else None)
        story.append(f"{label} now belongs to {kingdom_name(state, new)} (MK-RESULT-3).")
    pending: dict[str, Any] = {}
    destroyed, retreated = [], []
    for fate in results.fates:
        mover = movers[fate.token_id]
        if fate.fate is mkb.Fate.DESTROYED:
            armies_gone += _remove(state, rec, mover, "no retreat tile",
                                   "MK-RESULT-1" if outcomes[fate.kingdom] is mkb.Result.LOSS
                                   else "MK-RESULT-2")
            destroyed.append(names[fate.token_id])
            story.append(f"{names[fate.token_id]} has nowhere to go and is destroyed "
                         "(MK-RESULT-1/2).")
        elif fate.fate is mkb.Fate.RETREAT and len(fate.options) == 1:
            _move(state, rec, mover, fate.options[0], fate.on_side_after)
            retreated.append([names[fate.token_id], fate.options[0]])
            story.append(_retreat_text(names[fate.token_id], fate.options[0],
                                       fate.on_side_after))
        elif fate.fate is mkb.Fate.RETREAT:
            pending[fate.token_id] = {
                "kingdom": fate.kingdom, "name": names[fate.token_id],
                "options": sorted(fate.options),
                "crowded": sorted(fate.crowded_options),
                "on_side": fate.on_side_after,
            }
            story.append(f"{names[fate.token_id]} must retreat to "
                         f"{' or '.join(sorted(fate.options))} (MK-RESULT-5).")
    winner_moves = {
        token_id: {"name": names[token_id], "options": sorted(tiles)}
        for token_id, tiles in results.winner_move_options
        if tiles and token_id not in gone
    }
    if winner_moves:
        story.append(f"{kingdom_name(state, results.winner)} may move one token on to an "
                     "adjacent tile it controls (MK-RESULT-3).")
    by_kingdom = {chooser: chooser_result, opponent: outcomes[opponent].value}
    story += artefacts_after_result(rec, battle, by_kingdom,
                                    (results.controller_before, results.controller_after))
    story += artefacts_of_removed(rec, battle, armies_gone, by_kingdom)
    data = {
        **(battle.data or {}),
        "removed": [names[k] for k in gone], "destroyed": destroyed,
        "retreated": retreated, "retreats": pending,
        "control": [results.controller_before, results.controller_after],
        "winner_move": ({"kingdom": results.winner, "tokens": winner_moves}
                        if winner_moves else None),
    }
    rec.update(battle, result_chooser=chooser_result,
               result_opponent=outcomes[opponent].value, data=data,
               status=Battle.Status.PENDING if pending else Battle.Status.RESOLVED)
    return story


def enter_result(battle_id: int, user: Any, campaign: Any, *, result: str = "",
                 removed: list[str] | None = None, slaughtered: str = "",
                 units: list[mkb.UnitBattleRecord] | None = None) -> Battle:
    """MK-RESULT-1..5, MK-LAND-4, MK-AMB-6, MK-US-1..4: how a battle ended, as ONE chronicle
    entry (see ``apply_result``). The GM enters it; a slaughter's owner gives up a token with
    ``give_up_token``."""
    with transaction.atomic():
        state = load_state(campaign, lock=True)
        require_phase(state, "C")
        battle = pending_battle(state, battle_id)
        battle.campaign = state.campaign
        rec = Recorder(state.campaign, user, "summer.battle_result", "",
                       data={"battle": battle.pk})
        rec.summary = " ".join(apply_result(state, rec, battle, result=result, removed=removed,
                                            slaughtered=slaughtered, units=units))
        rec.finish()
        return battle


def give_up_token(kingdom: Kingdom | None, user: Any, campaign: Any, battle_id: int,
                  token_id: str) -> Battle:
    """MK-LAND-4, MK-AMB-6: in a slaughter the owner of the tokens on their side picks the one
    removed (``kingdom``), or a GM for them (``kingdom`` None); the chooser wins."""
    with transaction.atomic():
        state = load_state(campaign, lock=True)
        require_phase(state, "C")
        battle = pending_battle(state, battle_id)
        if battle.kind != mkb.BattleKind.SLAUGHTER.value:
            raise ServiceError("Only a slaughter has a token given up; this battle is fought "
                               "(MK-LAND-4).")
        if kingdom is not None and kingdom.pk != battle.opponent_id:
            raise ServiceError(f"{kingdom_name(state, battle.opponent_id)} chooses which of its "
                               "tokens is lost, not "
                               f"{kingdom_name(state, kingdom.pk)} (MK-AMB-6).")
        battle.campaign = state.campaign
        rec = Recorder(state.campaign, user, "summer.battle_result", "",
                       data={"battle": battle.pk})
        rec.summary = " ".join(apply_result(state, rec, battle, slaughtered=token_id))
        rec.finish()
        return battle


def _verb(result: str) -> str:
    return {"win": "wins", "loss": "loses", "draw": "draws"}[result]


def _retreat_text(name: str, label: str, on_side: bool) -> str:
    lying = ", and lies on its side" if on_side else ""
    return f"{name} retreats to {label}{lying} (MK-RESULT-1/2)."


def choose_retreats(kingdom: Kingdom, user: Any, battle_id: int,
                    choices: dict[str, str]) -> Battle:
    """MK-RESULT-5, MK-AMB-16: the owner picks where each of its retreating tokens goes. A
    retreat is no Move order, so it brings no terrain effect at Reform (MK-AMB-14)."""
    with transaction.atomic():
        state = load_state(kingdom.campaign, lock=True)
        require_phase(state, "C")
        battle = next((b for b in month_battles(state) if b.pk == battle_id), None)
        if battle is None:
            raise ServiceError("There is no such battle this month.")
        pending = dict((battle.data or {}).get("retreats", {}))
        mine = {k: v for k, v in pending.items() if v["kingdom"] == kingdom.pk}
        if not mine:
            raise ServiceError(f"{kingdom_name(state, kingdom.pk)} has no token to retreat "
                               "from this battle.")
        choices = {k: v for k, v in choices.items() if v}
        if not choices:
            raise ServiceError("Choose a tile for a retreating token (MK-RESULT-5).")
        for key, label in choices.items():
            entry = mine.get(key)
            if entry is None:
                raise ServiceError("That token has no retreat to choose here (MK-RESULT-5).")
            if label not in entry["options"]:
                raise ServiceError(
                    f"{entry['name']} cannot retreat to {label}; it may go to "
                    f"{' or '.join(entry['options'])}: an adjacent tile of its kingdom it can "
                    "enter, or open water without enemy ships for a ship (MK-AMB-16)."
                )
        label_here = label_of(state, battle.tile_id)
        movers = movers_at(state, [label_here])
        rec = Recorder(state.campaign, user, "summer.retreat", "")
        story = []
        for key, label in choices.items():
            entry = pending.pop(key)
            mover = movers.get(key)
            if mover is not None:
                _move(state, rec, mover, label, entry["on_side"])
                story.append(_retreat_text(entry["name"], label, entry["on_side"]))
        rec.summary = f"After the battle at {label_here}: " + " ".join(story)
        retreated = list((battle.data or {}).get("retreated", []))
        retreated += [[mine[k]["name"], v] for k, v in choices.items()]
        rec.update(battle, data={**battle.data, "retreats": pending, "retreated": retreated},
                   status=Battle.Status.PENDING if pending else Battle.Status.RESOLVED)
        rec.finish()
        return battle


def winner_move_options(state: MKState, battle: Battle) -> dict[str, dict[str, Any]]:
    """MK-RESULT-3, MK-AMB-28: the winner's armies and ships still on the battle tile (upright
    or on their side: the rule says "1 of its armies or ships") and the adjacent tiles of its
    kingdom each may move to, as the map stands now. Empty once the move is made or
    declined."""
    offer = (battle.data or {}).get("winner_move")
    if not offer or offer.get("done"):
        return {}
    label = label_of(state, battle.tile_id)
    tf = tile_forces(state, label)
    if tf is None:
        return {}
    names = token_names(state, [label])
    nbrs = neighbours(state, label)
    options: dict[str, dict[str, Any]] = {}
    for token in tf.tokens_of(offer["kingdom"]):
        tiles = sorted(mkb.winner_move_tiles(token, nbrs))
        if tiles:
            options[token.id] = {"name": names.get(token.id, token.id), "options": tiles}
    return options


def winner_move(kingdom: Kingdom, user: Any, battle_id: int, token_id: str,
                destination: str) -> Battle:
    """MK-RESULT-3, MK-AMB-28: the winner moves one of its armies or ships from the battle tile
    to an adjacent tile it controls (it is not laid on its side by the move, nor stood up; no
    terrain effect, MK-AMB-14; enemies there mean a new battle this phase), or, with no
    ``token_id``, declines. One move per battle."""
    with transaction.atomic():
        state = load_state(kingdom.campaign, lock=True)
        require_phase(state, "C")
        battle = next((b for b in month_battles(state) if b.pk == battle_id), None)
        if battle is None:
            raise ServiceError("There is no such battle this month.")
        offer = (battle.data or {}).get("winner_move")
        if not offer or offer.get("kingdom") != kingdom.pk:
            raise ServiceError(f"{kingdom_name(state, kingdom.pk)} did not win this battle, so "
                               "it has no move to make (MK-RESULT-3).")
        if offer.get("done"):
            raise ServiceError("The winner's move after this battle has already been "
                               "decided (MK-RESULT-3).")
        label = label_of(state, battle.tile_id)
        rec = Recorder(state.campaign, user, "summer.winner_move", "")
        if not token_id:
            rec.summary = (f"After the battle at {label}: {kingdom_name(state, kingdom.pk)} "
                           "keeps its tokens where they are (MK-RESULT-3).")
            done: dict[str, Any] = {"declined": True}
        else:
            options = winner_move_options(state, battle)
            if token_id not in options:
                raise ServiceError(f"That token cannot move on from {label}: only an army or "
                                   "ship of the winner still there may (MK-RESULT-3).")
            entry = options[token_id]
            if destination not in entry["options"]:
                raise ServiceError(
                    f"{entry['name']} may move only to an adjacent tile "
                    f"{kingdom_name(state, kingdom.pk)} controls and it can enter: "
                    f"{' or '.join(entry['options'])} (MK-RESULT-3)."
                )
            mover = movers_at(state, [label])[token_id]
            _move(state, rec, mover, destination, mover.on_side)
            rec.summary = (f"After the battle at {label}: {entry['name']} moves on to "
                           f"{destination} (MK-RESULT-3).")
            done = {"token": entry["name"], "to": destination}
        rec.update(battle, data={**battle.data, "winner_move": {**offer, "done": done}})
        rec.finish()
        return battle


def kow_view(state: MKState, battle: Battle, access: Any, pending: bool) -> dict[str, Any]:
    """MK-LAND-2, MK-SETUP-7, MK-US: a Kings of War battle's page: each side's armies with their
    lists as this viewer may read them (every player once the battle is chosen), each unit's
    Unit Strength as it fights (0..3, MK-US-6) and what was entered for it; for a GM while the
    battle waits, the tokens the result form may take off the map."""
    entered = unit_results_of(battle)
    fielded = battle_units(battle)
    statuses = {s.unit.pk: s for s in unit_statuses(
        [u for _, units in fielded for u in units])}
    sides = []
    for side, kingdom in (("attacker", battle.chooser_id),
                         ("defender", battle.opponent_id)):
        armies = []
        for army, units in fielded:
            if army.kingdom_id != kingdom:
                continue
            visible = access.is_gm or roster_visible(access, army)
            army_list = list_of(army)
            armies.append({
                "army": army, "visible": visible, "race": army_list.race if army_list else "",
                "points": sum(u.points for u in units),
                "units": [{"status": statuses[u.pk], "result": entered.get(u.pk)}
                          for u in units] if visible else [],
            })
        sides.append({"side": side, "kingdom": state.kingdom_rows.get(kingdom),
                      "armies": armies})
    tokens = []
    if pending and access.is_gm:
        here = label_of(state, battle.tile_id)
        tf = tile_forces(state, here)
        names = token_names(state, [here])
        tokens = [(t.id, names.get(t.id, t.id)) for t in (tf.tokens if tf else ())
                  if t.kingdom in (battle.chooser_id, battle.opponent_id)]
    # MK-LAND-2: an army with no unit on its list fields nothing: say so to everyone looking.
    empty = [f"{side['kingdom'].name}'s army #{a['army'].number}" for side in sides
             for a in side["armies"] if side["kingdom"] is not None
             and not any(a["army"].pk == army.pk and units for army, units in fielded)]
    return {"sides": sides, "recorded": "unit_results" in (battle.data or {}),
            "may_enter": pending and access.is_gm, "tokens": tokens,
            "empty": empty_list_warning(empty) if pending else ""}


# -- what the play page shows -----------------------------------------------------------------


def empty_lists(state: MKState, labels: set[str]) -> dict[str, list[tuple[int, str]]]:
    """MK-LAND-2, MK-SETUP-7: per tile (of ``labels``), the armies standing there
    whose list has no living unit, as (kingdom id, "Ironmere's army #2"): a Kings of War battle
    would field nothing of them, so the page warns the players and the GM (one query; none
    without tiles, nor once every token was read with its living units)."""
    if not labels:
        return {}
    if state.living_units is not None:  # read with every token (``read_battle_tiles``)
        living = state.living_units
        found_here: dict[str, list[tuple[int, str]]] = {}
        for army in sorted((a for a in state.armies if a.tile in labels),
                           key=lambda a: (a.kingdom, a.number)):
            if not living.get(army.id, 0):
                found_here.setdefault(army.tile, []).append(
                    (army.kingdom, f"{kingdom_name(state, army.kingdom)}'s army #{army.number}"))
        return found_here
    armies = (Army.objects.filter(campaign_id=state.campaign.pk, tile__label__in=sorted(labels))
              .annotate(living=Count("army_list__units",
                                     filter=Q(army_list__units__destroyed_reason="")))
              .order_by("kingdom_id", "number")
              .values_list("tile__label", "kingdom_id", "number", "living"))
    found: dict[str, list[tuple[int, str]]] = {}
    for label, kingdom_id, number, living in armies:
        if not living:
            name = kingdom_name(state, kingdom_id)
            found.setdefault(label, []).append((kingdom_id,
                                                            f"{name}'s army #{number}"))
    return found


def empty_list_warning(names: list[str]) -> str:
    """The warning shown where a Kings of War battle with such armies is chosen and shown
    (empty when there are none)."""
    if not names:
        return ""
    have = "has" if len(names) == 1 else "have"
    return (f"{words.and_list(names)} {have} no unit on {'its' if len(names) == 1 else 'their'} "
            "list: a Kings of War battle needs each army's list (MK-LAND-2, MK-SETUP-7).")



def read_battle_tiles(state: MKState) -> None:
    """What the battle step's page reads of the map, at once and before anything asks (three
    queries): this month's battles with their tiles, every token on the map (armies and ships
    in one query: where they stand decides which tiles are contested, MK-BSEL-5), and the tiles
    the page describes: the contested tiles (who controls each, whether it is open water or a
    tower), and around each battle's tile the tiles a token may retreat or move on to, with
    their neighbours (MK-RESULT-3/5). ``forces``, ``battle_turn`` and ``battle_context``
    then read nothing more of them."""
    cache = cache_of(state)
    if "battle_tiles" in cache:
        return
    cache["battle_tiles"] = True
    fought = [label_of(state, b.tile_id) for b in month_battles(state)]
    # Every token, before the contested tiles are counted from them; with each army's living
    # units where a Kings of War battle may be fought (MK-LAND-2: ``empty_lists``).
    kow = (state.options.battle_mode == "kow" or state.options.allow_mode_per_battle
           or any(is_kow_battle(b) for b in pending_battles(state)))
    state.read_every_token(living=kow)
    state.read_around(dict.fromkeys(fought, 1), alone=contested_labels(state))


def _choice_options(state: MKState, tf: mkb.TileForces, chooser: int,
                    opponents: tuple[tuple[Any, mkb.BattleType], ...]) -> list[dict[str, Any]]:
    """What ``chooser`` may fight on ``tf``, as the page offers it: each opponent with the
    battle's kind, whether the chooser may call a naval battle instead, the modes to pick from
    (MK-AMB-30) and whether it may be fought in Kings of War."""
    rows = state.kingdom_rows
    mode = state.options.battle_mode
    options = []
    for opp, btype in opponents:
        naval = (mkb.BattleKind.NAVAL in btype.legal_kinds
                 and btype.kind is not mkb.BattleKind.NAVAL)
        modes = mode_choices(state, btype.kind)
        options.append({"opponent": rows[opp],
                        "kind": kind_name(btype.kind.value, "" if modes else mode),
                        "naval": naval, "modes": modes,
                        "kow": btype.kind is mkb.BattleKind.LAND and (
                            mode == "kow" or any(m == "kow" for m, _ in modes)),
                        "kingdoms": {chooser, opp}})
    return options


def _text(value: Any) -> str:
    """``value`` escaped for HTML, exactly as ``django.utils.html.escape`` escapes it."""
    return html.escape(str(value))


def _contested_item(label: str, controller: str | None, busy: bool, fought: bool,
                    sides: list[tuple[tuple[str, str], list[tuple[str, bool]]]],
                    choices: list[tuple[str, list[tuple[str, str, bool]]]]) -> SafeString:
    """One contested tile of the battle step's list, as its list item: its label, who holds
    it, whether its battle is under way or fought, each kingdom's (name, colour) with its tokens
    (name, upright) and who may fight whom, and how (chooser's name, then each opponent's name,
    the battle's kind and whether a naval battle may be called). Each name is escaped as
    Django's ``escape`` escapes it."""
    head = _text(label)
    if controller is not None:
        head += f' <span class="muted">held by {_text(controller)}</span>'
    if busy:
        head += (' <span class="badge">'
                 f'{"battle fought" if fought else "battle under way"}</span>')
    items = "".join(
        f'<li><span class="swatch" data-c="{_text(colour)}"></span>{_text(name)}: '
        + ", ".join(_text(token) + ("" if upright else " (on its side)")
                    for token, upright in tokens) + "</li>"
        for (name, colour), tokens in sides)
    if busy:
        lines = ""
    elif choices:
        lines = '<ul class="muted small">' + "".join(
            f"<li>{_text(chooser)} may fight " + "; or ".join(
                f"{_text(opponent)}: {_text(kind)}" + (", or a naval battle" if naval else "")
                for opponent, kind, naval in options) + "</li>"
            for chooser, options in choices) + "</ul>\n      "
    else:
        lines = '<p class="muted small">Nobody here is upright: no battle (MK-AMB-40).</p>'
    return mark_safe(  # noqa: S308 (every value above is escaped)
        f'\n    <li class="card stack">\n      <h3>{head}</h3>\n      <ul>{items}</ul>\n'
        f"      {lines}\n    </li>\n  ")


# Each contested tile's list item, kept under everything it is made of (see ``contested``); at
# most ``CONTESTED_KEPT``, the oldest forgotten first.
CONTESTED_KEPT = 4096
_CONTESTED: dict[tuple[Any, ...], SafeString] = {}


class ContestedTile:
    """A contested tile as the battle step lists it (MK-BSEL-5): its forces, whether a battle is
    under way or fought there, and its list item (``html``); its controller and choices (as
    kingdoms' rows) are made when asked for."""

    __slots__ = ("label", "forces", "busy", "fought", "html", "_state")

    def __init__(self, state: MKState, tf: mkb.TileForces, busy: bool, fought: bool,
                 item: SafeString) -> None:
        self.label, self.forces, self.busy, self.fought = tf.label, tf, busy, fought
        self.html, self._state = item, state

    @property
    def controller(self) -> Kingdom | None:
        return self._state.kingdom_rows.get(self.forces.controller)

    @property
    def choices(self) -> list[dict[str, Any]]:
        rows = self._state.kingdom_rows
        return [{"chooser": rows[chooser],
                 "options": _choice_options(self._state, self.forces, chooser, opponents)}
                for chooser, opponents in tile_choices(self.forces)]


def contested(state: MKState, tf: mkb.TileForces, movers: dict[str, mk.Mover],
              battle: Battle | None) -> ContestedTile:
    """The contested tile ``tf`` as the page lists it (``battle``: the one under way there).
    Its list item is kept in the process under what it is made of: the tile's forces (label,
    controller, each token with its kingdom, kind and whether it stands), whether a battle is
    under way there and fought, the campaign's battle mode and house rule (MK-AMB-30), the name
    and colour of each kingdom there, the controller's name and each token's name. A page drawn
    again after an event makes again only the items whose tile changed."""
    looks = state.kingdom_rows.looks
    options = state.options
    busy = battle is not None
    fought = bool(battle.result_chooser) if battle is not None else False
    controller = tf.controller
    key = (tf, busy, fought, options.battle_mode, options.allow_mode_per_battle,
           tuple(looks(k) for k in tf.kingdoms),
           looks(controller)[0] if controller in state.kingdom_rows else None,
           tuple(movers[t.id].name for t in tf.tokens))
    item = _CONTESTED.get(key)
    if item is None:
        sides = [(looks(k), [(movers[t.id].name, t.upright) for t in tf.tokens_of(k)])
                 for k in tf.kingdoms]
        choices = [(looks(chooser)[0], [(o["opponent"].name, o["kind"], o["naval"]) for o in
                                        _choice_options(state, tf, chooser, opponents)])
                   for chooser, opponents in tile_choices(tf)]
        item = _contested_item(tf.label, key[6], busy, fought, sides, choices)
        keep(_CONTESTED, CONTESTED_KEPT, key, item)
    return ContestedTile(state, tf, busy, fought, item)


def battle_context(state: MKState, access: Any, actor: Kingdom | None) -> dict[str, Any]:
    rows = state.kingdom_rows
    contested_now = contested_labels(state)
    labels = sorted({*contested_now, *(label_of(state, b.tile_id) for b in month_battles(state))})
    # Every tile the page shows, read at once: the contested ones and this month's battles',
    # and the tokens around the battles (where a winner may move on, MK-RESULT-3).
    fought = [label_of(state, b.tile_id) for b in month_battles(state)]
    around = state.map_around(fought) if fought else None
    state.tokens_at([*labels, *(t.label for t in (around.tiles if around else ()))])
    # Tiles whose forces were read already (for whose turn it is, say) are not read again.
    known = cache_of(state).get("tile_forces", {})
    found = {label: known[label] for label in labels if known.get(label) is not None}
    missing = [label for label in labels if label not in known]
    if missing:
        found.update(_forces_on(state, missing))
    cache_of(state).setdefault("forces", {k: found[k] for k in contested_now if k in found})
    movers = movers_at(state, labels)

    def name(token: mkb.Token) -> str:
        mover = movers.get(token.id)
        return token_title(state, mover) if mover is not None else token.id

    mode = state.options.battle_mode
    busy = {label_of(state, b.tile_id): b for b in pending_battles(state)}
    listed = [contested(state, tf, movers, busy.get(label))
              for label, tf in forces(state).items() if mkb.is_contested(tf)]
    mine: list[dict[str, Any]] = []
    if actor is not None:
        for entry in listed:
            if entry.busy:
                continue
            for chooser, opponents in tile_choices(entry.forces):
                if chooser == actor.pk:
                    mine.append({"label": entry.label,
                                 "options": _choice_options(state, entry.forces, chooser,
                                                            opponents)})
    # MK-LAND-2: armies without a unit on their list, where a Kings of War battle may be chosen
    # or waits to be fought.
    # Read for every contested tile whenever a battle may be fought in Kings of War, so the
    # page costs the same whoever may choose.
    kow_tiles = {b.tile_id for b in pending_battles(state) if is_kow_battle(b)}
    kow_possible = mode == "kow" or state.options.allow_mode_per_battle
    empty = empty_lists(state, {label_of(state, t) for t in kow_tiles} | (
        {entry.label for entry in listed} if kow_possible else set()))
    for entry in mine:
        for option in entry["options"]:
            warned = [n for k, n in empty.get(entry["label"], ()) if k in option["kingdoms"]]
            option["empty"] = empty_list_warning(warned) if option["kow"] else ""
    battles = []
    for battle in month_battles(state):
        label = label_of(state, battle.tile_id)
        data = battle.data or {}
        tf = tile_forces(state, label)
        fighting = [t for t in (tf.tokens if tf else ())
                    if t.kingdom in (battle.chooser_id, battle.opponent_id)]
        defended = data.get("defended")
        offer = data.get("winner_move") or {}
        may_move = bool(offer) and (access.is_gm or bool(
            access.kingdom and access.kingdom.pk == offer.get("kingdom")))
        retreats = [
            {"key": key, **entry, "owner": rows.get(entry["kingdom"])}
            for key, entry in data.get("retreats", {}).items()
            if access.is_gm or (access.kingdom and access.kingdom.pk == entry["kingdom"])
        ]
        waiting = not battle.result_chooser
        battles.append({
            "kow": (kow_view(state, battle, access, True)
                    if waiting and access.is_gm and is_kow_battle(battle) else None),
            "row": battle, "label": label, "chooser": rows.get(battle.chooser_id),
            "opponent": rows.get(battle.opponent_id), "kind": kind_name(battle.kind, battle.mode),
            "slaughter": battle.kind == mkb.BattleKind.SLAUGHTER.value,
            "board": data.get("board"),
            "defended": defended, "defender": rows.get(defended["kingdom"]) if defended else None,
            "tokens": [(t.id, name(t), rows.get(t.kingdom)) for t in fighting],
            "victims": [(t.id, name(t)) for t in fighting
                        if t.kingdom == battle.opponent_id],
            "retreats": retreats,
            "winner_move": winner_move_options(state, battle) if may_move else {},
            "winner_moved": (data.get("winner_move") or {}).get("done"),
            "waiting": waiting,
            "defended_text": defended_text(defended),
            "empty": empty_list_warning(
                [n for k, n in empty.get(label, ())
                 if k in (battle.chooser_id, battle.opponent_id)])
            if waiting and battle.tile_id in kow_tiles else "",
        })
    # The list's items joined here, each already made (``contested``): a template loop over
    # the 48 contested tiles of a large map took 0.2 ms for the joining alone.
    return {"summer_contested": listed,
            "summer_contested_html": mark_safe("".join(c.html for c in listed)),  # noqa: S308
            "summer_battle_choices": mine, "summer_battles": battles}
