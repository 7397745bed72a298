"""Seats at a game's table beyond the challenger and the defender (SNS-RES-3, SNS-AMB-10):
taken and given up while the game is set up, refused with the rule once it has begun, twice, or
beyond the table's size; each seat opens its own Stockpile at turn 1 and shares its side's
result."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction

from campaign import chronicle
from campaign.models import Kingdom
from campaign.systems.swords_and_stones import seats
from campaign.systems.swords_and_stones import services as sns
from campaign.systems.swords_and_stones.models import Participant
from campaign.systems.swords_and_stones.state import SnsError
from ledger.models import Balance
from tests.sns.conftest import dump
from tests.sns.fourway import OPENING, SIX, Four, challenge_four, set_up_and_begin, stock

pytestmark = pytest.mark.django_db


def refused(action: Any, message: str) -> None:
    before = dump()
    with pytest.raises(SnsError) as caught:
        action()
    assert str(caught.value) == message
    assert dump() == before


@pytest.fixture
def setting_up(campaign: Any, gm: Any, player: Any, other_player: Any) -> Four:
    return challenge_four(campaign, gm, player, other_player)


def test_sns_res_3_seats_taken_and_given_up_while_the_game_is_set_up(setting_up: Four,
                                                                      monkeypatch: Any) -> None:
    """SNS-RES-3: Green sits on Red's side and gives the seat up again (undone exactly); a
    seat taken twice, a party to the challenge leaving, or a table already full are
    refused."""
    four = setting_up
    c, g, game, k = four.campaign, four.gm, four.game, four.kingdoms
    before = dump()
    assert seats.join_game(c, g, game, k["Green"], seats.CHALLENGER) == \
        "Game 1: Green takes a seat on Red's side (SNS-RES-3)."
    with transaction.atomic():
        chronicle.undo_latest(c, g)
    assert dump() == before
    seats.join_game(c, g, game, k["Green"], seats.CHALLENGER)
    refused(lambda: seats.join_game(c, g, game, k["Green"], seats.DEFENDER),
            "SNS-RES-3: Green already has a seat in game 1.")
    refused(lambda: seats.join_game(c, g, game, k["Gold"], "referee"),
            "SNS-RES-3: a seat is on the challenger's or the defender's side, not 'referee'.")
    refused(lambda: seats.leave_game(c, g, game, k["Blue"]),
            "SNS-GC-4: Blue is a party to the challenge and keeps its seat.")
    monkeypatch.setattr(seats, "MAX_SEATS", 3)
    refused(lambda: seats.join_game(c, g, game, k["Gold"], seats.DEFENDER),
            "SNS-RES-3: game 1 already seats 3 kingdoms.")
    assert seats.leave_game(c, g, game, k["Green"]) == "Game 1: Green gives up its seat."
    assert [p.kingdom.name for p in seats.seat_order(game)] == ["Red", "Blue"]


def test_sns_econ_10_every_seat_opens_its_stockpile_and_the_seats_are_fixed(
        setting_up: Four) -> None:
    """SNS-ECON-10, SNS-PTS-4: at turn 1 each of the four opens its own Stockpile from its own
    supply line (Red 3 wood, Blue 1 gold, Green 3 stone, Gold 2 iron); no seat changes after."""
    four = setting_up
    seats.join_game(four.campaign, four.gm, four.game, four.kingdoms["Green"], seats.CHALLENGER)
    seats.join_game(four.campaign, four.gm, four.game, four.kingdoms["Gold"], seats.DEFENDER)
    set_up_and_begin(four)
    for name, kingdom in four.kingdoms.items():
        assert stock(kingdom) == {r: OPENING[name].get(r, 0) for r in SIX}
        state = Participant.objects.get(game=four.game, kingdom=kingdom).table
        assert (state["turn"], state["phase"], state["units"]) == (1, "harvest",
                                                                   {"VILLAGER": 3, "KING": 1})
    extra = Kingdom.objects.create(campaign=four.campaign, name="Teal", colour="#008888")
    sns.name_king(four.campaign, four.gm, extra, "Tamsin")
    refused(lambda: seats.join_game(four.campaign, four.gm, four.game, extra, seats.DEFENDER),
            "SNS-PTS-4: game 1 has begun; its seats are fixed.")
    refused(lambda: seats.leave_game(four.campaign, four.gm, four.game, four.kingdoms["Gold"]),
            "SNS-PTS-4: game 1 has begun; its seats are fixed.")


def test_sns_amb_10_a_lost_challenge_makes_the_challengers_side_lose(setting_up: Four) -> None:
    """SNS-AMB-10, SNS-PTS-1: Red loses with Green beside it: Blue and Gold gain a Victory
    Point each, Red and Green a Vengeance Point; the Territory stays between Red and Blue."""
    four = setting_up
    seats.join_game(four.campaign, four.gm, four.game, four.kingdoms["Green"], seats.CHALLENGER)
    seats.join_game(four.campaign, four.gm, four.game, four.kingdoms["Gold"], seats.DEFENDER)
    set_up_and_begin(four)
    sns.record_result(four.campaign, four.gm, four.game, "loss", {})
    results = {p.kingdom.name: p.result for p in Participant.objects.filter(game=four.game)}
    assert results == {"Red": "loss", "Blue": "win", "Green": "loss", "Gold": "win"}
    points = {name: dict(Balance.objects.filter(kingdom=k, resource__in=("vp", "ven"))
                         .values_list("resource", "amount")) for name, k in four.kingdoms.items()}
    assert points == {"Red": {"ven": 1}, "Blue": {"vp": 1}, "Green": {"ven": 1},
                      "Gold": {"vp": 1}}


def test_sns_res_3_the_play_page_leads_to_the_seats(setting_up: Four) -> None:
    """SNS-RES-3: while game 1 is set up, Green's play page links to its seats, and the game
    page offers Green a seat on either side (Gold's player is not offered Green)."""
    from django.urls import reverse

    slug = setting_up.campaign.slug
    play = setting_up.client("Green").get(reverse("campaign:play", args=[slug])).content.decode()
    assert f'<a href="/c/{slug}/sns/game/1/">Seats at the table</a>' in play
    page = setting_up.client("Green").get(reverse("sns:game", args=[slug, 1])).content.decode()
    assert "Green joins on the side of" in page and "Take a seat (SNS-RES-3)" in page
    gold = setting_up.client("Gold").get(reverse("sns:game", args=[slug, 1])).content.decode()
    assert "Gold joins on the side of" in gold and "Green joins" not in gold
