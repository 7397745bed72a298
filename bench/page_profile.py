"""Where one phone page's first render spends its time: a profile and the queries of one page.

Run: `.venv/bin/python bench/page_profile.py CAMPAIGN PAGE [--size 16] [--db NAME] [--keep]
[--top 30] [--sql] [--asks 15]` (PostgreSQL answering on 127.0.0.1:5432 as user
``postgres``). PAGE is one of play, kingdom, map, overview, as in bench/phone_pages.py: the
first player's page (by kingdom)
with the kept pages and map drawings emptied before each ask (the first view after an event)
and DEBUG off. It builds the database NAME
(``hexkeep_page_profile`` unless told) with every demo campaign grown ``--size``-fold, or with
``--keep`` reuses the one an earlier run left (made at the same size), so that one can profile
a page, change the code and profile it again in seconds. It prints the median time of 15 asks
(``--asks``) and of the CPU time this process spent on them, steadier on a busy machine, and
the quickest of each (steadier still on a shared host), the slowest
functions of a profile over those asks (own time and with what they call), and with
``--sql`` each query of one ask with its time.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.phone_pages import PG, _environment, _psql, after_an_event, analyze  # noqa: E402


def _exists(name: str) -> bool:
    import subprocess

    out = subprocess.run(["psql", "-h", "127.0.0.1", "-U", "postgres", "-tAc",
                          f"SELECT 1 FROM pg_database WHERE datname = '{name}'"],
                         check=True, capture_output=True, text=True, timeout=60).stdout
    return out.strip() == "1"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("campaign")
    parser.add_argument("page", choices=("play", "kingdom", "map", "overview"))
    parser.add_argument("--size", type=int, default=16)
    parser.add_argument("--db", default="hexkeep_page_profile")
    parser.add_argument("--keep", action="store_true",
                        help="reuse the database an earlier run left")
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--sql", action="store_true", help="print each query of one ask")
    parser.add_argument("--asks", type=int, default=15,
                        help="asks to time (the quickest is printed too: steadier on a noisy host)")
    args = parser.parse_args()
    os.environ["DATABASE_URL"] = f"{PG}/{args.db}"
    _environment()
    build = not (args.keep and _exists(args.db))
    if build:
        _psql(f"DROP DATABASE IF EXISTS {args.db} WITH (FORCE)")
        _psql(f"CREATE DATABASE {args.db}")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from bench.grow import grow
    from campaign.demo import load_demo
    from campaign.models import Campaign, Kingdom

    if build:
        call_command("migrate", verbosity=0)
        load_demo(None)
        if args.size > 1:
            for campaign in Campaign.objects.order_by("pk"):
                grow(campaign, args.size)
        analyze()
    call_command("collectstatic", "--noinput", verbosity=0)
    campaign = Campaign.objects.get(slug=args.campaign)
    kingdom = (Kingdom.objects.filter(campaign=campaign, player__isnull=False)
               .select_related("player__user").order_by("pk").first())
    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(kingdom.player.user)
    base = f"/c/{campaign.slug}/"
    url = {"play": base + "play/", "kingdom": base + f"kingdoms/{kingdom.pk}/",
           "map": base + "map/", "overview": base}[args.page]
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    samples, cpu = [], []
    for _ in range(args.asks):
        after_an_event()
        start, start_cpu = time.perf_counter(), time.process_time()
        client.get(url)
        samples.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
    profile = cProfile.Profile()
    for _ in range(15):
        after_an_event()
        profile.enable()
        client.get(url)
        profile.disable()
    after_an_event()
    with CaptureQueriesContext(connection) as queries:
        client.get(url)
    print(f"{args.campaign} {args.page} at {args.size}x: {statistics.median(samples):.1f} ms "
          f"median of {args.asks} ({statistics.median(cpu):.1f} ms of this process's CPU time), "
          f"quickest {min(samples):.1f} ms ({min(cpu):.1f} ms CPU), "
          f"{len(queries)} queries, {len(response.content):,} bytes")
    stats = pstats.Stats(profile)
    stats.sort_stats("tottime").print_stats(args.top)
    stats.sort_stats("cumulative").print_stats(args.top)
    if args.sql:
        for query in queries.captured_queries:
            print(f"{float(query['time']) * 1000:7.2f} ms  {query['sql'][:400]}")
    connection.close()


if __name__ == "__main__":
    main()
