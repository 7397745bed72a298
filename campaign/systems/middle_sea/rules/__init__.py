"""Kingdoms of the Middle Sea: the pure rules (spec: shared/rules/middle-sea.md).

- ``board``: suits, city kinds, continents, spaces, adjacency, ``RuleViolation``.
- ``state``: the frozen game state, its options (``MSOptions``), JSON form and derived facts
  (control, home and provincial cities, trade routes), payments and turn guards.
- ``phases``: setup, first dominance and the round's phase machine.
- ``control``: the control phase, rebellions and unrest.
- ``dominance``: dominance scores and the order of play.
- ``economy``: costs, production and the build phase.
- ``leaders``: changing the king, activating and moving leaders.
- ``conflict``: military and missionary attacks.
- ``scoring``: the calculated score and every victory check.

No Django, no database, no clock and no hidden randomness: the only dice, the setup rolls, are
arguments.
"""
