"""The ledger in the Django admin: a site admin may list and read every ledger row, but cannot
add, change or delete one (the ledger is append-only; only services write it)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from campaign.systems.mighty_kingdoms import winter_services as ws
from campaign.systems.mighty_kingdoms.models import Purchase, Tithe
from campaign.systems.mighty_kingdoms.rules.ledger import Purchase as Buy
from ledger.models import Balance, LedgerEntry
from tests.mk.test_winter_world import World, plain_summer, to_phase, tv3  # noqa: F401

pytestmark = pytest.mark.django_db

MODELS = (LedgerEntry, Balance, Purchase, Tithe)


def _url(model: Any, view: str, *args: Any) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_{view}", args=args)


@pytest.fixture
def booked(tv3: World) -> World:
    """Red has gathered its TV-MK-3 income, tithed Blue 1 gold and built a village at E1."""
    to_phase(tv3, ws.TITHE)
    ws.give_tithe(tv3.kingdoms["Red"], tv3.gm, tv3.kingdoms["Blue"].pk, 1, 0)
    to_phase(tv3, ws.BUY)
    ws.buy(tv3.kingdoms["Red"], tv3.gm, Buy("settle", tv3.t("E1"), "village"))
    return tv3


@pytest.fixture
def admin_client(booked: World) -> Client:
    client = Client()
    client.force_login(User.objects.create_superuser("root", "root@example.com", "pw-root"))
    return client


def test_ledger_admin_lists_and_shows_rows_read_only(booked: World, admin_client: Client) -> None:
    entry = LedgerEntry.objects.filter(kingdom=booked.kingdoms["Red"]).first()
    assert entry is not None
    page = admin_client.get(_url(LedgerEntry, "changelist")).content.decode()
    assert "Add ledger entry" not in page
    detail = admin_client.get(_url(LedgerEntry, "change", entry.pk))
    assert detail.status_code == 200
    text = detail.content.decode()
    assert 'name="amount"' not in text          # shown, not editable
    assert 'name="_save"' not in text
    assert ">Delete<" not in text


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.__name__)
def test_ledger_admin_refuses_add_change_and_delete(booked: World, admin_client: Client,
                                                    model: Any) -> None:
    row = model.objects.order_by("pk").first()
    assert row is not None
    before = list(model.objects.order_by("pk").values())
    assert admin_client.get(_url(model, "add")).status_code == 403
    assert admin_client.post(_url(model, "add"), {}).status_code == 403
    assert admin_client.post(_url(model, "change", row.pk), {"amount": 99}).status_code == 403
    assert admin_client.get(_url(model, "delete", row.pk)).status_code == 403
    assert admin_client.post(_url(model, "delete", row.pk), {"post": "yes"}).status_code == 403
    bulk = admin_client.post(_url(model, "changelist"), {
        "action": "delete_selected", "_selected_action": [row.pk], "post": "yes"})
    assert bulk.status_code in (200, 302)
    assert list(model.objects.order_by("pk").values()) == before
