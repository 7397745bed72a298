"""Accounts: signing up, logging in and out, and resetting a forgotten password by email."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tests.conftest import make_user

NEW_PASSWORD = "a-Fresh-passphrase-42"


@pytest.mark.django_db
def test_signup_page_renders() -> None:
    response = Client().get(reverse("signup"))
    assert response.status_code == 200
    assert b'name="username"' in response.content
    assert b'name="password1"' in response.content


@pytest.mark.django_db
def test_signup_creates_user_and_logs_in() -> None:
    client = Client()
    response = client.post(reverse("signup"), {
        "username": "newcomer", "email": "new@example.com",
        "password1": NEW_PASSWORD, "password2": NEW_PASSWORD,
    })
    assert response.status_code == 302
    assert response["Location"] == reverse("home")
    user = User.objects.get(username="newcomer")
    assert user.email == "new@example.com"
    assert user.check_password(NEW_PASSWORD)
    assert client.session[SESSION_KEY] == str(user.pk)
    home = client.get(reverse("home"))
    assert b"Log out newcomer" in home.content
    assert b"Welcome, newcomer!" in home.content


@pytest.mark.django_db
def test_signup_follows_a_local_next_but_not_a_foreign_one() -> None:
    data = {"username": "a", "password1": NEW_PASSWORD, "password2": NEW_PASSWORD,
            "next": "/join/abc/"}
    response = Client().post(reverse("signup"), data)
    assert response["Location"] == "/join/abc/"
    data = {"username": "b", "password1": NEW_PASSWORD, "password2": NEW_PASSWORD,
            "next": "https://evil.example.com/"}
    response = Client().post(reverse("signup"), data)
    assert response["Location"] == reverse("home")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"username": "x", "password1": NEW_PASSWORD, "password2": "other-" + NEW_PASSWORD},
         "The two password fields didn"),
        ({"username": "", "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
         "This field is required."),
        ({"username": "x", "password1": "123", "password2": "123"},
         "This password is too short."),
        ({"username": "taken", "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
         "A user with that username already exists."),
        ({"username": "x", "email": "not-an-email", "password1": NEW_PASSWORD,
          "password2": NEW_PASSWORD}, "Enter a valid email address."),
    ],
)
def test_signup_refuses_bad_input(data: dict[str, Any], message: str) -> None:
    make_user("taken")
    client = Client()
    response = client.post(reverse("signup"), data)
    assert response.status_code == 400
    assert message in response.content.decode().replace("&#x27;", "'")
    assert list(User.objects.values_list("username", flat=True)) == ["taken"]
    assert SESSION_KEY not in client.session


@pytest.mark.django_db
def test_login_and_logout() -> None:
    make_user("alice")
    client = Client()
    assert client.get(reverse("login")).status_code == 200
    response = client.post(reverse("login"), {"username": "alice", "password": "pw-alice"})
    assert response.status_code == 302
    assert response["Location"] == reverse("home")
    assert client.session[SESSION_KEY] == str(User.objects.get(username="alice").pk)

    # Logging out is a POST (a link or an image cannot log someone out).
    assert client.get(reverse("logout")).status_code == 405
    assert SESSION_KEY in client.session
    response = client.post(reverse("logout"))
    assert response.status_code == 302
    assert response["Location"] == reverse("home")
    assert SESSION_KEY not in client.session


@pytest.mark.django_db
def test_login_with_wrong_password_is_refused() -> None:
    make_user("alice")
    client = Client()
    response = client.post(reverse("login"), {"username": "alice", "password": "wrong"})
    assert response.status_code == 200
    assert b"Please enter a correct username and password" in response.content
    assert SESSION_KEY not in client.session


@pytest.mark.django_db
def test_login_follows_next() -> None:
    make_user("alice")
    response = Client().post(
        reverse("login"), {"username": "alice", "password": "pw-alice", "next": "/c/x/"}
    )
    assert response["Location"] == "/c/x/"


@pytest.mark.django_db
def test_password_reset_by_email(mailoutbox: list[Any]) -> None:
    user = make_user("alice", email="alice@example.com")
    client = Client()
    response = client.post(reverse("password_reset"), {"email": "alice@example.com"})
    assert response.status_code == 302
    assert response["Location"] == reverse("password_reset_done")

    assert len(mailoutbox) == 1
    mail = mailoutbox[0]
    assert mail.to == ["alice@example.com"]
    assert mail.subject == "Reset your Hexkeep password"
    assert "alice" in mail.body
    link = re.search(r"http://testserver(/accounts/reset/\S+/)", mail.body)
    assert link is not None

    # The link redirects to a token-free URL (the token moves into the session).
    response = client.get(link.group(1))
    assert response.status_code == 302
    set_password_url = response["Location"]
    assert set_password_url.endswith("/set-password/")
    page = client.get(set_password_url)
    assert page.status_code == 200
    assert b"Choose a new password" in page.content

    response = client.post(set_password_url,
                           {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert response.status_code == 302
    assert response["Location"] == reverse("password_reset_complete")
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)
    assert not user.check_password("pw-alice")
    assert Client().login(username="alice", password=NEW_PASSWORD)

    # The link works once only.
    again = Client().get(link.group(1), follow=True)
    assert b"This link has expired" in again.content


@pytest.mark.django_db
def test_password_reset_for_unknown_address_sends_nothing(mailoutbox: list[Any]) -> None:
    make_user("alice", email="alice@example.com")
    response = Client().post(reverse("password_reset"), {"email": "bob@example.com"})
    # The same answer as for a known address: whether an account exists is not revealed.
    assert response.status_code == 302
    assert response["Location"] == reverse("password_reset_done")
    assert mailoutbox == []


@pytest.mark.django_db
def test_password_reset_link_with_bad_token_is_refused() -> None:
    make_user("alice", email="alice@example.com")
    response = Client().get("/accounts/reset/MQ/bad-token/")
    assert response.status_code == 200
    assert b"This link has expired" in response.content
