"""Mighty Kingdoms benchmark: a summer month and a winter played through the services, and the
player's phone pages, for campaigns of 1x, 4x and 16x size.

1x is 12 kingdoms with 72 armies on a 2,000-tile map; 4x and 16x multiply kingdoms, armies and
tiles. Run: `DEBUG=1 .venv/bin/python bench/mk_year.py [1 4 16]` (default: 1 4). Figures are
printed next to a minimal view's time from the same run. Targets: the phone pages under 50 ms
at every size; resolution growing no faster than the campaign.

Columns: the mean time of a summer month (orders, resolution, battle, reform) and of the winter,
both through the services as ``autoplay`` plays them; the player's play page (their phone page)
and kingdom page in ms, the play page as a multiple of the minimal view ("x min") and its query
count; and, from the second size on, how the month and the winter grew against the previous size
divided by how much the campaign grew ("month x", "winter x": 1.0 is linear growth).
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
    from campaign.rules import mighty_kingdoms as mk
    from campaign.systems.mighty_kingdoms import phases

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


def main() -> None:
    scales = [int(a) for a in sys.argv[1:]] or [1, 4]
    setup_django()
    from django.db import connection
    from django.test import Client, override_settings
    from django.test.utils import CaptureQueriesContext

    from campaign.systems.mighty_kingdoms import autoplay

    with override_settings(ROOT_URLCONF=BENCH_URLCONF, ALLOWED_HOSTS=["testserver"]):
        baseline_client = Client()
        base = minimal_view_ms(baseline_client)
        print(f"minimal view: {base:.2f} ms")
        print(f"{'scale':>5} {'kingdoms':>8} {'armies':>6} {'tiles':>6} {'month s':>8} "
              f"{'winter s':>8} {'play ms':>8} {'x min':>6} {'kingdom ms':>10} {'queries':>7} "
              f"{'month x':>7} {'winter x':>8}", flush=True)
        previous: tuple[int, float, float] | None = None
        for scale in scales:
            campaign, gm, players = build(scale)
            rng = random.Random(scale)
            start = time.perf_counter()
            for _ in range(6):
                autoplay.play_summer_month(campaign, gm, rng)
            month = (time.perf_counter() - start) / 6
            start = time.perf_counter()
            autoplay.play_winter(campaign, gm)
            winter = time.perf_counter() - start
            client = Client()
            client.force_login(players[0])
            kingdom = campaign.kingdoms.order_by("name").first()
            play_url = f"/c/{campaign.slug}/play/"
            kingdom_url = f"/c/{campaign.slug}/kingdoms/{kingdom.pk}/"
            assert client.get(play_url).status_code == 200
            play_ms = timed(lambda: client.get(play_url))
            kingdom_ms = timed(lambda: client.get(kingdom_url))
            with CaptureQueriesContext(connection) as queries:
                client.get(play_url)
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
                  f"{len(queries):>7} {growth[0]:>7} {growth[1]:>8}", flush=True)


if __name__ == "__main__":
    main()
