"""Load a Mighty Kingdoms campaign from the database into the rules' plain data.

The rules (campaign/rules/mighty_kingdoms.py, ledger/rules/, battles/rules/) never see a model:
services call ``load_state`` once, in a fixed number of queries, and pass its dataclasses on.
With ``lock=True`` the campaign row is locked first (``select_for_update``), so two requests that
change the same campaign run one after the other.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from battles.models import Army, Ship
from campaign.models import Campaign, Kingdom, Tile
from campaign.rules import mighty_kingdoms as mk
from campaign.services import grid_for

WATER_TERRAINS = frozenset({"open_water"})


@dataclass
class MKState:
    """One campaign as the rules see it, plus the rows it came from (for writing back)."""

    campaign: Campaign
    options: mk.MKOptions
    clock: mk.Clock
    map: mk.MapView
    kingdoms: dict[int, mk.Kingdom]
    armies: list[mk.Army]
    ships: list[mk.Ship]
    order: list[int]
    tile_rows: dict[str, Tile] = field(repr=False)
    kingdom_rows: dict[int, Kingdom] = field(repr=False)
    army_rows: dict[int, Army] = field(repr=False)
    ship_rows: dict[int, Ship] = field(repr=False)

    def armies_of(self, kingdom_id: int) -> list[mk.Army]:
        return [a for a in self.armies if a.kingdom == kingdom_id]

    def ships_of(self, kingdom_id: int) -> list[mk.Ship]:
        return [s for s in self.ships if s.kingdom == kingdom_id]

    def movers_of(self, kingdom_id: int) -> tuple[mk.Mover, ...]:
        return mk.movers(self.armies_of(kingdom_id), self.ships_of(kingdom_id))

    def tile_by_pk(self, pk: int | None) -> Tile | None:
        if pk is None:
            return None
        return next((t for t in self.tile_rows.values() if t.pk == pk), None)


def clock_of(campaign: Campaign) -> mk.Clock:
    """The rules' clock; during setup, the first clock of play that setup leads into."""
    if campaign.season == "setup":
        return mk.initial_clock()
    return mk.Clock(campaign.year, campaign.season or mk.SUMMER, campaign.month,
                    campaign.phase or "A", campaign.sub_phase or "")


def tile_state(tile: Tile, edges: tuple[mk.EdgeView, ...]) -> mk.TileState:
    features = set(tile.features)
    sides = {f for feats in tile.edges.values() for f in feats}
    data = tile.data or {}
    return mk.TileState(
        label=tile.label,
        terrain=tile.terrain,
        settlement=tile.settlement,
        controller=tile.controller_id,
        explored=tile.explored,
        is_start=tile.is_start,
        has_river="river" in features or "river" in sides,
        is_coastal="coast" in features or "coast" in sides,
        is_open_water=tile.terrain in WATER_TERRAINS,
        is_marsh=tile.terrain == "marsh",
        has_forest=tile.terrain == "forest",
        has_mountains=tile.terrain == "mountains",
        wizard_tower=bool(data.get("wizard_tower")),
        raze_pending=bool(data.get("raze_pending")),
        edges=edges,
    )


def build_map(campaign: Campaign, tiles: list[Tile]) -> mk.MapView:
    """Tiles with their shared edges: each side's features, seen from both tiles."""
    grid = grid_for(campaign.map, tiles)
    by_pos = {(t.q, t.r): t for t in tiles}
    sides = 6 if campaign.map.kind == "hex" else 4
    # Direction offsets and opposites once per map, not once per edge: this runs on every action.
    steps = [grid.step(0, 0, d) for d in range(sides)]
    opposite = [str(grid.opposite(d)) for d in range(sides)]
    empty: frozenset[str] = frozenset()
    states = []
    for tile in tiles:
        edges = []
        tile_edges = tile.edges
        for d, (dq, dr) in enumerate(steps):
            neighbour = by_pos.get((tile.q + dq, tile.r + dr))
            if neighbour is None:
                continue
            this_side = tile_edges.get(str(d))
            other_side = neighbour.edges.get(opposite[d])
            edges.append(
                mk.EdgeView(
                    neighbour.label,
                    frozenset(this_side) & mk.EDGE_FEATURES if this_side else empty,
                    frozenset(other_side) & mk.EDGE_FEATURES if other_side else empty,
                )
            )
        states.append(tile_state(tile, tuple(edges)))
    return mk.MapView(tuple(states))


def load_state(campaign: Campaign, *, lock: bool = False) -> MKState:
    if lock:
        campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    tiles = list(Tile.objects.filter(map__campaign=campaign).select_related(None))
    labels = {t.pk: t.label for t in tiles}
    kingdom_rows = {k.pk: k for k in Kingdom.objects.filter(campaign=campaign)}
    kingdoms = {
        k.pk: mk.Kingdom(k.pk, k.name, labels.get(k.start_tile_id, ""),
                         labels.get(k.capital_tile_id))
        for k in kingdom_rows.values()
    }
    army_rows = {a.pk: a for a in Army.objects.filter(campaign=campaign, tile__isnull=False)}
    ship_rows = {s.pk: s for s in Ship.objects.filter(campaign=campaign, tile__isnull=False)}
    paired = {s.paired_army_id: s.pk for s in ship_rows.values() if s.paired_army_id}
    armies = [
        mk.Army(a.pk, a.kingdom_id, a.number, labels[a.tile_id], on_side=a.on_side,
                defending=a.defending, paired_ship=paired.get(a.pk), points=a.points,
                is_allied=a.is_allied)
        for a in army_rows.values()
    ]
    ships = [
        mk.Ship(s.pk, s.kingdom_id, s.number, labels[s.tile_id], on_side=s.on_side,
                paired_army=s.paired_army_id)
        for s in ship_rows.values()
    ]
    order = [k.pk for k in sorted(kingdom_rows.values(),
                                  key=lambda k: (k.order_position is None, k.order_position or 0,
                                                 k.name))]
    return MKState(
        campaign=campaign,
        options=mk.MKOptions.from_dict(campaign.options),
        clock=clock_of(campaign),
        map=build_map(campaign, tiles),
        kingdoms=kingdoms,
        armies=armies,
        ships=ships,
        order=order,
        tile_rows={t.label: t for t in tiles},
        kingdom_rows=kingdom_rows,
        army_rows=army_rows,
        ship_rows=ship_rows,
    )
