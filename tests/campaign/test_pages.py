"""The campaign overview and the GM's settings page."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from battles.models import Army
from campaign.models import Campaign, Event, Tile
from tests.campaign.conftest import World, dump, error_text
from tests.campaign.test_access import settings_payload
from tests.conftest import MIGHTY_KINGDOMS


def test_overview_counts_each_kingdoms_holdings(world: World) -> None:
    tiles = list(Tile.objects.filter(map__campaign=world.campaign).order_by("label"))
    Tile.objects.filter(pk__in=[t.pk for t in tiles[:7]]).update(controller=world.red)
    Tile.objects.filter(pk__in=[t.pk for t in tiles[:3]]).update(settlement="village")
    Tile.objects.filter(pk__in=[t.pk for t in tiles[7:9]]).update(controller=world.blue,
                                                                  settlement="city")
    for number in (1, 2):
        Army.objects.create(campaign=world.campaign, kingdom=world.red, number=number,
                            tile=tiles[0])
    body = world.client("observer").get(world.campaign.get_absolute_url()).content.decode()
    rows = {
        name: [int(n) for n in re.findall(r'<td role="cell" class="num"[^>]*>(\d+)</td>', row)]
        for name, row in re.findall(r'>(\w+)</a></th>(.*?)</tr>', body, re.S)
    }
    assert rows == {"Blue": [2, 2, 0], "Green": [0, 0, 0], "Red": [7, 3, 2]}
    text = error_text(world.client("observer").get(world.campaign.get_absolute_url()))
    assert "Green unclaimed 0 0 0" in text


@pytest.mark.parametrize(("persona", "button"), [
    ("gm", "Found a kingdom"), ("admin", "Found a kingdom"), ("player", None), ("observer", None),
])
def test_overview_offers_founding_to_those_who_may(world: World, persona: str,
                                                    button: str | None) -> None:
    body = world.client(persona).get(world.campaign.get_absolute_url()).content.decode()
    assert ("Found a kingdom" in body) == (button is not None)
    assert "Found your kingdom" not in body  # both players already rule one
    assert "Claim Green" not in body


@pytest.mark.system(MIGHTY_KINGDOMS)
def test_gm_saves_settings(world: World) -> None:
    data = settings_payload(world)
    data.update({"name": "The Long War", "description": "Ten years.", "paper_size": "letter",
                 "eco_print": "on", "opt_max_armies": "8", "opt_battle_mode": "simple",
                 "opt_campaign_years": "5"})
    data.pop("opt_sealed_orders", None)
    url = reverse("campaign:settings", args=[world.campaign.slug])
    response = world.client("gm").post(url, data)
    assert response.status_code == 302
    assert response["Location"] == url
    campaign = Campaign.objects.get(pk=world.campaign.pk)
    assert (campaign.name, campaign.description, campaign.paper_size, campaign.eco_print) == (
        "The Long War", "Ten years.", "letter", True
    )
    expected = campaign.system.parse_options({})
    expected.update({"max_armies": 8, "battle_mode": "simple", "campaign_years": 5,
                     "sealed_orders": False})
    assert campaign.options == expected
    event = Event.objects.filter(campaign=campaign).order_by("-seq").first()
    assert event.kind == "campaign.settings"
    assert event.summary == ("Campaign settings changed: Battle mode, Most armies per kingdom, "
                             "Campaign length in years, Sealed orders.")
    # The form shows what was saved.
    page = world.client("gm").get(url).content.decode()
    assert 'value="The Long War"' in page
    assert 'name="opt_max_armies" value="8"' in page


def test_settings_form_names_each_options_rule(world: World) -> None:
    url = reverse("campaign:settings", args=[world.campaign.slug])
    body = world.client("gm").get(url).content.decode()
    for spec in world.campaign.system.options:
        if spec.rule_id:
            assert f"({spec.rule_id})" in body


def test_settings_with_every_field_missing_is_refused(world: World) -> None:
    before = dump()
    response = world.client("gm").post(reverse("campaign:settings", args=[world.campaign.slug]), {})
    assert response.status_code == 400
    assert "This field is required." in error_text(response)
    assert dump() == before
