"""Kingdoms of the Middle Sea benchmark: whole four-player games of 30 rounds by random legal
moves, checked after every move.

Part 1, the rules alone: 100 games (seeds 0-99) of up to 30 rounds, each move chosen at random
among the legal ones (campaign/systems/middle_sea/rules/autoplay.py) and every position checked
(``autoplay.problems``: the board, all twenty cities once, reserves, unrest, the order, the end).
Printed: rounds played, how the games ended, moves, moves the rules refused (must be 0),
unsound positions (must be 0), and the time per round (median, 95th percentile, worst).

Part 2, through the services and the database: a few of those games (default 3, 10 rounds
each) played by the same chooser through ``campaign.systems.middle_sea.services``, one
chronicle event per move (an attack with a defender to answer is two), with the same checks and
the ledger compared with the reserves after every round. Printed: time per move and per round,
and the play page's time and query count in round 1 and in the last round, next to a minimal
view's time from the same run.

Run: `DEBUG=1 .venv/bin/python bench/ms_game.py [games] [db-games] [db-rounds]`.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections import Counter

from common import BENCH_URLCONF, minimal_view_ms, setup_django, timed

SEATS = (("Ann", "suns"), ("Ben", "moons"), ("Cy", "crowns"), ("Di", "arms"))


def first_rolls(rng: random.Random, names: list[str]) -> list[dict[str, int]]:
    rolls = []
    rolling = names
    while True:
        roll = {n: rng.randint(0, 5) for n in rolling}
        rolls.append(roll)
        top = max(roll.values())
        rolling = [n for n in rolling if roll[n] == top]
        if len(rolling) == 1:
            return rolls


def pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def rules_games(games: int, rounds: int = 30) -> None:
    from campaign.systems.middle_sea.rules import autoplay, phases
    from campaign.systems.middle_sea.rules.board import RuleViolation

    per_round: list[float] = []
    endings: Counter[str] = Counter()
    played = moves = refused = unsound = 0
    kinds: Counter[str] = Counter()
    for seed in range(games):
        rng = random.Random(seed)
        state = phases.new_game(SEATS)
        state = phases.settle_first_dominance(state, first_rolls(rng, [n for n, _ in SEATS]))
        start = time.perf_counter()
        current = state.round
        while not state.ended and state.round <= rounds:
            move = autoplay.random_move(state, rng)
            assert move is not None
            try:
                state = autoplay.play(state, move)
            except RuleViolation:
                refused += 1
                continue
            moves += 1
            kinds[move.kind] += 1
            if autoplay.problems(state):
                unsound += 1
            if state.round != current or state.ended:
                now = time.perf_counter()
                per_round.append((now - start) * 1000)
                start, current = now, state.round
                played += 1
        endings[state.end_reason or "30 rounds played"] += 1
    print(f"Part 1: {games} games of 4 players by random legal moves, up to {rounds} rounds")
    print(f"  rounds played {played}, moves {moves}, refused {refused}, unsound {unsound}")
    print("  endings: " + ", ".join(f"{k} {v}" for k, v in sorted(endings.items())))
    print("  moves: " + ", ".join(f"{k} {v}" for k, v in kinds.most_common()))
    print(f"  time per round: median {statistics.median(per_round):.2f} ms, "
          f"p95 {pct(per_round, 0.95):.2f} ms, worst {max(per_round):.2f} ms")


def service_games(games: int, rounds: int) -> None:
    from django.contrib.auth.models import User
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext, override_settings

    from campaign import services as core
    from campaign.models import Kingdom, Membership
    from campaign.systems.middle_sea import services as ms
    from campaign.systems.middle_sea.game import Acting, read_game
    from campaign.systems.middle_sea.models import Game
    from campaign.systems.middle_sea.rules import autoplay, conflict
    from ledger.services import balances

    per_move: list[float] = []
    per_round: list[float] = []
    pages: list[tuple[int, float, int, float, int]] = []
    unsound = 0
    books = 0
    for g in range(games):
        rng = random.Random(1000 + g)
        gm = User.objects.create_user(f"gm{g}", password="x")
        campaign = core.create_campaign(gm, name=f"Bench {g}", slug=f"ms-bench-{g}",
                                        rule_system="middle-sea")
        kingdoms = {}
        for name, _ in SEATS:
            user = User.objects.create_user(f"{name}{g}", password="x")
            member = Membership.objects.create(campaign=campaign, user=user, role="player")
            kingdoms[name] = Kingdom.objects.create(campaign=campaign, name=name,
                                                    player=member)
        acting = Acting(gm, True, None)
        rolls = first_rolls(rng, [n for n, _ in SEATS])
        typed = {kingdoms[n].pk: [r[n] for r in rolls if n in r] for n, _ in SEATS}
        ms.setup_game(campaign, acting, [(kingdoms[n].pk, s) for n, s in SEATS], typed)
        client = Client()
        client.force_login(User.objects.get(username=f"Ann{g}"))
        url = f"/c/{campaign.slug}/play/"

        def page() -> tuple[float, int]:
            # The log of queries keeps the last 9,000 only: start from an empty one.
            connection.queries_log.clear()
            with CaptureQueriesContext(connection) as queries:
                response = client.get(url)
            assert response.status_code == 200, response.status_code
            return timed(lambda: client.get(url), repeat=5), len(queries)

        first_ms, first_q = page()
        state = read_game(campaign).state  # type: ignore[union-attr]
        start = time.perf_counter()
        current = state.round
        while not state.ended and state.round <= rounds:
            move = autoplay.random_move(state, rng)
            assert move is not None
            t0 = time.perf_counter()
            apply_move(ms, conflict, campaign, acting, move)
            per_move.append((time.perf_counter() - t0) * 1000)
            state = read_game(campaign).state  # type: ignore[union-attr]
            unsound += bool(autoplay.problems(state))
            if state.round != current or state.ended:
                now = time.perf_counter()
                per_round.append((now - start) * 1000)
                start, current = now, state.round
                book = balances(kingdoms.values(), ("goods", "gold", "unrest"))
                for p in state.players:
                    got = book[kingdoms[p.name].pk]
                    books += (got["goods"], got["gold"], got["unrest"]) != (
                        p.goods, p.gold, p.unrest)
        last_ms, last_q = page()
        pages.append((1, first_ms, first_q, last_ms, last_q))
        assert Game.objects.filter(campaign=campaign).exists()
    with override_settings(ROOT_URLCONF=BENCH_URLCONF):
        minimal = minimal_view_ms(Client())
    print(f"Part 2: {games} games through the services, up to {rounds} rounds each")
    print(f"  moves {len(per_move)}: median {statistics.median(per_move):.1f} ms, "
          f"p95 {pct(per_move, 0.95):.1f} ms; rounds {len(per_round)}: median "
          f"{statistics.median(per_round):.0f} ms, worst {max(per_round):.0f} ms")
    print(f"  unsound positions {unsound}, rounds whose ledger differs from the reserves "
          f"{books}")
    for _, first_ms, first_q, last_ms, last_q in pages:
        print(f"  play page: round 1 {first_ms:.1f} ms / {first_q} queries; last round "
              f"{last_ms:.1f} ms / {last_q} queries ({last_ms / minimal:.1f}x a minimal view "
              f"of {minimal:.2f} ms)")


def apply_move(ms: object, conflict: object, campaign: object, acting: object,
               move: object) -> None:
    """Play one chooser's move through the services (an attack, then its defence)."""
    kind, args = move.kind, move.args  # type: ignore[attr-defined]
    calls = {
        "end_turn": lambda: ms.end_turn(campaign, acting),  # type: ignore[attr-defined]
        "settle": lambda: ms.settle_control(campaign, acting, *args),  # type: ignore
        "put_down": lambda: ms.put_down(campaign, acting, *args),  # type: ignore
        "end_rebellion": lambda: ms.end_rebellion(campaign, acting),  # type: ignore
        "dominance": lambda: ms.order_dominance(campaign, acting, args[0]),  # type: ignore
        "explore": lambda: ms.explore(campaign, acting, *args),  # type: ignore
        "road": lambda: ms.build_road(campaign, acting, *args),  # type: ignore
        "port": lambda: ms.build_port(campaign, acting, *args),  # type: ignore
        "exchange": lambda: ms.exchange(campaign, acting, *args),  # type: ignore
        "king": lambda: ms.change_king(campaign, acting, *args),  # type: ignore
        "activate": lambda: ms.activate(campaign, acting, *args),  # type: ignore
        "move": lambda: ms.move_leader(campaign, acting, *args),  # type: ignore
    }
    if kind in calls:
        calls[kind]()
        return
    value, target, hires, defense, adds = args
    ms.declare_attack(campaign, acting, kind, value, target.kind,  # type: ignore[attr-defined]
                      target.place, hires)
    from campaign.systems.middle_sea.models import Game

    if Game.objects.get(campaign=campaign).pending:
        ms.defend(campaign, acting, defense, adds)  # type: ignore[attr-defined]


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    db_games = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    db_rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 10
    setup_django()
    rules_games(games)
    service_games(db_games, db_rounds)


if __name__ == "__main__":
    main()
