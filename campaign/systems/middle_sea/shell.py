"""The Middle Sea shell: the hooks the core site calls (see RuleSystem.shell)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from campaign import mapsvg
from campaign.access import Access
from campaign.models import Campaign, Kingdom, Map, Tile
from campaign.systems.middle_sea import pages
from campaign.systems.middle_sea import services as ms
from campaign.systems.middle_sea.game import Acting, read_game
from campaign.systems.middle_sea.rules.state import PHASES, SETUP
from campaign.systems.middle_sea.sheets import SHEETS  # noqa: F401
from campaign.systems.middle_sea.urls import urlpatterns  # noqa: F401

CLOCK_PHASES = (SETUP, *PHASES, "ended")


def initial_clock_fields() -> dict[str, Any]:
    """A new campaign waits for the GM to set the game up (MS-SETUP)."""
    return {"year": 1, "season": "", "month": None, "phase": SETUP, "sub_phase": ""}


def clock_label(campaign: Campaign) -> str:
    """MS-ROUND-1: the round and its phase, e.g. "Round 3, build phase"."""
    return pages.clock_label_of(campaign.year, campaign.phase)


def event_clock_label(year: int, season: str, month: int | None, phase: str) -> str:
    """An event's clock in the chronicle (MS-ROUND-1): set-up, or the round and its phase."""
    if phase in ("", SETUP):
        return "Setup"
    return f"R{year} {pages.PHASE_NAMES.get(phase, phase).lower()}"


def validate_clock(year: int | None, season: str, month: int | None, phase: str,
                   sub_phase: str) -> None:
    """MS-ROUND-1: a round from 1 on, in one of its five phases (or setting up, or over);
    no seasons or months."""
    if not isinstance(year, int) or year < 1:
        raise ValueError("Rounds are counted from 1.")
    if phase not in CLOCK_PHASES:
        raise ValueError(f"There is no {phase!r} phase in a round (MS-ROUND-1).")
    if season or month:
        raise ValueError("A game of the Middle Sea has rounds, not seasons or months.")


def initial_tiles(game_map: Map, seed: int | None) -> list[Tile]:
    """MS-BOARD-1..5: the table, laid out as data (the seed changes nothing)."""
    return ms.layout_tiles(game_map)


def play_context(access: Access) -> dict[str, Any]:
    return pages.play_context(access)


def overview_context(access: Access) -> dict[str, Any]:
    return pages.overview_context(access)


def kingdom_context(access: Access, kingdom: Kingdom) -> dict[str, Any]:
    return pages.kingdom_context(access, kingdom)


def advance(campaign: Campaign, user: Any, inputs: Mapping[str, str] | None = None) -> Any:
    """The GM ends the turn of the player to act (the same rules as their own *End turn*)."""
    return ms.end_turn(campaign, Acting(user, True, None))


def map_markers(campaign: Campaign, kingdoms: Mapping[int, Kingdom]) -> list[tuple[int, Any]]:
    """Leaders on the map: "K" and the value for a king, the value for an active leader, the
    value in brackets for an inactive one (MS-LEADER-2), in the owner's colour."""
    loaded = read_game(campaign, kingdoms.values())
    if loaded is None:
        return []
    # Only the spaces a leader stands on are looked up.
    places = {p.capital for p in loaded.state.players if p.capital}
    places.update(leader.place for p in loaded.state.players for leader in p.leaders
                  if leader.place != "capital" and leader.in_city)
    tiles = dict(Tile.objects.filter(map__campaign=campaign, label__in=sorted(places))
                 .values_list("label", "id")) if places else {}
    found = []
    for p in loaded.state.players:
        kingdom = loaded.kingdoms.get(p.name)
        colour = kingdom.colour if kingdom is not None else ""
        for leader in p.leaders:
            if leader.place == "capital":
                label, text = p.capital, f"K{leader.value}"
            elif leader.in_city:
                label = leader.place
                text = str(leader.value) if leader.active else f"({leader.value})"
            else:
                continue
            if label in tiles:
                state = "king" if text.startswith("K") else (
                    "active" if leader.active else "inactive")
                found.append((tiles[label], mapsvg.Marker(
                    text, colour, "leader", f"{p.name}'s {leader.value}-leader ({state})")))
    return found


def tile_tokens(tile: Tile) -> list[dict[str, str]]:
    """What stands on a space: the city, its controller, leader and port (tile panel)."""
    loaded = read_game(tile.map.campaign)
    if loaded is None:
        return []
    return pages.tile_lines(loaded, tile.label)


def whose_turn(campaign: Campaign) -> list[int]:
    """The kingdoms expected to act now: a defender who must answer an attack, the owner of a
    rebellion, the player in 1st ordering ties, or the player whose turn it is (MS-ROUND-2)."""
    loaded = read_game(campaign)
    if loaded is None or loaded.state.ended:
        return []
    name = pages.expected_actor(loaded)
    kingdom = loaded.kingdoms.get(name) if name else None
    return [kingdom.pk] if kingdom is not None else []
