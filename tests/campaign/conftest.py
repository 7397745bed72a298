"""Fixtures and helpers shared by the campaign view tests.

``world`` is one campaign with every persona in place: the GM, two players with their kingdoms
(Red and Blue), an observer, an unclaimed kingdom (Green), an open invitation and one reversible
event, plus an outsider, a site admin and a second campaign run by someone else.

These tests are about what every rule system shares, so they run for each registered one: the
``system`` fixture is parametrised over the registry, and ``campaign`` (hence ``world`` and the
personas) is a campaign of that system. A test about one system says so with
``@pytest.mark.system(slug)`` (it then runs for that system only) or by naming the system when it
makes a campaign. Tests of the shared machinery written with Mighty Kingdoms' terrains,
settlements, edge features, options or clock carry ``@pytest.mark.system(MIGHTY_KINGDOMS)``.
"""

from __future__ import annotations

import io
import math
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client, RequestFactory
from django.urls import resolve
from PIL import Image

from battles.models import Army
from campaign import services
from campaign.access import Access, get_campaign_for
from campaign.models import (
    Campaign,
    Event,
    Invitation,
    Kingdom,
    Map,
    Membership,
    Photo,
    Role,
    Tile,
)
from campaign.rulesystems import REGISTRY
from campaign.systems.mighty_kingdoms.models import Ship
from tests.conftest import add_member, make_campaign_of, make_user

PERSONAS = ("anonymous", "outsider", "observer", "player", "other_player", "gm", "admin")

# Every table a campaign's pages can change; a refused request must leave all of them alone.
DUMPED_MODELS = (
    User, Campaign, Membership, Invitation, Kingdom, Map, Tile, Photo, Army, Ship, Event,
)


def dump(*, exclude: tuple[type, ...] = ()) -> dict[str, list[dict[str, Any]]]:
    """Every row of every campaign table, in primary-key order."""
    rows = {
        model._meta.label: list(model.objects.order_by("pk").values())
        for model in DUMPED_MODELS
        if model not in exclude
    }
    for user in rows.get("auth.User", []):
        user.pop("last_login")  # logging a test client in stamps it
    return rows


def image_bytes(size: tuple[int, int] = (40, 30), fmt: str = "PNG", colour: str = "red",
                name: str | None = None) -> io.BytesIO:
    buffer = io.BytesIO()
    Image.new("RGB", size, colour).save(buffer, format=fmt)
    buffer.seek(0)
    buffer.name = name or f"image.{fmt.lower()}"
    return buffer


def named(data: bytes, name: str) -> io.BytesIO:
    buffer = io.BytesIO(data)
    buffer.name = name
    return buffer


def noise_png(min_bytes: int) -> io.BytesIO:
    """A PNG of random noise (it does not compress) of at least ``min_bytes``."""
    side = math.isqrt(min_bytes // 3) + 16
    image = Image.frombytes("RGB", (side, side), random.Random(side).randbytes(side * side * 3))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=0)
    assert buffer.tell() >= min_bytes
    buffer.seek(0)
    buffer.name = "noise.png"
    return buffer


def media_files() -> list[Path]:
    """Every file under MEDIA_ROOT (each test has its own), sorted."""
    from django.conf import settings

    root = Path(settings.MEDIA_ROOT)
    return sorted(p for p in root.rglob("*") if p.is_file()) if root.exists() else []


def member_requests(world: World, url: str) -> Iterator[tuple[str, Any, Access]]:
    """For each member persona of ``world`` (not the outsider, nor a missing one): a GET request
    for ``url`` made as that user, resolved, and their access to the world's campaign."""
    for persona in PERSONAS:
        user = world.user(persona)
        if user is None or persona == "outsider":
            continue
        request = RequestFactory().get(url)
        request.user = user
        request.resolver_match = resolve(url)
        yield persona, request, get_campaign_for(request, world.campaign.slug)


def error_text(response: Any) -> str:
    """The visible text of a response, tags removed and whitespace collapsed."""
    text = re.sub(r"<[^>]+>", " ", response.content.decode())
    return " ".join(text.split()).replace("&#x27;", "'").replace("&quot;", '"')


@dataclass
class World:
    campaign: Campaign
    gm: User
    player: User
    other_player: User
    observer: User
    outsider: User
    admin: User
    red: Kingdom
    blue: Kingdom
    green: Kingdom
    invitation: Invitation
    undoable: Event
    elsewhere: Campaign

    def user(self, persona: str) -> User | None:
        return None if persona == "anonymous" else getattr(self, persona)

    def membership(self, user: User) -> Membership:
        return Membership.objects.get(campaign=self.campaign, user=user)

    def client(self, persona: str) -> Client:
        client = Client()
        user = self.user(persona)
        if user is not None:
            client.force_login(user)
        return client


@pytest.fixture(params=sorted(REGISTRY))
def system(request: Any) -> str:
    """The slug of a registered rule system: a test that depends on it, directly or through
    ``campaign``, runs once for each (see ``pytest_generate_tests`` for the marked ones)."""
    return request.param


@pytest.hookimpl(tryfirst=True)  # before the fixture's own parametrisation
def pytest_generate_tests(metafunc: Any) -> None:
    """A test marked ``@pytest.mark.system(slug, ...)`` runs for those systems only."""
    marker = metafunc.definition.get_closest_marker("system")
    if marker is not None and "system" in metafunc.fixturenames:
        metafunc.parametrize("system", marker.args)
    elif (metafunc.definition.get_closest_marker("grid_maps") is not None
          and "system" in metafunc.fixturenames):
        from campaign.rulesystems import get_system

        metafunc.parametrize("system", [slug for slug in sorted(REGISTRY)
                                        if get_system(slug).map_style.kind != "territory"])


@pytest.fixture
def campaign(gm: User, system: str) -> Campaign:
    """A campaign of ``system`` run by ``gm``."""
    return make_campaign_of(system, gm)


@pytest.fixture
def world(system: str, gm: User, campaign: Campaign, player: User, other_player: User,
          observer: User, outsider: User, admin_user: User) -> World:
    green = Kingdom.objects.create(campaign=campaign, name="Green", colour="#00aa00")
    invitation = services.create_invitation(campaign, gm, role=Role.PLAYER, single_use=True)
    undoable = campaign.events.order_by("-seq").first()
    assert undoable is not None and undoable.kind == "invitation.created"
    stranger = make_user("stranger")
    elsewhere = make_campaign_of(system, stranger, slug="elsewhere", seed=None, width=4,
                                 height=4)
    add_member(elsewhere, make_user("far-player"), Role.PLAYER)
    return World(
        campaign=campaign,
        gm=gm,
        player=player,
        other_player=other_player,
        observer=observer,
        outsider=outsider,
        admin=admin_user,
        red=Kingdom.objects.get(campaign=campaign, name="Red"),
        blue=Kingdom.objects.get(campaign=campaign, name="Blue"),
        green=green,
        invitation=invitation,
        undoable=undoable,
        elsewhere=elsewhere,
    )


def as_imported(document: dict[str, Any], importer: str) -> dict[str, Any]:
    """What exporting an import of ``document`` by ``importer`` gives back (exported_at and slug
    aside): the importer is the only member, as GM; kingdoms have no player; chronicle entries,
    photos and undos by anyone else show no author; the chronicle ends with the import event
    (checked and removed here, see ``without_import_event``)."""
    import copy

    data = copy.deepcopy(document)
    data.pop("exported_at", None)
    body = data["campaign"]
    body.pop("slug", None)
    body["members"] = [{"role": "gm", "username": importer}]
    for kingdom in body.get("kingdoms", []):
        kingdom["player"] = None
    for event in body.get("events", []):
        for key in ("actor", "undone_by"):
            if event.get(key) != importer:
                event[key] = None
    for photo in body.get("photos", []):
        if photo.get("uploaded_by") != importer:
            photo["uploaded_by"] = None
    return data


def without_import_event(exported: dict[str, Any], importer: str) -> dict[str, Any]:
    """``exported`` (an export of an imported campaign) without its newest event, which must be
    the import, by ``importer``; and without exported_at and the slug."""
    import copy

    data = copy.deepcopy(exported)
    data.pop("exported_at")
    data["campaign"].pop("slug")
    events = data["campaign"]["events"]
    last = events.pop()
    assert (last["kind"], last["actor"], last["summary"]) == (
        "campaign.imported", importer, f"{importer} imported the campaign from a file.")
    assert last["undo_of"] is None and last["undone_at"] is None
    return data


def seat_again(copy: Campaign, original: Campaign) -> None:
    """Give an imported campaign the members (and players' kingdoms) of ``original`` again, as if
    each had accepted a new invitation and claimed their kingdom (set directly: no events)."""
    for membership in original.memberships.select_related("user"):
        seat, _ = Membership.objects.get_or_create(campaign=copy, user=membership.user,
                                                   defaults={"role": membership.role})
        for kingdom in Kingdom.objects.filter(campaign=original, player=membership):
            Kingdom.objects.filter(campaign=copy, name=kingdom.name).update(player=seat)
