"""TV-MK-3 played through the winter services on a real campaign, its variant where Blue holds
C0, and the starting kingdom's first winter (MK-WINTER, MK-RECALL, MK-TITHE, MK-BUY, MK-FEED)."""

from __future__ import annotations

from typing import Any

import pytest

from battles.models import Army
from campaign.models import Kingdom, Role
from campaign.systems.mighty_kingdoms import phases, setup
from campaign.systems.mighty_kingdoms import winter_services as ws
from campaign.systems.mighty_kingdoms.models import Purchase, Ship, Tithe
from campaign.systems.mighty_kingdoms.rules.campaign import RuleViolation
from campaign.systems.mighty_kingdoms.rules.ledger import Purchase as Buy
from campaign.systems.mighty_kingdoms.state import load_state
from ledger.models import LedgerEntry
from tests.conftest import add_member, make_campaign, make_user
from tests.mk.test_winter_world import (  # noqa: F401 (fixtures)
    World,
    books_agree,
    build_tv3,
    fixed_dice,
    plain_summer,
    to_phase,
    tv3,
)

pytestmark = pytest.mark.django_db


def lines_of(event: Any, kingdom: Any) -> list[tuple[str, int, str, str]]:
    return [(e.resource, e.amount, e.rule_id, e.source)
            for e in LedgerEntry.objects.filter(event=event, kingdom=kingdom).order_by("pk")]


def test_tv_mk_3_winter_for_red_through_the_services(tv3: World, fixed_dice: Any) -> None:
    w = tv3
    red, blue, green = (w.kingdoms[n] for n in ("Red", "Blue", "Green"))
    gm = w.gm

    # 1. Recall (MK-RECALL-1/4/5): #1-#3 go to C0, #2 leaves S1; S1 waits for Red's choice.
    event = w.advance()
    assert w.phase() == ("winter", "A", "")
    assert w.armies_at("Red") == {1: w.t("C0"), 2: w.t("C0"), 3: w.t("C0")}
    assert Ship.objects.get(kingdom=red).paired_army_id is None
    assert phases.blockers(w.state()) == [
        "Red has to choose where its ships dock (MK-RECALL-5, MK-AMB-18)."]
    assert "Now: Year 1, winter, A) Recall." in event.summary
    ws.choose_recall(red, w.users["Red"], docks={1: w.t("C0")})
    assert Ship.objects.get(kingdom=red).tile.label == w.t("C0")
    assert phases.blockers(w.state()) == []

    # 2. Gather (MK-WINTER-2): food = 3 villages = 3; gold = 3 cities + own capital = 4.
    w.advance()
    forecast = ws.forecast(w.state(), red.pk)
    event = w.advance()
    assert w.phase() == ("winter", "C", "tithe")
    assert w.stock("Red") == (4, 3)
    assert lines_of(event, red) == [
        (line.resource, line.amount, line.rule_id, line.source) for line in forecast]
    assert lines_of(event, red)[:2] == [
        ("gold", 1, "MK-AMB-2", f"own capital at {w.t('C0')}, as a city"),
        ("gold", 1, "MK-WINTER-2", f"own capital at {w.t('C0')}")]
    assert "Red gathers 4 gold and 3 food (MK-WINTER-2)." in event.summary

    # 3. Tithe: Red gives Green 1 gold; Blue gives Red 1 food. Red now 3 g, 4 f.
    ws.give_tithe(red, gm, green.pk, 1, 0)
    ws.give_tithe(blue, w.users["Blue"], red.pk, 0, 1)
    for kingdom in (green, red, blue):
        ws.pass_turn(kingdom, gm, "tithe")
    assert w.stock("Red") == (3, 4)
    assert phases.blockers(w.state()) == []
    assert Tithe.objects.filter(campaign=w.campaign).count() == 2
    w.advance()
    assert w.phase() == ("winter", "C", "buy")

    # 4. Build and recruit, interleaved with the others' passes.
    ws.buy(red, w.users["Red"], Buy("recruit", w.t("F1")))
    four = Army.objects.get(kingdom=red, number=4)
    assert (four.points, four.tile.label) == (500, w.t("F1"))
    assert w.stock("Red") == (2, 4)
    ws.pass_turn(blue, gm, "buy")
    ws.pass_turn(green, gm, "buy")
    ws.buy(red, w.users["Red"], Buy("ship", w.t("C1")))
    assert w.stock("Red") == (1, 4)
    assert sorted(Ship.objects.filter(kingdom=red).values_list("number", "tile__label")) == [
        (1, w.t("C0")), (2, w.t("C1"))]
    ws.pass_turn(blue, gm, "buy")
    ws.pass_turn(green, gm, "buy")
    ws.buy(red, w.users["Red"], Buy("settle", w.t("E1"), "village"))
    assert w.stock("Red") == (0, 4)
    ws.pass_turn(blue, gm, "buy")
    ws.pass_turn(green, gm, "buy")
    with pytest.raises(RuleViolation, match=r"A ship is already docked at .*MK-SHIPYARD-2"):
        ws.buy(red, w.users["Red"], Buy("ship", w.t("C0")))
    ws.pass_turn(red, gm, "buy")  # Blue, Green, Red: everyone passed in a row (MK-BUY-1)
    assert phases.blockers(w.state()) == []
    assert list(Purchase.objects.filter(kingdom=red).values_list("kind", "gold", "food")) == [
        ("recruit", 1, 0), ("ship", 1, 0), ("settle", 1, 0)]
    spent = [(e.amount, e.rule_id, e.source) for e in
             LedgerEntry.objects.filter(kingdom=red, amount__lt=0, season="winter", phase="C")
             .exclude(rule_id="MK-TITHE-1")]
    assert spent == [(-1, "MK-RECRUIT-2", f"army #4 at {w.t('F1')}"),
                     (-1, "MK-SHIPYARD-1", f"ship at {w.t('C1')}"),
                     (-1, "MK-SETTLE-3", f"village at {w.t('E1')}")]
    w.advance()

    # 5. Feed: 4 armies, 4 food -> 0 food. Nothing is lost to MK-WINTER-4.
    ws.feed(red, w.users["Red"], [1, 2, 3, 4])
    ws.feed(blue, w.users["Blue"], [1])
    ws.feed(green, w.users["Green"], [1])
    assert w.stock("Red") == (0, 0)
    fixed_dice(4, 2)  # Blue and Green tie on 1 army each: Blue rolls 4, Green 2.
    event = w.advance()
    assert w.phase() == ("winter", "D", "")
    assert not LedgerEntry.objects.filter(kingdom=red, rule_id="MK-WINTER-4").exists()
    assert lines_of(event, blue) == [("gold", -2, "MK-WINTER-4", "unspent at the end of winter")]
    assert lines_of(event, green) == [("gold", -3, "MK-WINTER-4", "unspent at the end of winter")]
    for name in ("Red", "Blue", "Green"):
        assert w.stock(name) == (0, 0)
    assert books_agree(red, blue, green)
    assert w.army_numbers("Red") == [1, 2, 3, 4]

    # 6. Deploy: new order Red (4), Blue, Green (tie-break 4 v 2); limits C0 3, F1 3, C1 2.
    assert [k.name for k in (w.k("Red"), w.k("Blue"), w.k("Green"))] == ["Red", "Blue", "Green"]
    assert [w.k(n).order_position for n in ("Red", "Blue", "Green")] == [1, 2, 3]
    assert event.dice == [
        {"purpose": "player order tie-break: Blue", "values": [4], "source": "server"},
        {"purpose": "player order tie-break: Green", "values": [2], "source": "server"}]
    state = w.state()
    assert ws.mk.deployment_capacity(state.kingdoms[red.pk], state.map) == {
        w.t("C0"): 3, w.t("C1"): 2, w.t("C2"): 2, w.t("E1"): 1, w.t("F1"): 3,
        w.t("V1"): 1, w.t("V2"): 1, w.t("V3"): 1}

    # Next winter, unchanged, Red would gather 4 food and 4 gold.
    assert ws.eco.totals(ws.forecast(w.state(), red.pk)) == ws.eco.Resources(gold=4, food=4)


def test_tv_mk_3_variant_blue_holds_c0(gm: Any, plain_summer: None) -> None:
    """MK-WINTER-5, MK-RECALL-2: Red gathers 2 gold (C1, C2); Blue 1 gold for C0, no extra."""
    w = build_tv3(gm, blue_holds_c0=True)
    red, blue = w.kingdoms["Red"], w.kingdoms["Blue"]
    w.advance()
    # C1 is Red's only harbour now: S1 docks there with no choice to make.
    assert Ship.objects.get(kingdom=red).tile.label == w.t("C1")
    assert phases.blockers(w.state()) == [
        "Red has to choose where its armies winter (MK-RECALL-2)."]
    with pytest.raises(RuleViolation, match="one of your cities"):
        ws.choose_recall(red, gm, tile=w.t("V1"))
    ws.choose_recall(red, gm, tile=w.t("C2"))
    assert set(w.armies_at("Red").values()) == {w.t("C2")}
    w.advance()
    event = w.advance()
    assert w.stock("Red") == (2, 3)
    assert [line[3] for line in lines_of(event, red) if line[0] == "gold"] == [
        f"city at {w.t('C1')}", f"city at {w.t('C2')}"]
    assert w.stock("Blue") == (3, 2)
    assert ("gold", 1, "MK-WINTER-5", f"captured capital at {w.t('C0')}") in lines_of(event, blue)


def test_tv_mk_3_starting_kingdom_first_winter_gathers_3_gold_2_food(
    gm: Any, plain_summer: None
) -> None:
    """MK-SETUP-4, MK-WINTER-2: capital, 1 city, 1 fortress, 2 villages -> 3 gold, 2 food.

    The kingdoms are set up through the setup services, then the clock jumps to the end of
    summer month 6."""
    campaign = make_campaign(gm, slug="first-winter", width=12, height=10, seed=11)
    players = []
    for name, colour in (("Red", "#aa0000"), ("Blue", "#0000aa")):
        user = make_user(name.lower())
        kingdom = Kingdom.objects.create(campaign=campaign, name=name, colour=colour,
                                         player=add_member(campaign, user, Role.PLAYER))
        players.append((user, kingdom))
    for user, kingdom in players:
        setup.choose_race(kingdom, user, "Basileans")
    phases.advance(campaign, gm)
    setup.roll_initial_order(campaign, gm, rolls={players[0][1].pk: 6, players[1][1].pk: 2})
    phases.advance(campaign, gm)
    starts = sorted(t.label for t in load_state(campaign).map.tiles if t.is_start)
    for (user, kingdom), start in zip(players, (starts[0], starts[-1])):
        setup.choose_capital(kingdom, user, start)
    phases.advance(campaign, gm)
    for user, kingdom in players:
        state = load_state(campaign)
        near = list(setup.mk.legal_setup_tiles(state.map, state.kingdoms[kingdom.pk].start_tile,
                                               kingdom.pk))
        setup.place_settlements(kingdom, user, city=near[0], fortress=near[1],
                                villages=near[2:4], markers=near[4:6])
    phases.advance(campaign, gm)
    for user, kingdom in players:
        kingdom.refresh_from_db()
        setup.place_first_army(kingdom, user, kingdom.capital_tile.label)
    phases.advance(campaign, gm)
    campaign.refresh_from_db()
    assert (campaign.season, campaign.month, campaign.phase) == ("summer", 1, "A")
    campaign.month, campaign.phase = 6, "D"
    campaign.save()
    phases.advance(campaign, gm)  # into winter A) Recall: the armies are at their capitals
    assert phases.blockers(load_state(campaign)) == []
    phases.advance(campaign, gm)
    phases.advance(campaign, gm)  # Gather closes
    state = load_state(campaign)
    for _, kingdom in players:
        stock = ws.stocks(state)[kingdom.pk]
        assert (stock.gold, stock.food) == (3, 2)


def test_mk_winter_2_forecast_equals_the_booking_for_every_kingdom(tv3: World) -> None:
    """DESIGN principle 4: at the close of Gather the ledger holds exactly the forecast lines."""
    to_phase(tv3, ("winter", "B", ""))
    state = tv3.state()
    forecasts = {pk: ws.forecast(state, pk) for pk in state.order}
    event = tv3.advance()
    for pk, lines in forecasts.items():
        booked = [(e.resource, e.amount, e.rule_id, e.source)
                  for e in LedgerEntry.objects.filter(event=event, kingdom_id=pk).order_by("pk")]
        assert booked == [(line.resource, line.amount, line.rule_id, line.source)
                          for line in lines]
        assert LedgerEntry.objects.filter(kingdom_id=pk).count() == len(lines)
    assert {(e.event_id, e.year, e.season, e.phase) for e in LedgerEntry.objects.all()} == {
        (event.pk, 1, "winter", "B")}


def test_mk_recruit_numbers_never_reuse_a_removed_army_number(tv3: World) -> None:
    """MK-SETUP-6: token and list share a unique number; army #3 removed, the next is #4."""
    to_phase(tv3, ("winter", "C", "buy"))
    red = tv3.kingdoms["Red"]
    state = tv3.state()
    three = next(a for a in state.armies_of(red.pk) if a.number == 3)
    from django.db import transaction

    from campaign.chronicle import Recorder

    with transaction.atomic(), Recorder(state.campaign, tv3.gm, "test.remove", "x") as rec:
        ws.remove_army(rec, state, three.id, "test", "MK-TEST")
    ws.buy(red, tv3.gm, Buy("recruit", tv3.t("F1")))
    assert tv3.army_numbers("Red") == [1, 2, 4]
