"""Grow a campaign to ``factor`` times its size, for the benchmarks and the query-bound tests.

``grow(campaign, 16)`` repeats what the campaign holds fifteen more times beside it: the map
(a grid map becomes 4 x 4 copies of itself, a territory board 16 boards side by side, each
copy's neighbours its own), the kingdoms (unclaimed copies, with their per-system data and the
rows of every model that belongs to a kingdom of the campaign and to nothing else that is not
copied, such as kings, ledger balances, purchases), each copy's territory, armies with their
lists and units, and the chronicle (each event copied, the copies before the originals so the
latest event stays the latest). The
players and their kingdoms stay as they were: a player's pages show a campaign sixteen times
larger around the same kingdom.

A row of a per-kingdom model that cannot be copied as is (a constraint that wants it unique per
campaign) is left out, and named in the returned summary.
"""

from __future__ import annotations

import math
from copy import deepcopy
from typing import Any

from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import DatabaseError, IntegrityError, models, transaction

from battles.models import Army, ArmyList, Unit
from campaign.models import Campaign, Event, Kingdom, Map, Tile
from campaign.rules import geometry

TERRITORY_STEP = 40  # drawing units between copies of a territory board


def _grid_places(game_map: Map, side: int, copy: int, tiles: list[Tile]) -> dict[int, tuple]:
    """(q, r, label) of each tile in copy ``copy`` of a grid map grown ``side`` x ``side``."""
    small = geometry.make_grid(game_map.kind, game_map.width, game_map.height,
                               game_map.orientation)
    big = geometry.make_grid(game_map.kind, game_map.width * side, game_map.height * side,
                             game_map.orientation)
    bx, by = copy % side, copy // side
    places = {}
    for tile in tiles:
        col, row = small.offset(tile.q, tile.r) if hasattr(small, "offset") else (tile.q, tile.r)
        col, row = col + bx * game_map.width, row + by * game_map.height
        q, r = big.from_offset(col, row) if hasattr(big, "from_offset") else (col, row)
        places[tile.pk] = (q, r, big.label(q, r))
    return places


def _territory_places(side: int, copy: int, tiles: list[Tile]) -> dict[int, tuple]:
    bx, by = copy % side, copy // side
    return {t.pk: (t.q + bx * TERRITORY_STEP, t.r + by * TERRITORY_STEP, f"{t.label}~{copy + 1}")
            for t in tiles}


def _grow_map(game_map: Map, side: int, kingdom_of: list[dict[int, Kingdom]]
              ) -> list[dict[int, Tile]]:
    """The copies of the map's tiles: for each copy, source tile id -> its new tile."""
    tiles = list(game_map.tiles.order_by("pk"))
    copies: list[dict[int, Tile]] = [{t.pk: t for t in tiles}]
    territory = game_map.kind == "territory"
    for copy in range(1, side * side):
        places = (_territory_places(side, copy, tiles) if territory
                  else _grid_places(game_map, side, copy, tiles))
        renamed = {t.label: places[t.pk][2] for t in tiles}
        made = []
        for t in tiles:
            q, r, label = places[t.pk]
            made.append(Tile(
                map=game_map, q=q, r=r, label=label, name=t.name, terrain=t.terrain,
                features=deepcopy(t.features),
                edges=({renamed.get(k, k): v for k, v in t.edges.items()} if territory
                       else deepcopy(t.edges)),
                adjacent=[renamed.get(a, a) for a in t.adjacent], settlement=t.settlement,
                controller=kingdom_of[copy].get(t.controller_id) if t.controller_id else None,
                explored=t.explored, is_start=t.is_start, data=deepcopy(t.data)))
        Tile.objects.bulk_create(made)
        copies.append({t.pk: m for t, m in zip(tiles, made, strict=True)})
    if not territory:
        game_map.width *= side
        game_map.height *= side
        game_map.save(update_fields=["width", "height"])
    return copies


def _copy_row(row: models.Model, changes: dict[str, Any]) -> models.Model:
    copy = deepcopy(row)
    copy.pk = None
    copy._state.adding = True
    for name, value in changes.items():
        setattr(copy, name, value)
    return copy


def _grow_kingdom_rows(campaign: Campaign, kingdom_of: list[dict[int, Kingdom]],
                       tile_of: list[dict[int, Tile]], summary: dict[str, int]) -> None:
    """Rows of every other model with a ``kingdom`` key to a kingdom of the campaign, copied
    to the kingdom's copies (other keys to kingdoms and tiles follow into the same copy)."""
    skip = {Kingdom, Tile, Event, Army, ArmyList, Unit}
    for model in apps.get_models():
        if model in skip:
            continue
        field = next((f for f in model._meta.concrete_fields
                      if isinstance(f, models.ForeignKey) and f.name == "kingdom"
                      and f.related_model is Kingdom), None)
        if field is None:
            continue
        try:
            with transaction.atomic():
                rows = list(model.objects.filter(kingdom__campaign=campaign))
        except DatabaseError:  # a model whose table this database does not have yet
            continue
        if not rows:
            continue
        keys = [f for f in model._meta.concrete_fields if isinstance(f, models.ForeignKey)
                and f.related_model in (Kingdom, Tile)]
        # A row tied to something that is not copied (a game, a battle, an army) stays with
        # it: a copied kingdom does not join the original's game.
        others = [f for f in model._meta.concrete_fields if isinstance(f, models.ForeignKey)
                  and f.related_model not in (Kingdom, Tile, Campaign, get_user_model())]
        rows = [r for r in rows if all(getattr(r, f.attname) is None for f in others)]
        try:
            with transaction.atomic():
                made = []
                for copy in range(1, len(kingdom_of)):
                    for row in rows:
                        changes = {}
                        for key in keys:
                            value = getattr(row, key.attname)
                            table = kingdom_of if key.related_model is Kingdom else tile_of
                            if value is not None and value in table[copy]:
                                changes[key.name] = table[copy][value]
                        made.append(_copy_row(row, changes))
                model.objects.bulk_create(made)
            summary[model._meta.label] = len(made)
        except IntegrityError:
            summary[f"{model._meta.label} (left out)"] = 0


def _grow_armies(campaign: Campaign, kingdom_of: list[dict[int, Kingdom]],
                 tile_of: list[dict[int, Tile]]) -> int:
    armies = list(Army.objects.filter(campaign=campaign).order_by("pk"))
    lists = {a.army_id: a for a in ArmyList.objects.filter(army__campaign=campaign)}
    units: dict[int, list[Unit]] = {}
    for unit in Unit.objects.filter(army_list__army__campaign=campaign).order_by("pk"):
        units.setdefault(unit.army_list_id, []).append(unit)
    made = 0
    for copy in range(1, len(kingdom_of)):
        new = [_copy_row(a, {"kingdom": kingdom_of[copy][a.kingdom_id],
                             "tile": tile_of[copy].get(a.tile_id) if a.tile_id else None})
               for a in armies]
        Army.objects.bulk_create(new)
        made += len(new)
        new_lists = {a.pk: _copy_row(lists[a.pk], {"army": n, "revealed_at_battle": None})
                     for a, n in zip(armies, new, strict=True) if a.pk in lists}
        ArmyList.objects.bulk_create(list(new_lists.values()))
        Unit.objects.bulk_create([
            _copy_row(u, {"army_list": new_lists[army_id]})
            for army_id, army_list in new_lists.items()
            for u in units.get(lists[army_id].pk, [])])
    return made


def _grow_chronicle(campaign: Campaign, factor: int) -> int:
    """Each event copied ``factor - 1`` times, numbered before the originals."""
    events = list(Event.objects.filter(campaign=campaign).order_by("seq"))
    if not events:
        return 0
    extra = len(events) * (factor - 1)
    # Two steps, so no two rows share a number on the way (the number is unique per campaign
    # and positive): first above every number in use, then down to their new places.
    top = events[-1].seq
    Event.objects.filter(campaign=campaign).update(seq=models.F("seq") + top + extra)
    Event.objects.filter(campaign=campaign).update(seq=models.F("seq") - top)
    made = []
    for n in range(extra):
        source = events[n % len(events)]
        made.append(_copy_row(source, {"seq": n + 1, "undo_of": None, "undone_by": None,
                                       "undone_at": None}))
    Event.objects.bulk_create(made, batch_size=500)
    return extra


def grow(campaign: Campaign, factor: int = 16) -> dict[str, int]:
    """Make ``campaign`` ``factor`` times larger (a square number: 4, 16, ...); what was made,
    by model."""
    side = math.isqrt(factor)
    if side * side != factor or factor < 1:
        raise ValueError("The factor is a square number (4, 16, 64).")
    summary: dict[str, int] = {}
    with transaction.atomic():
        kingdoms = list(Kingdom.objects.filter(campaign=campaign).order_by("pk"))
        count = len(kingdoms)
        kingdom_of: list[dict[int, Kingdom]] = [{k.pk: k for k in kingdoms}]
        for copy in range(1, factor):
            made = [Kingdom(
                campaign=campaign, name=f"{k.name} {copy + 1}", colour=k.colour,
                order_position=None if k.order_position is None
                else k.order_position + copy * count, data=deepcopy(k.data))
                for k in kingdoms]
            Kingdom.objects.bulk_create(made)
            kingdom_of.append({k.pk: m for k, m in zip(kingdoms, made, strict=True)})
        summary["kingdoms"] = count * (factor - 1)
        game_map = Map.objects.filter(campaign=campaign).first()
        tile_of: list[dict[int, Tile]] = [{} for _ in range(factor)]
        if game_map is not None:
            tile_of = _grow_map(game_map, side, kingdom_of)
            summary["tiles"] = sum(len(t) for t in tile_of[1:])
            for copy in range(1, factor):
                changed = []
                for k in kingdoms:
                    clone = kingdom_of[copy][k.pk]
                    clone.start_tile = tile_of[copy].get(k.start_tile_id)
                    clone.capital_tile = tile_of[copy].get(k.capital_tile_id)
                    changed.append(clone)
                Kingdom.objects.bulk_update(changed, ["start_tile", "capital_tile"])
        summary["armies"] = _grow_armies(campaign, kingdom_of, tile_of)
        summary["events"] = _grow_chronicle(campaign, factor)
        _grow_kingdom_rows(campaign, kingdom_of, tile_of, summary)
    return summary
