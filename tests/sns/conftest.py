"""A Grand Campaign on the preset Map of Avalon for the service, view and undo tests.

``campaign`` is a Swords & Stones campaign here, so the shared personas (``player`` rules Red,
``other_player`` Blue, ``observer``, ``outsider``) belong to it. ``avalon`` names both Kings and
places the kingdoms: Red's Capital on 0202 with claims 0302 and 0203, Blue's on 1302 with claims
1202 and 1303; the challenges have begun, Red first.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import transaction

from campaign import chronicle
from campaign.models import Campaign, Kingdom, Map, Membership, Tile
from campaign.systems.swords_and_stones import services as sns
from campaign.systems.swords_and_stones.models import (
    CrateItem,
    Game,
    King,
    Participant,
    Spend,
    TerritoryRecord,
    TitleAward,
)
from ledger.models import Balance, LedgerEntry
from tests.conftest import make_campaign_of

SNS = "swords-and-stones"


def at(x: int, y: int) -> str:
    """A square's label from its 0-based column and row."""
    return f"{x + 1:02d}{y + 1:02d}"


@pytest.fixture
def campaign(gm: User) -> Campaign:
    """A Swords & Stones campaign laid out on the preset Map of Avalon."""
    campaign = make_campaign_of(SNS, gm, slug="avalon")
    sns.load_preset(campaign, gm)
    campaign.refresh_from_db()
    return campaign


@dataclass
class Avalon:
    campaign: Campaign
    gm: User
    red: Kingdom
    blue: Kingdom

    def refresh(self) -> Avalon:
        self.campaign.refresh_from_db()
        self.red.refresh_from_db()
        self.blue.refresh_from_db()
        return self

    def tile(self, label: str) -> Tile:
        return Tile.objects.get(map__campaign=self.campaign, label=label)

    def holding(self, label: str) -> tuple[str, str | None]:
        t = self.tile(label)
        return (t.settlement or "unclaimed", t.controller.name if t.controller else None)

    def points(self, kingdom: Kingdom) -> tuple[int, int]:
        got = dict(Balance.objects.filter(kingdom=kingdom).values_list("resource", "amount"))
        return (got.get("vp", 0), got.get("ven", 0))

    def game(self, number: int) -> Game:
        return Game.objects.get(campaign=self.campaign, number=number)

    def play(self, challenger: Kingdom, territory: str, defender: Kingdom | None,
             result: str, fates: dict[int, str] | None = None, **kw: Any) -> Game:
        game = sns.challenge(self.campaign, self.gm, challenger, territory, defender, **kw)
        sns.record_result(self.campaign, self.gm, game, result, fates or {})
        self.refresh()
        return Game.objects.get(pk=game.pk)


@pytest.fixture
def avalon(campaign: Campaign, gm: User, player: User, other_player: User) -> Avalon:
    red = Kingdom.objects.get(campaign=campaign, name="Red")
    blue = Kingdom.objects.get(campaign=campaign, name="Blue")
    sns.name_king(campaign, gm, red, "Aldous")
    sns.name_king(campaign, gm, blue, "Morwen")
    sns.place(campaign, gm, red, at(1, 1), [at(2, 1), at(1, 2)])
    sns.place(campaign, gm, blue, at(12, 1), [at(11, 1), at(12, 2)])
    sns.start_challenges(campaign, gm)
    return Avalon(campaign, gm, red, blue).refresh()


DUMPED = (Campaign, Membership, Kingdom, Map, Tile, LedgerEntry, Balance, Game, King,
          TitleAward, CrateItem, Participant, Spend, TerritoryRecord)


def dump() -> dict[str, list[dict[str, Any]]]:
    """Every row of every table a Grand Campaign action can change, in primary-key order (the
    chronicle aside: an undo adds its own event)."""
    return {m._meta.label: list(m.objects.order_by("pk").values()) for m in DUMPED}


def undo(avalon: Avalon) -> None:
    with transaction.atomic():
        chronicle.undo_latest(avalon.campaign, avalon.gm)
    avalon.refresh()
