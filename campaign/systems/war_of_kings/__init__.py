"""War of Kings: a territory-map game of kingdoms, roads, trade and achievement points
(spec: shared/rules/war-of-kings.md, rule IDs ``WOK-*``).

The pure rules live in ``campaign.systems.war_of_kings.rules``; ``state`` reads the board from
the shared tables into the rules' ``GameState`` and writes a new one back through the chronicle;
``services`` are the actions; ``shell`` the hooks the core calls.
"""

from __future__ import annotations

from campaign.rulesystems import Choice, MapStyle, RuleSystem, Terrain
from campaign.systems.war_of_kings.rules.options import OPTION_SPECS

SYSTEM = RuleSystem(
    slug="war-of-kings",
    label="War of Kings",
    summary=(
        "Territory board game of kingdoms: a ledger by emblem colour, gold over road networks "
        "to the capital, building, and a race to 13 achievement points."
    ),
    rule_ids_prefix="WOK",
    terrains=(
        Terrain("red", "Red emblem", "#e3a097"),
        Terrain("yellow", "Yellow emblem", "#ecd98a"),
        Terrain("green", "Green emblem", "#a9cf92"),
        Terrain("blue", "Blue emblem", "#9cbfe0"),
        Terrain("peak", "Winter centre (road hub)", "#d7d2e6"),
        Terrain("mountains", "Impassable mountains", "#9c9188"),
    ),
    edge_features=(Choice("road", "Road"),),
    settlements=(
        Choice("village", "Village"),
        Choice("town", "Town"),
        Choice("city", "City"),
    ),
    resources=(
        Choice("gold", "Gold"),
        Choice("timber", "Timber"),
        Choice("wheat", "Wheat"),
        Choice("cattle", "Cattle"),
        Choice("stone", "Stone"),
    ),
    map_style=MapStyle(kind="territory", orientation="flat", width=0, height=0),
    options=OPTION_SPECS,
    rules_modules={
        "campaign": "campaign.systems.war_of_kings.rules.turns",
        "ledger": "campaign.systems.war_of_kings.rules.economy",
        "construction": "campaign.systems.war_of_kings.rules.construction",
        "achievements": "campaign.systems.war_of_kings.rules.achievements",
        "battles": "campaign.systems.war_of_kings.rules.battle",
        "armies": "campaign.systems.war_of_kings.rules.armies",
    },
    templates={
        "tile_panel_extra": "campaign/systems/war_of_kings/tile_panel_extra.html",
        "kingdom_summary": "campaign/systems/war_of_kings/kingdom_summary.html",
        "play": "campaign/systems/war_of_kings/play.html",
        "overview": "campaign/systems/war_of_kings/overview.html",
    },
    shell="campaign.systems.war_of_kings.shell",
    url_prefix="wok",
    demo="campaign.systems.war_of_kings.demo",
    transfer="campaign.systems.war_of_kings.transfer",
    settlement_shapes={"village": "circle", "town": "square", "city": "diamond"},
)
