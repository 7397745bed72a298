"""The ledger services: entries per event, cached balances that never go below zero, undo, and
the CSV (DESIGN principle 4, MK-WINTER-6)."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from django.db import transaction

from campaign.chronicle import Recorder, undo_latest
from campaign.models import Kingdom
from campaign.systems.mighty_kingdoms.rules.ledger import IncomeLine
from ledger import services as ledger
from ledger.models import Balance, LedgerEntry
from tests.mk.test_winter_world import World, dump, plain_summer, tv3  # noqa: F401

pytestmark = pytest.mark.django_db


def book(w: World, lines: list[tuple[str, IncomeLine]], summary: str = "booked") -> Any:
    with transaction.atomic(), Recorder(w.fresh(), w.gm, "test.book", summary) as rec:
        entries = ledger.post(rec, [(w.k(name), line) for name, line in lines])
    return rec.event, entries


def gold(amount: int, rule: str = "MK-WINTER-2", source: str = "city at 0101") -> IncomeLine:
    return IncomeLine("gold", amount, rule, source)


def food(amount: int, rule: str = "MK-WINTER-2", source: str = "village at 0104") -> IncomeLine:
    return IncomeLine("food", amount, rule, source)


def test_post_books_entries_with_rule_source_clock_and_event(tv3: World) -> None:
    event, entries = book(tv3, [("Red", gold(1)), ("Red", gold(1, source="city at 0102")),
                                ("Blue", food(1))])
    rows = list(LedgerEntry.objects.order_by("pk").values_list(
        "kingdom__name", "resource", "amount", "rule_id", "source", "year", "season", "month",
        "phase", "event_id"))
    assert rows == [
        ("Red", "gold", 1, "MK-WINTER-2", "city at 0101", 1, "summer", 6, "D", event.pk),
        ("Red", "gold", 1, "MK-WINTER-2", "city at 0102", 1, "summer", 6, "D", event.pk),
        ("Blue", "food", 1, "MK-WINTER-2", "village at 0104", 1, "summer", 6, "D", event.pk)]
    assert ledger.balances([tv3.k("Red"), tv3.k("Blue")], ("gold", "food")) == {
        tv3.kingdoms["Red"].pk: {"gold": 2, "food": 0},
        tv3.kingdoms["Blue"].pk: {"gold": 0, "food": 1}}
    assert Balance.objects.count() == 2


def test_post_refuses_a_negative_balance_and_writes_nothing(tv3: World) -> None:
    book(tv3, [("Red", gold(1))])
    before = dump()
    with pytest.raises(ledger.LedgerError) as refused:
        book(tv3, [("Red", gold(-1, "MK-BUY-3", "village at 0202")),
                   ("Red", food(-1, "MK-SETTLE-3", "city at 0104")), ("Blue", gold(1))])
    assert str(refused.value) == (
        "Red has 0 food and this takes 1: a kingdom cannot spend what it does not have "
        "(MK-SETTLE-3).")
    assert dump() == before


def test_post_nets_several_lines_before_checking(tv3: World) -> None:
    """A tithe passed on in one event: +1 then -1 leaves the balance where it was."""
    book(tv3, [("Red", gold(1, "MK-TITHE-1", "tithe from Blue")),
               ("Red", gold(-1, "MK-TITHE-1", "tithe to Green"))])
    assert ledger.balances([tv3.k("Red")], ("gold",))[tv3.kingdoms["Red"].pk]["gold"] == 0
    assert LedgerEntry.objects.count() == 2


def test_the_balance_constraint_is_a_database_safety_net(tv3: World) -> None:
    from django.db import IntegrityError

    with pytest.raises(IntegrityError), transaction.atomic():
        Balance.objects.create(kingdom=tv3.k("Red"), resource="gold", amount=-1)


def test_undo_deletes_the_entries_and_restores_the_balances(tv3: World) -> None:
    book(tv3, [("Red", gold(3))])
    before = dump()
    event, _ = book(tv3, [("Red", gold(-2, "MK-SETTLE-3", "fortress at 0104")),
                          ("Green", food(1))])
    assert ledger.balances([tv3.k("Red")], ("gold",))[tv3.kingdoms["Red"].pk]["gold"] == 1
    undo_latest(tv3.fresh(), tv3.gm, expected_seq=event.seq)
    assert dump() == before
    assert not Balance.objects.filter(kingdom=tv3.k("Green")).exists()


def test_check_balances_finds_a_cached_balance_that_drifted(tv3: World) -> None:
    book(tv3, [("Red", gold(2))])
    assert ledger.check_balances(tv3.k("Red")) == {}
    Balance.objects.filter(kingdom=tv3.k("Red")).update(amount=5)
    assert ledger.check_balances(tv3.k("Red")) == {"gold": (5, 2)}


def test_running_balances_and_years(tv3: World) -> None:
    book(tv3, [("Red", gold(2)), ("Red", food(1)), ("Red", gold(-1, "MK-BUY-3", "x"))])
    red = tv3.k("Red")
    rows = [(e.resource, e.amount, after) for e, after in
            ledger.running(ledger.entries_for(red), {"gold": 10})]
    assert rows == [("gold", 2, 12), ("food", 1, 1), ("gold", -1, 11)]
    assert ledger.years_of(red) == [1]
    assert ledger.totals_before(red, 2) == {"gold": 1, "food": 1}


def test_csv_has_every_entry_with_its_running_balance(tv3: World) -> None:
    event, _ = book(tv3, [("Red", gold(1)), ("Red", gold(-1, "MK-SETTLE-3", "=cmd|' /C calc'!A0"))])
    data = ledger.csv_bytes(tv3.k("Red"))
    assert data.startswith("\ufeff".encode())
    rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))
    assert rows[0] == list(ledger.CSV_HEADER)
    assert [r[1:11] for r in rows[1:]] == [
        ["1", "summer", "6", "D", "gold", "1", "1", "MK-WINTER-2", "city at 0101",
         str(event.seq)],
        ["1", "summer", "6", "D", "gold", "-1", "0", "MK-SETTLE-3", "'=cmd|' /C calc'!A0",
         str(event.seq)]]


def test_resources_come_from_the_rule_system(tv3: World) -> None:
    assert ledger.resources_of(tv3.fresh()) == ("gold", "food")
    assert isinstance(tv3.k("Red"), Kingdom)
