"""Rows read again only when they changed (PostgreSQL).

On PostgreSQL every row version has a place (``ctid``) and the transaction that wrote it
(``xmin``): an update always writes a new row version in another place, and a place is reused
only once no transaction can see the row version that was there. So the places and writers
of a set of rows, summed up (an MD5 of their places and writers in the order the rows lie),
stay the same for as long as none of those rows is written, added or removed.

``rows_unless_held`` reads a set of rows in one statement that sums up their versions first and
returns the rows only when the sum is not the one the caller holds (the sum it was given with
rows read earlier, and kept with what it made of them); otherwise one row of nothing but the
sum. A page that keeps what it made of many rows (a map's drawing, a board) thus takes them in
again only after one of them changed, in the same single query either way. Other databases have
no such versions: the caller reads its rows as usual there (``versioned`` says which).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections

from campaign import prepared

# A row version's place and writer, as text: "(3,42)3187". The place's closing parenthesis
# ends it and the next place's opening one starts the next, so they are joined with nothing.
# (The row's id adds nothing: one place holds one row version at a time.)
_VERSION = "x.ctid::text || x.xmin::text"


def versioned() -> bool:
    """Whether the database keeps row versions ``rows_unless_held`` can read."""
    return connections[DEFAULT_DB_ALIAS].vendor == "postgresql"


def statement(columns: str, source: str, where: str, order: str) -> str:
    """The SQL of ``rows_unless_held``: ``columns`` of the rows of ``source`` (in which the
    table whose rows' versions count is named ``x``) that match ``where``, in ``order`` (in the
    result's terms: ``t.label`` for the column ``x.label``)."""
    return (
        f"SELECT t.*, s.versions FROM (SELECT md5(string_agg({_VERSION}, '')) AS versions "
        f"FROM {source} WHERE {where}) s LEFT JOIN LATERAL (SELECT {columns} FROM {source} "
        f"WHERE {where} AND s.versions IS DISTINCT FROM %s) t ON true ORDER BY {order}")


def rows_unless_held(sql: str, values: Sequence[Any], held: str | None
                     ) -> tuple[list[tuple[Any, ...]] | None, str | None]:
    """Run ``sql`` (made by ``statement``; ``values`` fill its ``where``): the rows and the sum
    of their versions, or None and the sum when it is ``held`` (no row changed since). A set of
    no rows sums to None, and gives no rows."""
    with prepared.cursor() as cursor:
        cursor.execute(sql, [*values, *values, held])
        found = cursor.fetchall()
    versions = found[0][-1]
    if found[0][0] is None:  # the sum held, or no rows at all
        return (None if held is not None and versions == held else []), versions
    return [row[:-1] for row in found], versions
