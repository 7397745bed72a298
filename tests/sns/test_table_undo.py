"""Undo of every kind of action at the table is exact: a flow through every form of the Sites,
buildings, upgrades, damage, timers and the campaign's cost types, each POST undone and every
campaign table compared (tests/undo_watch.py)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from campaign.systems.swords_and_stones.models import Game, Participant
from tests.sns.conftest import Avalon
from tests.sns.test_table import game  # noqa: F401 (fixture)
from tests.undo_watch import UndoWatch, undo_each_action  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db


def test_undo_of_every_table_action_is_exact(avalon: Avalon, game: Game,  # noqa: F811
                                             undo_each_action: UndoWatch) -> None:  # noqa: F811
    """SNS-ECON-2, SNS-AMB-30, SNS-ECON-21..24, SNS-ECON-40/41/53..58, SNS-CBT-5..8,
    SNS-STATE-3/5."""
    client = Client()
    client.force_login(avalon.gm)
    args = {"slug": avalon.campaign.slug, "number": 1, "kingdom_id": avalon.red.pk}

    def act(action: str, data: dict[str, str] | None = None) -> None:
        url = reverse("sns:table_action", kwargs={**args, "action": action})
        response = client.post(url, data or {}, headers={"HX-Request": "true"})
        assert response.status_code == 200, (action, response.content.decode()[-300:])

    response = client.post(reverse("sns:costs", args=[avalon.campaign.slug]),
                           {"cost": "SNS-BLD-BARRACKS", "t0": "wood", "t1": "stone"})
    assert response.status_code == 302
    for resource in ("wood", "stone"):
        act("line", {"resource": resource, "amount": "10", "rule": "SNS-ECON-3",
                     "reason": "GM's correction"})
    act("site", {"label": "O1", "kind": "outcrop", "level": "3", "secondary": "gold",
                 "threshold": "3"})
    act("site_harvest", {"site": "1", "dice": "2 3 6"})
    act("scarcity", {"site": "1"})
    act("site_level", {"site": "1", "level": "4"})
    act("timer", {"name": "Plague"})
    act("next")
    act("compulsory")
    act("next")
    act("found", {"building": "BARRACKS"})
    act("found", {"building": "FARM"})
    act("cancel", {"work": "3"})
    act("upgrade", {"upgrade": "HUNTINGCABINS", "types": "wood,stone"})
    act("damage", {"work": "1", "fire": "2"})
    act("repair", {"work": "1", "wounds": "1"})
    act("end_timer", {"timer": "1"})
    for _ in range(3):
        act("next")
    act("compulsory", {"w_2": "3", "idle_1": "yes"})
    for _ in range(4):
        act("next")
    act("compulsory", {"w_2": "1"})
    act("staff", {"work": "2", "staffed": "no"})
    act("discard", {"upgrade": "HUNTINGCABINS"})
    state = Participant.objects.get(game=game, kingdom=avalon.red).table
    assert [(w["code"], w["bp"], w["staffed"]) for w in state["works"]] == [
        ("STOCKPILE", 0, True), ("BARRACKS", 0, False)]
    assert dict(undo_each_action.kinds) == {"sns.costs": 1, "sns.table": 28}
