"""``next`` is followed only to a path on this site: signing up, logging in and logging out with a
``next`` that is a view name, another host, a scheme or 100k characters lands on the home page
(or the page the view goes to anyway), never answers 500, and a sign-up either makes the account
and logs it in or does nothing at all."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tests.conftest import make_user

UNSAFE = [
    "home",                          # a view name: redirect() took it for one and answered 500
    "campaign:create",
    "c/new/",                        # a relative path
    "https://evil.example/",
    "//evil.example/",
    "/\\evil.example/",
    "http:/evil.example",
    "javascript:alert(1)",
    "/" + "x" * 100_000,
    "²",
    " /c/new/",
]
SAFE = ["/c/new/", "/c/new/?a=1&b=2", "/"]

PASSWORD = "A-long-pass-9031"


def _signup(client: Client, username: str, next_url: str, **extra: str) -> Any:
    return client.post(reverse("signup"), {"username": username, "email": "",
                                           "password1": PASSWORD, "password2": PASSWORD,
                                           "next": next_url, **extra})


@pytest.mark.parametrize("next_url", UNSAFE)
def test_signup_with_an_unsafe_next_goes_home_and_is_logged_in(db: Any, next_url: str) -> None:
    client = Client()
    response = _signup(client, "newcomer", next_url)
    assert response.status_code == 302
    assert response["Location"] == reverse("home")
    assert list(User.objects.values_list("username", flat=True)) == ["newcomer"]
    assert client.get(reverse("campaign:create")).status_code == 200  # logged in


@pytest.mark.parametrize("next_url", SAFE)
def test_signup_follows_a_local_path(db: Any, next_url: str) -> None:
    response = _signup(Client(), "newcomer", next_url)
    assert (response.status_code, response["Location"]) == (302, next_url)


@pytest.mark.parametrize("next_url", ["home", "/c/new/", "//evil.example/"])
def test_a_refused_signup_makes_no_account_whatever_next_says(db: Any, next_url: str) -> None:
    response = _signup(Client(), "newcomer", next_url, password2="something else")
    assert response.status_code == 400
    assert not User.objects.exists()


def test_signup_page_offers_only_a_safe_next(db: Any) -> None:
    page = Client().get(reverse("signup"), {"next": "https://evil.example/"}).content.decode()
    assert 'name="next" value=""' in page
    page = Client().get(reverse("signup"), {"next": "/c/new/"}).content.decode()
    assert 'name="next" value="/c/new/"' in page


@pytest.mark.parametrize("next_url", UNSAFE)
def test_login_with_an_unsafe_next_goes_to_the_default_page(db: Any, next_url: str) -> None:
    make_user("ann")
    client = Client()
    response = client.post(reverse("login"), {"username": "ann", "password": "pw-ann",
                                              "next": next_url})
    assert response.status_code == 302
    assert response["Location"] == "/"
    assert client.get(reverse("campaign:create")).status_code == 200


@pytest.mark.parametrize("next_url", SAFE)
def test_login_follows_a_local_path(db: Any, next_url: str) -> None:
    make_user("ann")
    response = Client().post(reverse("login"), {"username": "ann", "password": "pw-ann",
                                                "next": next_url})
    assert (response.status_code, response["Location"]) == (302, next_url)


@pytest.mark.parametrize(("next_url", "location"), [("home", "/"), ("/c/new/", "/c/new/"),
                                                    ("//evil.example/", "/")])
def test_logout_follows_only_a_local_path(db: Any, next_url: str, location: str) -> None:
    client = Client()
    client.force_login(make_user("ann"))
    response = client.post(reverse("logout"), {"next": next_url})
    assert (response.status_code, response["Location"]) == (302, location)
    assert client.get(reverse("campaign:create")).status_code == 302  # logged out
