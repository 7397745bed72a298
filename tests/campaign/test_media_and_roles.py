"""Uploads served without a login stay unguessable and limited; roles and kingdoms stay consistent;
undo stops at events that cannot be undone."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.files.base import ContentFile

from campaign import services
from campaign.chronicle import UndoError, undo_latest
from campaign.models import Kingdom, Membership, Role
from tests.conftest import make_png

pytestmark = pytest.mark.django_db


def test_crests_get_random_names(campaign: Any, player: Any) -> None:
    kingdom = Kingdom.objects.get(name="Red")
    services.update_kingdom(kingdom, player, name="Red", colour="#aa0000", crest=make_png())
    kingdom.refresh_from_db()
    assert kingdom.crest.name.startswith("crests/")
    assert len(kingdom.crest.name.split("/")[-1]) == len("0123456789abcdef.png")
    assert kingdom.crest.name != "crests/crest.png"


def test_media_outside_crests_and_photos_is_not_served(settings: Any, login: Any,
                                                      gm: Any) -> None:
    from django.core.files.storage import default_storage

    default_storage.save("print/book.pdf", ContentFile(b"%PDF secret"))
    default_storage.save("crests/abc.png", ContentFile(make_png().getvalue()))
    client = login(gm)
    assert client.get("/media/print/book.pdf").status_code == 404
    assert client.get("/media/crests/abc.png").status_code == 200
    assert client.get("/media/crests/../print/book.pdf").status_code == 404


def test_demoting_a_player_frees_their_kingdom(campaign: Any, gm: Any, player: Any) -> None:
    membership = Membership.objects.get(user=player)
    services.change_role(membership, gm, Role.OBSERVER)
    assert Kingdom.objects.get(name="Red").player is None
    event = campaign.events.order_by("-seq").first()
    undo_latest(campaign, gm, expected_seq=event.seq)
    assert Kingdom.objects.get(name="Red").player == membership
    assert Membership.objects.get(user=player).role == Role.PLAYER


def test_undo_stops_at_an_event_that_cannot_be_undone(campaign: Any, gm: Any) -> None:
    # The campaign's creation is not reversible: with nothing after it, there is nothing to undo.
    with pytest.raises(UndoError, match="nothing left to undo"):
        undo_latest(campaign, gm)
    invitation = services.create_invitation(campaign, gm, role=Role.PLAYER, single_use=True)
    latest = campaign.events.order_by("-seq").first()
    latest.reversible = False
    latest.save()
    with pytest.raises(UndoError):
        undo_latest(campaign, gm)
    assert invitation.__class__.objects.filter(pk=invitation.pk).exists()
