"""Undo of every kind of Mighty Kingdoms action restores every row exactly (issue 19): a whole
year of the demo campaign through the web pages, the founding year's set-up steps, the summer
pages, artefacts, wizard quests and a battle played through its page, each action undone and
compared in full (``tests.undo_watch``)."""

from __future__ import annotations

import pytest

from tests.mk import test_full_year
from tests.mk.test_artefacts import *  # noqa: F403
from tests.mk.test_battle_play import (  # noqa: F401
    test_views_work_as_plain_forms_and_refuse_with_409,
    tv1,
)
from tests.mk.test_founding_year import *  # noqa: F403
from tests.mk.test_map_actions import *  # noqa: F403
from tests.mk.test_quests import *  # noqa: F403
from tests.mk.test_setup import *  # noqa: F403
from tests.mk.test_summer_scene import campaign, scene  # noqa: F401 (fixtures)
from tests.mk.test_summer_views import *  # noqa: F403
from tests.undo_watch import UndoWatch, undo_each_action  # noqa: F401 (fixture)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("undo_each_action")]

# Every kind of action the year goes through, each undone and compared at least once: phase
# changes (Reform, income, feeding and deployment closes among them), purchases and passes,
# tithes and passes, feeding, deployment, recall, sealed orders and their resolution, a battle
# chosen, its result entered, the retreat and the winner's move.
YEAR_KINDS = {
    "phase.advanced", "winter.buy", "winter.buy.pass", "winter.tithe", "winter.tithe.pass",
    "winter.feed", "winter.deploy", "winter.recall", "summer.order", "summer.resolve",
    "summer.battle", "summer.battle_result", "summer.retreat", "summer.winner_move",
}


def test_mk_undo_of_every_action_of_a_whole_year_is_exact(
        undo_each_action: UndoWatch) -> None:  # noqa: F811
    test_full_year.test_mk_the_demo_campaign_plays_a_whole_year_through_the_web_pages()
    assert set(undo_each_action.kinds) == YEAR_KINDS
