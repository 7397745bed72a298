"""Fixtures for the printed sheets: a Mighty Kingdoms campaign with something on every sheet.

``sheets_world`` has the personas of tests/conftest.py (GM, Red's player, Blue's player, an
observer, an outsider) plus ``bystander``, who rules Green and takes part in no battle. Red holds
a capital, a city, a fortress, a village and an empty tile, has two armies (army #1 with a list
of three units) and ledger entries; Blue has an army defending Red's capital, where Blue has
chosen a battle against Red that is still pending.
"""

from __future__ import annotations

import io
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any, Callable, Iterator

import pytest
from django.contrib.auth.models import User
from django.test import Client
from pypdf import PdfReader

from battles.models import Army, ArmyList, Battle, Unit, UnitStrengthEvent
from campaign import pdf
from campaign.chronicle import Recorder
from campaign.models import Campaign, Kingdom, Role, Tile, Visibility
from ledger.models import Balance, LedgerEntry
from tests.conftest import add_member, make_user

A4 = (595.28, 841.89)
LETTER = (612.0, 792.0)

# (name, type, points, base Unit Strength, changes since, magic item)
UNITS = [
    ("Sea Guard Spearmen", "Regiment", 130, 2, [1, -1], ""),
    ("Paladin Knights of the Order of the Radiant Dawn", "Troop", 115, 3, [1],
     "Blade of Slashing"),
    ("High Paladin", "Hero", 105, 1, [-1, -1], "Boots of Levitation"),
]


def give_list(army: Army, units: list[tuple[str, str, int, int | None, list[int], str]], *,
              revealed_by: Battle | None = None) -> ArmyList:
    """An army list with its units and their Unit Strength changes (MK-US-4)."""
    army_list = ArmyList.objects.create(army=army, revealed_at_battle=revealed_by)
    for position, (name, unit_type, points, base, changes, item) in enumerate(units, start=1):
        unit = Unit.objects.create(army_list=army_list, position=position, name=name,
                                   unit_type=unit_type, points=points, base_us=base,
                                   magic_item=item)
        for delta in changes:
            UnitStrengthEvent.objects.create(
                unit=unit, delta=delta,
                reason=(UnitStrengthEvent.Reason.ROUTED_ENEMY if delta > 0
                        else UnitStrengthEvent.Reason.ROUTED))
    return army_list


@dataclass
class SheetsWorld:
    campaign: Campaign
    gm: User
    player: User
    other_player: User
    bystander: User
    observer: User
    outsider: User
    red: Kingdom
    blue: Kingdom
    green: Kingdom
    red_army: Army
    red_second: Army
    blue_army: Army
    battle: Battle
    capital: Tile
    tiles: dict[str, Tile]

    def user(self, persona: str) -> User | None:
        return None if persona == "anonymous" else getattr(self, persona)

    def client(self, persona: str) -> Client:
        client = Client()
        user = self.user(persona)
        if user is not None:
            client.force_login(user)
        return client

    def access(self, persona: str) -> pdf.Access:
        user = self.user(persona)
        assert user is not None
        return pdf.access_for_user(self.campaign, user)


def _pick(tiles: list[Tile], used: set[str]) -> Tile:
    tile = next(t for t in tiles if t.label not in used)
    used.add(tile.label)
    return tile


@pytest.fixture
def sheets_world(campaign: Campaign, gm: User, player: User, other_player: User,
                 observer: User, outsider: User) -> SheetsWorld:
    red = Kingdom.objects.get(campaign=campaign, name="Red")
    blue = Kingdom.objects.get(campaign=campaign, name="Blue")
    bystander = make_user("bystander")
    green = Kingdom.objects.create(campaign=campaign, name="Green", colour="#00aa00",
                                   player=add_member(campaign, bystander, Role.PLAYER))
    land = [t for t in Tile.objects.filter(map__campaign=campaign).order_by("label")
            if t.terrain != "open_water"]
    used: set[str] = set()
    capital = _pick(land, used)
    named = {"capital": capital}
    for key, settlement in (("city", "city"), ("fortress", "fortress"), ("village", "village"),
                            ("empty", "")):
        named[key] = _pick(land, used)
        named[key].settlement = settlement
    for key in ("blue_city", "green_city"):
        named[key] = _pick(land, used)
        named[key].settlement = "city"
    capital.settlement = "city"
    for key, tile in named.items():
        tile.explored = True
        tile.controller = blue if key == "blue_city" else green if key == "green_city" else red
        tile.save()
    red.capital_tile = red.start_tile = capital
    red.data = {"race": "Basileans"}
    red.save()
    red_army = Army.objects.create(campaign=campaign, kingdom=red, number=1, tile=capital)
    give_list(red_army, UNITS)
    red_second = Army.objects.create(campaign=campaign, kingdom=red, number=2,
                                     tile=named["village"], points=300, on_side=True)
    blue_army = Army.objects.create(campaign=campaign, kingdom=blue, number=1, tile=capital,
                                    defending=True)
    Army.objects.create(campaign=campaign, kingdom=green, number=1, tile=named["green_city"])
    battle = Battle.objects.create(campaign=campaign, year=1, month=2, seq=1, tile=capital,
                                   kind="land", mode="kow", chooser=blue, opponent=red)
    for resource, amount, rule, source in (
        ("gold", 2, "MK-WINTER-2", f"own capital at {capital.label}"),
        ("food", 1, "MK-WINTER-2", f"village at {named['village'].label}"),
        ("gold", -1, "MK-RECRUIT-2", f"army #2 at {named['fortress'].label}"),
        ("food", -1, "MK-FEED-1", "army #1 fed"),
    ):
        LedgerEntry.objects.create(campaign=campaign, kingdom=red, resource=resource,
                                   amount=amount, rule_id=rule, source=source, year=1,
                                   season="winter", phase="C")
    Balance.objects.create(kingdom=red, resource="gold", amount=4)
    Balance.objects.create(kingdom=red, resource="food", amount=3)
    from django.db import transaction

    with transaction.atomic():
        with Recorder(campaign, gm, "test.public", "Red raised a banner over the hills."):
            pass
        with Recorder(campaign, gm, "test.secret", "Red hid gold in the cellar.",
                      visibility=Visibility.KINGDOM, kingdom=red):
            pass
    return SheetsWorld(campaign, gm, player, other_player, bystander, observer, outsider, red,
                       blue, green, red_army, red_second, blue_army, battle, capital, named)


@pytest.fixture
def inline_worker(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, str]]:
    """Background books run at once in the test's thread (and database transaction)."""
    started: list[tuple[int, str]] = []

    def run(job_id: int, token: str) -> None:
        started.append((job_id, token))
        from django.db import connections

        close_all = connections.close_all
        monkeypatch.setattr(connections, "close_all", lambda: None)
        try:
            pdf.run_book_job(job_id, token)
        finally:
            monkeypatch.setattr(connections, "close_all", close_all)

    monkeypatch.setattr(pdf, "start_worker", run)
    return started


@pytest.fixture
def no_worker(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, str]]:
    """Record the workers that would start, without running them."""
    started: list[tuple[int, str]] = []
    monkeypatch.setattr(pdf, "start_worker", lambda job_id, token: started.append((job_id,
                                                                                  token)))
    return started


def read_pdf(data: bytes) -> PdfReader:
    assert data[:5] == b"%PDF-", data[:40]
    return PdfReader(io.BytesIO(data))


def pdf_text(data: bytes) -> str:
    """All the text of a PDF, whitespace collapsed."""
    reader = read_pdf(data)
    return " ".join(" ".join((page.extract_text() or "").split()) for page in reader.pages)


def page_size(reader: PdfReader, index: int = 0) -> tuple[float, float]:
    box = reader.pages[index].mediabox
    return (round(float(box.width), 2), round(float(box.height), 2))


def response_bytes(response: Any) -> bytes:
    if getattr(response, "streaming", False):
        return b"".join(response.streaming_content)
    return response.content


@pytest.fixture
def sheet_url() -> Callable[..., str]:
    from django.urls import reverse

    def url(world: SheetsWorld, sheet: str, obj: Any = None, *, pdf: bool = True,
            query: str = "") -> str:
        slug = world.campaign.slug
        if obj is None:
            name = "campaign:print_sheet_pdf" if pdf else "campaign:print_sheet"
            path = reverse(name, args=[slug, sheet])
        else:
            name = "campaign:print_sheet_obj_pdf" if pdf else "campaign:print_sheet_obj"
            path = reverse(name, args=[slug, sheet, obj.pk])
        return f"{path}?{query}" if query else path

    return url


class _Counter(BaseHTTPRequestHandler):
    hits: list[str] = []

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        type(self).hits.append(self.path)
        self.send_response(200)
        self.send_header("Content-Type", "text/css")
        self.end_headers()
        self.wfile.write(b"body { color: red }")

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def spy_server() -> Iterator[tuple[str, list[str]]]:
    """A tiny HTTP server on a free port of 127.0.0.1 that records every request it gets."""
    hits: list[str] = []
    handler = type("Handler", (_Counter,), {"hits": hits})
    server = HTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", hits
    finally:
        server.shutdown()
        server.server_close()


@dataclass
class TextRun:
    """A piece of text as a PDF page draws it: where it starts and (measured with our font)
    ends, in points from the page's left and top edges."""

    page: int
    text: str
    left: float
    right: float
    top: float


def text_runs(data: bytes) -> list[TextRun]:
    """The text runs of a PDF's pages set in the page's own coordinates (text inside images,
    such as a map's labels, is left out)."""
    runs: list[TextRun] = []
    reader = read_pdf(data)
    for index, page in enumerate(reader.pages):
        height = float(page.mediabox.height)

        def visit(text: str, cm: list[float], tm: list[float], font: Any, size: float,
                  index: int = index, height: float = height) -> None:
            if not text.strip() or abs(cm[0] - 0.75) > 1e-6 or cm[1] or cm[2]:
                return
            bold = "Bold" in str((font or {}).get("/BaseFont", ""))
            left = tm[4] * cm[0] + cm[4]
            width = pdf.text_width_mm(text.strip("\n"), size * cm[0] * tm[0], bold=bold)
            runs.append(TextRun(index, text.strip(), left, left + width / pdf.PT_MM,
                                height - (tm[5] * cm[3] + cm[5])))

        page.extract_text(visitor_text=visit)
    return runs


MARGIN_PT = 12 / 25.4 * 72  # the sheets' left and right margins


def assert_inside_the_page(data: bytes, slack: float = 2.0) -> list[TextRun]:
    """Every run of text starts and ends within the left and right margins of its page."""
    reader = read_pdf(data)
    runs = text_runs(data)
    for run in runs:
        width = float(reader.pages[run.page].mediabox.width)
        assert run.left >= MARGIN_PT - slack, run
        assert run.right <= width - MARGIN_PT + slack, run
    return runs
