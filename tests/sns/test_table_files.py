"""A game of four at the table in the campaign file: its seats, trades (accepted and open) and
battles (over and under way) export, import and export again to the same document; a trade of
an unknown resource or a battle of no game is refused with its path, writing nothing."""

from __future__ import annotations

import copy

import pytest

from campaign import transfer
from campaign.models import Campaign
from campaign.systems.swords_and_stones import autoresolve_play as arp
from campaign.systems.swords_and_stones import trades
from campaign.systems.swords_and_stones.rules import autoresolve as ar
from campaign.transfer.base import ImportRefused
from tests.campaign.conftest import as_imported, without_import_event
from tests.sns.fourway import Four, four  # noqa: F401
from tests.sns.test_table_trades import to

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(four: Four) -> Four:  # noqa: F811
    """Red gave Green 2 wood for a stone; Gold's offer to Blue is open; Red's attack on Blue is
    over and Green's on Gold waits for Gold's defences."""
    c, g, game, k = four.campaign, four.gm, four.game, four.kingdoms
    for name in ("Red", "Green", "Blue", "Gold"):
        to(four, name, "advance")
    offer = trades.offer(c, g, game, k["Red"], k["Green"], {"wood": 2}, {"stone": 1},
                         zones_touch=True)
    trades.accept(c, g, game, offer.pk, k["Green"])
    trades.offer(c, g, game, k["Gold"], k["Blue"], {"iron": 1}, {}, zones_touch=True)
    for name in ("Red", "Green", "Blue", "Gold"):
        to(four, name, "move_combat")
    battle = arp.begin(c, g, game, k["Red"], k["Blue"], ["VILLAGER"] * 3)
    arp.defences(c, g, game, battle.pk, ar.Defences(castles=1))
    arp.begin(c, g, game, k["Green"], k["Gold"], ["VILLAGER"])
    return four


def test_sns_econ_57_trades_and_battles_round_trip(played: Four) -> None:
    """SNS-ECON-57, SNS-AR-1, SNS-RES-3."""
    first = transfer.export_campaign(played.campaign)
    section = first["campaign"]["systems"]["swords-and-stones"]
    assert [(t["offerer"], t["receiver"], t["status"]) for t in section["trades"]] == [
        ("Red", "Green", "accepted"), ("Gold", "Blue", "offered")]
    assert [(b["attacker"], b["defender"], b["step"]) for b in section["battles"]] == [
        ("Red", "Blue", "done"), ("Green", "Gold", "defences")]
    assert [p["side"] for p in section["games"][0]["participants"]] == [
        "challenger", "defender", "challenger", "defender"]
    copy_ = transfer.import_campaign(copy.deepcopy(first), played.gm, slug="table-copy")
    second = transfer.export_campaign(copy_)
    assert without_import_event(second, "gm") == as_imported(first, "gm")


@pytest.mark.parametrize(("path", "value", "message"), [
    (("trades", 0, "gives"), {"gems": 1},
     "campaign.systems.swords-and-stones.trades[0].gives: resources and amounts of 0 to 999"),
    (("trades", 1, "status"), "haggled",
     "campaign.systems.swords-and-stones.trades[1].status: 'haggled' is not one of"),
    (("battles", 0, "game"), None,
     "campaign.systems.swords-and-stones.battles[0].game: say which game."),
    (("battles", 1, "step"), "skirmish",
     "campaign.systems.swords-and-stones.battles[1].step: 'skirmish' is not one of"),
])
def test_a_bad_trade_or_battle_is_refused_with_its_path(played: Four, path: tuple, value: object,
                                                        message: str) -> None:
    doc = copy.deepcopy(transfer.export_campaign(played.campaign))
    node = doc["campaign"]["systems"]["swords-and-stones"]
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    campaigns = Campaign.objects.count()
    with pytest.raises(ImportRefused) as caught:
        transfer.import_campaign(doc, played.gm, slug="bad-copy")
    assert str(caught.value).startswith(message)
    assert Campaign.objects.count() == campaigns
