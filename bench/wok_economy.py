"""War of Kings benchmark: the live ledger, gold over the roads and the achievements recomputed
after every change, and the phone's play and ledger pages, on boards of 75 and 300 territories.

Six kingdoms share a patch board (15 x 5, then 20 x 15 territories); each holds a block of
territories with settlements, fortifications and roads. 1,000 random changes follow (a territory
changes hands, a settlement or fortification rises or falls, a road is built), and after each
every kingdom's ledger, gold generation and AP, and the exclusive holders, are recomputed from the
board, as the pages do. Run: `DEBUG=1 .venv/bin/python bench/wok_economy.py`.

Columns: territories; mean and 95th-percentile time per change (all six kingdoms recomputed);
growth against the smaller board divided by the growth of the board (1.0 = linear); the phone's
play page and ledger page in ms with their query counts, next to a minimal view.
"""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import replace

from common import BENCH_URLCONF, minimal_view_ms, setup_django, timed

KINGDOMS = ("Red", "Blue", "Green", "Black", "White", "Purple")
SIZES = ((15, 5), (20, 15))
CHANGES = 1000


def seeded_state(width: int, height: int, seed: int = 7):  # type: ignore[no-untyped-def]
    """Six kingdoms in blocks across the board, each with a capital town, villages, towns,
    walls and roads along its block."""
    from campaign.systems.war_of_kings.rules import board as wb
    from campaign.systems.war_of_kings.rules.boards import patch

    rng = random.Random(seed)
    board = patch(width, height, seed)
    codes = board.map.codes
    holdings = {}
    capitals = {}
    roads = set()
    share = len(codes) // (len(KINGDOMS) + 1)
    for i, name in enumerate(KINGDOMS):
        block = codes[i * share:(i + 1) * share]
        capitals[name] = block[0]
        for j, code in enumerate(block):
            level = wb.TOWN if j == 0 else rng.choice((0, 0, 1, 1, 2))
            fort = rng.choice((0, 0, 0, 1)) if level else 0
            holdings[code] = wb.Holding(name, level, name if level else None, fort)
        for code in block:
            for other in board.map.neighbours(code):
                if other in block and rng.random() < 0.5:
                    roads.add(wb.border(code, other))
    state = wb.GameState(map=board.map, holdings=holdings, roads=frozenset(roads),
                         capitals=capitals, seats=KINGDOMS, phase=wb.CONSTRUCTION)
    return board, state


def recompute(state, holders, options):  # type: ignore[no-untyped-def]
    from campaign.systems.war_of_kings.rules.achievements import (
        next_achievement,
        score,
        update_holders,
    )
    from campaign.systems.war_of_kings.rules.economy import gold_report, ledger

    holders = update_holders(state, holders, options)
    for name in state.kingdoms:
        ledger(state, name)
        gold_report(state, name)
        score(state, name, holders, options)
        next_achievement(state, name, holders, options)
    return holders


def change(state, rng):  # type: ignore[no-untyped-def]
    from campaign.systems.war_of_kings.rules import board as wb

    code = rng.choice(state.map.codes)
    holding = state.holding(code)
    roll = rng.random()
    if roll < 0.3:
        return state.with_holding(code, replace(holding, controller=rng.choice(KINGDOMS)))
    if roll < 0.6:
        level = rng.randint(0, 3)
        return state.with_holding(code, replace(
            holding, level=level, culture=(holding.culture or holding.controller) if level
            else None, fort=holding.fort if level else 0))
    if roll < 0.75 and holding.level:
        return state.with_holding(code, replace(holding, fort=rng.randint(0, 3)))
    other = rng.choice(sorted(state.map.neighbours(code)))
    return state.with_road(code, other) if other else state
    return wb  # pragma: no cover


def bench_rules() -> list[tuple[int, float, float]]:
    from campaign.systems.war_of_kings.rules.achievements import Holders
    from campaign.systems.war_of_kings.rules.options import DEFAULTS

    rows = []
    for width, height in SIZES:
        _board, state = seeded_state(width, height)
        rng = random.Random(11)
        holders = Holders()
        samples = []
        for _ in range(CHANGES):
            state = change(state, rng)
            start = time.perf_counter()
            holders = recompute(state, holders, DEFAULTS)
            samples.append((time.perf_counter() - start) * 1000)
        samples.sort()
        rows.append((width * height, statistics.mean(samples),
                     samples[int(len(samples) * 0.95)]))
    return rows


def build_campaign(width: int, height: int):  # type: ignore[no-untyped-def]
    """The seeded board as a campaign: tiles, kingdoms seated at their capitals, the board and
    stockpiles written through the chronicle like any action."""
    from django.contrib.auth.models import User
    from django.db import transaction

    from campaign import services as core
    from campaign.chronicle import Recorder
    from campaign.models import Kingdom, Membership
    from campaign.systems.war_of_kings import state as st
    from campaign.systems.war_of_kings.rules import board as wb

    _board, target = seeded_state(width, height)
    gm = User.objects.create_user(f"gm{width}", password="x")
    slug = f"wok-bench-{width}x{height}"
    campaign = core.create_campaign(gm, name=slug, slug=slug, rule_system="war-of-kings",
                                    width=width, height=height, seed=7)
    player = User.objects.create_user(f"p{width}", password="x")
    membership = Membership.objects.create(campaign=campaign, user=player, role="player")
    tiles = {t.label: t for t in campaign.map.tiles.all()}
    for i, name in enumerate(KINGDOMS, start=1):
        Kingdom.objects.create(campaign=campaign, name=name, colour="#" + f"{i * 37:06x}"[-6:],
                               order_position=i, capital_tile=tiles[target.capitals[name]],
                               player=membership if i == 1 else None)
    campaign.phase = wb.CONSTRUCTION
    campaign.save()
    with transaction.atomic():
        loaded = st.load(campaign, lock=True)
        target = replace(target, stockpiles={k: wb.Stock(10, 10, 10, 10, 10) for k in KINGDOMS},
                         lead="Red")
        with Recorder(loaded.campaign, gm, "bench.board", "Benchmark board") as rec:
            st.apply(rec, loaded, target, rule_id="WOK-SETUP-7", source="benchmark")
    campaign.refresh_from_db()
    return campaign, player


def bench_pages(width: int, height: int) -> tuple[float, int, float, int]:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext, override_settings
    from django.urls import reverse

    from campaign.models import Kingdom

    campaign, player = build_campaign(width, height)
    client = Client()
    client.force_login(player)
    play = reverse("campaign:play", args=[campaign.slug])
    ledger = reverse("wok:ledger", args=[campaign.slug,
                                          Kingdom.objects.get(campaign=campaign, name="Blue").pk])
    with override_settings(ROOT_URLCONF=BENCH_URLCONF):
        play_ms = timed(lambda: client.get(play))
        ledger_ms = timed(lambda: client.get(ledger))
        with CaptureQueriesContext(connection) as q_play:
            client.get(play)
        with CaptureQueriesContext(connection) as q_ledger:
            client.get(ledger)
    return play_ms, len(q_play), ledger_ms, len(q_ledger)


def main() -> None:
    setup_django()
    from django.test import Client
    from django.test.utils import override_settings

    rows = bench_rules()
    for size, mean, p95 in rows:
        print(f"rules only: {size} territories, {mean:.2f} ms mean, {p95:.2f} ms p95", flush=True)
    with override_settings(ROOT_URLCONF=BENCH_URLCONF):
        minimal = minimal_view_ms(Client())
    print(f"{CHANGES} random changes, 6 kingdoms: ledger, gold, AP and holders after each")
    print(f"{'territories':>11} {'mean ms':>8} {'p95 ms':>7} {'growth':>7}"
          f" {'play ms':>8} {'q':>3} {'ledger ms':>9} {'q':>3}")
    base = rows[0]
    for (width, height), (size, mean, p95) in zip(SIZES, rows, strict=True):
        growth = (mean / base[1]) / (size / base[0])
        play_ms, q_play, ledger_ms, q_ledger = bench_pages(width, height)
        print(f"{size:>11} {mean:>8.2f} {p95:>7.2f} {growth:>7.2f}"
              f" {play_ms:>8.1f} {q_play:>3} {ledger_ms:>9.1f} {q_ledger:>3}")
    print(f"minimal view: {minimal:.2f} ms")


if __name__ == "__main__":
    main()
