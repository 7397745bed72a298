"""The Swords & Stones shell: the hooks the core site calls (see RuleSystem.shell)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from campaign.access import Access
from campaign.models import Campaign, Kingdom, Map, Tile
from campaign.systems.swords_and_stones import pages, services
from campaign.systems.swords_and_stones.sheets import SHEETS  # noqa: F401
from campaign.systems.swords_and_stones.state import CAMPAIGN, PLACEMENT, load
from campaign.systems.swords_and_stones.urls import urlpatterns  # noqa: F401

PHASES = (PLACEMENT, CAMPAIGN)


def initial_clock_fields() -> dict[str, Any]:
    """A new Grand Campaign starts with the placement of the kingdoms (SNS-GC-3); ``year``
    counts the games: the number of the next one."""
    return {"year": 1, "season": "", "month": None, "phase": PLACEMENT, "sub_phase": ""}


def validate_clock(year: int | None, season: str, month: int | None, phase: str,
                   sub_phase: str) -> None:
    """SNS-GC-2..4: placement, then the campaign of challenges; no seasons or months."""
    if phase not in PHASES:
        raise ValueError(f"Phase {phase!r} does not exist: placement or campaign (SNS-GC-3, "
                         "SNS-GC-4).")
    if season or month or sub_phase:
        raise ValueError("A Grand Campaign has no seasons, months or sub-phases (SNS-GC-1).")
    if not year or year < 1:
        raise ValueError("The game count starts at 1 (SNS-GC-1).")


def clock_label(campaign: Campaign) -> str:
    return pages.clock_label(campaign)


def event_clock_label(year: int, season: str, month: int | None, phase: str) -> str:
    """An event's clock in the chronicle: the placement, or the game of the campaign."""
    return "Placement" if phase == PLACEMENT else f"Game {year}"


def advance(campaign: Campaign, user: Any, inputs: Mapping[str, str] | None = None) -> Any:
    """The GM closes placement: the challenges begin (SNS-GC-4)."""
    return services.start_challenges(campaign, user)


def play_context(access: Access) -> dict[str, Any]:
    return {"sns": pages.play_view(access)}


def overview_context(access: Access) -> dict[str, Any]:
    # The standings read the Kings' Titles, not their crate items, and what each kingdom
    # holds, not the rest of the map (SNS-GC-5).
    st = load(access.campaign, crates=False, read_kingdoms=access.memo.get("kingdoms"),
              held_only=True)
    return {"sns_rows": pages.standings(st), "sns_campaign": access.campaign}


def kingdom_context(access: Access, kingdom: Kingdom) -> dict[str, Any]:
    return pages.kingdom_view(access, kingdom)


def initial_tiles(game_map: Map, seed: int | None) -> list[Tile]:
    """SNS-GC-9, SNS-AMB-2: a new campaign of the preset's size without a seed starts on the
    preset Map of Avalon; any other size or a seed gets a generated square map of map types and
    sea. Nothing on these maps waits to be explored."""
    from campaign.rules import geometry, mapgen
    from campaign.systems.swords_and_stones import SYSTEM
    from campaign.systems.swords_and_stones.preset import PRESET_HEIGHT, PRESET_WIDTH, layout

    if seed is None and (game_map.width, game_map.height) == (PRESET_WIDTH, PRESET_HEIGHT):
        grid = geometry.SquareGrid(PRESET_WIDTH, PRESET_HEIGHT)
        terrains = layout()
        return [Tile(map=game_map, q=x, r=y, label=grid.label(x, y), terrain=terrains[(x, y)],
                     explored=True) for x, y in grid.coords()]
    style = SYSTEM.map_style
    if seed is None:
        grid = geometry.make_grid(game_map.kind, game_map.width, game_map.height,
                                  game_map.orientation)
        return [Tile(map=game_map, q=q, r=r, label=grid.label(q, r),
                     terrain=SYSTEM.terrains[0].slug, explored=True)
                for q, r in grid.coords()]
    spec = mapgen.MapGenSpec(
        kind=game_map.kind, width=game_map.width, height=game_map.height,
        orientation=game_map.orientation, terrains=style.generator_terrains,
        water_terrain=style.water_terrain, start_tiles=0, rivers=0, edge_features=False)
    return [Tile(map=game_map, q=t.q, r=t.r, label=t.label, terrain=t.terrain, explored=True)
            for t in mapgen.generate_map(spec, seed)]
