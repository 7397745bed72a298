"""Demo campaigns, so a fresh install has something to open: ``manage.py load_demo``.

Loading is idempotent: users are created once, and a campaign whose slug exists is left alone.
Every write goes through the services, so the demo's chronicle reads like a real campaign's.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
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
        with _server_dice(293):
            _mighty_kingdoms_demo(users)
        created.append("shattered-coast")
    if not Campaign.objects.filter(slug="ember-marches").exists():
        with _server_dice(EMBER_SEED):
            _simple_battles_demo(users)
        created.append("ember-marches")
    return logins, created


@contextmanager
def _server_dice(seed: int) -> Iterator[None]:
    """The server's dice (player-order tie-breaks, Simple battles) from a seeded generator while
    a demo is played, so every install gets the same demo campaigns."""
    from campaign.systems.mighty_kingdoms import summer_common, winter_services

    rng = random.Random(seed)
    saved = summer_common.RNG, winter_services.roll_d6
    summer_common.RNG = rng
    winter_services.roll_d6 = lambda: rng.randint(1, 6)
    try:
        yield
    finally:
        summer_common.RNG, winter_services.roll_d6 = saved


def _members_and_kingdoms(campaign: Campaign, users: dict[str, User],
                          founders: tuple[tuple[str, str, str], ...]) -> list[Kingdom]:
    """Everyone joins by invitation link; each player founds a kingdom."""
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


def _mighty_kingdoms_demo(users: dict[str, User]) -> Campaign:
    gm = users["gm"]
    campaign = services.create_campaign(
        gm, name="The Shattered Coast", slug="shattered-coast", rule_system="mighty-kingdoms",
        description="Four kingdoms race to claim a broken coastline. Demo campaign.",
        width=10, height=6, orientation="flat", seed=293,
    )
    kingdoms = _members_and_kingdoms(campaign, users, MK_KINGDOMS)
    _play_setup(campaign, gm, users, kingdoms, MK_KINGDOMS)
    _play_into_second_winter(campaign, gm)
    _write_aldmark_lists(campaign, users["alice"])
    return campaign


# Kings of War lists for the Kingdom of Aldmark's armies, written as alice would paste them.
ALDMARK_LISTS = (
    """Order of the Abbey, regiment, 150; US 2
Men-at-Arms, horde, 125; US 3
Crossbowmen, regiment, 105; US 2
Paladin Knights, regiment, 120; US 2""",
    """Sea Guard, horde, 160; US 3
Spearmen, regiment, 95; US 2
Ballista, war engine, 70; US 0
High Paladin, hero, 120; US 0; item Blessing of the Gods""",
    """Gur Panthers, troop, 90; US 1
Heavy Crossbows, regiment, 125; US 2
Militia Mob, horde, 100; US 3
Ur-Elohi, hero, 150; US 1""",
)


def _write_aldmark_lists(campaign: Campaign, alice: User) -> None:
    """MK-SETUP-6: Aldmark keeps Kings of War lists for its armies, fixed once written."""
    from battles import services as battle_services
    from battles.models import Army

    armies = Army.objects.filter(campaign=campaign, kingdom__name="Kingdom of Aldmark",
                                 tile__isnull=False).order_by("number")
    for army, text in zip(armies, ALDMARK_LISTS):
        battle_services.paste_army_list(army, text, alice, race="Basileans", fix=True)


SIMPLE_KINGDOMS = (
    ("bob", "Ashfell", "#8e3b8e"),
    ("carol", "Morrow Vale", "#00796b"),
    ("dave", "Ironmere", "#5d4037"),
)


def _simple_battles_demo(users: dict[str, User]) -> Campaign:
    """A Simple-battles campaign (MK-SIMPLE) in the battle phase of its second summer, with
    battles chosen and waiting to be fought on a phone."""

    from campaign.systems.mighty_kingdoms import autoplay

    gm = users["gm"]
    campaign = services.create_campaign(
        gm, name="The Ember Marches", slug="ember-marches", rule_system="mighty-kingdoms",
        description="Three kingdoms settle their quarrels with Simple battles. Demo campaign.",
        width=8, height=6, orientation="flat", seed=EMBER_SEED,
    )
    campaign = services.update_campaign(
        campaign, gm, name=campaign.name, description=campaign.description,
        options={**campaign.options, "battle_mode": "simple"},
        paper_size=campaign.paper_size, eco_print=campaign.eco_print,
    )
    kingdoms = _members_and_kingdoms(campaign, users, SIMPLE_KINGDOMS)
    _play_setup(campaign, gm, users, kingdoms, SIMPLE_KINGDOMS)
    rng = random.Random(EMBER_SEED)
    for _month in range(6):
        autoplay.play_summer_month(campaign, gm, rng)
    autoplay.play_winter(campaign, gm)
    # Year 2: each month, whoever can reach an enemy marches on it; the first month that brings
    # battles stops in C) Battle with them chosen. The other months are played as usual.
    # Months with one kind of battle are fought out at once (table dice, automatic allocation),
    # so the chronicle holds finished battles too.
    while (now := Campaign.objects.get(pk=campaign.pk)).season == "summer":
        last = now.month == 6
        marched = _march_to_battle(campaign, gm, rng, kinds_wanted=1 if last else 2)
        if marched:
            if last or _waiting_kinds(campaign) >= 2 or not _fight_out(campaign, gm, rng):
                break
        elif marched is None:
            autoplay.play_summer_month(campaign, gm, rng)
    return campaign


def _waiting_kinds(campaign: Campaign) -> int:
    from battles.models import Battle

    return Battle.objects.filter(campaign=campaign, status=Battle.Status.PENDING,
                                 year=campaign.year, month=Campaign.objects.get(
                                     pk=campaign.pk).month).values("kind").distinct().count()


def _fight_out(campaign: Campaign, gm: User, rng: random.Random) -> bool:
    """Fight this month's battles with dice from ``rng``, make the retreats, end the month.
    False, with nothing done, when a naval battle waits (it stays for the players)."""
    from battles.models import Battle
    from campaign.systems.mighty_kingdoms import battle_play as bp
    from campaign.systems.mighty_kingdoms import phases, summer_battles
    from campaign.systems.mighty_kingdoms.state import load_state

    def dice(count: int) -> list[int]:
        return [rng.randint(1, 6) for _ in range(count)]

    current = Campaign.objects.get(pk=campaign.pk)
    waiting = list(Battle.objects.filter(campaign=campaign, status=Battle.Status.PENDING,
                                         year=current.year, month=current.month).order_by("seq"))
    if any(bp.play_type(b) not in (bp.SIMPLE, bp.LAND_WATER) for b in waiting):
        return False
    for battle in waiting:
        kind = bp.play_type(battle)
        if kind == bp.SIMPLE:
            bp.start_simple(battle.pk, gm, current, None)
            sides = Battle.objects.get(pk=battle.pk).data["play"]["sides"]
            for side in bp.SIDES:
                bp.roll_simple(battle.pk, gm, current, None, side,
                               dice(len(sides[side]["armies"])))
            bp.resolve_automatically(battle.pk, gm, current, None)
        else:
            state = load_state(current)
            counts = bp.land_water_dice(state, Battle.objects.get(pk=battle.pk))
            for side in bp.SIDES:
                bp.roll_land_water(battle.pk, gm, current, None, side, dice(counts[side]))
    for battle in Battle.objects.filter(campaign=campaign, year=current.year,
                                        month=current.month):
        pending = (battle.data or {}).get("retreats") or {}
        for kingdom_pk in sorted({entry["kingdom"] for entry in pending.values()}):
            choices = {key: entry["options"][0] for key, entry in pending.items()
                       if entry["kingdom"] == kingdom_pk}
            summer_battles.choose_retreats(current.kingdoms.get(pk=kingdom_pk), gm, battle.pk,
                                           choices)
    phases.advance(campaign, gm)  # Battle → Reform
    phases.advance(campaign, gm)  # Reform closes
    return True


EMBER_SEED = 6


def _march_to_battle(campaign: Campaign, gm: User, rng: random.Random,
                     kinds_wanted: int = 1) -> bool | None:
    """One summer month in which every army or ship that can step onto an enemy token does so
    (the tokens it attacks stay), while the others hold; the battles are then chosen and left for
    the players to fight. None, with nothing done, when nobody can reach an enemy this month;
    False when the month was played but the enemies had moved on. The march waits (None) while
    it would bring fewer than ``kinds_wanted`` kinds of battle (land, naval, land/water)."""
    from campaign.rules import mighty_kingdoms as mk
    from campaign.systems.mighty_kingdoms import phases, summer_battles, summer_orders
    from campaign.systems.mighty_kingdoms.state import load_state

    state = load_state(Campaign.objects.get(pk=campaign.pk))
    all_movers = [m for pk in state.order for m in state.movers_of(pk)]
    plan: dict[str, str] = {}
    held: set[str] = set()  # tiles whose tokens wait to be attacked
    for kingdom in state.order:
        for mover in state.movers_of(kingdom):
            if mover.on_side or mover.tile in held:
                continue
            sources = {m.tile for m in all_movers if m.key in plan}
            enemy = ({a.tile for a in state.armies if a.kingdom != kingdom}
                     | {s.tile for s in state.ships if s.kingdom != kingdom}) - sources
            legal = sorted(label for label in mk.legal_move_destinations(mover, state.map,
                                                                         state.options)
                           if label in enemy and label not in plan.values())
            if legal:
                plan[mover.key] = legal[0]
                held.add(legal[0])
    kinds = set()
    for mover in all_movers:
        if mover.key in plan:
            there = plan[mover.key]
            armies = any(a.tile == there and a.kingdom != mover.kingdom for a in state.armies)
            ships = any(s.tile == there and s.kingdom != mover.kingdom for s in state.ships)
            if mover.kind == mk.ARMY:
                kinds.add("land" if armies else "land_water")
            else:
                kinds.add("naval" if ships else "land_water")
    if not plan or len(kinds) < kinds_wanted:
        return None
    while (state := load_state(Campaign.objects.get(pk=campaign.pk))) and (
            turn := phases.handler_for(state.campaign).turn(state)) is not None:
        mover = summer_orders.unordered(state)[turn][0]
        kingdom = state.kingdom_rows[turn]
        if mover.key in plan:
            summer_orders.give_order(kingdom, gm, mover.key, mk.MOVE, plan[mover.key])
        elif mover.on_side:
            summer_orders.give_order(kingdom, gm, mover.key, mk.REGROUP, None)
        elif mover.kind == mk.ARMY:
            summer_orders.give_order(kingdom, gm, mover.key, mk.DEFEND, None)
        else:
            # Ships cannot Defend (MK-ORD-7): an idle ship sails to a free tile nearby.
            occupied = ({a.tile for a in state.armies} | {s.tile for s in state.ships}
                        | set(plan.values()))
            free = sorted(label for label in mk.legal_move_destinations(mover, state.map,
                                                                        state.options)
                          if label not in occupied)
            others = sorted(o for o in mk.legal_orders(mover, state.map, state.options)
                            if o != mk.MOVE)
            anywhere = sorted(mk.legal_move_destinations(mover, state.map, state.options))
            if free or not others:
                target = (free or anywhere)[0]
                plan[mover.key] = target
                summer_orders.give_order(kingdom, gm, mover.key, mk.MOVE, target)
            else:
                summer_orders.give_order(kingdom, gm, mover.key, others[0], None)
    phases.advance(campaign, gm)
    while (state := load_state(Campaign.objects.get(pk=campaign.pk))) and (
            turn := phases.handler_for(state.campaign).turn(state)) is not None:
        order = summer_orders.unresolved(state)[turn][0]
        summer_orders.resolve(state.kingdom_rows[turn], gm, order.pk,
                              dice=(rng.randint(1, 6), rng.randint(1, 6)),
                              reroll=(rng.randint(1, 6), rng.randint(1, 6)))
    phases.advance(campaign, gm)
    while (state := load_state(Campaign.objects.get(pk=campaign.pk))) and (
            turn := summer_battles.battle_turn(state)) is not None:
        tf = next(tf for tf in summer_battles.free_forces(state)
                  if turn in mkb_choosers(tf))
        opponent = mkb_opponents(tf, turn)[0]
        summer_battles.choose_battle(state.kingdom_rows[turn], gm, tf.label, opponent)
    if summer_battles.month_battles(load_state(Campaign.objects.get(pk=campaign.pk))):
        return True
    phases.advance(campaign, gm)  # Battle → Reform: the enemies had moved on
    phases.advance(campaign, gm)  # Reform closes
    return False


def mkb_choosers(tf: object) -> tuple[int, ...]:
    from battles.rules import mighty_kingdoms as mkb

    return tuple(mkb.choosers_in_tile(tf))  # type: ignore[arg-type]


def mkb_opponents(tf: object, chooser: int) -> tuple[int, ...]:
    from battles.rules import mighty_kingdoms as mkb

    return tuple(mkb.legal_opponents(tf, chooser))  # type: ignore[arg-type]


def _play_into_second_winter(campaign: Campaign, gm: User) -> None:
    """Year 1 and the summer of year 2 played out; year 2's winter stops during building, so the
    demo shows a winter in progress with ledgers, purchases and ships."""
    from campaign.systems.mighty_kingdoms import autoplay

    rng = random.Random(2026)
    for _year in (1, 2):
        for _month in range(6):
            autoplay.play_summer_month(campaign, gm, rng)
        autoplay.play_winter(campaign, gm, stop_in_buy=_year == 2)


RACES = ("Basileans", "Elves", "Dwarfs", "Ogres")


def _play_setup(campaign: Campaign, gm: User, users: dict[str, User],
                kingdoms: list[Kingdom], founders: tuple[tuple[str, str, str], ...]) -> None:
    """MK-SETUP-1..5 played through the services, as the players would at the table."""
    from campaign.rules import mighty_kingdoms as mk
    from campaign.systems.mighty_kingdoms import phases, setup
    from campaign.systems.mighty_kingdoms.state import load_state

    owners = {name: owner for owner, name, _colour in founders}
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
