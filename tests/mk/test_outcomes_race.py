"""Taking back one's own latest action races another player's action (issue 17): real requests
from two threads at once, as tests/mk/test_races.py sends them (on PostgreSQL the row locks in
the documented order queue them; on SQLite its writing transactions do). Exactly what the order
they ran in allows happens: Red's purchase is taken back and Blue's buy is judged after it, or
Blue buys first and Red is told someone acted after; balances stay equal to their entries."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from campaign.models import Event
from campaign.systems.mighty_kingdoms import winter_services as ws
from campaign.systems.mighty_kingdoms.models import Purchase
from tests.mk.test_races import events_of, ledger_exact, statuses, stocks
from tests.mk.test_winter_concurrency import at_once, client_for, shared_db  # noqa: F401
from tests.mk.test_winter_world import build_tv3, plain_summer, to_phase  # noqa: F401

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("round_", range(3))
def test_mk_buy_take_back_races_the_next_players_purchase(shared_db: None,  # noqa: F811
                                                          gm: User,
                                                          plain_summer: None,  # noqa: F811
                                                          round_: int) -> None:
    w = build_tv3(gm, slug=f"race-take-back-{round_}")
    to_phase(w, ws.BUY)
    before = stocks(w)
    buy = reverse("mk:winter_buy", args=[w.campaign.slug])
    red = client_for(w.users["Red"])
    assert red.post(buy, {"kind": "settle", "tile": w.t("E1"), "to": "village"}).status_code == 302
    mine = Event.objects.filter(campaign=w.campaign).order_by("-seq").first()
    assert mine.kind == "winter.buy"
    bought = stocks(w)
    events = events_of(w.campaign)
    results = at_once([
        (red, reverse("campaign:take_back", args=[w.campaign.slug]), {"seq": str(mine.seq)}),
        (client_for(w.users["Blue"]), buy, {"kind": "settle", "tile": w.t("BV1"),
                                             "to": "fortress"}),
    ])
    taken, blue = statuses(results)
    assert 302 in (taken, blue), results
    if taken == 409:
        # Blue bought first: Red is told why, and nothing of Red's changed.
        assert blue == 302
        assert "someone acted after it" in results[0][1]
        assert Event.objects.get(pk=mine.pk).undone_at is None
        assert stocks(w)["Red"] == bought["Red"]
    else:
        assert Event.objects.get(pk=mine.pk).undone_by_id == w.users["Red"].pk
        assert stocks(w)["Red"] == before["Red"]
    purchases = Purchase.objects.filter(campaign=w.campaign)
    assert purchases.filter(kingdom=w.k("Red")).count() == (0 if taken == 302 else 1)
    assert purchases.filter(kingdom=w.k("Blue")).count() == (1 if blue == 302 else 0)
    assert events_of(w.campaign) == events + (taken == 302) + (blue == 302)
    ledger_exact(w)
