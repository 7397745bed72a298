"""Request checks that apply to every page."""

from __future__ import annotations

from collections.abc import Callable

from django.db import IntegrityError, OperationalError
from django.http import HttpRequest, HttpResponse

from campaign.views.errors import bad_request, conflict

NUL = "\x00"


class RefuseNulCharacters:
    """A NUL character (0x00) in the path, the query string or a form field is refused with a
    400 before any view runs: PostgreSQL text cannot hold one, and no Hexkeep input needs it."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if _holds_nul(request):
            return bad_request(request, ValueError(
                "Text may not contain NUL characters (0x00); nothing was changed."))
        return self.get_response(request)


def _holds_nul(request: HttpRequest) -> bool:
    if NUL in request.path:
        return True
    fields = [request.GET]
    if request.method == "POST":
        fields.append(request.POST)
    return any(NUL in key or any(NUL in value for value in data.getlist(key))
               for data in fields for key in data)


# PostgreSQL error codes of a race the locks did not prevent (docs/architecture.md, "Locking
# order"): deadlock, serialization failure, lock not available, unique and foreign key
# violations (two requests creating the same thing, or one using a row the other just removed).
CONFLICT_CODES = frozenset({"40P01", "40001", "55P03", "23505", "23503"})
# SQLite says the same in words: a writer that waited too long, or a unique index.
SQLITE_CONFLICTS = ("database is locked", "unique constraint failed",
                    "foreign key constraint failed")

CONFLICT_MESSAGE = ("Someone changed this campaign at the same moment, so this request was "
                    "refused and nothing of it was saved. Reload the page and try again.")


def is_conflict(exc: BaseException) -> bool:
    """Whether ``exc`` is the database refusing a race (not a bug in a query)."""
    if not isinstance(exc, (OperationalError, IntegrityError)):
        return False
    cause = exc.__cause__
    code = getattr(cause, "pgcode", None) or getattr(cause, "sqlstate", None)
    if code is not None:
        return code in CONFLICT_CODES
    text = str(exc).lower()
    return any(words in text for words in SQLITE_CONFLICTS)


class AnswerDatabaseConflicts:
    """A deadlock, serialization failure or unique violation that reaches the top of a request
    is answered with a 409 page that says to try again, never a 500. The request's transaction
    rolled back with the error, so nothing of it is kept."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest,
                          exception: Exception) -> HttpResponse | None:
        if not is_conflict(exception):
            return None
        return conflict(request, ValueError(CONFLICT_MESSAGE))
