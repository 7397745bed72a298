"""The ledger's writes and reads: entries per event, cached balances, the CSV export.

Resources move only by ``LedgerEntry`` rows (DESIGN principle 4). ``post`` writes the entries of
one chronicle event through its ``Recorder`` and updates the cached ``Balance`` rows in the same
transaction, after locking them (``select_for_update``), so undoing the event deletes the entries
and puts the balances back. A posting that would leave any balance below zero is refused as a
whole, with the reason, and writes nothing.

Nothing here knows a rule system: a line is anything with ``resource``, ``amount``, ``rule_id``
and ``source`` (the rules' ``IncomeLine`` fits), and resources are the system's own.
"""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol

from django.db import models
from django.db.models import QuerySet

from campaign.chronicle import Recorder
from campaign.models import Campaign, Event, Kingdom
from campaign.services import ServiceError
from ledger.models import Balance, LedgerEntry


class Line(Protocol):
    """One movement of one resource: + gains, - spending, with the rule and its source."""

    resource: str
    amount: int
    rule_id: str
    source: str


class LedgerError(ServiceError):
    """A posting that would leave a balance below zero; nothing was written."""


def resources_of(campaign: Campaign) -> tuple[str, ...]:
    """The resources a campaign's rule system keeps, e.g. ("gold", "food")."""
    return tuple(choice.slug for choice in campaign.system.resources)


def balances(kingdoms: Iterable[Kingdom], resources: Sequence[str]) -> dict[int, dict[str, int]]:
    """Cached balances per kingdom id and resource (0 where nothing was ever booked); one query."""
    ids = [k.pk for k in kingdoms]
    result = {pk: {resource: 0 for resource in resources} for pk in ids}
    for kingdom_id, resource, amount in Balance.objects.filter(kingdom_id__in=ids).values_list(
        "kingdom_id", "resource", "amount"
    ):
        result[kingdom_id][resource] = amount
    return result


def post(rec: Recorder, lines: Iterable[tuple[Kingdom, Line]]) -> list[LedgerEntry]:
    """Book ``lines`` (kingdom, line) as entries of the event ``rec`` is recording.

    The kingdoms' balances are locked, checked and updated in the caller's transaction; if any
    would go below zero the whole posting is refused (``LedgerError``) before anything is written.
    Entries carry the campaign clock and, once the event is saved, the event.
    """
    pairs = [(kingdom, line) for kingdom, line in lines if line.amount]
    if not pairs:
        return []
    campaign = rec.campaign
    kingdoms = {kingdom.pk: kingdom for kingdom, _ in pairs}
    keys = {(kingdom.pk, line.resource) for kingdom, line in pairs}
    locked = {
        (b.kingdom_id, b.resource): b
        for b in Balance.objects.select_for_update()
        .filter(kingdom_id__in=kingdoms, resource__in={r for _, r in keys})
        .order_by("pk")
    }
    delta: dict[tuple[int, str], int] = defaultdict(int)
    rules: dict[tuple[int, str], list[str]] = defaultdict(list)
    for kingdom, line in pairs:
        key = (kingdom.pk, line.resource)
        delta[key] += line.amount
        if line.amount < 0 and line.rule_id not in rules[key]:
            rules[key].append(line.rule_id)
    for key in sorted(delta):
        have = locked[key].amount if key in locked else 0
        if have + delta[key] < 0:
            kingdom = kingdoms[key[0]]
            raise LedgerError(
                f"{kingdom.name} has {have} {key[1]} and this takes {-delta[key]}: a kingdom "
                f"cannot spend what it does not have ({', '.join(rules[key])})."
            )
    entries = []
    for kingdom, line in pairs:
        entry = LedgerEntry(
            campaign=campaign, kingdom=kingdom, resource=line.resource, amount=line.amount,
            rule_id=line.rule_id, source=line.source[:120], year=campaign.year,
            season=campaign.season, month=campaign.month, phase=campaign.phase,
        )
        entries.append(rec.create(entry))
    for key in sorted(delta):
        if not delta[key]:
            continue
        balance = locked.get(key)
        if balance is None:
            rec.create(Balance(kingdom_id=key[0], resource=key[1], amount=delta[key]))
        else:
            rec.update(balance, amount=balance.amount + delta[key])
    link_to_event(rec, entries)
    return entries


def link_to_event(rec: Recorder, rows: Iterable[models.Model]) -> None:
    """Point ``rows`` (created by this event, each with an ``event`` foreign key) at the event
    once the recorder has saved it.

    The event row only exists when the recorder finishes, after the rows were written. Setting
    the link then touches nothing but rows this very event created, which undoing it deletes, so
    undo stays exact.
    """
    pending: dict[type[models.Model], list[int]] | None = getattr(rec, "_event_links", None)
    if pending is None:
        links: dict[type[models.Model], list[int]] = defaultdict(list)
        pending = rec._event_links = links  # type: ignore[attr-defined]

        def link(event: Event) -> None:
            for model, pks in links.items():
                model._default_manager.filter(pk__in=pks, event__isnull=True).update(event=event)

        rec.on_saved(link)
    for row in rows:
        pending[type(row)].append(row.pk)


def entries_for(kingdom: Kingdom, year: int | None = None) -> QuerySet[LedgerEntry]:
    """A kingdom's entries in booking order, optionally of one campaign year."""
    entries = LedgerEntry.objects.filter(kingdom=kingdom).select_related("event")
    if year is not None:
        entries = entries.filter(year=year)
    return entries.order_by("pk")


def years_of(kingdom: Kingdom) -> list[int]:
    """The campaign years in which the kingdom has entries, latest first."""
    return sorted(
        set(LedgerEntry.objects.filter(kingdom=kingdom).values_list("year", flat=True)),
        reverse=True,
    )


def running(entries: Iterable[LedgerEntry], start: Mapping[str, int] | None = None
            ) -> list[tuple[LedgerEntry, int]]:
    """Each entry with the balance of its resource after it."""
    totals: dict[str, int] = defaultdict(int, start or {})
    result = []
    for entry in entries:
        totals[entry.resource] += entry.amount
        result.append((entry, totals[entry.resource]))
    return result


def totals_before(kingdom: Kingdom, year: int) -> dict[str, int]:
    """The sum of each resource booked before ``year`` (for running balances of one year)."""
    result: dict[str, int] = defaultdict(int)
    for resource, amount in LedgerEntry.objects.filter(kingdom=kingdom, year__lt=year).values_list(
        "resource", "amount"
    ):
        result[resource] += amount
    return dict(result)


def check_balances(kingdom: Kingdom) -> dict[str, tuple[int, int]]:
    """Resources whose cached balance differs from the sum of entries: {resource: (cached,
    summed)}. Empty when the books agree."""
    summed: dict[str, int] = defaultdict(int)
    for resource, amount in LedgerEntry.objects.filter(kingdom=kingdom).values_list(
        "resource", "amount"
    ):
        summed[resource] += amount
    cached = dict(Balance.objects.filter(kingdom=kingdom).values_list("resource", "amount"))
    return {
        resource: (cached.get(resource, 0), summed.get(resource, 0))
        for resource in set(summed) | set(cached)
        if cached.get(resource, 0) != summed.get(resource, 0)
    }


CSV_HEADER = ("entry", "year", "season", "month", "phase", "resource", "amount", "balance",
              "rule", "source", "event", "booked_at")


def _cell(value: object) -> object:
    """Text that a spreadsheet would run as a formula gets a leading apostrophe."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


def csv_bytes(kingdom: Kingdom) -> bytes:
    """The kingdom's whole ledger as CSV (UTF-8 with a BOM so spreadsheets read it right)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(CSV_HEADER)
    for entry, balance in running(entries_for(kingdom)):
        writer.writerow([
            entry.pk, entry.year, _cell(entry.season), entry.month or "", _cell(entry.phase),
            _cell(entry.resource), entry.amount, balance, _cell(entry.rule_id),
            _cell(entry.source), entry.event.seq if entry.event else "",
            entry.created_at.isoformat(timespec="seconds"),
        ])
    return ("\ufeff" + buffer.getvalue()).encode("utf-8")
