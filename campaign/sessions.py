"""Sessions kept in the database as Django keeps them, read with a statement worked out once.

Every page a member opens starts by reading their session. Django's database store builds that
query through the ORM each time (0.3 ms of Python, as long as the database takes to answer);
this store reads the same row through ``kept_sql`` and checks its expiry date here, with the
same outcome: an unknown, expired or malformed key is no session, and the key is dropped.
Everything else (saving, rotating, clearing expired sessions) is Django's own.
"""

from __future__ import annotations

from typing import Any

from django.contrib.sessions.backends import db
from django.contrib.sessions.models import Session
from django.db.models import QuerySet
from django.utils import timezone

from campaign.kept_sql import kept_rows


def _by_key(session_key: str) -> QuerySet[Session]:
    return Session.objects.filter(session_key=session_key)[:1]


class SessionStore(db.SessionStore):
    _read: tuple[str, Session | None] | None = None

    def read_with(self, key: str, found: Session | None) -> None:
        """The row of session ``key`` (None: there is none), read along with another query
        (``campaign.live.read_with_session``): the next load of that key uses it instead of
        reading it, with the same checks."""
        self._read = (key, found)

    def _get_session_from_db(self) -> Any:
        key = self.session_key
        read, self._read = self._read, None
        if read is not None and read[0] == key:
            found = [read[1]] if read[1] is not None else []
        else:
            found = (kept_rows(("sessions", "by_key"), _by_key, key) if isinstance(key, str)
                     else [])
        if found and found[0].expire_date > timezone.now():
            return found[0]
        self._session_key = None
        return None
