"""Demo campaigns, so a fresh install has something to open: ``manage.py load_demo``.

What every system's demo shares lives here: the demo users and their logins, and the loop over
the registry. Each rule system names its demo module in ``RuleSystem.demo``; that module lists
its campaigns in ``CAMPAIGNS``, a tuple of ``DemoCampaign`` (see there).

Loading is idempotent: users are created once, and a campaign whose slug exists is left alone.
Each campaign is built in one transaction, so an interrupted run leaves no half-built campaign
behind and the next run builds it whole. Every write goes through the services, so the demo's
chronicle reads like a real campaign's.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module

from django.contrib.auth.models import User
from django.db import transaction

from campaign import services
from campaign.models import Campaign, Kingdom, Membership, Role
from campaign.rulesystems import REGISTRY, RuleSystem, get_system

DEMO_PASSWORD = "hexkeep-demo"



@dataclass(frozen=True)
class DemoLogin:
    username: str
    password: str
    role: str


DEMO_USERS = (
    ("gm", Role.GM, True),
    ("alice", Role.PLAYER, False),
    ("bob", Role.PLAYER, False),
    ("carol", Role.PLAYER, False),
    ("dave", Role.PLAYER, False),
    ("olga", Role.OBSERVER, False),
)


def _user(username: str, staff: bool) -> User:
    user, created = User.objects.get_or_create(
        username=username, defaults={"email": f"{username}@example.com", "is_staff": staff,
                                     "is_superuser": staff}
    )
    if created:
        user.set_password(DEMO_PASSWORD)
        user.save()
    return user



@dataclass(frozen=True)
class DemoCampaign:
    """One demo campaign of a rule system.

    ``slug`` is the campaign's slug: a campaign with that slug already there counts as loaded.
    ``build(users)`` creates the campaign whole, through the services, from the demo users (by
    username, see ``DEMO_USERS``), and returns it; it runs inside a transaction.
    """

    slug: str
    build: Callable[[dict[str, User]], Campaign]


class UnknownSystem(ValueError):
    """A demo was asked for a rule system that is not registered."""


def demo_campaigns(system: RuleSystem) -> tuple[DemoCampaign, ...]:
    """The demo campaigns ``system`` provides, in the order they load (none without a demo)."""
    if not system.demo:
        return ()
    return tuple(import_module(system.demo).CAMPAIGNS)


def demo_systems(slug: str | None = None) -> list[RuleSystem]:
    """Every registered system, in registry order, or only the one registered as ``slug``
    (``UnknownSystem`` when none is)."""
    if slug is None:
        return [get_system(name) for name in REGISTRY]
    if slug not in REGISTRY:
        raise UnknownSystem(f"Unknown rule system {slug!r}: the known ones are "
                            f"{', '.join(sorted(REGISTRY))}.")
    return [get_system(slug)]


def load_demo(system: str | None = None) -> tuple[list[DemoLogin], list[str]]:
    """Create the demo users and the demo campaigns of every registered system (or only of the
    one registered as ``system``); returns the logins and the slugs of the campaigns created."""
    systems = demo_systems(system)
    users = {name: _user(name, staff) for name, _role, staff in DEMO_USERS}
    logins = [
        DemoLogin(name, DEMO_PASSWORD, "site admin and GM" if staff else role.label)
        for name, role, staff in DEMO_USERS
    ]
    created = []
    for rule_system in systems:
        for demo in demo_campaigns(rule_system):
            if Campaign.objects.filter(slug=demo.slug).exists():
                continue
            with transaction.atomic():
                demo.build(users)
            created.append(demo.slug)
    return logins, created


def found_kingdoms(campaign: Campaign, users: dict[str, User],
                   founders: tuple[tuple[str, str, str], ...]) -> list[Kingdom]:
    """Every demo user but the GM joins ``campaign`` by invitation link, in the role
    ``DEMO_USERS`` gives them; then each of ``founders`` (username, kingdom name, colour)
    founds a kingdom. Returns the kingdoms, in the order of ``founders``."""
    gm = users["gm"]
    for name, role, _staff in DEMO_USERS:
        if name != "gm":
            invitation = services.create_invitation(campaign, gm, role=role, single_use=True,
                                                    note=f"for {name}")
            services.accept_invitation(invitation.token, users[name])
    memberships = {m.user.username: m for m in
                   Membership.objects.filter(campaign=campaign).select_related("user")}
    return [
        services.create_kingdom(campaign, users[owner], name=name, colour=colour,
                                player=memberships[owner])
        for owner, name, colour in founders
    ]
