"""Swords & Stones at the table: one full turn for 8 kingdoms of 60 buildings each, and a
kingdom's Stockpile page on the phone at turn 1 and turn 40.

1. The rules alone: for each of the 8 kingdoms the harvest (two Forests and an Outcrop worked by
   4 units each, 24 Farm dice, the Temple's favor dice, the Merchant's Guild), the compulsory
   phase (3 timers, 2 foundations worked, upkeep and growth of 60 operational buildings), the
   advance phase (2 Villagers trained, a Farm's foundation, a Market exchange, a trade with the
   next kingdom) and an auto-resolved battle against the next kingdom.
2. Through the services, as the phones do it: the same 8 kingdoms seated at one game, each
   turn's Farm dice, Guild gold, upkeep and growth for 60 buildings, a Villager trained, a trade
   offered and accepted between pairs, and the four phase changes each: one event per action.
   Time and queries per full turn of all 8.
3. The Stockpile page of one kingdom at turn 1 and at turn 40 of that game (with 40 turns of
   lines, trades and battles behind it): time and queries; the queries must be equal.

Run: `DEBUG=1 .venv/bin/python bench/sns_turn.py` (SQLite; `DATABASE_URL=...` for PostgreSQL).
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from common import minimal_view_ms, setup_django, timed

KINGDOMS = 8
#: 60 buildings: what the compulsory phase counts (upkeep, growth) and the rest of a grown
#: kingdom (Farms, Barracks, Stables, Market...).
BUILDINGS = {"STOCKPILE": 1, "TAVERN": 6, "TOWNCENTER": 4, "TEMPLE": 4, "ARENA": 3,
             "COMMUNE": 6, "BARRACKS": 4, "STABLE": 2, "MARKET": 2, "FARM": 24, "MILL": 2,
             "GUARDTOWER": 2}
assert sum(BUILDINGS.values()) == 60


def rules_turn_ms() -> tuple[float, dict[str, int]]:
    """One full turn of 8 kingdoms by the pure rules (no database)."""
    from campaign.systems.swords_and_stones.rules import autoresolve as ar
    from campaign.systems.swords_and_stones.rules import econ_advance as adv
    from campaign.systems.swords_and_stones.rules import econ_harvest as hv
    from campaign.systems.swords_and_stones.rules import econ_turn as tr
    from campaign.systems.swords_and_stones.rules import economy as eco

    forests = [hv.place_site(hv.FOREST, 5, code=f"F{i}") for i in range(2)]
    outcrop = hv.place_site(hv.OUTCROP, 5, code="O1", secondary=eco.GOLD, threshold=4)
    farm_dice = [(n % 5) + 2 for n in range(24)]
    site_dice = [2, 3, 5, 6]
    people = {"VILLAGER": 12, "MONK": 2, "KING": 1}
    counts: dict[str, int] = {}

    def turn() -> None:
        stocks = []
        for k in range(KINGDOMS):
            stock = eco.Stockpile(food=10 + k, wood=20, stone=10, iron=4, gold=8, favor=5)
            parts = [hv.harvest_site(f, site_dice) for f in forests]
            parts.append(hv.harvest_site(outcrop, site_dice))
            parts.append(hv.farm_harvest(farm_dice))
            parts.append(hv.favor_harvest([4] * hv.temple_dice(eco.AVALONIAN, people)))
            parts.append(hv.goods_and_services(5, 3))
            crop = hv.harvest_phase(parts)
            stock = eco.book(stock, crop.lines)
            timers = [tr.start_timer("Plague"), tr.start_timer("Refugees"),
                      tr.start_timer("Public Executions")]
            building = [(tr.Foundation("BARRACKS", 4, 4), 2), (tr.Foundation("MARKET", 3, 4), 1)]
            comp = tr.compulsory_phase(stock, BUILDINGS, timers=timers, foundations=building)
            stock = eco.book(stock, comp.upkeep.lines)
            realm = adv.Kingdom(faction=eco.AVALONIAN, stockpile=stock, operational=BUILDINGS,
                                built=BUILDINGS)
            training = adv.train(realm, "VILLAGER", 2, growth=comp.growth)
            stock = eco.book(stock, training.lines)
            realm = adv.Kingdom(faction=eco.AVALONIAN, stockpile=stock, operational=BUILDINGS,
                                built=BUILDINGS)
            lines, _foundation = adv.lay_foundation(realm, "FARM")
            stock = eco.book(stock, lines)
            realm = adv.Kingdom(faction=eco.AVALONIAN, stockpile=stock, operational=BUILDINGS,
                                built=BUILDINGS)
            stock = eco.book(stock, adv.exchange(realm, "market", "wood", "stone"))
            stocks.append(stock)
        for k in range(KINGDOMS):
            other = (k + 1) % KINGDOMS
            a = adv.Kingdom(faction=eco.AVALONIAN, stockpile=stocks[k], operational=BUILDINGS)
            b = adv.Kingdom(faction=eco.AVALONIAN, stockpile=stocks[other],
                            operational=BUILDINGS)
            mine, theirs = adv.player_trade(a, b, {"wood": 2}, {"stone": 1})
            stocks[k] = eco.book(stocks[k], mine)
            stocks[other] = eco.book(stocks[other], theirs)
            army = ["SWORDS"] * 6 + ["KNIGHTS"] * 2 + ["VILLAGER"] * 5
            defences = ar.Defences(guard_towers=2, favor_spent=3)
            garrison = ["SPEARS"] * 4 + ["VILLAGER"] * 6
            attack = ar.attacker_total(army)
            held = ar.commit_defenders(attack, ar.defence_score(defences), garrison)
            rolling = army if ar.winner(attack, held.total) == ar.ATTACKER else held.units
            ar.resolve_battle(army, defences, garrison,
                              survival_dice=[(n % 6) + 1 for n in range(len(rolling))])
        counts["food"] = sum(s.food for s in stocks)

    try:
        ms = timed(turn, repeat=30)
    except Exception as exc:  # the battle's dice follow the winner's units
        raise SystemExit(f"rules turn failed: {exc}") from exc
    return ms, counts


def table_of_eight() -> dict[str, Any]:
    """A campaign of 8 kingdoms on the Map of Avalon, game 1 with all 8 seated and begun."""
    from django.contrib.auth.models import User

    from campaign import services
    from campaign.models import Kingdom, Membership
    from campaign.systems.swords_and_stones import seats
    from campaign.systems.swords_and_stones import services as sns

    gm = User.objects.create_user("gm", password="x")
    campaign = services.create_campaign(gm, name="Table", slug="table",
                                        rule_system="swords-and-stones")
    sns.load_preset(campaign, gm)
    campaign.refresh_from_db()
    spots = [((1, 1), (2, 1), (1, 2)), ((12, 1), (11, 1), (12, 2)), ((4, 1), (5, 1), (4, 2)),
             ((8, 1), (9, 1), (8, 2)), ((2, 3), (3, 3), (2, 4)), ((6, 3), (7, 3), (6, 2)),
             ((10, 3), (11, 3), (10, 4)), ((1, 5), (2, 5), (1, 4))]
    label = lambda x, y: f"{x + 1:02d}{y + 1:02d}"  # noqa: E731
    kingdoms = []
    for i, (capital, a, b) in enumerate(spots):
        user = User.objects.create_user(f"p{i}", password="x")
        member = Membership.objects.create(campaign=campaign, user=user, role="player")
        kingdom = Kingdom.objects.create(campaign=campaign, name=f"Kingdom {i + 1}",
                                         colour="#336699", player=member)
        sns.name_king(campaign, gm, kingdom, f"King {i + 1}")
        sns.place(campaign, gm, kingdom, label(*capital), [label(*a), label(*b)])
        kingdoms.append(kingdom)
    sns.start_challenges(campaign, gm)
    game = sns.challenge(campaign, gm, kingdoms[0], label(2, 2), kingdoms[1])
    for i, kingdom in enumerate(kingdoms[2:]):
        seats.join_game(campaign, gm, game, kingdom,
                        seats.CHALLENGER if i % 2 == 0 else seats.DEFENDER)
    for kingdom, (capital, _a, _b) in zip(kingdoms, spots):
        sns.set_up(campaign, gm, game, kingdom, faction="avalonian",
                   supply=[(label(*capital), "WOOD")])
    sns.begin_game(campaign, gm, game)
    game.refresh_from_db()
    return {"campaign": campaign, "gm": gm, "game": game, "kingdoms": kingdoms}


def service_turn(t: dict[str, Any], battle: bool = False) -> None:
    """One full turn of all 8 kingdoms through the services, phase by phase together."""
    from campaign.systems.swords_and_stones import autoresolve_play as arp
    from campaign.systems.swords_and_stones import table, trades
    from campaign.systems.swords_and_stones.rules import autoresolve as ar

    c, gm, game, ks = t["campaign"], t["gm"], t["game"], t["kingdoms"]
    compulsory = {code: n for code, n in BUILDINGS.items() if code in table.BUILDINGS}
    for k in ks:
        table.farm_harvest(c, gm, game, k, [(n % 5) + 2 for n in range(24)])
        table.book_line(c, gm, game, k, "gold", 2, "SNS-ECON-29", "Merchant's Guild")
        table.next_phase(c, gm, game, k)
    for k in ks:
        table.compulsory(c, gm, game, k, compulsory)
        table.next_phase(c, gm, game, k)
    for k in ks:
        table.train(c, gm, game, k, "VILLAGER", 1)
    for a, b in zip(ks[::2], ks[1::2]):
        offer = trades.offer(c, gm, game, a, b, {"food": 2}, {"gold": 1}, zones_touch=True)
        trades.accept(c, gm, game, offer.pk, b)
    for k in ks:
        table.next_phase(c, gm, game, k)
    if battle:
        fight = arp.begin(c, gm, game, ks[0], ks[1], ["VILLAGER"] * 2)
        arp.defences(c, gm, game, fight.pk, ar.Defences(guard_towers=1))
    for k in ks:
        table.next_phase(c, gm, game, k)


def main() -> None:
    setup_django()
    from common import BENCH_URLCONF
    from django.db import connection, reset_queries
    from django.test import Client, override_settings
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from campaign.models import Event

    ms, _ = rules_turn_ms()
    print(f"Rules: one full turn for {KINGDOMS} kingdoms of 60 buildings: {ms:.2f} ms")

    t = table_of_eight()
    client = Client()
    client.force_login(t["gm"])
    kingdom = t["kingdoms"][2]
    url = reverse("sns:table", args=[t["campaign"].slug, t["game"].number, kingdom.pk])
    with override_settings(ROOT_URLCONF=BENCH_URLCONF):
        floor = minimal_view_ms(client)
    print(f"(minimal view {floor:.2f} ms)")
    pages: dict[int, tuple[float, int]] = {}
    turns: list[float] = []
    queries: list[int] = []
    events: list[int] = []
    for turn in range(1, 41):
        if turn in (1, 40):
            reset_queries()
            with CaptureQueriesContext(connection) as ctx:
                assert client.get(url).status_code == 200
            pages[turn] = (timed(lambda: client.get(url), repeat=7), len(ctx.captured_queries))
        reset_queries()
        before = Event.objects.count()
        start = time.perf_counter()
        with CaptureQueriesContext(connection) as ctx:
            service_turn(t, battle=turn % 10 == 5)
        turns.append((time.perf_counter() - start) * 1000)
        queries.append(len(ctx.captured_queries))
        events.append(Event.objects.count() - before)
    print(f"Services: one full turn for {KINGDOMS} seated kingdoms of 60 buildings "
          f"({statistics.median(events):.0f} events): median "
          f"{statistics.median(turns):.0f} ms, {statistics.median(queries):.0f} queries "
          f"(first {turns[0]:.0f} ms, last "
          f"{turns[-1]:.0f} ms)")
    for turn, (ms, count) in pages.items():
        print(f"Stockpile page at turn {turn}: {ms:.1f} ms, {count} queries")
    assert pages[1][1] == pages[40][1], "the Stockpile page's queries grew with the game"


if __name__ == "__main__":
    main()
