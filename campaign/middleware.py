"""Request checks that apply to every page."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from campaign.views.errors import bad_request

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
