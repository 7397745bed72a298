"""The tables only Swords & Stones uses: the Grand Campaign's games and who played them, Kings
and their Titles and Mystery Crate items, points spends, and each Territory's history.

They point at the shared tables (campaign, kingdoms, events); nothing shared points back at them.
Territories are the map's tiles (their ``settlement`` is the Territory's state, their
``controller`` its owner); Victory and Vengeance points are the shared ledger's resources ``vp``
and ``ven``. Every row is written through the chronicle's ``Recorder``.
"""

from __future__ import annotations

from django.db import models

from campaign.models import Campaign, Event, Kingdom


class Game(models.Model):
    """One campaign game: the challenge that started it (SNS-GC-4) and, once played, its result
    from the challenger's side (SNS-GC-6). ``territory`` is the contested Territory's id (a square
    label, or a map type's slug when Territories are map types: SNS-GC-9); ``before_state`` and
    ``before_owner`` its holding when the challenge was issued. ``defender`` is empty when an
    artificial opponent outside the campaign plays (``ai_name``, SNS-GC-8). ``pending`` holds the
    choices the result left open: the defender's compensation offer (SNS-GC-7) and the new
    Capital a player must name (SNS-CAP-3)."""

    class Status(models.TextChoices):
        SETUP = "setup", "Being set up"
        PLAYING = "playing", "Being played"
        PLAYED = "played", "Played"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="sns_games")
    number = models.PositiveIntegerField()
    challenger = models.ForeignKey(Kingdom, on_delete=models.CASCADE, related_name="+")
    defender = models.ForeignKey(
        Kingdom, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    ai_name = models.CharField(max_length=60, blank=True)
    territory = models.CharField(max_length=40)
    territory_name = models.CharField(max_length=80, blank=True)
    before_state = models.CharField(max_length=12)
    before_owner = models.ForeignKey(
        Kingdom, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    row = models.CharField(max_length=12)
    capital_advantage = models.BooleanField(default=False)
    map_type_played = models.CharField(max_length=40, blank=True)
    game_mode = models.CharField(max_length=40, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SETUP)
    result = models.CharField(max_length=5, blank=True)
    declined = models.BooleanField(default=False)
    pending = models.JSONField(default=dict, blank=True)
    notes = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["campaign", "number"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "number"], name="sns_game_number_unique")
        ]

    def __str__(self) -> str:
        return f"Game {self.number}"


class King(models.Model):
    """A King of a kingdom (SNS-KING-1): ``reign`` 1 for the first, 2 for the first heir. A King
    who died keeps his row, with ``died_in`` the game, so the honours roll lists every reign."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="sns_kings")
    kingdom = models.ForeignKey(Kingdom, on_delete=models.CASCADE, related_name="sns_kings")
    name = models.CharField(max_length=60)
    reign = models.PositiveSmallIntegerField(default=1)
    crowned_before = models.PositiveIntegerField(default=1)
    died_in = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    current = models.BooleanField(default=True)

    class Meta:
        ordering = ["kingdom", "reign"]
        constraints = [
            models.UniqueConstraint(fields=["kingdom", "reign"], name="sns_king_reign_unique"),
            models.UniqueConstraint(
                fields=["kingdom"], condition=models.Q(current=True),
                name="sns_one_current_king",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class TitleAward(models.Model):
    """A Title a King took at a game's end (SNS-TITLE-G2); the set is per King (SNS-TITLE-G5)."""

    king = models.ForeignKey(King, on_delete=models.CASCADE, related_name="titles")
    code = models.CharField(max_length=20)
    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="+")

    class Meta:
        ordering = ["king", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["king", "code"], name="sns_title_once_per_king")
        ]


class CrateItem(models.Model):
    """A Mystery Crate item a King carries (SNS-CRATE-5, SNS-CRATE-8: free text)."""

    class Status(models.TextChoices):
        HELD = "held", "Held"
        GONE = "gone", "Used up or lost"
        VOIDED = "voided", "Lost with the King"

    king = models.ForeignKey(King, on_delete=models.CASCADE, related_name="crate_items")
    name = models.CharField(max_length=60)
    kind = models.CharField(max_length=10, default="general")
    effect = models.CharField(max_length=200, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.HELD)
    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="+")

    class Meta:
        ordering = ["king", "pk"]


class Participant(models.Model):
    """A kingdom in one game: its King, faction (SNS-KING-7), supply-line picks (SNS-SUP-1, a
    list of ``[territory, option]``), its one start bonus (SNS-KING-2), and after the game its
    result, the King's fate (SNS-STAT-0f) and the post-game report (SNS-STAT-*, ``report``
    holds the statistics by field name; ``report_status`` is empty, ``filed`` by the player or
    ``confirmed`` by the GM), the GM's yes to Titles that need one and the Titles taken."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="participants")
    kingdom = models.ForeignKey(Kingdom, on_delete=models.CASCADE, related_name="+")
    king = models.ForeignKey(King, null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="+")
    side = models.CharField(max_length=12)
    faction = models.CharField(max_length=12, default="avalonian")
    supply = models.JSONField(default=list, blank=True)
    declared_title = models.CharField(max_length=20, blank=True)
    title_variant = models.CharField(max_length=20, blank=True)
    declared_crate = models.ForeignKey(CrateItem, null=True, blank=True,
                                       on_delete=models.SET_NULL, related_name="+")
    result = models.CharField(max_length=5, blank=True)
    king_outcome = models.CharField(max_length=12, blank=True)
    report = models.JSONField(default=dict, blank=True)
    report_status = models.CharField(max_length=10, blank=True)
    gm_yes = models.JSONField(default=list, blank=True)
    titles_taken = models.JSONField(default=list, blank=True)
    # The kingdom at the table while the game is played (SNS-ECON-11): turn, phase, operational
    # buildings, units, growth of the turn and units trained in it. The Stockpile itself is the
    # kingdom's ledger balances of food, wood, stone, iron, gold and favor during the game.
    table = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["game", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["game", "kingdom"], name="sns_one_seat_per_game")
        ]


class Spend(models.Model):
    """Campaign points spent on an option (SNS-PTS-3, SNS-VP-*, SNS-VEN-*). The points move on
    the shared ledger in the same event; this row says what they bought. ``game`` is the game a
    START or IN_GAME option is for (empty until the buyer's next game is set up); ``target``
    the Territory a MAP option changed; ``contested`` the Territory Front line Advantage was
    bought for; ``roll`` the Gondor die once rolled."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="sns_spends")
    kingdom = models.ForeignKey(Kingdom, on_delete=models.CASCADE, related_name="sns_spends")
    code = models.CharField(max_length=12)
    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.CASCADE,
                             related_name="spends")
    bought_before = models.PositiveIntegerField(default=1)
    target = models.CharField(max_length=40, blank=True)
    contested = models.CharField(max_length=40, blank=True)
    roll = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["campaign", "pk"]


class TerritoryRecord(models.Model):
    """One change of a Territory's holding (SNS-GC-12), with its cause and rule: the
    Territory's history of owners."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE,
                                 related_name="sns_territory_records")
    territory = models.CharField(max_length=40)
    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="+")
    before_state = models.CharField(max_length=12)
    before_owner = models.ForeignKey(Kingdom, null=True, blank=True, on_delete=models.SET_NULL,
                                     related_name="+")
    after_state = models.CharField(max_length=12)
    after_owner = models.ForeignKey(Kingdom, null=True, blank=True, on_delete=models.SET_NULL,
                                    related_name="+")
    cause = models.CharField(max_length=30)
    rule_id = models.CharField(max_length=20)
    event = models.ForeignKey(Event, null=True, blank=True, on_delete=models.SET_NULL,
                              related_name="+")

    class Meta:
        ordering = ["campaign", "pk"]
        indexes = [models.Index(fields=["campaign", "territory"])]


class Trade(models.Model):
    """A trade one kingdom offers another during a game (SNS-ECON-57): what the offerer
    ``gives`` and ``gets`` (resource to amount), whether the two kingdom zones touch (else both
    need a working Market) or it is a prisoner's ransom (SNS-CBT-9). The other player accepts or
    declines on their phone; an accepted trade writes both Stockpiles in one event."""

    class Status(models.TextChoices):
        OFFERED = "offered", "Offered"
        ACCEPTED = "accepted", "Accepted"
        DECLINED = "declined", "Declined"
        WITHDRAWN = "withdrawn", "Withdrawn"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="trades")
    offerer = models.ForeignKey(Kingdom, on_delete=models.CASCADE, related_name="+")
    receiver = models.ForeignKey(Kingdom, on_delete=models.CASCADE, related_name="+")
    gives = models.JSONField(default=dict, blank=True)
    gets = models.JSONField(default=dict, blank=True)
    zones_touch = models.BooleanField(default=False)
    ransom = models.BooleanField(default=False)
    turn = models.PositiveIntegerField(default=1)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OFFERED)

    class Meta:
        ordering = ["game", "pk"]
        indexes = [models.Index(fields=["game", "status"])]


class AutoBattle(models.Model):
    """An auto-resolved battle between two kingdoms of a game, worked out step by step at the
    table (SNS-AR-1..7): ``step`` is where it stands (``defences``, ``commit``, ``buy_back``,
    ``dice``, ``done``) and ``data`` what each step fixed (units sent, scores, the units the
    defender committed, the winner and margin, units bought back, the dice and who came home).
    The last step writes both kingdoms' unit counts and Stockpiles."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="auto_battles")
    attacker = models.ForeignKey(Kingdom, on_delete=models.CASCADE, related_name="+")
    defender = models.ForeignKey(Kingdom, on_delete=models.CASCADE, related_name="+")
    turn = models.PositiveIntegerField(default=1)
    step = models.CharField(max_length=12, default="defences")
    data = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["game", "pk"]


class CostType(models.Model):
    """The resource types a campaign gives one cost whose symbols the source lost (SNS-AMB-30):
    ``rule_id`` names the building, upgrade or unit (``SNS-UPG-X/use`` a price paid at each
    use), ``types`` one resource or ``None`` per printed amount. No row: the catalogue's."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE,
                                 related_name="sns_cost_types")
    rule_id = models.CharField(max_length=40)
    types = models.JSONField(default=list)

    class Meta:
        ordering = ["campaign", "rule_id"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "rule_id"], name="sns_one_cost_type")
        ]
