"""Shared fixtures: the personas every view is tested with, and small factories.

Personas in one campaign: ``gm``, ``player`` (rules Red), ``other_player`` (rules Blue),
``observer``; plus ``outsider`` (a user in no campaign) and the anonymous client.
"""

from __future__ import annotations

import io
from typing import Any, Callable

import pytest
from django.contrib.auth.models import User
from django.test import Client
from PIL import Image

from campaign import services
from campaign.models import Campaign, Kingdom, Membership, Role


@pytest.fixture(autouse=True)
def _media_in_tmp(settings: Any, tmp_path: Any) -> None:
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def make_user(username: str, **extra: Any) -> User:
    return User.objects.create_user(username=username, password="pw-" + username, **extra)


def make_campaign(gm: User, slug: str = "test-campaign", **kwargs: Any) -> Campaign:
    defaults: dict[str, Any] = {
        "name": slug.replace("-", " ").title(),
        "slug": slug,
        "rule_system": "mighty-kingdoms",
        "width": 8,
        "height": 6,
        "seed": 7,
    }
    defaults.update(kwargs)
    return services.create_campaign(gm, **defaults)


def add_member(campaign: Campaign, user: User, role: str) -> Membership:
    return Membership.objects.create(campaign=campaign, user=user, role=role)


def make_png(size: tuple[int, int] = (40, 30), fmt: str = "PNG", colour: str = "red") -> io.BytesIO:
    buffer = io.BytesIO()
    Image.new("RGB", size, colour).save(buffer, format=fmt)
    buffer.seek(0)
    buffer.name = f"image.{fmt.lower()}"
    return buffer


@pytest.fixture
def gm(db: Any) -> User:
    return make_user("gm")


@pytest.fixture
def campaign(gm: User) -> Campaign:
    return make_campaign(gm)


@pytest.fixture
def player(campaign: Campaign) -> User:
    user = make_user("player")
    membership = add_member(campaign, user, Role.PLAYER)
    Kingdom.objects.create(campaign=campaign, name="Red", colour="#aa0000", player=membership)
    return user


@pytest.fixture
def other_player(campaign: Campaign) -> User:
    user = make_user("other")
    membership = add_member(campaign, user, Role.PLAYER)
    Kingdom.objects.create(campaign=campaign, name="Blue", colour="#0000aa", player=membership)
    return user


@pytest.fixture
def observer(campaign: Campaign) -> User:
    user = make_user("observer")
    add_member(campaign, user, Role.OBSERVER)
    return user


@pytest.fixture
def outsider(db: Any) -> User:
    return make_user("outsider")


@pytest.fixture
def admin_user(db: Any) -> User:
    return User.objects.create_superuser("admin", "admin@example.com", "pw-admin")


@pytest.fixture
def login() -> Callable[[User | None], Client]:
    """``login(user)`` gives a client logged in as ``user`` (anonymous for None)."""

    def _login(user: User | None) -> Client:
        client = Client()
        if user is not None:
            client.force_login(user)
        return client

    return _login
