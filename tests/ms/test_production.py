"""The production phase (MS-PROD-1..6, MS-AMB-8, MS-AMB-17), with TV-MS-3."""

from __future__ import annotations

from campaign.systems.middle_sea.rules import economy, phases
from campaign.systems.middle_sea.rules.board import ARMS, CROWNS, MOONS, SUNS
from campaign.systems.middle_sea.rules.state import BUILD, PRODUCTION, GameState, get_player
from tests.ms.factory import game, player


def tv3a_state() -> GameState:
    """TV-MS-3 (a): Rita, king 4, with an ungoverned 3-market, a provincial 2-market with a port
    and her active 5-leader (linked by sea to her home port and its road), and a 3-mine with her
    active 3-leader on a road."""
    rita = player("Rita", SUNS, "N", king=4, placed={5: "E-FL", 3: "N-FR"}, goods=0, gold=0)
    steve = player("Steve", MOONS, "E")
    return game(
        [rita, steve],
        {"N-NL": (SUNS, 3), "N-FM": (ARMS, 2), "N-FR": (CROWNS, 3), "E-FL": (SUNS, 2)},
        roads=[("Rita", "N-CAP", "N-NL"), ("Rita", "N-CAP", "N-FM"), ("Rita", "N-CAP", "N-FR")],
        ports=[("Rita", "N-FM", 1), ("Rita", "E-FL", 2)],
        phase=PRODUCTION,
    )


def tv3b_state() -> GameState:
    """TV-MS-3 (b): Phillip, king 3, with a home 5-market on a road and his active 0-leader, and
    a provincial 4-mine with his active 4-leader but no trade route."""
    phillip = player("Phillip", CROWNS, "S", king=3, placed={0: "S-FM", 4: "N-NL"}, goods=0,
                     gold=0)
    rita = player("Rita", SUNS, "N")
    return game(
        [phillip, rita],
        {"S-FM": (SUNS, 5), "N-NL": (CROWNS, 4)},
        roads=[("Phillip", "S-CAP", "S-FM")],
        phase=PRODUCTION,
    )


def test_tv_ms_3a_rita_produces_11_goods_and_10_gold() -> None:
    """TV-MS-3 (a) (MS-PROD-1..4): Capital 4 + 4; 3-market without leader 0; 2-market 2 + 5 = 7
    goods through port, sea, home port and road; 3-mine 3 + 3 = 6 gold; the 5- and 3-leaders
    turn inactive, the king stays active."""
    report = economy.production_report(tv3a_state(), "Rita")
    assert (report.capital_goods, report.capital_gold) == (4, 4)
    assert [(line.city, line.goods, line.gold, line.linked) for line in report.lines] == [
        ("3-mine", 0, 6, True), ("2-market", 7, 0, True), ("3-market", 0, 0, True),
    ]
    assert (report.goods, report.gold) == (11, 10)
    assert report.inactivated == (3, 5)
    state, _ = economy.apply_production(tv3a_state(), "Rita")
    rita = get_player(state, "Rita")
    assert (rita.goods, rita.gold) == (11, 10)
    assert [(leader.value, leader.active) for leader in rita.leaders] == [
        (0, True), (1, True), (2, True), (3, False), (4, True), (5, False),
    ]


def test_tv_ms_3b_amb_17_phillip_produces_8_goods_and_3_gold() -> None:
    """TV-MS-3 (b) (MS-PROD-4, MS-AMB-17a): Capital 3 + 3; 5-market 5 + 0 = 5 goods and the
    0-leader (not the 5-leader) turns inactive; the 4-mine has no trade route, yields 0 and its
    leader stays active."""
    state, report = economy.apply_production(tv3b_state(), "Phillip")
    assert (report.goods, report.gold) == (8, 3)
    assert [(line.city, line.goods, line.gold, line.linked) for line in report.lines] == [
        ("5-market", 5, 0, True), ("4-mine", 0, 0, False),
    ]
    phillip = get_player(state, "Phillip")
    assert (phillip.goods, phillip.gold) == (8, 3)
    assert (phillip.leader(0).active, phillip.leader(4).active) == (False, True)
    assert phillip.leader(5).active is True


def test_ms_prod_3_an_inactive_leader_produces_nothing() -> None:
    """MS-PROD-3: the 3-mine's leader is inactive: only the Capital's 4 + 4 and the 2-market's 7
    goods come in."""
    rita = player("Rita", SUNS, "N", king=4, placed={5: "E-FL", 3: ("N-FR", False)}, goods=0,
                  gold=0)
    state = tv3a_state()
    state = GameState(**{**state.__dict__, "players": (rita, state.players[1])})
    report = economy.production_report(state, "Rita")
    assert (report.goods, report.gold) == (11, 4)
    assert report.inactivated == (5,)


def test_ms_prod_5_garrisons_and_temples_never_produce() -> None:
    """MS-PROD-5: an active leader in a linked garrison or temple yields nothing and stays
    active; the Capital alone gives 2 + 2."""
    kim = player("Kim", SUNS, "N", king=2, placed={4: "N-FL", 5: "N-FM"}, goods=0, gold=0)
    lee = player("Lee", MOONS, "S")
    state = game([kim, lee], {"N-FL": (ARMS, 5), "N-FM": (MOONS, 4)},
                 roads=[("Kim", "N-CAP", "N-FL"), ("Kim", "N-CAP", "N-FM")], phase=PRODUCTION)
    state, report = economy.apply_production(state, "Kim")
    assert (report.goods, report.gold, report.lines) == (2, 2, ())
    kim = get_player(state, "Kim")
    assert (kim.goods, kim.gold, kim.leader(4).active, kim.leader(5).active) == (
        2, 2, True, True,
    )


def test_ms_prod_6_amb_8_production_runs_for_everyone_then_build_opens() -> None:
    """MS-PROD-6, MS-AMB-8, MS-RES-3: production is automatic for all in dominance order; what
    was in the reserve stays and the income adds to it."""
    state = tv3a_state()
    state = GameState(**{**state.__dict__, "players": (
        state.players[0], player("Steve", MOONS, "E", king=2, goods=3, gold=1),
    )})
    state, reports = phases.resolve_production(state)
    assert [(r.name, r.goods, r.gold) for r in reports] == [("Rita", 11, 10), ("Steve", 2, 2)]
    steve = get_player(state, "Steve")
    assert (steve.goods, steve.gold) == (5, 3)
    assert (state.phase, state.turn) == (BUILD, 0)
