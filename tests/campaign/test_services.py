"""The services: every write checks what is allowed, writes in one transaction and records one
chronicle event; refused requests raise ServiceError and write nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction

from campaign import mapview, services
from campaign.chronicle import Recorder, UndoError, undo_latest
from campaign.models import Campaign, Event, Kingdom, Map, Membership, Role, Tile
from campaign.rulesystems import get_system
from tests.campaign.conftest import World, dump
from tests.conftest import MIGHTY_KINGDOMS, make_campaign_of, make_user


def tiles_of(campaign: Campaign) -> list[tuple[Any, ...]]:
    return list(Tile.objects.filter(map__campaign=campaign).order_by("label").values_list(
        "label", "q", "r", "terrain", "features", "edges", "is_start"))


# -- campaigns --------------------------------------------------------------------------------


def test_create_campaign(gm: Any) -> None:
    campaign = services.create_campaign(gm, name="Winter War", slug="winter-war",
                                        rule_system="mighty-kingdoms", description="Cold.")
    system = get_system("mighty-kingdoms")
    assert list(Membership.objects.filter(campaign=campaign).values_list("user", "role")) == [
        (gm.pk, "gm")
    ]
    game_map = Map.objects.get(campaign=campaign)
    style = system.map_style
    shape = (game_map.kind, game_map.orientation, game_map.width, game_map.height, game_map.seed)
    assert shape == (style.kind, style.orientation, style.width, style.height, None)
    # Without a seed every tile starts as the first terrain.
    assert {row[3] for row in tiles_of(campaign)} == {system.terrains[0].slug}
    assert len(tiles_of(campaign)) == style.width * style.height
    assert campaign.options == system.parse_options({})
    assert campaign.created_by == gm
    start = system.hook("initial_clock_fields")
    expected_clock = start() if start else {"year": 1}
    assert {k: campaign.clock[k] for k in expected_clock} == expected_clock
    (event,) = Event.objects.filter(campaign=campaign)
    assert (event.seq, event.kind, event.summary, event.reversible, event.actor) == (
        1, "campaign.created", "gm created the campaign.", False, gm
    )


@pytest.mark.system(MIGHTY_KINGDOMS)
def test_same_seed_same_map_across_campaigns(gm: Any, system: str) -> None:
    one = make_campaign_of(system, gm, slug="one", width=12, height=9, seed=77)
    two = make_campaign_of(system, gm, slug="two", width=12, height=9, seed=77)
    three = make_campaign_of(system, gm, slug="three", width=12, height=9, seed=78)
    assert tiles_of(one) == tiles_of(two)
    assert tiles_of(one) != tiles_of(three)
    starts = [row for row in tiles_of(one) if row[6]]
    assert len(starts) == services._start_tile_count(one.map)


def test_create_campaign_refuses_taken_slug(gm: Any, system: str) -> None:
    make_campaign_of(system, gm, slug="taken")
    before = dump()
    with pytest.raises(services.ServiceError, match="The address 'taken' is taken"):
        make_campaign_of(system, gm, slug="taken")
    assert dump() == before


@pytest.mark.system(MIGHTY_KINGDOMS)
def test_update_campaign_records_what_changed(world: World) -> None:
    options = dict(world.campaign.options)
    options["max_armies"] = 9
    services.update_campaign(world.campaign, world.gm, name="New name", description="d",
                             options=options, paper_size="letter", eco_print=True)
    campaign = Campaign.objects.get(pk=world.campaign.pk)
    saved = (campaign.name, campaign.paper_size, campaign.eco_print, campaign.options["max_armies"])
    assert saved == ("New name", "letter", True, 9)
    event = Event.objects.filter(campaign=campaign).order_by("-seq").first()
    assert event.summary == "Campaign settings changed: Most armies per kingdom."


@pytest.mark.parametrize(("options", "message"), [
    ({"max_armies": 0}, "Most armies per kingdom: must be at least 1."),
    ({"max_armies": "6"}, "Most armies per kingdom: expected a whole number"),
    ({"battle_mode": "chess"}, "'chess' is not one of kow, simple."),
    ({"house_rule": True}, "Unknown option(s): house_rule."),
])
@pytest.mark.system(MIGHTY_KINGDOMS)
def test_update_campaign_refuses_bad_options(world: World, options: dict[str, Any],
                                             message: str) -> None:
    before = dump()
    with pytest.raises(services.ServiceError) as excinfo:
        services.update_campaign(world.campaign, world.gm, name="x", description="",
                                 options=options, paper_size="a4", eco_print=False)
    assert message in str(excinfo.value)
    assert dump() == before


# -- the chronicle's machinery ----------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_recorder_needs_a_transaction(system: str) -> None:
    gm = make_user("gm")
    campaign = make_campaign_of(system, gm, slug="tx", seed=None)
    with pytest.raises(RuntimeError, match="inside transaction.atomic"):
        with Recorder(campaign, gm, "x", "y"):
            pass
    assert Event.objects.filter(campaign=campaign).count() == 1


def test_event_without_changes_is_not_reversible(world: World) -> None:
    with transaction.atomic():
        with Recorder(world.campaign, world.gm, "note", "Just words.") as rec:
            rec.roll("morale", [3, 5], source="table")
    event = rec.event
    assert event.reversible is False
    assert event.dice == [{"purpose": "morale", "values": [3, 5], "source": "table"}]


def test_sequence_numbers_are_per_campaign(world: World) -> None:
    events = Event.objects.filter(campaign=world.campaign).order_by("seq")
    seqs = list(events.values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))
    assert list(Event.objects.filter(campaign=world.elsewhere).values_list("seq", flat=True)) == [1]
    services.create_invitation(world.elsewhere, world.elsewhere.created_by, role=Role.PLAYER,
                               single_use=False)
    far_events = Event.objects.filter(campaign=world.elsewhere)
    assert sorted(far_events.values_list("seq", flat=True)) == [1, 2]


@pytest.mark.system(MIGHTY_KINGDOMS)
def test_undo_latest_without_expected_seq(world: World) -> None:
    before = dump(exclude=(Event,))
    tile = Tile.objects.get(map__campaign=world.campaign, label="0101")
    services.edit_tile(tile, world.gm, changes={"terrain": "marsh"})
    undo = undo_latest(world.campaign, world.gm)
    assert undo.kind == "undo" and undo.undo_of.kind == "map.tile"
    assert dump(exclude=(Event,)) == before


def test_undo_of_another_campaigns_event_is_impossible(world: World) -> None:
    services.create_invitation(world.elsewhere, world.elsewhere.created_by, role=Role.PLAYER,
                               single_use=False)
    far = Event.objects.filter(campaign=world.elsewhere).order_by("-seq").first()
    before = dump()
    with pytest.raises(UndoError):
        undo_latest(world.campaign, world.gm, expected_seq=far.seq + 100)
    assert dump() == before


# -- members ----------------------------------------------------------------------------------


@pytest.mark.parametrize("call", ["invite", "change_role"])
def test_unknown_role_is_refused(world: World, call: str) -> None:
    before = dump()
    with pytest.raises(services.ServiceError, match="Unknown role 'king'."):
        if call == "invite":
            services.create_invitation(world.campaign, world.gm, role="king", single_use=True)
        else:
            services.change_role(world.membership(world.observer), world.gm, "king")
    assert dump() == before


def test_accept_invalid_token(world: World) -> None:
    before = dump()
    with pytest.raises(services.ServiceError, match="This invitation link is not valid."):
        services.accept_invitation("nope", world.outsider)
    assert dump() == before


def test_member_counts(world: World) -> None:
    assert services.member_counts(world.campaign) == {"gm": 1, "player": 2, "observer": 1}


# -- kingdoms ---------------------------------------------------------------------------------


@pytest.mark.parametrize("who", ["gm", "observer"])
def test_only_players_hold_kingdoms(world: World, who: str) -> None:
    membership = world.membership(world.user(who))
    before = dump()
    with pytest.raises(services.ServiceError, match="Only players can hold a kingdom."):
        services.create_kingdom(world.campaign, world.gm, name="Gold", colour="#ccaa00",
                                player=membership)
    with pytest.raises(services.ServiceError, match="Only players can hold a kingdom."):
        services.assign_kingdom(world.green, world.gm, membership)
    assert dump() == before


def test_claim_refuses_a_kingdom_with_a_player(world: World) -> None:
    newcomer = Membership.objects.create(campaign=world.campaign, user=make_user("new"),
                                         role=Role.PLAYER)
    before = dump()
    with pytest.raises(services.ServiceError, match="Red already has a player."):
        services.claim_kingdom(world.red, newcomer.user, newcomer)
    assert dump() == before


# -- the map ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"changes": {"q": 5}}, "Cannot edit q here."),
    ({"changes": {"map": 5, "data": {}}}, "Cannot edit data, map here."),
    ({"changes": {"terrain": "lava"}}, "Unknown terrain 'lava'."),
    ({"changes": {"settlement": "castle"}}, "Unknown settlement 'castle'."),
    ({"changes": {}, "edges": {"0": ["lava"]}}, "Unknown edge feature(s): lava."),
    ({"changes": {}, "features": ["volcano"]}, "Unknown tile feature."),
])
@pytest.mark.grid_maps  # its tiles or the generator are a grid
def test_edit_tile_refuses_bad_changes(world: World, kwargs: dict[str, Any], message: str) -> None:
    tile = Tile.objects.get(map__campaign=world.campaign, label="0101")
    before = dump()
    with pytest.raises(services.ServiceError) as excinfo:
        services.edit_tile(tile, world.gm, **kwargs)
    assert str(excinfo.value) == message
    assert dump() == before


@pytest.mark.grid_maps  # its tiles or the generator are a grid
def test_edit_tile_refuses_a_foreign_controller(world: World) -> None:
    far = Kingdom.objects.create(campaign=world.elsewhere, name="Far")
    tile = Tile.objects.get(map__campaign=world.campaign, label="0101")
    before = dump()
    with pytest.raises(services.ServiceError, match="That kingdom is not part of this campaign."):
        services.edit_tile(tile, world.gm, changes={"controller": far})
    assert dump() == before


@pytest.mark.parametrize("direction", [-1, 6, 99])
@pytest.mark.system(MIGHTY_KINGDOMS)
def test_toggle_edge_refuses_a_side_that_does_not_exist(world: World, direction: int) -> None:
    tile = Tile.objects.get(map__campaign=world.campaign, label="0303")
    before = dump()
    with pytest.raises(services.ServiceError, match="That is not an edge of this tile."):
        services.toggle_edge(tile, world.gm, direction=direction, feature="river")
    assert dump() == before


@pytest.mark.parametrize(("width", "height", "orientation", "message"), [
    (500, 5, "flat", "A map is between 3 and 100 tiles wide and high."),
    (5, 2, "flat", "A map is between 3 and 100 tiles wide and high."),
    (5, 5, "round", "Orientation is flat or pointy."),
])
def test_regenerate_map_refuses_bad_sizes(world: World, width: int, height: int,
                                          orientation: str, message: str) -> None:
    before = dump()
    with pytest.raises(services.ServiceError, match=message):
        services.regenerate_map(world.campaign, world.gm, seed=1, width=width, height=height,
                                orientation=orientation)
    assert dump() == before


@pytest.mark.system(MIGHTY_KINGDOMS)
def test_square_map_edges(world: World) -> None:
    Map.objects.filter(campaign=world.campaign).update(kind="square")
    services.regenerate_map(world.campaign, world.gm, seed=None, width=4, height=3,
                            orientation="flat")
    game_map = Map.objects.get(campaign=world.campaign)
    grid = services.grid_for(game_map)
    tile = Tile.objects.get(map=game_map, label="0202")
    # Square tiles have four sides: north, east, south, west.
    with pytest.raises(services.ServiceError, match="That is not an edge of this tile."):
        services.toggle_edge(tile, world.gm, direction=4, feature="river")
    for direction in range(4):
        (x1, y1), (x2, y2) = grid.edge_points(tile.q, tile.r, direction, mapview.TILE_SIZE)
        assert mapview.nearest_edge(grid, tile.q, tile.r, (x1 + x2) / 2, (y1 + y2) / 2) == direction
    services.toggle_edge(tile, world.gm, direction=1, feature="water")
    east = Tile.objects.get(map=game_map, q=tile.q + 1, r=tile.r)
    assert Tile.objects.get(pk=tile.pk).edges == {"1": ["water"]}
    assert east.edges == {"3": ["water"]}


@pytest.mark.parametrize("orientation", ["flat", "pointy"])
def test_nearest_edge_on_hexes(world: World, orientation: str) -> None:
    from campaign.rules import geometry

    grid = geometry.make_grid("hex", 6, 6, orientation)
    for q, r in [(2, 1), (0, 0), (5, -2)]:
        cx, cy = grid.center(q, r, mapview.TILE_SIZE)
        for direction in range(6):
            (x1, y1), (x2, y2) = grid.edge_points(q, r, direction, mapview.TILE_SIZE)
            # Anywhere between the centre and the edge's middle, past the halfway mark.
            for t in (0.6, 0.9, 1.0):
                x = cx + t * ((x1 + x2) / 2 - cx)
                y = cy + t * ((y1 + y2) / 2 - cy)
                assert mapview.nearest_edge(grid, q, r, x, y) == direction
