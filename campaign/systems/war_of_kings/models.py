"""The tables only War of Kings uses: army tokens and offers of battle.

The board itself lives in the shared tables: a territory is a ``Tile`` of a territory map (its
emblem colour is the terrain, its resources, culture and fortification are in ``data``), a road
is the ``road`` feature on both sides of a border, control is the tile's controller (or
``data["malador"]``), a capital is ``Kingdom.capital_tile``, and the stockpile is the kingdom's
ledger. Nothing shared points at these tables.
"""

from __future__ import annotations

from django.db import models

from campaign.models import Campaign, Kingdom, Tile


class Army(models.Model):
    """An army token (WOK-ARMY-1). ``owner`` commands it (none: the Malador run it); ``culture``
    is the shield on the token (none: Malador culture), which never changes (WOK-CULT-1).
    ``came_from`` is where it stood before its latest move (WOK-BATTLE-11)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="wok_armies")
    number = models.PositiveIntegerField()
    owner = models.ForeignKey(Kingdom, null=True, blank=True, on_delete=models.CASCADE,
                              related_name="wok_armies")
    culture = models.ForeignKey(Kingdom, null=True, blank=True, on_delete=models.SET_NULL,
                                related_name="+")
    tile = models.ForeignKey(Tile, on_delete=models.CASCADE, related_name="wok_armies")
    damage = models.PositiveSmallIntegerField(default=0)
    ready = models.BooleanField(default=True)
    raised_round = models.PositiveIntegerField(null=True, blank=True)
    came_from = models.ForeignKey(Tile, null=True, blank=True, on_delete=models.SET_NULL,
                                  related_name="+")

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "number"], name="wok_army_number_unique"),
            models.CheckConstraint(condition=models.Q(damage__lte=3), name="wok_army_damage_3"),
        ]

    def __str__(self) -> str:
        return f"Army {self.number}"


class Battle(models.Model):
    """An offer of battle in one territory (WOK-BATTLE-1): who attacks (none: the Malador), the
    attacking armies, each round's dice and allocations in ``data``, and how it ended."""

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        FOUGHT = "fought", "Fought"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="wok_battles")
    number = models.PositiveIntegerField()
    tile = models.ForeignKey(Tile, on_delete=models.CASCADE, related_name="wok_battles")
    attacker = models.ForeignKey(Kingdom, null=True, blank=True, on_delete=models.CASCADE,
                                 related_name="wok_attacks")
    round = models.PositiveIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    data = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "number"],
                                    name="wok_battle_number_unique"),
        ]

    def __str__(self) -> str:
        return f"Battle {self.number} in {self.tile.label}"


class Card(models.Model):
    """An Event Card in a player's hand, recorded by name with its effect in the players' words
    (the texts are not in the rulebook, WOK-EVENT-5). A hand is secret (WOK-EVENT-4): only its
    holder and the GMs see it, until the card is played."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="wok_cards")
    holder = models.ForeignKey(Kingdom, on_delete=models.CASCADE, related_name="wok_cards")
    name = models.CharField(max_length=60)
    effect = models.CharField(max_length=300, blank=True)
    drawn_round = models.PositiveIntegerField()
    played_round = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["pk"]

    def __str__(self) -> str:
        return self.name
