"""Error pages that say what went wrong in plain words, inside the site's layout."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from campaign.responses import error_page


def _page(request: HttpRequest, status: int, title: str,
          exception: Exception | None) -> HttpResponse:
    message = ""
    if exception is not None and exception.args and isinstance(exception.args[0], str):
        message = exception.args[0]
    return error_page(request, status, title, message)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    return _page(request, 400, "Bad request", exception)


def forbidden(request: HttpRequest, exception: Exception) -> HttpResponse:
    return _page(request, 403, "Not allowed", exception)


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    return _page(request, 404, "Not found", exception)


def conflict(request: HttpRequest, exception: Exception) -> HttpResponse:
    return _page(request, 409, "Changed at the same moment", exception)


def server_error(request: HttpRequest) -> HttpResponse:
    return render(request, "error.html", {"status": 500, "title": "Something broke",
                                          "message": "The error was logged."}, status=500)
