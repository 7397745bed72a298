"""Undo of every action of a table of four is exact: a seat taken, trades offered, accepted,
declined and withdrawn, a ransom, and battles begun, defended, committed, bought back and
rolled for (typed and by the app), each POST undone and every campaign table compared
(tests/undo_watch.py)."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from campaign.systems.swords_and_stones.models import Participant
from tests.sns.fourway import Four, challenge_four, set_up_and_begin
from tests.sns.test_table_trades import to
from tests.undo_watch import UndoWatch, undo_each_action  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db


def test_undo_of_every_seat_trade_and_battle_action_is_exact(
        campaign: Any, gm: Any, player: Any, other_player: Any,
        undo_each_action: UndoWatch) -> None:  # noqa: F811
    """SNS-RES-3, SNS-ECON-57, SNS-CBT-9, SNS-AR-1..7."""
    four: Four = challenge_four(campaign, gm, player, other_player)
    slug = campaign.slug
    seat = reverse("sns:seat", args=[slug, 1])
    for name, side in (("Green", "challenger"), ("Gold", "defender")):
        assert four.client(name).post(seat, {"side": side}).status_code == 302
    assert four.client("Gold").post(seat, {"leave": "yes"}).status_code == 302
    assert four.client("Gold").post(seat, {"side": "defender"}).status_code == 302
    set_up_and_begin(four)
    for name in ("Red", "Green", "Blue", "Gold"):
        to(four, name, "advance")

    def post(name: str, route: str, *args: Any, data: dict[str, Any] | None = None) -> None:
        url = reverse(f"sns:{route}", args=[slug, 1, four.kingdoms[name].pk, *args])
        response = four.client(name).post(url, data or {})
        assert response.status_code == 302, (route, response.content.decode()[-300:])

    def latest(model: str) -> int:
        from django.apps import apps

        return apps.get_model("swords_and_stones", model).objects.latest("pk").pk

    post("Red", "trade_offer", data={"receiver": four.kingdoms["Green"].pk, "give_wood": "2",
                                     "get_stone": "1", "zones_touch": "yes"})
    post("Green", "trade_answer", latest("Trade"), "accept")
    post("Blue", "trade_offer", data={"receiver": four.kingdoms["Gold"].pk, "give_gold": "1",
                                      "zones_touch": "yes"})
    post("Gold", "trade_answer", latest("Trade"), "decline")
    post("Gold", "trade_offer", data={"receiver": four.kingdoms["Blue"].pk, "give_iron": "1",
                                      "ransom": "yes"})
    post("Gold", "trade_answer", latest("Trade"), "decline")
    post("Blue", "trade_offer", data={"receiver": four.kingdoms["Gold"].pk, "give_gold": "1",
                                      "ransom": "yes"})
    post("Gold", "trade_answer", latest("Trade"), "accept")
    for name in ("Red", "Green", "Blue", "Gold"):
        to(four, name, "move_combat")
    for name, units in (("Red", {"SWORDS": 6, "KNIGHTS": 1}), ("Blue", {"SPEARS": 2}),
                        ("Green", {"SWORDS": 1}), ("Gold", {"SPEARS": 3})):
        part = Participant.objects.get(game=four.game, kingdom=four.kingdoms[name])
        part.table = {**part.table, "units": units}
        part.save()
    post("Red", "battle_begin", data={"defender": four.kingdoms["Blue"].pk,
                                      "units": "6 SWORDS KNIGHTS"})
    battle = latest("AutoBattle")
    post("Blue", "battle_step", battle, "defences", data={"guard_towers": "1"})
    post("Blue", "battle_step", battle, "commit", data={"unit": "SPEARS"})
    post("Blue", "battle_step", battle, "commit", data={"unit": "SPEARS"})
    post("Red", "battle_step", battle, "buy_back", data={"units": "2 SWORDS"})
    post("Red", "battle_step", battle, "dice", data={"dice": "5 1 6 2 3"})
    post("Green", "battle_begin", data={"defender": four.kingdoms["Gold"].pk, "units": "SWORDS"})
    battle = latest("AutoBattle")
    post("Gold", "battle_step", battle, "defences")
    post("Gold", "battle_step", battle, "commit", data={"unit": "SPEARS"})
    post("Gold", "battle_step", battle, "commit", data={"unit": "SPEARS"})
    post("Gold", "battle_step", battle, "dice", data={"roll": "yes"})
    assert undo_each_action.kinds == {"sns.seat": 4, "sns.trade": 8, "sns.battle": 11}
