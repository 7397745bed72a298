"""Swords & Stones Grand Campaign: challenges, the outcome matrix, compensation and capitals
(SNS-GC-4..8, SNS-GC-10, SNS-CAP-1..4, SNS-AMB-4..13) and the worked example D.2."""

from __future__ import annotations

import pytest

from campaign.systems.swords_and_stones.rules import grand_campaign as gc
from campaign.systems.swords_and_stones.rules import points as pts
from tests.sns.test_gc_map import D2_START, campaign, d2_start, player, sq, view


def play(
    state: gc.CampaignState,
    challenger: str,
    target: str,
    defender: str | None,
    result: str,
    options: gc.Options = gc.DEFAULT_OPTIONS,
    **kwargs: object,
) -> gc.ChallengeOutcome:
    challenge = gc.issue_challenge(state, challenger, sq(target), defender, options)
    return gc.resolve_challenge(state, challenge, result, options, **kwargs)  # type: ignore[arg-type]


# --- SNS-GC-4, SNS-GC-8, SNS-AMB-8: who challenges what, against whom --------------------------


def test_sns_gc_4_players_take_turns_in_seating_order() -> None:
    """SNS-GC-4: challengers rotate in seating order and skip players who have left."""
    state = campaign(3, 3, {**D2_START, "B2": (gc.CAPITAL, "green")},
                     players=(player("red"), player("blue"), player("green")))
    assert gc.next_challenger(state, None) == "red"
    assert gc.next_challenger(state, "red") == "blue"
    assert gc.next_challenger(state, "green") == "red"
    gone = state.with_player(gc.Player("blue", king=gc.King("B"), eliminated=True))
    assert gc.next_challenger(gone, "red") == "green"


def test_sns_amb_8_any_territory_not_your_own() -> None:
    """SNS-GC-4, SNS-AMB-8: by default every Territory not held by the challenger, with no
    adjacency needed; with the house rule only land bordering the challenger's own."""
    state = d2_start()
    assert gc.challenge_targets(state, "red") == tuple(
        sq(t) for t in ("A3", "B2", "B3", "C1", "C2", "C3")
    )
    strict = gc.Options(challenge_requires_adjacency=True)
    assert gc.challenge_targets(state, "red", strict) == (sq("A3"), sq("B2"), sq("C1"))
    with pytest.raises(gc.RuleViolation, match="SNS-AMB-8: .* already yours"):
        gc.issue_challenge(state, "red", sq("A2"), None)
    with pytest.raises(gc.RuleViolation, match="SNS-AMB-8: .* bordering"):
        gc.issue_challenge(state, "red", sq("C3"), "blue", strict)


def test_sns_gc_8_volunteers_or_an_ai_defend_unclaimed_land() -> None:
    """SNS-GC-8, SNS-GC-6a, SNS-AMB-5: for unclaimed land any other player may volunteer
    (neighbour or not) or an AI may play; held land is defended by its holder only. AI
    campaign players volunteer only where AI players may hold land."""
    state = campaign(3, 3, {**D2_START, "B2": (gc.CAPITAL, "green")},
                     players=(player("red"), player("blue"), player("green"),
                              player("orcs", is_ai=True)))
    free = gc.possible_opponents(state, "red", sq("A3"))
    assert free == gc.Opponents(("blue", "green"), volunteers=True, ai_allowed=True)
    ai_members = gc.possible_opponents(state, "red", sq("A3"),
                                       gc.Options(ai_can_hold_territory=True))
    assert ai_members.players == ("blue", "green", "orcs")
    held = gc.possible_opponents(state, "red", sq("C2"))
    assert held == gc.Opponents(("blue",), volunteers=False, ai_allowed=False)
    with pytest.raises(gc.RuleViolation, match="SNS-GC-6: .* must be the opponent"):
        gc.issue_challenge(state, "red", sq("C2"), "green")
    with pytest.raises(gc.RuleViolation, match="SNS-AMB-5"):
        gc.issue_challenge(state, "red", sq("A3"), "orcs")
    with pytest.raises(gc.RuleViolation, match="SNS-GC-8"):
        gc.issue_challenge(state, "red", sq("A3"), "red")


def test_sns_gc_10_map_type_and_mode_are_free() -> None:
    """SNS-GC-10: the game may be played on any map type and mode, whatever the Territory."""
    challenge = gc.issue_challenge(d2_start(), "red", sq("B2"), "blue",
                                   map_type_played="Black Forest", game_mode="Deathmatch")
    assert challenge.map_type_played == "Black Forest"
    assert challenge.game_mode == "Deathmatch"
    assert challenge.row == "SNS-GC-6a"


# --- SNS-GC-6a..6d: the outcome matrix, both sides ----------------------------------------------


def test_sns_gc_6a_unclaimed_win_settles_for_the_challenger() -> None:
    """SNS-GC-6a: the challenger wins unclaimed B2: it becomes settled by the challenger."""
    out = play(d2_start(), "red", "B2", "blue", gc.WIN)
    assert view(out.state)["B2"] == (gc.SETTLED, "red")
    assert (out.winners, out.losers, out.beneficiary) == (("red",), ("blue",), "red")
    assert out.changes[0].rule_id == "SNS-GC-6a"
    assert out.changes[0].cause == "challenge_win"


def test_sns_gc_6a_unclaimed_loss_gives_the_opponent_a_claim() -> None:
    """SNS-GC-6a: the challenger loses unclaimed B2 to a volunteer: Blue claims it."""
    out = play(d2_start(), "red", "B2", "blue", gc.LOSS)
    assert view(out.state)["B2"] == (gc.CLAIMED, "blue")
    assert (out.winners, out.losers, out.beneficiary) == (("blue",), ("red",), "blue")
    assert out.changes[0].cause == "challenge_loss"


def test_sns_amb_5_outside_ai_takes_nothing() -> None:
    """SNS-AMB-5, SNS-GC-6a: losing unclaimed land to an AI outside the campaign leaves it
    unclaimed; only the challenger earns a point (Vengeance)."""
    out = play(d2_start(), "red", "B2", None, gc.LOSS)
    assert out.changes == ()
    assert view(out.state) == view(d2_start())
    assert (out.winners, out.losers) == ((), ("red",))
    won = play(d2_start(), "red", "B2", None, gc.WIN)
    assert view(won.state)["B2"] == (gc.SETTLED, "red")
    assert (won.winners, won.losers) == (("red",), ())


def test_sns_amb_5_ai_players_may_hold_land_by_house_rule() -> None:
    """SNS-AMB-5: with ``ai_can_hold_territory`` an AI campaign player claims what it wins."""
    state = campaign(3, 3, D2_START, players=(player("red"), player("blue"),
                                              player("orcs", is_ai=True)))
    out = play(state, "red", "B2", "orcs", gc.LOSS, gc.Options(ai_can_hold_territory=True))
    assert view(out.state)["B2"] == (gc.CLAIMED, "orcs")
    assert out.winners == ("orcs",)


def test_sns_gc_6b_claimed_win_moves_the_claim() -> None:
    """SNS-GC-6b: Blue wins Red's claimed A2: Blue claims it, Red loses it."""
    out = play(d2_start(), "blue", "A2", "red", gc.WIN)
    assert view(out.state)["A2"] == (gc.CLAIMED, "blue")
    assert gc.holding_count(out.state.map, "red").claimed == 1


def test_sns_gc_6b_claimed_loss_settles_it_for_its_holder() -> None:
    """SNS-GC-6b: Blue loses against Red's claimed A2: Red settles it."""
    out = play(d2_start(), "blue", "A2", "red", gc.LOSS)
    assert view(out.state)["A2"] == (gc.SETTLED, "red")
    assert out.compensation is None


def test_sns_gc_6c_settled_win_becomes_a_claim() -> None:
    """SNS-GC-6c: Blue wins Red's settled B2: it becomes Blue's claim."""
    state = campaign(3, 3, {**D2_START, "B2": (gc.SETTLED, "red")})
    out = play(state, "blue", "B2", "red", gc.WIN)
    assert view(out.state)["B2"] == (gc.CLAIMED, "blue")
    assert out.compensation is None
    assert out.new_capital_for is None


def test_sns_gc_6c_settled_loss_keeps_it_and_offers_compensation() -> None:
    """SNS-GC-6c, SNS-GC-7: Blue loses against Red's settled B2: it stays Red's, and Red is
    offered Blue's nearest claimed land or the 2 nearest unclaimed Territories."""
    state = campaign(3, 3, {**D2_START, "B2": (gc.SETTLED, "red")})
    out = play(state, "blue", "B2", "red", gc.LOSS)
    assert view(out.state)["B2"] == (gc.SETTLED, "red")
    assert out.changes == ()
    offer = out.compensation
    assert offer is not None
    assert (offer.beneficiary, offer.from_player) == ("red", "blue")
    assert offer.claimed_choices == (sq("B3"), sq("C2"))
    assert offer.claimed_distance == 1
    assert offer.unclaimed_required == (sq("A3"), sq("C1"))
    assert offer.unclaimed_count == 2
    assert offer.choices == (gc.TAKE_CLAIMED, gc.STAKE_UNCLAIMED)


def test_sns_gc_6d_capital_win_claims_it_and_forces_a_new_capital() -> None:
    """SNS-GC-6d, SNS-CAP-3: Red takes Blue's Capital C3 as a claim; Blue must name a new
    Capital among its settled or claimed land and loses the fortification."""
    out = play(d2_start(), "red", "C3", "blue", gc.WIN)
    assert view(out.state)["C3"] == (gc.CLAIMED, "red")
    assert out.new_capital_for == "blue"
    assert out.capital_choices == (sq("B3"), sq("C2"))
    assert out.state.player("blue").capital_fortified is False
    assert gc.capital_of(out.state.map, "blue") is None


def test_sns_gc_6d_capital_loss_keeps_it_with_compensation() -> None:
    """SNS-GC-6d, SNS-CAP-1: a Capital defended successfully stays; the defender gets the same
    compensation as for settled land."""
    out = play(d2_start(), "red", "C3", "blue", gc.LOSS)
    assert view(out.state)["C3"] == (gc.CAPITAL, "blue")
    offer = out.compensation
    assert offer is not None
    assert offer.claimed_choices == (sq("A2"), sq("B1"))
    assert offer.claimed_distance == 3
    assert offer.unclaimed_required == ()
    assert offer.unclaimed_tied == (sq("A3"), sq("B2"), sq("C1"))
    assert offer.unclaimed_count == 2


def test_sns_gc_6_stale_challenge_and_bad_result_are_refused() -> None:
    """SNS-GC-6, SNS-RES-5: a challenge resolves against the land as it was issued, and a game
    ends in a win, a loss or a draw."""
    state = d2_start()
    challenge = gc.issue_challenge(state, "red", sq("B2"), "blue")
    with pytest.raises(gc.RuleViolation, match="SNS-RES-5"):
        gc.resolve_challenge(state, challenge, "victory")
    moved = state.with_map(state.map.with_holdings({sq("B2"): gc.Holding(gc.CLAIMED, "blue")}))
    with pytest.raises(gc.RuleViolation, match="SNS-GC-6: .* changed"):
        gc.resolve_challenge(moved, challenge, gc.WIN)


# --- SNS-AMB-4, SNS-AMB-9, SNS-AMB-10 -----------------------------------------------------------


def test_sns_amb_4_beneficiary_may_decline() -> None:
    """SNS-AMB-4: by default the outcome applies unless its beneficiary declines; the points
    are earned either way."""
    out = play(d2_start(), "red", "B2", "blue", gc.WIN, decline=True)
    assert out.declined is True
    assert out.changes == ()
    assert out.state.map.holding(sq("B2")) == gc.Holding()
    assert (out.winners, out.losers) == (("red",), ("blue",))


def test_sns_amb_4_optional_outcomes_need_an_answer() -> None:
    """SNS-AMB-4: with ``outcomes_optional`` the beneficiary must say yes or no."""
    optional = gc.Options(outcomes_optional=True)
    with pytest.raises(gc.RuleViolation, match="SNS-AMB-4: in this campaign blue must say"):
        play(d2_start(), "blue", "A2", "red", gc.WIN, optional)
    taken = play(d2_start(), "blue", "A2", "red", gc.WIN, optional, decline=False)
    assert view(taken.state)["A2"] == (gc.CLAIMED, "blue")
    left = play(d2_start(), "blue", "A2", "red", gc.WIN, optional, decline=True)
    assert view(left.state)["A2"] == (gc.CLAIMED, "red")


def test_sns_amb_9_draw_changes_nothing() -> None:
    """SNS-AMB-9, SNS-RES-4: a drawn challenge changes no land and names no winner or loser;
    the players who drew are listed for a draw house rule."""
    out = play(d2_start(), "red", "C3", "blue", gc.DRAW)
    assert out.draw is True
    assert out.changes == ()
    assert (out.winners, out.losers, out.drawn) == ((), (), ("red", "blue"))
    assert out.compensation is None
    assert view(out.state) == view(d2_start())


def test_sns_amb_10_more_sides_earn_points_land_passes_between_two() -> None:
    """SNS-AMB-10, SNS-RES-3: in a bigger game every winner and loser counts for points; the
    land passes only between challenger and defender."""
    state = campaign(3, 3, {**D2_START, "B2": (gc.CAPITAL, "green")},
                     players=(player("red"), player("blue"), player("green")))
    out = play(state, "red", "C2", "blue", gc.WIN, also_lost=("green",))
    assert (out.winners, out.losers) == (("red",), ("blue", "green"))
    assert [c.territory for c in out.changes] == [sq("C2")]
    assert view(out.state)["B2"] == (gc.CAPITAL, "green")


# --- SNS-GC-7, SNS-AMB-6, SNS-AMB-7: compensation ----------------------------------------------


def test_sns_gc_7_take_the_nearest_claim_tie_is_the_defenders_pick() -> None:
    """SNS-GC-7, SNS-AMB-6: with two claims at the same distance the defender names one."""
    state = campaign(3, 3, {**D2_START, "B2": (gc.SETTLED, "red")})
    out = play(state, "blue", "B2", "red", gc.LOSS)
    offer = out.compensation
    assert offer is not None
    with pytest.raises(gc.RuleViolation, match="SNS-GC-7: take exactly one"):
        gc.apply_compensation(out.state, offer, gc.TAKE_CLAIMED)
    after, changes = gc.apply_compensation(out.state, offer, gc.TAKE_CLAIMED, [sq("C2")])
    assert view(after)["C2"] == (gc.CLAIMED, "red")
    assert changes[0].before == gc.Holding(gc.CLAIMED, "blue")
    assert changes[0].cause == "compensation"


def test_sns_gc_7_only_claimed_land_can_be_taken() -> None:
    """SNS-GC-7: never the challenger's settled land or Capital, however near."""
    state = campaign(3, 3, {
        "A1": (gc.CAPITAL, "red"), "B2": (gc.SETTLED, "red"),
        "B1": (gc.SETTLED, "blue"), "C1": (gc.CAPITAL, "blue"), "C3": (gc.CLAIMED, "blue"),
    })
    out = play(state, "blue", "B2", "red", gc.LOSS)
    offer = out.compensation
    assert offer is not None
    assert offer.claimed_choices == (sq("C3"),)
    assert offer.claimed_distance == 2
    after, _ = gc.apply_compensation(out.state, offer, gc.TAKE_CLAIMED)
    assert view(after)["C3"] == (gc.CLAIMED, "red")


def test_sns_amb_6_tied_unclaimed_are_picked_by_the_defender() -> None:
    """SNS-AMB-6, SNS-GC-7: the nearest unclaimed land fills first; a tie at the edge is the
    defender's pick."""
    state = campaign(3, 3, {"B2": (gc.CAPITAL, "red"), "C3": (gc.CAPITAL, "blue")})
    out = play(state, "blue", "B2", "red", gc.LOSS)
    offer = out.compensation
    assert offer is not None
    assert offer.unclaimed_required == ()
    assert offer.unclaimed_tied == (sq("A2"), sq("B1"), sq("B3"), sq("C2"))
    assert offer.choices == (gc.STAKE_UNCLAIMED,)
    with pytest.raises(gc.RuleViolation, match="SNS-GC-7: stake 2 .* pick 2 of"):
        gc.apply_compensation(out.state, offer, gc.STAKE_UNCLAIMED, [sq("A2")])
    with pytest.raises(gc.RuleViolation, match="SNS-GC-7: stake 2"):
        gc.apply_compensation(out.state, offer, gc.STAKE_UNCLAIMED, [sq("A2"), sq("A1")])
    after, changes = gc.apply_compensation(out.state, offer, gc.STAKE_UNCLAIMED,
                                           [sq("C2"), sq("B3")])
    assert [c.territory for c in changes] == [sq("B3"), sq("C2")]
    assert view(after)["B3"] == (gc.CLAIMED, "red")
    assert view(after)["C2"] == (gc.CLAIMED, "red")
    with pytest.raises(gc.RuleViolation, match="SNS-GC-7: that compensation is not possible"):
        gc.apply_compensation(out.state, offer, gc.TAKE_CLAIMED, [sq("C3")])


def test_sns_amb_7_fewer_than_two_unclaimed_or_none_at_all() -> None:
    """SNS-AMB-7: with one unclaimed Territory left only that one is staked; with no claimed
    land and nothing unclaimed there is no compensation; declining takes nothing."""
    state = campaign(2, 2, {"A1": (gc.CAPITAL, "red"), "B1": (gc.SETTLED, "red"),
                            "B2": (gc.CAPITAL, "blue")})
    out = play(state, "blue", "B1", "red", gc.LOSS)
    offer = out.compensation
    assert offer is not None
    assert offer.unclaimed_count == 1
    assert offer.unclaimed_required == (sq("A2"),)
    assert offer.choices == (gc.STAKE_UNCLAIMED,)
    after, changes = gc.apply_compensation(out.state, offer, gc.STAKE_UNCLAIMED)
    assert view(after)["A2"] == (gc.CLAIMED, "red")
    same, none = gc.apply_compensation(out.state, offer, None)
    assert (same, none) == (out.state, ())
    full = campaign(2, 1, {"A1": (gc.CAPITAL, "red"), "B1": (gc.CAPITAL, "blue")})
    out = play(full, "blue", "A1", "red", gc.LOSS)
    assert out.compensation is not None
    assert out.compensation.choices == ()
    with pytest.raises(gc.RuleViolation, match="none is"):
        gc.apply_compensation(out.state, out.compensation, gc.STAKE_UNCLAIMED)


# --- SNS-CAP-1..4 -------------------------------------------------------------------------------


def test_sns_cap_2_fortified_capital_gets_gates_and_walls() -> None:
    """SNS-CAP-1, SNS-CAP-2, SNS-AMB-11: a fortified Capital defends with 2 Stone Gates and 12
    Stone Wall sections, all 10 HP; other land and an unfortified Capital get nothing."""
    state = d2_start()
    challenge = gc.issue_challenge(state, "red", sq("C3"), "blue")
    assert challenge.capital_advantage is True
    assert [(f.building, f.count, f.hp) for f in gc.fortifications(challenge)] == [
        ("Stone Gate", 2, 10), ("Stone Wall", 12, 10),
    ]
    assert gc.fortifications(gc.issue_challenge(state, "red", sq("C2"), "blue")) == ()
    weak = state.with_player(gc.Player("blue", king=gc.King("B"), capital_fortified=False))
    assert gc.fortifications(gc.issue_challenge(weak, "red", sq("C3"), "blue")) == ()


def test_sns_cap_3_new_capital_and_fortification_back_after_any_win() -> None:
    """SNS-CAP-3, SNS-AMB-12, SNS-AMB-3: the new Capital comes from the player's own settled or
    claimed land (a claim becomes a Capital, counting as settled); any later win fortifies it
    again."""
    out = play(d2_start(), "red", "C3", "blue", gc.WIN)
    with pytest.raises(gc.RuleViolation, match="SNS-CAP-3: the new Capital must be"):
        gc.name_new_capital(out.state, "blue", sq("A2"))
    state, change = gc.name_new_capital(out.state, "blue", sq("B3"))
    assert change.after == gc.Holding(gc.CAPITAL, "blue")
    assert change.rule_id == "SNS-CAP-3"
    assert gc.holding_count(state.map, "blue").settled_total == 1
    with pytest.raises(gc.RuleViolation, match="still has a Capital"):
        gc.name_new_capital(state, "blue", sq("C2"))
    assert gc.issue_challenge(state, "red", sq("B3"), "blue").capital_advantage is False
    won = play(state, "blue", "A1", "red", gc.WIN)
    assert won.state.player("blue").capital_fortified is True


def test_sns_cap_4_last_land_lost_eliminates_by_default() -> None:
    """SNS-CAP-4, SNS-AMB-13: losing the Capital with no other land ends the campaign for the
    player; with ``rejoin_as_new`` they come back as a new player."""
    state = campaign(3, 1, {"A1": (gc.CAPITAL, "red"), "C1": (gc.CAPITAL, "blue")})
    out = play(state, "red", "C1", "blue", gc.WIN)
    assert out.last_land_lost == "blue"
    assert out.rejoin is False
    assert out.new_capital_for is None
    assert out.state.player("blue").eliminated is True
    assert [p.id for p in out.state.active()] == ["red"]
    with pytest.raises(gc.RuleViolation, match="SNS-CAP-4"):
        gc.issue_challenge(out.state, "blue", sq("A1"), "red")
    again = play(state, "red", "C1", "blue", gc.WIN,
                 gc.Options(on_last_territory_lost=gc.REJOIN_AS_NEW))
    assert (again.last_land_lost, again.rejoin) == ("blue", True)


# --- D.2: a whole challenge sequence ------------------------------------------------------------


def test_d2_challenge_sequence_on_a_3x3_map() -> None:
    """D.2 (SNS-GC-3, SNS-GC-5, SNS-GC-6a..6d, SNS-GC-7, SNS-CAP-2, SNS-CAP-3, SNS-PTS-1): six
    games between Red and Blue, the land after each and the points after each."""
    state = d2_start()
    ledger: list[pts.PointsEntry] = []

    def game(challenger: str, target: str, defender: str, result: str) -> gc.ChallengeOutcome:
        nonlocal state
        out = play(state, challenger, target, defender, result)
        ledger.extend(pts.game_points(out.winners, out.losers, out.drawn))
        state = out.state
        return out

    def score() -> tuple[int, int, int, int]:
        red, blue = pts.balance(ledger, "red"), pts.balance(ledger, "blue")
        return red.vp, blue.vp, red.ven, blue.ven

    game("red", "B2", "blue", gc.WIN)
    assert view(state)["B2"] == (gc.SETTLED, "red")
    assert score() == (1, 0, 0, 1)
    game("blue", "A2", "red", gc.WIN)
    assert view(state)["A2"] == (gc.CLAIMED, "blue")
    assert score() == (1, 1, 1, 1)
    game("red", "C2", "blue", gc.LOSS)
    assert view(state)["C2"] == (gc.SETTLED, "blue")
    assert score() == (1, 2, 2, 1)
    out = game("blue", "B2", "red", gc.LOSS)
    assert view(state)["B2"] == (gc.SETTLED, "red")
    offer = out.compensation
    assert offer is not None
    assert set(offer.claimed_choices) == {sq("A2"), sq("B3")}
    assert offer.claimed_distance == 1
    assert offer.unclaimed_required == (sq("A3"), sq("C1"))
    state, _ = gc.apply_compensation(state, offer, gc.STAKE_UNCLAIMED)
    assert view(state)["A3"] == (gc.CLAIMED, "red")
    assert view(state)["C1"] == (gc.CLAIMED, "red")
    assert score() == (2, 2, 2, 2)
    challenge = gc.issue_challenge(state, "red", sq("C3"), "blue")
    assert [(f.building, f.count) for f in gc.fortifications(challenge)] == [
        ("Stone Gate", 2), ("Stone Wall", 12),
    ]
    out = game("red", "C3", "blue", gc.WIN)
    assert view(state)["C3"] == (gc.CLAIMED, "red")
    assert set(out.capital_choices) == {sq("C2"), sq("A2"), sq("B3")}
    state, _ = gc.name_new_capital(state, "blue", sq("C2"))
    assert state.player("blue").capital_fortified is False
    assert score() == (3, 2, 2, 3)
    game("blue", "C1", "red", gc.WIN)
    assert view(state)["C1"] == (gc.CLAIMED, "blue")
    assert state.player("blue").capital_fortified is True
    assert score() == (3, 3, 3, 3)
    assert view(state) == {
        "A1": (gc.CAPITAL, "red"), "B1": (gc.CLAIMED, "red"), "C1": (gc.CLAIMED, "blue"),
        "A2": (gc.CLAIMED, "blue"), "B2": (gc.SETTLED, "red"), "C2": (gc.CAPITAL, "blue"),
        "A3": (gc.CLAIMED, "red"), "B3": (gc.CLAIMED, "blue"), "C3": (gc.CLAIMED, "red"),
    }
    assert sum(e.delta for e in ledger if e.currency == pts.VP) == 6
    assert sum(e.delta for e in ledger if e.currency == pts.VEN) == 6
