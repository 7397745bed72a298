"""The Mighty Kingdoms demo campaigns, loaded by ``manage.py load_demo`` (see campaign.demo).

- The Shattered Coast: four kingdoms in year 2's winter, during C) 2. Build and recruit, after a
  Kings of War battle in year 2's summer; Aldmark and Greenhold keep Kings of War army lists.
- The Ember Marches: three kingdoms playing Simple battles (MK-SIMPLE), waiting in C) Battle of
  their second summer with a land, a naval and a land/water battle chosen.
- The Wide Frontier: four kingdoms on a 24 x 16 map (too large for one printed page), waiting
  in C) Battle of their first summer with a Kings of War battle chosen; its armies' lists keep
  each unit's stat line and special rules.

Both are played through the services with seeded dice, so every install gets the same ones.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from django.contrib.auth.models import User

from campaign import services
from campaign.demo import DemoCampaign, found_kingdoms
from campaign.models import Campaign, Kingdom
from campaign.systems.mighty_kingdoms.rules import battles as mkb
from campaign.systems.mighty_kingdoms.rules import campaign as mk
from campaign.systems.mighty_kingdoms.rules import ledger as eco

MK_KINGDOMS = (
    ("alice", "Kingdom of Aldmark", "#b3261e"),
    ("bob", "Blue Reach", "#1f5fa8"),
    ("carol", "Greenhold", "#2e7d32"),
    ("dave", "Goldcrest", "#c79100"),
)

# The map's seed and the server's dice of The Shattered Coast.
SHATTERED_COAST_SEED = 293



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



def _mighty_kingdoms_demo(users: dict[str, User]) -> Campaign:
    gm = users["gm"]
    campaign = services.create_campaign(
        gm, name="The Shattered Coast", slug="shattered-coast", rule_system="mighty-kingdoms",
        description="Four kingdoms race to claim a broken coastline. Demo campaign.",
        width=10, height=6, orientation="flat", seed=SHATTERED_COAST_SEED,
    )
    kingdoms = found_kingdoms(campaign, users, MK_KINGDOMS)
    _play_setup(campaign, gm, users, kingdoms, MK_KINGDOMS)
    _write_lists(campaign, users)
    _play_into_second_winter(campaign, gm, users)
    return campaign


# Kings of War lists for the Kingdom of Aldmark's armies #1, #2 and #3, written as alice would
# paste them.
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


# Greenhold's starting army, the one that fights Aldmark in year 2, written by carol at setup.
GREENHOLD_LIST = """Ironguard, regiment, 145; US 2
Shieldbreakers, regiment, 135; US 2
Ironwatch Crossbows, regiment, 115; US 2
Berserker Lord, hero, 105; US 0; item Brew of Courage"""

# Whose Kings of War lists the demo writes: kingdom, its player, race, the list of each army.
DEMO_LISTS = (
    ("Kingdom of Aldmark", "alice", "Basileans", ALDMARK_LISTS),
    ("Greenhold", "carol", "Dwarfs", (GREENHOLD_LIST,)),
)


def _write_lists(campaign: Campaign, users: dict[str, User]) -> None:
    """MK-SETUP-6, MK-RECRUIT-4: each army of ``DEMO_LISTS`` on the map gets its list, written
    and fixed by its player, as soon as the army exists (the starting army at setup, a recruit
    after the winter that bought it). Armies that already have a list are left alone."""
    from battles.models import Army
    from campaign.systems.mighty_kingdoms import forces as battle_services

    for kingdom, owner, race, texts in DEMO_LISTS:
        armies = Army.objects.filter(campaign=campaign, kingdom__name=kingdom,
                                     tile__isnull=False, army_list__isnull=True)
        for army in armies.order_by("number"):
            if army.number <= len(texts):
                battle_services.paste_army_list(army, texts[army.number - 1], users[owner],
                                                race=race, fix=True)


SIMPLE_KINGDOMS = (
    ("bob", "Ashfell", "#8e3b8e"),
    ("carol", "Morrow Vale", "#00796b"),
    ("dave", "Ironmere", "#5d4037"),
)


def _simple_battles_demo(users: dict[str, User]) -> Campaign:
    """A Simple-battles campaign (MK-SIMPLE) in the battle phase of its second summer, with a
    land, a naval and a land/water battle chosen and waiting to be fought on a phone."""

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
    kingdoms = found_kingdoms(campaign, users, SIMPLE_KINGDOMS)
    _play_setup(campaign, gm, users, kingdoms, SIMPLE_KINGDOMS)
    rng = random.Random(EMBER_SEED)
    for _month in range(6):
        autoplay.play_summer_month(campaign, gm, rng)
    _winter_with_a_second_ship(campaign, gm)
    _stage_battles(campaign, gm, rng)
    return campaign


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


def _winter_with_a_second_ship(campaign: Campaign, gm: User) -> None:
    """The first winter as ``autoplay`` plays it, except that once every kingdom has made its
    purchase, a kingdom with a harbour still free builds a second ship (MK-SHIPYARD): the
    second summer needs three ships for a naval and a land/water battle at once."""
    from campaign.systems.mighty_kingdoms import autoplay, phases
    from campaign.systems.mighty_kingdoms import winter_services as ws
    from campaign.systems.mighty_kingdoms.state import load_state

    def turn_of(state: object, turn: object = None) -> int | None:
        handler = phases.handler_for(state.campaign)  # type: ignore[attr-defined]
        return handler.turn(state) if handler.turn else None  # type: ignore[misc]

    autoplay.play_winter(campaign, gm, stop_in_buy=True)
    built = False
    while (state := load_state(Campaign.objects.get(pk=campaign.pk))) and (
            turn := turn_of(state)) is not None:
        kingdom = state.kingdom_rows[turn]
        winter = ws.kingdom_winter(state, turn, ws.stocks(state)[turn],
                                   ws.purchases_this_winter(state), ws.last_army_number(turn))
        ship = next((o.purchase for o in eco.affordable_purchases(
            winter, ws.kingdom_map(state, turn), state.options)
            if o.affordable and o.purchase.kind == eco.SHIP), None)
        if ship is not None and not built:
            ws.buy(kingdom, gm, ship, state=state)
            built = True
        else:
            ws.pass_turn(kingdom, gm, mk.SUB_BUY, state=state)
    phases.advance(campaign, gm)  # Build and recruit closes
    autoplay.feed_and_deploy(campaign, gm)  # the second summer begins


@dataclass(frozen=True)
class _Meeting:
    """Two tokens of different kingdoms that are to meet on a free tile (and fight there)."""

    kind: str  # the battle it makes: land, naval or land_water
    first: str  # mover keys
    second: str
    tile: str
    cost: int  # months until both can step onto the tile


def _routes(state: object) -> dict[str, dict[str, dict[str, int]]]:
    """Months of Move orders between tiles, for an army and for a ship (MK-ORD-5/6,
    MK-SHIP-4): a step is a month, two where an army would be laid on its side at Reform
    (mountains, forest, a river tile: MK-REFORM-1) and have to regroup, or would first
    explore the tile; ships sail coastal, ocean and river tiles they know."""
    import heapq


    tiles = state.map  # type: ignore[attr-defined]
    options = state.options  # type: ignore[attr-defined]
    graphs: dict[str, dict[str, list[tuple[str, int]]]] = {mk.ARMY: {}, mk.SHIP: {}}
    for tile in tiles.tiles:
        for kind in (mk.ARMY, mk.SHIP):
            steps = []
            for label in mk.legal_move_destinations(mk.Mover(kind, 0, tile.label), tiles,
                                                    options):
                there = tiles.tile(label)
                if kind == mk.SHIP:
                    if there.explored or there.is_open_water:
                        steps.append((label, 1))
                    continue
                slow = not there.explored or mk.terrain_check(
                    kind, mk.MoveRecord(tile.label, label), tiles).on_side
                steps.append((label, 2 if slow else 1))
            graphs[kind][tile.label] = steps
    routes: dict[str, dict[str, dict[str, int]]] = {}
    for kind, graph in graphs.items():
        routes[kind] = {}
        for start in graph:
            seen = {start: 0}
            queue = [(0, start)]
            while queue:
                cost, label = heapq.heappop(queue)
                if cost > seen.get(label, cost):
                    continue
                for step, weight in graph.get(label, ()):
                    if cost + weight < seen.get(step, cost + weight + 1):
                        seen[step] = cost + weight
                        heapq.heappush(queue, (cost + weight, step))
            routes[kind][start] = seen
    return routes


def _plan_meetings(state: object, routes: dict[str, dict[str, dict[str, int]]],
                   kinds: tuple[str, ...]) -> list[_Meeting]:
    """The quickest way to bring about a battle of each of ``kinds`` at once: for each, two
    tokens of different kingdoms and a free tile they both can reach; no token or tile used
    twice. Ties go to the first in label order, so the plan is always the same."""
    from itertools import product


    movers = [m for pk in state.order for m in state.movers_of(pk)  # type: ignore[attr-defined]
              if m.kind in (mk.ARMY, mk.SHIP)]
    occupied = ({a.tile for a in state.armies}  # type: ignore[attr-defined]
                | {s.tile for s in state.ships})  # type: ignore[attr-defined]
    shapes = {"land": (mk.ARMY, mk.ARMY), "naval": (mk.SHIP, mk.SHIP),
              "land_water": (mk.ARMY, mk.SHIP)}
    options: dict[str, list[_Meeting]] = {}
    for kind in kinds:
        first_kind, second_kind = shapes[kind]
        found = []
        for a, b in product(movers, movers):
            if (a.kind, b.kind) != (first_kind, second_kind) or a.kingdom == b.kingdom or (
                    first_kind == second_kind and a.key >= b.key):
                continue
            near_a = routes[a.kind].get(a.tile, {})
            near_b = routes[b.kind].get(b.tile, {})
            for tile in sorted(set(near_a) & set(near_b) - occupied):
                if near_a[tile] and near_b[tile]:
                    # A token on its side first regroups: a month more.
                    found.append(_Meeting(kind, a.key, b.key, tile, max(
                        near_a[tile] + a.on_side, near_b[tile] + b.on_side)))
        found.sort(key=lambda m: (m.cost, m.tile, m.first, m.second))
        options[kind] = found[:12]
    best: list[_Meeting] = []
    best_key: tuple[int, int] | None = None
    for combo in product(*(options[kind] for kind in kinds)):
        keys = [k for m in combo for k in (m.first, m.second)]
        tiles_used = [m.tile for m in combo]
        if len(set(keys)) != len(keys) or len(set(tiles_used)) != len(tiles_used):
            continue
        score = (max(m.cost for m in combo), sum(m.cost for m in combo))
        if best_key is None or score < best_key:
            best, best_key = list(combo), score
    return best


def _stage_battles(campaign: Campaign, gm: User, rng: random.Random) -> None:
    """The second summer: month by month, the tokens picked by ``_plan_meetings`` close in on
    free tiles; once all are a step away, they march in together. First two armies meet, and
    their battle is fought out at once (table dice, automatic allocation), so the chronicle
    holds a finished battle; then three pairs meet, and the month stops in C) Battle with a
    land, a naval and a land/water battle chosen."""
    from campaign.systems.mighty_kingdoms.state import load_state

    for kinds in (("land",), ("land", "naval", "land_water")):
        plan: list[_Meeting] = []
        while (now := Campaign.objects.get(pk=campaign.pk)).season == "summer":
            state = load_state(now)
            routes = _routes(state)
            movers = {m.key: m for pk in state.order for m in state.movers_of(pk)}
            occupied = {a.tile for a in state.armies} | {s.tile for s in state.ships}
            if len(plan) != len(kinds) or any(
                    m.tile in occupied or m.first not in movers or m.second not in movers
                    for m in plan):
                plan = _plan_meetings(state, routes, kinds)
            ready = len(plan) == len(kinds) and all(
                _next_to(state, movers[k], m.tile) for m in plan for k in (m.first, m.second))
            if ready or now.month == 6:
                marched = _march(campaign, gm, rng,
                                 {k: m.tile for m in plan for k in (m.first, m.second)})
                if len(kinds) > 1 or now.month == 6:
                    return
                if marched:
                    _fight_out(campaign, gm, rng)
                break
            _march(campaign, gm, rng, _steps(state, routes, movers, plan, occupied))


def _next_to(state: object, mover: object, tile: str) -> bool:
    """The token stands upright next to ``tile`` and may move into it."""

    return not mover.on_side and tile in mk.legal_move_destinations(  # type: ignore[attr-defined]
        mover, state.map, state.options)  # type: ignore[arg-type, attr-defined]


def _steps(state: object, routes: dict[str, dict[str, dict[str, int]]],
           movers: dict[str, object], plan: list[_Meeting], occupied: set[str]) -> dict[str, str]:
    """One month closer to the meetings: each token steps onto the free tile nearest its
    meeting tile. An army next to it waits (it defends); a ship must sail every month
    (MK-ORD-7), so it keeps to a tile next to it; a token on its side regroups."""

    steps = {}
    taken = {m.tile for m in plan}
    for meeting in plan:
        for key in (meeting.first, meeting.second):
            mover = movers[key]
            route = routes[mk.ARMY if mover.kind == mk.ARMY else mk.SHIP]  # type: ignore
            close = _next_to(state, mover, meeting.tile)
            if mover.on_side or (close and mover.kind == mk.ARMY):  # type: ignore
                continue
            choices = [label for label in mk.legal_move_destinations(
                mover, state.map, state.options)  # type: ignore[arg-type, attr-defined]
                if label not in occupied | taken
                and route.get(label, {}).get(meeting.tile) is not None]
            if close:
                choices = [c for c in choices if route[c][meeting.tile] <= 1]
            if choices:
                best = min(choices, key=lambda c: (route[c][meeting.tile], c))
                steps[key] = best
                taken.add(best)
    return steps


def _march(campaign: Campaign, gm: User, rng: random.Random, plan: dict[str, str]) -> bool:
    """One summer month: the tokens in ``plan`` move to their tiles, every other army defends
    (or regroups), every other ship sails to a free tile nearby; then resolution, and the
    battles that brings are chosen (True: the month waits in C) Battle with them). Without
    battles the month is played to its end (False)."""
    from campaign.systems.mighty_kingdoms import phases, summer_battles, summer_orders
    from campaign.systems.mighty_kingdoms.state import load_state

    plan = dict(plan)
    while (state := load_state(Campaign.objects.get(pk=campaign.pk))) and (
            turn := phases.handler_for(state.campaign).turn(state)) is not None:
        mover = summer_orders.unordered(state)[turn][0]
        kingdom = state.kingdom_rows[turn]
        if mover.on_side:
            summer_orders.give_order(kingdom, gm, mover.key, mk.REGROUP, None)
        elif mover.key in plan:
            summer_orders.give_order(kingdom, gm, mover.key, mk.MOVE, plan[mover.key])
        elif mover.kind == mk.ARMY:
            summer_orders.give_order(kingdom, gm, mover.key, mk.DEFEND, None)
        else:
            # Ships cannot Defend (MK-ORD-7): an idle ship sails to a free tile nearby.
            occupied = ({a.tile for a in state.armies} | {s.tile for s in state.ships}
                        | set(plan.values()))
            legal = sorted(mk.legal_move_destinations(mover, state.map, state.options))
            free = [label for label in legal if label not in occupied]
            target = (free or legal)[0]
            plan[mover.key] = target
            summer_orders.give_order(kingdom, gm, mover.key, mk.MOVE, target)
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
        # Ships on both sides: the chooser calls the naval battle (MK-BTYPE-1).
        naval = all(any(t.is_ship and t.upright for t in tf.tokens_of(k))
                    for k in (turn, opponent))
        summer_battles.choose_battle(state.kingdom_rows[turn], gm, tf.label, opponent,
                                     call_naval=naval)
    if summer_battles.month_battles(load_state(Campaign.objects.get(pk=campaign.pk))):
        return True
    phases.advance(campaign, gm)  # Battle → Reform
    phases.advance(campaign, gm)  # Reform closes
    return False


def mkb_choosers(tf: object) -> tuple[int, ...]:

    return tuple(mkb.choosers_in_tile(tf))  # type: ignore[arg-type]


def mkb_opponents(tf: object, chooser: int) -> tuple[int, ...]:

    return tuple(mkb.legal_opponents(tf, chooser))  # type: ignore[arg-type]


def _play_into_second_winter(campaign: Campaign, gm: User, users: dict[str, User]) -> None:
    """Year 1 and the summer of year 2 played out; year 2's winter stops during building, so the
    demo shows a winter in progress with ledgers, purchases and ships. In year 2's summer
    Greenhold marches on Aldmark's armies and they fight (``_summer_with_a_battle``)."""
    from campaign.systems.mighty_kingdoms import autoplay

    rng = random.Random(2026)
    for _month in range(6):
        autoplay.play_summer_month(campaign, gm, rng)
    autoplay.play_winter(campaign, gm)
    _write_lists(campaign, users)
    _summer_with_a_battle(campaign, gm, rng)
    autoplay.play_winter(campaign, gm, stop_in_buy=True)
    _write_lists(campaign, users)


# The Kings of War battle of year 2: Greenhold's army #1 attacks Aldmark's armies #1 and #2 where
# they hold the border, and is thrown back. Each unit's rout events (MK-US-1..3), as the GM
# enters them after the game: (kingdom, unit, first to damage and rout an enemy, was routed).
# No side is credited with more routed enemies than the other side had units routed (MK-US-3).
BATTLE_ATTACKER, BATTLE_DEFENDER = "Greenhold", "Kingdom of Aldmark"
BATTLE_WINNER = BATTLE_DEFENDER
BATTLE_UNITS = (
    ("Kingdom of Aldmark", "Paladin Knights", True, False),  # charged the Ironwatch Crossbows
    ("Kingdom of Aldmark", "Sea Guard", True, False),  # held, then broke the Shieldbreakers
    ("Kingdom of Aldmark", "Men-at-Arms", True, False),  # caught the Berserker Lord
    ("Kingdom of Aldmark", "Crossbowmen", False, True),
    ("Kingdom of Aldmark", "Spearmen", False, True),
    ("Greenhold", "Ironguard", True, False),  # routed the Crossbowmen
    ("Greenhold", "Shieldbreakers", True, True),  # routed the Spearmen, then fled
    ("Greenhold", "Ironwatch Crossbows", False, True),
    ("Greenhold", "Berserker Lord", False, True),
)


def _summer_with_a_battle(campaign: Campaign, gm: User, rng: random.Random) -> None:
    """Year 2's summer: Aldmark's armies #1 and #2 march to the free tile of theirs that
    Greenhold's army #1 reaches soonest and hold it; that army comes up next to it and, once
    both of Aldmark's armies stand there upright, attacks. Every other army defends meanwhile.
    The Kings of War land battle is chosen (MK-BSEL), fought at the table and entered by the GM
    with every unit's rout events (MK-RESULT, MK-US-1..3), as the battle page enters them; the
    loser retreats. The other months are played as ``autoplay`` plays them."""
    from battles.models import Battle
    from campaign.systems.mighty_kingdoms import autoplay, phases, summer_battles
    from campaign.systems.mighty_kingdoms.forces import battle_units
    from campaign.systems.mighty_kingdoms.state import load_state

    front = None
    while True:
        now = Campaign.objects.get(pk=campaign.pk)
        if now.season != "summer":
            raise RuntimeError("Greenhold's army never reached Aldmark's in year 2.")
        state = load_state(now)
        routes = _routes(state)[mk.ARMY]
        armies = [m for pk in state.order for m in state.movers_of(pk) if m.kind == mk.ARMY]
        attacker = next(m for m in armies if m.army.number == 1
                        and state.kingdom_rows[m.kingdom].name == BATTLE_ATTACKER)
        holders = [m for m in armies if m.army.number in (1, 2)
                   and state.kingdom_rows[m.kingdom].name == BATTLE_DEFENDER]
        if front is None:
            # The defender's free tile the attacker reaches soonest (ties: the first label).
            held = {a.tile for a in state.armies} | {s.tile for s in state.ships}
            front = min((t.label for t in state.map.tiles
                         if t.controller == holders[0].kingdom and t.label not in held
                         and t.label in routes.get(attacker.tile, {})),
                        key=lambda label: (routes[attacker.tile][label], label))
        ready = all(m.tile == front and not m.on_side for m in holders)
        if ready and _next_to(state, attacker, front):
            if _march(campaign, gm, rng, {attacker.key: front}):
                break
            continue
        plan = {}
        for mover in (*holders, attacker):
            if mover.on_side or mover.tile == front or (
                    mover is attacker and _next_to(state, mover, front)):
                continue  # it regroups, or waits where it is (it defends)
            others = {a.tile for a in state.armies if a.kingdom != mover.kingdom} | {
                s.tile for s in state.ships if s.kingdom != mover.kingdom}
            steps = [label for label in mk.legal_move_destinations(mover, state.map,
                                                                   state.options)
                     if label not in others and front in routes.get(label, {})]
            if mover is attacker:
                steps = [label for label in steps if label != front]
            if steps:
                plan[mover.key] = min(steps, key=lambda c: (routes[c][front], c))
        _march(campaign, gm, rng, plan)
    current = Campaign.objects.get(pk=campaign.pk)
    battle = Battle.objects.get(campaign=campaign, year=current.year, month=current.month)
    units = {(army.kingdom.name, unit.name): unit
             for army, rows in battle_units(battle) for unit in rows}
    records = [mkb.UnitBattleRecord(str(units[(kingdom, name)].pk), routed_enemy=routed_enemy,
                                    routed=routed)
               for kingdom, name, routed_enemy, routed in BATTLE_UNITS]
    chooser_won = battle.chooser.name == BATTLE_WINNER
    summer_battles.enter_result(battle.pk, gm, current, result="win" if chooser_won else "loss",
                                units=records)
    battle.refresh_from_db()
    pending = (battle.data or {}).get("retreats") or {}
    for kingdom_pk in sorted({entry["kingdom"] for entry in pending.values()}):
        choices = {key: entry["options"][0] for key, entry in pending.items()
                   if entry["kingdom"] == kingdom_pk}
        summer_battles.choose_retreats(current.kingdoms.get(pk=kingdom_pk), gm, battle.pk,
                                       choices)
    # The winner keeps its armies where they held (MK-RESULT-3: the move on is optional).
    winner = current.kingdoms.get(name=BATTLE_WINNER)
    offer = (Battle.objects.get(pk=battle.pk).data or {}).get("winner_move") or {}
    if offer.get("kingdom") == winner.pk:
        summer_battles.winner_move(winner, gm, battle.pk, "", "")
    phases.advance(campaign, gm)  # Battle → Reform
    phases.advance(campaign, gm)  # Reform closes
    while Campaign.objects.get(pk=campaign.pk).season == "summer":
        autoplay.play_summer_month(campaign, gm, rng)


RACES = ("Basileans", "Elves", "Dwarfs", "Ogres")


def _play_setup(campaign: Campaign, gm: User, users: dict[str, User],
                kingdoms: list[Kingdom], founders: tuple[tuple[str, str, str], ...]) -> None:
    """MK-SETUP-1..5 played through the services, as the players would at the table."""
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



def shattered_coast(users: dict[str, User]) -> Campaign:
    """The Shattered Coast, built whole (see the module docstring)."""
    with _server_dice(SHATTERED_COAST_SEED):
        return _mighty_kingdoms_demo(users)


def ember_marches(users: dict[str, User]) -> Campaign:
    """The Ember Marches, built whole (see the module docstring)."""
    with _server_dice(EMBER_SEED):
        return _simple_battles_demo(users)


FRONTIER_KINGDOMS = (  # their races follow demo.RACES: Basileans, Elves, Dwarfs, Ogres
    ("alice", "Thornmark", "#c62828"),
    ("bob", "Silverglade", "#2e7d32"),
    ("carol", "Saltmere", "#1565c0"),
    ("dave", "High Cairn", "#c79100"),
)
FRONTIER_SEED = 41

# Each kingdom's starting list, pasted with stat lines and special rules (MK-SETUP-6).
FRONTIER_LISTS = {
    "Thornmark": "\n".join((
        "Spearmen, regiment, 100; US 2; stats Sp 5 Me 4+ Ra - De 4+ Att 10 Ne 14/16"
        "; rules Phalanx",
        "Knights, troop, 110; US 1; stats Sp 8 Me 3+ Ra - De 5+ Att 8 Ne 11/13"
        "; rules Thunderous Charge (2)",
        "Crossbowmen, regiment, 115; US 2; stats Sp 5 Me 5+ Ra 5+ De 4+ Att 10 Ne 13/15"
        "; rules Piercing (1), Reload!",
        "Ballista, war engine, 60; US 0; stats Sp 5 Me - Ra 5+ De 4+ Att 2 Ne 10/12"
        "; rules Blast (D3), Piercing (3), Reload!",
        "Captain, hero, 85; US 0; stats Sp 5 Me 3+ Ra - De 5+ Att 5 Ne 12/14"
        "; rules Inspiring, Individual, Mighty; item Blade of Slashing",
    )),
    "Silverglade": "\n".join((
        "Palace Guard, regiment, 145; US 2; stats Sp 6 Me 3+ Ra - De 4+ Att 15 Ne 14/16"
        "; rules Elite (Melee), Crushing Strength (1)",
        "Bowmen, regiment, 125; US 2; stats Sp 6 Me 5+ Ra 4+ De 4+ Att 10 Ne 13/15"
        "; rules Elite (Ranged)",
        "Stormwind Cavalry, troop, 105; US 1; stats Sp 9 Me 3+ Ra - De 4+ Att 8 Ne 11/13"
        "; rules Elite (Melee), Thunderous Charge (2)",
        "Mage, hero, 80; US 0; stats Sp 6 Me 5+ Ra - De 4+ Att 1 Ne 10/12"
        "; rules Individual, Heal (3); item Brew of Strength",
    )),
    "Saltmere": "\n".join((
        "Ironguard, regiment, 145; US 2; stats Sp 4 Me 3+ Ra - De 6+ Att 12 Ne 14/16"
        "; rules Headstrong",
        "Ironclad, regiment, 105; US 2; stats Sp 4 Me 4+ Ra - De 5+ Att 12 Ne 14/16"
        "; rules Headstrong",
        "Bulwarkers, troop, 95; US 1; stats Sp 4 Me 4+ Ra - De 5+ Att 8 Ne 11/13"
        "; rules Headstrong, Phalanx",
        "Berserker Lord, hero, 105; US 0; stats Sp 5 Me 3+ Ra - De 4+ Att 7 Ne -/15"
        "; rules Crushing Strength (1), Individual, Wild Charge (D3)",
    )),
    "High Cairn": "\n".join((
        "Warriors, regiment, 130; US 2; stats Sp 6 Me 3+ Ra - De 5+ Att 9 Ne 12/14"
        "; rules Crushing Strength (1), Strider",
        "Berserker Braves, horde, 150; US 3; stats Sp 6 Me 3+ Ra - De 4+ Att 18 Ne -/18"
        "; rules Crushing Strength (1), Headstrong",
        "Hunters, troop, 95; US 1; stats Sp 7 Me 4+ Ra - De 4+ Att 6 Ne 10/12"
        "; rules Nimble, Pathfinder",
        "Boss, hero, 95; US 0; stats Sp 7 Me 3+ Ra - De 5+ Att 6 Ne 13/15"
        "; rules Crushing Strength (2), Inspiring, Nimble",
    )),
}


def _frontier_demo(users: dict[str, User]) -> Campaign:
    """A large map and a Kings of War battle waiting: set up, each kingdom pastes its list,
    and in the first summer the quickest pair of armies of two kingdoms meet (as the Ember
    Marches' battles are staged); the month stops in C) Battle with the battle chosen."""
    from battles.models import Army
    from campaign.systems.mighty_kingdoms import forces as battle_services
    from campaign.systems.mighty_kingdoms.state import load_state

    gm = users["gm"]
    campaign = services.create_campaign(
        gm, name="The Wide Frontier", slug="wide-frontier", rule_system="mighty-kingdoms",
        description="Four kingdoms on a wide map; the first Kings of War battle of the year "
                    "waits to be fought. Demo campaign.",
        width=24, height=16, orientation="flat", seed=FRONTIER_SEED,
    )
    kingdoms = found_kingdoms(campaign, users, FRONTIER_KINGDOMS)
    _play_setup(campaign, gm, users, kingdoms, FRONTIER_KINGDOMS)
    owners = {name: owner for owner, name, _colour in FRONTIER_KINGDOMS}
    for army in Army.objects.filter(campaign=campaign).select_related("kingdom").order_by("pk"):
        battle_services.paste_army_list(army, FRONTIER_LISTS[army.kingdom.name],
                                        users[owners[army.kingdom.name]],
                                        race=army.kingdom.data.get("race", ""), fix=True)
    rng = random.Random(FRONTIER_SEED)
    plan: list[_Meeting] = []
    while (now := Campaign.objects.get(pk=campaign.pk)).season == "summer":
        state = load_state(now)
        routes = _routes(state)
        movers = {m.key: m for pk in state.order for m in state.movers_of(pk)}
        occupied = {a.tile for a in state.armies} | {s.tile for s in state.ships}
        if len(plan) != 1 or any(m.tile in occupied or m.first not in movers
                                 or m.second not in movers for m in plan):
            plan = _plan_meetings(state, routes, ("land",))
        ready = len(plan) == 1 and all(_next_to(state, movers[k], m.tile)
                                       for m in plan for k in (m.first, m.second))
        if ready and _march(campaign, gm, rng,
                            {k: m.tile for m in plan for k in (m.first, m.second)}):
            return campaign
        if not ready:
            _march(campaign, gm, rng, _steps(state, routes, movers, plan, occupied))
    raise RuntimeError("No two armies of the Wide Frontier met in its first summer.")


def wide_frontier(users: dict[str, User]) -> Campaign:
    """The Wide Frontier, built whole (see the module docstring)."""
    with _server_dice(FRONTIER_SEED):
        return _frontier_demo(users)


CAMPAIGNS = (
    DemoCampaign("shattered-coast", shattered_coast),
    DemoCampaign("ember-marches", ember_marches),
    DemoCampaign("wide-frontier", wide_frontier),
)
