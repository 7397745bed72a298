"""See what happened in battles (issue 17): the wording says who chose the battle and who
defends the tile, a fought battle is no longer "under way", a round without hits asks nobody to
choose losses, Kings of War battles warn of an army with an empty list where the battle is
chosen and shown, and the winter purchase form warns of armies left unfed.

The summer scene (tests/mk/test_summer_scene.py): Red army #2 marches into Blue's village 0504,
where Blue army #1 stands and defends.
"""

from __future__ import annotations

from typing import Any, Callable

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from battles.models import Army, Unit
from campaign.systems.mighty_kingdoms import battle_play as bp
from campaign.systems.mighty_kingdoms import summer
from campaign.systems.mighty_kingdoms import winter_services as ws
from tests.mk.test_battle_play_kow import kow, text  # noqa: F401 (fixture)
from tests.mk.test_summer_scene import Scene, campaign, scene  # noqa: F401
from tests.mk.test_winter_world import build_tv3, plain_summer, to_phase  # noqa: F401

pytestmark = pytest.mark.django_db

Login = Callable[[User | None], Client]
ARMIES = 3
EMPTY = ("Blue's army #1 has no unit on its list: a Kings of War battle needs each army's list "
         "(MK-LAND-2, MK-SETUP-7).")


def empty_blue(scene: Scene) -> None:
    Unit.objects.filter(army_list__army=scene.get_army(scene.blue, 1)).delete()


def test_mk_land_2_an_empty_list_is_warned_where_the_battle_is_chosen(kow: Scene,  # noqa: F811
                                                                      login: Login) -> None:
    scene = kow
    empty_blue(scene)
    play = reverse("campaign:play", args=[scene.campaign.slug])
    red_page = text(login(scene.player).get(play))
    assert "Fight Blue" in red_page and EMPTY in red_page
    assert EMPTY in text(login(scene.gm).get(play))


def test_mk_land_2_no_warning_when_every_list_has_units(kow: Scene,  # noqa: F811
                                                        login: Login) -> None:
    play = reverse("campaign:play", args=[kow.campaign.slug])
    page = text(login(kow.player).get(play))
    assert "Fight Blue" in page and "no unit on its list" not in page


def test_mk_land_2_an_empty_list_is_warned_where_the_battle_is_shown(kow: Scene,  # noqa: F811
                                                                     login: Login) -> None:
    scene = kow
    empty_blue(scene)
    response = login(scene.player).post(scene.mk_url("summer_battle"),
                                        {"tile": "0504", "opponent": str(scene.blue.pk)},
                                        HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    battle = scene.campaign.battles.get()
    play = reverse("campaign:play", args=[scene.campaign.slug])
    for user in (scene.player, scene.other, scene.gm):
        assert EMPTY in text(login(user).get(play)), user
        assert EMPTY in text(login(user).get(scene.mk_url("battle_play", battle.pk))), user


def test_mk_bsel_the_battle_page_says_who_chose_and_who_defends(kow: Scene,  # noqa: F811
                                                                login: Login) -> None:
    scene = kow
    battle = summer.choose_battle(scene.red, scene.player, "0504", scene.blue.pk)
    page = text(login(scene.other).get(scene.mk_url("battle_play", battle.pk)))
    assert "Red chose this battle against Blue: land battle (Kings of War)." in page
    assert "Blue defends the tile (MK-DEF-1)." in page
    assert "(attacker)" not in page
    assert "Blue chosen against, defends the tile" in page


def test_mk_result_after_the_result_nothing_is_under_way(kow: Scene,  # noqa: F811
                                                         login: Login) -> None:
    scene = kow
    battle = summer.choose_battle(scene.red, scene.player, "0504", scene.blue.pk)
    play = reverse("campaign:play", args=[scene.campaign.slug])
    assert "battle under way" in text(login(scene.other).get(play))
    client = login(scene.gm)
    response = client.post(scene.mk_url("battle_kow_result", battle.pk),
                           {"result": "win", "unit_results": "1"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    # The statement of what happened, on the battle page itself.
    assert "Battle at 0504: Red wins against Blue." in text(response)
    page = text(login(scene.other).get(play))
    assert "battle under way" not in page
    assert "may fight" not in page


def test_mk_naval_3_a_round_without_hits_asks_for_no_losses(scene: Scene,  # noqa: F811
                                                            login: Login) -> None:
    scene.set_tile("0505", terrain="open_water", explored=True, controller=None)
    scene.ship(scene.red, 1, "0505")
    scene.ship(scene.blue, 1, "0505")
    scene.at("C")
    battle = summer.choose_battle(scene.red, scene.player, "0505", scene.blue.pk, True)
    bp.roll_naval(battle.pk, scene.player, scene.campaign, scene.red, "attacker", [1])
    bp.roll_naval(battle.pk, scene.other, scene.campaign, scene.blue, "defender", [2])
    page = text(login(scene.player).get(scene.mk_url("battle_play", battle.pk)))
    assert "loses 0 tokens" not in page
    assert "No hit on Red this round: nothing is lost (MK-NAVAL-3)." in page
    html = login(scene.player).get(scene.mk_url("battle_play", battle.pk)).content.decode()
    assert 'name="lost"' not in html
    response = login(scene.player).post(scene.mk_url("battle_losses", battle.pk),
                                        {"side": "attacker"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert "No hit on Red" not in text(response)


# -- winter purchases (MK-WINTER-3, MK-BUY-2) --------------------------------------------------


def test_mk_winter_3_the_purchase_form_warns_of_armies_left_unfed(gm: Any,
                                                                 plain_summer: None,  # noqa: F811
                                                                 ) -> None:
    w = build_tv3(gm, slug="unfed-warning")
    to_phase(w, ws.BUY)
    red = w.k("Red")
    assert Army.objects.filter(kingdom=red, tile__isnull=False).count() == ARMIES
    assert w.stock("Red") == (4, 3)
    page = text(w.client("Red").get(reverse("campaign:play", args=[w.campaign.slug])))
    warning = ("After this, 1 army of Red would go unfed at Feed armies and be removed "
               "(MK-WINTER-3).")
    # 3 armies and 3 food: a city costs a food, a recruit is a fourth army to feed.
    assert f"{warning} City at 0104 · 1 gold and 1 food" in page
    assert f"{warning} Army at 0201 · 1 gold" in page
    assert f"{warning} Allied army at 0201 · 1 gold" in page
    assert "Fortress at 0106 · 2 gold Village at 0202 · 1 gold Village at 0203" in page
    assert "Ship at 0102 · 1 gold Armies" in page
    assert page.count("would go unfed") == 5
