"""The armies test world: a Kings of War campaign in summer with Red (``player``) and Blue
(``other_player``), an observer and an outsider.

Red army #1 and Blue army #1 stand on the same tile (``world.front``), Red army #2 elsewhere.
``world.fight`` makes a pending Kings of War land battle between the two armies #1, as the
summer's Battle phase would; ``dump`` snapshots every row the armies code writes, to compare
before and after an undo.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

import pytest
from django.contrib.auth.models import User
from django.db import transaction

from battles.models import Army, ArmyList, Battle, Unit, UnitStrengthEvent
from campaign.chronicle import Recorder, snapshot
from campaign.models import Campaign, Event, Kingdom, Tile
from campaign.systems.mighty_kingdoms import forces as services
from campaign.systems.mighty_kingdoms.models import Ship
from campaign.systems.mighty_kingdoms.rules import battles as mkb

ARMY_MODELS = (Army, Ship, ArmyList, Unit, UnitStrengthEvent, Battle)


def dump() -> dict[str, list[dict[str, Any]]]:
    """Every row of the models this app writes, field by field."""
    return {model.__name__: [snapshot(row) for row in model.objects.order_by("pk")]
            for model in ARMY_MODELS}


def unit(name: str, unit_type: str = "regiment", points: int = 100, base_us: int | None = 2,
         **extra: Any) -> mkb.UnitEntry:
    return mkb.UnitEntry(name=name, unit_type=unit_type, points=points, base_us=base_us, **extra)


@dataclass
class World:
    campaign: Campaign
    gm: User
    player: User
    other: User
    observer: User
    outsider: User
    red: Kingdom
    blue: Kingdom
    tiles: list[Tile]
    battles: list[Battle] = field(default_factory=list)

    @property
    def front(self) -> Tile:
        return self.tiles[0]

    def army(self, kingdom: Kingdom, number: int, tile: Tile | None = None, **values: Any) -> Army:
        return Army.objects.create(campaign=self.campaign, kingdom=kingdom, number=number,
                                   tile=tile or self.tiles[number + (0 if kingdom == self.red
                                                                     else 10)], **values)

    def get(self, kingdom: Kingdom, number: int) -> Army:
        return Army.objects.select_related("kingdom", "army_list").get(kingdom=kingdom,
                                                                       number=number)

    def write(self, army: Army, entries: Iterable[mkb.UnitEntry], *, fix: bool = True,
              allied: bool | None = None) -> ArmyList:
        user = self.player if army.kingdom_id == self.red.pk else self.other
        return services.write_army_list(army, list(entries), user, fix=fix, allied=allied)

    def units(self, army: Army) -> dict[str, Unit]:
        return {u.name: u for u in Unit.objects.filter(army_list__army=army)}

    def fight(self, mode: str = "kow", red: int = 1, blue: int = 1) -> Battle:
        """A pending land battle of this month between Red army ``red`` and Blue army
        ``blue`` (results go only to this month's pending battles)."""
        n = len(self.battles)
        red_army, blue_army = self.get(self.red, red), self.get(self.blue, blue)
        battle = Battle.objects.create(
            campaign=self.campaign, year=self.campaign.year, month=self.campaign.month,
            seq=n + 1,
            tile=self.front, kind="land", mode=mode, chooser=self.red, opponent=self.blue,
            data={"chooser_fighters": [f"army:{red_army.pk}"],
                  "opponent_fighters": [f"army:{blue_army.pk}"]})
        self.battles.append(battle)
        return battle

    def record(self, battle: Battle, **results: tuple[bool, bool]) -> list[UnitStrengthEvent]:
        """``results``: unit name -> (first to rout an enemy, routed)."""
        names = {u.name: u for u in Unit.objects.filter(
            army_list__army__kingdom__campaign=self.campaign, destroyed_reason="")}
        records = [mkb.UnitBattleRecord(str(names[name].pk), routed_enemy=re, routed=r)
                   for name, (re, r) in results.items()]
        return services.record_unit_results(battle, records, self.gm)

    def reform(self) -> tuple[list[str], Event]:
        with transaction.atomic():
            rec = Recorder(self.campaign, self.gm, "phase.advanced", "Reform.")
            notes = services.reform_unit_strength(self.campaign, rec)
            rec.summary += " " + " ".join(notes)
            return notes, rec.finish()


@pytest.fixture
def world(campaign: Campaign, gm: User, player: User, other_player: User, observer: User,
          outsider: User) -> World:
    Campaign.objects.filter(pk=campaign.pk).update(season="summer", year=1, month=1, phase="C",
                                                   sub_phase="")
    campaign.refresh_from_db()
    tiles = list(Tile.objects.filter(map__campaign=campaign).order_by("label"))
    red = Kingdom.objects.get(campaign=campaign, name="Red")
    blue = Kingdom.objects.get(campaign=campaign, name="Blue")
    w = World(campaign, gm, player, other_player, observer, outsider, red, blue, tiles)
    w.army(red, 1, w.front)
    w.army(red, 2)
    w.army(blue, 1, w.front)
    return w


def set_options(campaign: Campaign, **options: Any) -> None:
    campaign.options = {**campaign.options, **options}
    Campaign.objects.filter(pk=campaign.pk).update(options=campaign.options)
