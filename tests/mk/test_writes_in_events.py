"""Every write has its event (issue 19): the Mighty Kingdoms flows through the web views (a whole
year of the demo campaign: purchases, tithes, feeding, deployment, sealed orders, exploration,
battles, retreat, Reform; a battle played die by die; the summer pages) run again with
``tests.write_watch`` watching each request, and fail if one wrote campaign data while no
chronicle event was open."""

from __future__ import annotations

import pytest

from tests.mk.test_battle_play import (  # noqa: F401
    test_views_work_as_plain_forms_and_refuse_with_409,
    tv1,
)
from tests.mk.test_full_year import *  # noqa: F403
from tests.mk.test_map_actions import *  # noqa: F403
from tests.mk.test_summer_scene import campaign, scene  # noqa: F401 (fixtures)
from tests.mk.test_summer_views import *  # noqa: F403
from tests.write_watch import watch_writes  # noqa: F401 (fixture)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("watch_writes")]
