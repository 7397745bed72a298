"""Concurrent taps on a Middle Sea game (DESIGN principle 11): real requests from several
threads, each with its own client and database connection, released at the same moment.

The player to act double-taps *explore* on two phones (forms without a one-time token, as an
old page would send) while the GM ends that player's turn: the writers queue on the game's
locks, each sees the position the one before left, and the ledger still equals every reserve.

As in tests/mk/test_winter_concurrency.py, SQLite runs on a file copy of the test database
(the in-memory one fails a second writer at once instead of queueing it); PostgreSQL
(``DATABASE_URL``) uses the test database itself.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connections
from django.test import Client
from django.urls import reverse

from campaign.models import Event
from campaign.systems.middle_sea import services as ms
from ledger.services import balances
from tests.ms.conftest import Table

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def shared_db(tmp_path: Any) -> Iterator[None]:
    """On SQLite, point every connection at a file copy of the in-memory test database."""
    memory = connections["default"]
    if memory.vendor != "sqlite" or not memory.is_in_memory_db():
        yield
        return
    path = str(tmp_path / "concurrent.sqlite3")
    memory.ensure_connection()
    target = sqlite3.connect(path)
    memory.connection.backup(target)
    target.close()
    original = connections.settings["default"]
    connections.settings["default"] = {**original, "NAME": path}
    wrapper = type(memory)(connections.settings["default"], "default")
    connections["default"] = wrapper
    try:
        yield
    finally:
        wrapper.close()
        connections["default"] = memory
        connections.settings["default"] = original


def at_once(requests: list[tuple[Client, str, dict[str, Any]]]) -> list[int]:
    """POST every request from its own thread, all released together; the status of each."""
    results = [0] * len(requests)
    barrier = threading.Barrier(len(requests))
    errors: list[BaseException] = []

    def send(index: int, client: Client, url: str, data: dict[str, Any]) -> None:
        try:
            barrier.wait(timeout=10)
            results[index] = client.post(url, data).status_code
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=send, args=(i, *req)) for i, req in enumerate(requests)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors, errors
    return results


def test_ms_round_2_taps_at_once_queue_on_the_game(table: Table, shared_db: None) -> None:
    """MS-ROUND-2, MS-BUILD-2, MS-RES-1: two explores and the GM's *end turn* at once: each is
    applied to the position the one before left or refused by the rules; nothing is lost and
    the ledger equals every reserve."""
    table.setup(2)
    for name in ("Red", "Blue"):
        ms.end_turn(table.campaign, table.acting(name))
    slug = table.campaign.slug
    explore = reverse("ms:explore", args=[slug])
    events = Event.objects.filter(campaign=table.campaign).count()
    statuses = at_once([
        (table.client("Red"), explore, {"suit": "arms", "place": "N-FL"}),
        (table.client("Red"), explore, {"suit": "arms", "place": "N-FL"}),
        (table.client("gm"), reverse("campaign:advance", args=[slug]), {}),
    ])
    assert all(status in (302, 409) for status in statuses), statuses
    state = table.state()
    applied = Event.objects.filter(campaign=table.campaign).count() - events
    assert applied == statuses.count(302)
    red = state.players[0]
    explored = len(state.sites)
    # At most one explore takes N-FL (the other finds it taken, or the turn over), with one
    # payment; the GM's end of turn always applies.
    assert explored == statuses[:2].count(302) <= 1 and statuses[2] == 302
    assert (red.goods, red.gold) == (5 - explored, 5 - explored)
    books = balances(table.kingdoms.values(), ("goods", "gold", "unrest"))
    for p in state.players:
        got = books[table.kingdoms[p.name].pk]
        assert (got["goods"], got["gold"], got["unrest"]) == (p.goods, p.gold, p.unrest)
