"""The demo campaign played for a whole year through the web pages (MK-YEAR, issue scope).

``manage.py load_demo`` leaves The Shattered Coast in year 2's winter, during C) 2. Build and
recruit. The GM (``gm``) and the four players (``alice``, ``bob``, ``carol``, ``dave``) log in
through the login form with browsers that check CSRF like the real site, and every action posts a
form exactly as its page shows it (``tests.mk.webforms``): the fields, the choices offered and the
CSRF token come from the page. The year: the rest of year 2's winter (purchases, feeding,
deployment), the six summer months of year 3 (sealed orders, exploration with dice typed in, a
battle whose result the GM enters by hand, retreat and the winner's choice, Reform with the
table's tie-break dice), and year 3's winter (recall, gather, a tithe, a settlement, a ship and a
recruit bought, feeding, deployment). After each phase the map, every kingdom's ledger and the
chronicle are checked with the numbers the rules give.
"""

from __future__ import annotations

import re
from collections import Counter
from io import StringIO
from typing import Any, Callable

import pytest
from django.core.management import call_command
from django.db.models import Max
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from battles.models import Army, Battle
from campaign.models import Campaign, Event, Kingdom, Tile, Visibility
from campaign.systems.mighty_kingdoms import phases
from campaign.systems.mighty_kingdoms.models import Order, Ship
from campaign.systems.mighty_kingdoms.rules import campaign as mk
from campaign.systems.mighty_kingdoms.state import load_state
from ledger.models import Balance, LedgerEntry
from tests.mk import webforms

pytestmark = pytest.mark.django_db

SLUG = "shattered-coast"
RULERS = {"alice": "Kingdom of Aldmark", "bob": "Blue Reach", "carol": "Greenhold",
          "dave": "Goldcrest"}
NAMES = tuple(RULERS.values())


class Browser:
    """One person at the table: a client that checks CSRF tokens as the site does, logged in
    through the login form with the demo password."""

    def __init__(self, username: str) -> None:
        self.username = username
        self.client = Client(enforce_csrf_checks=True)
        url = reverse("login")
        (form,) = webforms.forms(self.get(url))
        form.fill(username=username, password="hexkeep-demo")
        response = self.client.post(url, form.data())
        assert response.status_code == 302, response.content.decode()[:800]

    def get(self, url: str) -> str:
        response = self.client.get(url)
        assert response.status_code == 200, (url, response.status_code)
        return response.content.decode()

    def submit(self, form: webforms.Form, button: str | None = None, status: int = 302) -> Any:
        response = form.submit(self.client, button)
        assert response.status_code == status, (
            form.action, form.data(button), response.status_code,
            re.sub(r"\s+", " ", response.content.decode())[:2000])
        return response


class Table:
    """The demo campaign, its GM and its four players, and what the checks read."""

    def __init__(self) -> None:
        call_command("load_demo", "--on-a-live-site", stdout=StringIO())
        self.campaign = Campaign.objects.get(slug=SLUG)
        self.gm = Browser("gm")
        self.browsers = {name: Browser(user) for user, name in RULERS.items()}
        self.kingdoms = {k.name: k for k in Kingdom.objects.filter(campaign=self.campaign)}
        self.names = {k.pk: k.name for k in self.kingdoms.values()}

    # -- pages ----------------------------------------------------------------------------------
    def url(self, name: str, *args: Any) -> str:
        return reverse(name, args=[SLUG, *args])

    def play(self, who: str) -> str:
        browser = self.gm if who == "gm" else self.browsers[who]
        return browser.get(self.url("campaign:play"))

    def pk(self, name: str) -> int:
        return self.kingdoms[name].pk

    # -- state ----------------------------------------------------------------------------------
    def fresh(self) -> Campaign:
        self.campaign = Campaign.objects.get(pk=self.campaign.pk)
        return self.campaign

    def state(self) -> Any:
        return load_state(self.fresh())

    def clock(self) -> str:
        return self.fresh().clock_label()

    def turn(self) -> str | None:
        state = self.state()
        handler = phases.handler_for(state.campaign)
        turn = handler.turn(state) if handler.turn else None
        return self.names[turn] if turn else None

    def order(self) -> list[str]:
        return [k.name for k in Kingdom.objects.filter(campaign=self.campaign)
                .order_by("order_position")]

    def seq(self) -> int:
        return Event.objects.filter(campaign=self.campaign).aggregate(n=Max("seq"))["n"]

    def events_since(self, seq: int) -> list[Event]:
        return list(Event.objects.filter(campaign=self.campaign, seq__gt=seq).order_by("seq"))

    def balances(self) -> dict[str, tuple[int, int]]:
        found = {name: [0, 0] for name in NAMES}
        for row in Balance.objects.filter(kingdom__campaign=self.campaign).select_related(
                "kingdom"):
            found[row.kingdom.name][0 if row.resource == "gold" else 1] = row.amount
        return {name: (g, f) for name, (g, f) in found.items()}

    def last_entry(self) -> int:
        return LedgerEntry.objects.aggregate(n=Max("pk"))["n"] or 0

    def entries_since(self, pk: int) -> list[tuple[str, str, int, str, str]]:
        return [(e.kingdom.name, e.resource, e.amount, e.rule_id, e.source) for e in
                LedgerEntry.objects.filter(campaign=self.campaign, pk__gt=pk)
                .select_related("kingdom").order_by("pk")]

    def armies(self) -> dict[tuple[str, int], tuple[str, bool, bool]]:
        return {(a.kingdom.name, a.number): (a.tile.label, a.on_side, a.defending) for a in
                Army.objects.filter(campaign=self.campaign, tile__isnull=False)
                .select_related("kingdom", "tile")}

    def ships(self) -> dict[tuple[str, int], str]:
        return {(s.kingdom.name, s.number): s.tile.label for s in
                Ship.objects.filter(campaign=self.campaign, tile__isnull=False)
                .select_related("kingdom", "tile")}

    def tiles(self) -> dict[str, tuple[str | None, str, bool]]:
        return {t.label: (self.names.get(t.controller_id), t.settlement, t.explored) for t in
                Tile.objects.filter(map__campaign=self.campaign)}

    def books_agree(self) -> None:
        """DESIGN principle 4: every cached balance is the sum of its entries, never below 0."""
        summed: Counter[tuple[str, str]] = Counter()
        for e in LedgerEntry.objects.filter(campaign=self.campaign).select_related("kingdom"):
            summed[(e.kingdom.name, e.resource)] += e.amount
        for name, (gold, food) in self.balances().items():
            assert (summed[(name, "gold")], summed[(name, "food")]) == (gold, food), name
            assert gold >= 0 and food >= 0

    # -- the GM closes a phase ------------------------------------------------------------------
    def close(self, ties: dict[str, str] | None = None) -> Event:
        """The GM's "Close this phase" form, with the table's tie-break dice typed in for the
        kingdoms the page says will be level (and only then: MK-PORDER-1, MK-DEPLOY-2)."""
        before = self.seq()
        page = self.play("gm")
        form = webforms.find(page, self.url("campaign:advance"))
        asked = {self.names[int(f.name.removeprefix("tiebreak_"))] for f in form.fields
                 if f.name.startswith("tiebreak_")}
        assert asked == set(ties or {}), (asked, ties)
        form.fill(**{f"tiebreak_{self.pk(name)}": die for name, die in (ties or {}).items()})
        self.gm.submit(form)
        (event,) = self.events_since(before)
        assert event.visibility == Visibility.PUBLIC
        rolled = {d["purpose"].removeprefix("player order tie-break: ")
                  .removesuffix(" (MK-PORDER-1)"): (d["values"], d["source"])
                  for d in event.dice}
        assert rolled == {name: ([int(die)], "table") for name, die in (ties or {}).items()}
        return event

    def level(self, counts: dict[str, int]) -> dict[str, str]:
        """Dice for the tied kingdoms, as the table might roll them: distinct, highest first in
        the order the rules list them."""
        ties: dict[str, str] = {}
        by_pk = {self.pk(n): c for n, c in counts.items()}
        ordered = {pk: by_pk[pk] for pk in self.state().order}
        for group in mk.tied_groups(ordered):
            for die, pk in zip((6, 5, 4, 3), reversed(group)):
                ties[self.names[pk]] = str(die)
        return ties

    def counts(self) -> dict[str, int]:
        found = Counter(name for name, _n in self.armies())
        return {name: found[name] for name in NAMES}


def expected_order(counts: dict[str, int], ties: dict[str, str]) -> list[str]:
    """MK-PORDER-1: most armies first; tied kingdoms by their die."""
    return sorted(NAMES, key=lambda n: (-counts[n], -int(ties.get(n, "0"))))


def chronicle_text(t: Table, who: str) -> str:
    browser = t.gm if who == "gm" else t.browsers[who]
    return browser.get(t.url("campaign:chronicle"))


def mine(t: Table, name: str, action: str) -> list[webforms.Form]:
    """The forms posting to ``action`` that the kingdom's own player sees on the play page."""
    return webforms.find_all(t.play(name), t.url(action))


# --- year 2's winter: the rest of C) Spend, and D) Deploy ---------------------------------------


def finish_build_and_recruit(t: Table) -> str:
    """MK-BUY-1..3, MK-SETTLE-3, MK-RECRUIT-1/2: Aldmark builds a village, Goldcrest recruits at
    its fortress, Blue Reach turns a harbour village into a city; then all pass in a row."""
    assert t.clock() == "Year 2, winter, C) Spend resources: 2. Build and recruit"
    assert t.turn() == "Kingdom of Aldmark"
    seq, entry, before = t.seq(), t.last_entry(), t.balances()
    tiles_before = t.tiles()
    buy = t.url("mk:winter_buy")
    # Out of turn, a player's page offers nothing to buy (MK-BUY-1).
    assert webforms.find_all(t.play("Blue Reach"), buy) == []
    # Aldmark: Empty -> Village for 1 gold (MK-SETTLE-3).
    offers = webforms.find_all(t.play("Kingdom of Aldmark"), buy, kind="settle", to="village")
    village = sorted(offers, key=lambda f: f.hidden()["tile"])[0]
    aldmark_tile = village.hidden()["tile"]
    assert tiles_before[aldmark_tile] == ("Kingdom of Aldmark", "", True)
    t.browsers["Kingdom of Aldmark"].submit(village)
    # Greenhold passes.
    (pass_form,) = mine(t, "Greenhold", "mk:winter_pass")
    t.browsers["Greenhold"].submit(pass_form)
    # Goldcrest recruits at its fortress (MK-RECRUIT-1/2).
    assert t.turn() == "Goldcrest"
    (recruit,) = webforms.find_all(t.play("Goldcrest"), buy, kind="recruit")
    fortress = recruit.hidden()["tile"]
    new_number = (Army.objects.filter(kingdom=t.kingdoms["Goldcrest"])
                  .aggregate(n=Max("number"))["n"]) + 1
    t.browsers["Goldcrest"].submit(recruit)
    # Blue Reach: Village -> City (1 gold, 1 food) where a harbour can be built next winter.
    state = t.state()
    offers = webforms.find_all(t.play("Blue Reach"), buy, kind="settle", to="city")
    harbour = sorted((f for f in offers if state.map.tile(f.hidden()["tile"]).is_coastal
                      or state.map.tile(f.hidden()["tile"]).has_river),
                     key=lambda f: f.hidden()["tile"])[0]
    blue_city = harbour.hidden()["tile"]
    t.browsers["Blue Reach"].submit(harbour)
    for name in t.order():  # everyone passes in a row (MK-BUY-1)
        assert t.turn() == name
        (pass_form,) = mine(t, name, "mk:winter_pass")
        t.browsers[name].submit(pass_form)
    assert t.turn() is None
    assert "Everyone passed in a row." in t.play("gm")

    # Map: the two settlements, the new army on the fortress.
    tiles = t.tiles()
    assert tiles[aldmark_tile] == ("Kingdom of Aldmark", "village", True)
    assert tiles[blue_city] == ("Blue Reach", "city", True)
    assert {k: v for k, v in tiles.items() if k not in (aldmark_tile, blue_city)} == {
        k: v for k, v in tiles_before.items() if k not in (aldmark_tile, blue_city)}
    assert t.armies()[("Goldcrest", new_number)] == (fortress, False, False)
    assert Army.objects.get(kingdom=t.kingdoms["Goldcrest"], number=new_number).points == 500
    # Ledger: exactly the prices (MK-SETTLE-3, MK-RECRUIT-2).
    assert t.entries_since(entry) == [
        ("Kingdom of Aldmark", "gold", -1, "MK-SETTLE-3", f"village at {aldmark_tile}"),
        ("Goldcrest", "gold", -1, "MK-RECRUIT-2", f"army #{new_number} at {fortress}"),
        ("Blue Reach", "gold", -1, "MK-SETTLE-3", f"city at {blue_city}"),
        ("Blue Reach", "food", -1, "MK-SETTLE-3", f"city at {blue_city}"),
    ]
    spent = {"Kingdom of Aldmark": (1, 0), "Greenhold": (0, 0), "Goldcrest": (1, 0),
             "Blue Reach": (1, 1)}
    assert t.balances() == {name: (before[name][0] - spent[name][0],
                                   before[name][1] - spent[name][1]) for name in NAMES}
    t.books_agree()
    # Chronicle: one public event per purchase and per pass, in turn.
    events = [(e.kind, e.summary) for e in t.events_since(seq)]
    assert events[:4] == [
        ("winter.buy", f"Kingdom of Aldmark builds a village at {aldmark_tile} for 1 gold."),
        ("winter.buy.pass", "Greenhold passes (Build and recruit, MK-BUY-1)."),
        ("winter.buy", f"Goldcrest recruits army #{new_number} at {fortress} for 1 gold."),
        ("winter.buy", f"Blue Reach builds a city at {blue_city} for 1 gold and 1 food."),
    ]
    assert [kind for kind, _s in events[4:]] == ["winter.buy.pass"] * 4
    text = chronicle_text(t, "Greenhold")
    assert escape(f"Blue Reach builds a city at {blue_city} for 1 gold and 1 food.") in text
    t.close()
    assert t.clock() == "Year 2, winter, C) Spend resources: 3. Feed armies"
    return blue_city


def feed_and_deploy(t: Table, year: int,
                    where: Callable[[str, webforms.Form], str] | None = None) -> None:
    """MK-FEED-1..3, MK-WINTER-3/4, MK-DEPLOY-1..6, MK-AMB-41: every player feeds every army
    their food allows from their own page; leftovers are lost when Feed closes, where the GM types
    in the tie-break dice for Deploy's new order; then each places one army per turn."""
    assert t.clock() == f"Year {year}, winter, C) Spend resources: 3. Feed armies"
    seq, entry = t.seq(), t.last_entry()
    before = t.balances()
    armies = t.counts()
    feed = t.url("mk:winter_feed")
    for name in NAMES:
        # Each player sees the feeding form of their own kingdom only.
        (form,) = webforms.find_all(t.play(name), feed)
        assert form.hidden()["kingdom"] == str(t.pk(name))
        ticked = [f.value for f in form.fields if f.name == "fed" and f.checked]
        food = before[name][1]
        assert len(ticked) == min(food, armies[name])
        t.browsers[name].submit(form)
    fed = {name: min(before[name][1], armies[name]) for name in NAMES}
    assert t.entries_since(entry) == [
        (name, "food", -1, "MK-FEED-1", f"army #{number} fed")
        for name in NAMES for number in sorted(
            n for k, n in t.armies() if k == name)[:fed[name]]
    ]
    left = {name: (before[name][0], before[name][1] - fed[name]) for name in NAMES}
    assert t.balances() == left
    counts = {name: fed[name] for name in NAMES}
    ties = t.level(counts)
    entry = t.last_entry()
    event = t.close(ties)
    # MK-WINTER-4: all that was left is lost; nothing carries over.
    assert set(t.balances().values()) == {(0, 0)}
    assert sorted(t.entries_since(entry)) == sorted(
        (name, resource, -amount, "MK-WINTER-4", "unspent at the end of winter")
        for name in NAMES for resource, amount in zip(("gold", "food"), left[name]) if amount)
    t.books_agree()
    order = expected_order(counts, ties)
    assert t.order() == order
    assert ("New player order (MK-DEPLOY-2): "
            + ", ".join(f"{n} ({counts[n]})" for n in order) + ".") in event.summary
    assert t.clock() == f"Year {year}, winter, D) Deploy armies"
    events = t.events_since(seq)
    assert [e.kind for e in events] == ["winter.feed"] * 4 + ["phase.advanced"]

    # D) Deploy, one army per turn in the new order, each on a settlement of its own.
    ships = t.ships()
    seq = t.seq()
    placed: dict[tuple[str, int], str] = {}
    deploy = t.url("mk:winter_deploy")
    while (name := t.turn()) is not None:
        if not placed:  # only the player whose turn it is may deploy (MK-DEPLOY-4)
            for other in NAMES:
                if other != name:
                    assert webforms.find_all(t.play(other), deploy) == []
        (form,) = webforms.find_all(t.play(name), deploy)
        number = int(form.choices("army")[0])
        tile = where(name, form) if where else form.choices("tile")[0]
        form.fill(army=number, tile=tile)
        t.browsers[name].submit(form)
        placed[(name, number)] = tile
    assert len(placed) == sum(counts.values())
    settled = t.tiles()
    for (name, _number), tile in placed.items():
        assert settled[tile][0] == name and settled[tile][1]  # own settlement (MK-DEPLOY-4)
    for tile, n in Counter(placed.values()).items():
        assert n <= mk.DEPLOY_LIMITS[settled[tile][1]]
    assert [(e.kind, e.summary) for e in t.events_since(seq)] == [
        ("winter.deploy", f"{name} deploys army #{number} at {tile} (MK-DEPLOY-4).")
        for (name, number), tile in placed.items()]
    event = t.close()
    assert event.summary == (f"Year {year}, winter, D) Deploy armies is over. "
                             f"Now: Year {year + 1}, summer month 1, A) Orders.")
    assert t.armies() == {key: (tile, False, False) for key, tile in placed.items()}
    assert t.ships() == ships  # MK-DEPLOY-3: ships stay in their cities
    assert set(t.balances().values()) == {(0, 0)}


# --- year 3's summer ---------------------------------------------------------------------------


def give_orders(t: Table, plan: Any) -> dict[str, list[tuple[str, str, str]]]:
    """A) Orders, one token at a time in player order from each player's page (MK-ORD-1).
    ``plan(name, token, kinds offered, destinations offered)`` says (kind, target) for the
    token. Returns each kingdom's order lines as the page lists them."""
    given: dict[str, list[tuple[str, str, str]]] = {name: [] for name in NAMES}
    url = t.url("mk:summer_order")
    while (name := t.turn()) is not None:
        page = t.play(name)
        forms = webforms.find_all(page, url)
        assert forms, f"{name}'s page offers no order"
        token = sorted({f.hidden()["token"] for f in forms})[0]
        options = {f.hidden()["kind"]: f for f in forms if f.hidden()["token"] == token}
        destinations = options["move"].choices("target") if "move" in options else []
        kind, target = plan(name, token, set(options), destinations)
        form = options[kind]
        if kind == "move":
            form.fill(target=target)
        t.browsers[name].submit(form)
        order = Order.objects.get(campaign=t.campaign, token=token, year=t.campaign.year,
                                  month=t.fresh().month)
        text = f"Move to {target}" if kind == "move" else mk.ORDER_NAMES[kind]
        given[name].append(((order.outcome or {})["token_name"], order.from_tile.label, text))
    return given


def check_sealed(t: Table, given: dict[str, list[tuple[str, str, str]]],
                 kingdom_pages: bool = True) -> None:
    """MK-ORD-1, sealed orders: before Resolution nobody else, the other players included, sees a
    kingdom's orders on the play page, the chronicle or (``kingdom_pages``) the kingdom's page;
    the GM sees them all."""
    lines = {name: [f"<strong>{name}</strong>, {token} on {tile}: {text}"
                    for token, tile, text in orders] for name, orders in given.items()}
    gm_page = t.play("gm")
    for name in NAMES:
        for line in lines[name]:
            assert line in gm_page
    gm_chronicle = chronicle_text(t, "gm")
    for name in NAMES:
        page = t.play(name)
        chronicle = chronicle_text(t, name)
        others = sum(len(v) for k, v in given.items() if k != name)
        for line in lines[name]:
            assert line in page
        for other in NAMES:
            if other == name:
                continue
            assert f"<strong>{other}</strong>, " not in page
            kingdom_page = (t.browsers[name].get(t.url("campaign:kingdom", t.pk(other)))
                            if kingdom_pages else "")
            for token, tile, text in given[other]:
                summary = escape(f"{other} orders {token} on {tile}: {text}.")
                assert summary not in chronicle
                assert summary in gm_chronicle
                assert escape(f"{token} on {tile}: {text}") not in kingdom_page
        assert (f"Other kingdoms have given {others} sealed order"
                f"{'s' if others != 1 else ''}.") in page


def resolve_all(t: Table, dice: dict[str, tuple[int, int]]) -> list[Event]:
    """B) Resolution in player order from each player's page (MK-RES-1); a move into unexplored
    land takes the 2D6 typed in from the table (MK-EXP-1)."""
    seq = t.seq()
    url = t.url("mk:summer_resolve")
    while (name := t.turn()) is not None:
        page = t.play(name)
        orders = sorted({int(f.hidden()["order"]) for f in webforms.find_all(page, url)})
        order = Order.objects.get(pk=orders[0])
        if order.token in dice:
            (form,) = webforms.find_all(page, url, order=order.pk, source="table")
            d1, d2 = dice[order.token]
            form.fill(d1=d1, d2=d2)
        else:
            (form,) = webforms.find_all(page, url, order=order.pk)
        t.browsers[name].submit(form)
    return t.events_since(seq)


def defend_or_regroup(t: Table, ships: dict[str, str] | None = None) -> Any:
    """Armies defend (or regroup when on their side, MK-ORD-4/9); ships, which may not defend
    (MK-ORD-7), sail to a tile where no other kingdom stands or is heading (``ships`` collects
    where they go, so no two kingdoms meet)."""
    heading: dict[str, str] = ships if ships is not None else {}

    def plan(name: str, token: str, kinds: set[str], destinations: list[str]) -> tuple[str, str]:
        if kinds == {"regroup"}:
            return "regroup", ""
        if token.startswith("army:"):
            return "defend", ""
        state = t.state()
        busy = {m.tile for m in mk.movers(state.armies, state.ships) if t.names[m.kingdom] != name}
        busy |= {tile for who, tile in heading.items() if who.split("|")[0] != name}
        safe = [d for d in destinations if d not in busy and (
            state.map.tile(d).explored or state.map.tile(d).is_open_water)]
        assert safe, f"{name}'s {token} has nowhere safe to sail"
        heading[f"{name}|{token}"] = safe[0]
        return "move", safe[0]

    return plan


def close_month(t: Table, month: int, expect_on_side: set[tuple[str, int]]) -> None:
    """C) with nothing contested, then D) Reform: defend markers go, the armies listed lie on
    their side, the new player order with the table's tie-break dice (MK-REFORM, MK-PORDER)."""
    assert t.clock() == f"Year 3, summer month {month}, C) Battle"
    assert "No tile holds tokens of more than one kingdom." in t.play("gm")
    t.close()
    counts = t.counts()
    ties = t.level(counts)
    groups = _groups(t, counts)
    event = t.close(ties)
    order = expected_order(counts, ties)
    assert t.order() == order
    assert event.summary.endswith(
        "New player order by armies (MK-PORDER-1): "
        + ", ".join(f"{n} ({counts[n]})" for n in order) + "."
        + "".join(
            f" {' and '.join(group)} tied and rolled {' and '.join(ties[n] for n in group)}."
            for group in groups))
    armies = t.armies()
    assert {key for key, (_tile, side, _d) in armies.items() if side} == expect_on_side
    assert not any(defending for _t, _s, defending in armies.values())  # MK-AMB-7
    nxt = f"summer month {month + 1}, A) Orders" if month < 6 else "winter, A) Recall"
    assert t.clock() == f"Year 3, {nxt}"


def _groups(t: Table, counts: dict[str, int]) -> list[list[str]]:
    by_pk = {pk: counts[t.names[pk]] for pk in t.state().order}
    return [[t.names[pk] for pk in group] for group in mk.tied_groups(by_pk)]


def first_month(t: Table) -> dict[str, Any]:
    """Month 1: Goldcrest explores the forest beyond its village with 4+4 typed in (a village,
    TV-MK-5); an army marches on an enemy army; the battle's result is entered by the GM; the
    loser retreats and lies on its side; the winner stays."""
    assert t.clock() == "Year 3, summer month 1, A) Orders"
    seq, entry = t.seq(), t.last_entry()
    state = t.state()
    tiles_before = t.tiles()
    # The explorer: Goldcrest's army deployed next to unexplored land.
    explorer = next(m for m in mk.movers(state.armies, state.ships) if m.kind == mk.ARMY
                    and t.names[m.kingdom] == "Goldcrest" and any(
                        not state.map.tile(d).explored and not state.map.tile(d).is_open_water
                        for d in mk.legal_move_destinations(m, state.map, state.options)))
    wild = next(d for d in mk.legal_move_destinations(explorer, state.map, state.options)
                if not state.map.tile(d).explored and not state.map.tile(d).is_open_water)
    # The clash: an army next to an enemy army that defends its tile, or else two armies of
    # two kingdoms marching into the same tile of one of them.
    kind, one, two, field = find_clash(t, state, explorer, wild)
    a_name, b_name = t.names[one.kingdom], t.names[two.kingdom]
    ships: dict[str, str] = {"|field": field}  # no ship sails into the battle
    quiet = defend_or_regroup(t, ships)

    def plan(name: str, token: str, kinds: set[str], destinations: list[str]) -> tuple[str, str]:
        if token == explorer.key:
            assert wild in destinations
            return "move", wild
        if token == one.key or (token == two.key and kind == "meet"):
            assert field in destinations
            return "move", field
        return quiet(name, token, kinds, destinations)

    given = give_orders(t, plan)
    check_sealed(t, given)
    # The orders are private to their kingdoms in the chronicle until revealed.
    orders = [e for e in t.events_since(seq) if e.kind == "summer.order"]
    assert orders and all(e.visibility == Visibility.KINGDOM for e in orders)
    t.close()
    assert t.clock() == "Year 3, summer month 1, B) Resolution"
    # Revealed: every player now reads every kingdom's orders (MK-ORD-1).
    page = t.play("Greenhold")
    for name in NAMES:
        for token, tile, text in given[name]:
            assert f"<strong>{name}</strong>, {token} on {tile}: {text}" in page

    events = resolve_all(t, {explorer.key: (4, 4)})
    # Map after Resolution: the explored tile (MK-RES-4, MK-EXP-1/2); both armies in the field,
    # the defender with its marker (MK-RES-8); a tile with an enemy army there does not change
    # hands (MK-RES-5).
    tiles = t.tiles()
    assert tiles_before[wild][2] is False
    assert tiles[wild] == ("Goldcrest", "village", True)
    assert tiles[field][1:] == tiles_before[field][1:]
    assert tiles[field][0] in (a_name, b_name)
    if kind == "attack":
        assert tiles[field] == tiles_before[field]
    armies = t.armies()
    assert armies[(a_name, one.army.number)] == (field, False, False)
    assert armies[(b_name, two.army.number)] == (field, False, kind == "attack")
    marchers = {(t.names[m.kingdom], m.army.number) for m in (explorer, one, two)}
    assert armies[("Goldcrest", explorer.army.number)] == (wild, False, False)
    for army in state.armies:
        key = (t.names[army.kingdom], army.number)
        if key not in marchers:
            assert armies[key] == (army.tile, False, True)  # the others defend (MK-RES-8)
    assert {(e.kind, e.visibility) for e in events} == {("summer.resolve", Visibility.PUBLIC)}
    explore = next(e for e in events if e.dice)
    assert explore.dice == [{"purpose": f"exploration of {wild} (MK-EXP-1)", "values": [4, 4],
                             "source": "table"}]
    assert explore.summary.startswith("Goldcrest: ")
    assert t.entries_since(entry) == []  # nothing moves in the ledger in summer
    assert "Dice 4+4 (typed in from the table)." in t.play("Kingdom of Aldmark")
    t.close()

    # C) Battle: the chooser picks the tile and the enemy from their page (MK-BSEL-1/2).
    assert t.clock() == "Year 3, summer month 1, C) Battle"
    chooser, opponent = sorted((a_name, b_name), key=t.order().index)
    assert t.turn() == chooser
    (pick,) = webforms.find_all(t.play(chooser), t.url("mk:summer_battle"), tile=field,
                                opponent=t.pk(opponent))
    t.browsers[chooser].submit(pick)
    battle = Battle.objects.get(campaign=t.campaign, year=3, month=1)
    # A Kings of War land battle, one army a side: a 4'x4' table (MK-BOARD-1).
    assert (battle.kind, battle.status, battle.data["board"]) == ("land", "pending", "4'x4'")
    seq = t.seq()
    # The GM enters the result of the game played at the table: the chooser wins.
    result = t.url("mk:summer_battle_result", battle.pk)
    assert webforms.find_all(t.play(chooser), result) == []  # GMs only
    (form,) = webforms.find_all(t.play("gm"), result)
    form.fill(result="win")
    t.gm.submit(form)
    battle.refresh_from_db()
    assert (battle.result_chooser, battle.result_opponent) == ("win", "loss")
    by_name = {a_name: one, b_name: two}
    loser = (opponent, by_name[opponent].army.number)
    winner = (chooser, by_name[chooser].army.number)
    # MK-RESULT-1: the loser retreats to a tile of its own and lies on its side (its owner
    # chooses on their page when there is a choice).
    if battle.data.get("retreats"):
        (form,) = webforms.find_all(t.play(opponent), t.url("mk:summer_retreat", battle.pk))
        t.browsers[opponent].submit(form)
    place, on_side, _defending = t.armies()[loser]
    assert on_side is True and place != field
    assert t.tiles()[place][0] == opponent
    assert t.armies()[winner][0] == field
    assert t.tiles()[field][0] == chooser  # MK-RESULT-3
    # The winner may move one token on; it stays (MK-AMB-28).
    offers = webforms.find_all(t.play(chooser), t.url("mk:summer_winner_move", battle.pk))
    if offers:
        t.browsers[chooser].submit(offers[0], "Stay")
    events = t.events_since(seq)
    assert [e.kind for e in events] == ["summer.battle_result"] + (
        ["summer.retreat"] if "retreats to" not in events[0].summary else []) + (
        ["summer.winner_move"] if offers else [])
    assert {e.visibility for e in events} == {Visibility.PUBLIC}
    if offers:
        assert events[-1].summary == (f"After the battle at {field}: {chooser} keeps its tokens "
                                      "where they are (MK-RESULT-3).")
    summary = events[0].summary
    assert summary.startswith(f"Battle at {field}: {chooser} wins against {opponent}. ")
    taken = f"{field} now belongs to {chooser} (MK-RESULT-3)."
    assert (taken in summary) == (tiles[field][0] != chooser)
    assert escape(summary) in chronicle_text(t, "Goldcrest")
    # Reform: a march across mountains or forest, or into a river tile, lays the marcher on its
    # side (MK-REFORM-1); the loser already lies on its side.
    on_side = {loser}
    marched = [(one, a_name)] + ([(two, b_name)] if kind == "meet" else [])
    for mover, name in marched:
        check = mk.terrain_check(mk.ARMY, mk.MoveRecord(mover.tile, field), state.map)
        if check.on_side and (name, mover.army.number) == winner:
            on_side.add(winner)
    wild_terrain = mk.terrain_check(mk.ARMY, mk.MoveRecord(explorer.tile, wild), state.map)
    if wild_terrain.on_side:
        on_side.add(("Goldcrest", explorer.army.number))
    t.close()  # C) closes
    counts = t.counts()
    ties = t.level(counts)
    t.close(ties)
    assert t.order() == expected_order(counts, ties)
    armies = t.armies()
    assert {key for key, (_t, side, _d) in armies.items() if side} == on_side
    assert not any(d for _t, _s, d in armies.values())
    return {"on_side": on_side}


def find_clash(t: Table, state: Any, explorer: mk.Mover, wild: str) -> tuple[str, Any, Any, str]:
    """("attack", mover, enemy, tile): an army can march on a tile where one enemy army stands;
    or ("meet", mover, other, tile): two armies of two kingdoms can both reach an empty tile of
    one of them. Deterministic: the first found in token order."""
    armies = sorted((m for m in mk.movers(state.armies, state.ships)
                     if m.kind == mk.ARMY and m.key != explorer.key), key=lambda m: m.key)
    reach = {m.key: set(mk.legal_move_destinations(m, state.map, state.options)) for m in armies}
    for mover in armies:
        for d in sorted(reach[mover.key]):
            enemies = [m for m in armies if m.tile == d and m.kingdom != mover.kingdom]
            if len(enemies) == 1 and not any(
                    x.tile == d for x in state.armies + state.ships
                    if x.kingdom not in (mover.kingdom, enemies[0].kingdom)):
                return "attack", mover, enemies[0], d
    stood = {x.tile for x in list(state.armies) + list(state.ships)}
    for mover in armies:
        for other in armies:
            if other.kingdom == mover.kingdom:
                continue
            for d in sorted(reach[mover.key] & reach[other.key]):
                tile = state.map.tile(d)
                if (d not in stood and d != wild and tile.explored and not tile.is_open_water
                        and tile.controller in (mover.kingdom, other.kingdom)):
                    return "meet", mover, other, d
    raise AssertionError("No two kingdoms' armies can meet this month.")


def recall_and_gather(t: Table, blue_city: str) -> dict[str, list[tuple[str, int, str, str]]]:
    """Winter A) Recall (MK-RECALL-1..5) and B) Gather (MK-WINTER-2): armies home to the capital;
    ships dock one per harbour city (Blue Reach leaves its new city free); the income booked is
    exactly the forecast each player read on My kingdom before Gather closed."""
    assert t.clock() == "Year 3, winter, A) Recall"
    seq, entry = t.seq(), t.last_entry()
    state = t.state()
    armies = t.armies()
    for (name, _number), (tile, _side, _d) in armies.items():
        assert tile == state.kingdoms[t.pk(name)].capital_tile  # MK-RECALL-1
    recall = t.url("mk:winter_recall")
    for name in NAMES:
        for form in webforms.find_all(t.play(name), recall, kingdom=t.pk(name)):
            ships = [f.value for f in form.fields if f.name == "ships"]
            cities = [c for c in form.choices(f"dock_{ships[0]}") if c] if ships else []
            if name == "Blue Reach":
                assert blue_city in cities
                cities = [c for c in cities if c != blue_city]
            form.fill(**{f"dock_{n}": c for n, c in zip(ships, cities)})
            t.browsers[name].submit(form)
    docked = t.ships()
    state = t.state()
    for (name, _n), tile in docked.items():
        row = state.map.tile(tile)
        assert row.controller == t.pk(name) and row.settlement == mk.CITY
        assert row.is_coastal or row.has_river  # MK-RECALL-5
    assert len(set(docked.values())) == len(docked)  # one ship per city
    assert blue_city not in docked.values()
    recalls = t.events_since(seq)
    assert recalls and all(e.kind == "winter.recall" and e.visibility == Visibility.PUBLIC
                           for e in recalls)
    assert any(e.kingdom.name == "Blue Reach" for e in recalls)
    event = t.close()
    assert event.summary == ("Year 3, winter, A) Recall is over. "
                             "Now: Year 3, winter, B) Gather resources.")
    assert t.entries_since(entry) == []
    # What each player reads on My kingdom, line by line, before the close.
    forecast: dict[str, list[tuple[str, int, str, str]]] = {}
    pattern = re.compile(r'<li><strong>\+(\d+) (gold|food)</strong> · (.*?) '
                         r'<small class="muted">\((MK-[A-Z]+-\d+)\)</small></li>')
    for name in NAMES:
        page = t.browsers[name].get(t.url("campaign:kingdom", t.pk(name)))
        section = page.split('class="member-list income-lines"')[1].split("</ul>")[0]
        forecast[name] = sorted((res, int(n), rule, src) for n, res, src, rule in
                                pattern.findall(section.replace("&#x27;", "'")))
        assert forecast[name]
    entry = t.last_entry()
    event = t.close()
    assert event.summary.startswith("Year 3, winter, B) Gather resources is over. "
                                    "Now: Year 3, winter, C) Spend resources: 1. Tithe.")
    booked = t.entries_since(entry)
    assert {e.event_id for e in LedgerEntry.objects.filter(pk__gt=entry)} == {event.pk}
    for name in NAMES:
        assert sorted((r, a, rule, src) for k, r, a, rule, src in booked if k == name) == \
            forecast[name]
    assert t.balances() == {name: (sum(a for r, a, _x, _s in forecast[name] if r == "gold"),
                                   sum(a for r, a, _x, _s in forecast[name] if r == "food"))
                            for name in NAMES}
    t.books_agree()
    return forecast


def tithe(t: Table) -> None:
    """C) 1. Tithe (MK-TITHE-1..5): the first in player order gives the next 1 gold from their
    page; then everyone passes in a row."""
    assert t.clock() == "Year 3, winter, C) Spend resources: 1. Tithe"
    before, entry, seq = t.balances(), t.last_entry(), t.seq()
    giver, receiver = t.order()[0], t.order()[1]
    url = t.url("mk:winter_tithe")
    assert webforms.find_all(t.play(receiver), url) == []  # not the receiver's turn
    (form,) = webforms.find_all(t.play(giver), url)
    form.fill(receiver=t.pk(receiver), gold="1")
    t.browsers[giver].submit(form)
    for name in t.order()[1:] + t.order()[:1]:  # four passes in a row close it
        (form,) = mine(t, name, "mk:winter_pass")
        t.browsers[name].submit(form)
    assert t.turn() is None
    assert t.entries_since(entry) == [(giver, "gold", -1, "MK-TITHE-1", f"tithe to {receiver}"),
                                      (receiver, "gold", 1, "MK-TITHE-1", f"tithe from {giver}")]
    after = dict(before)
    after[giver] = (before[giver][0] - 1, before[giver][1])
    after[receiver] = (before[receiver][0] + 1, before[receiver][1])
    assert t.balances() == after
    (gift,) = [e for e in t.events_since(seq) if e.kind == "winter.tithe"]
    assert gift.summary == f"{giver} tithes 1 gold to {receiver} (MK-TITHE-1)."
    assert escape(gift.summary) in chronicle_text(t, "Greenhold")
    t.close()


def build_ship_recruit(t: Table) -> None:
    """C) 2. Build and recruit: at least one settlement, one ship and one recruit, each from the
    buyer's page and paid in full (MK-BUY, MK-SETTLE-3, MK-SHIPYARD-1/2, MK-RECRUIT-1/2)."""
    assert t.clock() == "Year 3, winter, C) Spend resources: 2. Build and recruit"
    entry, before, seq = t.last_entry(), t.balances(), t.seq()
    tiles_before, ships_before, armies_before = t.tiles(), t.ships(), t.armies()
    bought: dict[str, tuple[str, dict[str, str]]] = {}
    url = t.url("mk:winter_buy")
    while (name := t.turn()) is not None:
        page = t.play(name)
        offers = [f for f in webforms.find_all(page, url)
                  if not any(b.disabled for b in f.buttons)]
        pick = None
        for kind in ("ship", "recruit", "settle"):
            if kind not in bought:
                pick = next((f for f in offers if f.hidden()["kind"] == kind
                             and not f.has("disband")), None)
                if pick is not None:
                    bought[kind] = (name, pick.hidden())
                    break
        if pick is None:
            (pick,) = webforms.find_all(page, t.url("mk:winter_pass"))
        t.browsers[name].submit(pick)
    assert set(bought) == {"ship", "recruit", "settle"}
    expected = []
    after = dict(before)
    ship_name, ship = bought["ship"]
    recruit_name, recruit = bought["recruit"]
    settle_name, settle = bought["settle"]
    new_ship = [k for k in t.ships() if k not in ships_before]
    assert new_ship == [(ship_name, max(n for k, n in ships_before if k == ship_name) + 1)]
    assert t.ships()[new_ship[0]] == ship["tile"]
    new_army = [k for k in t.armies() if k not in armies_before]
    assert len(new_army) == 1 and new_army[0][0] == recruit_name
    assert t.armies()[new_army[0]] == (recruit["tile"], False, False)
    assert tiles_before[recruit["tile"]][1] == mk.FORTRESS
    assert t.tiles()[settle["tile"]] == (settle_name, settle["to"], True)
    costs = {("", "village"): (1, 0), ("village", "city"): (1, 1),
             ("village", "fortress"): (2, 0), ("city", "capital"): (1, 1)}
    gold, food = costs[(tiles_before[settle["tile"]][1], settle["to"])]
    for who, g, f in ((ship_name, 1, 0), (recruit_name, 1, 0), (settle_name, gold, food)):
        after[who] = (after[who][0] - g, after[who][1] - f)
    assert t.balances() == after
    booked = t.entries_since(entry)
    expected = sorted([
        (ship_name, "gold", -1, "MK-SHIPYARD-1", f"ship at {ship['tile']}"),
        (recruit_name, "gold", -1, "MK-RECRUIT-2",
         f"army #{new_army[0][1]} at {recruit['tile']}"),
        *[(settle_name, res, -n, "MK-SETTLE-3", f"{settle['to']} at {settle['tile']}")
          for res, n in (("gold", gold), ("food", food)) if n],
    ])
    assert sorted(booked) == expected
    t.books_agree()
    names = {"village": "a village", "city": "a city", "fortress": "a fortress"}
    cost = {(1, 0): "1 gold", (1, 1): "1 gold and 1 food", (2, 0): "2 gold"}[(gold, food)]
    purchases = [e.summary for e in t.events_since(seq) if e.kind == "winter.buy"]
    assert sorted(purchases) == sorted([
        f"{ship_name} builds a ship at {ship['tile']} for 1 gold.",
        f"{recruit_name} recruits army #{new_army[0][1]} at {recruit['tile']} for 1 gold.",
        f"{settle_name} builds {names[settle['to']]} at {settle['tile']} for {cost}."])
    t.close()


def test_mk_the_demo_campaign_plays_a_whole_year_through_the_web_pages() -> None:
    t = Table()
    # The demo as loaded: year 2's winter, building under way, Aldmark's turn.
    assert t.clock() == "Year 2, winter, C) Spend resources: 2. Build and recruit"
    start = t.seq()

    # The rest of year 2's winter.
    blue_city = finish_build_and_recruit(t)

    def next_to_wild(name: str, form: webforms.Form) -> str:
        """Goldcrest puts an army on the settlement next to unexplored land."""
        state = t.state()
        options = form.choices("tile")
        if name == "Goldcrest":
            for label in options:
                if any(state.map.get(n) is not None and not state.map.tile(n).explored
                       and not state.map.tile(n).is_open_water
                       for n in state.map.tile(label).neighbours):
                    return label
        return options[0]

    feed_and_deploy(t, 2, next_to_wild)
    assert t.clock() == "Year 3, summer month 1, A) Orders"

    # Year 3: six summer months.
    first = first_month(t)
    summer_entry = t.last_entry()
    for month in range(2, 7):
        assert t.clock() == f"Year 3, summer month {month}, A) Orders"
        seq = t.seq()
        before = t.armies()
        tiles = {label: row[:2] for label, row in t.tiles().items()}
        on_side = {key for key, (_t, side, _d) in before.items() if side}
        sailing: dict[str, str] = {}
        given = give_orders(t, defend_or_regroup(t, sailing))
        check_sealed(t, given, kingdom_pages=month == 2)
        orders = t.events_since(seq)
        assert [e.kind for e in orders] == ["summer.order"] * sum(map(len, given.values()))
        assert {(e.visibility, e.kingdom.name) for e in orders} == {
            (Visibility.KINGDOM, name) for name, lines in given.items() if lines}
        t.close()
        seq = t.seq()
        resolve_all(t, {})
        resolved = t.events_since(seq)
        assert [(e.kind, e.visibility) for e in resolved] == [
            ("summer.resolve", Visibility.PUBLIC)] * len(orders)
        armies = t.armies()
        # MK-RES-6/8: regrouped armies stand up; the others defend where they stood.
        assert armies == {key: (tile, False, key not in on_side)
                          for key, (tile, _s, _d) in before.items()}
        # Ships sailed where their orders said; no tile changed hands or settlement.
        ships = t.ships()
        for key, where in sailing.items():
            name, token = key.split("|")
            ship = Ship.objects.get(pk=int(token.split(":")[1]))
            assert ships[(name, ship.number)] == where
        assert {label: row[:2] for label, row in t.tiles().items()} == tiles
        t.close()
        close_month(t, month, set())
    assert t.entries_since(summer_entry) == []  # the summer moves no gold or food
    assert set(t.balances().values()) == {(0, 0)}
    assert first["on_side"]
    assert t.clock() == "Year 3, winter, A) Recall"

    # Year 3's winter.
    recall_and_gather(t, blue_city)
    tithe(t)
    build_ship_recruit(t)
    feed_and_deploy(t, 3)
    assert t.clock() == "Year 4, summer month 1, A) Orders"
    # The chronicle of the year: one phase change per phase (the rest of winter 2: 3; the
    # summer: 24; winter 3: 6); sealed orders private to their kingdom, everything else public.
    events = t.events_since(start)
    assert sum(1 for e in events if e.kind == "phase.advanced") == 3 + 24 + 6
    private = {e.kind for e in events if e.visibility != Visibility.PUBLIC}
    assert private == {"summer.order"}
    assert not any(e.undone_at for e in events)
    assert Counter(e.kind for e in events if e.kind.startswith("winter.")) >= Counter({
        "winter.buy": 6, "winter.tithe": 1, "winter.feed": 8, "winter.recall": 1})
