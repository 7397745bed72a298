"""Reads whose SQL is worked out once (``campaign.kept_sql.kept_rows``): the rows are those the
queryset gives, read afresh each time with the values of the call; only the statement is kept,
under a key that names the query's shape, so one viewer's read never serves another's rows."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.db.models import Count
from django.db.models.functions import Lower
from django.db.models.signals import post_init
from django.test.utils import CaptureQueriesContext

from battles.models import Army
from campaign import kept_sql, notes
from campaign.access import Access
from campaign.kept_sql import kept_rows, kept_values
from campaign.models import Event, Kingdom, Role, Tile, Visibility
from campaign.views.pages import counted_kingdoms
from tests.campaign.conftest import World
from tests.conftest import MIGHTY_KINGDOMS

pytestmark = pytest.mark.system(MIGHTY_KINGDOMS)


def _access(world: World, persona: str) -> Access:
    user = world.user(persona)
    kingdom = Kingdom.objects.filter(campaign=world.campaign, player__user=user).first()
    role = Role.GM if persona in {"gm", "admin"} else (
        Role.OBSERVER if persona == "observer" else Role.PLAYER)
    return Access(campaign=world.campaign, membership=None, role=role, kingdom=kingdom)


def _secret(world: World, kingdom: Kingdom, summary: str) -> Event:
    seq = world.campaign.events.order_by("-seq").first().seq + 1
    return Event.objects.create(campaign=world.campaign, seq=seq, kind="test.secret",
                                summary=summary, visibility=Visibility.KINGDOM, kingdom=kingdom)


def test_rows_are_the_querysets_rows(world: World) -> None:
    def build(slug: str) -> object:
        return Kingdom.objects.filter(campaign__slug=slug).select_related("player__user")

    for slug in (world.campaign.slug, world.elsewhere.slug, "no-such-campaign"):
        expected = list(build(slug))
        with CaptureQueriesContext(connection) as queries:
            rows = kept_rows(("test", "kingdoms of"), build, slug)
        assert len(queries) == 1
        assert [(k.pk, k.name, k.player_id) for k in rows] == [
            (k.pk, k.name, k.player_id) for k in expected]
        with CaptureQueriesContext(connection) as queries:
            assert [k.player and k.player.user.username for k in rows] == [
                k.player and k.player.user.username for k in expected]
        assert len(queries) == 0  # the related rows came with them


def _whole(obj: object) -> dict[str, object]:
    """An instance as made: its values, its state, and those of the objects it came with."""
    made = {k: v for k, v in vars(obj).items() if k != "_state"}
    state = obj._state  # type: ignore[attr-defined]
    made["_state"] = (state.adding, state.db, {name: _whole(related) if related else related
                                               for name, related in state.fields_cache.items()})
    return made


def _kingdoms_with_players(campaign_id: int) -> object:
    return (Kingdom.objects.filter(campaign_id=campaign_id).select_related("player__user")
            .annotate(n=Count("armies")).order_by("pk"))


def test_instances_are_made_as_djangos_whole(world: World) -> None:
    """Every value, the state (saved, which database) and the related objects of each row,
    with and without a player, are those Django's own iteration makes."""
    expected = list(_kingdoms_with_players(world.campaign.pk))
    assert {k.player_id is None for k in expected} == {True, False}
    rows = kept_rows(("test", "whole kingdoms"), _kingdoms_with_players, world.campaign.pk)
    assert [_whole(k) for k in rows] == [_whole(k) for k in expected] and rows
    assert all(type(k) is Kingdom and not k._state.adding for k in rows)
    rows[0].name = "Renamed"
    rows[0].save(update_fields=["name"])
    assert Kingdom.objects.get(pk=rows[0].pk).name == "Renamed"


def _kingdoms_deferring(campaign_id: int) -> object:
    return (Kingdom.objects.filter(campaign_id=campaign_id).select_related("player__user")
            .defer("created_at", "player__joined_at", "player__user__last_login")
            .order_by("pk"))


def test_instances_with_deferred_columns_are_made_as_djangos(world: World) -> None:
    """A deferred column is left out of each instance as Django leaves it, and read from the
    database when first asked for, as Django reads it."""
    expected = list(_kingdoms_deferring(world.campaign.pk))
    rows = kept_rows(("test", "deferring kingdoms"), _kingdoms_deferring, world.campaign.pk)
    assert [_whole(k) for k in rows] == [_whole(k) for k in expected] and rows
    assert all("created_at" not in vars(k) for k in rows)
    assert rows[0].get_deferred_fields() == expected[0].get_deferred_fields() >= {"created_at"}
    with CaptureQueriesContext(connection) as queries:
        assert rows[0].created_at == Kingdom.objects.get(pk=rows[0].pk).created_at
    assert len(queries) == 2


def test_a_listener_to_instances_being_made_still_hears_each(world: World) -> None:
    heard: list[object] = []

    def listen(sender: type, instance: object, **kwargs: object) -> None:
        heard.append(instance)

    post_init.connect(listen, sender=User)
    try:
        rows = kept_rows(("test", "whole kingdoms"), _kingdoms_with_players, world.campaign.pk)
    finally:
        post_init.disconnect(listen, sender=User)
    users = [k.player.user for k in rows if k.player]
    assert users and [id(u) for u in users] == [id(u) for u in heard]


def test_each_viewer_reads_the_events_they_may_see_whoever_read_first(world: World) -> None:
    _secret(world, world.blue, "Blue buries its gold.")
    _secret(world, world.red, "Red sharpens its knives.")
    for order in (["gm", "player", "other_player", "observer"],
                  ["observer", "other_player", "player", "gm"]):
        for persona in order:
            access = _access(world, persona)
            expected = [e.pk for e in notes.with_entry_flags(
                Event.objects.filter(campaign=world.campaign).filter(
                    pk__in=[e.pk for e in world.campaign.events.all()
                            if access.can_see_event(e)]))[:8]]
            with CaptureQueriesContext(connection) as queries:
                events = notes.latest_events(access, 8)
                labels = [e.clock_label() for e in events]  # each knows its campaign
            assert len(queries) == 1
            assert [e.pk for e in events] == expected
            assert len(labels) == len(events)
            summaries = {e.summary for e in events}
            assert ("Blue buries its gold." in summaries) == (persona in {"gm", "other_player"})
            assert ("Red sharpens its knives." in summaries) == (persona in {"gm", "player"})


def test_a_new_event_shows_at_once(world: World) -> None:
    access = _access(world, "player")
    before = notes.latest_events(access, 8)
    _secret(world, world.red, "Red counts its arrows.")
    after = notes.latest_events(access, 8)
    assert after[0].summary == "Red counts its arrows."
    assert [e.pk for e in after[1:]] == [e.pk for e in before[:7]]


def test_a_value_worked_into_a_pattern_is_not_kept(world: World) -> None:
    def build(text: str) -> object:
        return Kingdom.objects.filter(name__contains=text).order_by("pk")

    assert [k.name for k in kept_rows(("test", "named like"), build, "ree")] == ["Green"]
    assert [k.name for k in kept_rows(("test", "named like"), build, "lu")] == ["Blue"]


def test_kept_values_are_the_querysets_tuples_converted_or_as_answered(world: World) -> None:
    def build(campaign_id: int) -> object:
        return (Tile.objects.filter(map__campaign_id=campaign_id)
                .values_list("label", "explored", "features").order_by("pk"))

    for campaign in (world.campaign, world.elsewhere):
        expected = list(build(campaign.pk))
        with CaptureQueriesContext(connection) as queries:
            assert kept_values(("test", "tiles"), build, campaign.pk) == expected
        assert len(queries) == 1
        raw = kept_values(("test", "tiles"), build, campaign.pk, convert=False)
        assert [row[0] for row in raw] == [row[0] for row in expected]
        assert [bool(row[1]) for row in raw] == [row[1] for row in expected]
    tile = Tile.objects.filter(map__campaign=world.campaign).order_by("pk").first()
    Tile.objects.filter(pk=tile.pk).update(features=["ford"], explored=True)
    assert kept_values(("test", "tiles"), build, world.campaign.pk)[0][1:] == (True, ["ford"])


def test_kept_values_leave_out_the_columns_an_ordering_added(world: World) -> None:
    def build(campaign_id: int) -> object:
        # DISTINCT puts the ordering's expression among the selected columns.
        return (Kingdom.objects.filter(campaign_id=campaign_id).values_list("name")
                .order_by(Lower("name").desc()).distinct())

    assert kept_values(("test", "names by lower"), build, world.campaign.pk) == list(
        build(world.campaign.pk))
    assert kept_values(("test", "names by lower"), build, world.campaign.pk, convert=False) == [
        tuple(row) for row in build(world.campaign.pk)]


def test_kept_values_take_only_plain_values_list_queries(world: World) -> None:
    with pytest.raises(TypeError):
        kept_values(("test", "flat"), lambda pk: Kingdom.objects.filter(campaign_id=pk)
                    .values_list("name", flat=True), world.campaign.pk)


def test_overview_counts_follow_each_change(world: World) -> None:
    campaign = world.campaign
    red = world.red

    def counts() -> dict[str, tuple[int, int, int]]:
        rows, _ = counted_kingdoms(campaign)
        assert [k.pk for k in rows] == sorted(k.pk for k in rows)
        return {k.name: (k.n_tiles, k.n_settlements, k.n_armies) for k in rows}

    def expected() -> dict[str, tuple[int, int, int]]:
        return {k.name: (Tile.objects.filter(controller=k).count(),
                         Tile.objects.filter(controller=k).exclude(settlement="").count(),
                         Army.objects.filter(kingdom=k).exclude(data__has_key="removed").count())
                for k in Kingdom.objects.filter(campaign=campaign)}

    before = counts()
    assert before == expected()
    tiles = list(Tile.objects.filter(map__campaign=campaign).exclude(controller=red)
                 .order_by("pk").values_list("pk", flat=True)[:3])
    Tile.objects.filter(pk__in=tiles).update(controller=red, settlement="")
    Tile.objects.filter(pk=tiles[0]).update(settlement="town")
    number = (Army.objects.filter(kingdom=red).order_by("-number").values_list(
        "number", flat=True).first() or 0) + 1
    Army.objects.create(campaign=campaign, kingdom=red, number=number, name="Host")
    Army.objects.create(campaign=campaign, kingdom=red, number=number + 1, name="Gone",
                        data={"removed": True})
    after = counts()
    assert after == expected()
    assert after["Red"][0] == before["Red"][0] + 3
    assert after["Red"][2] == before["Red"][2] + 1


def test_overview_shows_only_the_viewers_secrets(world: World) -> None:
    _secret(world, world.blue, "Blue buries its gold.")
    seen = {}
    for persona in ("gm", "player", "other_player", "observer"):
        page = world.client(persona).get(world.campaign.get_absolute_url()).content.decode()
        seen[persona] = "Blue buries its gold." in re.sub(r"\s+", " ", page)
    assert seen == {"gm": True, "player": False, "other_player": True, "observer": False}


def test_notes_on_show_each_viewer_theirs_whoever_read_first(world: World) -> None:
    notes.add_note(world.campaign, world.gm, text="Shared word.", shared=True, kingdom=world.red)
    notes.add_note(world.campaign, world.gm, text="Secret word.", shared=False, kingdom=world.red)
    notes.add_note(world.campaign, world.gm, text="On Blue.", shared=True, kingdom=world.blue)
    tile = Tile.objects.filter(map__campaign=world.campaign).order_by("pk").first()
    notes.add_note(world.campaign, world.gm, text="On a tile.", shared=False, tile=tile)
    for order in (["gm", "player", "observer"], ["observer", "player", "gm"]):
        for persona in order:
            access = _access(world, persona)
            gm = persona == "gm"
            assert [n.text for n in notes.notes_on(access, kingdom=world.red)] == (
                ["Shared word.", "Secret word."] if gm else ["Shared word."])
            assert [n.text for n in notes.notes_on(access, kingdom=world.blue)] == ["On Blue."]
            assert [n.text for n in notes.notes_on(access, tile=tile)] == (
                ["On a tile."] if gm else [])
            assert notes.notes_on(access) == []


def test_a_kept_statements_own_constants_are_written_into_its_text_on_postgresql(
        world: World) -> None:
    """The query's own constants (an event's visibility, a union's marks, text holding a quote
    or a percent sign) are written into the kept text on PostgreSQL, so that it keeps one plan
    for them; the call's values stay parameters. The rows are the same as Django's."""
    from campaign.kept_sql import _constants_written_in, _literal

    assert _literal(True) == "true" and _literal(7) == "7" and _literal("it's") == "'it''s'"
    assert _literal(1.5) is None and _literal("a\x00b") is None
    sql, slots = _constants_written_in(
        "SELECT %s, a FROM t WHERE b = %s AND c LIKE '5%%' AND d = %s",
        [(False, "50% off"), (True, 0), (False, 3)])
    assert sql == "SELECT '50%% off', a FROM t WHERE b = %s AND c LIKE '5%%' AND d = 3"
    assert slots == [(True, 0)]

    def build(campaign_id: int) -> object:
        return (Kingdom.objects.filter(campaign_id=campaign_id)
                .exclude(name="it's 100% red").exclude(data__has_key="gone").order_by("pk"))

    found = kept_rows(("test", "constants"), build, world.campaign.pk)
    assert [k.pk for k in found] == [k.pk for k in build(world.campaign.pk)]
    kept = next(statement for (*_, key), statement in kept_sql._kept.items()
                if key == ("test", "constants"))
    if connection.vendor == "postgresql":
        assert "'it''s 100%% red'" in kept.sql and "'gone'" in kept.sql
        assert kept.slots == ((True, 0),)
    else:
        assert len(kept.slots) == 3
