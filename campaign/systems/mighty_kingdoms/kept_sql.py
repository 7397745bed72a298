"""The text of a few queries every Mighty Kingdoms page asks, worked out once per worker thread.

Django builds a query's SQL anew each time it runs: the filters, the joins their lookups make
and the selected columns are compiled again, which for the kingdoms, tokens and orders a page
reads took longer than the database took to answer them. ``value_rows`` keeps, under a key
naming every value the query is made of (the campaign's primary key, the month, whether a
column comes along), the SQL text, its parameters and the compiler that made them, and runs the
kept text again the next time, its rows converted by that compiler exactly as Django converts
them (``results_iter``). The rows themselves are never kept: every call asks the database.

A key must name everything the query depends on; the text is a pure function of it (the same
key always builds the same query). Each thread keeps its own (a compiler belongs to its thread's
connection), at most ``KEPT`` queries, the oldest forgotten first.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Any

from django.core.exceptions import EmptyResultSet
from django.db import connections
from django.db.models import QuerySet
from django.db.models.query import ValuesListIterable

KEPT = 256

_local = threading.local()


class _Kept:
    """One query's text, parameters and compiler (with its columns' converters)."""

    __slots__ = ("sql", "params", "compiler", "converters", "width")

    def __init__(self, sql: str, params: tuple[Any, ...], compiler: Any) -> None:
        self.sql = sql
        self.params = params
        self.compiler = compiler
        fields = [s[0] for s in compiler.select[0:compiler.col_count]]
        self.converters = compiler.get_converters(fields)
        self.width = compiler.col_count if compiler.has_extra_select else None


def _kept() -> dict[Hashable, _Kept]:
    found = getattr(_local, "kept", None)
    if found is None:
        found = _local.kept = {}
    return found  # type: ignore[no-any-return]


def value_rows(key: Hashable, build: Callable[[], QuerySet[Any]]) -> list[tuple[Any, ...]]:
    """The rows of the ``values_list`` query ``build()`` makes (tuples, as ``list(query)``
    gives them), in one query; its text is compiled only the first time a thread asks under
    ``key`` (which must name every value the query is made of)."""
    kept = _kept()
    entry = kept.get(key)
    if entry is not None and connections[entry.compiler.using] is not entry.compiler.connection:
        entry = None  # the thread's connection was replaced: compile again for the new one
    if entry is None:
        queryset = build()
        if queryset._iterable_class is not ValuesListIterable:  # noqa: SLF001
            raise TypeError("value_rows keeps the text of values_list queries only")
        compiler = queryset.query.get_compiler(queryset.db)
        try:
            sql, params = compiler.as_sql()
        except EmptyResultSet:
            return []
        if not sql:
            return []
        entry = _Kept(sql, tuple(params), compiler)
        kept.pop(key, None)
        while len(kept) >= KEPT:
            del kept[next(iter(kept))]
        kept[key] = entry
    compiler = entry.compiler
    with connections[compiler.using].cursor() as cursor:
        cursor.execute(entry.sql, entry.params)
        rows = cursor.fetchall()
    if entry.width is not None:
        rows = [row[:entry.width] for row in rows]
    if entry.converters:
        return [tuple(row) for row in compiler.apply_converters(rows, entry.converters)]
    return [tuple(row) for row in rows]
