"""Fixtures for the Middle Sea's service and view tests: a campaign with a GM, four players each
ruling a kingdom, an observer and an outsider, and helpers to set the game up and to act
through the web forms."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from campaign.models import Campaign, Kingdom, Role
from campaign.systems.middle_sea import services as ms
from campaign.systems.middle_sea.game import Acting, read_game
from campaign.systems.middle_sea.rules.state import GameState
from tests.conftest import add_member, make_campaign_of, make_user

NAMES = ("Red", "Blue", "Gold", "Grey")
SUITS = ("suns", "moons", "crowns", "arms")
COLOURS = ("#aa2222", "#2244aa", "#aa8811", "#666666")


@dataclass
class Table:
    """One Middle Sea campaign and its people."""

    campaign: Campaign
    gm: User
    players: dict[str, User]
    kingdoms: dict[str, Kingdom]
    observer: User
    outsider: User

    def client(self, who: str) -> Client:
        user = {"gm": self.gm, "observer": self.observer, "outsider": self.outsider}.get(who)
        if user is None:
            user = self.players[who]
        client = Client()
        client.force_login(user)
        return client

    def acting(self, who: str) -> Acting:
        if who == "gm":
            return Acting(self.gm, True, None)
        return Acting(self.players[who], False, self.kingdoms[who])

    def state(self) -> GameState:
        loaded = read_game(self.campaign)
        assert loaded is not None
        return loaded.state

    def post(self, who: str, name: str, data: dict[str, Any] | None = None,
             htmx: bool = False) -> Any:
        headers = {"HX-Request": "true"} if htmx else {}
        return self.client(who).post(reverse(f"ms:{name}", args=[self.campaign.slug]),
                                     data or {}, headers=headers)

    def setup(self, count: int = 4, rolls: tuple[int, ...] = (5, 3, 2, 1)) -> GameState:
        seats = [(self.kingdoms[n].pk, s) for n, s in zip(NAMES[:count], SUITS[:count])]
        ms.setup_game(self.campaign, self.acting("gm"), seats,
                      {self.kingdoms[n].pk: [r] for n, r in zip(NAMES[:count], rolls)})
        return self.state()


@pytest.fixture
def table(db: Any) -> Iterator[Table]:
    gm = make_user("gm")
    campaign = make_campaign_of("middle-sea", gm, slug="middle")
    players = {}
    kingdoms = {}
    for name, colour in zip(NAMES, COLOURS):
        user = make_user(name.lower())
        membership = add_member(campaign, user, Role.PLAYER)
        players[name] = user
        kingdoms[name] = Kingdom.objects.create(campaign=campaign, name=name, colour=colour,
                                                player=membership)
    observer = make_user("watcher")
    add_member(campaign, observer, Role.OBSERVER)
    yield Table(campaign, gm, players, kingdoms, observer, make_user("stranger"))
