"""The War of Kings shell: the hooks the core site calls (see RuleSystem.shell)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from campaign import mapsvg
from campaign.access import Access
from campaign.kept_sql import kept_values
from campaign.models import Campaign, Kingdom, Map, Tile
from campaign.systems.war_of_kings import services, views
from campaign.systems.war_of_kings import state as st
from campaign.systems.war_of_kings.models import Army
from campaign.systems.war_of_kings.rules import board as wb
from campaign.systems.war_of_kings.rules.boards import hex_realm, patch
from campaign.systems.war_of_kings.sheets import SHEETS  # noqa: F401
from campaign.systems.war_of_kings.urls import urlpatterns  # noqa: F401

_PHASES = (st.SETUP, *wb.CONSTRUCTION_STEPS, *wb.TURN_PHASES, wb.END_OF_ROUND, st.GAME_OVER)


def initial_clock_fields() -> dict[str, Any]:
    """A new campaign starts at setup, before round 1 (WOK-SETUP-1..9)."""
    return {"year": 1, "season": "", "month": None, "phase": st.SETUP, "sub_phase": ""}


def validate_clock(year: Any, season: str, month: Any, phase: str, sub_phase: str) -> None:
    """A War of Kings clock is a round (the year field, from 1) and a phase or step."""
    if not isinstance(year, int) or year < 1:
        raise ValueError("the round must be 1 or more")
    if phase not in _PHASES:
        raise ValueError(f"{phase!r} is not a War of Kings phase")


def clock_label(campaign: Campaign) -> str:
    return services.clock_label(campaign)


def event_clock_label(year: int, season: str, month: int | None, phase: str) -> str:
    """An event's clock in the chronicle: set-up, or the round and its phase (WOK-TURN)."""
    if phase in ("", st.SETUP):
        return "Setup"
    return f"R{year} {services.phase_name(phase)}"


def initial_tiles(game_map: Map, seed: int | None) -> list[Tile]:
    """WOK-BOARD-5, WOK-AMB-30: a new campaign starts on the preset board (the winter side), or,
    when a width and height are asked for, on a blank patch of that many territories with
    seeded emblems; the GM may redraw either in the map editor before setup."""
    if game_map.width and game_map.height:
        board = patch(min(game_map.width, 99), min(game_map.height, 99), seed or 1)
    else:
        board = hex_realm()
    tiles = []
    for terr in board.map.territories:
        x, y = board.positions[terr.code]
        terrain = {wb.WINTER_CENTER: "peak", wb.IMPASSABLE: "mountains"}.get(terr.kind,
                                                                           terr.color or "red")
        data = {k: v for k, v in (("primary", terr.primary), ("secondary", terr.secondary)) if v}
        tiles.append(Tile(map=game_map, q=x, r=y, label=terr.code,
                          name=terr.name if terr.name != terr.code else "",
                          terrain=terrain, adjacent=sorted(board.map.neighbours(terr.code)),
                          data=data))
    return tiles


def advance(campaign: Campaign, user: Any, inputs: Mapping[str, str] | None = None) -> Any:
    """The GM closes the current step; at Resource Generation ``inputs`` may carry the three
    colours the table rolled (``dice``), else the server rolls them."""
    return services.advance(campaign, user, dice=views.dice_from(inputs or {}))


def play_context(access: Access) -> dict[str, Any]:
    return views.play_context(access)


def overview_context(access: Access) -> dict[str, Any]:
    """The standings (WOK-WIN), read with the kingdoms the overview has already read and without
    the armies and stockpiles, which they do not show."""
    loaded = st.load(access.campaign, read_kingdoms=access.memo.get("kingdoms"),
                     board_only=True)
    if not loaded.started:
        return {}
    rows, table = views.standings_parts(loaded)
    return {"wok_standings": rows, "wok_standings_html": table,
            "target": loaded.options.ap_target}


def kingdom_context(access: Access, kingdom: Kingdom) -> dict[str, Any]:
    return views.kingdom_context(access, kingdom)


def map_markers(campaign: Campaign, kingdoms: Mapping[int, Kingdom]) -> list[tuple[int, Any]]:
    """Army counters (WOK-ARMY-1): the number, unready ones marked with a dash, damage as dots;
    Malador armies in orange."""
    markers = []
    rows = kept_values(("wok.army_markers",), _army_markers, campaign.pk)
    for number, owner_id, tile_id, ready, damage in rows:
        owner = kingdoms.get(owner_id) if owner_id else None
        colour = owner.colour if owner is not None else "#e07b20"
        text = f"{number}{'' if ready else '-'}{'•' * damage}"
        title = (f"{owner.name if owner else 'Malador'} army {number}, "
                 f"{'ready' if ready else 'unready'}, {damage} damage")
        markers.append((tile_id, mapsvg.Marker(text, colour, "army", title)))
    return markers


def _army_markers(campaign_id: int) -> Any:
    return Army.objects.filter(campaign_id=campaign_id).values_list(
        "number", "owner_id", "tile_id", "ready", "damage")


def tile_tokens(tile: Tile) -> list[dict[str, str]]:
    """The armies in a territory, for its panel's "Here now"."""
    rows = Army.objects.filter(tile=tile).select_related("owner")
    return [{"colour": a.owner.colour if a.owner else "#e07b20",
             "text": f"{a.owner.name if a.owner else 'Malador'} army {a.number}: "
                     f"{'ready' if a.ready else 'unready'}, {a.damage} damage"} for a in rows]
