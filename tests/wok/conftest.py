"""Fixtures for War of Kings campaigns in the database: a four-kingdom game on the preset board,
set up at crests 3 to 6 (the seating table's four-player columns, WOK-SETUP-10) with Red
leading, its players and an observer."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from campaign import services as core
from campaign.models import Campaign, Kingdom, Role
from campaign.systems.war_of_kings import services
from campaign.systems.war_of_kings import state as st
from campaign.systems.war_of_kings.rules.boards import hex_realm
from ledger.models import Balance, LedgerEntry
from tests.conftest import add_member, make_campaign_of, make_user

WOK = "war-of-kings"
NAMES = ("Red", "Blue", "Green", "Black")
COLOURS = ("#aa2222", "#2244aa", "#228833", "#222222")


@dataclass
class Game:
    campaign: Campaign
    gm: User
    players: dict[str, User]
    observer: User
    outsider: User
    kingdoms: dict[str, Kingdom]

    def client(self, user: User | None) -> Client:
        client = Client()
        if user is not None:
            client.force_login(user)
        return client

    def loaded(self) -> st.Loaded:
        self.campaign.refresh_from_db()
        return st.load(self.campaign)


def make_game(slug: str = "wok-game", seated: int = 4) -> Game:
    gm = make_user(f"{slug}-gm")
    campaign = make_campaign_of(WOK, gm, slug=slug, width=0, height=0, seed=None)
    players = {}
    kingdoms = {}
    for name, colour in zip(NAMES, COLOURS, strict=True):
        user = make_user(f"{slug}-{name.lower()}")
        membership = add_member(campaign, user, Role.PLAYER)
        kingdom = core.create_kingdom(campaign, gm, name=name, colour=colour,
                                      player=membership)
        players[name] = user
        kingdoms[name] = kingdom
    observer = make_user(f"{slug}-observer")
    add_member(campaign, observer, Role.OBSERVER)
    outsider = make_user(f"{slug}-outsider")
    crests = hex_realm().crests[2:2 + seated]
    seats = [services.SeatChoice(kingdoms[n], c.capital, c.front)
             for n, c in zip(NAMES[:seated], crests, strict=True)]
    services.start_game(campaign, gm, seats, drawn=0)
    campaign.refresh_from_db()
    for kingdom in kingdoms.values():
        kingdom.refresh_from_db()
    return Game(campaign, gm, players, observer, outsider, kingdoms)


@pytest.fixture
def game(db: Any) -> Game:
    return make_game()


def dump(campaign: Campaign) -> dict[str, Any]:
    """Every row of a campaign that War of Kings actions change, in key order."""
    from campaign.models import Event, Tile
    from campaign.systems.war_of_kings.models import Army, Battle, Card

    campaign = Campaign.objects.get(pk=campaign.pk)
    return {
        "campaign": {k: v for k, v in Campaign.objects.filter(pk=campaign.pk).values()[0].items()},
        "kingdoms": list(Kingdom.objects.filter(campaign=campaign).order_by("pk").values()),
        "tiles": list(Tile.objects.filter(map__campaign=campaign).order_by("pk").values()),
        "armies": list(Army.objects.filter(campaign=campaign).order_by("pk").values()),
        "battles": list(Battle.objects.filter(campaign=campaign).order_by("pk").values()),
        "cards": list(Card.objects.filter(campaign=campaign).order_by("pk").values()),
        "entries": list(LedgerEntry.objects.filter(campaign=campaign).order_by("pk").values()),
        "balances": list(Balance.objects.filter(kingdom__campaign=campaign).order_by("pk")
                         .values()),
        "events": Event.objects.filter(campaign=campaign, undone_at__isnull=True,
                                       undo_of__isnull=True).count(),
    }
