"""Concurrent taps (DESIGN principle 11): real requests from several threads, each with its own
test Client and database connection, at the same moment.

Two players buy at once while one of them double-taps "buy"; a player double-taps "feed". After
each, the ledger sums equal the cached balances, no gold or food is lost or made up, and the
double tap makes exactly one purchase (one feeding): the other tap is refused with 409.

SQLite's in-memory test database is shared-cache, where a second writer fails at once instead of
waiting; production SQLite is a WAL file with IMMEDIATE transactions that queue. So on SQLite
these tests run on a file copy of the test database with the project's own settings; on
PostgreSQL (``DATABASE_URL``) they run on the test database itself, where the services'
``select_for_update`` does the queueing.
"""

from __future__ import annotations

import re
import sqlite3
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connections
from django.test import Client
from django.urls import reverse

from campaign.models import Event
from campaign.systems.mighty_kingdoms import winter_services as ws
from campaign.systems.mighty_kingdoms.models import Purchase
from ledger import services as ledger
from ledger.models import LedgerEntry
from tests.mk.test_winter_world import (  # noqa: F401 (fixtures)
    World,
    books_agree,
    build_tv3,
    plain_summer,
    to_phase,
)

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
    settings = {**original, "NAME": path}
    connections.settings["default"] = settings
    wrapper = type(memory)(settings, "default")
    connections["default"] = wrapper
    try:
        yield
    finally:
        wrapper.close()
        connections["default"] = memory
        connections.settings["default"] = original


def text(body: bytes) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", body.decode()).split()).replace("&#x27;", "'")


def at_once(requests: list[tuple[Client, str, dict[str, Any]]]) -> list[tuple[int, str]]:
    """POST every request from its own thread, all released together; (status, text) each."""
    results: list[tuple[int, str]] = [(0, "")] * len(requests)
    barrier = threading.Barrier(len(requests))
    errors: list[BaseException] = []

    def send(index: int, client: Client, url: str, data: dict[str, Any]) -> None:
        try:
            barrier.wait(timeout=10)
            response = client.post(url, data)
            results[index] = (response.status_code, text(response.content))
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


def client_for(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def totals(w: World) -> dict[str, tuple[int, int]]:
    return {name: w.stock(name) for name in ("Red", "Blue", "Green")}


@pytest.mark.parametrize("round_", range(3))
def test_mk_buy_two_players_at_once_and_a_double_tap(shared_db: None, gm: Any,
                                                     plain_summer: None, round_: int) -> None:
    w = build_tv3(gm, slug=f"concurrent-{round_}")
    to_phase(w, ws.BUY)
    before = totals(w)
    assert before == {"Red": (4, 3), "Blue": (2, 2), "Green": (2, 1)}
    url = reverse("mk:winter_buy", args=[w.campaign.slug])
    red_tap = {"kind": "settle", "tile": w.t("E1"), "to": "village"}
    blue_buy = {"kind": "settle", "tile": w.t("BV1"), "to": "fortress"}
    events = Event.objects.count()
    results = at_once([
        (client_for(w.users["Red"]), url, red_tap),
        (client_for(w.users["Red"]), url, red_tap),
        (client_for(w.users["Blue"]), url, blue_buy),
    ])
    red_results, blue_result = results[:2], results[2]

    # The double tap: exactly one purchase; the other tap refused, with the reason.
    assert sorted(status for status, _ in red_results) == [302, 409]
    refusal = next(body for status, body in red_results if status == 409)
    assert re.search(r"It is (Blue|Green)'s turn \(MK-BUY-1\)", refusal), refusal
    assert Purchase.objects.filter(kingdom=w.kingdoms["Red"]).count() == 1
    # Blue bought if its request came after Red's first tap, and was refused if before.
    blue_bought = blue_result[0] == 302
    if not blue_bought:
        assert blue_result[0] == 409 and "It is Red's turn (MK-BUY-1)." in blue_result[1]
    assert Purchase.objects.filter(kingdom=w.kingdoms["Blue"]).count() == int(blue_bought)
    assert Event.objects.count() == events + 1 + int(blue_bought)

    # Nothing lost, nothing made up: every balance is its entries' sum and moved by the price.
    assert books_agree(*(w.k(n) for n in ("Red", "Blue", "Green")))
    assert totals(w) == {"Red": (3, 3), "Blue": (0, 2) if blue_bought else (2, 2),
                         "Green": (2, 1)}
    spent = LedgerEntry.objects.filter(amount__lt=0)
    assert spent.count() == 1 + int(blue_bought)
    assert all(e.event_id is not None for e in LedgerEntry.objects.all())


def test_mk_feed_a_double_tap_feeds_once(shared_db: None, gm: Any, plain_summer: None) -> None:
    w = build_tv3(gm, slug="concurrent-feed")
    to_phase(w, ws.FEED)
    url = reverse("mk:winter_feed", args=[w.campaign.slug])
    tap = {"fed": ["1", "2", "3"]}
    results = at_once([(client_for(w.users["Red"]), url, tap),
                       (client_for(w.users["Red"]), url, tap),
                       (client_for(w.users["Blue"]), url, {"fed": ["1"]})])
    assert sorted(status for status, _ in results[:2]) == [302, 409]
    assert any("already fed its armies" in body for _, body in results[:2])
    assert results[2][0] == 302
    assert w.stock("Red") == (4, 0)
    assert w.stock("Blue") == (2, 1)
    assert LedgerEntry.objects.filter(rule_id="MK-FEED-1").count() == 4
    assert all(not ledger.check_balances(w.k(n)) for n in ("Red", "Blue", "Green"))
