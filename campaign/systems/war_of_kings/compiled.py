"""The reads every War of Kings page makes, with their SQL written by the ORM once per process.

A page reads the same few shapes of query every time (a campaign's tiles, kingdoms, armies,
balances), only for another campaign. Turning a queryset into SQL costs the ORM about as much
as the database takes to answer it, so each shape is compiled once, with a stand-in number
where the campaign's id goes, and later reads run that SQL with the real id. The rows are what
the queryset itself would give: the same converters run on each value (JSON decoded, and so
on), and a model's rows become instances the way the ORM makes them (``Model.from_db``).

Each read is still one query through the connection's cursor (so it is counted, logged and
wrapped like any other).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from django.db import connections, router
from django.db.models import Model, QuerySet

#: The stand-in id a shape is compiled with. No row has a negative id.
STAND_IN = -7_340_019

_SHAPES: dict[tuple[str, str], _Shape] = {}
_SHAPES_LOCK = threading.Lock()


class _Shape:
    """One compiled query: its SQL, parameters (the stand-in marked), converters, and for a
    model's rows the model and the attribute of each column."""

    __slots__ = ("sql", "params", "converters", "model", "attnames")

    def __init__(self, queryset: QuerySet[Any], db: str, *, instances: bool) -> None:
        compiler = queryset.query.get_compiler(using=db)
        self.sql, params = compiler.as_sql()
        self.params = tuple(params)
        if STAND_IN not in self.params:
            raise ValueError("A compiled read must take the stand-in id.")
        fields = [s[0] for s in compiler.select[0:compiler.col_count]]
        self.converters = [(pos, convs, expression) for pos, (convs, expression)
                           in compiler.get_converters(fields).items()]
        self.model: type[Model] | None = None
        self.attnames: list[str] = []
        if instances:
            klass_info = compiler.klass_info
            if (klass_info is None or klass_info.get("related_klass_infos")
                    or compiler.annotation_col_map
                    or len(klass_info["select_fields"]) != len(fields)):
                raise ValueError("A compiled read of instances reads one model's own fields.")
            self.model = klass_info["model"]
            self.attnames = [col.target.attname for col in fields]


def rows(name: str, model: type[Model], build: Callable[[int], QuerySet[Any]], pk: int, *,
         instances: bool = False) -> list[Any]:
    """The rows of ``build(pk)`` (a queryset whose only varying value is ``pk``): tuples, or with
    ``instances`` model instances. ``name`` names the shape; ``build`` is called only the first
    time (with the stand-in id)."""
    db = router.db_for_read(model)
    connection = connections[db]
    key = (name, f"{db}:{connection.vendor}")
    shape = _SHAPES.get(key)
    if shape is None:
        shape = _Shape(build(STAND_IN), db, instances=instances)
        with _SHAPES_LOCK:
            _SHAPES[key] = shape
    params = tuple(pk if p == STAND_IN else p for p in shape.params)
    with connection.cursor() as cursor:
        cursor.execute(shape.sql, params)
        found = cursor.fetchall()
    if shape.converters:
        converted = []
        for row in found:
            values = list(row)
            for pos, convs, expression in shape.converters:
                value = values[pos]
                for converter in convs:
                    value = converter(value, expression, connection)
                values[pos] = value
            converted.append(values)
        found = converted
    if shape.model is not None:
        from_db, attnames = shape.model.from_db, shape.attnames
        return [from_db(db, attnames, tuple(row)) for row in found]
    return [tuple(row) for row in found]
