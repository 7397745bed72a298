"""A cursor for the reads every page makes, whose plans PostgreSQL keeps on the connection.

PostgreSQL plans a statement each time it is sent with its values written in, as Django sends
them (client-side binding). For the few reads a phone page makes, joining the campaign, the
viewer's membership, kingdom and map, planning cost more than running: 1 to 2 ms each of the
server's time on a 16x campaign, where running took 0.1 to 0.2 ms. Those reads have fixed
shapes (``campaign/kept_sql.py`` keeps their SQL per process), so this cursor sends them with
their values apart (server-side binding) and lets psycopg prepare them: a statement the
connection has run ``prepare_threshold`` times is prepared, then only bound and run, and
PostgreSQL may keep one plan for every set of values. Every other query keeps Django's
client-side binding.

``cursor()`` is ``connection.cursor()`` in every other way: the query is counted, logged and
wrapped as any Django query, errors are Django's errors, and on SQLite it is that very cursor.
``DATABASES["default"]["OPTIONS"]["prepare_threshold"]`` (``DB_PREPARE_THRESHOLD``, see
docs/deployment.md) sets when a statement is prepared; ``off`` sends every statement unprepared
(for a connection pooler that cannot carry prepared statements between clients).
"""

from __future__ import annotations

from typing import Any

import psycopg
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.postgresql.base import TIMESTAMPTZ_OID
from django.db.backends.postgresql.psycopg_any import register_tzloader
from psycopg.pq import Format


def cursor(alias: str = DEFAULT_DB_ALIAS) -> Any:
    """A cursor of ``alias`` whose statements PostgreSQL may keep prepared (see above)."""
    connection = connections[alias]
    if connection.vendor != "postgresql":
        return connection.cursor()
    connection.close_if_health_check_failed()
    connection.ensure_connection()
    # psycopg's own cursor binds on the server and prepares (Django's binds in the client).
    kind = _Shown if connection.queries_logged else psycopg.Cursor
    with connection.wrap_database_errors:
        raw = kind(connection.connection)
        # As Django's create_cursor: times read in the connection's time zone.
        loader = connection.connection.adapters.get_loader(TIMESTAMPTZ_OID, Format.TEXT)
        if connection.timezone != loader.timezone:
            register_tzloader(connection.timezone, raw)
        return connection._prepare_cursor(raw)


class _Sent:
    __slots__ = ("query",)

    def __init__(self, query: bytes) -> None:
        self.query = query


class _Shown(psycopg.Cursor):
    """The same, for a connection whose queries are logged (DEBUG, a test counting them).
    Django logs the text its own cursor last sent, values written in; a cursor binding on the
    server sends none, so the text is written here as Django's cursor would have sent it."""

    def execute(self, query: Any, params: Any = None, **kwargs: Any) -> Any:
        try:
            return super().execute(query, params, **kwargs)
        finally:
            self._query = _Sent(psycopg.ClientCursor(self.connection).mogrify(query, params)
                                .encode())
