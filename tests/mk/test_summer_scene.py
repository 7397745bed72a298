"""The summer test scene: a small real campaign at summer month 1, built directly in set-up.

Every summer test module imports ``Scene``/``scene`` from here (pytest collects fixtures
imported by name). The map is 8 x 6 flat-top hexes, all plain and unexplored unless a test
says otherwise. Neighbours used below (direction 0 = north, clockwise):

    0303: 0302 0402 0403 0304 0203 0202
    0403: 0402 0503 0504 0404 0304 0303
    0504: 0503 0603 0604 0505 0404 0403

Red (player, order 1) holds its capital 0303 (city), 0302 (village), 0402 and 0403 (fortress).
Blue (other_player, order 2) holds 0504 (village) and 0604. Red army #1 stands on 0303, Red army
#2 on 0403, Blue army #1 on 0504.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from battles.models import Army, Battle
from campaign.models import Campaign, Kingdom, Tile
from campaign.systems.mighty_kingdoms import phases, summer, summer_common
from campaign.systems.mighty_kingdoms.models import Order, Ship
from campaign.systems.mighty_kingdoms.state import load_state
from tests.conftest import make_campaign

pytestmark = pytest.mark.django_db


class FixedDice:
    """A stand-in for the server's dice: hands out the given values in turn."""

    def __init__(self, *values: int) -> None:
        self.values = list(values)
        self.used: list[int] = []

    def randint(self, low: int, high: int) -> int:
        value = self.values.pop(0)
        assert low <= value <= high
        self.used.append(value)
        return value


@dataclass
class Scene:
    campaign: Campaign
    gm: User
    player: User
    other: User
    red: Kingdom
    blue: Kingdom

    def refresh(self) -> Campaign:
        self.campaign = Campaign.objects.get(pk=self.campaign.pk)
        return self.campaign

    def tile(self, label: str) -> Tile:
        return Tile.objects.get(map__campaign=self.campaign, label=label)

    def set_tile(self, label: str, **values: Any) -> None:
        Tile.objects.filter(map__campaign=self.campaign, label=label).update(**values)

    def army(self, kingdom: Kingdom, number: int, label: str, **values: Any) -> Army:
        return Army.objects.create(campaign=self.campaign, kingdom=kingdom, number=number,
                                   tile=self.tile(label), **values)

    def ship(self, kingdom: Kingdom, number: int, label: str, **values: Any) -> Ship:
        return Ship.objects.create(campaign=self.campaign, kingdom=kingdom, number=number,
                                   tile=self.tile(label), **values)

    def get_army(self, kingdom: Kingdom, number: int) -> Army:
        return Army.objects.get(kingdom=kingdom, number=number)

    def at(self, phase: str, month: int = 1) -> None:
        Campaign.objects.filter(pk=self.campaign.pk).update(
            season="summer", year=1, month=month, phase=phase, sub_phase="")
        self.refresh()

    def play_url(self) -> str:
        return reverse("campaign:play", args=[self.campaign.slug])

    def mk_url(self, name: str, *args: Any) -> str:
        return reverse(f"mk:{name}", args=[self.campaign.slug, *args])


@pytest.fixture
def campaign(gm: User) -> Campaign:
    # Overrides the shared fixture: a plain, unexplored map, so each test lays out its scene.
    return make_campaign(gm, slug="summer", width=8, height=6, seed=None)


@pytest.fixture
def scene(campaign: Campaign, gm: User, player: User, other_player: User) -> Scene:
    red = Kingdom.objects.get(campaign=campaign, name="Red")
    blue = Kingdom.objects.get(campaign=campaign, name="Blue")
    s = Scene(campaign, gm, player, other_player, red, blue)
    for label, settlement in (("0303", "city"), ("0302", "village"), ("0402", ""),
                              ("0403", "fortress")):
        s.set_tile(label, controller=red, explored=True, settlement=settlement)
    for label, settlement in (("0504", "village"), ("0604", "")):
        s.set_tile(label, controller=blue, explored=True, settlement=settlement)
    capital = s.tile("0303")
    Kingdom.objects.filter(pk=red.pk).update(order_position=1, start_tile=capital,
                                             capital_tile=capital)
    Kingdom.objects.filter(pk=blue.pk).update(order_position=2)
    s.red.refresh_from_db()
    s.blue.refresh_from_db()
    s.army(red, 1, "0303")
    s.army(red, 2, "0403")
    s.army(blue, 1, "0504")
    s.at("A")
    return s


@pytest.fixture
def fixed_dice(monkeypatch: pytest.MonkeyPatch) -> Any:
    """``fixed_dice(3, 5, ...)`` makes the server roll those values, in that order."""

    def install(*values: int) -> FixedDice:
        dice = FixedDice(*values)
        monkeypatch.setattr(summer_common, "RNG", dice)
        return dice

    return install


def whose_turn(scene: Scene) -> int | None:
    state = load_state(scene.refresh())
    return phases.handler_for(state.campaign).turn(state)


def give_in_turn(scene: Scene, plan: dict[Kingdom, list[tuple[str, str, str | None]]]) -> None:
    """Give each kingdom's (token, kind, target) orders, in whatever order the turns ask."""
    users = {scene.red.pk: scene.player, scene.blue.pk: scene.other}
    queues = {k.pk: (k, list(items)) for k, items in plan.items()}
    while (turn := whose_turn(scene)) is not None:
        kingdom, items = queues[turn]
        token, kind, target = items.pop(0)
        summer.give_order(kingdom, users.get(turn, scene.gm), token, kind, target)


def resolve_in_turn(scene: Scene, dice: dict[str, tuple[int, int]] | None = None) -> None:
    """Resolve every order, each kingdom taking its orders in the order they were given."""
    users = {scene.red.pk: scene.player, scene.blue.pk: scene.other}
    while (turn := whose_turn(scene)) is not None:
        order = Order.objects.filter(campaign=scene.campaign, kingdom_id=turn,
                                     resolved_seq__isnull=True).order_by("given_seq").first()
        kingdom = Kingdom.objects.get(pk=turn)
        summer.resolve(kingdom, users.get(turn, scene.gm), order.pk,
                       dice=(dice or {}).get(order.token))


def army_key(kingdom: Kingdom, number: int) -> str:
    return f"army:{Army.objects.get(kingdom=kingdom, number=number).pk}"


DUMPED = (Tile, Army, Ship, Order, Battle, Kingdom, Campaign)


def dump() -> dict[str, list[dict[str, Any]]]:
    """Full rows of every table a summer action can change, in primary-key order."""
    return {model._meta.label: list(model.objects.order_by("pk").values()) for model in DUMPED}


def test_scene_is_laid_out_as_documented(scene: Scene) -> None:
    assert scene.campaign.clock_label() == "Year 1, summer month 1, A) Orders"
    assert scene.tile("0303").controller_id == scene.red.pk
    assert scene.tile("0504").settlement == "village"
    assert Army.objects.filter(campaign=scene.campaign).count() == 3
