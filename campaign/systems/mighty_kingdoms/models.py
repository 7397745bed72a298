"""The tables only Mighty Kingdoms uses: ships, summer orders, winter tithes and purchases,
and the advanced modules' artefacts and Wizard's quests.

They point at the shared tables (campaign, kingdoms, tiles, events, and the battles app's
armies, units and battles); nothing shared points back at them. See docs/architecture.md,
"Who owns which table".
"""

from __future__ import annotations

from django.db import models

from battles.models import Army, Battle, Unit
from campaign.models import Campaign, Event, Kingdom, Tile


class Ship(models.Model):
    """A ship token (a small fleet, MK-SHIP-5), optionally carrying one army (MK-SHIP-2)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="ships")
    kingdom = models.ForeignKey(Kingdom, on_delete=models.CASCADE, related_name="ships")
    number = models.PositiveSmallIntegerField()
    tile = models.ForeignKey(
        Tile, null=True, blank=True, on_delete=models.SET_NULL, related_name="ships"
    )
    on_side = models.BooleanField(default=False)
    paired_army = models.OneToOneField(
        Army, null=True, blank=True, on_delete=models.SET_NULL, related_name="ship"
    )
    data = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["kingdom", "number"]
        constraints = [
            models.UniqueConstraint(fields=["kingdom", "number"], name="ship_number_unique")
        ]

    def __str__(self) -> str:
        return f"{self.kingdom.name} ship #{self.number}"



class Order(models.Model):
    """An order given to a token in a summer month's Orders phase (MK-ORD).

    ``token`` is the key of what was ordered: "army:<id>", "ship:<id>" or "pair:<ship id>".
    Sealed until the phase closes when the campaign says so (only its kingdom and GMs see it).
    """

    class Kind(models.TextChoices):
        MOVE = "move", "Move"
        DEFEND = "defend", "Defend"
        RAZE = "raze", "Raze"
        REGROUP = "regroup", "Regroup"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="orders")
    kingdom = models.ForeignKey(Kingdom, on_delete=models.CASCADE, related_name="orders")
    year = models.PositiveIntegerField()
    month = models.PositiveSmallIntegerField()
    token = models.CharField(max_length=30)
    army = models.ForeignKey(Army, null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="orders")
    ship = models.ForeignKey(Ship, null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="orders")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    from_tile = models.ForeignKey(Tile, null=True, blank=True, on_delete=models.SET_NULL,
                                  related_name="+")
    target = models.ForeignKey(Tile, null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="+")
    given_seq = models.PositiveIntegerField()
    resolved_seq = models.PositiveIntegerField(null=True, blank=True)
    outcome = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["year", "month", "given_seq"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "year", "month", "token"],
                                    name="one_order_per_token_per_month"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} for {self.token} (year {self.year}, month {self.month})"



class Tithe(models.Model):
    """A winter gift of at most 1 gold and 1 food to another player (MK-TITHE)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="tithes")
    year = models.PositiveIntegerField()
    giver = models.ForeignKey(Kingdom, on_delete=models.CASCADE, related_name="tithes_given")
    receiver = models.ForeignKey(Kingdom, on_delete=models.CASCADE, related_name="tithes_received")
    gold = models.PositiveSmallIntegerField(default=0)
    food = models.PositiveSmallIntegerField(default=0)
    event = models.ForeignKey(Event, null=True, blank=True, on_delete=models.SET_NULL,
                              related_name="+")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["year", "giver", "receiver"],
                                    name="one_tithe_per_pair_per_winter"),
        ]



class Purchase(models.Model):
    """One winter purchase (MK-BUY): a settlement, a ship or a recruit, with what it cost."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="purchases")
    year = models.PositiveIntegerField()
    kingdom = models.ForeignKey(Kingdom, on_delete=models.CASCADE, related_name="purchases")
    kind = models.CharField(max_length=20)
    tile_label = models.CharField(max_length=40, blank=True)
    from_state = models.CharField(max_length=20, blank=True)
    to_state = models.CharField(max_length=20, blank=True)
    gold = models.PositiveSmallIntegerField(default=0)
    food = models.PositiveSmallIntegerField(default=0)
    seq = models.PositiveIntegerField()
    event = models.ForeignKey(Event, null=True, blank=True, on_delete=models.SET_NULL,
                              related_name="+")

    class Meta:
        ordering = ["year", "seq"]



class Artefact(models.Model):
    """A magical artefact of the campaign's one shared pool (MK-ART-1).

    It is in exactly one place: the pool of quest rewards (``in_pool``), a unit
    (``holder_unit``, MK-ART-2) or a kingdom's Capital City (``held_by_capital_of``,
    MK-ART-6/8, and where a quest's prize waits until winter D) Deploy). ``captured_in`` names
    the battle it was won in while its winner may still give it to a unit of the winning army
    (MK-ART-5). Its points never count toward a unit or an army (MK-ART-4).
    """

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="artefacts")
    name = models.CharField(max_length=100)
    points = models.PositiveSmallIntegerField()
    holder_unit = models.ForeignKey(Unit, null=True, blank=True, on_delete=models.SET_NULL,
                                    related_name="artefacts")
    held_by_capital_of = models.ForeignKey(Kingdom, null=True, blank=True,
                                           on_delete=models.SET_NULL,
                                           related_name="capital_artefacts")
    in_pool = models.BooleanField(default=True)
    captured_in = models.ForeignKey(Battle, null=True, blank=True, on_delete=models.SET_NULL,
                                    related_name="captured_artefacts")

    class Meta:
        ordering = ["campaign", "name"]
        constraints = [
            models.UniqueConstraint(models.functions.Lower("name"), "campaign",
                                    name="artefact_unique_in_campaign"),
            models.CheckConstraint(
                condition=(
                    models.Q(in_pool=True, holder_unit__isnull=True,
                             held_by_capital_of__isnull=True)
                    | models.Q(in_pool=False, holder_unit__isnull=False,
                               held_by_capital_of__isnull=True)
                    | models.Q(in_pool=False, holder_unit__isnull=True,
                               held_by_capital_of__isnull=False)
                ),
                name="artefact_in_one_place",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.points} pts)"



class WizardQuest(models.Model):
    """A Hero's quest at a Wizard's Tower in winter C) Build and recruit (MK-QUEST-1..6)."""

    class Result(models.TextChoices):
        HERO_LOST = "hero_lost", "The Hero never comes back"
        INJURED = "injured", "Injured: -1 Unit Strength"
        NOTHING = "nothing", "Back with nothing"
        ARTEFACT = "artefact", "Success: an artefact of 5-15 points"
        GREAT_ARTEFACT = "great_artefact", "Great success: an artefact of 20-30 points"
        RARE_ARTEFACT = "rare_artefact", "Outstanding: a rare artefact of 35-50 points"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="quests")
    year = models.PositiveIntegerField(help_text="The winter of the quest.")
    kingdom = models.ForeignKey(Kingdom, on_delete=models.CASCADE, related_name="quests")
    hero = models.ForeignKey(Unit, on_delete=models.CASCADE, related_name="quests")
    tower = models.ForeignKey(Tile, on_delete=models.CASCADE, related_name="quests")
    die = models.PositiveSmallIntegerField()
    modifier = models.PositiveSmallIntegerField()
    total = models.PositiveSmallIntegerField()
    result = models.CharField(max_length=20, choices=Result.choices)
    artefact = models.ForeignKey(Artefact, null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="quests")
    event = models.ForeignKey(Event, null=True, blank=True, on_delete=models.SET_NULL,
                              related_name="+")

    class Meta:
        ordering = ["campaign", "year", "pk"]
        constraints = [
            # MK-QUEST-2: one quest per Hero each winter.
            models.UniqueConstraint(fields=["campaign", "year", "hero"],
                                    name="quest_once_per_hero_per_winter"),
            # MK-QUEST-1: one Hero per tower per kingdom each winter.
            models.UniqueConstraint(fields=["campaign", "year", "kingdom", "tower"],
                                    name="quest_once_per_tower_per_winter"),
        ]

    def __str__(self) -> str:
        return f"{self.kingdom.name}'s quest at {self.tower.label} (winter {self.year})"
