"""Kingdoms of the Middle Sea: a piecepack game of unrest, dominance, production and trade
(spec: shared/rules/middle-sea.md). The pure rules live in ``rules/``."""
