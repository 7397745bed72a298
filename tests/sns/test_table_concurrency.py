"""Races at the table of four: real requests from several threads at once, each with its own
client and database connection, as the phones send them. Raced: one trade accepted from two
phones; two trades drawing on the same stone; a trade against the offerer spending the same
wood; every kingdom paying upkeep twice at once; a defender committing its last unit twice; the
survival dice sent twice.

Every request is answered (the table's fragment, or a 409 saying why), never a 500; afterwards
every balance is exactly what the accepted actions make it and equals the sum of its entries,
and the chronicle has one event per accepted action: no resource lost, none made twice.

On PostgreSQL (``DATABASE_URL``) the threads race on the test database and the services' row
locks queue them in the documented order; on SQLite on a file copy of it (``shared_db``), where
whole writing transactions queue. Nothing is skipped on either.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db.models import Sum
from django.urls import reverse

from campaign.models import Campaign, Event
from campaign.systems.swords_and_stones import autoresolve_play as arp
from campaign.systems.swords_and_stones import table, trades
from campaign.systems.swords_and_stones.models import AutoBattle, Participant, Trade
from campaign.systems.swords_and_stones.rules import autoresolve as ar
from ledger.models import Balance, LedgerEntry
from tests.mk.test_winter_concurrency import at_once, client_for, shared_db  # noqa: F401
from tests.sns.fourway import Four, seat_four, stock

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ("Red", "Blue", "Green", "Gold")


@pytest.fixture
def four(shared_db: None, campaign: Campaign, gm: User, player: User,
         other_player: User) -> Four:
    """The table of four on the database the threads share."""
    return seat_four(campaign, gm, player, other_player)


def ledger_exact(four: Four) -> None:
    """Every balance equals the sum of its entries; none is negative; every entry has its
    event."""
    for balance in Balance.objects.filter(kingdom__campaign=four.campaign):
        total = LedgerEntry.objects.filter(kingdom_id=balance.kingdom_id,
                                           resource=balance.resource).aggregate(s=Sum("amount"))
        assert balance.amount == (total["s"] or 0) and balance.amount >= 0
    assert not LedgerEntry.objects.filter(campaign=four.campaign, event__isnull=True).exists()


def to(four: Four, name: str, phase: str) -> None:
    kingdom = four.kingdoms[name]
    while (state := Participant.objects.get(game=four.game, kingdom=kingdom).table)[
            "phase"] != phase:
        if state["phase"] == "compulsory" and state.get("compulsory_done") != state["turn"]:
            table.compulsory(four.campaign, four.gm, four.game, kingdom, {"STOCKPILE": 1})
        table.next_phase(four.campaign, four.gm, four.game, kingdom)


def events(four: Four) -> int:
    return Event.objects.filter(campaign=four.campaign).count()


def statuses(results: list[tuple[int, str]]) -> list[int]:
    found = [status for status, _ in results]
    assert set(found) <= {302, 409}, results
    return found


def answer(four: Four, name: str, trade: Trade) -> tuple[Any, str, dict[str, Any]]:
    url = reverse("sns:trade_answer", args=[four.campaign.slug, 1, four.kingdoms[name].pk,
                                            trade.pk, "accept"])
    return (client_for(four.users[name]), url, {})


def offer(four: Four, frm: str, to_: str, gives: dict[str, int],
          gets: dict[str, int]) -> Trade:
    return trades.offer(four.campaign, four.gm, four.game, four.kingdoms[frm],
                        four.kingdoms[to_], gives, gets, zones_touch=True)


def test_sns_econ_57_one_trade_accepted_from_two_phones(four: Four) -> None:
    """SNS-ECON-57: Green accepts Red's 2 wood for 1 stone from two phones at once: one
    accepts, the other is told it was already accepted; the wood and stone move once."""
    for name in ("Red", "Green"):
        to(four, name, "advance")
    trade = offer(four, "Red", "Green", {"wood": 2}, {"stone": 1})
    count = events(four)
    results = at_once([answer(four, "Green", trade), answer(four, "Green", trade)])
    assert sorted(statuses(results)) == [302, 409]
    refusal = next(body for status, body in results if status == 409)
    assert "SNS-ECON-57: that trade was already accepted." in refusal
    assert (stock(four.kingdoms["Red"])["wood"], stock(four.kingdoms["Red"])["stone"]) == (1, 1)
    assert (stock(four.kingdoms["Green"])["wood"],
            stock(four.kingdoms["Green"])["stone"]) == (2, 2)
    assert events(four) == count + 1
    ledger_exact(four)


def test_sns_econ_3_two_trades_draw_on_the_same_stone(four: Four) -> None:
    """SNS-ECON-3: Green (3 stone) accepts Red's and Gold's offers for 2 stone each at once:
    exactly one goes through; the other is refused for want of stone."""
    for name in ("Red", "Green", "Gold"):
        to(four, name, "advance")
    from_red = offer(four, "Red", "Green", {"wood": 1}, {"stone": 2})
    from_gold = offer(four, "Gold", "Green", {"iron": 1}, {"stone": 2})
    count = events(four)
    results = at_once([answer(four, "Green", from_red), answer(four, "Green", from_gold)])
    found = statuses(results)
    assert sorted(found) == [302, 409]
    refusal = next(body for status, body in results if status == 409)
    assert "you need 1 more stone first" in refusal and "(SNS-ECON-3)" in refusal
    red_won = found[0] == 302
    assert stock(four.kingdoms["Green"]) == {
        "food": 0, "wood": int(red_won), "stone": 1, "iron": int(not red_won), "gold": 0,
        "favor": 0}
    assert stock(four.kingdoms["Red"])["stone"] == (2 if red_won else 0)
    assert stock(four.kingdoms["Gold"])["stone"] == (0 if red_won else 2)
    assert events(four) == count + 1
    ledger_exact(four)


def test_sns_econ_3_a_trade_against_a_spend_of_the_same_wood(four: Four) -> None:
    """SNS-ECON-3: Red offered Green all 3 wood; at the same moment Green accepts and Red
    books a foundation costing 2 wood: one of the two happens, never both."""
    for name in ("Red", "Green"):
        to(four, name, "advance")
    trade = offer(four, "Red", "Green", {"wood": 3}, {})
    spend = (client_for(four.users["Red"]),
             reverse("sns:table_action", args=[four.campaign.slug, 1, four.kingdoms["Red"].pk,
                                               "line"]),
             {"resource": "wood", "amount": "-2", "rule": "SNS-ECON-53", "reason": "Farm"})
    count = events(four)
    results = at_once([answer(four, "Green", trade), spend])
    found = statuses(results)
    assert sorted(found) == [302, 409]
    traded = found[0] == 302
    assert stock(four.kingdoms["Red"])["wood"] == (0 if traded else 1)
    assert stock(four.kingdoms["Green"])["wood"] == (3 if traded else 0)
    assert events(four) == count + 1
    ledger_exact(four)


def test_sns_econ_42_every_kingdom_pays_upkeep_twice_at_once(four: Four) -> None:
    """SNS-ECON-42: all four kingdoms, each with 3 food from its Farms, tap "pay upkeep" for a
    Tavern twice at once: each pays 1 food exactly once; the second tap is told it already
    paid."""
    for name in NAMES:
        table.farm_harvest(four.campaign, four.gm, four.game, four.kingdoms[name], [2, 3, 4])
        table.next_phase(four.campaign, four.gm, four.game, four.kingdoms[name])
    count = events(four)
    requests = []
    for name in NAMES:
        url = reverse("sns:table_action", args=[four.campaign.slug, 1, four.kingdoms[name].pk,
                                                "compulsory"])
        data = {"b_STOCKPILE": "1", "b_TAVERN": "1"}
        requests += [(client_for(four.users[name]), url, data)] * 2
    results = at_once(requests)
    found = statuses(results)
    for i, name in enumerate(NAMES):
        assert sorted(found[2 * i:2 * i + 2]) == [302, 409], name
        refusal = next(body for status, body in results[2 * i:2 * i + 2] if status == 409)
        assert f"SNS-ECON-42: {name} already paid upkeep in turn 1." in refusal
        assert stock(four.kingdoms[name])["food"] == 2
    assert events(four) == count + 4
    ledger_exact(four)


def test_sns_ar_1_the_last_unit_committed_twice_and_the_dice_sent_twice(four: Four) -> None:
    """SNS-AR-1, SNS-AR-2: Blue commits a Knight twice at once: one commit (3 beats Red's 2
    Swords), the other told the battle waits for the dice; then the die sent twice at once: Red's
    Swords are lost once and Blue's Knight (die 2) once."""
    for name in ("Red", "Blue"):
        to(four, name, "move_combat")
    for name, units in (("Red", {"SWORDS": 2}), ("Blue", {"KNIGHTS": 2})):
        part = Participant.objects.get(game=four.game, kingdom=four.kingdoms[name])
        part.table = {**part.table, "units": units}
        part.save()
    battle = arp.begin(four.campaign, four.gm, four.game, four.kingdoms["Red"],
                       four.kingdoms["Blue"], ["SWORDS", "SWORDS"])
    arp.defences(four.campaign, four.gm, four.game, battle.pk, ar.Defences())
    blue = four.kingdoms["Blue"]
    step = reverse("sns:battle_step", args=[four.campaign.slug, 1, blue.pk, battle.pk,
                                            "commit"])
    count = events(four)
    results = at_once([(client_for(four.users["Blue"]), step, {"unit": "KNIGHTS"})] * 2)
    assert sorted(statuses(results)) == [302, 409]
    assert "SNS-AR-1: this battle waits for the survival dice." in next(
        body for status, body in results if status == 409)
    battle.refresh_from_db()
    assert (battle.step, battle.data["committed"]) == ("dice", ["KNIGHTS"])
    dice = reverse("sns:battle_step", args=[four.campaign.slug, 1, blue.pk, battle.pk, "dice"])
    results = at_once([(client_for(four.users["Blue"]), dice, {"dice": "2"})] * 2)
    assert sorted(statuses(results)) == [302, 409]
    units = {p.kingdom.name: p.table["units"] for p in Participant.objects.filter(
        game=four.game, kingdom__name__in=("Red", "Blue"))}
    assert units == {"Red": {}, "Blue": {"KNIGHTS": 1}}
    assert AutoBattle.objects.get().step == "done"
    assert events(four) == count + 2
    ledger_exact(four)
