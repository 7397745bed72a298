"""At phone width (390 px) the game of four: Green's phone accepts Red's trade offer through
htmx; Blue's phone sets its defences and commits a Spear against Red's attack, then lets the
app roll. No sideways scrolling, every button at least 44 px tall, no axe-core finding; the
pages are kept as screenshots at 390 and 1280 px."""

from __future__ import annotations

from typing import Any

import pytest

from campaign.systems.swords_and_stones import trades
from campaign.systems.swords_and_stones.models import AutoBattle, Participant
from tests.e2e.axe import assert_accessible
from tests.phone import fits_a_phone, log_in, on_a_phone, shot
from tests.sns.fourway import Four, seat_four, stock
from tests.sns.test_table_trades import to

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_sns_econ_57_a_trade_and_a_battle_on_the_phones(live_server: Any, campaign: Any,
                                                        gm: Any, player: Any,
                                                        other_player: Any) -> None:
    """SNS-ECON-57, SNS-AR-1, SNS-AR-2, SNS-AR-7."""
    four: Four = seat_four(campaign, gm, player, other_player)
    for name in ("Red", "Green"):
        to(four, name, "advance")
    trades.offer(four.campaign, four.gm, four.game, four.kingdoms["Red"], four.kingdoms["Green"],
                 {"wood": 1}, {"stone": 1}, zones_touch=True)
    part = Participant.objects.get(game=four.game, kingdom=four.kingdoms["Red"])
    part.table = {**part.table, "units": {"SWORDS": 2, "VILLAGER": 3, "KING": 1}}
    part.save()
    part = Participant.objects.get(game=four.game, kingdom=four.kingdoms["Blue"])
    part.table = {**part.table, "units": {"SPEARS": 2, "VILLAGER": 3, "KING": 1}}
    part.save()
    base, slug = live_server.url, four.campaign.slug
    green = f"{base}/c/{slug}/sns/game/1/table/{four.kingdoms['Green'].pk}/"
    blue = f"{base}/c/{slug}/sns/game/1/table/{four.kingdoms['Blue'].pk}/"
    game_page = f"{base}/c/{slug}/sns/game/1/"

    def as_green(context: Any) -> None:
        page = context.new_page()
        log_in(page, base, "green")
        page.goto(game_page)
        page.get_by_text("on Red's side").first.wait_for()
        fits_a_phone(page)
        assert_accessible(page)
        shot(page, "sns-table-01-seats-phone")
        page.goto(green)
        page.get_by_text("offers 1 wood for 1 stone").wait_for()
        fits_a_phone(page)
        assert_accessible(page)
        shot(page, "sns-table-02-offer-phone")
        page.get_by_role("button", name="Accept").tap()
        page.get_by_text("Green accepts Red's trade: 1 wood for 1 stone (SNS-ECON-57).").wait_for()
        fits_a_phone(page)

    on_a_phone(as_green)
    assert (stock(four.kingdoms["Green"])["wood"], stock(four.kingdoms["Red"])["stone"]) == (1, 1)

    for name in ("Red", "Blue"):
        to(four, name, "move_combat")
    from campaign.systems.swords_and_stones import autoresolve_play as arp

    arp.begin(four.campaign, four.gm, four.game, four.kingdoms["Red"], four.kingdoms["Blue"],
              ["SWORDS", "SWORDS"])

    def as_blue(context: Any) -> None:
        page = context.new_page()
        log_in(page, base, "other")
        page.goto(blue)
        page.get_by_text("Red sends 2 swords: army score 2 (SNS-AR-6).").wait_for()
        fits_a_phone(page)
        assert_accessible(page)
        shot(page, "sns-table-03-defences-phone")
        page.get_by_label("Completed Palisade Wall").check()
        page.get_by_role("button", name="Set the defence").tap()
        page.get_by_text("Blue's kingdom defence score 5 (SNS-AR-7).").first.wait_for()
        page.get_by_text("Blue committed no units, so none roll").first.wait_for()
        fits_a_phone(page)
        assert_accessible(page)
        shot(page, "sns-table-04-battle-over-phone")
        page.set_viewport_size({"width": 1280, "height": 900})
        shot(page, "sns-table-05-battle-over-wide")

    on_a_phone(as_blue)
    battle = AutoBattle.objects.get()
    assert battle.step == "done" and battle.data["winner"] == "defender"
