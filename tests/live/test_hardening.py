"""Sign-in hardening: failed sign-ins throttled per account and per address (django-axes), and
a Content-Security-Policy that allows only our own scripts and styles (django-csp), with no
page template left that it would break."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Callable

from django.contrib.auth.models import User
from django.test import Client, RequestFactory
from django.urls import reverse

from campaign import signin
from campaign.models import Campaign

ROOT = Path(__file__).resolve().parents[2]
POLICY = {"default-src": "'self'", "script-src": "'self'", "style-src": "'self'",
          "img-src": "'self'", "font-src": "'self'", "connect-src": "'self'",
          "object-src": "'none'", "base-uri": "'self'", "form-action": "'self'",
          "frame-ancestors": "'none'"}


def _policy(response: Any) -> dict[str, str]:
    parts = [p.strip().split(" ", 1) for p in response["Content-Security-Policy"].split(";")]
    return {name: value for name, value in parts}


def _sign_in(client: Client, username: str, password: str, address: str = "10.0.0.1") -> Any:
    return client.post(reverse("login"), {"username": username, "password": password},
                       REMOTE_ADDR=address)


def test_an_account_is_paused_after_five_failures_from_anywhere(player: User) -> None:
    client = Client()
    for n in range(4):
        response = _sign_in(client, "player", "wrong", address=f"10.0.1.{n}")
        assert response.status_code == 200, n  # the form again, with its error
    fifth = _sign_in(client, "player", "wrong", address="10.0.1.5")
    assert fifth.status_code == 429
    refused = _sign_in(client, "player", "pw-player", address="10.0.9.9")
    assert refused.status_code == 429
    body = refused.content.decode()
    assert "After 5 wrong passwords for this account or from this address" in body
    assert "0:15:00 (hours:minutes:seconds)" in body
    assert "_auth_user_id" not in client.session


def test_an_address_is_paused_after_five_failures_for_any_accounts(player: User,
                                                                  observer: User) -> None:
    client = Client()
    for n in range(4):
        assert _sign_in(client, f"nobody{n}", "wrong", address="10.0.2.1").status_code == 200
    assert _sign_in(client, "nobody5", "wrong", address="10.0.2.1").status_code == 429
    assert _sign_in(client, "observer", "pw-observer", address="10.0.2.1").status_code == 429
    # The same account from another address still signs in.
    other = Client()
    response = _sign_in(other, "observer", "pw-observer", address="10.0.2.2")
    assert response.status_code == 302 and "_auth_user_id" in other.session


def test_a_success_before_the_limit_starts_the_count_again(player: User) -> None:
    client = Client()
    for _ in range(4):
        _sign_in(client, "player", "wrong")
    assert _sign_in(client, "player", "pw-player").status_code == 302
    client.logout()
    for _ in range(4):
        assert _sign_in(client, "player", "wrong").status_code == 200
    assert _sign_in(client, "player", "pw-player").status_code == 302


def test_the_address_counted_behind_trusted_proxies(settings: Any) -> None:
    request = RequestFactory().get("/", REMOTE_ADDR="127.0.0.1",
                                   HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.7, 10.0.0.2")
    assert signin.client_ip(request) == "127.0.0.1"
    settings.TRUSTED_PROXY_COUNT = 2
    # The client said "6.6.6.6" itself; our two proxies added the last two.
    assert signin.client_ip(request) == "203.0.113.7"
    settings.TRUSTED_PROXY_COUNT = 4
    assert signin.client_ip(request) == "127.0.0.1"


def test_a_sign_in_without_a_request_is_left_to_the_password_check(player: User) -> None:
    """The test client's ``login`` calls ``authenticate()`` without a request."""
    assert Client().login(username="player", password="pw-player")
    assert not Client().login(username="player", password="wrong")


def test_every_page_carries_the_policy(campaign: Campaign, player: User,
                                       login: Callable[..., Any]) -> None:
    anonymous = Client().get(reverse("login"))
    assert _policy(anonymous) == POLICY
    client = login(player)
    for name in ("detail", "play", "map", "chronicle", "notifications", "print"):
        response = client.get(reverse(f"campaign:{name}", args=[campaign.slug]))
        assert _policy(response) == POLICY, name
    # A sheet's print preview lays its page out with inline styles: those alone are allowed.
    preview = client.get(reverse("campaign:print_sheet", args=[campaign.slug, "reference"]))
    assert preview.status_code == 200
    assert _policy(preview) == {**POLICY, "style-src": "'self' 'unsafe-inline'"}


INLINE = {
    "style attribute": re.compile(r"\sstyle=[\"']"),
    "inline script": re.compile(r"<script(?![^>]*\ssrc=)[^>]*>"),
    "event handler attribute": re.compile(r"\son[a-z]+=[\"']"),
    "hx-on attribute": re.compile(r"\shx-on"),
    "javascript: link": re.compile(r"javascript:"),
}


def test_no_page_template_holds_what_the_policy_refuses() -> None:
    """Every template of a web page (print sheets aside: they are PDFs, and their preview
    allows inline styles) and every markup a view builds is free of inline scripts, style
    attributes, event-handler attributes, ``hx-on`` and ``javascript:`` links."""
    found = []
    sources = [p for p in (ROOT / "templates").rglob("*.html")
               if "print" not in p.relative_to(ROOT / "templates").parts]
    sources += list((ROOT / "campaign" / "views").glob("*.py"))
    for path in sources:
        text = path.read_text(encoding="utf-8")
        for what, pattern in INLINE.items():
            for match in pattern.finditer(text):
                line = text.count("\n", 0, match.start()) + 1
                found.append(f"{path.relative_to(ROOT)}:{line}: {what}")
    assert found == []
    assert len(sources) > 60
