"""Undo of every kind of campaign action restores every row exactly (issue 19): the map editor
(tile form, every brush, a new map), kingdoms (founding, edits, crests, claims, assignments),
members and invitations, and photos, each action undone and compared in full
(``tests.undo_watch``)."""

from __future__ import annotations

import pytest

from tests.campaign.test_kingdoms import *  # noqa: F403
from tests.campaign.test_map_editor import *  # noqa: F403
from tests.campaign.test_members import *  # noqa: F403
from tests.campaign.test_photos import *  # noqa: F403
from tests.undo_watch import undo_each_action  # noqa: F401 (fixture)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("undo_each_action")]
