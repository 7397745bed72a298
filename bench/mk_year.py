"""Mighty Kingdoms benchmark: a summer month and a winter played through the services, and the
player's phone pages, for campaigns of 1x, 4x and 16x size.

1x is 12 kingdoms with 72 armies on a 2,000-tile map; 4x and 16x multiply kingdoms, armies and
tiles. Run: `DEBUG=1 .venv/bin/python bench/mk_year.py [1 4 16]` (default: 1 4). Figures are
printed next to a minimal view's time from the same run. Targets: the phone pages under 50 ms
at every size; resolution growing no faster than the campaign.

Columns: the mean time of a summer month (orders, resolution, battle, reform) and of the winter,
both through the services as ``autoplay`` plays them; a player's play page (their phone page) and
kingdom page in ms, each the slowest of the phases of the first month and the winter (timed as
each phase opens, halfway through orders, resolution and deployment, and on the player's first
turn and another's in each step, outside the month's and the winter's clocks), the play page
as a multiple of the minimal view ("x min") and its largest query count; and, from the second
size on, how the month and the winter grew against the previous size divided by how much the
campaign grew ("month x", "winter x": 1.0 is linear growth). The phases where each page was
slowest are printed last.
"""

from __future__ import annotations

import math
import random
import sys
import time

from common import BENCH_URLCONF, minimal_view_ms, setup_django, timed


def build(scale: int):  # type: ignore[no-untyped-def]
    """A campaign at Year 1, month 1 with 12*scale kingdoms, 6 armies each, ~2000*scale tiles."""
    from django.contrib.auth.models import User

    from battles.models import Army
    from campaign import services
    from campaign.chronicle import Recorder
    from campaign.models import Campaign, Kingdom, Membership
    from campaign.systems.mighty_kingdoms import phases
    from campaign.systems.mighty_kingdoms.rules import campaign as mk

    side = int(math.sqrt(2000 * scale))
    gm = User.objects.create_user(f"gm{scale}", password="x")
    campaign = services.create_campaign(gm, name=f"Bench {scale}", slug=f"bench-{scale}",
                                        rule_system="mighty-kingdoms", width=side, height=side,
                                        seed=scale)
    state_tiles = list(campaign.map.tiles.exclude(terrain="open_water").order_by("label"))
    kingdoms = []
    players = []
    for i in range(12 * scale):
        user = User.objects.create_user(f"p{scale}-{i}", password="x")
        member = Membership.objects.create(campaign=campaign, user=user, role="player")
        kingdoms.append(Kingdom.objects.create(campaign=campaign, name=f"K{i:03d}",
                                               colour=f"#{(i * 37) % 256:02x}5080",
                                               player=member, order_position=i + 1,
                                               data={"race": "Bench"}))
        players.append(user)
    # Each kingdom holds a block of tiles: a capital city, villages, and six armies spread out.
    from django.db import transaction

    step = max(1, len(state_tiles) // len(kingdoms))
    with transaction.atomic(), Recorder(campaign, gm, "bench.setup", "Bench scene"):
        for i, kingdom in enumerate(kingdoms):
            block = state_tiles[i * step:(i + 1) * step]
            for j, tile in enumerate(block[: min(len(block), 14)]):
                tile.controller = kingdom
                tile.explored = True
                tile.settlement = "city" if j == 0 else ("village" if j % 3 == 1 else "")
                tile.save()
            kingdom.capital_tile = block[0]
            kingdom.start_tile = block[0]
            kingdom.save()
            for n in range(6):
                Army.objects.create(campaign=campaign, kingdom=kingdom, number=n + 1,
                                    tile=block[min(len(block) - 1, n * 2)])
        campaign.season, campaign.month, campaign.phase = mk.SUMMER, 1, "A"
        campaign.state = {"races_revealed": True}
        campaign.save()
    _ = phases
    return Campaign.objects.get(pk=campaign.pk), gm, players


class PhonePages:
    """Times a player's phone pages (play, and their kingdom) at every phase the year passes
    through, keeping the slowest of each and the phase it was in."""

    def __init__(self, client, campaign, kingdom) -> None:  # type: ignore[no-untyped-def]
        self.client, self.campaign = client, campaign
        self.urls = {"play": f"/c/{campaign.slug}/play/",
                     "kingdom": f"/c/{campaign.slug}/kingdoms/{kingdom.pk}/"}
        self.worst: dict[str, tuple[float, str]] = {"play": (0.0, ""), "kingdom": (0.0, "")}
        self.queries = 0
        self.mine = kingdom.pk  # autoplay also calls it on this kingdom's turns and another's

    def __call__(self) -> None:
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        from campaign.systems.mighty_kingdoms import phases

        self.campaign.refresh_from_db()
        where = phases.label(self.campaign)
        for name, url in self.urls.items():
            assert self.client.get(url).status_code == 200, (name, where)
            ms = timed(lambda url=url: self.client.get(url), repeat=3)
            if ms > self.worst[name][0]:
                self.worst[name] = (ms, where)
        with CaptureQueriesContext(connection) as captured:
            self.client.get(self.urls["play"])
        self.queries = max(self.queries, len(captured))


def main() -> None:
    scales = [int(a) for a in sys.argv[1:]] or [1, 4]
    setup_django()
    from django.test import Client, override_settings

    from campaign.systems.mighty_kingdoms import autoplay

    with override_settings(ROOT_URLCONF=BENCH_URLCONF, ALLOWED_HOSTS=["testserver"]):
        baseline_client = Client()
        base = minimal_view_ms(baseline_client)
        print(f"minimal view: {base:.2f} ms")
        print(f"{'scale':>5} {'kingdoms':>8} {'armies':>6} {'tiles':>6} {'month s':>8} "
              f"{'winter s':>8} {'play ms':>8} {'x min':>6} {'kingdom ms':>10} {'queries':>7} "
              f"{'month x':>7} {'winter x':>8}", flush=True)
        previous: tuple[int, float, float] | None = None
        worst_phases = []
        for scale in scales:
            campaign, gm, players = build(scale)
            rng = random.Random(scale)
            client = Client()
            client.force_login(players[0])
            kingdom = campaign.kingdoms.get(player__user=players[0])
            # The phone pages are timed in the first month and the winter, outside the clock.
            pages = PhonePages(client, campaign, kingdom)
            month = 0.0
            for n in range(6):
                watch = pages if n == 0 else None
                start = time.perf_counter()
                autoplay.play_summer_month(campaign, gm, rng, watch=_paused(watch))
                month += time.perf_counter() - start - _paused.spent
            month /= 6
            start = time.perf_counter()
            autoplay.play_winter(campaign, gm, watch=_paused(pages))
            winter = time.perf_counter() - start - _paused.spent
            pages()  # the next year's first Orders phase
            play_ms, play_where = pages.worst["play"]
            kingdom_ms, kingdom_where = pages.worst["kingdom"]
            worst_phases.append((scale, play_where, kingdom_where))
            tiles = campaign.map.tiles.count()
            # Growth against the previous size, per unit of campaign size: 1.0 is linear.
            growth = ("", "")
            if previous is not None:
                ratio = scale / previous[0]
                growth = (f"{month / previous[1] / ratio:.2f}",
                          f"{winter / previous[2] / ratio:.2f}")
            previous = (scale, month, winter)
            print(f"{scale:>5} {12 * scale:>8} {72 * scale:>6} {tiles:>6} {month:>8.2f} "
                  f"{winter:>8.2f} {play_ms:>8.1f} {play_ms / base:>6.0f} {kingdom_ms:>10.1f} "
                  f"{pages.queries:>7} {growth[0]:>7} {growth[1]:>8}", flush=True)
        print("slowest phase for the play page / the kingdom page:")
        for scale, play_where, kingdom_where in worst_phases:
            print(f"  {scale:>3}x  {play_where} / {kingdom_where}")


class _Paused:
    """Wraps the page timer so its time is kept out of the month's and the winter's."""

    def __init__(self) -> None:
        self.spent = 0.0

    def __call__(self, watch):  # type: ignore[no-untyped-def]
        self.spent = 0.0
        if watch is None:
            return None

        def timed_watch() -> None:
            start = time.perf_counter()
            watch()
            self.spent += time.perf_counter() - start
        timed_watch.mine = getattr(watch, "mine", None)  # type: ignore[attr-defined]
        return timed_watch


_paused = _Paused()


if __name__ == "__main__":
    main()
