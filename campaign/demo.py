"""Demo campaigns, so a fresh install has something to open: ``manage.py load_demo``.

Loading is idempotent: users are created once, and a campaign whose slug exists is left alone.
Every write goes through the services, so the demo's chronicle reads like a real campaign's.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User

from campaign import services
from campaign.models import Campaign, Kingdom, Membership, Role

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

MK_KINGDOMS = (
    ("alice", "Kingdom of Aldmark", "#b3261e"),
    ("bob", "Blue Reach", "#1f5fa8"),
    ("carol", "Greenhold", "#2e7d32"),
    ("dave", "Goldcrest", "#c79100"),
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


def load_demo() -> tuple[list[DemoLogin], list[str]]:
    """Create the demo users and campaigns; returns the logins and the campaigns created."""
    users = {name: _user(name, staff) for name, _role, staff in DEMO_USERS}
    logins = [
        DemoLogin(name, DEMO_PASSWORD, "site admin and GM" if staff else role.label)
        for name, role, staff in DEMO_USERS
    ]
    created = []
    if not Campaign.objects.filter(slug="shattered-coast").exists():
        _mighty_kingdoms_demo(users)
        created.append("shattered-coast")
    return logins, created


def _mighty_kingdoms_demo(users: dict[str, User]) -> Campaign:
    gm = users["gm"]
    campaign = services.create_campaign(
        gm, name="The Shattered Coast", slug="shattered-coast", rule_system="mighty-kingdoms",
        description="Four kingdoms race to claim a broken coastline. Demo campaign.",
        width=10, height=6, orientation="flat", seed=293,
    )
    for name, role, _staff in DEMO_USERS:
        if name != "gm":
            invitation = services.create_invitation(campaign, gm, role=role, single_use=True,
                                                    note=f"for {name}")
            services.accept_invitation(invitation.token, users[name])
    memberships = {m.user.username: m for m in
                   Membership.objects.filter(campaign=campaign).select_related("user")}
    kingdoms = [
        services.create_kingdom(campaign, users[owner], name=name, colour=colour,
                                player=memberships[owner])
        for owner, name, colour in MK_KINGDOMS
    ]
    _play_setup(campaign, gm, users, kingdoms)
    _play_into_second_winter(campaign, gm)
    return campaign


def _play_into_second_winter(campaign: Campaign, gm: User) -> None:
    """Year 1 and the summer of year 2 played out; year 2's winter stops during building, so the
    demo shows a winter in progress with ledgers, purchases and ships."""
    import random

    from campaign.systems.mighty_kingdoms import autoplay

    rng = random.Random(2026)
    for _year in (1, 2):
        for _month in range(6):
            autoplay.play_summer_month(campaign, gm, rng)
        autoplay.play_winter(campaign, gm, stop_in_buy=_year == 2)


RACES = ("Basileans", "Elves", "Dwarfs", "Ogres")


def _play_setup(campaign: Campaign, gm: User, users: dict[str, User],
                kingdoms: list[Kingdom]) -> None:
    """MK-SETUP-1..5 played through the services, as the players would at the table."""
    from campaign.rules import mighty_kingdoms as mk
    from campaign.systems.mighty_kingdoms import phases, setup
    from campaign.systems.mighty_kingdoms.state import load_state

    owners = {name: owner for owner, name, _colour in MK_KINGDOMS}
    for kingdom, race in zip(kingdoms, RACES):
        setup.choose_race(kingdom, users[owners[kingdom.name]], race)
    phases.advance(campaign, gm)
    setup.roll_initial_order(campaign, gm, rolls={k.pk: 6 - i for i, k in enumerate(kingdoms)})
    phases.advance(campaign, gm)
    state = load_state(campaign)
    starts = [label for label in mk.legal_start_tiles(state.map)]
    for kingdom, start in zip(kingdoms, starts):
        setup.choose_capital(kingdom, users[owners[kingdom.name]], start)
    phases.advance(campaign, gm)
    for kingdom in kingdoms:
        state = load_state(Campaign.objects.get(pk=campaign.pk))
        start = state.kingdoms[kingdom.pk].start_tile
        # The city goes where a harbour can be built (coast or river), so ships can follow.
        tiles = sorted(mk.legal_setup_tiles(state.map, start, kingdom.pk),
                       key=lambda label: not (state.map.tile(label).is_coastal
                                              or state.map.tile(label).has_river))
        settlements = tiles[:4]
        setup.place_settlements(
            kingdom, users[owners[kingdom.name]], city=settlements[0],
            fortress=settlements[1] if len(settlements) > 1 else "",
            villages=settlements[2:4], markers=tiles[4:6],
        )
    phases.advance(campaign, gm)
    for kingdom in kingdoms:
        kingdom.refresh_from_db()
        setup.place_first_army(kingdom, users[owners[kingdom.name]], kingdom.capital_tile.label)
    phases.advance(campaign, gm)
