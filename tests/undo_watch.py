"""Undo of every kind of action is exact (DESIGN principle 3, issue 19): each POST of a test flow
that records reversible events is followed, inside a savepoint, by undoing those events (latest
first) and comparing a full dump of every campaign table with the dump taken before the POST;
the savepoint is then rolled back, so the flow carries on as if nothing had been undone.

``undo_each_action`` is the fixture; ``UndoWatch.kinds`` counts the kinds of event checked, so a
test can assert which kinds its flow covered.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from django.apps import apps
from django.db import models, transaction
from django.test import Client

from campaign.chronicle import latest_standing, undo_latest
from campaign.models import Event
from tests.write_watch import CAMPAIGN_APPS, NOT_CAMPAIGN_DATA


def campaign_models() -> list[type[models.Model]]:
    return [model for model in apps.get_models()
            if model._meta.app_label in CAMPAIGN_APPS
            and model._meta.db_table not in NOT_CAMPAIGN_DATA]


def full_dump() -> dict[str, list[dict[str, Any]]]:
    """Every row of every campaign table, field by field, in primary-key order."""
    return {model._meta.label: list(model._default_manager.order_by("pk").values())
            for model in campaign_models()}


class UndoWatch:
    def __init__(self) -> None:
        self.kinds: Counter[str] = Counter()
        self.mismatches: list[str] = []
        self.busy = False

    def check(self, send: Any) -> Any:
        """Send one request; if it recorded reversible events, undo them, compare, put back."""
        if self.busy:
            return send()
        last = Event.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
        before = full_dump()
        response = send()
        new = list(Event.objects.filter(pk__gt=last, undo_of__isnull=True, undone_at__isnull=True)
                   .order_by("seq"))
        if not new or not all(event.reversible for event in new):
            return response
        self.busy = True
        point = transaction.savepoint()
        try:
            for event in reversed(new):
                latest = latest_standing(event.campaign)
                assert latest is not None and latest.pk == event.pk
                undo_latest(event.campaign, None, expected_seq=event.seq)
            after = full_dump()
            for label in before:
                if after[label] != before[label]:
                    self.mismatches.append(
                        f"{', '.join(e.kind for e in new)}: {label} not restored "
                        f"({_first_difference(before[label], after[label])})")
            self.kinds.update(event.kind for event in new)
        finally:
            transaction.savepoint_rollback(point)
            self.busy = False
        return response


def _first_difference(before: list[dict[str, Any]], after: list[dict[str, Any]]) -> str:
    b = {row["id"]: row for row in before}
    a = {row["id"]: row for row in after}
    if set(a) != set(b):
        return f"rows {sorted(set(a) ^ set(b))[:5]} differ"
    for pk, row in b.items():
        changed = sorted(k for k in row if a[pk].get(k) != row[k])
        if changed:
            return f"row {pk}: {', '.join(changed)}"
    return "order"


@pytest.fixture
def undo_each_action(monkeypatch: pytest.MonkeyPatch) -> Iterator[UndoWatch]:
    """Check the undo of every POST the test sends; fail the test on any row not restored."""
    watch = UndoWatch()
    original = Client.request

    def checked(client: Client, **request: Any) -> Any:
        if request.get("REQUEST_METHOD") != "POST":
            return original(client, **request)
        return watch.check(lambda: original(client, **request))

    monkeypatch.setattr(Client, "request", checked)
    yield watch
    assert not watch.mismatches, "Undo was not exact:\n" + "\n".join(watch.mismatches)
