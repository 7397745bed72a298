"""The chronicle: who reads which events, filtering, and undoing the latest events exactly."""

from __future__ import annotations

from typing import Any, Callable

import pytest
from django.contrib.auth.models import User
from django.db import transaction
from django.urls import reverse

from battles.models import Army
from campaign import chronicle, services
from campaign.chronicle import Recorder
from campaign.models import Campaign, Event, Kingdom, Tile, Visibility
from tests.campaign.conftest import World, dump, error_text, image_bytes
from tests.conftest import MIGHTY_KINGDOMS, make_user


def record(campaign: Campaign, actor: Any, kind: str, summary: str, *,
           visibility: str = Visibility.PUBLIC, kingdom: Kingdom | None = None) -> Event:
    with transaction.atomic():
        with Recorder(campaign, actor, kind, summary, visibility=visibility,
                      kingdom=kingdom) as rec:
            pass
    return rec.event


def chronicle_url(world: World, query: str = "") -> str:
    return reverse("campaign:chronicle", args=[world.campaign.slug]) + query


def summaries(body: str) -> list[str]:
    import re

    return re.findall(r'<span class="summary">(.*?)</span>', body)


@pytest.fixture
def secrets(world: World) -> World:
    record(world.campaign, world.gm, "story.public", "Everyone sees this.")
    record(world.campaign, world.gm, "story.red", "Red's secret.",
           visibility=Visibility.KINGDOM, kingdom=world.red)
    record(world.campaign, world.gm, "story.blue", "Blue's secret.",
           visibility=Visibility.KINGDOM, kingdom=world.blue)
    record(world.campaign, world.gm, "story.gm", "Only GMs see this.", visibility=Visibility.GM)
    return world


ALL = ["Only GMs see this.", "Blue&#x27;s secret.", "Red&#x27;s secret.", "Everyone sees this.",
       "gm created a single-use invitation for a player.", "gm created the campaign."]
EXPECTED_VISIBLE = {
    "gm": ALL,
    "admin": ALL,
    "player": ["Red&#x27;s secret.", "Everyone sees this.", "gm created the campaign."],
    "other_player": ["Blue&#x27;s secret.", "Everyone sees this.", "gm created the campaign."],
    "observer": ["Everyone sees this.", "gm created the campaign."],
}


@pytest.mark.parametrize("persona", sorted(EXPECTED_VISIBLE))
def test_each_persona_reads_what_they_may(secrets: World, persona: str) -> None:
    response = secrets.client(persona).get(chronicle_url(secrets))
    assert response.status_code == 200
    assert summaries(response.content.decode()) == EXPECTED_VISIBLE[persona]
    # The overview's latest events follow the same rule.
    overview = secrets.client(persona).get(secrets.campaign.get_absolute_url())
    assert summaries(overview.content.decode()) == EXPECTED_VISIBLE[persona]


@pytest.mark.parametrize("persona", sorted(EXPECTED_VISIBLE))
def test_htmx_filter_does_not_leak_either(secrets: World, persona: str) -> None:
    response = secrets.client(persona).get(chronicle_url(secrets, "?kind=story"),
                                           headers={"HX-Request": "true"})
    expected = [s for s in EXPECTED_VISIBLE[persona]
                if "campaign" not in s and "invitation" not in s]
    assert summaries(response.content.decode()) == expected


def test_kind_filter_lists_only_kinds_the_viewer_may_see(secrets: World) -> None:
    record(secrets.campaign, secrets.gm, "secretplot.hatched", "Hidden.", visibility=Visibility.GM)
    gm_body = secrets.client("gm").get(chronicle_url(secrets)).content.decode()
    assert '<option value="secretplot"' in gm_body
    assert '<option value="invitation"' in gm_body
    body = secrets.client("observer").get(chronicle_url(secrets)).content.decode()
    assert '<option value="story"' in body
    assert '<option value="secretplot"' not in body
    assert '<option value="invitation"' not in body


def test_removed_player_reads_nothing(secrets: World) -> None:
    membership = secrets.membership(secrets.player)
    services.remove_member(membership, secrets.gm)
    assert secrets.client("player").get(chronicle_url(secrets)).status_code == 404


def test_filter_by_kind_and_year(world: World) -> None:
    record(world.campaign, world.gm, "battle.fought", "Battle in year 1.")
    Campaign.objects.filter(pk=world.campaign.pk).update(year=2)
    record(world.campaign, world.gm, "battle.fought", "Battle in year 2.")
    record(world.campaign, world.gm, "map.tile", "Map change in year 2.")
    client = world.client("gm")

    assert summaries(client.get(chronicle_url(world, "?kind=battle")).content.decode()) == [
        "Battle in year 2.", "Battle in year 1."
    ]
    assert summaries(client.get(chronicle_url(world, "?year=2")).content.decode()) == [
        "Map change in year 2.", "Battle in year 2."
    ]
    assert summaries(client.get(chronicle_url(world, "?kind=battle&year=1")).content.decode()) == [
        "Battle in year 1."
    ]
    assert summaries(client.get(chronicle_url(world, "?kind=nothing")).content.decode()) == []
    empty = client.get(chronicle_url(world, "?year=7")).content.decode()
    assert "Nothing has happened yet." in empty
    body = client.get(chronicle_url(world)).content.decode()
    for kind in ("battle", "map", "campaign", "invitation"):
        assert f'<option value="{kind}"' in body
    filtered = client.get(chronicle_url(world, "?kind=battle")).content.decode()
    assert '<option value="battle" selected' in filtered


@pytest.mark.parametrize("query", ["?year=abc", "?year=-1", "?year=", "?year=²", "?year=1.5",
                                   "?year=99999999999999999999999", "?page=zzz", "?page=-3",
                                   "?page=99999999999999999999999"])
def test_garbage_filters_never_fail(world: World, query: str) -> None:
    response = world.client("gm").get(chronicle_url(world, query))
    assert response.status_code == 200


@pytest.mark.parametrize("htmx", [False, True])
def test_nul_characters_are_a_bad_request_everywhere(world: World, htmx: bool) -> None:
    """PostgreSQL text cannot hold NUL: any request carrying one is refused before a view runs."""
    client = world.client("gm")
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    response = client.get(chronicle_url(world, "?kind=%00"), **headers)
    assert response.status_code == 400
    assert "Text may not contain NUL characters" in response.content.decode()
    before = list(Kingdom.objects.order_by("pk").values())
    url = reverse("campaign:kingdom_edit", args=[world.campaign.slug, world.red.pk])
    response = client.post(url, {"name": "Red\x00", "colour": "#aa0000"}, **headers)
    assert response.status_code == 400
    assert list(Kingdom.objects.order_by("pk").values()) == before


def test_htmx_filter_returns_only_the_events(world: World) -> None:
    record(world.campaign, world.gm, "battle.fought", "A battle.")
    response = world.client("observer").get(chronicle_url(world, "?kind=battle"),
                                            headers={"HX-Request": "true"})
    assert response.status_code == 200
    body = response.content.decode()
    assert "<html" not in body and "<form" not in body and 'id="events"' not in body
    assert body.strip().startswith('<ol class="chronicle">')
    assert summaries(body) == ["A battle."]
    assert "HX-Request" in response["Vary"]


def test_chronicle_pages_fifty_events_at_a_time(world: World) -> None:
    for n in range(60):
        record(world.campaign, world.gm, "story.note", f"Note {n}.")
    client = world.client("observer")
    first = summaries(client.get(chronicle_url(world)).content.decode())
    assert len(first) == 50 and first[0] == "Note 59."
    second = summaries(client.get(chronicle_url(world, "?page=2")).content.decode())
    assert second == [f"Note {n}." for n in range(9, -1, -1)] + ["gm created the campaign."]


# -- undo -------------------------------------------------------------------------------------


def latest_undoable(world: World) -> Event:
    return (Event.objects.filter(campaign=world.campaign, reversible=True, undone_at__isnull=True,
                                 undo_of__isnull=True).order_by("-seq").first())


def undo(world: World, seq: Any, persona: str = "gm"):
    return world.client(persona).post(reverse("campaign:undo", args=[world.campaign.slug]),
                                      {"seq": str(seq)})


def post(world: World, persona: str, name: str, args: list[Any], data: dict[str, Any]) -> None:
    url = reverse(f"campaign:{name}", args=[world.campaign.slug, *args])
    response = world.client(persona).post(url, data)
    assert response.status_code == 302, error_text(response)[-400:]


def place_things_on_the_map(world: World) -> None:
    """Rows that point at tiles, so replacing the map has something to put back."""
    tiles = list(Tile.objects.filter(map__campaign=world.campaign).order_by("label"))
    Tile.objects.filter(pk__in=[t.pk for t in tiles[:5]]).update(controller=world.red)
    world.red.capital_tile = tiles[2]
    world.red.start_tile = tiles[3]
    world.red.save()
    Army.objects.create(campaign=world.campaign, kingdom=world.red, number=1, tile=tiles[2])
    Army.objects.create(campaign=world.campaign, kingdom=world.blue, number=1, tile=tiles[9])


def act_tile_edit(world: World) -> None:
    post(world, "gm", "tile_edit", ["0302"], {"terrain": "marsh", "settlement": "village",
                                              "controller": str(world.blue.pk), "edge_1": "river"})


def act_paint_river(world: World) -> None:
    from campaign.mapview import TILE_SIZE

    t = Tile.objects.get(map__campaign=world.campaign, label="0403")
    grid = services.grid_for(world.campaign.map)
    (x1, y1), (x2, y2) = grid.edge_points(t.q, t.r, 2, TILE_SIZE)
    post(world, "gm", "map_paint", [], {"tile": "0403", "tool": "edge", "value": "river",
                                        "x": str((x1 + x2) / 2), "y": str((y1 + y2) / 2)})


def act_create_kingdom_with_crest(world: World) -> None:
    post(world, "gm", "kingdom_create", [], {"name": "Gold", "colour": "#ccaa00",
                                             "crest": image_bytes((50, 80), "JPEG")})


def act_edit_kingdom_with_crest(world: World) -> None:
    post(world, "player", "kingdom_edit", [world.red.pk],
         {"name": "Crimson", "colour": "#990000", "crest": image_bytes((20, 20))})


def act_remove_player(world: World) -> None:
    post(world, "gm", "remove_member", [world.membership(world.player).pk], {})
    assert Kingdom.objects.get(pk=world.red.pk).player is None


def act_regenerate_map(world: World) -> None:
    post(world, "gm", "map_generate", [], {"width": "9", "height": "7", "orientation": "pointy",
                                           "seed": "99"})
    assert Tile.objects.filter(map__campaign=world.campaign).count() == 63


def act_blank_map(world: World) -> None:
    post(world, "gm", "map_generate", [], {"width": "3", "height": "3", "orientation": "flat",
                                           "blank": "on"})


def act_settings(world: World) -> None:
    from tests.campaign.test_access import settings_payload

    data = settings_payload(world)
    data.update({"name": "Renamed", "eco_print": "on", "opt_max_armies": "9"})
    post(world, "gm", "settings", [], data)


def act_change_role(world: World) -> None:
    post(world, "gm", "change_role", [world.membership(world.observer).pk], {"role": "gm"})


def act_assign(world: World) -> None:
    post(world, "gm", "kingdom_assign", [world.red.pk], {"player": ""})


def act_revoke(world: World) -> None:
    post(world, "gm", "revoke_invitation", [world.invitation.pk], {})


def act_join(world: World) -> None:
    client = world.client("anonymous")
    client.force_login(make_user("dana") if not User.objects.filter(username="dana").exists()
                       else User.objects.get(username="dana"))
    assert client.post(reverse("join", args=[world.invitation.token])).status_code == 302


def act_photo(world: World) -> None:
    post(world, "player", "photos", [], {"image": image_bytes((500, 400), "JPEG"), "caption": "x"})


def act_invite(world: World) -> None:
    post(world, "gm", "invite", [], {"role": "observer"})


def clear_edges(world: World) -> None:
    Tile.objects.filter(map__campaign=world.campaign).update(edges={})


def make_dana(world: World) -> None:
    make_user("dana")


# What must be in place before the action (not part of the event), by action.
SETUP: dict[str, Callable[[World], None]] = {
    "paint river on two tiles": clear_edges,
    "map regenerated": place_things_on_the_map,
    "blank map": place_things_on_the_map,
    "invitation used": make_dana,
}

ACTIONS: dict[str, Callable[[World], None]] = {
    "tile edit": act_tile_edit,
    "paint river on two tiles": act_paint_river,
    "kingdom created with crest": act_create_kingdom_with_crest,
    "kingdom edited with crest": act_edit_kingdom_with_crest,
    "member removed": act_remove_player,
    "map regenerated": act_regenerate_map,
    "blank map": act_blank_map,
    "settings": act_settings,
    "role changed": act_change_role,
    "kingdom assigned": act_assign,
    "invitation revoked": act_revoke,
    "invitation used": act_join,
    "photo added": act_photo,
    "invitation created": act_invite,
}


@pytest.mark.parametrize("action", list(ACTIONS))
@pytest.mark.system(MIGHTY_KINGDOMS)
def test_undo_restores_the_database_exactly(world: World, action: str) -> None:
    if action in SETUP:
        SETUP[action](world)
    before = dump(exclude=(Event,))
    events_before = list(Event.objects.order_by("pk").values())

    ACTIONS[action](world)
    event = latest_undoable(world)
    seqs = [e["seq"] for e in events_before if e["campaign_id"] == world.campaign.pk]
    assert event.seq == max(seqs) + 1
    assert dump(exclude=(Event,)) != before

    response = undo(world, event.seq)
    assert response.status_code == 302
    assert response["Location"] == chronicle_url(world)
    assert dump(exclude=(Event,)) == before

    # The chronicle keeps both: the undone event, marked, and the undo itself.
    event.refresh_from_db()
    assert event.undone_at is not None and event.undone_by == world.gm
    undo_event = Event.objects.get(undo_of=event)
    assert (undo_event.kind, undo_event.summary, undo_event.reversible, undo_event.seq) == (
        "undo", f"Undid #{event.seq}: {event.summary}", False, event.seq + 1
    )
    assert (undo_event.visibility, undo_event.kingdom_id) == (event.visibility, event.kingdom_id)
    others = Event.objects.exclude(pk__in=[event.pk, undo_event.pk]).order_by("pk")
    assert list(others.values()) == events_before
    page = world.client("gm").get(chronicle_url(world)).content.decode()
    assert f'id="event-{event.seq}" class="undone"' in page


@pytest.mark.system(MIGHTY_KINGDOMS)
def test_undo_goes_back_one_event_at_a_time(world: World) -> None:
    start = dump(exclude=(Event,))
    act_tile_edit(world)
    middle = dump(exclude=(Event,))
    act_invite(world)
    second = latest_undoable(world)
    assert undo(world, second.seq).status_code == 302
    assert dump(exclude=(Event,)) == middle
    # An undo is not itself undoable: the next one reverses the tile edit.
    first = latest_undoable(world)
    assert first.kind == "map.tile"
    assert undo(world, first.seq).status_code == 302
    assert dump(exclude=(Event,)) == start
    # Then the invitation of the world fixture, and then nothing is left.
    assert undo(world, world.undoable.seq).status_code == 302
    before = dump()
    response = undo(world, world.undoable.seq)
    assert response.status_code == 409
    assert "There is nothing left to undo." in error_text(response)
    assert dump() == before


@pytest.mark.system(MIGHTY_KINGDOMS)
def test_undo_event_cannot_be_undone(world: World) -> None:
    act_tile_edit(world)
    tile_event = latest_undoable(world)
    assert undo(world, tile_event.seq).status_code == 302
    undo_event = Event.objects.get(undo_of=tile_event)
    before = dump()
    response = undo(world, undo_event.seq)
    assert response.status_code == 409
    assert f"Event #{undo_event.seq} is no longer the latest one" in error_text(response)
    assert dump() == before


@pytest.mark.system(MIGHTY_KINGDOMS)
def test_undo_refuses_a_stale_seq(world: World) -> None:
    act_tile_edit(world)
    seen = latest_undoable(world).seq
    act_invite(world)  # another GM acted meanwhile
    before = dump()
    response = undo(world, seen)
    assert response.status_code == 409
    assert (f"Event #{seen} is no longer the latest one; the page was out of date."
            in error_text(response))
    assert dump() == before


def test_nothing_to_undo_in_a_new_campaign(gm: Any, system: str) -> None:
    from tests.conftest import make_campaign_of

    campaign = make_campaign_of(system, gm, slug="fresh")
    (created,) = Event.objects.filter(campaign=campaign)
    assert (created.kind, created.reversible) == ("campaign.created", False)
    from django.test import Client

    client = Client()
    client.force_login(gm)
    page = client.get(reverse("campaign:chronicle", args=["fresh"])).content.decode()
    assert "Undo it" not in page
    before = dump()
    response = client.post(reverse("campaign:undo", args=["fresh"]), {"seq": str(created.seq)})
    assert response.status_code == 409
    assert "There is nothing left to undo." in error_text(response)
    assert dump() == before


@pytest.mark.parametrize("seq", ["", "abc", "-1", "1.0", "²", "٣x"])
def test_undo_needs_a_seq(world: World, seq: str) -> None:
    before = dump()
    response = undo(world, seq)
    assert response.status_code == 400
    assert "Say which event to undo." in error_text(response)
    assert dump() == before


@pytest.mark.system(MIGHTY_KINGDOMS)
def test_undo_with_a_huge_seq_is_refused(world: World) -> None:
    """A number beyond any event's (more than a database integer holds) is no event: 400."""
    before = dump()
    response = undo(world, "99999999999999999999999")
    assert response.status_code == 400
    assert "Say which event to undo." in error_text(response)
    assert dump() == before


@pytest.mark.system(MIGHTY_KINGDOMS)
def test_undo_form_only_for_gms(world: World) -> None:
    act_tile_edit(world)
    latest = latest_undoable(world)
    gm_page = world.client("gm").get(chronicle_url(world)).content.decode()
    assert f'<input type="hidden" name="seq" value="{latest.seq}">' in gm_page
    for persona in ("player", "observer"):
        page = world.client(persona).get(chronicle_url(world)).content.decode()
        assert 'name="seq"' not in page


@pytest.mark.parametrize("persona", ["player", "other_player", "observer"])
@pytest.mark.system(MIGHTY_KINGDOMS)
def test_only_gms_undo(world: World, persona: str) -> None:
    act_tile_edit(world)
    before = dump()
    assert undo(world, latest_undoable(world).seq, persona=persona).status_code == 403
    assert dump() == before


@pytest.mark.system(MIGHTY_KINGDOMS)
def test_admin_may_undo(world: World) -> None:
    before = dump(exclude=(Event,))
    act_tile_edit(world)
    assert undo(world, latest_undoable(world).seq, persona="admin").status_code == 302
    assert dump(exclude=(Event,)) == before
    assert Event.objects.filter(campaign=world.campaign, kind="undo").get().actor == world.admin


# -- the undo button offers exactly what undo does ---------------------------------------------


def undo_offer(world: World) -> str | None:
    """The seq the GM's chronicle page offers to undo, or None."""
    import re

    page = world.client("gm").get(chronicle_url(world)).content.decode()
    found = re.search(r'<input type="hidden" name="seq" value="(\d+)">', page)
    return found.group(1) if found else None


@pytest.mark.system(MIGHTY_KINGDOMS)
def test_page_offers_the_event_undo_reverses(world: World) -> None:
    act_tile_edit(world)
    latest = Event.objects.filter(campaign=world.campaign).order_by("-seq").first()
    assert latest.kind == "map.tile" and latest.reversible
    assert undo_offer(world) == str(latest.seq)
    assert list(chronicle.undoable_events(world.campaign)) == [latest, world.undoable]
    assert undo(world, latest.seq).status_code == 302
    assert undo_offer(world) == str(world.undoable.seq)


@pytest.mark.system(MIGHTY_KINGDOMS)
def test_an_event_that_cannot_be_undone_stops_the_offer(world: World) -> None:
    """A reversible event lies under one that cannot be undone: the page offers nothing and says
    why, and undo refuses, both agreeing."""
    act_tile_edit(world)
    older = Event.objects.filter(campaign=world.campaign).order_by("-seq").first()
    note = record(world.campaign, world.gm, "story.note", "The harvest festival was held.")
    assert not note.reversible and older.reversible

    assert undo_offer(world) is None
    page = error_text(world.client("gm").get(chronicle_url(world)))
    assert ("Nothing can be undone now. The latest event cannot be undone, and undo never "
            "reaches past it to older events: #%d The harvest festival was held." % note.seq
            ) in page
    assert "Undo it" not in page
    assert list(chronicle.undoable_events(world.campaign)) == []
    assert chronicle.latest_undoable(world.campaign) is None

    before = dump()
    response = undo(world, older.seq)
    assert response.status_code == 409
    assert "There is nothing left to undo." in error_text(response)
    assert dump() == before


def test_undoing_back_to_the_start_says_the_creation_cannot_be_undone(world: World) -> None:
    while (event := chronicle.latest_undoable(world.campaign)) is not None:
        assert undo_offer(world) == str(event.seq)
        assert undo(world, event.seq).status_code == 302
    assert undo_offer(world) is None
    page = error_text(world.client("gm").get(chronicle_url(world)))
    assert ("The latest event cannot be undone (it created the campaign), and undo never "
            "reaches past it to older events: #1 gm created the campaign.") in page


@pytest.mark.parametrize("persona", ["player", "observer"])
def test_only_gms_see_why_nothing_can_be_undone(world: World, persona: str) -> None:
    record(world.campaign, world.gm, "story.note", "A quiet month.")
    page = world.client(persona).get(chronicle_url(world)).content.decode()
    assert "Nothing can be undone" not in page


EVENT_CLOCKS = {
    # system: (year, phase) of the event -> its clock in the chronicle
    "mighty-kingdoms": ((2, "winter", 3, "buy"), "Y2 Winter M3 buy"),
    "swords-and-stones": ((9, "", None, "campaign"), "Game 9"),
    "war-of-kings": ((6, "", None, "movement"), "R6 Movement"),
    "middle-sea": ((4, "", None, "build"), "R4 build phase"),
}


def test_an_events_clock_reads_in_its_systems_words(gm: Any, system: str) -> None:
    """A Swords & Stones event reads "Game 9" in the chronicle, not "Y9 campaign": the system's
    shell words the clock of its events (``event_clock_label``), on the page and on paper."""
    from tests.conftest import make_campaign_of

    (year, season, month, phase), expected = EVENT_CLOCKS[system]
    campaign = make_campaign_of(system, gm, slug="clocks")
    event = record(campaign, gm, "note", "A line of the story")
    Event.objects.filter(pk=event.pk).update(year=year, season=season, month=month, phase=phase)
    shown = campaign.events.get(pk=event.pk)
    assert shown.clock_label() == expected
