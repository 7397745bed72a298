"""Kingdoms of the Middle Sea: a piecepack game of unrest, dominance, production and trade
(spec: shared/rules/middle-sea.md). The pure rules live in ``rules/``; the game is one position
per campaign (``models.Game``) changed by ``services``, one chronicle event per action."""

from __future__ import annotations

from campaign.rulesystems import Choice, MapStyle, RuleSystem, Terrain
from campaign.systems.middle_sea.rules.state import OPTIONS

SLUG = "middle-sea"

SYSTEM = RuleSystem(
    slug=SLUG,
    label="Kingdoms of the Middle Sea",
    summary=(
        "A piecepack game for 2-4 players: explore your continent, build roads and ports, "
        "keep unrest down and win by trade, conquest or the calculated score."
    ),
    rule_ids_prefix="MS",
    terrains=(
        Terrain("land", "Continent", "#e6d9ae"),
        Terrain("sea", "The Middle Sea", "#7fb2d9", water=True),
        Terrain("unused", "Continent out of play", "#d0d0d0"),
    ),
    edge_features=(Choice("road", "Road"),),
    settlements=(
        Choice("garrison", "Garrison (Arms)"),
        Choice("market", "Market (Suns)"),
        Choice("temple", "Temple (Moons)"),
        Choice("mine", "Mine (Crowns)"),
        Choice("capital_null", "Capital (null tile)"),
    ),
    settlement_shapes={"garrison": "square", "market": "circle", "temple": "triangle",
                       "mine": "diamond", "capital_null": "star"},
    resources=(Choice("goods", "Goods"), Choice("gold", "Gold"), Choice("unrest", "Unrest")),
    map_style=MapStyle(kind="territory", orientation="flat", width=7, height=7),
    options=OPTIONS,
    # Each entry is checked for purity in a process of its own: these three import the rest.
    rules_modules={
        "campaign": "campaign.systems.middle_sea.rules.phases",
        "battles": "campaign.systems.middle_sea.rules.conflict",
        "layout": "campaign.systems.middle_sea.rules.layout",
    },
    templates={
        "tile_panel_extra": "campaign/systems/middle_sea/tile_panel_extra.html",
        "kingdom_summary": "campaign/systems/middle_sea/kingdom_summary.html",
        "play": "campaign/systems/middle_sea/play.html",
        "overview": "campaign/systems/middle_sea/overview.html",
    },
    shell="campaign.systems.middle_sea.shell",
    url_prefix="ms",
    demo="campaign.systems.middle_sea.demo",
    transfer="campaign.systems.middle_sea.transfer",
)
