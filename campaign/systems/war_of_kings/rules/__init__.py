"""War of Kings: the pure rules.

Every module here is a set of pure functions over frozen dataclasses: no Django, no database, no
clock and no hidden randomness (the Resource Dice, the Event Die and the battle dice come in as
arguments). Docstrings cite the IDs of the War of Kings digest; an illegal action raises
:class:`RuleViolation` with a plain message that names the rule.

* ``board``: vocabulary, the map definition, the stockpile and the game state.
* ``options``: house rules and the v0.6 preview numbers.
* ``turns``: setup, the round and turn sequence, the end-of-round ready flip.
* ``economy``: the ledger, gold over the road network, resource income, the market.
* ``construction``: prices and every building, road and raising rule.
* ``achievements``: achievement points, the exclusive cards, the victory check.
* ``armies``: support, provisions, resupply, movement, exploration, the Event Die.
* ``battle``: one battle round from rolled symbols, damage allocation and the outcome.
* ``conquest``: conquest, capture, razing, liberation, the Malador, elimination.
"""

from __future__ import annotations

from campaign.systems.war_of_kings.rules.board import RuleViolation

__all__ = ["RuleViolation"]
