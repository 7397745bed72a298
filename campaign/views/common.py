"""Small helpers shared by the core views."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from campaign.access import Access


def tabs_context(access: Access, current: str) -> dict[str, Any]:
    """What every campaign page's header needs: the campaign, the viewer's standing, the tab."""
    return {"access": access, "campaign": access.campaign, "tab": current}


def refuse(request: HttpRequest, message: str, *, status: int = 400,
           template: str = "refused.html", context: dict[str, Any] | None = None) -> HttpResponse:
    """Answer a refused request with the reason and a 4xx status; nothing was changed."""
    if request.htmx:
        return HttpResponse(
            f'<p class="error" role="alert">{_escape(message)}</p>', status=status,
            headers={"HX-Reswap": "innerHTML"},
        )
    return render(request, template, {"message": message, **(context or {})}, status=status)


def _escape(text: str) -> str:
    from django.utils.html import escape

    return escape(text)
