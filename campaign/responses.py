"""Error responses in plain words inside the site's layout, for the views, the error handlers
(campaign/views/errors.py) and the view decorators that refuse a request themselves."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.html import format_html


def error_page(request: HttpRequest, status: int, title: str, message: str = "") -> HttpResponse:
    """The error page (an htmx request gets just the alert, to swap in where it asked)."""
    if getattr(request, "htmx", False):
        return HttpResponse(format_html('<p class="error" role="alert">{}. {}</p>', title, message),
                            status=status)
    return render(request, "error.html", {"status": status, "title": title, "message": message},
                  status=status)
