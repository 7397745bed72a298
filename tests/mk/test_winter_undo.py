"""Undo of every winter phase change and every winter action puts the map, the armies, the ships
and the ledger back exactly (DESIGN principles 3 and 4): full row dumps before and after."""

from __future__ import annotations

from typing import Any, Callable

import pytest

from battles.models import Army
from campaign.chronicle import undo_latest
from campaign.models import Campaign, Event
from campaign.systems.mighty_kingdoms import winter_services as ws
from campaign.systems.mighty_kingdoms.models import Ship
from campaign.systems.mighty_kingdoms.rules.ledger import Purchase as Buy
from ledger.models import Balance, LedgerEntry
from tests.mk.test_winter_world import (  # noqa: F401 (fixtures)
    World,
    add_armies,
    build_tv3,
    deploy_all,
    dump,
    fixed_dice,
    grant,
    plain_summer,
    settle,
    to_phase,
    tv3,
)

pytestmark = pytest.mark.django_db


def undone_exactly(w: World, action: Callable[[], Any]) -> Event:
    """Run ``action`` (one event), check it changed something, undo it, compare every row."""
    before = dump()
    events = Event.objects.count()
    action()
    assert Event.objects.count() == events + 1
    event = Event.objects.order_by("-seq").first()
    assert dump() != before
    undo_latest(w.fresh(), w.gm, expected_seq=event.seq)
    assert dump() == before
    return event


@pytest.mark.parametrize("key", [ws.RECALL, ws.GATHER, ws.TITHE, ws.BUY, ws.FEED, ws.DEPLOY,
                                 ("summer", "A", "")])
def test_mk_winter_undo_of_each_phase_change_is_exact(tv3: World, fixed_dice: Any,
                                                      key: tuple[str, str, str]) -> None:
    fixed_dice(*[3, 5] * 4)
    order = [("summer", "D", ""), ws.RECALL, ws.GATHER, ws.TITHE, ws.BUY, ws.FEED, ws.DEPLOY,
             ("summer", "A", "")]
    previous = order[order.index(key) - 1]
    if previous != ("summer", "D", ""):
        to_phase(tv3, previous)
    if previous == ws.BUY:
        # Something to book: Red builds, so the ledger has spending to keep through undo.
        ws.buy(tv3.kingdoms["Red"], tv3.gm, Buy("settle", tv3.t("E1"), "village"))
        to_phase(tv3, ws.BUY)
    if previous == ws.FEED:
        # Red feeds two of its three armies: the close removes one and writes off leftovers.
        ws.feed(tv3.kingdoms["Red"], tv3.gm, [1, 3])
    settle(tv3)
    event = undone_exactly(tv3, tv3.advance)
    assert event.kind == "phase.advanced"
    assert tv3.phase() == previous


def test_mk_winter_undo_of_feed_close_restores_unfed_armies_and_leftovers(tv3: World) -> None:
    to_phase(tv3, ws.FEED)
    ws.feed(tv3.kingdoms["Red"], tv3.gm, [2])
    settle(tv3)
    event = undone_exactly(tv3, tv3.advance)
    assert "Red's army #1, #3 went unfed and is removed (MK-WINTER-3)." in event.summary
    assert "Red loses 4 gold and 2 food left unspent (MK-WINTER-4)." in event.summary


def test_mk_winter_undo_of_deploy_close_restores_armies_without_room(gm: Any,
                                                                     plain_summer: None) -> None:
    """MK-AMB-17: Green has room for 4 (capital 3, village 1) and 5 armies; #5 goes at close."""
    w = build_tv3(gm)
    add_armies(w, "Green", 2, 3, 4, 5, tile="G0")
    to_phase(w, ws.FEED)
    grant(w, "Green", food=4)
    ws.feed(w.kingdoms["Green"], gm, [1, 2, 3, 4, 5])
    to_phase(w, ws.DEPLOY)
    deploy_all(w)
    assert w.army_numbers("Green") == [1, 2, 3, 4, 5]
    event = undone_exactly(w, w.advance)
    assert "Green had no room for army #5: removed (MK-AMB-17)." in event.summary
    w.advance()
    assert w.army_numbers("Green") == [1, 2, 3, 4]
    assert Army.objects.get(kingdom=w.kingdoms["Green"], number=5).data["removed"]["rule"] == \
        "MK-AMB-17"


@pytest.mark.parametrize("what", ["village", "city", "fortress", "ship", "recruit", "disband",
                                  "capital"])
def test_mk_buy_undo_of_each_purchase_is_exact(gm: Any, plain_summer: None, what: str) -> None:
    w = build_tv3(gm, blue_holds_c0=what == "capital")
    if what == "disband":
        add_armies(w, "Red", 4, 5, 6)
    to_phase(w, ws.BUY)
    red = w.kingdoms["Red"]
    purchase = {
        "village": Buy("settle", w.t("E1"), "village"),
        "city": Buy("settle", w.t("V1"), "city"),
        "fortress": Buy("settle", w.t("V2"), "fortress"),
        "ship": Buy("ship", w.t("C1")),
        "recruit": Buy("recruit", w.t("F1")),
        "disband": Buy("recruit", w.t("F1"), disband=2),
        "capital": Buy("settle", w.t("C1"), "capital"),
    }[what]
    event = undone_exactly(w, lambda: ws.buy(red, w.users["Red"], purchase))
    assert event.kind == "winter.buy"
    assert LedgerEntry.objects.filter(event=event).count() == 0  # deleted with the undo


def test_mk_winter_undo_of_tithe_pass_feed_recall_and_deploy_is_exact(tv3: World,
                                                                      fixed_dice: Any) -> None:
    red, blue, green = (tv3.kingdoms[n] for n in ("Red", "Blue", "Green"))
    tv3.advance()
    undone_exactly(tv3, lambda: ws.choose_recall(red, tv3.gm, docks={1: tv3.t("C1")}))
    to_phase(tv3, ws.TITHE)
    undone_exactly(tv3, lambda: ws.give_tithe(red, tv3.gm, green.pk, 1, 1))
    undone_exactly(tv3, lambda: ws.pass_turn(red, tv3.gm, "tithe"))
    to_phase(tv3, ws.FEED)
    undone_exactly(tv3, lambda: ws.feed(red, tv3.gm, [1, 2]))
    fixed_dice(2, 6)
    to_phase(tv3, ws.DEPLOY)
    undone_exactly(tv3, lambda: ws.deploy_army(red, tv3.gm, 3, tv3.t("F1")))
    assert Balance.objects.filter(kingdom=blue).exists()
    assert Campaign.objects.get(pk=tv3.campaign.pk).phase == "D"
    assert Army.objects.filter(kingdom=red, tile__isnull=False).count() == 3
    assert Ship.objects.filter(kingdom=red, tile__isnull=False).count() == 1
