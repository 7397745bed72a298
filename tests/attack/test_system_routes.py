"""The routes of every rule system but Mighty Kingdoms (whose routes tests/attack/test_routes.py
attacks with valid forms from the access table), attacked the same way: a campaign of the
system with a GM, two players with their kingdoms (Red and Blue) and an observer; every field
the view's source reads, and a GM's ``kingdom``, gets every odd value; every persona gets the
form with every field odd at once. No 5xx, and no refusal changes a row.

A route is found in the URL table by its namespace (the system's ``url_prefix``), so a system's
new route is attacked without being listed here; only its URL arguments need a value
(``URL_ARGS``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import transaction
from django.urls import reverse

from campaign import pdf
from campaign.models import Campaign, Kingdom, Role
from campaign.rulesystems import REGISTRY
from tests.attack.arena import MIGHTY_KINGDOMS, Arena, make_foreign, system_routes
from tests.attack.test_routes import Attack, attack_get, attack_post
from tests.conftest import add_member, make_campaign, make_user
from tests.mk.test_mk_access import People


@dataclass
class SystemScene:
    """What the attacks read of a scene: the campaign, its people and two kingdoms."""

    campaign: Campaign
    gm: User
    player: User
    other: User
    red: Kingdom
    blue: Kingdom


ROUTES = system_routes()
# Values for URL arguments other than the campaign: a kingdom's id, a game's number, an action
# at the table, a trade's or a battle's id with the answer or step posted to it.
URL_ARGS = {"kingdom_id": "RED", "number": 1, "action": "farm", "pk": 1, "answer": "accept",
            "step": "commit"}


def _args(pattern: str, scene: SystemScene) -> list[Any]:
    import re

    names = re.findall(r"<(?:\w+:)?(\w+)>", pattern)[1:]  # the campaign's slug first
    values = [URL_ARGS[name] for name in names]
    return [scene.red.pk if v == "RED" else v for v in values]


def _takes(arena: Arena, method: str, url: str) -> bool:
    """Whether the view takes ``method`` (asked as the GM, in a savepoint rolled back)."""
    client = arena.client("gm")  # logged in outside the savepoint, so the session stays
    with transaction.atomic():
        status = getattr(client, method)(url, {}).status_code
        transaction.set_rollback(True)
    return status != 405


def _names_a_kingdom(url: str) -> bool:
    import inspect

    from django.urls import resolve

    return "acting_kingdom(" in inspect.getsource(inspect.unwrap(resolve(url).func))


@pytest.fixture
def system_arena(request: pytest.FixtureRequest, db: Any,
                 monkeypatch: pytest.MonkeyPatch) -> Arena:
    monkeypatch.setattr(pdf, "start_worker", lambda job_id, token: None)
    slug = request.param
    gm, player, other = make_user("gm"), make_user("player"), make_user("other")
    campaign = make_campaign(gm, slug="realm", rule_system=slug, width=6, height=5)
    red = Kingdom.objects.create(campaign=campaign, name="Red", colour="#aa0000",
                                 player=add_member(campaign, player, Role.PLAYER))
    blue = Kingdom.objects.create(campaign=campaign, name="Blue", colour="#0000aa",
                                  player=add_member(campaign, other, Role.PLAYER))
    observer = make_user("observer")
    add_member(campaign, observer, Role.OBSERVER)
    scene = SystemScene(campaign, gm, player, other, red, blue)
    people = People(scene, observer, make_user("outsider"),  # type: ignore[arg-type]
                    User.objects.create_superuser("admin", "admin@example.com", "pw-admin"))
    return Arena(people, make_foreign())


def test_every_url_argument_has_a_value() -> None:
    """Each route of another system is attacked here, found in the URL table; each of its URL
    arguments (after the campaign) has a value to send."""
    import re

    assert {slug for slug, _, _ in ROUTES} <= set(REGISTRY) - {MIGHTY_KINGDOMS}
    for _, name, pattern in ROUTES:
        assert set(re.findall(r"<(?:\w+:)?(\w+)>", pattern)[1:]) <= set(URL_ARGS), name


@pytest.mark.parametrize(("system_arena", "name", "pattern"),
                         [(slug, name, pattern) for slug, name, pattern in ROUTES],
                         ids=[name for _, name, _ in ROUTES], indirect=["system_arena"])
def test_system_route_survives_odd_input(system_arena: Arena, name: str, pattern: str) -> None:
    scene = system_arena.people.scene
    args = _args(pattern, scene)  # type: ignore[arg-type]
    url = reverse(name, args=[scene.campaign.slug, *args])
    # A method the view does not take is a 405 for everyone: attacked no further.
    if _takes(system_arena, "get", url):
        attack_get(system_arena, Attack(name, "get", lambda p: (args, {})))
    if _takes(system_arena, "post", url):
        # A GM names the kingdom to act for where the view asks for one (``acting_kingdom``).
        form = {"kingdom": ""} if _names_a_kingdom(url) else {}
        attack_post(system_arena, Attack(name, "post", lambda p: (args, dict(form))))
    assert system_arena.requests > 0
    assert system_arena.findings == [], "\n".join(system_arena.findings[:40])
