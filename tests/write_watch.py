"""Every write has its event (DESIGN principle 3, issue 19): a watch on the database connection
that notes each INSERT, UPDATE or DELETE of campaign data made during a request while no chronicle
``Recorder`` is open, which no undo could reverse.

``watch_writes`` is a fixture: test modules that replay the main flows through the web views use
it (``pytestmark = pytest.mark.usefixtures("watch_writes")``), and the test fails when a request
wrote campaign data outside an event. Only requests are watched: a test's own set-up writes rows
directly, as factories do.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.apps import apps
from django.db import connections
from django.test import Client

from campaign import chronicle


def _campaign_apps() -> tuple[str, ...]:
    """The project's apps whose tables hold campaign data: the core's and every registered rule
    system's own app (its package is an app), so a new system is watched without a list to keep
    by hand."""
    from campaign.rulesystems import REGISTRY

    packages = {entry.partition(":")[0] for entry in REGISTRY.values()}
    systems = sorted(c.label for c in apps.get_app_configs() if c.name in packages)
    return ("campaign", "ledger", "battles", *systems)


CAMPAIGN_APPS = _campaign_apps()
# Written outside an event on purpose: the chronicle itself (the recorder writes the event row
# and an undo marks the event it undid), a form's one-time token (bookkeeping of the request,
# written in the transaction of what the form created) and print jobs (progress of a PDF).
NOT_CAMPAIGN_DATA = frozenset({"campaign_event", "campaign_usedformtoken", "campaign_printjob"})
WRITE = re.compile(r'^\s*(INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+"?(\w+)"?', re.IGNORECASE)


def campaign_tables() -> frozenset[str]:
    return frozenset(
        model._meta.db_table for model in apps.get_models()
        if model._meta.app_label in CAMPAIGN_APPS
    ) - NOT_CAMPAIGN_DATA


class WriteWatch:
    """Notes the campaign writes made while ``active`` and no recorder is open."""

    def __init__(self) -> None:
        self.tables = campaign_tables()
        self.active = False
        self.request = ""
        self.outside: list[tuple[str, str]] = []
        self.inside = 0

    def __call__(self, execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        if self.active:
            found = WRITE.match(sql)
            if found and found.group(2) in self.tables:
                if chronicle.recorder_open():
                    self.inside += 1
                else:
                    self.outside.append((self.request, sql[:200]))
        return execute(sql, params, many, context)


@pytest.fixture
def watch_writes(monkeypatch: pytest.MonkeyPatch) -> Iterator[WriteWatch]:
    """Watch every request of the test; fail it if one wrote campaign data outside an event."""
    watch = WriteWatch()
    original = Client.request

    def watched(client: Client, **request: Any) -> Any:
        watch.active, watch.request = True, (
            f"{request.get('REQUEST_METHOD', 'GET')} {request.get('PATH_INFO', '')}")
        # A recorder left open by an earlier failure would hide writes: start from none.
        token = chronicle._open_recorders.set(0)
        try:
            return original(client, **request)
        finally:
            chronicle._open_recorders.reset(token)
            watch.active = False

    monkeypatch.setattr(Client, "request", watched)
    # The same for the test's own writes: a recorder an earlier test left open (one that raised
    # before it finished) must not hide them.
    start = chronicle._open_recorders.set(0)
    wrappers = []
    for alias in connections:
        connection = connections[alias]
        wrapper = connection.execute_wrapper(watch)
        wrapper.__enter__()
        wrappers.append(wrapper)
    try:
        yield watch
    finally:
        for wrapper in reversed(wrappers):
            wrapper.__exit__(None, None, None)
        chronicle._open_recorders.reset(start)
    assert not watch.outside, (
        "Campaign data written outside a chronicle event (no undo can reverse it):\n"
        + "\n".join(f"{request}: {sql}" for request, sql in watch.outside))
