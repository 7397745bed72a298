"""Core models: campaigns, who plays in them, kingdoms, maps and the chronicle.

Models hold state only. Every write goes through ``campaign.services`` (or another app's
services), which records an ``Event`` in the same transaction.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import cached_property

from campaign.rulesystems import RuleSystem, get_system


class Role(models.TextChoices):
    GM = "gm", "Game master"
    PLAYER = "player", "Player"
    OBSERVER = "observer", "Observer"


class Campaign(models.Model):
    name = models.CharField(max_length=100)
    slug = models.SlugField(max_length=60, unique=True)
    # Stored slug of the rule system; never renamed (see campaign.rulesystems).
    rule_system = models.CharField(max_length=40)
    options = models.JSONField(default=dict, blank=True)
    description = models.TextField(blank=True)
    # The campaign clock. Systems use the fields they need; MK: year, season, month, phase.
    year = models.PositiveIntegerField(default=1)
    season = models.CharField(max_length=20, blank=True)
    month = models.PositiveSmallIntegerField(null=True, blank=True)
    phase = models.CharField(max_length=20, blank=True)
    sub_phase = models.CharField(max_length=20, blank=True)
    # Running per-system state that belongs to no single row (e.g. whose turn it is in a cycle,
    # who has passed); written through the chronicle like everything else.
    state = models.JSONField(default=dict, blank=True)
    # Printing preferences (overridable per download).
    paper_size = models.CharField(
        max_length=10, default="a4", choices=[("a4", "A4"), ("letter", "Letter")]
    )
    eco_print = models.BooleanField(default=False, help_text="Black-and-white printing.")
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("campaign:detail", args=[self.slug])

    @cached_property
    def system(self) -> RuleSystem:
        return get_system(self.rule_system)

    @property
    def clock(self) -> dict[str, object]:
        return {
            "year": self.year,
            "season": self.season,
            "month": self.month,
            "phase": self.phase,
            "sub_phase": self.sub_phase,
        }

    def clock_label(self) -> str:
        system_label = self.system.hook("clock_label")
        if system_label is not None:
            return system_label(self)
        parts = [f"Year {self.year}"]
        if self.season:
            parts.append(self.season.capitalize())
        if self.month:
            parts.append(f"month {self.month}")
        if self.phase:
            parts.append(f"phase {self.phase}")
        return ", ".join(parts)


class Membership(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.PLAYER)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["campaign", "user"], name="one_membership_per_user")
        ]
        ordering = ["role", "user__username"]

    def __str__(self) -> str:
        return f"{self.user} ({self.get_role_display()}) in {self.campaign}"

    @property
    def is_gm(self) -> bool:
        return self.role == Role.GM


def new_invitation_token() -> str:
    return secrets.token_urlsafe(24)


class Invitation(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="invitations")
    token = models.CharField(max_length=64, unique=True, default=new_invitation_token)
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.PLAYER)
    single_use = models.BooleanField(default=False)
    uses = models.PositiveIntegerField(default=0)
    note = models.CharField(max_length=100, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    # None: the link works until it is revoked (or used, when single-use).
    expires_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"Invitation to {self.campaign} as {self.role}"

    @property
    def state(self) -> str:
        """"usable", or why not: "revoked", "used" (a single-use link once used) or "expired"
        (in that order, when several hold)."""
        if self.revoked_at is not None:
            return "revoked"
        if self.single_use and self.uses >= 1:
            return "used"
        if self.expires_at is not None and self.expires_at <= timezone.now():
            return "expired"
        return "usable"

    @property
    def is_usable(self) -> bool:
        return self.state == "usable"

    def get_absolute_url(self) -> str:
        return reverse("join", args=[self.token])


def crest_upload_to(instance: "Kingdom", filename: str) -> str:
    # Random names: uploads are served without a login, so their addresses must not be guessable.
    return f"crests/{secrets.token_hex(8)}.png"


def crest_thumb_upload_to(instance: "Kingdom", filename: str) -> str:
    return f"crests/thumbs/{secrets.token_hex(8)}.png"


class Kingdom(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="kingdoms")
    player = models.ForeignKey(
        Membership, null=True, blank=True, on_delete=models.SET_NULL, related_name="kingdoms"
    )
    name = models.CharField(max_length=60)
    colour = models.CharField(max_length=7, default="#8a2f2f")
    crest = models.ImageField(upload_to=crest_upload_to, blank=True)
    crest_thumb = models.ImageField(upload_to=crest_thumb_upload_to, blank=True)
    order_position = models.PositiveSmallIntegerField(null=True, blank=True)
    start_tile = models.ForeignKey(
        "Tile", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    capital_tile = models.ForeignKey(
        "Tile", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Per-system state (e.g. MK race, sealed until revealed).
    data = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["order_position", "name"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "name"], name="kingdom_name_unique"),
            models.UniqueConstraint(
                fields=["campaign", "player"],
                condition=models.Q(player__isnull=False),
                name="one_kingdom_per_player",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class MapKind(models.TextChoices):
    HEX = "hex", "Hex grid"
    SQUARE = "square", "Square grid"
    TERRITORY = "territory", "Territories"


class Map(models.Model):
    campaign = models.OneToOneField(Campaign, on_delete=models.CASCADE, related_name="map")
    kind = models.CharField(max_length=10, choices=MapKind.choices, default=MapKind.HEX)
    orientation = models.CharField(
        max_length=10, default="flat", choices=[("flat", "Flat-top"), ("pointy", "Pointy-top")]
    )
    width = models.PositiveSmallIntegerField(default=12)
    height = models.PositiveSmallIntegerField(default=10)
    seed = models.BigIntegerField(null=True, blank=True)

    def __str__(self) -> str:
        return f"Map of {self.campaign}"


class Tile(models.Model):
    map = models.ForeignKey(Map, on_delete=models.CASCADE, related_name="tiles")
    # Axial (q, r) on hex maps, (x, y) on square maps, a drawing position on territory maps.
    q = models.IntegerField()
    r = models.IntegerField()
    label = models.CharField(max_length=40)
    name = models.CharField(max_length=60, blank=True)
    terrain = models.CharField(max_length=30)
    features = models.JSONField(default=list, blank=True)
    # Direction (as a string, JSON keys are strings) -> features on this tile's side of that edge.
    # Territory maps key edges by the neighbour's label instead.
    edges = models.JSONField(default=dict, blank=True)
    # Territory maps only: labels of adjacent territories.
    adjacent = models.JSONField(default=list, blank=True)
    settlement = models.CharField(max_length=20, blank=True)
    controller = models.ForeignKey(
        Kingdom, null=True, blank=True, on_delete=models.SET_NULL, related_name="tiles"
    )
    explored = models.BooleanField(default=False)
    is_start = models.BooleanField(default=False)
    data = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["label"]
        constraints = [
            models.UniqueConstraint(fields=["map", "label"], name="tile_label_unique"),
            models.UniqueConstraint(fields=["map", "q", "r"], name="tile_position_unique"),
        ]

    def __str__(self) -> str:
        return self.label


def photo_upload_to(instance: "Photo", filename: str) -> str:
    return f"photos/{instance.campaign_id}/{secrets.token_hex(8)}.jpg"


def photo_thumb_upload_to(instance: "Photo", filename: str) -> str:
    return f"photos/{instance.campaign_id}/thumbs/{secrets.token_hex(8)}.jpg"


class Photo(models.Model):
    """A photo of the physical table, attached to the campaign clock when it was taken."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="photos")
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    image = models.ImageField(upload_to=photo_upload_to)
    thumbnail = models.ImageField(upload_to=photo_thumb_upload_to)
    caption = models.CharField(max_length=200, blank=True)
    year = models.PositiveIntegerField(default=1)
    season = models.CharField(max_length=20, blank=True)
    month = models.PositiveSmallIntegerField(null=True, blank=True)
    phase = models.CharField(max_length=20, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]


class Visibility(models.TextChoices):
    PUBLIC = "public", "Everyone in the campaign"
    KINGDOM = "kingdom", "One kingdom and the GMs"
    GM = "gm", "GMs only"


class Event(models.Model):
    """One entry of the campaign's chronicle.

    ``changes`` holds what is needed to reverse the event: a list of before-images written by
    ``campaign.chronicle.Recorder``. ``dice`` keeps every roll with its purpose. An undo is itself
    an event (``undo_of``) and cannot be undone; the undone event stays in the chronicle, marked.
    """

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    year = models.PositiveIntegerField(default=1)
    season = models.CharField(max_length=20, blank=True)
    month = models.PositiveSmallIntegerField(null=True, blank=True)
    phase = models.CharField(max_length=20, blank=True)
    kind = models.CharField(max_length=40)
    summary = models.TextField()
    dice = models.JSONField(default=list, blank=True)
    data = models.JSONField(default=dict, blank=True)
    changes = models.JSONField(default=list, blank=True)
    reversible = models.BooleanField(default=True)
    visibility = models.CharField(
        max_length=10, choices=Visibility.choices, default=Visibility.PUBLIC
    )
    kingdom = models.ForeignKey(
        Kingdom, null=True, blank=True, on_delete=models.SET_NULL, related_name="private_events"
    )
    undone_at = models.DateTimeField(null=True, blank=True)
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    undo_of = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="undone_by_event"
    )

    class Meta:
        ordering = ["-seq"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "seq"], name="event_seq_unique")
        ]
        # The latest public event and a kingdom's latest secret one, read for every page's
        # version (campaign/live.py): each the last entry of its own index, instead of walking
        # back through the events of other kinds after it.
        indexes = [
            models.Index(fields=["kingdom", "seq"], condition=Q(visibility=Visibility.KINGDOM),
                         name="event_kingdom_secret_seq"),
            models.Index(fields=["campaign", "seq"], condition=Q(visibility=Visibility.PUBLIC),
                         name="event_public_seq"),
        ]

    def __str__(self) -> str:
        return f"#{self.seq} {self.summary}"

    def clock_label(self) -> str:
        """The campaign's clock when this happened, short, in the words of the campaign's rule
        system (its shell's ``event_clock_label`` hook), e.g. "Game 9" or "R6 Movement"; lists
        of events load them through ``campaign.events`` so the campaign is not read again."""
        short = self.campaign.system.hook("event_clock_label")
        if short is not None:
            return short(self.year, self.season, self.month, self.phase)
        parts = [f"Y{self.year}"]
        if self.season:
            parts.append(self.season.capitalize())
        if self.month:
            parts.append(f"M{self.month}")
        if self.phase:
            parts.append(self.phase)
        return " ".join(parts)


def story_upload_to(instance: "ChronicleEntry", filename: str) -> str:
    return f"photos/{instance.campaign_id}/{secrets.token_hex(8)}.jpg"


def story_thumb_upload_to(instance: "ChronicleEntry", filename: str) -> str:
    return f"photos/{instance.campaign_id}/thumbs/{secrets.token_hex(8)}.jpg"


class Note(models.Model):
    """A GM's note on a kingdom or on a tile (exactly one of the two).

    A note is the GM's alone unless ``shared``: players and observers see shared notes only,
    and never learn that a GM-only note exists (its events are GM-only too).
    """

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="notes")
    kingdom = models.ForeignKey(
        Kingdom, null=True, blank=True, on_delete=models.CASCADE, related_name="notes"
    )
    tile = models.ForeignKey(
        Tile, null=True, blank=True, on_delete=models.CASCADE, related_name="notes"
    )
    text = models.TextField(max_length=4000)
    shared = models.BooleanField(default=False, help_text="Players and observers see it too.")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=(models.Q(kingdom__isnull=False, tile__isnull=True)
                           | models.Q(kingdom__isnull=True, tile__isnull=False)),
                name="note_on_kingdom_or_tile",
            )
        ]

    def __str__(self) -> str:
        return self.text[:60]


class ChronicleEntry(models.Model):
    """A paragraph of the campaign's story written by a GM, optionally with a photo, shown in
    the chronicle beside the event that added it and printed in the campaign book."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE,
                                 related_name="chronicle_entries")
    title = models.CharField(max_length=120, blank=True)
    text = models.TextField(max_length=6000)
    image = models.ImageField(upload_to=story_upload_to, blank=True)
    thumbnail = models.ImageField(upload_to=story_thumb_upload_to, blank=True)
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # The event that wrote it: the chronicle shows the entry in that event's place.
    event = models.ForeignKey(
        "Event", null=True, blank=True, on_delete=models.SET_NULL, related_name="entries"
    )
    year = models.PositiveIntegerField(default=1)
    season = models.CharField(max_length=20, blank=True)
    month = models.PositiveSmallIntegerField(null=True, blank=True)
    phase = models.CharField(max_length=20, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]
        verbose_name_plural = "chronicle entries"

    def __str__(self) -> str:
        return self.title or self.text[:60]

    def clock_label(self) -> str:
        parts = [f"Year {self.year}"]
        if self.season:
            parts.append(self.season.capitalize())
        if self.month:
            parts.append(f"month {self.month}")
        return ", ".join(parts)


class PrintJob(models.Model):
    """A long PDF (the campaign book) made in the background, with progress the page polls.

    The job's state lives here, not in a process, so closing the page loses nothing and any
    worker can pick up a job whose heartbeat went stale.
    """

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="print_jobs")
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    kind = models.CharField(max_length=30, default="book")
    options = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    progress = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    message = models.CharField(max_length=200, blank=True)
    file = models.FileField(upload_to="print/", blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    heartbeat = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.kind} for {self.campaign} ({self.status})"


class UsedFormToken(models.Model):
    """The one-time token of a form that created something, written in the same transaction as
    what it created (``campaign.once``): the same form arriving again is sent to ``location``,
    where the first one's result is shown, instead of creating it a second time."""

    token = models.CharField(max_length=64, primary_key=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    location = models.CharField(max_length=500, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"form {self.token[:8]} -> {self.location}"


class NotificationPreference(models.Model):
    """What one member of one campaign wants to be told by e-mail (``campaign.notifications``):
    their turn, a battle of their kingdom chosen, a phase closed, and a daily digest of the
    chronicle. ``digest_seq`` is the last event the digest told them about."""

    membership = models.OneToOneField(
        Membership, on_delete=models.CASCADE, related_name="notification_preference"
    )
    on_turn = models.BooleanField(default=False)
    on_battle = models.BooleanField(default=False)
    on_phase = models.BooleanField(default=False)
    daily_digest = models.BooleanField(default=False)
    digest_seq = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"notifications of {self.membership}"


class CampaignNotifications(models.Model):
    """A campaign's webhook (set by a GM; Discord-compatible JSON is posted to it) and what its
    notifications have told so far: the last event read, the clock label and whose turn it was,
    so each change is told once."""

    campaign = models.OneToOneField(
        Campaign, on_delete=models.CASCADE, related_name="notification_state"
    )
    webhook_url = models.URLField(max_length=500, blank=True)
    seen_seq = models.PositiveIntegerField(default=0)
    clock = models.CharField(max_length=200, blank=True)
    turn = models.JSONField(default=list, blank=True)

    def __str__(self) -> str:
        return f"notifications of {self.campaign}"
