"""Every write has its event (issue 19): the army list flows through the web views (adding,
changing, copying and removing units, pasting and fixing lists, artefacts, Kings of War results;
forms that apply once) run again with ``tests.write_watch`` watching each request, and fail if
one wrote campaign data while no chronicle event was open."""

from __future__ import annotations

import pytest

from tests.battles.test_views import *  # noqa: F403
from tests.campaign.test_once import *  # noqa: F403
from tests.write_watch import watch_writes  # noqa: F401 (fixture)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("watch_writes")]
