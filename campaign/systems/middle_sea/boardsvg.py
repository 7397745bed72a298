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
    city_at,
    controller,
    leader_at,
    port_at,
)

UNIT = 60.0
TILE = 56.0
# Continents sit this much (in spaces) closer to the middle than the map's positions, so the
# table fills a phone's width.
PULL = 0.35
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
              title: str = "The table") -> str:
    """The whole table as one ``<svg>``; ``colours`` maps a player's name to their colour
    (``eco``: greys only, for black-and-white printing). Without a game, the empty table."""
    half = TILE / 2
    parts: list[str] = []
    extent = (3 - PULL) * UNIT + half + 3
    parts.append(
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{-extent:g} {-extent:g} '
        f'{2 * extent:g} {2 * extent:g}" width="100%" role="img" class="msboard" '
        'font-family="sans-serif" text-anchor="middle">'
        f"<title>{escape(title)}</title>"
    )
    sea = (1.5 - PULL) * UNIT + 6
    parts.append(f'<rect x="{-sea:g}" y="{-sea:g}" width="{2 * sea:g}" height="{2 * sea:g}" '
                 f'rx="10" fill="{"#eeeeee" if eco else "#cfe3f3"}" stroke="#6f93b3"/>'
                 f'<text y="4" font-size="11" fill="#35556f">Middle Sea</text>')
    players = {p.continent: p for p in state.players} if state else {}
    # Roads under the tiles, from centre to centre.
    if state is not None:
        for road in state.roads:
            (x1, y1), (x2, y2) = _xy(road.a), _xy(road.b)
            colour = "#000" if eco else _colour(colours.get(road.owner))
            parts.append(f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" '
                         f'stroke="{colour}" stroke-width="7" stroke-linecap="round">'
                         f"<title>{escape(road.owner)}'s road</title></line>")
    for continent in CONTINENTS:
        owner = players.get(continent)
        for pos in POSITIONS:
            name = space(continent, pos)
            parts.append(_space(state, name, owner, colours, eco))
    parts.append("</svg>")
    return "".join(parts)


def _space(state: GameState | None, name: str, owner: object, colours: Mapping[str, str],
           eco: bool) -> str:
    half = TILE / 2
    x, y = _xy(name)
    out = [f'<g transform="translate({x:g} {y:g})" data-space="{escape(name)}">']
    if owner is None or state is None:
        fill = "#f4f4f4" if state is not None else "#f3ecd2"
        out.append(f'<rect x="{-half:g}" y="{-half:g}" width="{TILE:g}" height="{TILE:g}" '
                   f'rx="4" fill="{fill}" stroke="#bbb" stroke-dasharray="3 2"/>')
        out.append(f'<text y="4" font-size="8" fill="#999">{escape(name)}</text>')
        out.append("</g>")
        return "".join(out)
    player = owner  # a rules.state.Player
    suits = SUIT_GREYS if eco else SUIT_COLOURS
    tip = name
    if name == player.capital:  # type: ignore[attr-defined]
        colour = _colour(colours.get(player.name), "#444")  # type: ignore[attr-defined]
        king = player.king.value  # type: ignore[attr-defined]
        out.append(f'<rect x="{-half:g}" y="{-half:g}" width="{TILE:g}" height="{TILE:g}" '
                   f'rx="4" fill="{suits[player.suit]}" stroke="{"#000" if eco else colour}" '
                   'stroke-width="4"/>')
        out.append(f'<text y="2" font-size="10" font-weight="bold">'
                   f'{escape(player.name[:9])}</text>')
        out.append('<text y="13" font-size="7.5">Capital</text>')
        out.append(_coin(f"K{king}", True, "#000" if eco else colour, half))
        tip = f"{name}: Capital of {player.name}, king {king}"
    else:
        city = city_at(state, name)
        if city is None:
            out.append(f'<rect x="{-half:g}" y="{-half:g}" width="{TILE:g}" '
                       f'height="{TILE:g}" rx="4" fill="#fbf7ea" stroke="#b5a77a" '
                       'stroke-dasharray="3 2"/>')
            tip = f"{name}: empty"
        else:
            owner_name = controller(state, name)
            frame = _colour(colours.get(owner_name), "#555") if owner_name else "#8c8c8c"
            if eco and owner_name:
                frame = "#000"
            width = 4 if owner_name else 1
            out.append(f'<rect x="{-half:g}" y="{-half:g}" width="{TILE:g}" '
                       f'height="{TILE:g}" rx="4" fill="{suits[city.suit]}" '
                       f'stroke="{frame}" stroke-width="{width}"/>')
            out.append(f'<text y="4" font-size="20" font-weight="bold">{city.value}</text>')
            out.append(f'<text y="15" font-size="8">{KIND_SHORT[city.kind]}</text>')
            tip = f"{name}: {city.label}" + (f", {owner_name}" if owner_name else
                                                 ", uncontrolled")
            governor = leader_at(state, name)
            if governor is not None:
                who, leader = governor
                colour = "#000" if eco else _colour(colours.get(who))
                out.append(_coin(str(leader.value), leader.active, colour, half))
                tip += (f"; {who}'s {leader.value}-leader, "
                        + ("active" if leader.active else "inactive"))
            port = port_at(state, name)
            if port is not None and is_coastal(name):
                out.append(f'<rect x="{half - 20:g}" y="{half - 12:g}" width="18" '
                           f'height="10" fill="#1d3f8f"/><text x="{half - 11:g}" '
                           f'y="{half - 4:g}" font-size="8" fill="#fff">P{port.piers}</text>')
                tip += f"; port of {port.piers} piers"
    out.append(f'<text y="{-half + 9:g}" x="{-half + 4:g}" font-size="7" '
               f'text-anchor="start" fill="#555">{escape(name)}</text>')
    out.append(f"<title>{escape(tip)}</title></g>")
    return "".join(out)


def _coin(text: str, active: bool, colour: str, half: float) -> str:
    cx, cy = half - 9, -half + 9
    fill = colour if active else "#fff"
    ink = "#fff" if active else colour
    return (f'<circle cx="{cx:g}" cy="{cy:g}" r="8" fill="{fill}" stroke="{colour}" '
            f'stroke-width="2"/><text x="{cx:g}" y="{cy + 3:g}" font-size="8" '
            f'font-weight="bold" fill="{ink}">{escape(text)}</text>')
