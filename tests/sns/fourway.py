"""A table of four for the game-at-the-table tests: Red (``player``), Blue (``other_player``),
Green and Gold, each with its own player, placed on the preset Map of Avalon (Red's Capital 0202,
Blue's 1302, Green's 0308, Gold's 0908, each with two claims). Red challenges Blue for unclaimed
0303; Green sits on Red's side and Gold on Blue's; each picks one supply line; turn 1 begins.

Import the fixtures into a test module: ``from tests.sns.fourway import four  # noqa: F401``.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.contrib.auth.models import User
from django.test import Client

from campaign.models import Campaign, Kingdom, Membership, Role
from campaign.systems.swords_and_stones import seats
from campaign.systems.swords_and_stones import services as sns
from campaign.systems.swords_and_stones.models import Game
from ledger.services import balances
from tests.conftest import make_user
from tests.sns.conftest import at

SIX = ("food", "wood", "stone", "iron", "gold", "favor")


def stock(kingdom: Kingdom) -> dict[str, int]:
    """A kingdom's Stockpile: its six resources on the ledger."""
    return {r: n for r, n in balances([kingdom], SIX)[kingdom.pk].items() if r in SIX}


@dataclass
class Four:
    campaign: Campaign
    gm: User
    game: Game
    kingdoms: dict[str, Kingdom]
    users: dict[str, User]

    def client(self, name: str) -> Client:
        client = Client()
        client.force_login(self.users[name])
        return client


#: Each kingdom's supply-line pick (SNS-SUP-1): the Capital gives 3 of a resource.
PICKS = {"Red": ("0202", "WOOD"), "Blue": ("1302", "GOLD"), "Green": ("0308", "STONE"),
         "Gold": ("0908", "IRON")}
#: What each Stockpile opens with (SNS-ECON-10).
OPENING = {"Red": {"wood": 3}, "Blue": {"gold": 1}, "Green": {"stone": 3}, "Gold": {"iron": 2}}


def challenge_four(campaign: Campaign, gm: User, player: User, other_player: User) -> Four:
    """Four kingdoms placed, their Kings named, and Red's challenge of Blue issued (game 1
    being set up, only Red and Blue seated)."""
    users = {"Red": player, "Blue": other_player}
    for name, colour in (("Green", "#00aa00"), ("Gold", "#aa8800")):
        user = make_user(name.lower())
        member = Membership.objects.create(campaign=campaign, user=user, role=Role.PLAYER)
        Kingdom.objects.create(campaign=campaign, name=name, colour=colour, player=member)
        users[name] = user
    kingdoms = {k.name: k for k in Kingdom.objects.filter(campaign=campaign)}
    places = {"Red": ((1, 1), [(2, 1), (1, 2)]), "Blue": ((12, 1), [(11, 1), (12, 2)]),
              "Green": ((2, 7), [(3, 7), (2, 6)]), "Gold": ((8, 7), [(9, 7), (8, 8)])}
    for (name, (capital, claims)), king in zip(places.items(), ("Aldous", "Morwen", "Cadoc",
                                                                 "Elowen")):
        sns.name_king(campaign, gm, kingdoms[name], king)
        sns.place(campaign, gm, kingdoms[name], at(*capital), [at(*c) for c in claims])
    sns.start_challenges(campaign, gm)
    game = sns.challenge(campaign, gm, kingdoms["Red"], at(2, 2), kingdoms["Blue"])
    return Four(campaign, gm, game, kingdoms, users)


def set_up_and_begin(four: Four) -> Four:
    """Each of the four picks its supply line; turn 1 begins."""
    for name, pick in PICKS.items():
        sns.set_up(four.campaign, four.gm, four.game, four.kingdoms[name], faction="avalonian",
                   supply=[pick])
    sns.begin_game(four.campaign, four.gm, four.game)
    four.campaign.refresh_from_db()
    four.game = Game.objects.get(pk=four.game.pk)
    return four


def seat_four(campaign: Campaign, gm: User, player: User, other_player: User) -> Four:
    four = challenge_four(campaign, gm, player, other_player)
    seats.join_game(campaign, gm, four.game, four.kingdoms["Green"], seats.CHALLENGER)
    seats.join_game(campaign, gm, four.game, four.kingdoms["Gold"], seats.DEFENDER)
    return set_up_and_begin(four)


@pytest.fixture
def four(campaign: Campaign, gm: User, player: User, other_player: User) -> Four:
    """Game 1 at a table of four, turn 1 begun."""
    return seat_four(campaign, gm, player, other_player)
