"""War of Kings: board definitions as data (WOK-BOARD-5, WOK-AMB-30).

The printed board's geometry is not in the text, so the app ships its own boards and a GM may
edit them. :func:`hex_realm` is the preset: a hexagon of 37 territories whose middle is the
winter centre (or, on the summer side, impassable mountains), with six crest positions at its
corners, numbered 1 to 6 like the columns of the seating tables (WOK-SETUP-10, WOK-AMB-29).
Each crest has exactly three neighbours: the territory in front (C) and two others (B and D),
so the starting kingdom of WOK-SETUP-4 fits at any of them. :func:`patch` makes a board of any
size for measurements. Positions are drawing positions (integers) for the territory map.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from campaign.systems.war_of_kings.rules.board import (
    CATTLE,
    COLOURS,
    IMPASSABLE,
    NORMAL,
    RESOURCES,
    STONE,
    SUMMER,
    TIMBER,
    WHEAT,
    WINTER,
    WINTER_CENTER,
    MapDef,
    TerritoryDef,
    make_map,
)

_AXIAL_STEPS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))

# Names for the preset's 36 playable territories, in the order the board lists them.
_NAMES = (
    "Ashford", "Barrowmere", "Blackwater", "Bramblecote", "Briarholt", "Cindervale",
    "Coldharbour", "Copperhill", "Dunmoor", "Eastmarch", "Elderglen", "Fallowfield",
    "Fernwick", "Foxhollow", "Glimmerdown", "Greyhaven", "Hartwood", "Hollowmere",
    "Ironbridge", "Kestrelfen", "Larkspur", "Lowfield", "Marrowby", "Millbrook",
    "Northwatch", "Oakenshaw", "Pinecrest", "Ravensgate", "Redmarsh", "Saltmarsh",
    "Stonyford", "Thornbury", "Umberleigh", "Westerholm", "Whitecliff", "Wolfstead",
)


@dataclass(frozen=True)
class Crest:
    """A crest position: its column in the seating tables, the capital and its front (C)."""

    column: int
    capital: str
    front: str


@dataclass(frozen=True)
class Board:
    """A board side as data, with drawing positions and the crest positions."""

    map: MapDef
    positions: dict[str, tuple[int, int]]
    crests: tuple[Crest, ...]
    name: str


def _code(q: int, r: int) -> str:
    return f"T{q + 10:02d}{r + 10:02d}"


def _position(q: int, r: int) -> tuple[int, int]:
    # Pointy-top axial coordinates as whole drawing units: neighbours sit 2 to 2.3 apart.
    return (2 * q + r, 2 * r)


# Emblems of the ring around the centre and of the outer rings, chosen so that every crest
# position starts with the same colours and resources (a fair table, WOK-SETUP-4).
_CAPITAL = (COLOURS[0], CATTLE, TIMBER)
_FRONT = (COLOURS[2], WHEAT, None)
_LEFT = (COLOURS[1], TIMBER, None)
_RIGHT = (COLOURS[3], STONE, None)


def hex_realm(side: str = WINTER) -> Board:
    """WOK-BOARD-2, WOK-BOARD-3, WOK-SETUP-10: the preset board of 37 territories."""
    radius = 3
    cells = [(q, r) for q in range(-radius, radius + 1) for r in range(-radius, radius + 1)
             if abs(q + r) <= radius]
    corners = [(radius * dq, radius * dr) for dq, dr in _AXIAL_STEPS]
    crest_cells = {}
    for column, (q, r) in enumerate(corners, start=1):
        inward = (q - (q > 0) + (q < 0), r - (r > 0) + (r < 0))
        # The front is the neighbour one step towards the centre along the corner's axis.
        fronts = [(q + dq, r + dr) for dq, dr in _AXIAL_STEPS
                  if abs(q + dq) + abs(r + dr) + abs(q + dq + r + dr) == 2 * (radius - 1)
                  and max(abs(q + dq), abs(r + dr), abs(q + dq + r + dr)) == radius - 1]
        front = fronts[0] if fronts else inward
        crest_cells[(q, r)] = (column, front)
    emblem: dict[tuple[int, int], tuple[str, str, str | None]] = {}
    rng = random.Random(37)
    for q, r in cells:
        emblem[(q, r)] = (rng.choice(COLOURS), rng.choice(RESOURCES), None)
    crests = []
    for (q, r), (column, front) in crest_cells.items():
        neighbours = [(q + dq, r + dr) for dq, dr in _AXIAL_STEPS if (q + dq, r + dr) in cells]
        others = [c for c in neighbours if c != front]
        emblem[(q, r)] = _CAPITAL
        emblem[front] = _FRONT
        emblem[others[0]] = _LEFT
        emblem[others[1]] = _RIGHT
        crests.append(Crest(column, _code(q, r), _code(*front)))
    names: dict[tuple[int, int], str] = {}
    for q, r in cells:
        names[(q, r)] = "Peak" if (q, r) == (0, 0) else _NAMES[len(names) - ((q, r) > (0, 0))]
    territories = []
    for q, r in cells:
        code = names[(q, r)]
        if (q, r) == (0, 0):
            kind = WINTER_CENTER if side == WINTER else IMPASSABLE
            name = "Castle Peak" if side == WINTER else "The High Mountains"
            territories.append(TerritoryDef(code, kind=kind, name=name))
            continue
        color, primary, secondary = emblem[(q, r)]
        if secondary is None:
            secondary = RESOURCES[(RESOURCES.index(primary) + 1 + (q - r) % 3) % 4]
        territories.append(TerritoryDef(code, color, primary, secondary, NORMAL, code))
    borders = [(names[(q, r)], names[(q + dq, r + dr)]) for q, r in cells
               for dq, dr in _AXIAL_STEPS[:3] if (q + dq, r + dr) in cells]
    crests = [Crest(c.column, names[_cell(c.capital)], names[_cell(c.front)]) for c in crests]
    return Board(make_map(territories, borders, side),
                 {names[(q, r)]: _position(q, r) for q, r in cells},
                 tuple(sorted(crests, key=lambda c: c.column)),
                 "The Hexagon Realm (" + ("winter" if side == WINTER else "summer") + " side)")


def _cell(code: str) -> tuple[int, int]:
    return int(code[1:3]) - 10, int(code[3:5]) - 10


def patch(width: int, height: int, seed: int = 1, side: str = SUMMER) -> Board:
    """A parallelogram of ``width`` x ``height`` territories (at most 99 x 99) with seeded emblems
    and no crests, labelled like grid tiles (column then row, ``0305``): a blank board to draw
    a group's own map on, and large boards for measurements."""
    if not (0 < width < 100 and 0 < height < 100):
        raise ValueError("A patch is 1 to 99 territories wide and high.")
    rng = random.Random(seed)
    cells = [(q, r) for r in range(height) for q in range(width)]
    territories = []
    for q, r in cells:
        primary = rng.choice(RESOURCES)
        territories.append(TerritoryDef(f"{q + 1:02d}{r + 1:02d}",
                                        rng.choice(COLOURS), primary,
                                        rng.choice([x for x in RESOURCES if x != primary])))
    codes = {(q, r): t.code for (q, r), t in zip(cells, territories, strict=True)}
    borders = [(codes[(q, r)], codes[(q + dq, r + dr)]) for q, r in cells
               for dq, dr in _AXIAL_STEPS[:3] if (q + dq, r + dr) in codes]
    return Board(make_map(territories, borders, side),
                 {codes[c]: _position(*c) for c in cells}, (), f"{width} x {height} patch")


__all__ = ["SUMMER", "WINTER", "Board", "Crest", "hex_realm", "patch"]
