"""The Grand Campaign's pages and actions by role: the GM, the player (Red), the other player
(Blue), an observer, an outsider and the anonymous; bad input is refused with a 4xx and changes
nothing; page queries do not grow with the number of games."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaign.systems.swords_and_stones import services as sns
from campaign.systems.swords_and_stones.models import Spend
from tests.sns.conftest import Avalon, at, dump

pytestmark = pytest.mark.django_db

PERSONAS = ("gm", "player", "other_player", "observer", "outsider", "anonymous")


@pytest.fixture
def clients(avalon: Avalon, gm: Any, player: Any, other_player: Any, observer: Any,
            outsider: Any) -> dict[str, Client]:
    found = {}
    for name, user in (("gm", gm), ("player", player), ("other_player", other_player),
                       ("observer", observer), ("outsider", outsider), ("anonymous", None)):
        client = Client()
        if user is not None:
            client.force_login(user)
        found[name] = client
    return found


def url(avalon: Avalon, name: str, *args: Any) -> str:
    return reverse(f"sns:{name}", args=[avalon.campaign.slug, *args])


@pytest.fixture
def played(avalon: Avalon) -> Avalon:
    avalon.play(avalon.red, at(2, 2), avalon.blue, "win")
    return avalon


@pytest.mark.parametrize("persona", PERSONAS)
def test_pages_are_for_members(played: Avalon, clients: dict[str, Client], persona: str) -> None:
    """Every member sees the play page, the games, a game, the honours roll and a kingdom's
    Grand Campaign summary; an outsider gets 404, the anonymous the login page."""
    slug = played.campaign.slug
    pages = [reverse("campaign:play", args=[slug]), reverse("campaign:detail", args=[slug]),
             url(played, "games"), url(played, "game", 1), url(played, "honours"),
             reverse("campaign:kingdom", args=[slug, played.red.pk]),
             reverse("campaign:tile", args=[slug, at(2, 2)])]
    for page in pages:
        response = clients[persona].get(page)
        expected = {"outsider": 404, "anonymous": 302}.get(persona, 200)
        assert response.status_code == expected, page
    if persona in ("gm", "player", "observer"):
        body = clients[persona].get(pages[0]).content.decode()
        assert "Standings" in body and "Game 1" in body
        tile = clients[persona].get(pages[-1]).content.decode()
        assert "History of this Territory" in tile and "SNS-GC-6a" in tile


@pytest.mark.parametrize(("persona", "status"), [
    ("gm", 200), ("player", 200), ("other_player", 403), ("observer", 403), ("outsider", 404)])
def test_a_report_is_filled_in_by_its_player_or_the_gm(played: Avalon,
                                                       clients: dict[str, Client],
                                                       persona: str, status: int) -> None:
    """SNS-STAT: Red's report on game 1 is Red's player's or the GM's to fill in."""
    page = url(played, "report", 1, played.red.pk)
    assert clients[persona].get(page).status_code == status
    before = dump()
    response = clients[persona].post(page, {"peak_gold": "50"})
    if status == 200:
        assert response.status_code == 302
        assert played.game(1).participants.get(kingdom=played.red).report == {"peak_gold": 50}
    else:
        assert response.status_code == status
        assert dump() == before


@pytest.mark.parametrize(("persona", "status"), [
    ("gm", 302), ("player", 302), ("other_player", 403), ("observer", 403), ("outsider", 404),
    ("anonymous", 302)])
def test_spending_is_for_the_kingdoms_player_or_the_gm(played: Avalon,
                                                       clients: dict[str, Client],
                                                       persona: str, status: int) -> None:
    """SNS-PTS-3: Red's Victory Point is spent by Red's player or the GM, nobody else."""
    before = dump()
    response = clients[persona].post(url(played, "spend"),
                                     {"kingdom": played.red.pk, "code": "EMPIRE"})
    assert response.status_code == status
    if persona in ("gm", "player"):
        assert Spend.objects.get().kingdom == played.red
    else:
        assert dump() == before


@pytest.mark.parametrize("persona", ["player", "other_player", "observer"])
def test_only_the_gm_records_a_result(avalon: Avalon, clients: dict[str, Client],
                                      persona: str) -> None:
    """SNS-GC-6: the result is the GM's to record."""
    sns.challenge(avalon.campaign, avalon.gm, avalon.red, at(2, 2), avalon.blue)
    before = dump()
    response = clients[persona].post(url(avalon, "result"), {"game": "1", "result": "win"})
    assert response.status_code == 403
    assert dump() == before


def test_the_gm_records_a_result_with_htmx(avalon: Avalon, clients: dict[str, Client]) -> None:
    """SNS-GC-6a: an htmx request gets the play page's fragment back."""
    sns.challenge(avalon.campaign, avalon.gm, avalon.red, at(2, 2), avalon.blue)
    response = clients["gm"].post(url(avalon, "result"),
                                  {"game": "1", "result": "win",
                                   f"fate_{avalon.blue.pk}": "surrendered"},
                                  headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert response["HX-Trigger"] == "campaign-changed"
    assert "<html" not in response.content.decode()
    assert avalon.holding(at(2, 2)) == ("settled", "Red")


def test_compensation_is_chosen_by_the_defender_who_won(avalon: Avalon,
                                                        clients: dict[str, Client]) -> None:
    """SNS-GC-7: Blue cannot choose Red's compensation; Red can."""
    avalon.play(avalon.red, at(2, 2), None, "win")
    avalon.play(avalon.blue, at(2, 2), avalon.red, "loss")
    before = dump()
    data = {"game": "2", "choice": "take_claimed", "territory": "1202"}
    assert clients["other_player"].post(url(avalon, "compensation"), data).status_code == 403
    assert dump() == before
    assert clients["player"].post(url(avalon, "compensation"), data).status_code == 302
    assert avalon.holding("1202") == ("claimed", "Red")


@pytest.mark.parametrize(("name", "data", "status", "message"), [
    ("spend", {"code": "NOPE"}, 409, "SNS-PTS-3: there is no points option 'NOPE'."),
    ("spend", {"code": "FAVOR"}, 409,
     "SNS-PTS-3: Favor of the King costs 2 Victory Points; Red has 1."),
    ("spend", {"kingdom": "x1", "code": "EMPIRE"}, 400,
     "“kingdom” must be a kingdom's id from the form."),
    ("result", {"game": "1", "result": "banana"}, 400,
     "“result” is win, loss or draw (the challenger's)."),
    ("result", {"game": "abc", "result": "win"}, 400, "game"),
    ("result", {"game": "99", "result": "win"}, 404, ""),
    ("challenge", {"territory": "0202"}, 409, "SNS-GC-4: it is Blue's turn to issue a "
     "challenge."),
    ("place", {"capital": "0505", "claim": ["0605", "0506"]}, 409,
     "SNS-GC-3: kingdoms are placed at the start of the campaign; new players get their land "
     "by SNS-NEW-2..4."),
    ("titles", {"game": "1", "title": "BRAVE"}, 409,
     "SNS-TITLE-G2: Titles are taken once the GM has confirmed the report."),
    ("titles", {"game": "1", "title": "NOBODY"}, 400, "Unknown Title: NOBODY."),
    ("king", {"name": ""}, 409, "SNS-KING-7: a King's name has 1 to 60 characters."),
    ("capital", {"game": "1", "territory": "0303"}, 409,
     "SNS-CAP-3: no kingdom has a Capital to name."),
])
def test_bad_input_is_refused_and_changes_nothing(played: Avalon, clients: dict[str, Client],
                                                  name: str, data: dict[str, Any], status: int,
                                                  message: str) -> None:
    """Malformed input gets 400, a refusal of the rules 409 with the reason, an unknown game
    404; nothing changes."""
    if name in ("spend", "titles", "king", "challenge", "place") and "kingdom" not in data:
        data = {**data, "kingdom": played.red.pk}
    before = dump()
    response = clients["gm"].post(url(played, name), data)
    assert response.status_code == status
    if message:
        assert message.replace("'", "&#x27;") in response.content.decode()
    assert dump() == before


def _queries(client: Client, page: str) -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(page).status_code == 200
    return len(ctx.captured_queries)


def test_page_queries_do_not_grow_with_the_games(avalon: Avalon,
                                                 clients: dict[str, Client]) -> None:
    """The play page, the overview and a kingdom's page cost as many queries after 2 games as
    after 8 (SNS-GC-5: standings on every phone)."""
    slug = avalon.campaign.slug
    pages = [reverse("campaign:play", args=[slug]), reverse("campaign:detail", args=[slug]),
             reverse("campaign:kingdom", args=[slug, avalon.red.pk]), url(avalon, "honours")]

    def games(n: int) -> None:
        for _ in range(n):
            avalon.play(avalon.red, at(11, 1), avalon.blue, "draw")
            avalon.play(avalon.blue, at(2, 1), avalon.red, "draw")

    games(1)
    small = [_queries(clients["player"], p) for p in pages]
    games(3)
    large = [_queries(clients["player"], p) for p in pages]
    assert small == large
