"""Races (DESIGN principle 11, issue 19): real requests from several threads at the same moment,
each with its own test Client and database connection, as phones and a GM at one table send
them.

Raced: the GM's kingdom edit, tile edit and map paint against purchases, tithes and feeding; two
claims of one kingdom, and one player claiming two; an undo against a purchase; two campaigns
created with one name; one form sent twice at once. Every request is answered (302 or a 409
that says why), never with a 500; after each race every balance is exactly what the accepted
actions make it and equals the sum of its ledger entries, and the chronicle has exactly one event
per accepted action.

Where they run: on PostgreSQL (``DATABASE_URL``, as CI's second pass does) the threads race on
the test database itself, where the services' row locks do the queueing in the documented order
(docs/architecture.md, "Locking order"). On SQLite the same scenarios run with the same threads
on a file copy of the test database (``shared_db``) with the project's settings: SQLite queues
whole writing transactions (IMMEDIATE), so the threads still interleave between requests but
never inside one; nothing is skipped on either.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db.models import Sum
from django.urls import reverse

from campaign.models import Campaign, Event, Invitation, Kingdom, Membership, Role, Tile
from campaign.once import new_token
from campaign.systems.mighty_kingdoms import winter_services as ws
from campaign.systems.mighty_kingdoms.models import Purchase, Tithe
from ledger.models import Balance, LedgerEntry
from tests.conftest import make_user
from tests.mk.test_winter_concurrency import at_once, client_for, shared_db  # noqa: F401
from tests.mk.test_winter_world import (  # noqa: F401 (fixtures)
    World,
    books_agree,
    build_tv3,
    plain_summer,
    to_phase,
)

pytestmark = pytest.mark.django_db(transaction=True)

ANSWERED = {302, 409}
NAMES = ("Red", "Blue", "Green")


def stocks(w: World) -> dict[str, tuple[int, int]]:
    return {name: w.stock(name) for name in NAMES}


def ledger_exact(w: World) -> None:
    """Every cached balance equals the sum of its entries, and every entry has its event."""
    assert books_agree(*(w.k(name) for name in NAMES))
    for balance in Balance.objects.filter(kingdom__campaign=w.campaign):
        total = LedgerEntry.objects.filter(kingdom_id=balance.kingdom_id,
                                           resource=balance.resource).aggregate(s=Sum("amount"))
        assert balance.amount == (total["s"] or 0)
    assert not LedgerEntry.objects.filter(campaign=w.campaign, event__isnull=True).exists()


def events_of(campaign: Campaign) -> int:
    return Event.objects.filter(campaign=campaign).count()


def statuses(results: list[tuple[int, str]]) -> list[int]:
    found = [status for status, _ in results]
    assert set(found) <= ANSWERED, results
    return found


def kingdom_edit(w: World, name: str, colour: str) -> tuple[Any, str, dict[str, Any]]:
    url = reverse("campaign:kingdom_edit", args=[w.campaign.slug, w.kingdoms[name].pk])
    return (client_for(w.gm), url, {"name": name, "colour": colour})


def tile_edit(w: World, label: str, new_name: str) -> tuple[Any, str, dict[str, Any]]:
    """The tile form as the GM's page shows it, every field as it is but the name."""
    tile = Tile.objects.get(map__campaign=w.campaign, label=label)
    data: dict[str, Any] = {"terrain": tile.terrain, "settlement": tile.settlement,
                            "controller": tile.controller_id or "", "name": new_name}
    if tile.explored:
        data["explored"] = "on"
    if tile.is_start:
        data["is_start"] = "on"
    for key, features in tile.edges.items():
        data[f"edge_{key}"] = list(features)
    url = reverse("campaign:tile_edit", args=[w.campaign.slug, label])
    return (client_for(w.gm), url, data)


def paint(w: World, label: str, tool: str = "explored") -> tuple[Any, str, dict[str, Any]]:
    url = reverse("campaign:map_paint", args=[w.campaign.slug])
    return (client_for(w.gm), url, {"tile": label, "tool": tool, "value": ""})


@pytest.mark.parametrize("round_", range(3))
def test_gm_kingdom_edits_race_purchases(shared_db: None, gm: User, plain_summer: None,
                                         round_: int) -> None:
    """The deadlock of issue 19: the GM edits Red while Red (twice) and Blue buy."""
    w = build_tv3(gm, slug=f"race-edit-{round_}")
    to_phase(w, ws.BUY)
    assert stocks(w) == {"Red": (4, 3), "Blue": (2, 2), "Green": (2, 1)}
    events = events_of(w.campaign)
    buy = reverse("mk:winter_buy", args=[w.campaign.slug])
    red_tap = {"kind": "settle", "tile": w.t("E1"), "to": "village"}
    blue_buy = {"kind": "settle", "tile": w.t("BV1"), "to": "fortress"}
    results = at_once([
        kingdom_edit(w, "Red", "#bb0000"), kingdom_edit(w, "Red", "#cc0000"),
        (client_for(w.users["Red"]), buy, red_tap), (client_for(w.users["Red"]), buy, red_tap),
        kingdom_edit(w, "Red", "#dd0000"), (client_for(w.users["Blue"]), buy, blue_buy),
    ])
    found = statuses(results)
    # The GM's edits are never refused; of Red's double tap exactly one buys.
    assert [found[i] for i in (0, 1, 4)] == [302, 302, 302]
    assert sorted(found[2:4]) == [302, 409]
    blue_bought = found[5] == 302
    assert Purchase.objects.filter(kingdom=w.kingdoms["Red"]).count() == 1
    assert Purchase.objects.filter(kingdom=w.kingdoms["Blue"]).count() == int(blue_bought)
    assert stocks(w) == {"Red": (3, 3), "Blue": (0, 2) if blue_bought else (2, 2),
                         "Green": (2, 1)}
    ledger_exact(w)
    kinds = Counter(Event.objects.filter(campaign=w.campaign).values_list("kind", flat=True)
                    .order_by("seq")[events:])
    assert events_of(w.campaign) == events + 3 + 1 + int(blue_bought)
    assert kinds["kingdom.updated"] == 3
    assert Kingdom.objects.get(pk=w.kingdoms["Red"].pk).colour in {"#bb0000", "#cc0000",
                                                                    "#dd0000"}


def test_gm_tile_edit_and_paint_race_tithes(shared_db: None, gm: User,
                                            plain_summer: None) -> None:
    w = build_tv3(gm, slug="race-tithe")
    to_phase(w, ws.TITHE)
    before = stocks(w)
    events = events_of(w.campaign)
    tithe = reverse("mk:winter_tithe", args=[w.campaign.slug])
    results = at_once([
        (client_for(w.users["Red"]), tithe,
         {"receiver": w.kingdoms["Blue"].pk, "gold": "1", "food": "0"}),
        tile_edit(w, w.t("E1"), "Race Field"),
        paint(w, w.t("BV1")),
        (client_for(w.users["Blue"]), tithe,
         {"receiver": w.kingdoms["Red"].pk, "gold": "0", "food": "1"}),
        paint(w, w.t("E1"), "start"),
    ])
    found = statuses(results)
    assert (found[0], found[1], found[2], found[4]) == (302, 302, 302, 302)
    blue_gave = found[3] == 302
    assert Tithe.objects.filter(campaign=w.campaign).count() == 1 + int(blue_gave)
    red_gold, red_food = before["Red"]
    blue_gold, blue_food = before["Blue"]
    assert stocks(w) == {"Red": (red_gold - 1, red_food + int(blue_gave)),
                         "Blue": (blue_gold + 1, blue_food - int(blue_gave)),
                         "Green": before["Green"]}
    ledger_exact(w)
    assert events_of(w.campaign) == events + 4 + int(blue_gave)
    assert Tile.objects.get(map__campaign=w.campaign, label=w.t("E1")).name == "Race Field"


def test_gm_paint_races_feeding(shared_db: None, gm: User, plain_summer: None) -> None:
    w = build_tv3(gm, slug="race-feed")
    to_phase(w, ws.FEED)
    before = stocks(w)
    events = events_of(w.campaign)
    feed = reverse("mk:winter_feed", args=[w.campaign.slug])
    results = at_once([
        (client_for(w.users["Red"]), feed, {"fed": ["1", "2", "3"]}),
        paint(w, w.t("E1")),
        (client_for(w.users["Blue"]), feed, {"fed": ["1"]}),
        kingdom_edit(w, "Blue", "#0000cc"),
        tile_edit(w, w.t("BV1"), "Blue Vale"),
        (client_for(w.users["Red"]), feed, {"fed": ["1", "2", "3"]}),
    ])
    found = statuses(results)
    assert found[1:5] == [302, 302, 302, 302]
    # Red's double tap feeds once; the other tap is refused with the reason.
    assert sorted([found[0], found[5]]) == [302, 409]
    refusal = results[0][1] if found[0] == 409 else results[5][1]
    assert "already fed its armies" in refusal
    assert stocks(w) == {"Red": (before["Red"][0], 0), "Blue": (before["Blue"][0], 1),
                         "Green": before["Green"]}
    assert LedgerEntry.objects.filter(campaign=w.campaign, rule_id="MK-FEED-1").count() == 4
    ledger_exact(w)
    assert events_of(w.campaign) == events + 5


def test_two_claims_of_one_kingdom_one_wins(shared_db: None, gm: User,
                                            plain_summer: None) -> None:
    w = build_tv3(gm, slug="race-claim")
    free = Kingdom.objects.create(campaign=w.campaign, name="Grey", colour="#777777")
    spare = Kingdom.objects.create(campaign=w.campaign, name="White", colour="#eeeeee")
    ann, ben = make_user("ann"), make_user("ben")
    for user in (ann, ben):
        Membership.objects.create(campaign=w.campaign, user=user, role=Role.PLAYER)
    events = events_of(w.campaign)
    claim = reverse("campaign:kingdom_claim", args=[w.campaign.slug, free.pk])
    results = at_once([(client_for(ann), claim, {}), (client_for(ben), claim, {})])
    assert sorted(statuses(results)) == [302, 409]
    winner = ann if results[0][0] == 302 else ben
    refusal = next(body for status, body in results if status == 409)
    assert "Grey already has a player" in refusal
    assert Kingdom.objects.get(pk=free.pk).player.user == winner
    assert events_of(w.campaign) == events + 1
    # One player claiming two kingdoms at once holds one of them.
    loser = ben if winner == ann else ann
    claims = [reverse("campaign:kingdom_claim", args=[w.campaign.slug, k.pk])
              for k in (spare, Kingdom.objects.create(campaign=w.campaign, name="Black",
                                                      colour="#111111"))]
    results = at_once([(client_for(loser), url, {}) for url in claims])
    assert sorted(statuses(results)) == [302, 409]
    assert Kingdom.objects.filter(campaign=w.campaign, player__user=loser).count() == 1
    assert events_of(w.campaign) == events + 2


@pytest.mark.parametrize("round_", range(2))
def test_undo_races_a_purchase(shared_db: None, gm: User, plain_summer: None,
                               round_: int) -> None:
    """Undo reverses the move into purchases while Red buys: exactly one of the two happens."""
    w = build_tv3(gm, slug=f"race-undo-{round_}")
    to_phase(w, ws.BUY)
    before = stocks(w)
    latest = Event.objects.filter(campaign=w.campaign).order_by("-seq").first()
    assert latest.kind == "phase.advanced"
    events = events_of(w.campaign)
    results = at_once([
        (client_for(w.users["Red"]), reverse("mk:winter_buy", args=[w.campaign.slug]),
         {"kind": "settle", "tile": w.t("E1"), "to": "village"}),
        (client_for(w.gm), reverse("campaign:undo", args=[w.campaign.slug]),
         {"seq": str(latest.seq)}),
    ])
    found = statuses(results)
    assert sorted(found) == [302, 409]
    bought = found[0] == 302
    assert Purchase.objects.filter(campaign=w.campaign).count() == int(bought)
    assert Event.objects.get(pk=latest.pk).undone_at is None if bought else True
    assert stocks(w) == ({**before, "Red": (3, 3)} if bought else before)
    ledger_exact(w)
    assert events_of(w.campaign) == events + 1


def test_two_campaigns_created_with_one_name(shared_db: None, gm: User) -> None:
    other = make_user("other-gm")
    form = {"name": "Same Name", "slug": "same-name", "rule_system": "mighty-kingdoms",
            "width": "6", "height": "5", "orientation": "flat"}
    url = reverse("campaign:create")
    results = at_once([(client_for(gm), url, form), (client_for(other), url, form)])
    found = [status for status, _ in results]
    # The later one is refused with the form: 409 when both passed the form's check at once
    # (the unique index decides), 400 when the first had already committed when it was checked.
    assert 302 in found and sorted(found)[1] in (400, 409), results
    refusal = next(body for status, body in results if status != 302)
    assert "The address 'same-name' is taken" in refusal
    campaign = Campaign.objects.get(slug="same-name")
    assert Campaign.objects.count() == 1
    assert Event.objects.filter(campaign=campaign).count() == 1


def test_one_form_sent_twice_at_once_applies_once(shared_db: None, gm: User) -> None:
    form = {"name": "Once", "slug": "once", "rule_system": "mighty-kingdoms", "width": "6",
            "height": "5", "orientation": "flat", "once": new_token()}
    url = reverse("campaign:create")
    results = at_once([(client_for(gm), url, form), (client_for(gm), url, form)])
    # Both are sent to the campaign: the first made it, the second finds the token used.
    assert statuses(results) == [302, 302]
    campaign = Campaign.objects.get()
    invite = {"role": Role.PLAYER, "single_use": "on", "note": "", "once": new_token()}
    url = reverse("campaign:invite", args=[campaign.slug])
    results = at_once([(client_for(gm), url, invite) for _ in range(3)])
    assert statuses(results) == [302, 302, 302]
    assert Invitation.objects.filter(campaign=campaign).count() == 1
    assert Event.objects.filter(campaign=campaign).count() == 2
