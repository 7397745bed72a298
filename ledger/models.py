"""The economy: an append-only ledger of resource movements per kingdom."""

from __future__ import annotations

from django.db import models

from campaign.models import Campaign, Event, Kingdom


class LedgerEntry(models.Model):
    """One movement of one resource, citing the rule and its source (DESIGN: the ledger)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="ledger_entries")
    kingdom = models.ForeignKey(Kingdom, on_delete=models.CASCADE, related_name="ledger_entries")
    resource = models.CharField(max_length=20)
    amount = models.IntegerField()
    rule_id = models.CharField(max_length=30)
    source = models.CharField(max_length=120)
    event = models.ForeignKey(
        Event, null=True, blank=True, on_delete=models.SET_NULL, related_name="ledger_entries"
    )
    year = models.PositiveIntegerField(default=1)
    season = models.CharField(max_length=20, blank=True)
    month = models.PositiveSmallIntegerField(null=True, blank=True)
    phase = models.CharField(max_length=20, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]
        indexes = [models.Index(fields=["kingdom", "resource"])]

    def __str__(self) -> str:
        return f"{self.kingdom}: {self.amount:+d} {self.resource} ({self.rule_id})"


class Balance(models.Model):
    """The cached sum of a kingdom's entries for one resource, updated with every entry."""

    kingdom = models.ForeignKey(Kingdom, on_delete=models.CASCADE, related_name="balances")
    resource = models.CharField(max_length=20)
    amount = models.IntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["kingdom", "resource"], name="balance_unique"),
            models.CheckConstraint(condition=models.Q(amount__gte=0), name="balance_not_negative"),
        ]

    def __str__(self) -> str:
        return f"{self.kingdom}: {self.amount} {self.resource}"
