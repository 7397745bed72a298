"""Mighty Kingdoms says whose turn it is through its ``whose_turn`` shell hook, and the player
whose turn comes is told by e-mail (MK-ORD-1: orders go round the table one token at a time)."""

from __future__ import annotations

from django.core import mail

from campaign import notifications
from campaign.models import Membership, NotificationPreference
from campaign.systems.mighty_kingdoms import summer
from campaign.systems.mighty_kingdoms.shell import whose_turn
from tests.live.conftest import run_queued
from tests.mk.test_summer_scene import Scene, campaign, scene  # noqa: F401


def test_mk_ord_1_the_hook_names_the_kingdom_to_give_an_order_and_it_is_told(
        scene: Scene) -> None:
    """MK-ORD-1: Red gives the first order, then Blue; Blue's player asked to be told."""
    red, blue = scene.red, scene.blue
    assert whose_turn(scene.campaign) == [red.pk]
    scene.other.email = "blue@example.org"
    scene.other.save()
    NotificationPreference.objects.create(
        membership=Membership.objects.get(campaign=scene.campaign, user=scene.other),
        on_turn=True)
    notifications.start_state(scene.campaign)
    summer.give_order(red, scene.player, f"army:{scene.get_army(red, 1).pk}", "defend", None)
    assert whose_turn(scene.campaign) == [blue.pk]
    notifications.notify_campaign.enqueue(scene.campaign.pk)
    run_queued()
    assert [(m.to, m.subject) for m in mail.outbox] == [
        (["blue@example.org"], f"Summer: your turn ({scene.refresh().clock_label()})")]
    assert "It is the turn of Blue" in mail.outbox[0].body
