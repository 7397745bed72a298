"""The one table of Kingdoms of the Middle Sea: a campaign's game.

The whole game position is one JSON document (``rules.state.GameState.to_dict``), written
through the chronicle's ``Recorder`` with every action, so undo puts back exactly the position
before it. Writers lock the campaign, then the kingdoms, then this row (docs/architecture.md,
"Locking order"), so two phones acting at once queue instead of losing a move.
"""

from __future__ import annotations

from django.db import models

from campaign.models import Campaign


class Game(models.Model):
    """A game of the Middle Sea, made when the GM sets it up.

    - ``state``: the position (players in seat order, dominance order, board, stacks, round,
      phase, whose turn, the rebellion waiting, how the game ended).
    - ``seats``: the kingdoms' ids in seat order, one per player of ``state`` (a player's name
      in the position is its kingdom's name; a renamed kingdom is renamed in the position when
      it is next read).
    - ``pending``: a declared attack waiting for the defender's answer (MS-ATK-6, MS-AMB-23):
      attacker, leader, kind, target and the attacker's hires; empty when none waits.
    - ``time_limit_minutes`` and ``clock_started_at``: the timed game's clock (MS-WIN-3).
    """

    campaign = models.OneToOneField(Campaign, on_delete=models.CASCADE,
                                    related_name="middle_sea_game")
    state = models.JSONField(default=dict)
    seats = models.JSONField(default=list)
    pending = models.JSONField(default=dict, blank=True)
    time_limit_minutes = models.PositiveSmallIntegerField(null=True, blank=True)
    clock_started_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"Middle Sea game of {self.campaign}"
