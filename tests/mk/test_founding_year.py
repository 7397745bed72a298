"""A new Mighty Kingdoms campaign founded and played through its first year on the web pages,
as a GM and three players (the demo campaign's year is ``test_full_year``).

Setup, six summer months (the first explores, the rest defend) and a winter (recall, gather,
tithes, building, feeding, deployment), then the second year opens. After each phase the map,
the ledgers and the chronicle are checked. Cites MK-SETUP, MK-YEAR, MK-ORD, MK-RES, MK-EXP,
MK-REFORM, MK-PORDER, MK-WINTER, MK-TITHE, MK-BUY, MK-FEED, MK-DEPLOY.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from battles.models import Army
from campaign.models import Campaign, Event, Invitation, Kingdom, Role
from campaign.systems.mighty_kingdoms import phases, summer_orders
from campaign.systems.mighty_kingdoms import winter_services as ws
from campaign.systems.mighty_kingdoms.rules import campaign as mk
from campaign.systems.mighty_kingdoms.state import load_state
from ledger.models import Balance, LedgerEntry
from tests.conftest import make_user

pytestmark = pytest.mark.django_db

PLAYERS = (("ann", "Aldmark", "#b3261e"), ("ben", "Bluereach", "#1f5fa8"),
           ("cat", "Catmoor", "#2e7d32"))


def ok(response: Any) -> Any:
    assert response.status_code in (200, 302), (response.status_code, response.content[:800])
    return response


def fresh(campaign: Campaign) -> Campaign:
    return Campaign.objects.get(pk=campaign.pk)


class Table:
    """The GM and three players, each with their own logged-in browser."""

    def __init__(self) -> None:
        self.gm_user = make_user("gm-full")
        self.gm = Client()
        self.gm.force_login(self.gm_user)
        self.players: dict[str, Client] = {}
        for username, _name, _colour in PLAYERS:
            client = Client()
            client.force_login(make_user(username))
            self.players[username] = client
        self.campaign: Campaign | None = None
        self.by_kingdom: dict[int, Client] = {}

    def url(self, name: str, *args: Any) -> str:
        assert self.campaign is not None
        return reverse(name, args=[self.campaign.slug, *args])

    def client_for(self, kingdom_id: int) -> Client:
        return self.by_kingdom[kingdom_id]

    def state(self) -> Any:
        self.campaign = fresh(self.campaign)
        return load_state(self.campaign)

    def turn(self) -> int | None:
        state = self.state()
        handler = phases.handler_for(state.campaign)
        return handler.turn(state) if handler.turn else None

    def advance(self) -> Event:
        before = Event.objects.filter(campaign=self.campaign).count()
        ok(self.gm.post(self.url("campaign:advance")))
        events = Event.objects.filter(campaign=self.campaign)
        assert events.count() == before + 1
        latest = events.order_by("-seq").first()
        assert latest.kind == "phase.advanced"
        return latest

    def pages_work(self) -> None:
        for client in (self.gm, *self.players.values()):
            ok(client.get(self.url("campaign:play")))
            ok(client.get(self.url("campaign:map")))
            ok(client.get(self.url("campaign:chronicle")))
        for kingdom_id, client in self.by_kingdom.items():
            ok(client.get(self.url("campaign:kingdom", kingdom_id)))


def found_campaign(table: Table) -> None:
    response = ok(table.gm.post(reverse("campaign:create"), {
        "name": "Full Year", "slug": "full-year", "rule_system": "mighty-kingdoms",
        "width": 14, "height": 10, "orientation": "flat", "random_map": "on", "seed": "4242",
    }))
    assert response.status_code == 302
    table.campaign = Campaign.objects.get(slug="full-year")
    for username, name, colour in PLAYERS:
        ok(table.gm.post(table.url("campaign:invite"), {"role": Role.PLAYER, "single_use": "on"}))
        invitation = Invitation.objects.filter(campaign=table.campaign).order_by("-pk").first()
        client = table.players[username]
        ok(client.post(reverse("join", args=[invitation.token])))
        ok(client.post(table.url("campaign:kingdom_create"), {"name": name, "colour": colour}))
        kingdom = Kingdom.objects.get(campaign=table.campaign, name=name)
        table.by_kingdom[kingdom.pk] = client


def play_setup(table: Table) -> None:
    for kingdom_id, client in table.by_kingdom.items():
        ok(client.post(table.url("mk:setup_race"), {"race": f"Folk {kingdom_id}"}))
    table.advance()
    ok(table.gm.post(table.url("mk:setup_order"), {"source": "server"}))
    table.advance()
    while (turn := table.turn()) is not None:
        state = table.state()
        start = mk.legal_start_tiles(state.map)[0]
        ok(table.client_for(turn).post(table.url("mk:setup_capital"), {"tile": start}))
    table.advance()
    while (turn := table.turn()) is not None:
        state = table.state()
        tiles = mk.legal_setup_tiles(state.map, state.kingdoms[turn].start_tile, turn)
        kinds = ["city", "fortress", "village", "village", "marker", "marker"]
        data: dict[str, Any] = {"tiles": list(tiles)}
        data.update({f"place_{label}": kind for label, kind in zip(tiles, kinds)})
        ok(table.client_for(turn).post(table.url("mk:setup_settle"), data))
    table.advance()
    while (turn := table.turn()) is not None:
        state = table.state()
        ok(table.client_for(turn).post(table.url("mk:setup_army"),
                                       {"tile": state.kingdoms[turn].capital_tile}))
    table.advance()


def explore_target(state: Any, mover: Any, taken: set[str]) -> str | None:
    """An unexplored legal neighbour if there is one (MK-RES-4), else an empty own tile that
    borders unexplored land, so the next month can explore; never a tile someone stands on or
    is heading for."""
    occupied = {a.tile for a in state.armies} | {s.tile for s in state.ships} | taken
    legal = [label for label in mk.legal_move_destinations(mover, state.map, state.options)
             if label not in occupied]
    for label in legal:
        if not state.map.tile(label).explored:
            return label
    for label in legal:
        tile = state.map.tile(label)
        if tile.controller == mover.kingdom and any(
            state.map.get(n) is not None and not state.map.tile(n).explored
            for n in tile.neighbours
        ):
            return label
    return None


def play_month(table: Table, explore: bool) -> dict[int, str]:
    """Returns the tiles each kingdom explored this month."""
    """Orders (explore or defend), resolution with typed dice, no battles, reform."""
    moved: dict[int, str] = {}
    taken: set[str] = set()
    unexplored_before = {t.label for t in table.state().map.tiles if not t.explored}
    while (turn := table.turn()) is not None:
        state = table.state()
        mover = summer_orders.unordered(state)[turn][0]
        target = explore_target(state, mover, taken) if explore else None
        if target and not mover.on_side:
            taken.add(target)
            moved[turn] = target
            data = {"token": mover.key, "kind": mk.MOVE, "target": target}
        elif mover.on_side:
            data = {"token": mover.key, "kind": mk.REGROUP}
        else:
            data = {"token": mover.key, "kind": mk.DEFEND}
        ok(table.client_for(turn).post(table.url("mk:summer_order"), data))
    # Sealed orders (MK-ORD-1, sealed_orders): each player's play page lists its own orders
    # and none of another kingdom's; the GM's lists them all.
    names = {pk: Kingdom.objects.get(pk=pk).name for pk in table.by_kingdom}
    gm_page = ok(table.gm.get(table.url("campaign:play"))).content.decode()
    for pk, client in table.by_kingdom.items():
        page = ok(client.get(table.url("campaign:play"))).content.decode()
        assert f"<strong>{names[pk]}</strong>, " in page
        assert f"<strong>{names[pk]}</strong>, " in gm_page
        for other, name in names.items():
            if other != pk:
                assert f"<strong>{name}</strong>, " not in page
    table.advance()
    while (turn := table.turn()) is not None:
        order = summer_orders.unresolved(table.state())[turn][0]
        ok(table.client_for(turn).post(table.url("mk:summer_resolve"),
                                       {"order": order.pk, "d1": "4", "d2": "4"}))
    table.advance()
    explored: dict[int, str] = {}
    for kingdom_id, label in moved.items():
        tile = table.state().map.tile(label)
        assert (tile.explored, tile.controller) == (True, kingdom_id)  # MK-RES-4/5
        if label in unexplored_before:
            # TV-MK-5 / MK-EXP-1: 4+4 = 8 explores a village for the mover (MK-EXP-2).
            assert tile.settlement == "village"
            explored[kingdom_id] = label
    assert phases.blockers(table.state()) == []  # MK-BSEL-5: no contested tile, no battle
    table.advance()
    table.advance()  # Reform closes: terrain, ownership, the new player order (MK-PORDER-1)
    return explored


def test_mk_a_new_campaign_is_founded_and_plays_its_first_year_through_the_web_pages() -> None:
    table = Table()
    found_campaign(table)
    play_setup(table)
    campaign = fresh(table.campaign)
    assert (campaign.year, campaign.season, campaign.month, campaign.phase) == (1, "summer", 1, "A")
    assert Army.objects.filter(campaign=campaign).count() == 3
    table.pages_work()

    villages: dict[int, int] = {pk: 0 for pk in table.by_kingdom}
    for month in range(1, 7):
        assert fresh(table.campaign).month == month
        for pk in play_month(table, explore=month <= 3):
            villages[pk] += 1
        table.pages_work()
    assert sum(villages.values()) >= 1
    campaign = fresh(table.campaign)
    assert (campaign.season, campaign.phase) == ("winter", "A")  # MK-YEAR-4
    table.pages_work()

    # A) Recall: every army is on its own capital (MK-RECALL-1).
    state = table.state()
    for army in state.armies:
        assert army.tile == state.kingdoms[army.kingdom].capital_tile
    forecasts = {pk: ws.forecast(state, pk) for pk in state.kingdoms}
    table.advance()
    # B) Gather: the booked lines are exactly the forecast lines (MK-WINTER-2).
    table.advance()
    for pk, lines in forecasts.items():
        booked = sorted(LedgerEntry.objects.filter(kingdom_id=pk)
                        .values_list("resource", "amount", "rule_id", "source"))
        assert booked == sorted((line.resource, line.amount, line.rule_id, line.source)
                                for line in lines)
        # The starting kingdom gathers 3 gold and 2 food (TV-MK-3), plus a food per village
        # explored this summer.
        gold = Balance.objects.get(kingdom_id=pk, resource="gold").amount
        food = Balance.objects.get(kingdom_id=pk, resource="food").amount
        assert (gold, food) == (3, 2 + villages[pk])
    table.pages_work()

    # C.1) Tithe: everybody passes once in turn; the cycle closes (MK-TITHE-5).
    while (turn := table.turn()) is not None:
        ok(table.client_for(turn).post(table.url("mk:winter_pass"), {"sub": mk.SUB_TITHE}))
    table.advance()
    # C.2) Build and recruit: each kingdom turns a control-marker tile into a village for 1 gold
    # (MK-SETTLE-3), then everybody passes.
    built: set[int] = set()
    while (turn := table.turn()) is not None:
        client = table.client_for(turn)
        if turn not in built:
            state = table.state()
            empty = next(t.label for t in state.map.controlled_by(turn) if not t.settlement)
            ok(client.post(table.url("mk:winter_buy"),
                           {"kind": "settle", "tile": empty, "to": "village"}))
            built.add(turn)
        else:
            ok(client.post(table.url("mk:winter_pass"), {"sub": mk.SUB_BUY}))
    for pk in table.by_kingdom:
        assert Balance.objects.get(kingdom_id=pk, resource="gold").amount == 2
    table.advance()
    # C.3) Feed: one army each, one food each (MK-FEED-1).
    for pk, client in table.by_kingdom.items():
        ok(client.post(table.url("mk:winter_feed"), {"fed": ["1"]}))
        assert Balance.objects.get(kingdom_id=pk, resource="food").amount == 1 + villages[pk]
    table.advance()
    # Leftovers are lost (MK-WINTER-4): every balance is back to 0.
    assert set(Balance.objects.filter(kingdom__campaign=table.campaign)
               .values_list("amount", flat=True)) == {0}
    for pk in table.by_kingdom:
        entries = LedgerEntry.objects.filter(kingdom_id=pk)
        for resource in ("gold", "food"):
            assert sum(e.amount for e in entries if e.resource == resource) == 0

    # D) Deploy: each army to its capital (MK-DEPLOY-4), in the new player order.
    while (turn := table.turn()) is not None:
        state = table.state()
        ok(table.client_for(turn).post(table.url("mk:winter_deploy"),
                                       {"army": "1", "tile": state.kingdoms[turn].capital_tile}))
    table.advance()
    campaign = fresh(table.campaign)
    assert (campaign.year, campaign.season, campaign.month, campaign.phase) == (2, "summer", 1, "A")
    state = table.state()
    for army in state.armies:
        assert army.tile == state.kingdoms[army.kingdom].capital_tile
        assert (army.on_side, army.defending) == (False, False)  # MK-AMB-41
    table.pages_work()
    # The chronicle tells the year: one phase change per phase (5 setup + 24 summer + 6 winter).
    assert Event.objects.filter(campaign=campaign, kind="phase.advanced").count() == 35
