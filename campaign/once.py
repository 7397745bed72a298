"""A form that creates something applies once (DESIGN principle 11).

Such a form carries a one-time token, a hidden field made when the form is rendered
(``{% load once %}{% once_field %}``). The view that receives it is decorated with
``applies_once``: the token is written (``UsedFormToken``) in the same transaction as what the
view creates, and the same form arriving again (a double tap, a phone resending on a weak
connection) finds it used and is sent to where the first one's result is shown, instead of
creating a second time. Two arrivals at the same moment queue on the token's primary key: the
later one waits for the first to commit, then finds the token used.

A form the view refuses (nothing recorded) leaves its token unused, so the corrected form can be
sent again. A request without a token (an old page, a script) is handled as before.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from functools import wraps
from typing import Any
from urllib.parse import urlsplit

from django.contrib import messages
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django_htmx.http import HttpResponseClientRedirect

from campaign.chronicle import recording
from campaign.models import UsedFormToken
from campaign.responses import error_page

FIELD = "once"
TOKEN = re.compile(r"[0-9a-f]{32}")
ALREADY = ("That form had already been sent and applied; this is what it made. Nothing was "
           "added a second time.")


def new_token() -> str:
    """A fresh one-time token for one rendering of a form."""
    return secrets.token_hex(16)


def applies_once(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Apply a POST carrying a one-time token at most once (see the module's docstring)."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        token = request.POST.get(FIELD, "") if request.method == "POST" else ""
        if not TOKEN.fullmatch(token):
            return view(request, *args, **kwargs)
        user = request.user if request.user.is_authenticated else None
        with transaction.atomic():
            try:
                with transaction.atomic():
                    UsedFormToken.objects.create(token=token, user=user)
            except IntegrityError:
                return _already_applied(request, token, user)
            with recording() as events:
                response = view(request, *args, **kwargs)
            if not events:
                # Refused, nothing created: the token stays free for the corrected form.
                transaction.set_rollback(True)
                return response
            UsedFormToken.objects.filter(token=token).update(
                location=_result_location(request, response))
        return response

    return wrapped


def _result_location(request: HttpRequest, response: HttpResponse) -> str:
    """Where the result of the form is shown: where the view redirected to, or (an htmx
    fragment) the page the form was on."""
    if 300 <= response.status_code < 400 and response.get("Location"):
        return _local(response["Location"])
    return _local(request.headers.get("HX-Current-URL") or request.headers.get("Referer") or "")


def _local(url: str) -> str:
    parts = urlsplit(url)
    path = parts.path if parts.path.startswith("/") and not parts.path.startswith("//") else "/"
    return (path + (f"?{parts.query}" if parts.query else "")
            + (f"#{parts.fragment}" if parts.fragment else ""))[:500]


def _already_applied(request: HttpRequest, token: str, user: Any) -> HttpResponse:
    used = UsedFormToken.objects.filter(token=token).first()
    if used is None or used.user_id != (user.pk if user is not None else None):
        # Someone else's token: nothing of theirs is shown.
        return error_page(request, 409, "Changed at the same moment",
                          "This form was already sent; reload the page.")
    messages.info(request, ALREADY)
    location = used.location or "/"
    if getattr(request, "htmx", False):
        return HttpResponseClientRedirect(location)
    return redirect(location)
