"""The real server set-up: gunicorn (2 workers) on PostgreSQL with DEBUG off, as a newcomer would
deploy it, loaded by 8 concurrent clients on 127.0.0.1.

Run: `.venv/bin/python bench/serve.py` (PostgreSQL answering on 127.0.0.1:5432 as user
``postgres``, as in CI). It makes a throwaway database ``hexkeep_bench``, migrates it, loads the
Mighty Kingdoms demo, collects the static files, starts gunicorn on a free port and then, in
rounds, lets 8 clients ask for one page at a time for a few seconds each: a player's phone play
page (signed in), the sign-in page and a static file, one after the other in every round, so
the three share the machine's ups and downs and their ratio is the figure. Each client keeps the
cookies it is given from round to round, as a phone does (its CSRF cookie, so the page cache of
campaign/live.py answers it once the page is kept). It prints, per page, requests per second,
the median and 95th percentile answer time and the errors; then the same pages timed in-process
on the same database (median ms and queries), rendered (the kept pages and map drawings
emptied before each: the first view after an event) and kept, and with ``--profile`` where
the rendered play page's time goes. Everything it starts it stops; every loop is bounded in
count and time; it only talks to 127.0.0.1.

Options: ``--rounds N`` (default 5), ``--seconds S`` per page per round (default 2),
``--clients C`` (default 8), ``--profile``.
"""

from __future__ import annotations

import argparse
import http.client
import os
import secrets
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYTHON = sys.executable
DB = "hexkeep_bench"
PG = "postgres://postgres@127.0.0.1:5432"
PLAYER = "alice"
CAMPAIGN = "shattered-coast"
MAX_PER_BURST = 5000  # requests, per page per round, whatever the time


def _env(static_root: str) -> dict[str, str]:
    return {**os.environ, "DEBUG": "0", "SECRET_KEY": secrets.token_urlsafe(40),
            "ALLOWED_HOSTS": "127.0.0.1", "DATABASE_URL": f"{PG}/{DB}",
            "SECURE_SSL_REDIRECT": "0", "STATIC_ROOT": static_root, "LOG_LEVEL": "WARNING",
            "DJANGO_SETTINGS_MODULE": "campaign.settings"}


def _run(env: dict[str, str], *args: str) -> str:
    done = subprocess.run([PYTHON, "manage.py", *args], cwd=ROOT, env=env, text=True,
                          capture_output=True, timeout=900)
    if done.returncode:
        sys.exit(f"manage.py {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}")
    return done.stdout


def _psql(sql: str) -> None:
    subprocess.run(["psql", "-h", "127.0.0.1", "-U", "postgres", "-v", "ON_ERROR_STOP=1",
                    "-qc", sql], check=True, timeout=120)


SESSION = """
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth import get_user_model
from django.contrib.sessions.backends.db import SessionStore
from django.templatetags.static import static
user = get_user_model().objects.get(username=%r)
session = SessionStore()
session[SESSION_KEY] = str(user.pk)
session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
session[HASH_SESSION_KEY] = user.get_session_auth_hash()
session.create()
print("RESULT", session.session_key, static("css/hexkeep.css"))
"""


def prepare(env: dict[str, str]) -> tuple[str, str]:
    """A fresh database with the demo; the player's session key and the static file's URL."""
    _psql(f"DROP DATABASE IF EXISTS {DB} WITH (FORCE)")
    _psql(f"CREATE DATABASE {DB}")
    _run(env, "migrate", "--noinput")
    _run(env, "load_demo", "--system", "mighty-kingdoms", "--on-a-live-site")
    _run(env, "collectstatic", "--noinput")
    out = _run(env, "shell", "-c", SESSION % PLAYER)
    line = [x for x in out.splitlines() if x.startswith("RESULT ")][-1]
    _, key, static_url = line.split()
    return key, static_url


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Page:
    name: str
    path: str
    cookie: str = ""
    times: list[float] = field(default_factory=list)
    errors: int = 0
    seconds: float = 0.0
    # Each client's cookies, kept from burst to burst as a phone keeps them between visits.
    jars: dict[int, SimpleCookie] = field(default_factory=dict)

    def rate(self) -> float:
        return len(self.times) / self.seconds if self.seconds else 0.0

    def pct(self, q: float) -> float:
        ordered = sorted(self.times)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000 if ordered else 0.0


def burst(port: int, page: Page, clients: int, seconds: float) -> None:
    """``clients`` keep-alive connections ask for ``page`` until ``seconds`` pass (at most
    MAX_PER_BURST requests in all)."""
    stop = time.monotonic() + seconds
    lock = threading.Lock()
    counted = [0]

    def client(number: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        # Like a browser, each client keeps the cookies it is given (the CSRF cookie).
        jar = page.jars.setdefault(number, SimpleCookie(page.cookie))
        headers = {"Host": "127.0.0.1"}
        while time.monotonic() < stop:
            if jar:
                headers["Cookie"] = "; ".join(f"{k}={m.value}" for k, m in jar.items())
            with lock:
                if counted[0] >= MAX_PER_BURST:
                    break
                counted[0] += 1
            start = time.perf_counter()
            try:
                conn.request("GET", page.path, headers=headers)
                response = conn.getresponse()
                response.read()
                ok = response.status == 200
                for set_cookie in response.headers.get_all("Set-Cookie") or []:
                    jar.load(set_cookie)
            except (OSError, http.client.HTTPException):
                ok = False
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            elapsed = time.perf_counter() - start
            with lock:
                if ok:
                    page.times.append(elapsed)
                else:
                    page.errors += 1
        conn.close()

    threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
    began = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    page.seconds += time.monotonic() - began


def wait_until_up(port: int, server: subprocess.Popen[bytes]) -> None:
    for _ in range(300):
        if server.poll() is not None:
            sys.exit("gunicorn stopped at start-up")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/accounts/login/", headers={"Host": "127.0.0.1"})
            conn.getresponse().read()
            return
        except OSError:
            time.sleep(0.1)
    sys.exit("gunicorn did not answer within 30 s")


IN_PROCESS = r"""
import statistics, sys, time
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from campaign.models import Campaign, Kingdom
user = get_user_model().objects.get(username=%(player)r)
campaign = Campaign.objects.get(slug=%(slug)r)
kingdom = Kingdom.objects.get(campaign=campaign, player__user=user)
client = Client(HTTP_HOST="127.0.0.1")
client.force_login(user)
base = f"/c/{campaign.slug}/"
pages = [("play", base + "play/"), ("kingdom", base + f"kingdoms/{kingdom.pk}/"),
         ("map", base + "map/"), ("overview", base), ("login (anonymous)", "/accounts/login/")]
from django.core.cache import caches
from campaign.views import maps as _maps


def _after_an_event():  # what a new event makes stale: kept pages and kept map drawings
    caches["pages"].clear()
    with _maps._KEPT_LOCK:
        _maps._KEPT.clear()


print(f"{'page':<18} {'rendered ms':>12} {'queries':>8} {'kept ms':>8} {'queries':>8}")
for name, url in pages:
    c = Client(HTTP_HOST="127.0.0.1") if "anonymous" in name else client
    assert c.get(url).status_code == 200, (name, url)
    figures = []
    for emptied in (True, False):
        samples = []
        for _ in range(15):
            if emptied:
                _after_an_event()
            start = time.perf_counter()
            c.get(url)
            samples.append((time.perf_counter() - start) * 1000)
        if emptied:
            _after_an_event()
        with CaptureQueriesContext(connection) as q:
            c.get(url)
        figures.append((statistics.median(samples), len(q)))
    (rendered, n_rendered), (kept, n_kept) = figures
    print(f"{name:<18} {rendered:>12.1f} {n_rendered:>8} {kept:>8.1f} {n_kept:>8}")
if %(profile)r:
    import cProfile, pstats, io
    url = pages[0][1]
    _after_an_event()
    with CaptureQueriesContext(connection) as q:
        start = time.perf_counter(); client.get(url); total = time.perf_counter() - start
    sql_ms = sum(float(x["time"]) for x in q.captured_queries) * 1000
    print(f"\nplay page: {total*1000:.1f} ms, {len(q)} queries, {sql_ms:.1f} ms of them in SQL")
    for x in q.captured_queries:
        print(f"  {float(x['time'])*1000:6.2f} ms  {x['sql'][:110]}")
    prof = cProfile.Profile()
    prof.enable()
    for _ in range(20):
        _after_an_event()
        client.get(url)
    prof.disable()
    out = io.StringIO()
    pstats.Stats(prof, stream=out).sort_stats("cumulative").print_stats(45)
    print(out.getvalue())
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    static_root = tempfile.mkdtemp(prefix="hexkeep-static-")
    env = _env(static_root)
    session, static_url = prepare(env)
    port = free_port()
    server = subprocess.Popen(
        [str(Path(PYTHON).with_name("gunicorn")), "campaign.wsgi", "--workers", "2",
         "--bind", f"127.0.0.1:{port}", "--log-level", "warning"],
        cwd=ROOT, env=env)
    try:
        wait_until_up(port, server)
        pages = [Page("play (phone)", f"/c/{CAMPAIGN}/play/", f"sessionid={session}"),
                 Page("login", "/accounts/login/"), Page("static file", static_url)]
        for page in pages:  # warm-up: every worker has served each page once
            burst(port, page, args.clients, 0.5)
            page.times.clear()
            page.errors = 0
            page.seconds = 0.0
        for _ in range(args.rounds):
            for page in pages:
                burst(port, page, args.clients, args.seconds)
    finally:
        server.terminate()
        server.wait(timeout=30)
    print(f"gunicorn, 2 workers, PostgreSQL, DEBUG off; {args.clients} clients; "
          f"{args.rounds} rounds of {args.seconds:g} s per page")
    print(f"{'page':<14} {'requests':>9} {'req/s':>8} {'p50 ms':>8} {'p95 ms':>8} {'errors':>7}")
    for page in pages:
        print(f"{page.name:<14} {len(page.times):>9} {page.rate():>8.1f} {page.pct(0.5):>8.1f} "
              f"{page.pct(0.95):>8.1f} {page.errors:>7}")
    play, login = pages[0], pages[1]
    print(f"play / login requests per second: {play.rate() / login.rate():.2f}")
    print("\nIn-process, same database, DEBUG off:")
    done = subprocess.run(
        [PYTHON, "manage.py", "shell", "-c",
         IN_PROCESS % {"player": PLAYER, "slug": CAMPAIGN, "profile": args.profile}],
        cwd=ROOT, env=env, text=True, capture_output=True, timeout=900)
    print("\n".join(x for x in done.stdout.splitlines() if "objects imported" not in x))
    if done.returncode:
        print(done.stderr[-3000:])
    _psql(f"DROP DATABASE IF EXISTS {DB} WITH (FORCE)")


if __name__ == "__main__":
    main()
