"""The end of a campaign of a set length, and the standings (MK-AMB-20, MK-GEN-5).

TV-MK-3's world with ``campaign_years`` 1: when year 1's winter D) Deploy armies closes, the
campaign ends where the clock stopped; the chronicle records the final standings; advancing and
every action are refused with the reason; undo brings the winter back; a GM who lengthens the
campaign plays on into year 2. Standings show on the campaign page throughout.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from battles.models import Army, ArmyList, Unit
from campaign import services
from campaign.chronicle import undo_latest
from campaign.services import ServiceError
from campaign.systems.mighty_kingdoms import phases, standings
from campaign.systems.mighty_kingdoms import winter_services as ws
from tests.mk.test_winter_world import (  # noqa: F401
    World,
    build_tv3,
    dump,
    plain_summer,
    settle,
    to_phase,
)

pytestmark = pytest.mark.django_db

TV3_STANDINGS = (
    "Final standings: Red: 10 tiles, 3 villages, 3 cities, its capital, 1 fortress, 3 armies "
    "(1300 points); Blue: 3 tiles, 2 villages, 1 city, its capital, 0 fortresses, 1 army "
    "(500 points); Green: 2 tiles, 1 village, 1 city, its capital, 0 fortresses, 1 army "
    "(500 points)."
)


def last_winter(gm: Any, **options: Any) -> World:
    """TV-MK-3's world in a one-year campaign, at winter D) with every army deployed."""
    w = build_tv3(gm, options={"campaign_years": 1, **options})
    to_phase(w, ws.DEPLOY)
    settle(w)
    return w


def client_for(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_mk_amb_20_the_last_winter_ends_the_campaign(gm: Any, plain_summer: None) -> None:
    w = last_winter(gm)
    event = w.advance()
    campaign = w.fresh()
    assert (campaign.year, campaign.season, campaign.phase) == (1, "winter", "D")  # clock stops
    assert campaign.state["ended"] == {"year": 1}
    assert campaign.clock_label() == "Year 1: the campaign is over"
    assert event.kind == "campaign.ended" and event.visibility == "public"
    assert event.summary == (
        "Year 1, winter, D) Deploy armies is over, and with it the campaign: it ran for 1 year, "
        "as the group set (MK-AMB-20). " + TV3_STANDINGS + " No winner is declared (MK-AMB-20).")
    assert [(r["name"], r["tiles"], r["army_points"], r["place"])
            for r in event.data["standings"]] == [
        ("Red", 10, 1300, None), ("Blue", 3, 500, None), ("Green", 2, 500, None)]
    # The clock refuses to move, with the reason.
    with pytest.raises(ServiceError, match=r"^The campaign is over: it ended with the winter "
                                           r"of year 1, the last year the group set"):
        phases.advance(w.fresh(), gm)
    response = client_for(gm).post(reverse("campaign:advance", args=[campaign.slug]))
    assert response.status_code == 409
    assert "The campaign is over" in response.content.decode()
    assert campaign.events.filter(kind="campaign.ended").count() == 1


def test_mk_amb_20_nothing_is_played_after_the_end(gm: Any, plain_summer: None) -> None:
    w = last_winter(gm)
    w.advance()
    before = dump()
    red = w.kingdoms["Red"]
    player = client_for(w.users["Red"])
    slug = w.campaign.slug
    for name, data in (("mk:winter_deploy", {"army": "1", "tile": w.t("C0")}),
                       ("mk:winter_tithe", {"receiver": str(w.kingdoms["Blue"].pk), "gold": "1"}),
                       ("mk:summer_order", {"token": "army:1", "kind": "defend"}),
                       ("mk:setup_race", {"race": "Elves"})):
        response = player.post(reverse(name, args=[slug]), {"kingdom": str(red.pk), **data})
        assert response.status_code == 409, name
        assert "The campaign is over" in response.content.decode()
    assert dump() == before


def test_mk_amb_20_the_pages_show_the_final_standings(gm: Any, plain_summer: None) -> None:
    w = last_winter(gm)
    w.advance()
    for user in (gm, w.users["Blue"]):
        client = client_for(user)
        play = client.get(reverse("campaign:play", args=[w.campaign.slug])).content.decode()
        assert "Year 1: the campaign is over" in play
        assert "Final standings" in play
        assert "No winner is declared (MK-AMB-20)." in play
        assert "Deploy this army" not in play
        overview = client.get(reverse("campaign:detail", args=[w.campaign.slug])).content.decode()
        assert "Final standings" in overview
        assert ('<th scope="row" role="rowheader">Red</th>'
                '<td role="cell" class="num" data-label="Tiles">10</td>'
                '<td role="cell" class="num" data-label="Villages">3</td>'
                '<td role="cell" class="num" data-label="Cities">3 ★</td>'
                '<td role="cell" class="num" data-label="Fortresses">1</td>'
                '<td role="cell" class="num" data-label="Armies">3</td>'
                '<td role="cell" class="num" data-label="Army points">1300</td>') in overview
        assert "★ holds its own capital." in overview


def test_mk_amb_20_undo_brings_the_last_winter_back(gm: Any, plain_summer: None) -> None:
    w = last_winter(gm)
    before = dump()
    event = w.advance()
    undo_latest(w.fresh(), gm, expected_seq=event.seq)
    assert dump() == before
    assert not standings.ended(w.fresh())


def test_mk_amb_20_a_lengthened_campaign_plays_on(gm: Any, plain_summer: None) -> None:
    w = last_winter(gm)
    w.advance()
    campaign = w.fresh()
    services.update_campaign(campaign, gm, name=campaign.name, description="",
                             options={**campaign.options, "campaign_years": 2},
                             paper_size="a4", eco_print=False)
    event = w.advance()
    campaign = w.fresh()
    assert campaign.clock_label() == "Year 2, summer month 1, A) Orders"
    assert "ended" not in campaign.state
    assert event.summary == ("The campaign goes on: it now runs for 2 years (MK-AMB-20). "
                             "Now: Year 2, summer month 1, A) Orders.")


def test_mk_amb_20_an_open_ended_campaign_never_ends(gm: Any, plain_summer: None) -> None:
    w = build_tv3(gm)
    to_phase(w, ws.DEPLOY)
    settle(w)
    event = w.advance()
    assert event.kind == "phase.advanced"
    assert w.fresh().clock_label() == "Year 2, summer month 1, A) Orders"


def test_mk_amb_20_house_rule_scoring_names_the_winner(gm: Any, plain_summer: None) -> None:
    w = last_winter(gm, scoring="army_points")
    Army.objects.filter(kingdom=w.kingdoms["Blue"]).update(points=400)
    event = w.advance()
    assert event.summary.endswith(
        "Red wins with the most army points (house rule, MK-AMB-20).")
    assert [(r["name"], r["score"], r["place"]) for r in event.data["standings"]] == [
        ("Red", 1300, 1), ("Green", 500, 2), ("Blue", 400, 3)]
    overview = client_for(w.users["Green"]).get(
        reverse("campaign:detail", args=[w.campaign.slug])).content.decode()
    assert "<strong>Red</strong> wins with the most army points (house rule, MK-AMB-20)." in \
        overview


def test_mk_amb_20_joint_winners_share_first_place(gm: Any, plain_summer: None) -> None:
    w = last_winter(gm, scoring="army_points")
    event = w.advance()  # Red 1300; Blue and Green 500 each
    assert [(r["name"], r["place"]) for r in event.data["standings"]] == [
        ("Red", 1), ("Blue", 2), ("Green", 2)]
    Army.objects.filter(kingdom=w.kingdoms["Red"]).update(points=100)  # 300 in all
    rows = standings.standings(w.fresh())
    assert [(r.tally.name, r.place, r.winner) for r in rows] == [
        ("Blue", 1, True), ("Green", 1, True), ("Red", 3, False)]


def test_mk_amb_20_standings_during_the_campaign_on_the_campaign_page(gm: Any,
                                                                       plain_summer: None) -> None:
    w = build_tv3(gm, options={"campaign_years": 3})
    page = client_for(w.users["Blue"]).get(
        reverse("campaign:detail", args=[w.campaign.slug])).content.decode()
    assert "<h2 id=\"standings-title\">Standings</h2>" in page
    assert "Year 1 of 3. The rules name no winner (MK-AMB-20)." in page
    assert "Final standings" not in page


def test_mk_amb_20_kings_of_war_army_points_count_living_units(gm: Any,
                                                                plain_summer: None) -> None:
    """A fixed Kings of War list counts its units still alive; other armies their roster."""
    w = build_tv3(gm)
    army = Army.objects.get(kingdom=w.kingdoms["Green"], number=1)
    army_list = ArmyList.objects.create(army=army, race="Elves", fixed_at="2024-01-01T00:00Z")
    for position, (points, gone) in enumerate(((200, ""), (150, ""), (120, "battle"))):
        Unit.objects.create(army_list=army_list, position=position, name=f"U{position}",
                            unit_type="regiment", points=points, destroyed_reason=gone)
    tallies = {t.name: t for t in standings.tallies(w.fresh())}
    assert tallies["Green"].army_points == (350,)
    assert sorted(tallies["Red"].army_points) == [300, 500, 500]


def test_mk_amb_20_an_ended_campaign_exports_and_imports_as_ended(gm: Any,
                                                                  plain_summer: None) -> None:
    from campaign import transfer

    w = last_winter(gm)
    w.advance()
    data = transfer.loads(transfer.dumps(transfer.export_campaign(w.fresh())))
    copy = transfer.import_campaign(data, gm, slug="ended-copy")
    assert copy.clock_label() == "Year 1: the campaign is over"
    assert standings.ended(copy)
    event = copy.events.get(kind="campaign.ended")
    assert [r["name"] for r in event.data["standings"]] == ["Red", "Blue", "Green"]
    assert [r.tally.name for r in standings.standings(copy)] == ["Red", "Blue", "Green"]
