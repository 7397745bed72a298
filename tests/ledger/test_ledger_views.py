"""The ledger page and its CSV export: a player reads only their own kingdom's ledger, a GM
every one; everyone else 403 (members) or 404 (outsiders)."""

from __future__ import annotations

import csv
import io

import pytest
from django.test import Client
from django.urls import reverse

from campaign.models import Role
from campaign.systems.mighty_kingdoms import winter_services as ws
from campaign.systems.mighty_kingdoms.rules.ledger import Purchase as Buy
from tests.conftest import add_member, make_campaign, make_user
from tests.mk.test_winter_world import World, plain_summer, to_phase, tv3  # noqa: F401

pytestmark = pytest.mark.django_db


@pytest.fixture
def booked(tv3: World) -> World:
    """Red has gathered its TV-MK-3 income and built a village at E1."""
    to_phase(tv3, ws.BUY)
    ws.buy(tv3.kingdoms["Red"], tv3.gm, Buy("settle", tv3.t("E1"), "village"))
    return tv3


def client_as(w: World, persona: str) -> Client:
    client = Client()
    if persona == "anonymous":
        return client
    users = {"gm": w.gm, "player": w.users["Red"], "other_player": w.users["Blue"]}
    if persona == "observer":
        user = make_user("watcher")
        add_member(w.campaign, user, Role.OBSERVER)
    elif persona == "outsider":
        user = make_user("stranger")
        make_campaign(user, slug="elsewhere", seed=None, width=4, height=4)
    elif persona == "admin":
        from django.contrib.auth.models import User

        user = User.objects.create_superuser("root", "root@example.com", "pw-root")
    else:
        user = users[persona]
    client.force_login(user)
    return client


EXPECTED = {"anonymous": 302, "outsider": 404, "observer": 403, "other_player": 403,
            "player": 200, "gm": 200, "admin": 200}


@pytest.mark.parametrize("persona", list(EXPECTED))
@pytest.mark.parametrize("page", ["kingdom", "csv"])
def test_ledger_pages_by_persona(booked: World, persona: str, page: str) -> None:
    url = reverse(f"campaign:ledger:{page}", args=[booked.campaign.slug,
                                                   booked.kingdoms["Red"].pk])
    response = client_as(booked, persona).get(url)
    assert response.status_code == EXPECTED[persona]
    if persona == "anonymous":
        assert response["Location"].startswith(reverse("login"))
    if response.status_code == 200 and page == "csv":
        assert response["Content-Type"] == "text/csv; charset=utf-8"
        assert response["Content-Disposition"] == (
            f'attachment; filename="{booked.campaign.slug}-red-ledger.csv"')


def test_ledger_csv_rows(booked: World) -> None:
    response = client_as(booked, "player").get(
        reverse("campaign:ledger:csv", args=[booked.campaign.slug, booked.kingdoms["Red"].pk]))
    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
    c0, e1 = booked.t("C0"), booked.t("E1")
    assert [(r["resource"], r["amount"], r["balance"], r["rule"], r["source"], r["phase"])
            for r in rows] == [
        ("gold", "1", "1", "MK-AMB-2", f"own capital at {c0}, as a city", "B"),
        ("gold", "1", "2", "MK-WINTER-2", f"own capital at {c0}", "B"),
        ("gold", "1", "3", "MK-WINTER-2", f"city at {booked.t('C1')}", "B"),
        ("gold", "1", "4", "MK-WINTER-2", f"city at {booked.t('C2')}", "B"),
        ("food", "1", "1", "MK-WINTER-2", f"village at {booked.t('V1')}", "B"),
        ("food", "1", "2", "MK-WINTER-2", f"village at {booked.t('V2')}", "B"),
        ("food", "1", "3", "MK-WINTER-2", f"village at {booked.t('V3')}", "B"),
        ("gold", "-1", "3", "MK-SETTLE-3", f"village at {e1}", "C"),
    ]
    assert {r["season"] for r in rows} == {"winter"} and {r["year"] for r in rows} == {"1"}
    assert all(r["event"] for r in rows)


def test_ledger_page_shows_balances_and_entries(booked: World) -> None:
    response = client_as(booked, "player").get(
        reverse("campaign:ledger:kingdom", args=[booked.campaign.slug,
                                                 booked.kingdoms["Red"].pk]))
    html = response.content.decode()
    assert "Ledger of Red" in html
    assert "<dt>Gold</dt><dd><strong>3</strong></dd>" in html
    assert "<dt>Food</dt><dd><strong>3</strong></dd>" in html
    assert f"village at {booked.t('E1')}" in html and "MK-SETTLE-3" in html
    assert "disagrees" not in html


def test_ledger_of_another_campaigns_kingdom_is_404(booked: World) -> None:
    other = make_campaign(booked.gm, slug="other-campaign", seed=None, width=4, height=4)
    response = client_as(booked, "gm").get(
        reverse("campaign:ledger:kingdom", args=[other.slug, booked.kingdoms["Red"].pk]))
    assert response.status_code == 404


def test_ledger_index_sends_a_player_to_their_own_and_lists_all_for_the_gm(booked: World) -> None:
    url = reverse("campaign:ledger:index", args=[booked.campaign.slug])
    response = client_as(booked, "player").get(url)
    assert response.status_code == 302
    assert response["Location"] == reverse("campaign:ledger:kingdom",
                                           args=[booked.campaign.slug, booked.kingdoms["Red"].pk])
    page = client_as(booked, "gm").get(url).content.decode()
    for name in ("Red", "Blue", "Green"):
        assert name in page
    assert client_as(booked, "observer").get(url).status_code == 403


def test_ledger_year_filter(booked: World) -> None:
    url = reverse("campaign:ledger:kingdom", args=[booked.campaign.slug,
                                                   booked.kingdoms["Red"].pk])
    page = client_as(booked, "player").get(url + "?year=2").content.decode()
    assert "Nothing booked in year 2." in page
    assert "<dt>Gold</dt><dd><strong>3</strong></dd>" in page
