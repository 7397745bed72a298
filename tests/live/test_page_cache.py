"""The page cache (campaign.live.PageCache): the play, overview, kingdom and map pages kept per
viewer and chronicle version. A page asked again is answered in two queries (one on PostgreSQL
once the process has served the session: ``live.read_with_session``); a change the viewer
may read shows at once; nothing kept for one viewer reaches another; flash messages and session
state are never answered from a kept page."""

from __future__ import annotations

from typing import Any, Callable

import pytest
from django.contrib.auth.models import User
from django.core.cache import caches
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaign import live
from campaign.chronicle import Recorder
from campaign.models import Campaign, Event, Kingdom, Visibility
from tests.live.conftest import KEPT_QUERIES


@pytest.fixture(autouse=True)
def _page_cache_on(settings: Any) -> None:
    settings.PAGE_CACHE = True
    caches["pages"].clear()


def _record(campaign: Campaign, user: User, summary: str, **kwargs: Any) -> Event:
    with transaction.atomic():
        with Recorder(campaign, user, "test.live", summary, **kwargs) as rec:
            pass
    assert rec.event is not None
    return rec.event


def _pages(campaign: Campaign, kingdom: Kingdom) -> dict[str, str]:
    return {
        "play": reverse("campaign:play", args=[campaign.slug]),
        "overview": reverse("campaign:detail", args=[campaign.slug]),
        "kingdom": reverse("campaign:kingdom", args=[campaign.slug, kingdom.pk]),
        "map": reverse("campaign:map", args=[campaign.slug]),
    }


def _get(client: Client, url: str) -> tuple[Any, int]:
    """The answer and the number of queries it took."""
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200, url
    return response, len(queries)


def _warm(client: Client, url: str) -> Any:
    """The page rendered and kept (a client without a CSRF cookie yet asks twice: a page asked
    without one is never kept)."""
    if "csrftoken" not in client.cookies:
        _get(client, url)
    response, n = _get(client, url)
    assert n > 2
    return response


def test_each_page_asked_again_is_answered_from_the_cache_in_one_or_two_queries(
        campaign: Campaign, player: User, login: Callable[..., Client]) -> None:
    client = login(player)
    red = Kingdom.objects.get(campaign=campaign, name="Red")
    for name, url in _pages(campaign, red).items():
        kept = _warm(client, url)
        again, n = _get(client, url)
        assert n == KEPT_QUERIES, name  # the session and the viewer's version
        assert again.content == kept.content, name
        assert again["Content-Type"] == kept["Content-Type"]
        # Headers of the middleware outside the cache are still there.
        assert "Content-Security-Policy" in again


def test_a_change_the_viewer_may_read_shows_at_once(campaign: Campaign, gm: User,
                                                    player: User,
                                                    login: Callable[..., Client]) -> None:
    client = login(player)
    url = reverse("campaign:detail", args=[campaign.slug])
    assert b"The banners go up." not in _warm(client, url).content
    _record(campaign, gm, "The banners go up.")
    response, n = _get(client, url)
    assert n > 2
    assert b"The banners go up." in response.content


def test_a_secret_of_one_kingdom_never_reaches_another_viewer(
        campaign: Campaign, gm: User, player: User, other_player: User,
        login: Callable[..., Client]) -> None:
    """Red's secret moves Red's version only: Red's player sees it at once, Blue's player keeps
    the page kept before it, which never had it."""
    red_client, blue_client = login(player), login(other_player)
    url = reverse("campaign:detail", args=[campaign.slug])
    _warm(red_client, url)
    blue_before = _warm(blue_client, url)
    _record(campaign, gm, "Red hides gold.", visibility=Visibility.KINGDOM,
            kingdom=Kingdom.objects.get(campaign=campaign, name="Red"))
    red_page, _ = _get(red_client, url)
    assert b"Red hides gold." in red_page.content
    blue_page, n = _get(blue_client, url)
    assert n == KEPT_QUERIES
    assert blue_page.content == blue_before.content
    assert b"Red hides gold." not in blue_page.content


def test_a_page_kept_for_one_viewer_is_never_served_to_another(
        campaign: Campaign, player: User, other_player: User, gm: User,
        login: Callable[..., Client]) -> None:
    """Each viewer's first asking of the same address is rendered for them, with their name."""
    red = Kingdom.objects.get(campaign=campaign, name="Red")
    for url in _pages(campaign, red).values():
        kept = _warm(login(player), url)
        assert b"Log out player" in kept.content
        for user, name in ((other_player, b"Log out other"), (gm, b"Log out gm")):
            response = _warm(login(user), url)
            assert name in response.content and b"Log out player" not in response.content


def test_another_csrf_secret_gets_a_page_of_its_own(campaign: Campaign, player: User,
                                                    login: Callable[..., Client]) -> None:
    """The same user on a second phone (another CSRF cookie) never gets forms carrying the
    first phone's token: their page is rendered for their own secret."""
    url = reverse("campaign:play", args=[campaign.slug])
    first, second = login(player), login(player)
    _warm(first, url)
    _get(second, url)
    assert second.cookies["csrftoken"].value != first.cookies["csrftoken"].value
    _, n = _get(second, url)
    assert n > 2
    _, n = _get(second, url)
    assert n == KEPT_QUERIES


def test_a_flash_message_is_shown_once_and_never_kept(campaign: Campaign, player: User,
                                                      login: Callable[..., Client]) -> None:
    client = login(player)
    red = Kingdom.objects.get(campaign=campaign, name="Red")
    url = reverse("campaign:kingdom", args=[campaign.slug, red.pk])
    _warm(client, url)
    edit = reverse("campaign:kingdom_edit", args=[campaign.slug, red.pk])
    answer = client.post(edit, {"name": "Redmark", "colour": "#aa0000"})
    assert answer.status_code == 302 and answer["Location"] == url
    shown, _ = _get(client, url)
    assert b"Kingdom saved." in shown.content and b"Redmark" in shown.content
    for _ in range(2):
        response, _ = _get(client, url)
        assert b"Kingdom saved." not in response.content
        assert b"Redmark" in response.content
    _, n = _get(client, url)
    assert n == KEPT_QUERIES


def test_a_change_of_the_session_is_a_change_of_the_page(campaign: Campaign, player: User,
                                                         login: Callable[..., Client]) -> None:
    """What a page reads from the session (a statement of what just happened) is part of the
    key: the kept page is not answered once the session holds something else."""
    client = login(player)
    url = reverse("campaign:play", args=[campaign.slug])
    _warm(client, url)
    session = client.session
    session["something-new"] = "said"
    session.save()
    _, n = _get(client, url)
    assert n > 2


def test_nothing_is_kept_when_the_page_cache_is_off(settings: Any, campaign: Campaign,
                                                    player: User,
                                                    login: Callable[..., Client]) -> None:
    settings.PAGE_CACHE = False
    client = login(player)
    url = reverse("campaign:play", args=[campaign.slug])
    first = _warm(client, url)
    _, n = _get(client, url)
    assert n > 2
    assert b"Log out player" in first.content


def test_an_outsider_is_refused_as_before(campaign: Campaign, player: User, outsider: User,
                                          login: Callable[..., Client]) -> None:
    url = reverse("campaign:play", args=[campaign.slug])
    _warm(login(player), url)
    client = login(outsider)
    for _ in range(3):
        assert client.get(url).status_code == 404
    anonymous = login(None).get(url)
    assert anonymous.status_code == 302 and anonymous["Location"].startswith("/accounts/login/")


def test_a_page_rendered_after_a_miss_takes_no_more_queries_than_without_the_cache(
        settings: Any, campaign: Campaign, player: User,
        login: Callable[..., Client]) -> None:
    """The version query reads the whole user row, checked as ``auth.get_user`` checks it, so
    the page rendered after a miss does not read the user again."""
    client = login(player)
    red = Kingdom.objects.get(campaign=campaign, name="Red")
    for name, url in _pages(campaign, red).items():
        settings.PAGE_CACHE = False
        _get(client, url)
        _, without = _get(client, url)
        settings.PAGE_CACHE = True
        caches["pages"].clear()
        seen = client.cookies["sessionid"].value in live._SEEN
        response, missed = _get(client, url)
        # One fewer on PostgreSQL once this process has served the session: it comes with the
        # viewer's version (the first page here is the first the cache sees of it).
        assert missed == without - ((2 - KEPT_QUERIES) if seen else 0), name
        assert b"Log out player" in response.content


def test_the_map_page_keeps_its_drawing_compressed_once_for_every_viewer(
        campaign: Campaign, player: User, other_player: User, gm: User,
        login: Callable[..., Client], monkeypatch: Any) -> None:
    """The map page is kept in parts: the drawing (the same for every viewer) compressed once,
    each viewer's page around it on its own. Each is answered as it was rendered, byte for
    byte, with its own viewer's name."""
    import zlib

    live._BLOCKS.clear()
    squeezed: list[int] = []
    compress = zlib.compress

    def counted(data: bytes, level: int = -1) -> bytes:
        squeezed.append(len(data))
        return compress(data, level)

    monkeypatch.setattr(zlib, "compress", counted)
    url = reverse("campaign:map", args=[campaign.slug])
    pages = {}
    for user, name in ((player, b"Log out player"), (other_player, b"Log out other"),
                       (gm, b"Log out gm")):
        client = login(user)
        kept = _warm(client, url)
        again, n = _get(client, url)
        assert n == KEPT_QUERIES
        assert again.content == kept.content and name in again.content
        pages[name] = again.content
    assert len(set(pages.values())) == 3
    [(text, encoded, _)] = live._BLOCKS.values()
    assert text.startswith("<svg") and all(encoded in page for page in pages.values())
    # The drawing was compressed once; each page's own parts are small.
    assert squeezed.count(len(encoded)) == 1
    assert max(size for size in squeezed if size != len(encoded)) < len(encoded) + 20_000


def test_a_shared_part_not_where_it_was_said_to_be_is_kept_with_the_page() -> None:
    """A page kept in parts is the same bytes; a part said to be somewhere it is not is simply
    compressed with the rest of the page."""
    import zlib

    from django.http import HttpResponse

    block = "<svg>" + "drawn " * 50 + "</svg>"
    page = HttpResponse(("<p>before</p>" + block + "<p>after</p>").encode())
    live.shared_block(page, block, len("<p>before</p>"))
    parts = live._compressed(page)
    assert len(parts) == 3
    assert b"".join(zlib.decompress(part) for part in parts) == page.content
    elsewhere = HttpResponse(page.content)
    live.shared_block(elsewhere, block, 2)
    parts = live._compressed(elsewhere)
    assert len(parts) == 1 and zlib.decompress(parts[0]) == page.content
