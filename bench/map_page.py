"""Map page benchmark: server time and size of the map page for 100, 1,000 and 10,000 tiles.

Run: `make bench` (or `DEBUG=1 .venv/bin/python bench/map_page.py`). Prints one row per map
size with the page's server time, its size and the ratio to a minimal view in the same run.
Target: a 1,000-tile map page under 150 ms server time.
"""

from __future__ import annotations

from common import BENCH_URLCONF, minimal_view_ms, setup_django, timed

SIZES = [(10, 10), (40, 25), (100, 100)]


def main() -> None:
    setup_django()
    from django.contrib.auth.models import User
    from django.test import Client, override_settings

    from battles.models import Army
    from campaign import services
    from campaign.models import Kingdom, Membership

    gm = User.objects.create_user("bench-gm", password="x")
    with override_settings(ROOT_URLCONF=BENCH_URLCONF, ALLOWED_HOSTS=["testserver"]):
        client = Client()
        client.force_login(gm)
        base = minimal_view_ms(client)
        print(f"minimal view: {base:.2f} ms")
        print(f"{'tiles':>7} {'page ms':>9} {'ratio':>7} {'page KB':>9} {'tile panel ms':>14}")
        for width, height in SIZES:
            slug = f"bench-{width}x{height}"
            campaign = services.create_campaign(
                gm, name=slug, slug=slug, rule_system="mighty-kingdoms", width=width,
                height=height, seed=1,
            )
            tiles = list(campaign.map.tiles.all()[:: max(1, (width * height) // 60)])
            for i in range(6):
                player = User.objects.create_user(f"{slug}-p{i}", password="x")
                member = Membership.objects.create(campaign=campaign, user=player, role="player")
                kingdom = Kingdom.objects.create(campaign=campaign, name=f"K{i}",
                                                 colour=f"#{i * 40:02x}4080", player=member)
                for n, tile in enumerate(tiles[i * 6:(i + 1) * 6], start=1):
                    tile.controller = kingdom
                    tile.explored = True
                    tile.settlement = "village"
                    tile.save()
                    Army.objects.create(campaign=campaign, kingdom=kingdom, number=n, tile=tile)
            url = f"/c/{slug}/map/"
            response = client.get(url)
            assert response.status_code == 200, response.status_code
            size_kb = len(response.content) / 1024
            page_ms = timed(lambda: client.get(url))
            label = tiles[0].label
            panel_ms = timed(lambda: client.get(f"/c/{slug}/map/tiles/{label}/",
                                                HTTP_HX_REQUEST="true"))
            print(f"{width * height:>7} {page_ms:>9.1f} {page_ms / base:>7.0f} {size_kb:>9.0f}"
                  f" {panel_ms:>14.1f}")


if __name__ == "__main__":
    main()
