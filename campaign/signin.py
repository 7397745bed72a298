"""Sign-in hardening with django-axes (settings: ``AXES_*``, docs/deployment.md "Sign-in").

- ``ThrottledSignIn``: the axes backend, first of ``AUTHENTICATION_BACKENDS``: it refuses a
  sign-in while the account or the address is paused and lets the next backend check the
  password. A sign-in without a request (code calling ``authenticate()`` by itself, such as the
  test client's ``login``) has no address to count and is left to the next backend; every sign-in
  form of the site passes its request.
- ``client_ip``: the address failed sign-ins are counted against: the connection's, or behind
  ``TRUSTED_PROXY_COUNT`` proxies that each append to ``X-Forwarded-For``, the address the
  outermost of them saw (what the client wrote there itself is never trusted).
"""

from __future__ import annotations

from typing import Any

from axes.backends import AxesStandaloneBackend
from django.conf import settings


class ThrottledSignIn(AxesStandaloneBackend):
    def authenticate(self, request: Any, username: str | None = None,
                     password: str | None = None, **kwargs: Any) -> Any:
        if request is None:
            return None
        return super().authenticate(request, username, password, **kwargs)


def client_ip(request: Any) -> str | None:
    count = getattr(settings, "TRUSTED_PROXY_COUNT", 0)
    if count:
        hops = [h.strip() for h in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
                if h.strip()]
        if len(hops) >= count:
            return hops[-count]
    return request.META.get("REMOTE_ADDR")


# No account name is longer than this (auth's User.username); axes stores the name it is given.
USERNAME_LENGTH = 150


def client_username(request: Any, credentials: Any = None) -> str:
    """The account name a sign-in tried, as axes records it: cut to the longest a name can be,
    since a longer one names no account and PostgreSQL refuses text over the column's length."""
    if credentials:
        name = credentials.get("username")
    else:
        name = request.POST.get("username") if request is not None else None
    return str(name or "")[:USERNAME_LENGTH]
