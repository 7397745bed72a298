"""Properties of gold over the road network (WOK-ECON-4, WOK-ECON-7, WOK-ECON-8, WOK-BOARD-3),
checked by Hypothesis on random small boards."""

from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from campaign.systems.war_of_kings.rules import economy as eco
from campaign.systems.war_of_kings.rules.board import (
    MALADOR,
    NORMAL,
    WINTER_CENTER,
    GameState,
    TerritoryDef,
    border,
    make_map,
)
from tests.wok.factory import hold

CONTROLLERS = ("Red", "Red", "Red", "Blue", MALADOR, None)


@st.composite
def boards(draw: st.DrawFn) -> GameState:
    n = draw(st.integers(min_value=2, max_value=8))
    codes = [f"T{i}" for i in range(n)]
    center = draw(st.booleans())
    kinds = [NORMAL] * n
    if center:
        kinds[draw(st.integers(min_value=1, max_value=n - 1))] = WINTER_CENTER
    pairs = [(a, b) for i, a in enumerate(codes) for b in codes[i + 1:]]
    borders = draw(st.lists(st.sampled_from(pairs), unique=True, max_size=len(pairs))) \
        if pairs else []
    roads = draw(st.lists(st.sampled_from(borders), unique=True)) if borders else []
    holdings = {}
    for code, kind in zip(codes, kinds):
        if kind == WINTER_CENTER:
            continue
        holdings[code] = hold(draw(st.sampled_from(CONTROLLERS)),
                              draw(st.integers(min_value=0, max_value=3)))
    game_map = make_map([TerritoryDef(c, kind=k) for c, k in zip(codes, kinds)], borders,
                        "winter" if center else "summer")
    return GameState(map=game_map, holdings=holdings,
                     roads=frozenset(border(a, b) for a, b in roads),
                     capitals={"Red": "T0", "Blue": "T0"})


def reference_network(state: GameState, kingdom: str) -> set[str]:
    """Connectivity by repeated edge relaxation, written independently of the rules: start at
    the capital, add any territory joined to the set by a road token or through the winter
    centre, if the kingdom holds it or it is the centre."""
    capital = state.capital(kingdom)
    if state.ctrl(capital) != kingdom:
        return set()
    center = state.map.winter_center

    def ok(t: str) -> bool:
        return t == center or state.ctrl(t) == kingdom

    links = {tuple(sorted(r)) for r in state.roads}
    if center is not None:
        links |= {tuple(sorted((center, t))) for t in state.map.neighbours(center)}
    reached = {capital}
    grew = True
    while grew:
        grew = False
        for a, b in links:
            for x, y in ((a, b), (b, a)):
                if x in reached and y not in reached and ok(y):
                    reached.add(y)
                    grew = True
    return reached


@settings(max_examples=300, deadline=None)
@given(boards())
def test_wok_econ_8_gold_never_counts_a_settlement_cut_off_by_foreign_ground(state) -> None:
    """WOK-ECON-8, WOK-ECON-4, WOK-AMB-22: every paying settlement has a road chain to the
    capital through Red's own territories (or the winter centre), and every settlement with such
    a chain pays; a lost capital pays nothing (WOK-ECON-7)."""
    network = reference_network(state, "Red")
    lines = eco.gold_report(state, "Red")
    for line in lines:
        if line.connected:
            assert line.territory in network
            assert line.chain[0] == line.territory and line.chain[-1] == "T0"
            for a, b in zip(line.chain, line.chain[1:]):
                assert eco.road_linked(state, a, b)
            assert all(state.ctrl(t) == "Red" or t == state.map.winter_center
                       for t in line.chain)
        else:
            assert line.gold == 0
    paying = {line.territory for line in lines if line.connected}
    expected = {t for t in network if state.ctrl(t) == "Red" and state.lvl(t) > 0}
    assert paying == expected
    assert eco.gold_generation(state, "Red") == sum(eco.GOLD_BY_LEVEL[state.lvl(t)]
                                                    for t in expected)


@settings(max_examples=300, deadline=None)
@given(boards(), st.data())
def test_wok_road_3_adding_a_road_never_lowers_gold(state, data) -> None:
    """WOK-ROAD-3, WOK-ROAD-4: a new road on any border without one leaves every kingdom's gold
    the same or higher."""
    free = sorted(tuple(sorted(b)) for b in state.map.borders if b not in state.roads)
    assume(free)
    a, b = data.draw(st.sampled_from(free))
    more = state.with_road(a, b)
    for kingdom in ("Red", "Blue"):
        assert eco.gold_generation(more, kingdom) >= eco.gold_generation(state, kingdom)
