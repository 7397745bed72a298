"""Shared fixtures: the personas every view is tested with, and small factories.

Personas in one campaign: ``gm``, ``player`` (rules Red), ``other_player`` (rules Blue),
``observer``; plus ``outsider`` (a user in no campaign) and the anonymous client.

The campaign is a Mighty Kingdoms one here; tests/campaign/conftest.py makes it one of each
registered rule system for the generic tests (see its ``system`` fixture and the
``@pytest.mark.system(slug)`` marker registered below).
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


MIGHTY_KINGDOMS = "mighty-kingdoms"


def pytest_configure(config: Any) -> None:
    config.addinivalue_line(
        "markers", "system(*slugs): run a test of tests/campaign that depends on the `system` "
                   "fixture for these rule systems only, instead of every registered one")
    config.addinivalue_line(
        "markers", "grid_maps: run a test of tests/campaign that depends on the `system` fixture "
                   "only for the systems whose maps are hex or square grids")


def make_campaign_of(system: str, gm: User, slug: str = "test-campaign",
                     **kwargs: Any) -> Campaign:
    """A new campaign of the rule system registered as ``system``, made by ``gm`` through the
    services: an 8x6 map of seed 7 unless ``kwargs`` say otherwise. The system has no default:
    a test says which one it is about (the generic ones take the ``system`` fixture)."""
    defaults: dict[str, Any] = {
        "name": slug.replace("-", " ").title(),
        "slug": slug,
        "rule_system": system,
        "width": 8,
        "height": 6,
        "seed": 7,
    }
    defaults.update(kwargs)
    return services.create_campaign(gm, **defaults)


def make_campaign(gm: User, slug: str = "test-campaign", **kwargs: Any) -> Campaign:
    """A new Mighty Kingdoms campaign (``make_campaign_of(MIGHTY_KINGDOMS, ...)``), for the tests
    about Mighty Kingdoms; the generic tests of tests/campaign use ``make_campaign_of``."""
    return make_campaign_of(MIGHTY_KINGDOMS, gm, slug, **kwargs)


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
    """A Mighty Kingdoms campaign run by ``gm`` (one per rule system in tests/campaign)."""
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
