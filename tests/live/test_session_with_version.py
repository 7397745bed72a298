"""The session read with the viewer's version in one statement (``live.read_with_session``,
PostgreSQL): the process's memory of whose a session key was is a hint, never trusted. Whatever
it says, the session is checked as Django checks it (a session gone or expired is no session, a
changed password signs it out) and the version is the session's own user's. On other databases
the two are read apart, and every answer here is the same."""

from __future__ import annotations

from datetime import timedelta
from typing import Any, Callable

import pytest
from django.contrib.auth.models import User
from django.contrib.sessions.models import Session
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from campaign import live
from campaign.chronicle import Recorder
from campaign.models import Campaign, Kingdom, Visibility
from tests.live.conftest import KEPT_QUERIES

pytestmark = pytest.mark.django_db


def _poll(client: Client, campaign: Campaign) -> Any:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("campaign:live", args=[campaign.slug]))
    response.queries = len(queries)
    return response


def _secret(campaign: Campaign, gm: User, kingdom: Kingdom) -> int:
    with transaction.atomic():
        with Recorder(campaign, gm, "test.secret", "A secret.", visibility=Visibility.KINGDOM,
                      kingdom=kingdom) as rec:
            pass
    return rec.event.seq


def _key(client: Client) -> str:
    return client.cookies["sessionid"].value


def test_the_second_poll_reads_the_session_with_the_version(
        campaign: Campaign, player: User, login: Callable[..., Client]) -> None:
    client = login(player)
    first = _poll(client, campaign)
    assert first.status_code == 200 and first.queries == 2
    assert live._SEEN[_key(client)] == player.pk
    again = _poll(client, campaign)
    assert again.status_code == 200 and again.queries == KEPT_QUERIES
    assert again["X-Live-Version"] == first["X-Live-Version"]


def test_a_wrong_hint_reads_the_sessions_own_users_version(
        campaign: Campaign, gm: User, player: User, other_player: User,
        login: Callable[..., Client]) -> None:
    """The hint names another member (whose kingdom has a secret): the poll still answers with
    the session's own user's version, and the hint is put right. Two queries either way: the
    session (with the wrong user's version on PostgreSQL), then the right version."""
    client = login(player)
    _poll(client, campaign)
    blue = Kingdom.objects.get(campaign=campaign, name="Blue")
    secret = _secret(campaign, gm, blue)
    live._SEEN[_key(client)] = other_player.pk
    answer = _poll(client, campaign)
    assert answer.status_code == 200
    assert int(answer["X-Live-Version"]) == secret - 1
    assert answer.queries == 2
    assert live._SEEN[_key(client)] == player.pk


@pytest.mark.parametrize("how", ["signed out", "expired", "password changed",
                                 "no longer a member"])
def test_a_session_that_is_no_more_gets_nothing_whatever_the_hint(
        campaign: Campaign, player: User, login: Callable[..., Client], how: str) -> None:
    client = login(player)
    assert _poll(client, campaign).status_code == 200
    assert live._SEEN[_key(client)] == player.pk
    if how == "signed out":
        Session.objects.filter(session_key=_key(client)).delete()
    elif how == "expired":
        Session.objects.filter(session_key=_key(client)).update(
            expire_date=timezone.now() - timedelta(seconds=1))
    elif how == "password changed":
        player.set_password("a-new-password-9")
        player.save()
    else:
        Kingdom.objects.filter(campaign=campaign, player__user=player).delete()
        campaign.memberships.filter(user=player).delete()
    answer = _poll(client, campaign)
    if how in ("signed out", "expired"):
        assert answer.status_code == 302 and answer["Location"].startswith("/accounts/login/")
    else:
        assert answer.status_code == 404


def test_a_kept_page_of_another_campaign_is_that_campaigns(
        campaign: Campaign, gm: User, player: User, login: Callable[..., Client],
        settings: Any) -> None:
    """The hint is by session, the version by campaign: the same session asking another
    campaign's page, where the player is no member, gets its 404."""
    from tests.conftest import make_campaign

    settings.PAGE_CACHE = True
    client = login(player)
    play = reverse("campaign:play", args=[campaign.slug])
    for _ in range(3):
        assert client.get(play).status_code == 200
    other = make_campaign(gm, "elsewhere")
    assert client.get(reverse("campaign:play", args=[other.slug])).status_code == 404
    assert client.get(play).status_code == 200
