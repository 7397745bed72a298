"""The table of the Middle Sea drawn as SVG, for the play page and the printed board.

Each continent is its 2 x 3 spaces on the side of its owner (``rules.layout.position``), the
Middle Sea in the middle. A city shows its value and kind in its suit's colour, the Capital its
owner's suit; a coloured frame is the controller, a coin the leader governing it (filled when
active, a ring when inactive, "K" for the king), a bar with a number the port's piers, and a line
between two spaces a road in its owner's colour. Everything is plain fills and strokes, so the
print renderer draws it the same; text is escaped.
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape

from campaign.systems.middle_sea.rules import layout
from campaign.systems.middle_sea.rules.board import CONTINENTS, POSITIONS, is_coastal, space
from campaign.systems.middle_sea.rules.state import (
    GameState,
    Player,
    city_at,
    controller,
    leader_at,
    port_at,
)

UNIT = 60.0
TILE = 54.0
# Continents could sit this much (in spaces) closer to the middle than the map's positions;
# any more than none and the corners of neighbouring continents overlap.
PULL = 0.0
SUIT_COLOURS = {"suns": "#f2c14e", "moons": "#b9c6d8", "crowns": "#c9a25b", "arms": "#d9776a"}
SUIT_GREYS = {"suns": "#f2f2f2", "moons": "#d6d6d6", "crowns": "#bdbdbd", "arms": "#a6a6a6"}
KIND_SHORT = {"garrison": "garrison", "market": "market", "temple": "temple", "mine": "mine"}


def _xy(name: str) -> tuple[float, float]:
    x, y = layout.position(name)
    if abs(y) >= 2:
        y -= PULL if y > 0 else -PULL
    if abs(x) >= 2:
        x -= PULL if x > 0 else -PULL
    return x * UNIT, y * UNIT


def _colour(value: str | None, fallback: str = "#444") -> str:
    text = value or ""
    if len(text) in (4, 7) and text.startswith("#") and all(
            c in "0123456789abcdefABCDEF" for c in text[1:]):
        return text
    return fallback


def board_svg(state: GameState | None, colours: Mapping[str, str], *, eco: bool = False,
              title: str = "The table", width: str = "100%") -> str:
    """The whole table as one ``<svg>``; ``colours`` maps a player's name to their colour
    (``eco``: greys only, for black-and-white printing). Without a game, the empty table.
    ``width`` is the drawing's width (a page's style keeps it within the screen)."""
    half = TILE / 2
    parts: list[str] = []
    extent = (3 - PULL) * UNIT + half + 3
    parts.append(
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{-extent:g} {-extent:g} '
        f'{2 * extent:g} {2 * extent:g}" width="{escape(width)}" role="img" class="msboard" '
        'font-family="sans-serif" text-anchor="middle">'
        f"<title>{escape(title)}</title>"
    )
    sea = (2 - PULL) * UNIT - TILE / 2 - 5
    parts.append(f'<rect x="{-sea:g}" y="{-sea:g}" width="{2 * sea:g}" height="{2 * sea:g}" '
                 f'rx="10" fill="{"#eeeeee" if eco else "#cfe3f3"}" stroke="#6f93b3"/>'
                 f'<text y="4" font-size="11" fill="#35556f">Middle Sea</text>')
    players = {p.continent: p for p in state.players} if state else {}
    drawn = [_space(state, space(continent, pos), players.get(continent), colours, eco)
             for continent in CONTINENTS for pos in POSITIONS]
    parts.extend(back for back, _ in drawn)
    # Roads over the tiles' faces and under what stands on them: the middle part of the line
    # between two centres, across the gap where the tiles meet, cased in white.
    if state is not None:
        for road in state.roads:
            (x1, y1), (x2, y2) = _xy(road.a), _xy(road.b)
            ax, ay = x1 + (x2 - x1) * 0.28, y1 + (y2 - y1) * 0.28
            bx, by = x1 + (x2 - x1) * 0.72, y1 + (y2 - y1) * 0.72
            colour = "#000" if eco else _colour(colours.get(road.owner))
            line = f'x1="{ax:g}" y1="{ay:g}" x2="{bx:g}" y2="{by:g}" stroke-linecap="round"'
            parts.append(f'<line {line} stroke="#fff" stroke-width="10"/>'
                         f'<line {line} stroke="{colour}" stroke-width="6">'
                         f"<title>{escape(road.owner)}'s road</title></line>")
    parts.extend(front for _, front in drawn)
    parts.append("</svg>")
    return "".join(parts)


def _rect(fill: str, stroke: str, width: float = 1, dashed: bool = False) -> str:
    half = TILE / 2
    dash = ' stroke-dasharray="3 2"' if dashed else ""
    return (f'<rect x="{-half:g}" y="{-half:g}" width="{TILE:g}" height="{TILE:g}" rx="4" '
            f'fill="{fill}" stroke="{stroke}" stroke-width="{width:g}"{dash}/>')


def _space(state: GameState | None, name: str, owner: Player | None,
           colours: Mapping[str, str], eco: bool) -> tuple[str, str]:
    """A space as (its tile, what is written and stands on it), drawn in two passes so that
    roads run between them."""
    half = TILE / 2
    x, y = _xy(name)
    move = f'transform="translate({x:g} {y:g})"'
    back: list[str] = []
    front: list[str] = []
    tip = name
    label = (f'<text y="{-half + 9:g}" x="{-half + 4:g}" font-size="7" text-anchor="start" '
             f'fill="#555">{escape(name)}</text>')
    suits = SUIT_GREYS if eco else SUIT_COLOURS
    if owner is None or state is None:
        back.append(_rect("#f4f4f4" if state is not None else "#f3ecd2", "#bbb", dashed=True))
        front.append(f'<text y="4" font-size="8" fill="#999">{escape(name)}</text>')
        label = ""
        tip = f"{name}: out of play" if state is not None else name
    elif name == owner.capital:
        colour = _colour(colours.get(owner.name), "#444")
        king = owner.king.value
        back.append(_rect(suits[owner.suit], "#000" if eco else colour, 4))
        short = owner.name[:12]
        size = min(10.0, round(44 / (0.62 * max(1, len(short))), 1))
        front.append(f'<text y="2" font-size="{size:g}" font-weight="bold">'
                     f'{escape(short)}</text>')
        front.append('<text y="13" font-size="7.5">Capital</text>')
        front.append(_coin(f"K{king}", True, "#000" if eco else colour, half))
        tip = f"{name}: Capital of {owner.name}, king {king}"
    else:
        city = city_at(state, name)
        if city is None:
            back.append(_rect("#fbf7ea", "#b5a77a", dashed=True))
            tip = f"{name}: empty"
        else:
            who = controller(state, name)
            frame = _colour(colours.get(who), "#555") if who else "#8c8c8c"
            back.append(_rect(suits[city.suit], "#000" if eco and who else frame,
                              4 if who else 1))
            front.append(f'<text y="5" font-size="20" font-weight="bold">{city.value}</text>')
            front.append(f'<text y="16" font-size="8">{KIND_SHORT[city.kind]}</text>')
            tip = f"{name}: {city.label}" + (f", {who}" if who else ", uncontrolled")
            governor = leader_at(state, name)
            if governor is not None:
                holder, leader = governor
                colour = "#000" if eco else _colour(colours.get(holder))
                front.append(_coin(str(leader.value), leader.active, colour, half))
                tip += (f"; {holder}'s {leader.value}-leader, "
                        + ("active" if leader.active else "inactive"))
            port = port_at(state, name)
            if port is not None and is_coastal(name):
                front.append(f'<rect x="{half - 20:g}" y="{half - 12:g}" width="18" '
                             f'height="10" fill="#1d3f8f"/><text x="{half - 11:g}" '
                             f'y="{half - 4:g}" font-size="8" fill="#fff">P{port.piers}</text>')
                tip += f"; port of {port.piers} piers"
    return (f'<g {move}>{"".join(back)}</g>',
            f'<g {move} data-space="{escape(name)}"><title>{escape(tip)}</title>{label}'
            f'{"".join(front)}</g>')


def _coin(text: str, active: bool, colour: str, half: float) -> str:
    cx, cy = half - 9, -half + 9
    fill = colour if active else "#fff"
    ink = "#fff" if active else colour
    return (f'<circle cx="{cx:g}" cy="{cy:g}" r="8" fill="{fill}" stroke="{colour}" '
            f'stroke-width="2"/><text x="{cx:g}" y="{cy + 3:g}" font-size="8" '
            f'font-weight="bold" fill="{ink}">{escape(text)}</text>')
