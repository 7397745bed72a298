"""Forces and battles every system shares: army tokens, Kings of War army lists and units with
their Unit Strength history, and battles between two kingdoms on a tile."""

from __future__ import annotations

from django.db import models

from campaign.models import Campaign, Event, Kingdom, Tile


class Army(models.Model):
    """An army token: a numbered force of one kingdom standing on a tile (MK-GEN-1)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="armies")
    kingdom = models.ForeignKey(Kingdom, on_delete=models.CASCADE, related_name="armies")
    number = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=60, blank=True)
    tile = models.ForeignKey(
        Tile, null=True, blank=True, on_delete=models.SET_NULL, related_name="armies"
    )
    # Simple-battles roster points (MK-SETUP-6, MK-RECRUIT-3): 500 at recruit, only ever going
    # down: nothing restores lost points (MK-SIMPLE-11).
    points = models.PositiveSmallIntegerField(default=500)
    on_side = models.BooleanField(default=False)
    defending = models.BooleanField(default=False)
    is_allied = models.BooleanField(default=False)
    data = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["kingdom", "number"]
        constraints = [
            models.UniqueConstraint(fields=["kingdom", "number"], name="army_number_unique")
        ]

    def __str__(self) -> str:
        return f"{self.kingdom.name} army #{self.number}"


class Battle(models.Model):
    """A battle chosen in a summer month's Battle phase (MK-BSEL), pending until its result.

    ``kind`` comes from MK-BTYPE (naval, land, land_water, slaughter); ``mode`` says how a land
    battle is fought (Kings of War or Simple). ``data`` keeps what the battle needs as it is
    fought (dice, allocations, losses) so it can be replayed and explained.
    """

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        RESOLVED = "resolved", "Resolved"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="battles")
    year = models.PositiveIntegerField()
    month = models.PositiveSmallIntegerField()
    seq = models.PositiveSmallIntegerField(help_text="Order in which battles were chosen.")
    tile = models.ForeignKey(Tile, on_delete=models.CASCADE, related_name="battles")
    kind = models.CharField(max_length=20)
    mode = models.CharField(max_length=10, blank=True)
    chooser = models.ForeignKey(Kingdom, on_delete=models.CASCADE, related_name="battles_chosen")
    opponent = models.ForeignKey(Kingdom, on_delete=models.CASCADE, related_name="battles_opposed")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    result_chooser = models.CharField(max_length=5, blank=True)
    result_opponent = models.CharField(max_length=5, blank=True)
    data = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["year", "month", "seq"]

    def __str__(self) -> str:
        return f"Battle at {self.tile.label}: {self.chooser} against {self.opponent}"


# -- Kings of War army lists and Unit Strength (MK-SETUP-6/7, MK-RECRUIT-4..6, MK-US) ----------


class ArmyList(models.Model):
    """The Kings of War list written for one army (MK-SETUP-6, MK-RECRUIT-4).

    A list is a draft until its player fixes it (``fixed_at``); after that only losses change it
    (MK-RECRUIT-6). It is secret to its kingdom and the GMs until a battle it fights in reveals it
    (``revealed_at_battle``, MK-SETUP-7). In Simple mode an army has no units, and the row only
    records that its roster points were revealed.
    """

    army = models.OneToOneField(Army, on_delete=models.CASCADE, related_name="army_list")
    race = models.CharField(max_length=80, blank=True, help_text="The Kings of War list used.")
    points_limit = models.PositiveSmallIntegerField(default=500)
    allied = models.BooleanField(default=False)
    fixed_at = models.DateTimeField(null=True, blank=True)
    revealed_at_battle = models.ForeignKey(
        Battle, null=True, blank=True, on_delete=models.SET_NULL, related_name="revealed_lists"
    )
    # The campaign clock when the list was started.
    year = models.PositiveIntegerField(default=1)
    season = models.CharField(max_length=20, blank=True)
    month = models.PositiveSmallIntegerField(null=True, blank=True)
    phase = models.CharField(max_length=20, blank=True)

    def __str__(self) -> str:
        return f"List of {self.army}"

    @property
    def is_fixed(self) -> bool:
        return self.fixed_at is not None


class Unit(models.Model):
    """One unit of an army list. A destroyed unit stays on the list, crossed off."""

    class Reason(models.TextChoices):
        REFORM = "reform", "Unit Strength -2 or lower at Reform (MK-REFORM-5)"
        QUEST = "quest", "Lost on a Wizard's quest (MK-QUEST-4)"
        BATTLE = "battle", "Lost in battle"

    army_list = models.ForeignKey(ArmyList, on_delete=models.CASCADE, related_name="units")
    position = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=100)
    unit_type = models.CharField(max_length=60)
    points = models.PositiveSmallIntegerField()
    base_us = models.PositiveSmallIntegerField(null=True, blank=True,
                                               help_text="Base Unit Strength (MK-US-5).")
    keywords = models.JSONField(default=list, blank=True)
    magic_item = models.CharField(max_length=100, blank=True)
    # What a player would otherwise need a second list for at the table, printed on the roster.
    stats = models.CharField(max_length=120, blank=True,
                             help_text="Stat line, e.g. Sp 4 Me 4+ Ra - De 5+ Att 12 Ne 14/16.")
    special_rules = models.CharField(max_length=300, blank=True,
                                     help_text="Special rules, separated by commas.")
    living_legend = models.BooleanField(default=False)
    allied = models.BooleanField(default=False)
    artefact = models.CharField(max_length=100, blank=True,
                                help_text="A magical artefact from a quest (MK-ART).")
    destroyed_year = models.PositiveIntegerField(null=True, blank=True)
    destroyed_season = models.CharField(max_length=20, blank=True)
    destroyed_month = models.PositiveSmallIntegerField(null=True, blank=True)
    destroyed_phase = models.CharField(max_length=20, blank=True)
    destroyed_reason = models.CharField(max_length=20, choices=Reason.choices, blank=True)

    class Meta:
        ordering = ["army_list", "position", "pk"]

    def __str__(self) -> str:
        return f"{self.name} ({self.unit_type}, {self.points} pts)"

    @property
    def destroyed(self) -> bool:
        return bool(self.destroyed_reason)


class UnitStrengthEvent(models.Model):
    """A +1 or -1 pencilled on a unit (MK-US-1/2/4), permanent from its next battle."""

    class Reason(models.TextChoices):
        ROUTED_ENEMY = "routed_enemy", "First to damage and rout an enemy (MK-US-1)"
        ROUTED = "routed", "Routed (MK-US-2)"
        QUEST = "quest", "Injured on a quest (MK-QUEST-4)"

    unit = models.ForeignKey(Unit, on_delete=models.CASCADE, related_name="us_events")
    battle = models.ForeignKey(Battle, null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="us_events")
    delta = models.SmallIntegerField()
    reason = models.CharField(max_length=20, choices=Reason.choices)
    year = models.PositiveIntegerField(default=1)
    season = models.CharField(max_length=20, blank=True)
    month = models.PositiveSmallIntegerField(null=True, blank=True)
    phase = models.CharField(max_length=20, blank=True)
    event = models.ForeignKey(Event, null=True, blank=True,
                              on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["unit", "pk"]
        constraints = [
            models.CheckConstraint(condition=models.Q(delta__in=[1, -1]),
                                   name="us_event_one_step"),
            # MK-US-1: at most one +1 (and one rout) per unit per battle.
            models.UniqueConstraint(fields=["unit", "battle", "reason"],
                                    condition=models.Q(battle__isnull=False),
                                    name="us_event_once_per_battle"),
        ]

    def __str__(self) -> str:
        return f"{self.unit.name}: {self.delta:+d} ({self.reason})"


# -- the campaign's unit catalogue ----------------------------------------------------------------


class UnitProfile(models.Model):
    """A unit as the campaign's catalogue describes it: what a player picks from when writing a
    list, so a unit's name, type, points, base Unit Strength, stat line and special rules need
    not be typed again. The GM keeps the catalogue (``battles.catalogue``); a unit filled from a
    profile is a copy, so changing the profile later changes no list."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE,
                                 related_name="unit_profiles")
    name = models.CharField(max_length=100)
    unit_type = models.CharField(max_length=60)
    points = models.PositiveSmallIntegerField()
    base_us = models.PositiveSmallIntegerField(null=True, blank=True,
                                               help_text="Base Unit Strength (MK-US-5).")
    stats = models.CharField(max_length=120, blank=True)
    special_rules = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["name", "unit_type", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "name", "unit_type"],
                                    name="unit_profile_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.unit_type}, {self.points} pts)"
