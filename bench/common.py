"""Shared set-up for the benchmark scripts: a throwaway database and a timing helper.

Each script prints its figures next to the time of a minimal Django view measured in the same
run, because the ratio is what stays comparable from one machine to another.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "campaign.settings")
os.environ.setdefault("DEBUG", "1")


def setup_django() -> None:
    """Configure Django on a fresh test database (SQLite unless DATABASE_URL says otherwise)."""
    import django
    from django.test.utils import setup_test_environment

    django.setup()
    setup_test_environment()
    from django.db import connection

    connection.creation.create_test_db(verbosity=0, autoclobber=True)


def timed(fn: Callable[[], object], repeat: int = 7) -> float:
    """Median wall time of ``fn`` in milliseconds, after one warm-up call."""
    fn()
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def minimal_view_ms(client: object) -> float:
    """The time of a view that does nothing, through the same client and middleware."""
    return timed(lambda: client.get("/bench-minimal/"), repeat=50)


BENCH_URLCONF = "bench.urls"
