"""The table as a drawing and as the shared map: where each space lies, which places border
each other on the map, and what every space shows at a moment of the game (MS-BOARD-1..6).

The map is a territory map with one territory per space, labelled by the space's name
(``"N-FL"``), plus the Middle Sea in the middle. Borders are the adjacencies of MS-BOARD-4
inside each continent and a sea lane from the Middle Sea to every coastal space (MS-BOARD-5,
MS-MIL-2). Each continent lies on the side of its owner, near row outermost, so that every
player sees their own continent the way round the rules describe it.
"""

from __future__ import annotations

from dataclasses import dataclass

from .board import (
    CAP,
    CONTINENTS,
    FAR_ROW,
    FL,
    FM,
    FR,
    NL,
    NR,
    POSITIONS,
    adjacent,
    is_coastal,
    space,
)
from .state import (
    GameState,
    city_at,
    controller,
    leader_at,
    port_at,
)

SEA = "Sea"
#: Terrains of the map: the Middle Sea, a space of a continent in play, and a space of a
#: continent nobody plays (MS-BOARD-3).
SEA_TERRAIN = "sea"
LAND = "land"
UNUSED = "unused"
CAPITAL_SETTLEMENT = "capital_null"
ROAD = "road"
PORT = "port"

# Where a position lies for the player sitting south, facing north: x to the right, y down;
# the far row (nearest the sea) at y = 2, the near row at y = 3 (MS-BOARD-2).
_LOCAL = {NL: (-1, 3), CAP: (0, 3), NR: (1, 3), FL: (-1, 2), FM: (0, 2), FR: (1, 2)}


def position(name: str) -> tuple[int, int]:
    """MS-BOARD-2, MS-BOARD-3: the drawing position of a space (or the sea at the centre), in
    units of one space. Each continent is the south one turned to face the sea from its side,
    so a player's left is their own left."""
    if name == SEA:
        return (0, 0)
    continent, pos = name.split("-")
    lx, ly = _LOCAL[pos]
    if continent == "S":
        return (lx, ly)
    if continent == "N":
        return (-lx, -ly)
    if continent == "E":
        return (ly, -lx)
    return (-ly, lx)


#: Territories of the map lie this many node widths apart, so that names and counters fit
#: between them.
MAP_SPACING = 2


def map_position(name: str) -> tuple[int, int]:
    """Where a territory is drawn on the shared map: ``position`` spread out by
    ``MAP_SPACING``."""
    x, y = position(name)
    return x * MAP_SPACING, y * MAP_SPACING


def labels() -> tuple[str, ...]:
    """Every territory of the map: the 24 spaces of the four continents and the sea."""
    return tuple(space(c, p) for c in CONTINENTS for p in POSITIONS) + (SEA,)


def borders(name: str) -> tuple[str, ...]:
    """MS-BOARD-4, MS-BOARD-5, MS-MIL-2: the territories a territory borders on the map: the
    spaces adjacent on its continent, and the sea for the coastal ones (the sea borders every
    coastal space)."""
    if name == SEA:
        return tuple(space(c, p) for c in CONTINENTS for p in FAR_ROW)
    found = [other for other in labels() if other != SEA and adjacent(name, other)]
    if is_coastal(name):
        found.append(SEA)
    return tuple(sorted(found))


@dataclass(frozen=True)
class SpaceView:
    """What one territory of the map shows at a moment of the game: terrain, the city's kind
    (or ``capital``), its name, its controller (a player's name), the neighbours a road joins
    it to, and the city's facts for the tile panel."""

    label: str
    terrain: str
    settlement: str = ""
    name: str = ""
    controller: str | None = None
    roads: tuple[str, ...] = ()
    features: tuple[str, ...] = ()
    data: tuple[tuple[str, object], ...] = ()


def board_view(state: GameState) -> dict[str, SpaceView]:
    """MS-TERM-2, MS-CITY-1..5, MS-BUILD-5, MS-BUILD-7: every territory as the table shows it:
    cities with their kind and value, Capitals, who controls what, roads and ports. Continents
    nobody plays are ``unused``."""
    owners = {p.continent: p for p in state.players}
    road_ends: dict[str, set[str]] = {}
    for road in state.roads:
        road_ends.setdefault(road.a, set()).add(road.b)
        road_ends.setdefault(road.b, set()).add(road.a)
    views = {SEA: SpaceView(SEA, SEA_TERRAIN, name="The Middle Sea")}
    for label in labels():
        if label == SEA:
            continue
        continent, pos = label.split("-")
        owner = owners.get(continent)
        if owner is None:
            views[label] = SpaceView(label, UNUSED)
            continue
        roads = tuple(sorted(road_ends.get(label, ())))
        if pos == CAP:
            views[label] = SpaceView(label, LAND, CAPITAL_SETTLEMENT,
                                     f"Capital of {owner.name}", owner.name, roads,
                                     data=(("suit", owner.suit),))
            continue
        city = city_at(state, label)
        if city is None:
            views[label] = SpaceView(label, LAND, roads=roads)
            continue
        port = port_at(state, label)
        governor = leader_at(state, label)
        data: list[tuple[str, object]] = [("suit", city.suit), ("value", city.value)]
        if port is not None:
            data.append(("piers", port.piers))
        if governor is not None:
            data += [("leader", governor[1].value), ("leader_owner", governor[0]),
                     ("leader_active", governor[1].active)]
        views[label] = SpaceView(
            label, LAND, city.kind, city.label, controller(state, label), roads,
            (PORT,) if port is not None else (), tuple(data),
        )
    return views


#: The positions in the order a continent is listed on a player's board: near row, far row.
BOARD_ORDER = (NL, CAP, NR, FL, FM, FR)
