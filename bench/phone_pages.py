"""The phone's pages of a player, for every demo campaign, at 1x and 16x, on PostgreSQL.

Run: `.venv/bin/python bench/phone_pages.py [--sizes 1 16] [--repeat 7]` (PostgreSQL answering on
127.0.0.1:5432 as user ``postgres``, or ``DATABASE_URL`` naming another server). It makes a
throwaway database ``hexkeep_phone_pages``, migrates it, loads every demo campaign
(``load_demo``), and with DEBUG off times, for the first player of each campaign (by kingdom),
the play, kingdom (their own), map and overview pages through Django's test client: the median
time of ``--repeat`` asks and the queries of one, rendered (the kept pages and map drawings
emptied before each ask: the first view after a change) and kept (the page cache of
campaign/live.py answering).
Then it grows every campaign 16-fold (bench/grow.py: map, kingdoms, their rows, armies, chronicle)
and measures again. Each size's figures follow the sign-in page's time in the same run (the
page of the serve.py ratio), to read them by on a busy machine. Targets (issue 15): at most 15 ms
and 10 queries per page.
"""

from __future__ import annotations

import argparse
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DB = "hexkeep_phone_pages"
PG = "postgres://postgres@127.0.0.1:5432"
PAGES = ("play", "kingdom", "map", "overview")


def _psql(sql: str) -> None:
    subprocess.run(["psql", "-h", "127.0.0.1", "-U", "postgres", "-v", "ON_ERROR_STOP=1",
                    "-qc", sql], check=True, timeout=120)


def _environment() -> None:
    os.environ.update({
        "DEBUG": "0", "SECRET_KEY": secrets.token_urlsafe(40),
        "ALLOWED_HOSTS": "127.0.0.1,testserver", "SECURE_SSL_REDIRECT": "0",
        "STATIC_ROOT": tempfile.mkdtemp(prefix="hexkeep-static-"), "LOG_LEVEL": "WARNING",
        "PAGE_CACHE": "1", "DJANGO_SETTINGS_MODULE": "campaign.settings",
    })
    os.environ.setdefault("DATABASE_URL", f"{PG}/{DB}")


def analyze() -> None:
    """Refresh PostgreSQL's statistics after loading or growing, as autovacuum does on a server
    after so many new rows: planned on empty-table estimates, the latest events of a 16x
    chronicle are sorted in full (39 ms) instead of read backwards from their index (0.05 ms)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


def after_an_event() -> None:
    """Forget what a new chronicle event makes stale: the kept pages (campaign/live.py) and the
    kept map drawings (campaign/views/maps.py), both kept under the campaign's latest event.
    What is kept under the very data it was made from (tiles drawn, boards built) stays, as it
    does after an event that did not change that data."""
    from django.core.cache import caches

    from campaign.views import maps

    caches["pages"].clear()
    with maps._KEPT_LOCK:
        maps._KEPT.clear()


def _timed(get: Any, url: str, emptied: bool) -> float:
    if emptied:
        after_an_event()
    start = time.perf_counter()
    get(url)
    return (time.perf_counter() - start) * 1000


def measure(repeat: int) -> tuple[float, list[tuple[str, str, float, int, float, int]]]:
    """The sign-in page's median time (no query: on a shared machine the pages' times are best
    read as multiples of it) and (campaign, page, rendered ms, queries, kept ms, queries) for
    each demo campaign.

    The asks are taken in turns, one of every page (and of the sign-in page) in each turn,
    ``repeat`` turns: a shared machine's speed moves from one second to the next (a plain
    Python loop took 0.30 to 0.69 s within ten seconds), and a page measured all at once
    could fall wholly in a slow or a quick spell; taken in turns, every page meets the same
    spells, and the pages can be compared with each other and with the sign-in page."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from campaign.models import Campaign, Kingdom

    sign_in = Client(HTTP_HOST="127.0.0.1")
    sign_in.get("/accounts/login/")
    targets = []
    for campaign in Campaign.objects.order_by("pk"):
        kingdom = (Kingdom.objects.filter(campaign=campaign, player__isnull=False)
                   .select_related("player__user").order_by("pk").first())
        if kingdom is None:
            continue
        client = Client(HTTP_HOST="127.0.0.1")
        client.force_login(kingdom.player.user)
        base = f"/c/{campaign.slug}/"
        urls = {"play": base + "play/", "kingdom": base + f"kingdoms/{kingdom.pk}/",
                "map": base + "map/", "overview": base}
        for page in PAGES:
            status = client.get(urls[page]).status_code
            assert status == 200, (urls[page], status)
            targets.append((campaign.slug, page, client, urls[page]))
    reference: list[float] = []
    times: dict[tuple[int, bool], list[float]] = {}
    for emptied in (True, False):
        if not emptied:
            for _, _, client, url in targets:
                client.get(url)  # every page kept
        for _ in range(repeat):
            reference.append(_timed(sign_in.get, "/accounts/login/", False))
            for i, (_, _, client, url) in enumerate(targets):
                times.setdefault((i, emptied), []).append(_timed(client.get, url, emptied))
    rows = []
    for i, (slug, page, client, url) in enumerate(targets):
        counts = []
        for emptied in (True, False):
            if emptied:
                after_an_event()
            else:
                client.get(url)
            with CaptureQueriesContext(connection) as queries:
                client.get(url)
            counts.append(len(queries))
        rows.append((slug, page, statistics.median(times[(i, True)]), counts[0],
                     statistics.median(times[(i, False)]), counts[1]))
    return statistics.median(reference), rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1, 16])
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    _environment()
    own_database = os.environ["DATABASE_URL"] == f"{PG}/{DB}"
    if own_database:
        _psql(f"DROP DATABASE IF EXISTS {DB} WITH (FORCE)")
        _psql(f"CREATE DATABASE {DB}")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from bench.grow import grow
    from campaign.demo import load_demo
    from campaign.models import Campaign

    try:
        call_command("migrate", verbosity=0)
        call_command("collectstatic", "--noinput", verbosity=0)
        load_demo(None)
        analyze()
        print(f"PostgreSQL {connection.pg_version}, DEBUG off, median of {args.repeat} asks "
              "taken in turns; "
              "rendered: kept pages and drawings emptied before each ask (the first view after "
              "an event); kept: answered by the page cache")
        print(f"{'size':>4} {'campaign':<24} {'page':<9} {'rendered ms':>11} {'queries':>7} "
              f"{'kept ms':>8} {'queries':>7}")
        grown = 1
        for size in sorted(args.sizes):
            if size != grown:
                if size % grown:
                    sys.exit(f"Each size must be a multiple of the one before it: {size}")
                for campaign in Campaign.objects.order_by("pk"):
                    grow(campaign, size // grown)
                analyze()
                grown = size
            reference, rows = measure(args.repeat)
            print(f"{size:>3}x sign-in page (reference): {reference:.1f} ms", flush=True)
            for slug, page, rendered, n_rendered, kept, n_kept in rows:
                print(f"{size:>3}x {slug:<24} {page:<9} {rendered:>11.1f} {n_rendered:>7} "
                      f"{kept:>8.1f} {n_kept:>7}", flush=True)
    finally:
        connection.close()
        if own_database:
            _psql(f"DROP DATABASE IF EXISTS {DB} WITH (FORCE)")


if __name__ == "__main__":
    main()
