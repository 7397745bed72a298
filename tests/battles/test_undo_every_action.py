"""Undo of every kind of army action restores every row exactly (issue 19): units added,
changed, copied and removed, lists pasted and fixed, artefacts, Kings of War results and forms
that apply once, each action undone and compared in full (``tests.undo_watch``)."""

from __future__ import annotations

import pytest

from tests.battles.test_views import *  # noqa: F403
from tests.campaign.test_once import *  # noqa: F403
from tests.undo_watch import undo_each_action  # noqa: F401 (fixture)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("undo_each_action")]
