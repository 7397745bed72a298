"""One pluralising helper for every page and message (issue 17, "Wording"): the counts pages
said wrong ("2 citys", "Roll 1 dice", "Army_list", "food.?") now read right, in Python and
through the template filters."""

from __future__ import annotations

import pytest
from django.template import Context, Template

from campaign import words


@pytest.mark.parametrize(("count", "word", "said"), [
    (1, "city", "1 city"), (2, "city", "2 cities"), (0, "city", "0 cities"),
    (1, "die", "1 die"), (3, "die", "3 dice"), (2, "army", "2 armies"),
    (2, "fortress", "2 fortresses"), (2, "village", "2 villages"), (1, "entry", "1 entry"),
    (4, "entry", "4 entries"), (2, "territory", "2 territories"), (5, "gold", "5 gold"),
    (2, "food", "2 food"), (2, "day", "2 days"), (2, "control marker", "2 control markers"),
    (2, "Territory", "2 Territories"), (2, "Die", "2 Dice"), (-1, "token", "-1 token"),
])
def test_counted_says_english_plurals(count: int, word: str, said: str) -> None:
    assert words.counted(count, word) == said


def test_and_list_and_label_and_sentence() -> None:
    assert words.and_list([]) == ""
    assert words.and_list(["0506"]) == "0506"
    assert words.and_list(["0506", "0507"]) == "0506 and 0507"
    assert words.and_list(["0506", "0507", "0603"]) == "0506, 0507 and 0603"
    assert words.and_list(["a", "b"], "or") == "a or b"
    assert words.label("army_list") == "Army list"
    assert words.label("setup") == "Setup"
    assert words.sentence("Red buys food.") == "Red buys food."
    assert words.sentence("Red buys food") == "Red buys food."


def render(source: str, **context: object) -> str:
    return Template("{% load words %}" + source).render(Context(context))


def test_the_known_bad_cases_render_right() -> None:
    assert render('{{ n|counted:"city" }}', n=2) == "2 cities"
    assert render('Roll {{ n|counted:"die" }}', n=1) == "Roll 1 die"
    assert render('Roll {{ dice|counted:"die" }}', dice=[4, 2]) == "Roll 2 dice"
    assert render('{{ n|plural:"Territory" }}', n=3) == "Territories"
    assert render("{{ k|label }}", k="army_list") == "Army list"
    assert render("Undo #3: {{ s|unstop }}?", s="Red buys 2 food.") == "Undo #3: Red buys 2 food?"
    assert render('{{ n|counted:kind }}', n=2, kind="fortress") == "2 fortresses"
    assert render('{{ n|counted:"army" }}', n="x") == "0 armies"


@pytest.mark.django_db
def test_kingdom_page_counts_cities_and_fortresses(gm: object, campaign: object,
                                                   login: object) -> None:
    from django.urls import reverse

    from campaign.models import Kingdom, Tile

    kingdom = Kingdom.objects.create(campaign=campaign, name="Red", colour="#aa0000")
    tiles = list(Tile.objects.filter(map__campaign=campaign).order_by("pk")[:5])
    for tile, settlement in zip(tiles, ["city", "city", "fortress", "fortress", "village"]):
        tile.settlement, tile.controller = settlement, kingdom
        tile.save()
    page = login(gm).get(reverse("campaign:kingdom", args=[campaign.slug, kingdom.pk]))
    text = " ".join(page.content.decode().split())
    assert "2 cities" in text and "2 fortresses" in text and "1 village" in text
    assert "citys" not in text and "fortresss" not in text


@pytest.mark.django_db
def test_chronicle_filter_and_undo_question_read_right(gm: object, campaign: object,
                                                       login: object) -> None:
    from django.urls import reverse

    from campaign.models import Event

    last = campaign.events.order_by("-seq").first()
    Event.objects.create(campaign=campaign, seq=last.seq + 1, kind="army_list.revealed",
                         summary="Red buys 2 food.", reversible=True,
                         changes=[{"op": "create", "model": "campaign.kingdom", "pk": 0}])
    page = login(gm).get(reverse("campaign:chronicle", args=[campaign.slug])).content.decode()
    assert ">Army list</option>" in page and "Army_list" not in page
    assert f'data-confirm="Undo #{last.seq + 1}: Red buys 2 food?"' in page
    assert "food.?" not in page
