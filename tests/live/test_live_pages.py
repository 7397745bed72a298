"""Pages that follow the game: the per-viewer version, 304 while nothing changed, the poller on
every campaign page, and nothing secret reaching a viewer who may not see it."""

from __future__ import annotations

from datetime import timedelta
from typing import Any, Callable

from django.contrib.auth.models import User
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from campaign.chronicle import Recorder
from campaign.models import Campaign, Event, Kingdom, Visibility
from tests.live.conftest import KEPT_QUERIES


def _record(campaign: Campaign, user: User, summary: str, **kwargs: Any) -> Event:
    with transaction.atomic():
        with Recorder(campaign, user, "test.live", summary, **kwargs) as rec:
            pass
    assert rec.event is not None
    return rec.event


def _version(client: Any, campaign: Campaign, etag: str | None = None,
             since: str | None = None) -> Any:
    url = reverse("campaign:live", args=[campaign.slug])
    headers = {"If-None-Match": etag} if etag else {}
    return client.get(url, {"since": since} if since else {}, headers=headers)


def test_each_role_sees_the_version_it_may_read(campaign: Campaign, gm: User, player: User,
                                                other_player: User, observer: User,
                                                outsider: User, admin_user: User,
                                                login: Callable[..., Any]) -> None:
    """A secret event of Red moves the version of Red's player and the GMs only; outsiders and
    anonymous visitors get the 404 of any page of a campaign they may not see."""
    public = _record(campaign, gm, "The banners go up.")
    red = Kingdom.objects.get(campaign=campaign, name="Red")
    secret = _record(campaign, gm, "Red hides gold.", visibility=Visibility.KINGDOM, kingdom=red)
    gm_only = _record(campaign, gm, "The GM rolls behind the screen.",
                      visibility=Visibility.GM)
    assert public.seq + 1 == secret.seq and secret.seq + 1 == gm_only.seq
    seen = {}
    for name, user in (("gm", gm), ("player", player), ("other", other_player),
                       ("observer", observer), ("admin", admin_user)):
        response = _version(login(user), campaign)
        assert response.status_code == 200, name
        assert response.content == b""
        seen[name] = int(response["X-Live-Version"])
    assert seen == {"gm": gm_only.seq, "player": secret.seq, "other": public.seq,
                    "observer": public.seq, "admin": gm_only.seq}
    assert _version(login(outsider), campaign).status_code == 404
    anonymous = _version(login(None), campaign)
    assert anonymous.status_code == 302 and anonymous["Location"].startswith("/accounts/login/")
    missing = reverse("campaign:live", args=["no-such-campaign"])
    assert login(gm).get(missing).status_code == 404


def test_an_unchanged_version_is_answered_304_in_one_or_two_queries(
        campaign: Campaign, player: User, gm: User, login: Callable[..., Any]) -> None:
    client = login(player)
    first = _version(client, campaign)
    etag = first["ETag"]
    assert etag == f'"{first["X-Live-Version"]}"'
    with CaptureQueriesContext(connection) as queries:
        again = _version(client, campaign, etag)
    assert again.status_code == 304 and again.content == b""
    assert again["Cache-Control"] == "private, no-store"
    # The session, then the user with the versions in one query; on PostgreSQL both in one,
    # the process having served this session at the first poll.
    assert len(queries) == KEPT_QUERIES, [q["sql"][:80] for q in queries]
    # Another kingdom's secret leaves it unchanged; a public event changes it.
    blue_user = User.objects.create_user("blue", password="pw")
    from tests.conftest import add_member

    blue = Kingdom.objects.create(campaign=campaign, name="Blue", colour="#0000aa",
                                  player=add_member(campaign, blue_user, "player"))
    _record(campaign, gm, "Blue hides gold.", visibility=Visibility.KINGDOM, kingdom=blue)
    assert _version(client, campaign, etag).status_code == 304
    news = _record(campaign, gm, "The phase closes.")
    changed = _version(client, campaign, etag)
    assert changed.status_code == 200 and changed["X-Live-Version"] == str(news.seq)


def test_the_latest_public_and_own_secret_events_are_found_past_later_events_of_other_kinds(
        campaign: Campaign, gm: User, player: User, other_player: User,
        login: Callable[..., Any]) -> None:
    """The version reads the latest public event and the viewer's kingdom's latest secret one
    from their own indexes: many later events of the GMs and of another kingdom change neither
    (the player's version stays, the other player's stays), and each is told by its own time."""
    red = Kingdom.objects.get(campaign=campaign, name="Red")
    other = Kingdom.objects.filter(campaign=campaign).exclude(pk=red.pk).first()
    assert other is not None and other.player is not None
    public = _record(campaign, gm, "The banners go up.")
    secret = _record(campaign, gm, "Red hides gold.", visibility=Visibility.KINGDOM, kingdom=red)
    for n in range(12):
        _record(campaign, gm, f"The GM rolls {n}.", visibility=Visibility.GM)
        _record(campaign, gm, f"{other.name} hides {n}.", visibility=Visibility.KINGDOM,
                kingdom=other)
    red_client, other_client = login(player), login(other_player)
    assert int(_version(red_client, campaign)["X-Live-Version"]) == secret.seq
    latest_other = Event.objects.filter(campaign=campaign, kingdom=other).order_by("-seq")[0]
    assert int(_version(other_client, campaign)["X-Live-Version"]) == latest_other.seq
    # Nothing of Red's or public since the secret: the first poll tells nothing happened.
    after_secret = (secret.created_at + timedelta(microseconds=1)).isoformat()
    assert _version(red_client, campaign, since=after_secret)["X-Live-Changed"] == "0"
    assert public.seq < secret.seq


def test_the_version_query_finds_each_latest_event_by_its_own_index_on_postgresql(
        campaign: Campaign, player: User) -> None:
    """The visibilities are written into the version query, not sent as values, so that the
    plan PostgreSQL keeps for every viewer (a generic plan) can use the partial indexes of
    public and of kingdom events; sent as values, no generic plan could."""
    from campaign import live

    if connection.vendor != "postgresql":
        assert "LATERAL" not in live._version_sql()
        return
    sql = live._version_sql()
    assert "'public'" in sql and "'kingdom'" in sql
    numbered = sql.replace("%s", "$1", 1).replace("%s", "$2", 1)
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL plan_cache_mode = force_generic_plan")
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute(f"PREPARE version_plan(bigint, text) AS {numbered}")
        try:
            cursor.execute("EXPLAIN EXECUTE version_plan(%s, %s)",
                           [player.pk, campaign.slug])
            plan = "\n".join(row[0] for row in cursor.fetchall())
        finally:
            cursor.execute("DEALLOCATE version_plan")
    assert "event_public_seq" in plan and "event_kingdom_secret_seq" in plan, plan


def test_the_first_poll_tells_whether_something_happened_since_the_page(
        campaign: Campaign, player: User, gm: User, login: Callable[..., Any]) -> None:
    client = login(player)
    page_time = timezone.now().isoformat()
    assert _version(client, campaign, since=page_time)["X-Live-Changed"] == "0"
    _record(campaign, gm, "A purchase is made.")
    assert _version(client, campaign, since=page_time)["X-Live-Changed"] == "1"


def test_a_changed_password_ends_the_poll_too(campaign: Campaign, player: User,
                                             login: Callable[..., Any]) -> None:
    client = login(player)
    assert _version(client, campaign).status_code == 200
    player.set_password("a-new-password-9")
    player.save()
    assert _version(client, campaign).status_code == 404


def test_every_campaign_page_carries_the_poller(campaign: Campaign, player: User,
                                                login: Callable[..., Any]) -> None:
    client = login(player)
    live = reverse("campaign:live", args=[campaign.slug])
    for name in ("detail", "play", "map", "chronicle", "members", "notifications"):
        body = client.get(reverse(f"campaign:{name}", args=[campaign.slug])).content.decode()
        assert f'id="live" hidden hx-get="{live}" hx-trigger="every 4s"' in body, name
        assert "js/live.js" in body, name
    # Pages outside a campaign have none.
    assert 'id="live"' not in client.get(reverse("home")).content.decode()


def test_the_poll_answers_get_only(campaign: Campaign, player: User,
                                   login: Callable[..., Any]) -> None:
    url = reverse("campaign:live", args=[campaign.slug])
    assert login(player).post(url).status_code == 405
