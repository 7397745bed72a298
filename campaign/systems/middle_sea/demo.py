"""The Middle Sea's demo: *The Wine-Dark Sea*, three kingdoms in round 4.

The game is played from the set-up through the services, every action an event of the
chronicle: Sunhold (Alice) races to a king of 3 with a temple and a market, Moonmere (Bob) holds
the best temple and leads on the tie-break, Crownfast (Carol) pays to keep her cities. In the
control phase of round 4 Moonmere, with three cities, a king of 2 and an empty reserve, must let
one rebel: the rebellion waits for Bob to try his leaders on it, while Moonmere and Sunhold stand
level on dominance (4 each).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import User

from campaign import services as core
from campaign.demo import DemoCampaign, found_kingdoms
from campaign.models import Campaign, Kingdom
from campaign.systems.middle_sea import services as ms
from campaign.systems.middle_sea.game import Acting

SLUG = "wine-dark-sea"
FOUNDERS = (
    ("alice", "Sunhold", "#c9871f"),
    ("bob", "Moonmere", "#3f5fa8"),
    ("carol", "Crownfast", "#7a5a2a"),
)



def _play(campaign: Campaign, users: dict[str, User], kingdoms: dict[str, Kingdom],
          steps: Sequence[tuple[str, str, tuple[object, ...]]]) -> None:
    """Each step is (player, service name, arguments): the player acts on their phone."""
    owners = {name: owner for owner, name, _ in FOUNDERS}
    for who, action, args in steps:
        acting = Acting(users[owners[who]], False, kingdoms[who])
        getattr(ms, action)(campaign, acting, *args)


def _turns(*names: str) -> list[tuple[str, str, tuple[object, ...]]]:
    return [(name, "end_turn", ()) for name in names]


def build(users: dict[str, User]) -> Campaign:
    gm = users["gm"]
    campaign = core.create_campaign(
        gm, name="The Wine-Dark Sea", slug=SLUG, rule_system="middle-sea",
        description="Kingdoms of the Middle Sea for three: round 4, a rebellion in Moonmere "
                    "and a dead heat for first dominance.")
    kingdoms = {k.name: k for k in found_kingdoms(campaign, users, FOUNDERS)}
    ms.setup_game(campaign, Acting(gm, True, None),
                  [(kingdoms["Sunhold"].pk, "suns"), (kingdoms["Moonmere"].pk, "moons"),
                   (kingdoms["Crownfast"].pk, "crowns")],
                  {kingdoms["Sunhold"].pk: [5], kingdoms["Moonmere"].pk: [3],
                   kingdoms["Crownfast"].pk: [1]})
    a, b, c = "Sunhold", "Moonmere", "Crownfast"
    steps: list[tuple[str, str, tuple[object, ...]]] = [
        # Round 1: order Sunhold, Moonmere, Crownfast.
        *_turns(a, b, c),
        (a, "explore", ("moons", "N-FL")), (a, "build_road", ("N-CAP", "N-FL")),
        *_turns(a),
        (b, "explore", ("moons", "E-FM")), (b, "build_road", ("E-CAP", "E-FM")),
        *_turns(b),
        (c, "explore", ("crowns", "S-FL")), (c, "build_road", ("S-CAP", "S-FL")),
        (c, "explore", ("suns", "S-FM")), (c, "build_road", ("S-CAP", "S-FM")),
        *_turns(c),
        (a, "change_king", (3,)), *_turns(a),
        (b, "change_king", (2,)), *_turns(b),
        (c, "move_leader", (0, "S-FL")), (c, "move_leader", (2, "S-FM")), *_turns(c),
        # Round 2: Crownfast keeps a city for 1 + 1; Moonmere's better temple leads.
        *_turns(a, b),
        (c, "settle_control", (1, ())), *_turns(c),
        (b, "explore", ("arms", "E-FL")), (b, "build_road", ("E-CAP", "E-FL")), *_turns(b),
        (a, "explore", ("suns", "N-FM")), (a, "build_road", ("N-CAP", "N-FM")), *_turns(a),
        (c, "exchange", ("goods", 1)), (c, "explore", ("moons", "S-FR")), *_turns(c),
        (b, "move_leader", (0, "E-FL")), (b, "move_leader", (1, "E-FM")), *_turns(b),
        (a, "move_leader", (0, "N-FM")), (a, "move_leader", (2, "N-FL")), *_turns(a),
        (c, "activate", (0,)), (c, "activate", (2,)), *_turns(c),
        # Round 3.
        *_turns(b, a),
        (c, "settle_control", (1, ())), *_turns(c),
        (b, "explore", ("crowns", "E-NL")), (b, "build_road", ("E-CAP", "E-NL")), *_turns(b),
        (a, "explore", ("arms", "N-NL")), (a, "build_road", ("N-CAP", "N-NL")), *_turns(a),
        (c, "explore", ("arms", "S-NL")), *_turns(c),
        (b, "move_leader", (3, "E-NL")), *_turns(b),
        (a, "activate", (0,)), *_turns(a),
        (c, "activate", (0,)), (c, "activate", (2,)), *_turns(c),
        # Round 4: Moonmere cannot pay for its third city, and the 2-mine rebels.
        (b, "settle_control", (0, ("E-NL",))),
    ]
    _play(campaign, users, kingdoms, steps)
    return campaign


CAMPAIGNS = (DemoCampaign(SLUG, build),)
