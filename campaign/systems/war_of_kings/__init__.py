"""War of Kings: a territory-map game of kingdoms, roads, trade and achievement points
(spec: shared/rules/war-of-kings.md, rule IDs ``WOK-*``).

The pure rules live in ``campaign.systems.war_of_kings.rules``.
"""
