"""The table drawn as a map (rules/layout.py) and a renamed player (state.rename_player)."""

from __future__ import annotations

import pytest

from campaign.systems.middle_sea.rules import layout
from campaign.systems.middle_sea.rules.board import RuleViolation
from campaign.systems.middle_sea.rules.state import (
    GameState,
    Rebellion,
    Turn,
    controller,
    rename_player,
)
from tests.ms.factory import game, player


def test_ms_board_2_each_continent_faces_the_sea_from_its_own_side() -> None:
    """MS-BOARD-2, MS-BOARD-3: the far row lies between the Capital and the sea on every
    side, and a player's left is their own left."""
    assert layout.position("Sea") == (0, 0)
    assert [layout.position(f"S-{p}") for p in ("NL", "CAP", "NR", "FL", "FM", "FR")] == [
        (-1, 3), (0, 3), (1, 3), (-1, 2), (0, 2), (1, 2)]
    assert (layout.position("N-CAP"), layout.position("N-FM")) == ((0, -3), (0, -2))
    assert (layout.position("E-CAP"), layout.position("W-CAP")) == ((3, 0), (-3, 0))
    # North faces south: its left hand is to the east.
    assert layout.position("N-NL") == (1, -3)
    assert len(set(map(layout.position, layout.labels()))) == 25
    assert layout.map_position("N-NL") == (2, -6)


def test_ms_board_4_and_ms_board_5_borders_of_the_map() -> None:
    """MS-BOARD-4, MS-BOARD-5, MS-MIL-2: borders inside a continent are its adjacencies
    (diagonals too); the sea borders the twelve coastal spaces and nothing crosses between
    continents by land."""
    assert layout.borders("N-CAP") == ("N-FL", "N-FM", "N-FR", "N-NL", "N-NR")
    assert layout.borders("N-NL") == ("N-CAP", "N-FL", "N-FM")
    assert layout.borders("E-FL") == ("E-CAP", "E-FM", "E-NL", "Sea")
    assert len(layout.borders("Sea")) == 12
    for label in layout.labels():
        for other in layout.borders(label):
            assert label in layout.borders(other)


def test_ms_term_2_board_view_shows_cities_control_roads_and_ports() -> None:
    """MS-TERM-2, MS-CITY-2, MS-BUILD-7: what each territory shows; continents nobody plays
    are out of play."""
    red = player("Red", "suns", "N", king=2, placed={3: ("N-FM", False)})
    blue = player("Blue", "moons", "S")
    state = game([red, blue], {"N-FM": ("crowns", 4), "N-FL": ("moons", 1)},
                 roads=[("Red", "N-CAP", "N-FL")], ports=[("Red", "N-FL", 2)])
    views = layout.board_view(state)
    assert views["E-CAP"].terrain == layout.UNUSED and views["Sea"].terrain == "sea"
    cap = views["N-CAP"]
    assert (cap.settlement, cap.name, cap.controller, cap.roads) == (
        "capital_null", "Capital of Red", "Red", ("N-FL",))
    fl = views["N-FL"]
    assert (fl.settlement, fl.name, fl.controller, fl.features) == (
        "temple", "1-temple", "Red", ("port",))
    assert dict(fl.data) == {"suit": "moons", "value": 1, "piers": 2}
    assert dict(views["N-FM"].data)["leader_active"] is False
    assert views["S-FR"].settlement == "" and views["S-FR"].terrain == layout.LAND


def test_ms_setup_1_a_renamed_kingdom_is_renamed_everywhere_in_the_position() -> None:
    """MS-SETUP-1, MS-AMB-25: a player's name changes in seats, order, roads, ports, the
    rebellion and the turn's attacks; a name another player has is refused."""
    red = player("Red", "suns", "N", placed={2: "N-FL"})
    blue = player("Blue", "moons", "S")
    state = game([red, blue], {"N-FL": ("arms", 2)}, roads=[("Red", "N-CAP", "N-FL")],
                 ports=[("Red", "N-FL", 1)])
    state = GameState(**{**state.__dict__, "rebellion": Rebellion("Red", ("N-FL",)),
                         "current": Turn(attacks=(("Red", "military"),))})
    renamed = rename_player(state, "Red", "Crimson")
    assert [p.name for p in renamed.players] == ["Crimson", "Blue"]
    assert renamed.order == ("Crimson", "Blue")
    assert controller(renamed, "N-FL") == "Crimson"
    assert renamed.ports[0].owner == "Crimson" and renamed.rebellion.owner == "Crimson"
    assert renamed.current.attacks == (("Crimson", "military"),)
    assert rename_player(renamed, "Crimson", "Red") == state
    with pytest.raises(RuleViolation, match="MS-SETUP-1"):
        rename_player(state, "Red", "Blue")


def test_ms_atk_2_targets_are_named_as_players_name_them() -> None:
    """MS-ATK-2, MS-ATK-10: the attack form names a city with its owner, a port with its
    piers, a leader by its value, and a lone Capital or king by its owner."""
    from campaign.systems.middle_sea.pages import target_words
    from campaign.systems.middle_sea.rules.conflict import Target

    red = player("Red", "suns", "N")
    blue = player("Blue", "moons", "S", placed={2: "S-FL"})
    state = game([red, blue], {"S-FL": ("suns", 2), "S-FM": ("arms", 3), "N-FL": ("moons", 1)},
                 roads=[("Blue", "S-CAP", "S-FM")], ports=[("Blue", "S-FM", 3)])
    assert target_words(state, Target("city", "S-FL")) == "the 2-market at S-FL (Blue)"
    assert target_words(state, Target("city", "N-FL")) == "the 1-temple at N-FL (nobody)"
    assert target_words(state, Target("port", "S-FM")) == "the port at S-FM (3 piers, Blue)"
    assert target_words(state, Target("leader", "S-FL")) == "Blue's 2-leader at S-FL"
    assert target_words(state, Target("king", "S-CAP")) == "Blue's king"
    assert target_words(state, Target("capital", "S-CAP")) == "Blue's Capital"
