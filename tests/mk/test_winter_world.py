"""The winter tests' shared world: TV-MK-3's kingdom Red on a real campaign, with Blue and Green.

``tv3`` builds it at the end of summer month 6 (Reform): Red holds its own capital C0 (coast),
city C1 (river), city C2 (inland), villages V1-V3, fortress F1 and empty E1-E3; armies #1 (300
points) at V1, #2 aboard ship S1 on a sea tile, #3 at F1. Blue holds its capital B0 and two
villages with army #1; Green its capital G0 and one village with army #1. Player order: Red,
Blue, Green. ``plain_summer`` swaps the summer phases for empty ones, so these tests move the
clock through the real ``phases.advance`` without depending on how summer is played.

The module's own tests check the world matches TV-MK-3's starting position.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

import pytest
from django.contrib.auth.models import User
from django.test import Client

from battles.models import Army
from campaign.models import Campaign, Event, Kingdom, Role, Tile
from campaign.systems.mighty_kingdoms import phases, summer
from campaign.systems.mighty_kingdoms import winter_services as ws
from campaign.systems.mighty_kingdoms.models import Purchase, Ship, Tithe
from campaign.systems.mighty_kingdoms.phases import PhaseHandler
from campaign.systems.mighty_kingdoms.state import load_state
from ledger import services as ledger
from ledger.models import Balance, LedgerEntry
from tests.conftest import add_member, make_campaign, make_user

NAMES = ("C0", "C1", "C2", "V1", "V2", "V3", "F1", "E1", "E2", "E3",
         "B0", "BV1", "BV2", "G0", "GV", "SEA", "X1")
RED_TILES = {"C0": "city", "C1": "city", "C2": "city", "V1": "village", "V2": "village",
             "V3": "village", "F1": "fortress", "E1": "", "E2": "", "E3": ""}

# Every table the winter changes; undo must put all of them back exactly.
WINTER_MODELS = (Campaign, Kingdom, Tile, Army, Ship, LedgerEntry, Balance, Tithe, Purchase)


def dump() -> dict[str, list[dict[str, Any]]]:
    """Every row of every table the winter touches, in primary-key order."""
    return {m._meta.label: list(m.objects.order_by("pk").values()) for m in WINTER_MODELS}


@dataclass
class World:
    campaign: Campaign
    gm: User
    users: dict[str, User]
    kingdoms: dict[str, Kingdom]
    tiles: dict[str, str]
    clients: dict[str, Client] = field(default_factory=dict)

    def fresh(self) -> Campaign:
        return Campaign.objects.get(pk=self.campaign.pk)

    def k(self, name: str) -> Kingdom:
        return Kingdom.objects.get(pk=self.kingdoms[name].pk)

    def t(self, name: str) -> str:
        return self.tiles[name]

    def state(self) -> Any:
        return load_state(self.fresh())

    def stock(self, name: str) -> tuple[int, int]:
        found = ws.stocks(self.state())[self.kingdoms[name].pk]
        return (found.gold, found.food)

    def advance(self) -> Event:
        return phases.advance(self.fresh(), self.gm)

    def phase(self) -> tuple[str, str, str]:
        c = self.fresh()
        return (c.season, c.phase, c.sub_phase)

    def army_numbers(self, name: str) -> list[int]:
        return sorted(Army.objects.filter(kingdom=self.kingdoms[name], tile__isnull=False)
                      .values_list("number", flat=True))

    def armies_at(self, name: str) -> dict[int, str]:
        return {a.number: a.tile.label for a in Army.objects.filter(
            kingdom=self.kingdoms[name], tile__isnull=False).select_related("tile")}

    def client(self, who: str) -> Client:
        if who not in self.clients:
            client = Client()
            client.force_login(self.gm if who == "gm" else self.users[who])
            self.clients[who] = client
        return self.clients[who]


def books_agree(*kingdoms: Kingdom) -> bool:
    """MK-WINTER-6, DESIGN principle 4: each cached balance equals the sum of its entries."""
    return all(not ledger.check_balances(k) for k in kingdoms)


def build_tv3(gm: User, *, blue_holds_c0: bool = False, slug: str = "winter-tv3",
              options: dict[str, Any] | None = None) -> World:
    campaign = make_campaign(gm, slug=slug, width=8, height=6, seed=7)
    if options:
        campaign.options = {**campaign.options, **options}
    campaign.year, campaign.season, campaign.month, campaign.phase = 1, "summer", 6, "D"
    campaign.sub_phase = ""
    campaign.save()
    rows = list(Tile.objects.filter(map__campaign=campaign).order_by("label"))
    tiles = {name: rows[i] for i, name in enumerate(NAMES)}
    users, kingdoms = {}, {}
    for position, (name, colour) in enumerate(
        (("Red", "#aa0000"), ("Blue", "#0000aa"), ("Green", "#00aa00")), start=1
    ):
        user = make_user(name.lower() if slug == "winter-tv3" else f"{name.lower()}-{slug}")
        membership = add_member(campaign, user, Role.PLAYER)
        users[name] = user
        kingdoms[name] = Kingdom.objects.create(campaign=campaign, name=name, colour=colour,
                                                player=membership, order_position=position)
    red, blue, green = kingdoms["Red"], kingdoms["Blue"], kingdoms["Green"]
    for row in rows:
        row.controller = None
        row.settlement = ""
    layout: dict[str, tuple[Kingdom | None, str]] = {
        **{name: (red, kind) for name, kind in RED_TILES.items()},
        "B0": (blue, "city"), "BV1": (blue, "village"), "BV2": (blue, "village"),
        "G0": (green, "city"), "GV": (green, "village"), "SEA": (None, ""), "X1": (None, ""),
    }
    for name, (owner, kind) in layout.items():
        tile = tiles[name]
        tile.terrain = "open_water" if name == "SEA" else "plain"
        tile.features = {"C0": ["coast"], "C1": ["river"], "SEA": []}.get(name, [])
        tile.edges = {}
        tile.controller = owner
        tile.settlement = kind
        tile.explored = owner is not None or name == "SEA"
        tile.is_start = name in ("C0", "B0", "G0")
    if blue_holds_c0:
        tiles["C0"].controller = blue
    for row in rows:
        row.save()
    for kingdom, capital in ((red, "C0"), (blue, "B0"), (green, "G0")):
        kingdom.start_tile = kingdom.capital_tile = tiles[capital]
        kingdom.save()
    Army.objects.create(campaign=campaign, kingdom=red, number=1, tile=tiles["V1"], points=300)
    two = Army.objects.create(campaign=campaign, kingdom=red, number=2, tile=tiles["SEA"])
    Army.objects.create(campaign=campaign, kingdom=red, number=3, tile=tiles["F1"],
                        on_side=True)
    Ship.objects.create(campaign=campaign, kingdom=red, number=1, tile=tiles["SEA"],
                        paired_army=two)
    Army.objects.create(campaign=campaign, kingdom=blue, number=1, tile=tiles["BV1"],
                        defending=True)
    Army.objects.create(campaign=campaign, kingdom=green, number=1, tile=tiles["GV"])
    return World(campaign, gm, users, kingdoms, {n: t.label for n, t in tiles.items()})


@pytest.fixture
def plain_summer(monkeypatch: pytest.MonkeyPatch) -> None:
    """Summer phases with nothing to do, whatever summer.py holds."""
    for phase in "ABCD":
        monkeypatch.setitem(summer.HANDLERS, ("summer", phase, ""),
                            PhaseHandler(summer.TEMPLATE))


@pytest.fixture
def fixed_dice(monkeypatch: pytest.MonkeyPatch) -> Callable[..., None]:
    """``fixed_dice(5, 2, ...)``: the server's next D6 rolls."""

    def set_rolls(*values: int) -> None:
        queue = list(values)
        monkeypatch.setattr(ws, "roll_d6", lambda: queue.pop(0))

    return set_rolls


@pytest.fixture
def tv3(gm: User, plain_summer: None) -> World:
    return build_tv3(gm)


def settle(world: World) -> None:
    """Make the choices that block the current phase, as TV-MK-3 would: at Recall S1 docks at
    C0; in the tithe and buy cycles everyone passes; at Feed every army that food allows is
    fed; at Deploy each army goes on the first tile with room."""
    state = world.state()
    current = phases.phase_key(state.campaign)
    if current == ws.RECALL:
        for pk in ws.recall_pending(state):
            ships = sorted(state.ships_of(pk), key=lambda s: s.number)
            plan = ws.mk.recall_destination(state.kingdoms[pk], state.map)
            cities = ws.mk.docking_cities(pk, state.map)
            ws.choose_recall(state.kingdom_rows[pk], world.gm,
                             tile=plan.choices[0] if plan.choices else None,
                             docks={s.number: c for s, c in zip(ships, cities)})
    elif current in (ws.TITHE, ws.BUY):
        while True:
            result, turn = ws.cycle(world.state(), current[2])
            if result.closed:
                break
            ws.pass_turn(state.kingdom_rows[turn], world.gm, current[2])
    elif current == ws.FEED:
        stocks = ws.stocks(state)
        done = ws.fed_record(state)
        for pk in state.order:
            armies = sorted(state.armies_of(pk), key=lambda a: a.number)
            if armies and stocks[pk].food and pk not in done:
                ws.feed(state.kingdom_rows[pk], world.gm,
                        [a.number for a in armies[: stocks[pk].food]])
    elif current == ws.DEPLOY:
        deploy_all(world)


def to_phase(world: World, key: tuple[str, str, str]) -> None:
    """Settle each phase and advance until the clock is at ``key``."""
    for _ in range(12):
        if world.phase() == key:
            return
        settle(world)
        world.advance()
    raise AssertionError(f"Never reached {key}; stuck at {world.phase()}.")


def set_clock(world: World, phase: str, sub_phase: str = "", season: str = "winter") -> None:
    """Put the clock straight at a phase (to arrange a scenario; play moves it by advance)."""
    Campaign.objects.filter(pk=world.campaign.pk).update(
        season=season, month=None if season == "winter" else 6, phase=phase, sub_phase=sub_phase)


def grant(world: World, name: str, gold: int = 0, food: int = 0) -> None:
    """Arrange a kingdom's stock through the ledger (a GM's adjustment event)."""
    from django.db import transaction

    from campaign.chronicle import Recorder
    from campaign.systems.mighty_kingdoms.rules.ledger import IncomeLine

    lines = [IncomeLine(r, n, "TEST", "arranged by the test") for r, n in
             (("gold", gold), ("food", food)) if n]
    with transaction.atomic(), Recorder(world.fresh(), world.gm, "test.grant", "grant") as rec:
        ledger.post(rec, [(world.k(name), line) for line in lines])


def add_armies(world: World, name: str, *numbers: int, tile: str = "C0") -> None:
    for number in numbers:
        Army.objects.create(campaign=world.campaign, kingdom=world.kingdoms[name], number=number,
                            tile=Tile.objects.get(map__campaign=world.campaign,
                                                  label=world.t(tile)))


def deploy_all(world: World) -> None:
    """Deploy every army that has room, in turn: the lowest number on the first tile with room."""
    while (turn := ws.deploy_turn(world.state())) is not None:
        s = world.state()
        placed = ws.winter_data(s.campaign)["deploy"]["placed"]
        army = ws.waiting_armies(s, placed, turn)[0]
        where = ws.mk.legal_deploy_tiles(s.kingdoms[turn], s.map,
                                         ws.placed_counts(s, placed, turn))[0]
        ws.deploy_army(s.kingdom_rows[turn], world.gm, army.number, where)


# --- the world itself ----------------------------------------------------------------------


@pytest.mark.django_db
def test_winter_world_is_tv_mk_3_at_the_end_of_month_6(tv3: World) -> None:
    state = tv3.state()
    red = tv3.kingdoms["Red"].pk
    assert state.clock == ws.mk.Clock(1, "summer", 6, "D")
    owned = {t.label: t.settlement for t in state.map.controlled_by(red)}
    assert owned == {tv3.t(n): kind for n, kind in RED_TILES.items()}
    assert ws.mk.docking_cities(red, state.map) == tuple(sorted((tv3.t("C0"), tv3.t("C1"))))
    assert [a.number for a in state.armies_of(red)] == [1, 2, 3]
    assert state.order == [tv3.kingdoms[n].pk for n in ("Red", "Blue", "Green")]
    assert tv3.stock("Red") == (0, 0)


@pytest.mark.django_db
def test_winter_world_dump_covers_ledger_tables(tv3: World) -> None:
    assert {"ledger.LedgerEntry", "ledger.Balance", "mighty_kingdoms.Tithe",
            "mighty_kingdoms.Purchase",
            "battles.Army", "campaign.Tile"} <= set(dump())
