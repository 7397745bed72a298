"""Reads whose SQL is worked out once per process, then run again with each call's values.

Django compiles a queryset into SQL every time it runs: its filters, the joins their lookups
make and the selected columns, about a millisecond of Python a query, which on a phone page's
first render cost as much as the database took to answer. The pages read the same few shapes
of query every time, only for another campaign, kingdom or map. So a shape's SQL is compiled
once, with stand-in values where the call's values go, and later calls run that SQL with their
own values through the connection's cursor (counted, logged and wrapped like any query). Only
the statement is kept, never a row: every call asks the database.

- ``kept_rows(key, build, *values)``: model instances, as ``list(build(*values))`` gives them
  (converters, ``select_related`` rows, annotations).
- ``kept_values(key, build, *values)``: a ``values_list`` query's tuples, converted as Django
  converts them, or with ``convert=False`` as the database answers them.

``build`` makes the queryset from ``values`` (whole numbers and text, each used as is, as a
filter's value); ``key`` names everything else that shapes it, since what is kept under it
serves every later call. A query the values cannot simply be put into (a value worked into a
LIKE pattern, say) is built each time. At most ``KEPT_LIMIT`` statements are kept, per
database; the store is emptied whole when full. On PostgreSQL the query's own constants (the
same at every call) are written into the kept text, the call's values alone sent as parameters
(``_constants_written_in``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connections
from django.db.models import Model, QuerySet
from django.db.models.base import ModelState
from django.db.models.query import RelatedPopulator, ValuesListIterable, get_related_populators
from django.db.models.signals import post_init, pre_init
from django.db.models.sql.constants import MULTI

from campaign import prepared

KEPT_LIMIT = 400
_kept: dict[tuple, Any] = {}


@dataclass(frozen=True)
class _Statement:
    """A queryset's SQL with where each value goes, its columns' converters and, for model
    rows, how they become instances (what Django's ``ModelIterable`` works out)."""

    sql: str
    slots: tuple[tuple[bool, Any], ...]  # (True, index of a value) or (False, a constant)
    converters: list[tuple[int, tuple[list[Any], Any]]]
    width: int | None = None  # the columns asked for, when ordering added more to the select
    model: type[Model] | None = None
    init_list: tuple[str, ...] = ()
    start: int = 0
    end: int = 0
    populators: tuple[_Related, ...] = ()
    annotations: tuple[tuple[str, int], ...] = ()
    make: Callable[[str, Sequence[Any]], Model] | None = None


def _maker(model: type[Model], init_list: Sequence[str]
           ) -> Callable[[str, Sequence[Any]], Model] | None:
    """``model.from_db`` for rows of every column, made as it makes them but without going
    through ``Model.__init__``'s loop over the fields (setting each value through its
    descriptor, which for the values read from the database only stores it): 25 to 35 us an
    instance, on a page that reads a hundred kingdoms with their players. A column the query
    deferred is left out of the instance, as the loop leaves it (read when first asked for).
    None where that loop could do more: a model with its own ``__init__`` or ``from_db``, or
    columns that are not the model's own. ``_quiet`` tells, at each read, whether a signal asks
    for the loop."""
    known = {f.attname for f in model._meta.concrete_fields}
    attnames = tuple(init_list)
    if (not set(attnames) <= known or model.__init__ is not Model.__init__
            or model.from_db.__func__ is not Model.from_db.__func__):
        return None
    new = object.__new__

    def make(db: str, values: Sequence[Any]) -> Model:
        obj = new(model)
        state = ModelState()
        state.adding, state.db = False, db
        fields = obj.__dict__
        fields["_state"] = state
        fields.update(zip(attnames, values))
        return obj

    return make


def _quiet(model: type[Model]) -> bool:
    """Whether no receiver listens to ``model``'s instances being made (pre_init, post_init):
    only then is ``_maker``'s instance the one ``Model.__init__`` would make."""
    return not (pre_init.has_listeners(model) or post_init.has_listeners(model))


class _Related:
    """Django's ``RelatedPopulator`` (a ``select_related`` object of each row) with
    ``_maker``'s instances."""

    def __init__(self, populator: RelatedPopulator) -> None:
        self.populator = populator
        self.model = populator.model_cls
        self.make = _maker(populator.model_cls, populator.init_list)
        self.nested = tuple(_Related(p) for p in populator.related_populators)

    def quiet(self) -> bool:
        return _quiet(self.model) and all(n.quiet() for n in self.nested)

    def populate(self, row: Sequence[Any], from_obj: Model, quick: bool) -> None:
        p = self.populator
        data = p.reorder_for_init(row) if p.reorder_for_init else row[p.cols_start:p.cols_end]
        if data[p.pk_idx] is None:
            obj = None
        else:
            obj = (self.make(p.db, data) if quick and self.make is not None
                   else self.model.from_db(p.db, p.init_list, data))
            for nested in self.nested:
                nested.populate(row, obj, quick)
        p.local_setter(from_obj, obj)
        if obj is not None:
            p.remote_setter(obj, from_obj)


def _stand_in(index: int, value: Any) -> Any:
    """A value no query of ours holds as a constant, of the same type as ``value``."""
    if type(value) is int:
        return -918_273_645 - index
    if type(value) is str:
        return f"\x1fvalue {index}\x1f"
    raise TypeError(f"kept reads take whole numbers and text, not {type(value).__name__}")


_PLACE = re.compile(r"%%|%s")
Rewrite = Callable[[str, str], str]


def looked_up_row_by_row(sql: str, vendor: str, table: str, column: str, joined: str,
                         columns: Sequence[str]) -> str:
    """On PostgreSQL, ``sql`` with Django's ``INNER JOIN joined ON (table.column =
    joined.id)`` made a lateral subquery that looks each row of ``table`` up in ``joined`` by
    its primary key (``OFFSET 0`` keeps PostgreSQL from turning it back into a join), reading
    only ``columns``; the subquery takes the joined table's name, so the rest of the statement
    reads the same. For a few rows of a table joined to a large one (a campaign's tokens to the
    tiles of every map), PostgreSQL's plan for the join walked the large one's primary key in
    order, up to the highest key wanted: 2,300 entries for 48 rows at 16x. Elsewhere, or where
    the join is not found as Django writes it, ``sql`` as it was."""
    found = (f'INNER JOIN "{joined}" ON ("{table}"."{column}" = "{joined}"."id")')
    if vendor != "postgresql" or sql.count(found) != 1:
        return sql
    picked = ", ".join(f'x."{c}"' for c in columns)
    return sql.replace(found, f'CROSS JOIN LATERAL (SELECT {picked} FROM "{joined}" x '
                              f'WHERE x."id" = "{table}"."{column}" OFFSET 0) "{joined}"')


def _literal(value: Any) -> str | None:
    """``value`` as a PostgreSQL literal (standard strings, as Django's connections have
    them), or None for a value written in no other way than as a parameter. Whole numbers and
    text include their kinds Django sends (psycopg's ``Int4`` of an ``EXISTS``, a ``TextChoices``
    member), written as the values they hold."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(int(value))
    if isinstance(value, str):
        text = str.__str__(value)
        if "\x00" not in text:
            return "'" + text.replace("'", "''") + "'"
    return None


def _constants_written_in(sql: str, slots: list[tuple[bool, Any]]
                          ) -> tuple[str, list[tuple[bool, Any]]]:
    """The statement with the query's own constants (the same at every call: a resource's
    name, an event's visibility, a union's marks) written into its text, and the slots left.
    Sent as parameters, PostgreSQL planned some statements anew at every ask, as it judges a
    plan for unknown values of every parameter worse than one for the values at hand (0.5 to
    0.7 ms of planning for the latest events or the kingdoms with their gold and food, at 16x,
    for 0.1 to 0.5 ms of running); with the constants written in it keeps one plan."""
    left: list[tuple[bool, Any]] = []
    parts: list[str] = []
    at = 0
    index = 0
    for found in _PLACE.finditer(sql):
        if found.group() == "%%":
            continue
        slot = slots[index]
        index += 1
        literal = None if slot[0] else _literal(slot[1])
        if literal is None:
            left.append(slot)
            continue
        parts.append(sql[at:found.start()])
        parts.append(literal.replace("%", "%%"))
        at = found.end()
    if index != len(slots):  # not Django's placeholders after all: left as they were
        return sql, slots
    parts.append(sql[at:])
    return "".join(parts), left


def _statement(build: Callable[..., QuerySet], values: Sequence[Any], *,
               instances: bool, rewrite: Rewrite | None = None) -> _Statement | None:
    stand_ins = [_stand_in(i, v) for i, v in enumerate(values)]
    queryset = build(*stand_ins)
    if not instances and queryset._iterable_class is not ValuesListIterable:
        raise TypeError("kept_values reads a values_list query (not flat, not named)")
    compiler = queryset.query.get_compiler(using=queryset.db)
    sql, params = compiler.as_sql()
    if rewrite is not None:
        sql = rewrite(sql, connections[queryset.db].vendor)
    slots, seen = [], set()
    for param in params:
        index = next((i for i, s in enumerate(stand_ins) if type(param) is type(s)
                      and param == s), None)
        if index is None:
            if any(isinstance(s, str) and s in str(param) for s in stand_ins):
                return None  # a value worked into another (a LIKE pattern): not kept
            slots.append((False, param))
        else:
            slots.append((True, index))
            seen.add(index)
    if len(seen) != len(values) or any(str(s) in sql for s in stand_ins):
        return None
    if connections[queryset.db].vendor == "postgresql":
        sql, slots = _constants_written_in(sql, slots)
    select = compiler.select
    converters = list(compiler.get_converters(
        [s[0] for s in select[0:compiler.col_count]]).items())
    if not instances:
        return _Statement(sql=sql, slots=tuple(slots), converters=converters,
                          width=compiler.col_count if compiler.has_extra_select else None)
    klass_info = compiler.klass_info
    fields = klass_info["select_fields"]
    start, end = fields[0], fields[-1] + 1
    init_list = tuple(f[0].target.attname for f in select[start:end])
    return _Statement(
        sql=sql, slots=tuple(slots), converters=converters, model=klass_info["model"],
        init_list=init_list, start=start, end=end,
        populators=tuple(_Related(p) for p in get_related_populators(klass_info, select,
                                                                    queryset.db)),
        annotations=tuple((compiler.annotation_col_map or {}).items()),
        make=_maker(klass_info["model"], init_list),
    )


def _run(key: tuple, build: Callable[..., QuerySet], values: Sequence[Any], *,
         instances: bool, rewrite: Rewrite | None = None,
         ) -> tuple[_Statement | None, list[tuple], Any]:
    """The kept statement (None: built each time) and its rows as the database answers."""
    connection = connections["default"]
    slot = (connection.alias, connection.vendor, instances, key)
    statement = _kept.get(slot)
    if statement is None:
        statement = _statement(build, values, instances=instances, rewrite=rewrite) or False
        if len(_kept) >= KEPT_LIMIT:
            _kept.clear()
        _kept[slot] = statement
    if statement is False:
        return None, [], connection
    params = [values[x] if is_value else x for is_value, x in statement.slots]
    with prepared.cursor(connection.alias) as cursor:
        cursor.execute(statement.sql, params)
        return statement, cursor.fetchall(), connection


def _converted(statement: _Statement, rows: list[tuple], connection: Any) -> list[Any]:
    if not statement.converters:
        return rows
    done = []
    for row in rows:
        row = list(row)
        for pos, (convs, expression) in statement.converters:
            value = row[pos]
            for converter in convs:
                value = converter(value, expression, connection)
            row[pos] = value
        done.append(row)
    return done


def kept_rows(key: tuple, build: Callable[..., QuerySet], *values: Any,
              known: dict[str, Model] | None = None) -> list[Any]:
    """``list(build(*values))``, the same instances, with the queryset's SQL worked out once.

    ``known`` gives related objects the rows point to, as a related manager does
    (``{"campaign": campaign}`` for a campaign's events), set on each row whose key matches."""
    statement, rows, connection = _run(key, build, values, instances=True)
    if statement is None:
        return list(build(*values))
    db, model, init_list = connection.alias, statement.model, statement.init_list
    start, end = statement.start, statement.end
    known_fields = [(model._meta.get_field(name), instance)
                    for name, instance in (known or {}).items()]
    quick = _quiet(model) and all(p.quiet() for p in statement.populators)
    make = statement.make if quick else None
    found = []
    for row in _converted(statement, rows, connection):
        obj = (make(db, row[start:end]) if make is not None
               else model.from_db(db, init_list, row[start:end]))
        for populator in statement.populators:
            populator.populate(row, obj, quick)
        for name, pos in statement.annotations:
            setattr(obj, name, row[pos])
        for fk, instance in known_fields:
            if not fk.is_cached(obj) and getattr(obj, fk.attname) == instance.pk:
                setattr(obj, fk.name, instance)
        found.append(obj)
    return found


def kept_values(key: tuple, build: Callable[..., QuerySet], *values: Any,
                convert: bool = True, rewrite: Rewrite | None = None) -> list[tuple]:
    """The tuples of the ``values_list`` query ``build(*values)``, its SQL worked out once:
    converted as Django converts them (JSON decoded, and so on), or with ``convert=False`` as
    the database answers them (SQLite's flags as 0 and 1, JSON as text). ``rewrite(sql,
    vendor)`` may change the kept text once, where the ORM cannot say what the database should
    do (``looked_up_row_by_row``); it must keep the columns, their order and the placeholders."""
    statement, rows, connection = _run(key, build, values, instances=False, rewrite=rewrite)
    if statement is None:
        queryset = build(*values)
        if convert:
            return list(queryset)
        compiler = queryset.query.get_compiler(using=queryset.db)
        return [tuple(row) for chunk in compiler.execute_sql(MULTI) for row in chunk]
    if statement.width is not None:
        rows = [row[:statement.width] for row in rows]
    if not convert:
        return rows
    return [tuple(row) for row in _converted(statement, rows, connection)]
