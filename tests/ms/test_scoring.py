"""Victory and the calculated score (MS-WIN-1..6, MS-AMB-1, MS-AMB-10, MS-AMB-11), with TV-MS-6
and TV-MS-7."""

from __future__ import annotations

from campaign.systems.middle_sea.rules import phases, scoring
from campaign.systems.middle_sea.rules.board import ARMS, CROWNS, MOONS, SUNS
from campaign.systems.middle_sea.rules.state import (
    CONTROL,
    LEADER,
    GameState,
    MSOptions,
    get_player,
)
from tests.ms.factory import game, player


def tv6_state(options: MSOptions | None = None) -> GameState:
    """TV-MS-6: P holds cities of 2, 3, 4 and 5 with one 3-pier port, unrest 1; Q holds 1, 2,
    2, 4 and 5, unrest 3 (an inactive leader keeps Q from a trade victory); R holds a 5,
    unrest 2."""
    p = player("P", SUNS, "N", king=2, unrest=1)
    q = player("Q", MOONS, "E", king=2, unrest=3, placed={0: ("E-NL", False)})
    r = player("R", CROWNS, "S", king=2, unrest=2)
    return game(
        [p, q, r],
        {"N-NL": (SUNS, 2), "N-NR": (SUNS, 3), "N-FM": (MOONS, 4), "N-FR": (ARMS, 5),
         "E-NL": (SUNS, 1), "E-NR": (MOONS, 2), "E-FL": (ARMS, 2), "E-FM": (CROWNS, 4),
         "E-FR": (SUNS, 5), "S-FM": (CROWNS, 5)},
        roads=[("P", "N-CAP", "N-NL"), ("P", "N-CAP", "N-NR"), ("P", "N-CAP", "N-FR"),
               ("Q", "E-CAP", "E-NL"), ("Q", "E-CAP", "E-NR"), ("Q", "E-CAP", "E-FL"),
               ("Q", "E-CAP", "E-FM"), ("Q", "E-CAP", "E-FR"), ("R", "S-CAP", "S-FM")],
        ports=[("P", "N-FM", 3)],
        order=("R", "Q", "P"),
        options=options,
    )


def test_tv_ms_6_calculated_scores_51_28_minus_5() -> None:
    """TV-MS-6 (MS-WIN-2, MS-AMB-11): (4 - 1) x (14 + 3) = 51; (5 - 3) x 14 = 28; (1 - 2) x 5 =
    -5 (negative allowed; the Capital adds nothing)."""
    assert scoring.score_formula([2, 3, 4, 5], 3, 1) == 51
    assert scoring.score_formula([1, 2, 2, 4, 5], 0, 3) == 28
    assert scoring.score_formula([5], 0, 2) == -5
    state = tv6_state()
    assert [scoring.calculated_score(state, n) for n in ("P", "Q", "R")] == [51, 28, -5]
    assert [(s.name, s.score) for s in scoring.standings(state)] == [
        ("P", 51), ("Q", 28), ("R", -5),
    ]


def test_tv_ms_7_conquest_needs_by_player_count() -> None:
    """TV-MS-7 (MS-WIN-5): 4 players: one provincial city on each of 3 other continents; 3
    players: 2 + 1 covering both; 2 players: 3 on the one other; 3 all on one continent of
    two do not win; neither do 4 home cities."""
    assert scoring.conquest_met(5, {"E": 1, "S": 1, "W": 1}, ["E", "S", "W"]) is True
    assert scoring.conquest_met(5, {"E": 2, "S": 1}, ["E", "S"]) is True
    assert scoring.conquest_met(5, {"S": 3}, ["S"]) is True
    assert scoring.conquest_met(5, {"E": 3}, ["E", "S"]) is False
    assert scoring.conquest_met(5, {"S": 2}, ["S"]) is False
    assert scoring.conquest_met(4, {"E": 2, "S": 1}, ["E", "S"]) is False


def conquest_state(provincial: dict[str, tuple[str, int]]) -> GameState:
    """Rita (north) holds her five home cities by road and the given provincial cities by
    inactive leaders (so no trade victory); Steve (east) and Phillip (south) play too."""
    placed = {v: (s, False) for v, s in zip((0, 2, 3), provincial)}
    rita = player("Rita", SUNS, "N", king=1, placed=placed)
    home = {"N-NL": (SUNS, 1), "N-NR": (SUNS, 2), "N-FL": (SUNS, 3), "N-FM": (SUNS, 4),
            "N-FR": (SUNS, 5)}
    return game(
        [rita, player("Steve", MOONS, "E"), player("Phillip", CROWNS, "S")],
        {**home, **provincial},
        roads=[("Rita", "N-CAP", s) for s in home],
        phase=LEADER, turn=2,
    )


def test_tv_ms_7_conquest_checked_on_a_three_player_table() -> None:
    """TV-MS-7, MS-WIN-5, MS-WIN-6: two provincial cities in the east and one in the south win
    at the end of the round; three in the east do not."""
    won = conquest_state({"E-NL": (ARMS, 1), "E-FM": (ARMS, 2), "S-FR": (ARMS, 3)})
    assert scoring.has_conquest_victory(won, "Rita") is True
    ended = phases.end_turn(won, "Phillip")
    assert (ended.ended, ended.end_reason, ended.winners) == (True, "conquest", ("Rita",))
    lost = conquest_state({"E-NL": (ARMS, 1), "E-FM": (ARMS, 2), "E-FR": (ARMS, 3)})
    assert scoring.has_conquest_victory(lost, "Rita") is False
    assert phases.end_turn(lost, "Phillip").ended is False


def trade_state(options: MSOptions | None = None, zero: str = "reserve") -> GameState:
    """Kim (north) holds all five home cities with the 2- to 5-leaders active in four of them and
    the 0-leader in the reserve (or in the fifth); Lee does the same in the south with one more
    pier; Max (east) has nothing. The last leader turn of the round is Max's."""
    kim_place = {2: "N-NL", 3: "N-NR", 4: "N-FL", 5: "N-FM"}
    if zero != "reserve":
        kim_place[0] = "N-FR"
    kim = player("Kim", SUNS, "N", king=1, placed=kim_place)
    lee = player("Lee", MOONS, "S", king=1, placed={2: "S-NL", 3: "S-NR", 4: "S-FL", 5: "S-FM"})
    max_ = player("Max", CROWNS, "E")
    kim_sites = {"N-NL": (SUNS, 1), "N-NR": (SUNS, 2), "N-FL": (SUNS, 3), "N-FM": (SUNS, 4),
                 "N-FR": (SUNS, 5)}
    lee_sites = {"S-NL": (MOONS, 1), "S-NR": (MOONS, 2), "S-FL": (MOONS, 3), "S-FM": (MOONS, 4),
                 "S-FR": (MOONS, 5)}
    return game(
        [kim, lee, max_], {**kim_sites, **lee_sites},
        roads=[("Kim", "N-CAP", "N-FR"), ("Lee", "S-CAP", "S-FR")],
        ports=[("Kim", "N-FR", 1), ("Lee", "S-FR", 2)],
        order=("Kim", "Lee", "Max"), phase=LEADER, turn=2, options=options,
    )


def test_ms_win_4_amb_10_two_trade_victories_decided_by_their_scores() -> None:
    """MS-WIN-4, MS-WIN-6, MS-AMB-10, MS-ROUND-3: Kim and Lee both qualify when the round ends;
    Kim scores 5 x (15 + 1) = 80, Lee 5 x (15 + 2) = 85: Lee wins."""
    state = trade_state()
    assert [scoring.has_trade_victory(state, n) for n in ("Kim", "Lee", "Max")] == [
        True, True, False,
    ]
    assert (scoring.calculated_score(state, "Kim"), scoring.calculated_score(state, "Lee")) == (
        80, 85,
    )
    ended = phases.end_turn(state, "Max")
    assert (ended.ended, ended.end_reason, ended.winners) == (True, "trade", ("Lee",))


def test_ms_amb_1_reserve_leaders_count_as_active_unless_the_option() -> None:
    """MS-AMB-1: with the 0-leader in the reserve Kim qualifies by default but not with
    ``reserve_counts_active`` off; with it in her fifth city, active, she qualifies either way;
    an inactive leader in a city spoils it."""
    strict = MSOptions(reserve_counts_active=False)
    assert scoring.has_trade_victory(trade_state(), "Kim") is True
    assert scoring.has_trade_victory(trade_state(strict), "Kim") is False
    assert scoring.has_trade_victory(trade_state(strict, zero="city"), "Kim") is True
    state = trade_state()
    kim = get_player(state, "Kim")
    tired = kim.with_leader(kim.leader(3).__class__(3, "N-NR", False))
    state = GameState(**{**state.__dict__, "players": (tired, *state.players[1:])})
    assert scoring.has_trade_victory(state, "Kim") is False


def test_ms_win_3_timed_game_ends_after_the_round_by_score() -> None:
    """MS-WIN-3: time is called during the round; play goes on to the end of the leader phase,
    and then P wins with 51 against 28 and -5."""
    state = GameState(**{**tv6_state().__dict__, "phase": LEADER, "turn": 0})
    state = phases.call_time(state)
    state = phases.end_turn(state, "R")
    assert state.ended is False
    state = phases.end_turn(phases.end_turn(state, "Q"), "P")
    assert (state.ended, state.end_reason, state.winners) == (True, "timed", ("P",))


def test_ms_win_3_without_time_called_a_new_round_starts() -> None:
    """MS-ROUND-3: nobody wins and no time is called: round 2 opens with the control phase."""
    state = GameState(**{**tv6_state().__dict__, "phase": LEADER, "turn": 2})
    state = phases.end_turn(state, "P")
    assert (state.ended, state.round, state.phase) == (False, 2, CONTROL)


def test_ms_win_1_amb_11_loser_listed_last_and_cannot_win() -> None:
    """MS-WIN-1, MS-AMB-11: P's civil war ends the game; though P's 51 is highest, P is listed
    last and Q wins with 28."""
    state = scoring.end_game(tv6_state(), "civil_war", losers=("P",))
    assert [(s.name, s.score, s.lost) for s in scoring.standings(state)] == [
        ("Q", 28, False), ("R", -5, False), ("P", 51, True),
    ]
    assert state.winners == ("Q",)


def test_ms_amb_11_equal_top_scores_shared_or_by_dominance() -> None:
    """MS-AMB-11: R now holds 2, 3, 4 and 5 with a 3-pier port at unrest 1, tying P at 51: they
    share the win by default; with ``score_tiebreak`` set to dominance, the earlier in dominance
    order (R before P) wins."""
    state = tv6_state()
    r = player("R", CROWNS, "S", king=2, unrest=1)
    sites = {s.space: (s.city.suit, s.city.value) for s in state.sites}
    sites.update({"S-NL": (CROWNS, 2), "S-NR": (CROWNS, 3), "S-FL": (ARMS, 4),
                  "S-FM": (MOONS, 5)})
    roads = [(r_.owner, r_.a, r_.b) for r_ in state.roads if r_.owner != "R"]
    roads += [("R", "S-CAP", "S-NL"), ("R", "S-CAP", "S-NR"), ("R", "S-CAP", "S-FL")]
    tied = game([state.players[0], state.players[1], r], sites, roads=roads,
                ports=[("P", "N-FM", 3), ("R", "S-FM", 3)], order=("R", "Q", "P"))
    assert scoring.calculated_score(tied, "R") == 51
    assert scoring.best_by_score(tied, ["P", "Q", "R"]) == ("R", "P")
    strict = GameState(**{**tied.__dict__, "options": MSOptions(score_tiebreak="dominance")})
    assert scoring.best_by_score(strict, ["P", "Q", "R"]) == ("R",)
