"""Every write has its event (issue 19): the campaign flows (map editor, kingdoms, members and
invitations, photos, the chronicle and undo, campaign pages) run again
with ``tests.write_watch`` watching each request, and fail if one wrote campaign data while no
chronicle event was open."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse

from campaign.models import Kingdom
from tests.campaign.test_chronicle import *  # noqa: F403
from tests.campaign.test_kingdoms import *  # noqa: F403
from tests.campaign.test_map_editor import *  # noqa: F403
from tests.campaign.test_members import *  # noqa: F403
from tests.campaign.test_pages import *  # noqa: F403
from tests.campaign.test_photos import *  # noqa: F403
from tests.write_watch import WriteWatch, watch_writes  # noqa: F401 (fixture)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("watch_writes")]


def test_the_watch_sees_a_write_outside_an_event(watch_writes: WriteWatch,  # noqa: F811
                                                 campaign: Any) -> None:
    """The watch is not blind: a request that renames a kingdom without a recorder is noted
    (and then forgiven, so this test passes)."""
    kingdom = Kingdom.objects.create(campaign=campaign, name="Grey", colour="#777777")
    watch_writes.active = True
    with transaction.atomic():
        Kingdom.objects.filter(pk=kingdom.pk).update(name="Silver")
    watch_writes.active = False
    assert len(watch_writes.outside) == 1
    assert watch_writes.outside[0][1].startswith('UPDATE "campaign_kingdom"')
    watch_writes.outside.clear()
    # And a request through the client is watched: a kingdom edit writes inside its event.
    client = Client()
    client.force_login(campaign.created_by)
    before = watch_writes.inside
    response = client.post(reverse("campaign:kingdom_edit", args=[campaign.slug, kingdom.pk]),
                           {"name": "Gold", "colour": "#777777"})
    assert response.status_code == 302
    assert watch_writes.inside == before + 1 and not watch_writes.outside
