"""Printed sheets benchmark: the time of every sheet of the demo campaign, and of the campaign book
of a 12-kingdom campaign, next to a one-line WeasyPrint document rendered in the same run.

Run: `DEBUG=1 .venv/bin/python bench/sheets.py` (a throwaway database; nothing is kept).
Targets: a roster or ledger sheet under 1 s; the 12-kingdom campaign book under 20 s.

`bench/sheets.py --png DIR` instead writes PNG pictures of the demo campaign's sheets (A4 and
Letter, colour and black and white) with poppler's pdftoppm; docs/img/sheets/ holds them.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

from common import setup_django


def timed(fn: Callable[[], Any], repeat: int, warm: bool = True) -> tuple[float, float, Any]:
    """Median wall time and median CPU time of ``fn`` in seconds (after one warm-up call), and
    its last result. The CPU time of this process is the steadier figure on a busy machine."""
    result = fn() if warm else None
    walls, cpus = [], []
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        result = fn()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return statistics.median(walls), statistics.median(cpus), result


def pages(data: bytes) -> int:
    from io import BytesIO

    from pypdf import PdfReader

    return len(PdfReader(BytesIO(data)).pages)


def demo_campaign() -> Any:
    """The demo campaign, plus what a sheet needs and the demo may lack at the moment it stops:
    a pending battle (for the battle packet) and ledger entries."""
    from battles.models import Army, Battle
    from campaign.demo import load_demo
    from campaign.models import Campaign
    from ledger.models import LedgerEntry

    load_demo()
    campaign = Campaign.objects.get(slug="shattered-coast")
    kingdoms = list(campaign.kingdoms.order_by("pk"))
    armies = {a.kingdom_id: a for a in Army.objects.filter(campaign=campaign, number=1,
                                                            tile__isnull=False)}
    first, second = kingdoms[0], kingdoms[1]
    pending = Battle.objects.filter(campaign=campaign, status=Battle.Status.PENDING)
    if not pending.exists() and first.pk in armies and second.pk in armies:
        tile = armies[first.pk].tile
        Army.objects.filter(pk=armies[second.pk].pk).update(tile=tile, defending=True)
        Battle.objects.create(campaign=campaign, year=campaign.year, month=campaign.month or 6,
                              seq=99, tile=tile, kind="land", mode="kow", chooser=second,
                              opponent=first)
    for kingdom in kingdoms:
        if LedgerEntry.objects.filter(kingdom=kingdom).exists():
            continue
        for resource, amount, rule in (("gold", 3, "MK-WINTER-2"), ("food", 2, "MK-WINTER-2"),
                                       ("food", -1, "MK-FEED-1")):
            LedgerEntry.objects.create(campaign=campaign, kingdom=kingdom, resource=resource,
                                       amount=amount, rule_id=rule, source="bench", year=1,
                                       season="winter", phase="C")
    return campaign


def twelve_kingdoms(gm: Any) -> Any:
    """A 12-kingdom campaign on a 24 x 16 map: each kingdom a capital and its six neighbours,
    three armies of 500 points in six units each, a winter of ledger entries and a chronicle."""
    return built_campaign(gm, "twelve-crowns", "Twelve Crowns", kingdoms=12, width=24,
                          height=16)


def built_campaign(gm: Any, slug: str, name: str, *, kingdoms: int, width: int,
                   height: int) -> Any:
    """A campaign of ``kingdoms`` kingdoms spread over the map, each a capital and its six
    neighbours, with three armies, a winter of ledger entries and a line of chronicle."""
    from django.contrib.auth.models import User
    from django.db import transaction
    from django.utils import timezone

    from battles.models import Army, ArmyList, Unit, UnitStrengthEvent
    from campaign import services
    from campaign.chronicle import Recorder
    from campaign.models import Membership, Tile
    from ledger.models import Balance, LedgerEntry

    campaign = services.create_campaign(gm, name=name, slug=slug,
                                        rule_system="mighty-kingdoms", width=width,
                                        height=height, seed=12)
    grid = services.grid_for(campaign.map)
    tiles = {(t.q, t.r): t for t in Tile.objects.filter(map=campaign.map)}
    layout = ["city", "fortress", "village", "village", "", ""]
    units = (  # name, type, points, base Unit Strength, changes since, magic item
        ("Spearmen of the Long March", "Regiment", 110, 2, (1, -1), ""),
        ("Spearmen of the Long March", "Regiment", 110, 2, (), ""),
        ("Crossbowmen", "Troop", 75, 1, (-1, 1), ""),
        ("Household Knights", "Troop", 105, 1, (), "Blade of Slashing"),
        ("Ballista", "War Engine", 50, 1, (), ""),
        ("Captain on Horse", "Hero", 50, 0, (), "Boots of Levitation"),
    )
    per_row = max(1, (width - 1) // 4)
    row_step = max(3, (height - 2) // -(-kingdoms // per_row))
    for index in range(kingdoms):
        col, row = 1 + (index % per_row) * 4, 1 + (index // per_row) * row_step
        q, r = grid.from_offset(col, row)
        user = User.objects.create_user(f"{slug}-{index}", password="x")
        member = Membership.objects.create(campaign=campaign, user=user, role="player")
        colour = f"#{(index * 53) % 256:02x}60{(index * 97) % 256:02x}"
        kingdom = services.create_kingdom(campaign, gm, name=f"{name}, realm {index + 1}",
                                          colour=colour, player=member)
        capital = tiles[(q, r)]
        ring = [tiles[c] for c in grid.neighbours(q, r) if c in tiles]
        with transaction.atomic():
            for tile, settlement in [(capital, "city"), *zip(ring, layout)]:
                tile.settlement, tile.controller, tile.explored = settlement, kingdom, True
                tile.terrain = "plain" if tile.terrain == "open_water" else tile.terrain
                tile.save()
            kingdom.capital_tile = kingdom.start_tile = capital
            kingdom.save()
            for number in (1, 2, 3):
                army = Army.objects.create(campaign=campaign, kingdom=kingdom, number=number,
                                           tile=capital)
                army_list = ArmyList.objects.create(army=army, fixed_at=timezone.now())
                for position, (unit_name, kind, points, base, changes, item) in enumerate(
                        units, start=1):
                    unit = Unit.objects.create(army_list=army_list, position=position,
                                               name=unit_name, unit_type=kind, points=points,
                                               base_us=base, magic_item=item)
                    UnitStrengthEvent.objects.bulk_create(
                        UnitStrengthEvent(unit=unit, delta=delta,
                                          reason="routed_enemy" if delta > 0 else "routed")
                        for delta in changes)
            for resource, amount, rule in (("gold", 3, "MK-WINTER-2"), ("food", 2, "MK-WINTER-2"),
                                           ("gold", -1, "MK-RECRUIT-2"), ("food", -2, "MK-FEED-1")):
                LedgerEntry.objects.create(campaign=campaign, kingdom=kingdom, resource=resource,
                                           amount=amount, rule_id=rule, source="bench", year=1,
                                           season="winter", phase="C")
            Balance.objects.create(kingdom=kingdom, resource="gold", amount=2)
            summary = f"{kingdom.name} rises at {capital.label}."
            with Recorder(campaign, gm, "bench.founded", summary):
                pass
    return campaign


# (file name, sheet slug, paper, eco, pages to keep)
PREVIEWS = (
    ("map", "map", "a4", False, 1),
    ("map-letter-bw", "map", "letter", True, 1),
    ("rules-reference", "reference", "a4", False, 2),
    ("chronicle", "chronicle", "a4", False, 1),
    ("kingdom-ledger", "ledger", "a4", False, 1),
    ("kingdom-ledger-letter-bw", "ledger", "letter", True, 1),
    ("kingdom-armies", "armies", "a4", False, 1),
    ("army-roster", "roster", "a4", False, 1),
    ("army-roster-letter-bw", "roster", "letter", True, 1),
    ("battle-packet", "battle", "a4", False, 1),
    ("battle-packet-letter-bw", "battle", "letter", True, 1),
    ("simple-roster", "simple-roster", "a4", False, 1),
)


def previews(target: Path, resolution: int = 50) -> None:
    """PNG pictures of the demo campaign's sheets, as its first player (alice) sees them."""
    from django.contrib.auth.models import User
    from PIL import Image

    from campaign import pdf

    campaign = demo_campaign()
    alice = User.objects.get(username="alice")
    target.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        for name, slug, paper, eco, keep in PREVIEWS:
            if slug == "simple-roster":
                campaign.options = {**campaign.options, "battle_mode": "simple"}
                campaign.save()
            access = pdf.access_for_user(campaign, alice)
            sheet = pdf.find_sheet(access, slug)
            objects = [None] if sheet.objects is None else [
                o for o in sheet.objects(access) if sheet.may_see(access, o)]
            if not objects:
                print(f"(nothing to print on the {sheet.title.lower()})")
                continue
            options = pdf.PrintOptions(paper=paper, landscape=sheet.landscape, eco=eco)
            # The address `make run` serves the demo at, for the battle packet's QR code.
            data = sheet.render(access, objects[0], options, base_url="http://127.0.0.1:8000/")
            source = Path(scratch) / f"{name}.pdf"
            source.write_bytes(data)
            subprocess.run(["pdftoppm", "-r", str(resolution), "-png", "-l", str(keep),
                            str(source), str(Path(scratch) / name)], check=True)
            made = sorted(Path(scratch).glob(f"{name}-*.png"))
            for page, png in enumerate(made, start=1):
                out = target / (f"{name}-page-{page}.png" if len(made) > 1 else f"{name}.png")
                # A palette of 128 colours keeps the pictures small without visible change.
                Image.open(png).quantize(colors=128).save(out, optimize=True)
                print(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--png", type=Path, help="write PNG previews of the demo's sheets here")
    args = parser.parse_args()
    setup_django()
    if args.png:
        previews(args.png.resolve())
        return
    from django.contrib.auth.models import User
    from weasyprint import HTML

    from campaign import pdf

    def baseline() -> tuple[float, float]:
        wall, cpu, _ = timed(lambda: HTML(string="<p>Hexkeep</p>").write_pdf(), repeat=7)
        return wall, cpu

    one_wall, one_cpu = baseline()
    _, framework, _ = timed(lambda: pdf.html_to_pdf("<p>Hexkeep</p>"), repeat=7)
    print(f"one-line WeasyPrint document: {one_wall * 1000:.0f} ms wall, "
          f"{one_cpu * 1000:.0f} ms CPU (through campaign.pdf with the sheet stylesheets: "
          f"{framework * 1000:.0f} ms CPU)")
    print("Times below: median wall and CPU seconds; 'x one-line' compares CPU times.")
    print()

    try:
        campaign = demo_campaign()
        gm = User.objects.get(username="gm")
    except Exception as exc:  # the demo is someone else's code; still measure something alike
        print(f"(The demo campaign could not be loaded: {exc}. Measuring a four-kingdom "
              "campaign on a 10 x 6 map instead.)")
        gm = User.objects.create_user("bench-gm", password="x")
        campaign = built_campaign(gm, "four-crowns", "Four Crowns", kingdoms=4, width=10,
                                  height=6)
    access = pdf.access_for_user(campaign, gm)
    print(f"Campaign {campaign.name!r} ({campaign.map.tiles.count()} tiles), as its GM:")
    print(f"{'sheet':<36} {'paper':<7} {'pages':>5} {'wall s':>7} {'CPU s':>6} {'x one-line':>10}")

    def row(name: str, paper: str, wall: float, cpu: float, data: bytes) -> None:
        print(f"{name[:36]:<36} {paper:<7} {pages(data):>5} {wall:>7.2f} {cpu:>6.2f} "
              f"{cpu / one_cpu:>10.0f}")

    for sheet in pdf.system_sheets(campaign):
        objects = [None] if sheet.objects is None else [
            o for o in sheet.objects(access) if sheet.may_see(access, o)][:1]
        for obj in objects:
            for paper in ("a4", "letter"):
                options = pdf.PrintOptions(paper=paper, landscape=sheet.landscape)
                wall, cpu, data = timed(lambda: sheet.render(access, obj, options), repeat=3)
                row(sheet.title + (f" ({sheet.label(obj)})" if obj is not None else ""), paper,
                    wall, cpu, data)
    book = pdf.system_book(campaign)
    assert book is not None
    wall, cpu, data = timed(lambda: pdf.book_pdf(book, access, pdf.PrintOptions()), repeat=1)
    row("Campaign book", "a4", wall, cpu, data)
    print()

    big = twelve_kingdoms(gm)
    print("12-kingdom campaign (24 x 16 tiles, 36 armies of 6 units), campaign book:")
    for who in (gm.get_username(), "twelve-crowns-0"):
        viewer = pdf.access_for_user(big, User.objects.get(username=who))
        wall, cpu, data = timed(lambda: pdf.book_pdf(book, viewer, pdf.PrintOptions()),
                                repeat=1, warm=False)
        label = "as one player" if who == "twelve-crowns-0" else "as its GM"
        row(label, "a4", wall, cpu, data)
    again_wall, again_cpu = baseline()
    print(f"one-line document again: {again_wall * 1000:.0f} ms wall, {again_cpu * 1000:.0f} ms "
          f"CPU. Targets: a roster or ledger under 1 s, the 12-kingdom book under 20 s.")


if __name__ == "__main__":
    main()
