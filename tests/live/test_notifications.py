"""Notifications: each member's choices, the GM's webhook, what the chronicle tells whom, sent by
tasks (Django's mail outbox, a local HTTP receiver), never inside the request."""

from __future__ import annotations

from typing import Any, Callable

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.db import transaction
from django.urls import reverse
from django_tasks_db.models import DBTaskResult

from battles.models import Battle
from campaign import notifications
from campaign.chronicle import Recorder, undo_latest
from campaign.models import (
    Campaign,
    CampaignNotifications,
    Event,
    Kingdom,
    Membership,
    NotificationPreference,
    Visibility,
)
from campaign.rulesystems import get_system
from tests.live.conftest import Receiver, run_queued


@pytest.fixture
def table(campaign: Campaign, gm: User, player: User, other_player: User,
          observer: User) -> Campaign:
    """Every member with an address; Red's player wants everything, Blue's player battles,
    the observer phases."""
    for user in (gm, player, other_player, observer):
        user.email = f"{user.username}@example.org"
        user.save()
    wants = {player: dict(on_turn=True, on_battle=True, on_phase=True),
             other_player: dict(on_battle=True), observer: dict(on_phase=True)}
    for user, flags in wants.items():
        member = Membership.objects.get(campaign=campaign, user=user)
        NotificationPreference.objects.create(membership=member, **flags)
    notifications.start_state(campaign)
    return campaign


def _choose_battle(campaign: Campaign, gm: User, **kwargs: Any) -> Battle:
    red = Kingdom.objects.get(campaign=campaign, name="Red")
    blue = Kingdom.objects.get(campaign=campaign, name="Blue")
    tile = campaign.map.tiles.first()
    with transaction.atomic():
        with Recorder(campaign, gm, "test.battle", "Red chooses to fight Blue at the ford.",
                      **kwargs) as rec:
            battle = rec.create(Battle(campaign=campaign, year=1, month=1, seq=1, tile=tile,
                                       kind="field", chooser=red, opponent=blue))
    return battle  # type: ignore[return-value]


def _close_phase(campaign: Campaign, gm: User, phase: str) -> None:
    with transaction.atomic():
        with Recorder(campaign, gm, "test.phase", "The phase closes.") as rec:
            rec.update(campaign, phase=phase)


def _sent() -> dict[str, list[str]]:
    """Subjects of the mail sent, by address."""
    sent: dict[str, list[str]] = {}
    for message in mail.outbox:
        for address in message.to:
            sent.setdefault(address, []).append(message.subject)
    return sent


def _notify(campaign: Campaign) -> list[str]:
    notifications.notify_campaign.enqueue(campaign.pk)
    return run_queued()


@pytest.mark.django_db(transaction=True)
def test_events_are_told_after_commit_by_a_task_not_in_the_request(table: Campaign,
                                                                   gm: User) -> None:
    """A transaction that writes events queues one ``notify_campaign`` task when it commits,
    however many events it wrote; no mail leaves before a worker runs it."""
    DBTaskResult.objects.all().delete()
    with transaction.atomic():
        _choose_battle(table, gm)
        _close_phase(table, gm, "order")
        assert not DBTaskResult.objects.exists()
    assert [t.task_path for t in DBTaskResult.objects.all()] == [
        "campaign.notifications.notify_campaign"]
    assert mail.outbox == []
    ran = run_queued()
    assert ran[0] == "campaign.notifications.notify_campaign"
    assert ran.count("campaign.notifications.send_notification_mail") == 4
    assert _sent() == {
        "player@example.org": ["Test Campaign: a battle of yours is chosen",
                               f"Test Campaign: {_label(table, 'race')} is closed"],
        "other@example.org": ["Test Campaign: a battle of yours is chosen"],
        "observer@example.org": [f"Test Campaign: {_label(table, 'race')} is closed"],
    }


def _label(campaign: Campaign, phase: str) -> str:
    fresh = Campaign.objects.get(pk=campaign.pk)
    fresh.phase = phase
    return fresh.clock_label()


def test_a_secret_battle_reaches_only_who_may_read_it(table: Campaign, gm: User,
                                                     receiver: Receiver) -> None:
    """A battle whose event only Red may read: Red's player is told, Blue's player is not
    (although their kingdom fights), and the webhook hears nothing of it."""
    CampaignNotifications.objects.filter(campaign=table).update(webhook_url=receiver.url)
    red = Kingdom.objects.get(campaign=table, name="Red")
    _choose_battle(table, gm, visibility=Visibility.KINGDOM, kingdom=red)
    _notify(table)
    assert _sent() == {"player@example.org": ["Test Campaign: a battle of yours is chosen"]}
    assert receiver.posts == []


def test_the_webhook_gets_discord_json_of_public_news(table: Campaign, gm: User,
                                                     receiver: Receiver) -> None:
    CampaignNotifications.objects.filter(campaign=table).update(webhook_url=receiver.url)
    before = _label(table, table.phase)
    _choose_battle(table, gm)
    _close_phase(table, gm, "order")
    _notify(table)
    assert receiver.posts == [{
        "username": "Hexkeep",
        "content": ("**Test Campaign**: Battle chosen: Red and Blue. Red chooses to fight Blue "
                    f"at the ford.\n**Test Campaign**: {before} is closed; now "
                    f"{_label(table, 'order')}."),
        "allowed_mentions": {"parse": []},
    }]
    # Told once: nothing new, nothing sent.
    mail.outbox.clear()
    _notify(table)
    assert len(receiver.posts) == 1 and mail.outbox == []


def test_a_refused_webhook_fails_its_task_and_not_the_mail(
        table: Campaign, gm: User, player: User, receiver: Receiver,
        login: Callable[..., Any]) -> None:
    receiver.status = 500
    CampaignNotifications.objects.filter(campaign=table).update(webhook_url=receiver.url)
    _close_phase(table, gm, "order")
    _notify(table)
    failed = DBTaskResult.objects.get(task_path="campaign.notifications.post_webhook")
    assert failed.status == "FAILED" and "500" in failed.traceback
    assert sorted(_sent()) == ["observer@example.org", "player@example.org"]
    # The GM who set it reads why on the notifications page; players do not.
    page = reverse("campaign:notifications", args=[table.slug])
    body = login(gm).get(page).content.decode()
    assert "Last post to the webhook: refused (HTTP Error 500: Internal Server Error)" in body
    assert "Last post to the webhook" not in login(player).get(page).content.decode()


def test_your_turn_comes_from_the_systems_hook(table: Campaign, gm: User, receiver: Receiver,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The system's ``whose_turn`` hook names the kingdom to act; a kingdom newly named is told
    (its player if they asked, and the webhook), one still named is not told again."""
    red = Kingdom.objects.get(campaign=table, name="Red")
    blue = Kingdom.objects.get(campaign=table, name="Blue")
    shell = get_system(table.rule_system).shell_module()
    turn = {"now": [red.pk]}
    monkeypatch.setattr(shell, "whose_turn", lambda campaign: turn["now"], raising=False)
    CampaignNotifications.objects.filter(campaign=table).update(webhook_url=receiver.url)
    _choose_battle(table, gm)  # any event wakes the task
    mail.outbox.clear()
    _notify(table)
    assert _sent()["player@example.org"][-1].startswith("Test Campaign: your turn")
    assert "Red to act" in receiver.posts[-1]["content"]
    mail.outbox.clear()
    turn["now"] = [blue.pk]
    _close_phase(table, gm, "order")
    _notify(table)
    # Blue's player did not ask to be told of their turn; the observer asked for phases.
    closed = f"Test Campaign: {_label(table, 'race')} is closed"
    assert _sent() == {"player@example.org": [closed], "observer@example.org": [closed]}
    assert "Blue to act" in receiver.posts[-1]["content"]


def test_the_daily_digest_lists_what_each_member_may_read(table: Campaign, gm: User,
                                                         player: User,
                                                         other_player: User) -> None:
    for user in (player, other_player):
        NotificationPreference.objects.filter(membership__user=user).update(
            daily_digest=True, digest_seq=Event.objects.filter(campaign=table).count())
    blue = Kingdom.objects.get(campaign=table, name="Blue")
    with transaction.atomic():
        with Recorder(table, gm, "test.public", "A storm crosses the sea."):
            pass
        with Recorder(table, gm, "test.secret", "Blue buries its treasure.",
                      visibility=Visibility.KINGDOM, kingdom=blue):
            pass
    notifications.send_digests.enqueue()
    run_queued()
    bodies = {m.to[0]: m.body for m in mail.outbox}
    assert set(bodies) == {"player@example.org", "other@example.org"}
    assert "A storm crosses the sea." in bodies["player@example.org"]
    assert "Blue buries its treasure." not in bodies["player@example.org"]
    assert "Blue buries its treasure." in bodies["other@example.org"]
    # The next day, nothing new: no digest.
    mail.outbox.clear()
    notifications.send_digests.enqueue()
    run_queued()
    assert mail.outbox == []


# --- the settings page ----------------------------------------------------------------------


def _page(campaign: Campaign) -> str:
    return reverse("campaign:notifications", args=[campaign.slug])


def test_each_member_saves_their_own_choices(campaign: Campaign, player: User, observer: User,
                                             outsider: User, login: Callable[..., Any]) -> None:
    url = _page(campaign)
    response = login(player).post(url, {"form": "mine", "on_turn": "on", "daily_digest": "on"})
    assert response.status_code == 302
    pref = NotificationPreference.objects.get(membership__user=player)
    assert (pref.on_turn, pref.on_battle, pref.on_phase, pref.daily_digest) == (
        True, False, False, True)
    # The first digest starts from today's latest event.
    assert pref.digest_seq == Event.objects.filter(campaign=campaign).order_by("-seq")[0].seq
    assert login(observer).post(url, {"form": "mine", "on_phase": "on"}).status_code == 302
    assert NotificationPreference.objects.get(membership__user=observer).on_phase
    body = login(player).get(url).content.decode()
    assert 'name="on_turn" id="id_on_turn" checked' in body
    assert "Campaign webhook" not in body
    assert login(outsider).get(url).status_code == 404
    assert login(None).get(url).status_code == 302  # to the login page


def test_only_a_gm_sets_the_webhook_as_an_undoable_secret_event(
        campaign: Campaign, gm: User, player: User, login: Callable[..., Any]) -> None:
    url = _page(campaign)
    hook = "https://discord.example.org/api/webhooks/1/secret"
    refused = login(player).post(url, {"form": "webhook", "webhook_url": hook})
    assert refused.status_code == 403 and not CampaignNotifications.objects.filter(
        webhook_url=hook).exists()
    bad = login(gm).post(url, {"form": "webhook", "webhook_url": "ftp://example.org/x"})
    assert bad.status_code == 400 and "https://" in bad.content.decode()
    assert login(gm).post(url, {"form": "webhook", "webhook_url": hook}).status_code == 302
    state = CampaignNotifications.objects.get(campaign=campaign)
    assert state.webhook_url == hook
    event = Event.objects.filter(campaign=campaign).order_by("-seq")[0]
    assert (event.kind, event.visibility) == ("campaign.webhook", Visibility.GM)
    assert hook not in event.summary
    assert "Campaign webhook" in login(gm).get(url).content.decode()
    undo_latest(campaign, gm)
    assert not CampaignNotifications.objects.filter(campaign=campaign).exists()


def test_a_plain_http_webhook_is_refused_without_debug(settings: Any) -> None:
    settings.DEBUG = False
    with pytest.raises(notifications.WebhookRefused, match="https://"):
        notifications.check_webhook_url("http://example.org/hook")
    assert notifications.check_webhook_url(" https://example.org/h ") == "https://example.org/h"
    assert notifications.check_webhook_url("") == ""
