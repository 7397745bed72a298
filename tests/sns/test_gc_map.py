"""Swords & Stones Grand Campaign: the map, Territory states and initial placement
(SNS-GC-1..3, SNS-GC-9, SNS-GC-11, SNS-GC-12, SNS-AMB-1..3, SNS-AMB-6). The helpers here build
the maps of the digest's worked examples for the other SNS test modules."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from campaign.rules.options import OptionError
from campaign.systems.swords_and_stones.rules import grand_campaign as gc

# --- helpers shared by the SNS tests ------------------------------------------------------------


def sq(name: str) -> str:
    """A digest square such as "B2" (column letter, row number) as its grid label "0202"."""
    return f"{ord(name[0]) - 64:02d}{int(name[1:]):02d}"


def square_map(
    width: int, height: int, water: tuple[str, ...] = (), options: gc.Options = gc.DEFAULT_OPTIONS
) -> gc.CampaignMap:
    """An all-land map of "Great Plains" squares, except the squares named in ``water``."""
    wet = {sq(w) for w in water}
    land = {
        (x, y): "Great Plains"
        for x in range(width) for y in range(height)
        if f"{x + 1:02d}{y + 1:02d}" not in wet
    }
    return gc.map_from_squares(width, height, land, options)


def player(pid: str, king: str | None = None, **kwargs: object) -> gc.Player:
    return gc.Player(pid, name=pid.capitalize(), kingdom_name=f"{pid.capitalize()} Realm",
                     king=gc.King(king or f"King of {pid}"), **kwargs)  # type: ignore[arg-type]


def campaign(
    width: int,
    height: int,
    spec: Mapping[str, tuple[str, str]],
    players: tuple[gc.Player, ...] | None = None,
    water: tuple[str, ...] = (),
) -> gc.CampaignState:
    """A campaign on a square map with holdings given as {"A1": ("capital", "red"), ...}."""
    cmap = square_map(width, height, water)
    cmap = cmap.with_holdings({sq(t): gc.Holding(s, o) for t, (s, o) in spec.items()})
    owners = sorted({o for _, o in spec.values()}, key=lambda o: (o != "red", o))
    return gc.start_campaign(cmap, players or tuple(player(o) for o in owners))


D2_START = {
    "A1": (gc.CAPITAL, "red"), "A2": (gc.CLAIMED, "red"), "B1": (gc.CLAIMED, "red"),
    "C3": (gc.CAPITAL, "blue"), "C2": (gc.CLAIMED, "blue"), "B3": (gc.CLAIMED, "blue"),
}


def d2_start() -> gc.CampaignState:
    """D.2's 3x3 map after the initial placement of Red and Blue."""
    return campaign(3, 3, D2_START)


def view(state: gc.CampaignState) -> dict[str, tuple[str, str | None]]:
    """The map as {"A1": ("capital", "red"), ...} for every held square."""
    out = {}
    for t in state.map.territories:
        h = state.map.holding(t)
        if h.owner is not None:
            out[f"{chr(64 + int(t[:2]))}{int(t[2:])}"] = (h.state, h.owner)
    return out


# --- SNS-GC-9, SNS-GC-11: the map ---------------------------------------------------------------


def test_sns_gc_9_each_land_square_is_a_territory() -> None:
    """SNS-GC-9: by square, every land square is one Territory named by its grid label; the
    water square B1 is none and borders nothing."""
    cmap = square_map(3, 2, water=("B1",))
    assert cmap.territories == ("0101", "0102", "0202", "0301", "0302")
    assert cmap.neighbours("0101") == frozenset({"0102"})
    assert cmap.neighbours("0202") == frozenset({"0102", "0302"})
    assert cmap.squares["0202"] == ((1, 1),)
    assert cmap.name("0202") == "Great Plains 0202"
    assert all(cmap.holding(t) == gc.Holding() for t in cmap.territories)
    with pytest.raises(gc.RuleViolation, match="SNS-GC-9"):
        cmap.holding("0201")


def test_sns_gc_9_each_map_type_is_one_territory() -> None:
    """SNS-GC-9: by map type, all squares of one type form one Territory (even apart), which
    borders every type one of its squares touches."""
    land = {
        (0, 0): "Ice lands", (0, 1): "Ice lands",
        (1, 0): "Black Forest", (1, 1): "Black Forest",
        (2, 0): "Ice lands", (2, 1): "Great Sandy",
    }
    options = gc.Options(territory_granularity=gc.BY_MAP_TYPE)
    cmap = gc.map_from_squares(3, 2, land, options)
    assert cmap.territories == ("Ice lands", "Black Forest", "Great Sandy")
    assert cmap.squares["Ice lands"] == ((0, 0), (0, 1), (2, 0))
    assert cmap.neighbours("Ice lands") == frozenset({"Black Forest", "Great Sandy"})
    assert cmap.neighbours("Black Forest") == frozenset({"Ice lands", "Great Sandy"})
    assert cmap.neighbours("Great Sandy") == frozenset({"Ice lands", "Black Forest"})


def test_sns_gc_9_granularity_option_default_and_parsing() -> None:
    """SNS-GC-9, SNS-GC-11, SNS-AMB-1: the options parse from stored JSON with the Part E
    defaults; an unknown value is refused."""
    assert gc.Options.from_dict({}) == gc.DEFAULT_OPTIONS
    assert gc.DEFAULT_OPTIONS.territory_granularity == gc.BY_SQUARE
    assert gc.Options.from_dict({"territory_granularity": "map_type"}).territory_granularity \
        == gc.BY_MAP_TYPE
    assert gc.DEFAULT_OPTIONS.as_dict()["capital_counts_as_settled"] is True
    with pytest.raises(OptionError):
        gc.Options.from_dict({"territory_granularity": "hex"})
    with pytest.raises(OptionError):
        gc.Options.from_dict({"start_bonus_slots": 3})


def test_sns_gc_9_square_off_the_map_is_refused() -> None:
    """SNS-GC-9: a land square must lie on the map and carry a map type."""
    with pytest.raises(gc.RuleViolation, match="SNS-GC-9"):
        gc.map_from_squares(2, 2, {(2, 0): "Great Plains"})
    with pytest.raises(gc.RuleViolation, match="SNS-GC-9"):
        gc.map_from_squares(2, 2, {(0, 0): ""})


def test_sns_gc_11_a_groups_own_map_as_a_graph() -> None:
    """SNS-GC-11, SNS-AMB-2: a group's own map is Territories and borders, with no page
    numbers or printed image needed."""
    cmap = gc.map_from_adjacency(
        ["Vale", "Fen", "Crag", "Isle"], [("Vale", "Fen"), ("Fen", "Crag")],
        names={"Vale": "The Vale"},
    )
    assert cmap.neighbours("Fen") == frozenset({"Vale", "Crag"})
    assert cmap.neighbours("Isle") == frozenset()
    assert cmap.name("Vale") == "The Vale"
    assert cmap.name("Fen") == "Fen"
    with pytest.raises(gc.RuleViolation, match="SNS-GC-11"):
        gc.map_from_adjacency(["Vale"], [("Vale", "Moor")])
    with pytest.raises(gc.RuleViolation, match="SNS-GC-11"):
        gc.map_from_adjacency(["Vale", "Vale"], [])
    with pytest.raises(gc.RuleViolation, match="SNS-GC-11"):
        gc.map_from_adjacency(["Vale"], [("Vale", "Vale")])


def test_sns_amb_6_nearest_is_fewest_border_crossings() -> None:
    """SNS-AMB-6: distance is the shortest path over borders; land beyond water is reached
    the long way round or not at all."""
    cmap = square_map(3, 3)
    dist = gc.distances_from(cmap, sq("B2"))
    assert dist[sq("A1")] == 2
    assert dist[sq("B1")] == 1
    assert dist[sq("B2")] == 0
    wet = square_map(3, 3, water=("B1", "B2", "B3"))
    assert sq("C1") not in gc.distances_from(wet, sq("A1"))


# --- SNS-GC-12: Territory states ----------------------------------------------------------------


def test_sns_gc_12_four_states_and_their_owners() -> None:
    """SNS-GC-12: unclaimed land has no owner; claimed, settled and capital land one."""
    assert gc.STATES == ("unclaimed", "claimed", "settled", "capital")
    assert gc.Holding().describe() == "Unclaimed"
    assert gc.Holding(gc.CAPITAL, "red").describe() == "Capital (red)"
    with pytest.raises(gc.RuleViolation, match="SNS-GC-12"):
        gc.Holding(gc.CLAIMED)
    with pytest.raises(gc.RuleViolation, match="SNS-GC-12"):
        gc.Holding(gc.UNCLAIMED, "red")
    with pytest.raises(gc.RuleViolation, match="SNS-GC-12"):
        gc.Holding("ruined", "red")


def test_sns_amb_3_capital_counts_as_settled_by_default() -> None:
    """SNS-AMB-3, SNS-GC-12: a Capital counts as settled land unless the group turns it off."""
    capital = gc.Holding(gc.CAPITAL, "red")
    assert gc.counts_as_settled(capital) is True
    assert gc.counts_as_settled(capital, gc.Options(capital_counts_as_settled=False)) is False
    assert gc.counts_as_settled(gc.Holding(gc.SETTLED, "red")) is True
    assert gc.counts_as_settled(gc.Holding(gc.CLAIMED, "red")) is False
    state = campaign(3, 3, {**D2_START, "B2": (gc.SETTLED, "red")})
    count = gc.holding_count(state.map, "red")
    assert (count.capital, count.settled, count.claimed) == (1, 1, 2)
    assert (count.settled_total, count.land, count.territories) == (2, 4, 4)
    off = gc.holding_count(state.map, "red", gc.Options(capital_counts_as_settled=False))
    assert (off.settled_total, off.land, off.territories) == (1, 3, 4)
    assert gc.capital_of(state.map, "red") == sq("A1")
    assert gc.capital_of(state.map, "green") is None


# --- SNS-GC-1, SNS-GC-2, SNS-GC-3: starting a campaign -----------------------------------------


def test_sns_gc_1_and_sns_gc_2_players_fixed_at_start_ai_allowed() -> None:
    """SNS-GC-1, SNS-GC-2, SNS-KING-7: a campaign starts with its players, AI ones included;
    ids are unique and every King has a name."""
    cmap = square_map(3, 3)
    state = gc.start_campaign(cmap, [player("red"), player("blue"), player("orcs", is_ai=True)])
    assert [p.id for p in state.active()] == ["red", "blue", "orcs"]
    assert state.player("orcs").is_ai is True
    with pytest.raises(gc.RuleViolation, match="SNS-GC-2"):
        gc.start_campaign(cmap, [player("red"), player("red")])
    with pytest.raises(gc.RuleViolation, match="SNS-GC-2"):
        gc.start_campaign(cmap, [])
    with pytest.raises(gc.RuleViolation, match="SNS-KING-7"):
        gc.start_campaign(cmap, [gc.Player("red", king=gc.King("  "))])
    with pytest.raises(gc.RuleViolation, match="SNS-GC-2"):
        state.player("green")


def test_sns_gc_3_capital_and_two_adjacent_claims() -> None:
    """SNS-GC-3 (D.2): Red puts the Capital on A1 and claims A2 and B1; Blue C3 with C2, B3.
    Each player then holds 1 Capital, 2 claimed and 0 settled."""
    state = gc.start_campaign(square_map(3, 3), [player("red"), player("blue")])
    assert gc.placement_claims(state, sq("A1")) == (sq("A2"), sq("B1"))
    state, changes = gc.place_kingdom(state, "red", sq("A1"), [sq("A2"), sq("B1")])
    assert [(c.territory, c.after.state, c.rule_id) for c in changes] == [
        (sq("A1"), gc.CAPITAL, "SNS-GC-3"), (sq("A2"), gc.CLAIMED, "SNS-GC-3"),
        (sq("B1"), gc.CLAIMED, "SNS-GC-3"),
    ]
    state, _ = gc.place_kingdom(state, "blue", sq("C3"), [sq("C2"), sq("B3")])
    assert view(state) == view(d2_start())
    count = gc.holding_count(state.map, "blue")
    assert (count.capital, count.settled, count.claimed) == (1, 0, 2)
    assert state.map.unclaimed() == (sq("A3"), sq("B2"), sq("C1"))


def test_sns_gc_3_placement_refusals() -> None:
    """SNS-GC-3: claims must border the Capital, be free and number exactly two; a kingdom is
    placed once."""
    state = gc.start_campaign(square_map(3, 3), [player("red"), player("blue")])
    with pytest.raises(gc.RuleViolation, match="SNS-GC-3: .* bordering"):
        gc.place_kingdom(state, "red", sq("A1"), [sq("A2"), sq("C3")])
    with pytest.raises(gc.RuleViolation, match="exactly two"):
        gc.place_kingdom(state, "red", sq("B2"), [sq("A2"), sq("B1"), sq("C2")])
    with pytest.raises(gc.RuleViolation, match="exactly two"):
        gc.place_kingdom(state, "red", sq("B2"), [sq("A2"), sq("A2")])
    state, _ = gc.place_kingdom(state, "red", sq("A1"), [sq("A2"), sq("B1")])
    with pytest.raises(gc.RuleViolation, match="already placed"):
        gc.place_kingdom(state, "red", sq("C3"), [sq("C2"), sq("B3")])
    with pytest.raises(gc.RuleViolation, match="not free for a Capital"):
        gc.place_kingdom(state, "blue", sq("B1"), [sq("C1"), sq("B2")])
    with pytest.raises(gc.RuleViolation, match="bordering"):
        gc.place_kingdom(state, "blue", sq("B2"), [sq("B1"), sq("C2")])
