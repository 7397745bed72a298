"""A siege at the table (SNS-ECON-46, SNS-CBT-14): the table says a kingdom is besieged and it
stays so, turn after turn, until the table lifts the siege. While besieged it grows 1 less in
each compulsory phase, harvests only Sites inside the siege line and trades with no player
unless its Dock works; every change is in the chronicle and undone exactly."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from campaign.systems.swords_and_stones import sites, table
from campaign.systems.swords_and_stones.models import Game
from tests.sns.conftest import Avalon, dump, undo
from tests.sns.fourway import Four, four  # noqa: F401
from tests.sns.test_table import game, refused, stock  # noqa: F401
from tests.sns.test_table_builds import next_turn_compulsory, seat, to_phase
from tests.sns.test_table_trades import offer, to

pytestmark = pytest.mark.django_db


def _gm(avalon: Avalon) -> Client:
    client = Client()
    client.force_login(avalon.gm)
    return client


def test_sns_econ_46_a_siege_is_laid_kept_and_lifted(avalon: Avalon, game: Game) -> None:
    """SNS-ECON-46: laid in the harvest phase of turn 1, the siege stays through the compulsory
    phase of turn 2 (growth 1 for the lone Stockpile, less 1: 0), whose form shows it ticked;
    lifted, the next compulsory phase grows 1 again. Laying it twice is refused; undo puts every
    row back."""
    c, gm, red = avalon.campaign, avalon.gm, avalon.red
    before = dump()
    assert table.set_besieged(c, gm, game, red, True) == (
        "Red is besieged (SNS-ECON-46): no harvest outside the siege line, no trade without a "
        "working Dock, 1 less growth.")
    refused(lambda: table.set_besieged(c, gm, game, red, True), "SNS-ECON-46: nothing changes.")
    undo(avalon)
    assert dump() == before
    table.set_besieged(c, gm, game, red, True)
    next_turn_compulsory(avalon, game, red, besieged=True)
    assert (seat(avalon, red)["turn"], seat(avalon, red)["growth"],
            seat(avalon, red)["besieged"]) == (2, 0, True)
    url = reverse("sns:table", kwargs={"slug": c.slug, "number": game.number,
                                       "kingdom_id": red.pk})
    client = _gm(avalon)
    to_phase(avalon, game, red, "move_combat")
    to_phase(avalon, game, red, "compulsory")
    page = client.get(url).content.decode()
    assert '<input type="checkbox" name="besieged" value="yes" checked>' in page
    assert "<strong>besieged</strong> (SNS-ECON-46)" in page
    assert table.set_besieged(c, gm, game, red, False) == (
        "The siege of Red is lifted (SNS-ECON-46).")
    table.compulsory(c, gm, game, red)
    assert (seat(avalon, red)["growth"], seat(avalon, red)["besieged"]) == (1, False)


def test_sns_econ_46_no_harvest_outside_the_siege_line(avalon: Avalon, game: Game) -> None:
    """SNS-ECON-46, SNS-ECON-22: besieged, Red harvests its Forest only when the table says it
    lies inside the siege line (through the form's box): 2 wood."""
    c, gm, red = avalon.campaign, avalon.gm, avalon.red
    sites.record_site(c, gm, game, red, "F1", "forest", 4)
    table.set_besieged(c, gm, game, red, True)
    wood = stock(avalon, red)["wood"]
    refused(lambda: sites.harvest_site(c, gm, game, red, 1, [4, 5]),
            "A besieged kingdom cannot harvest outside the siege line (SNS-ECON-46).")
    url = reverse("sns:table_action", kwargs={"slug": c.slug, "number": game.number,
                                              "kingdom_id": red.pk, "action": "site_harvest"})
    client = _gm(avalon)
    page = client.get(reverse("sns:table", kwargs={"slug": c.slug, "number": game.number,
                                                   "kingdom_id": red.pk})).content.decode()
    assert 'name="inside_siege" value="yes"' in page
    assert client.post(url, {"site": 1, "dice": "4 5"}).status_code == 409
    assert client.post(url, {"site": 1, "dice": "4 5", "inside_siege": "yes"}).status_code == 302
    assert stock(avalon, red)["wood"] == wood + 2


def test_sns_econ_46_a_besieged_kingdom_trades_only_with_a_working_dock(four: Four  # noqa: F811
                                                                          ) -> None:
    """SNS-ECON-46, SNS-ECON-57: Red, besieged and without a Dock, may not offer Green a trade
    even with their zones touching; the siege lifted, it may."""
    for name in ("Red", "Green"):
        to(four, name, "advance")
    table.set_besieged(four.campaign, four.gm, four.game, four.kingdoms["Red"], True)
    refused(lambda: offer(four, "Red", "Green", {"wood": 1}, {}, zones_touch=True),
            "A besieged kingdom without an operational Dock cannot trade (SNS-ECON-46).")
    table.set_besieged(four.campaign, four.gm, four.game, four.kingdoms["Red"], False)
    assert offer(four, "Red", "Green", {"wood": 1}, {}, zones_touch=True).pk


def test_sns_econ_46_a_compulsory_phase_not_told_keeps_the_siege(avalon: Avalon,
                                                                 game: Game) -> None:
    """SNS-ECON-46: a compulsory phase run without saying (as the demo and other services run
    it) keeps the siege as the table has it: growth 0 for the lone Stockpile, still besieged."""
    c, gm, red = avalon.campaign, avalon.gm, avalon.red
    table.set_besieged(c, gm, game, red, True)
    next_turn_compulsory(avalon, game, red)
    assert (seat(avalon, red)["growth"], seat(avalon, red)["besieged"]) == (0, True)
