"""Printed sheets benchmark: the time of every sheet of the demo campaign, and of the campaign book
of a 12-kingdom campaign, next to a one-line WeasyPrint document rendered in the same run.

Run: `DEBUG=1 .venv/bin/python bench/sheets.py` (a throwaway database; nothing is kept).
Targets: a roster or ledger sheet under 1 s; the 12-kingdom campaign book under 20 s.

`bench/sheets.py --png DIR` instead writes PNG pictures of the demo campaigns' sheets (A4 and
Letter, colour and black and white) with poppler's pdftoppm; docs/img/sheets/ holds them. The
demo is used as `load_demo` leaves it: what it lacks is reported, never added.
"""

from __future__ import annotations

import argparse
import re
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


DEMO_SLUGS = ("shattered-coast", "ember-marches", "wide-frontier")


def demo_campaigns() -> list[Any]:
    """The demo campaigns as ``load_demo`` leaves them, nothing added: a sheet the demo has
    nothing for (a pending battle, say) is reported, not made up."""
    from campaign.demo import load_demo
    from campaign.models import Campaign

    load_demo("mighty-kingdoms")  # the sheets measured and pictured here are its own
    return [Campaign.objects.get(slug=slug) for slug in DEMO_SLUGS]


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


# (file name, campaign, whose sheets, sheet slug, paper, eco). Every page of a sheet is kept.
PREVIEWS = (
    ("map", "shattered-coast", "alice", "map", "a4", False),
    ("map-letter-bw", "shattered-coast", "alice", "map", "letter", True),
    ("map-large", "wide-frontier", "carol", "map", "a4", False),
    ("map-large-letter-bw", "wide-frontier", "carol", "map", "letter", True),
    ("rules-reference", "shattered-coast", "alice", "reference", "a4", False),
    ("chronicle", "shattered-coast", "alice", "chronicle", "a4", False),
    ("kingdom-ledger", "shattered-coast", "alice", "ledger", "a4", False),
    ("kingdom-ledger-letter-bw", "shattered-coast", "alice", "ledger", "letter", True),
    ("kingdom-armies", "shattered-coast", "alice", "armies", "a4", False),
    ("army-roster", "shattered-coast", "alice", "roster", "a4", False),
    ("army-roster-letter-bw", "shattered-coast", "alice", "roster", "letter", True),
    ("army-roster-stats", "wide-frontier", "carol", "roster", "a4", False),
    ("battle-packet", "wide-frontier", "carol", "battle", "a4", False),
    ("battle-packet-letter-bw", "wide-frontier", "carol", "battle", "letter", True),
    ("battle-packet-simple", "ember-marches", "carol", "battle", "a4", False),
    ("simple-roster", "ember-marches", "bob", "simple-roster", "a4", False),
)
PAGES_KEPT = {"chronicle": 1}  # the chronicle runs on for pages: its first shows it


def _richest(sheet: Any, objects: list[Any], access: Any) -> Any:
    """The object whose sheet shows the most: for an army roster, of the viewer's own armies
    (those of other kingdoms a battle revealed come after), the one with the most magic items,
    Unit Strength changes and units; else the first."""
    if sheet.slug == "battle":
        return max(objects, key=lambda b: (b.kind == "land" and b.mode == "kow",
                                           b.kind == "land"))
    if sheet.slug != "roster":
        return objects[0]
    from campaign.systems.mighty_kingdoms import forces as army_lists

    def shown(army: Any) -> tuple[bool, int, int, int]:
        units = army_lists.army_units(army)
        own = access.kingdom is not None and army.kingdom_id == access.kingdom.pk
        return (own, sum(1 for u in units if u["magic_item"] or u.get("artefact")),
                sum(1 for u in units if u["us_history"]), len(units))

    return max(objects, key=shown)


def previews(target: Path, resolution: int = 100) -> None:
    """PNG pictures of the demo campaigns' sheets, as their players see them, at ``resolution``
    dots per inch in 128 colours. A sheet the demo has nothing for is named, not invented."""
    from django.contrib.auth.models import User
    from PIL import Image

    from campaign import pdf
    from campaign.models import Campaign

    demo_campaigns()
    target.mkdir(parents=True, exist_ok=True)
    made: set[str] = set()
    with tempfile.TemporaryDirectory() as scratch:
        for name, slug, username, sheet_slug, paper, eco in PREVIEWS:
            if name in made:
                continue
            campaign = Campaign.objects.get(slug=slug)
            access = pdf.access_for_user(campaign, User.objects.get(username=username))
            try:
                sheet = pdf.find_sheet(access, sheet_slug)
            except Exception:
                print(f"({campaign.name} has no {sheet_slug} sheet)")
                continue
            objects = [None] if sheet.objects is None else [
                o for o in sheet.objects(access) if sheet.may_see(access, o)]
            if not objects:
                print(f"(the demo's {campaign.name} has nothing for a {sheet.title.lower()} "
                      f"that {username} may print)")
                continue
            obj = _richest(sheet, objects, access)
            # As a download without ?landscape= prints it: in the sheet's own orientation.
            options = sheet.download_options(access, obj, {"paper": paper,
                                                           "eco": "1" if eco else "0"})
            # The address `make run` serves the demo at, for the battle packet's QR code.
            data = sheet.render(access, obj, options, base_url="http://127.0.0.1:8000/")
            source = Path(scratch) / f"{name}.pdf"
            source.write_bytes(data)
            command = ["pdftoppm", "-r", str(resolution), "-png"]
            if sheet_slug in PAGES_KEPT:
                command += ["-l", str(PAGES_KEPT[sheet_slug])]
            subprocess.run([*command, str(source), str(Path(scratch) / name)], check=True)
            pages = sorted(Path(scratch).glob(f"{name}-*.png"))
            for old in target.glob(f"{name}*.png"):
                if re.fullmatch(rf"{re.escape(name)}(-page-\d+)?\.png", old.name):
                    old.unlink()
            for page, png in enumerate(pages, start=1):
                out = target / (f"{name}-page-{page}.png" if len(pages) > 1 else f"{name}.png")
                # A palette of 128 colours keeps the pictures small without visible change;
                # the octree keeps a small swatch's own colour, which median cut (Pillow's
                # default) merges with its neighbours' (two kingdoms' swatches came out alike).
                Image.open(png).convert("RGB").quantize(
                    colors=128, method=Image.Quantize.FASTOCTREE).save(out, optimize=True)
                print(f"{out} ({campaign.name}, as {username}; {out.stat().st_size // 1024} KB)")
            made.add(name)


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

    def row(name: str, paper: str, wall: float, cpu: float, data: bytes) -> None:
        print(f"{name[:44]:<44} {paper:<7} {pages(data):>5} {wall:>7.2f} {cpu:>6.2f} "
              f"{cpu / one_cpu:>10.0f}")

    try:
        campaigns = demo_campaigns()
        gm = User.objects.get(username="gm")
    except Exception as exc:  # the demo is someone else's code; still measure something alike
        print(f"(The demo campaigns could not be loaded: {exc}. Measuring a four-kingdom "
              "campaign on a 10 x 6 map instead.)")
        gm = User.objects.create_user("bench-gm", password="x")
        campaigns = [built_campaign(gm, "four-crowns", "Four Crowns", kingdoms=4, width=10,
                                    height=6)]
    book = None
    for campaign in campaigns:
        access = pdf.access_for_user(campaign, gm)
        print(f"Campaign {campaign.name!r} ({campaign.map.tiles.count()} tiles), as its GM:")
        print(f"{'sheet':<44} {'paper':<7} {'pages':>5} {'wall s':>7} {'CPU s':>6} "
              f"{'x one-line':>10}")
        for sheet in pdf.system_sheets(campaign):
            objects = [None] if sheet.objects is None else [
                o for o in sheet.objects(access) if sheet.may_see(access, o)][:1]
            if not objects:
                print(f"{sheet.title:<44} (nothing in the demo to print it for)")
            for obj in objects:
                for paper in ("a4", "letter"):
                    options = sheet.download_options(access, obj, {"paper": paper})
                    wall, cpu, data = timed(lambda: sheet.render(access, obj, options),
                                            repeat=3)
                    row(sheet.title + (f" ({sheet.label(obj)})" if obj is not None else ""),
                        paper, wall, cpu, data)
        book = pdf.system_book(campaign)
        assert book is not None
        wall, cpu, data = timed(lambda: pdf.book_pdf(book, access, pdf.PrintOptions()),
                                repeat=1)
        row("Campaign book", "a4", wall, cpu, data)
        print()
    assert book is not None

    big = twelve_kingdoms(gm)
    print("12-kingdom campaign (24 x 16 tiles, 36 armies of 6 units):")
    map_sheet = pdf.find_sheet(pdf.access_for_user(big, gm), "map")
    for paper, landscape in (("a4", True), ("letter", False)):
        options = pdf.PrintOptions(paper=paper, landscape=landscape)
        wall, cpu, data = timed(lambda: map_sheet.render(pdf.access_for_user(big, gm), None,
                                                         options), repeat=1)
        row(f"map sheet, cut ({'landscape' if landscape else 'portrait'})", paper, wall, cpu,
            data)
    for who in (gm.get_username(), "twelve-crowns-0"):
        viewer = pdf.access_for_user(big, User.objects.get(username=who))
        wall, cpu, data = timed(lambda: pdf.book_pdf(book, viewer, pdf.PrintOptions()),
                                repeat=1, warm=False)
        label = "book, as one player" if who == "twelve-crowns-0" else "book, as its GM"
        row(label, "a4", wall, cpu, data)
    again_wall, again_cpu = baseline()
    print(f"one-line document again: {again_wall * 1000:.0f} ms wall, {again_cpu * 1000:.0f} ms "
          f"CPU. Targets: a roster or ledger under 1 s, the 12-kingdom book under 20 s.")


if __name__ == "__main__":
    main()
