"""What a printed kingdom ledger shows of the ledger itself: balances and the latest entries.

The rule system's sheet adds its own forecast and costs (e.g. Mighty Kingdoms' winter income);
these helpers only read the append-only ledger.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from campaign.models import Kingdom
from ledger.models import Balance, LedgerEntry


def balances(kingdom: Kingdom, resources: Sequence[str]) -> dict[str, int]:
    """The kingdom's stock of each resource now (0 where it has none)."""
    held = dict(Balance.objects.filter(kingdom=kingdom).values_list("resource", "amount"))
    return {resource: held.get(resource, 0) for resource in resources}


@dataclass(frozen=True)
class Season:
    year: int
    season: str
    entries: list[LedgerEntry]

    @property
    def label(self) -> str:
        return f"Year {self.year}, {self.season}" if self.season else f"Year {self.year}"

    def total(self, resource: str) -> int:
        return sum(e.amount for e in self.entries if e.resource == resource)


def last_season(kingdom: Kingdom) -> Season | None:
    """The entries of the latest season in which the kingdom's ledger moved, oldest first."""
    latest = (LedgerEntry.objects.filter(kingdom=kingdom)
              .order_by("-year", "-created_at", "-pk").values("year", "season").first())
    if latest is None:
        return None
    entries = list(LedgerEntry.objects.filter(kingdom=kingdom, year=latest["year"],
                                              season=latest["season"]).order_by("created_at", "pk"))
    return Season(latest["year"], latest["season"], entries)
