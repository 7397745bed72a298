"""Middle Sea services beyond the web flows: the clock running out, a kingdom renamed in the
middle of a game, the GM closing a turn from the play page, and the locks and ledger lines of
one action."""

from __future__ import annotations

import datetime as dt

from django.urls import reverse
from django.utils import timezone

from campaign import services as core
from campaign.models import Event
from campaign.systems.middle_sea import services as ms
from campaign.systems.middle_sea.models import Game
from ledger.models import LedgerEntry
from tests.ms.conftest import Table


def test_ms_win_3_a_clock_that_ran_out_calls_time_with_the_next_action(table: Table) -> None:
    """MS-WIN-3: once the time limit has passed, the next action calls time in its own event;
    the round is finished and the calculated score decides."""
    table.setup(2)
    start = timezone.now() - dt.timedelta(minutes=61)
    ms.start_clock(table.campaign, table.acting("gm"), 60, now=start)
    assert table.state().time_called is False
    event = ms.end_turn(table.campaign, table.acting("Red"))
    assert "Time is up: this round is the last (MS-WIN-3)." in event.summary
    assert table.state().time_called is True
    for _ in range(2):
        ms.end_turn(table.campaign, table.acting("gm"))
    state = table.state()
    while not state.ended:
        ms.end_turn(table.campaign, table.acting("gm"))
        state = table.state()
    assert (state.round, state.end_reason, state.winners) == (1, "timed", ("Red", "Blue"))


def test_ms_setup_1_a_kingdom_renamed_mid_game_plays_on_under_its_new_name(
        table: Table) -> None:
    """MS-SETUP-1, MS-ROUND-2: the position follows the kingdom's name; its turn, roads and
    ledger carry on."""
    table.setup(2)
    ms.end_turn(table.campaign, table.acting("Red"))
    core.update_kingdom(table.kingdoms["Blue"], table.gm, name="Azure", colour="#0000aa")
    state = table.state()
    assert [p.name for p in state.players] == ["Red", "Azure"]
    assert state.order == ("Red", "Azure")
    event = ms.end_turn(table.campaign, table.acting("Blue"))
    assert event.summary.startswith("Azure ends their control turn.")
    assert Game.objects.get(campaign=table.campaign).state["order"] == ["Red", "Azure"]


def test_ms_round_2_the_gm_ends_a_turn_from_the_play_page(table: Table) -> None:
    """MS-ROUND-2: the core's *close the phase* button ends the turn of the player to act."""
    table.setup(2)
    response = table.client("gm").post(reverse("campaign:advance", args=[table.campaign.slug]),
                                       {"clock": "Round 1, control phase"})
    assert response.status_code == 302
    assert table.state().turn == 1
    assert table.client("Red").post(reverse("campaign:advance",
                                            args=[table.campaign.slug])).status_code == 403


def test_ms_prod_1_production_lines_cite_their_rules(table: Table) -> None:
    """MS-PROD-1, MS-SETUP-6: the Capital's income and the starting reserve are ledger lines
    citing their rules, on the event that caused them."""
    table.setup(2)
    ms.end_turn(table.campaign, table.acting("Red"))
    event = ms.end_turn(table.campaign, table.acting("Blue"))
    lines = LedgerEntry.objects.filter(kingdom=table.kingdoms["Red"]).order_by("pk")
    assert [(e.resource, e.amount, e.rule_id, e.source) for e in lines] == [
        ("goods", 4, "MS-SETUP-6", "starting reserve"),
        ("gold", 4, "MS-SETUP-6", "starting reserve"),
        ("goods", 1, "MS-PROD-1", "Capital"),
        ("gold", 1, "MS-PROD-1", "Capital"),
    ]
    assert lines.last().event_id == event.pk
    assert "Red produces 1 goods and 1 gold." in event.summary
    assert Event.objects.filter(campaign=table.campaign, kind="middle_sea.turn").count() == 2


def test_ms_amb_2_a_house_rule_changed_mid_game_applies_from_the_next_action(
        table: Table) -> None:
    """MS-AMB-2: with *moving makes a leader inactive* switched on in the campaign's settings
    after set-up, the next move leaves the leader inactive."""
    from campaign.models import Campaign

    state = table.setup(2)
    assert state.options.move_inactivates is False
    for _ in range(2):  # control
        ms.end_turn(table.campaign, table.acting("gm"))
    ms.explore(table.campaign, table.acting("Red"), "arms", "N-FL")
    ms.build_road(table.campaign, table.acting("Red"), "N-CAP", "N-FL")
    for _ in range(2):  # build
        ms.end_turn(table.campaign, table.acting("gm"))
    Campaign.objects.filter(pk=table.campaign.pk).update(
        options={**table.campaign.options, "move_inactivates": True})
    table.campaign.refresh_from_db()
    ms.move_leader(table.campaign, table.acting("Red"), 2, "N-FL")
    red = table.state().players[0]
    assert (red.leader(2).place, red.leader(2).active) == ("N-FL", False)
    assert table.state().options.move_inactivates is True


def test_ms_round_2_notifications_know_whose_turn_it_is(table: Table) -> None:
    """MS-ROUND-2, MS-AMB-20: the player to act, then the owner of a rebellion; nobody once
    the game is over or before it is set up."""
    from campaign import notifications
    from campaign.systems.middle_sea.rules.state import Rebellion

    assert notifications.whose_turn(table.campaign) == []
    table.setup(2)
    assert notifications.whose_turn(table.campaign) == [table.kingdoms["Red"].pk]
    ms.end_turn(table.campaign, table.acting("Red"))
    assert notifications.whose_turn(table.campaign) == [table.kingdoms["Blue"].pk]
    game = Game.objects.get(campaign=table.campaign)
    game.state = {**game.state, "rebellion": Rebellion("Red", ()).to_dict()}
    game.save()
    assert notifications.whose_turn(table.campaign) == [table.kingdoms["Red"].pk]
