"""Swords & Stones: Kingdoms of Avalon (v1.3): the Grand Campaign and the kingdom economy.

The pure rules live in ``rules/``; they follow the rule IDs of the digest
``shared/rules/swords-and-stones.md``. The Grand Campaign is played on a square-grid Map of
Avalon whose land squares are Territories (SNS-GC-9): a tile's terrain is the map type drawn
there (or the sea, which is no Territory), its settlement the Territory's state (claimed,
settled or capital, SNS-GC-12) and its controller the kingdom holding it. Victory and Vengeance
points are two of the ledger's resources (SNS-PTS-2); the other six are a kingdom's Stockpile
while it plays a game (SNS-ECON-1, the game at the table).
"""

from __future__ import annotations

from campaign.rulesystems import Choice, MapStyle, RuleSystem, Terrain
from campaign.systems.swords_and_stones.rules import autoresolve as ar
from campaign.systems.swords_and_stones.rules import economy as eco
from campaign.systems.swords_and_stones.rules import events as evt
from campaign.systems.swords_and_stones.rules import grand_campaign as gc

#: The 18 map types of the Map of Avalon (SNS-MAP, SNS-GC-9) and the sea around them.
MAP_TYPES: tuple[Terrain, ...] = (
    Terrain("norwest_isles", "Norwest Isles", "#9cc7a4"),
    Terrain("sword_coast", "The Sword Coast", "#d6c98f"),
    Terrain("ice_lands", "Ice lands", "#e4eef2"),
    Terrain("riverrun", "Riverrun", "#a9d18e"),
    Terrain("mountain_pass", "Mountain Pass", "#b5a99a"),
    Terrain("lonely_mountain", "Lonely Mountain", "#9d8f80"),
    Terrain("rabbit_isles", "Rabbit Isles", "#c3dfa0"),
    Terrain("gold_coast", "The Gold Coast", "#e8cf72"),
    Terrain("the_gaps", "The Gaps", "#bfd6b0"),
    Terrain("passage", "Passage", "#cfd9a4"),
    Terrain("black_forest", "Black Forest", "#6f9a66"),
    Terrain("isle_of_gold", "Isle of Gold", "#f0d98a"),
    Terrain("great_plains", "Great Plains", "#dbe7a2"),
    Terrain("river_styx", "River Styx", "#9fb3a8"),
    Terrain("crater_lake", "Crater Lake", "#b7c9c9"),
    Terrain("great_sandy", "Great Sandy", "#ecd9a8"),
    Terrain("highlands", "Highlands", "#b9c48a"),
    Terrain("kings_cape", "Kings Cape", "#c9b68f"),
)
SEA = Terrain("sea", "Sea (no Territory)", "#8fb8dc", water=True)

SYSTEM = RuleSystem(
    slug="swords-and-stones",
    label="Swords & Stones",
    summary=(
        "Grand Campaign for Swords & Stones: Kingdoms of Avalon: challenges for the Territories "
        "of the Map of Avalon, Victory and Vengeance points, Kings and their Titles."
    ),
    rule_ids_prefix="SNS",
    terrains=(*MAP_TYPES, SEA),
    edge_features=(),
    settlements=(
        Choice(gc.CLAIMED, "Claimed"),
        Choice(gc.SETTLED, "Settled"),
        Choice(gc.CAPITAL, "Capital"),
    ),
    settlement_shapes={gc.CLAIMED: "triangle", gc.SETTLED: "square", gc.CAPITAL: "star"},
    # Campaign points, then the Stockpile's six resources while a game is played (SNS-ECON-1).
    resources=(Choice("vp", "Victory Points"), Choice("ven", "Vengeance Points"),
               Choice("food", "Food"), Choice("wood", "Wood"), Choice("stone", "Stone"),
               Choice("iron", "Iron"), Choice("gold", "Gold"), Choice("favor", "Favor")),
    map_style=MapStyle(
        kind="square",
        width=14,
        height=10,
        generator_terrains=tuple((t.slug, 1) for t in MAP_TYPES),
        water_terrain="sea",
    ),
    # The Grand Campaign's house rules, then the game at the table's (economy, events,
    # auto-resolve). The map type is the game's own (``Game.map_type_played``), not the
    # campaign's, so the economy's campaign-wide map option is left out.
    options=(*gc.OPTIONS, *(spec for spec in eco.ECON_OPTIONS if spec.name != "map_type"),
             *evt.EVENT_OPTIONS, *ar.AR_OPTIONS),
    rules_modules={
        "campaign": "campaign.systems.swords_and_stones.rules.grand_campaign",
        "points": "campaign.systems.swords_and_stones.rules.points",
        "titles": "campaign.systems.swords_and_stones.rules.titles",
        "economy": "campaign.systems.swords_and_stones.rules.economy",
    },
    templates={
        "tile_panel_extra": "campaign/systems/swords_and_stones/tile_panel_extra.html",
        "kingdom_summary": "campaign/systems/swords_and_stones/kingdom_summary.html",
        "play": "campaign/systems/swords_and_stones/play.html",
        "overview": "campaign/systems/swords_and_stones/overview.html",
    },
    shell="campaign.systems.swords_and_stones.shell",
    url_prefix="sns",
    demo="campaign.systems.swords_and_stones.demo",
    transfer="campaign.systems.swords_and_stones.transfer",
)
