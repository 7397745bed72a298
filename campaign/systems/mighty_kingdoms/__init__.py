"""Mighty Kingdoms: a hex-map campaign for Kings of War (spec: shared/rules/mighty-kingdoms.md)."""

from __future__ import annotations

from campaign.rulesystems import Choice, MapStyle, RuleSystem, Terrain
from campaign.systems.mighty_kingdoms.rules import campaign as rules

SYSTEM = RuleSystem(
    slug="mighty-kingdoms",
    label="Mighty Kingdoms",
    summary=(
        "Hex-map campaign for Kings of War: six summer months of orders, exploration and "
        "battles, then a winter of gathering, building and recruiting."
    ),
    rule_ids_prefix="MK",
    terrains=(
        Terrain("plain", "Plain", "#d9e6a6"),
        Terrain("hills", "Hills", "#c8c27a"),
        Terrain("forest", "Forest", "#7fae6a"),
        Terrain("mountains", "Mountains", "#a89a8a"),
        Terrain("marsh", "Marsh", "#9fc2a8"),
        Terrain("open_water", "Open water", "#7fb2d9", water=True),
    ),
    edge_features=(
        Choice("river", "River"),
        Choice("mountain", "Mountains"),
        Choice("forest", "Forest"),
        Choice("water", "Water (fully blue)"),
        Choice("coast", "Coast (partly blue)"),
    ),
    settlements=(
        Choice("village", "Village"),
        Choice("city", "City"),
        Choice("fortress", "Fortress"),
    ),
    resources=(Choice("gold", "Gold"), Choice("food", "Food")),
    map_style=MapStyle(
        kind="hex",
        orientation="flat",
        width=12,
        height=10,
        start_tiles=True,
        generator_terrains=(("plain", 6), ("hills", 2), ("forest", 3), ("mountains", 2),
                            ("marsh", 1)),
        water_terrain="open_water",
        mountain_terrain="mountains",
        forest_terrain="forest",
    ),
    options=rules.OPTIONS,
    rules_modules={
        "campaign": "campaign.systems.mighty_kingdoms.rules.campaign",
        "ledger": "campaign.systems.mighty_kingdoms.rules.ledger",
        "battles": "campaign.systems.mighty_kingdoms.rules.battles",
    },
    templates={
        "tile_panel_extra": "campaign/systems/mighty_kingdoms/tile_panel_extra.html",
        "kingdom_summary": "campaign/systems/mighty_kingdoms/kingdom_summary.html",
        "play": "campaign/systems/mighty_kingdoms/play.html",
        "overview": "campaign/systems/mighty_kingdoms/overview.html",
    },
    shell="campaign.systems.mighty_kingdoms.shell",
    url_prefix="mk",
    tabs=(("armies", "mk:armies:index", "Armies"),),
    demo="campaign.systems.mighty_kingdoms.demo",
    transfer="campaign.systems.mighty_kingdoms.transfer",
)
