"""Notifications: e-mail to members who asked for it, and posts to a campaign's webhook.

What is told comes from the chronicle, read by a background task after events are committed
(``campaign.tasks.notify_campaign``), never inside the request that wrote them:

- **a battle chosen**: an event that created a ``battles.Battle``; told to the players of its two
  kingdoms who asked (``on_battle``), and to the webhook when the event is public;
- **a phase closed**: the campaign's clock label differs from the one last told; told to every
  member who asked (``on_phase``) and to the webhook;
- **your turn**: the rule system's ``whose_turn(campaign)`` shell hook (the kingdoms expected to
  act now) names a kingdom it did not name last time; told to that kingdom's player if they asked
  (``on_turn``), and to the webhook by kingdom name;
- **daily digest**: the events each member may read since their last digest
  (``manage.py send_digests``, once a day).

``CampaignNotifications`` remembers the last event read, the clock label and whose turn it was,
so each change is told once, however many workers run and however late they run. A member's
e-mails only carry what that member may read; the webhook only what every member may read.
Each message is its own task (``send_notification_mail``, ``post_webhook``).
"""

from __future__ import annotations

import json
import logging
import urllib.request
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.core.validators import URLValidator
from django.db import IntegrityError, transaction
from django.db.models import F, OuterRef, QuerySet, Subquery
from django.db.models.signals import post_save
from django_tasks import task

from campaign.models import (
    Campaign,
    CampaignNotifications,
    Event,
    Kingdom,
    Membership,
    NotificationPreference,
    Visibility,
)

logger = logging.getLogger(__name__)

WEBHOOK_TIMEOUT = 10  # seconds
DIGEST_EVENTS = 40  # at most this many events are listed in one digest; the rest are counted
SITE_NAME = "Hexkeep"


# --- queuing after the chronicle moves ------------------------------------------------------

def _queue_after_commit(campaign_id: int) -> None:
    """Queue one ``notify_campaign`` for this campaign once the transaction commits, however
    many events it wrote."""
    connection = transaction.get_connection()
    if any(getattr(hook, "notify_campaign", None) == campaign_id
           for _sids, hook, _robust in connection.run_on_commit):
        return  # already queued for this transaction

    def enqueue() -> None:
        notify_campaign.enqueue(campaign_id)

    enqueue.notify_campaign = campaign_id  # type: ignore[attr-defined]
    # Robust: a queue that cannot be written loses a notification, never the request's answer
    # (the next event's task tells it: notifications read on from the last event told).
    transaction.on_commit(enqueue, robust=True)


def _event_saved(sender: type[Event], instance: Event, created: bool, **kwargs: Any) -> None:
    if created and not kwargs.get("raw"):
        _queue_after_commit(instance.campaign_id)


def connect() -> None:
    """Listen to the chronicle (called once from ``CampaignConfig.ready``)."""
    post_save.connect(_event_saved, sender=Event, dispatch_uid="campaign.notifications")


# --- what changed ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Message:
    """One notification before it is addressed: a subject and lines of text."""

    subject: str
    lines: tuple[str, ...]

    @property
    def body(self) -> str:
        return "\n".join(self.lines)


def whose_turn(campaign: Campaign) -> list[int]:
    """The kingdoms the rule system expects to act now (its ``whose_turn`` hook; none when the
    system has no turns)."""
    hook = campaign.system.hook("whose_turn")
    if hook is None:
        return []
    try:
        return sorted(int(pk) for pk in hook(campaign))
    except Exception:  # a system's fault must not hold back the other notifications
        logger.exception("whose_turn failed for campaign %s", campaign.pk)
        return []


def with_told_turn(campaigns: QuerySet[Campaign]) -> QuerySet[Campaign]:
    """``campaigns`` annotated for ``turn_now``: the turn the notifications last read, the last
    event they read, and the campaign's latest event (one query for the whole list)."""
    latest = Event.objects.filter(campaign=OuterRef("pk")).order_by("-seq").values("seq")[:1]
    return campaigns.annotate(
        told_turn=F("notification_state__turn"),
        told_seq=F("notification_state__seen_seq"),
        latest_seq=Subquery(latest),
    )


def turn_now(campaign: Campaign) -> list[int]:
    """Whose turn it is in a campaign of a ``with_told_turn`` list: what the notifications
    recorded from the ``whose_turn`` hook when they have read every event since (every change
    of turn is an event), so a list of campaigns costs no query per campaign; otherwise (the
    worker has not caught up) the hook, asked now."""
    told = getattr(campaign, "told_turn", None)
    told_seq = getattr(campaign, "told_seq", None)
    if told is not None and told_seq is not None and told_seq >= (campaign.latest_seq or 0):
        return sorted(int(pk) for pk in told)
    return whose_turn(campaign)


def _battles_created(event: Event) -> list[int]:
    pks: list[int] = []
    for change in event.changes or []:
        if change.get("model") != "battles.battle":
            continue
        if change.get("op") == "create":
            pks.append(int(change["pk"]))
        elif change.get("op") == "create_many":
            pks.extend(int(pk) for pk in change.get("pks", []))
    return pks


def _member_may_read(membership: Membership, kingdom_id: int | None, event: Event) -> bool:
    if membership.role == "gm" or event.visibility == Visibility.PUBLIC:
        return True
    return event.visibility == Visibility.KINGDOM and kingdom_id is not None and (
        event.kingdom_id == kingdom_id)


def _campaign_url(campaign: Campaign, path: str = "") -> str:
    base = getattr(settings, "SITE_URL", "").rstrip("/")
    return f"{base}/c/{campaign.slug}/{path}"


def process_campaign(campaign_id: int) -> int:
    """Read the campaign's events since the last run and queue what they tell; the number of
    messages queued. Runs in a worker (``notify_campaign``)."""
    campaign = Campaign.objects.filter(pk=campaign_id).first()
    if campaign is None:
        return 0
    try:
        CampaignNotifications.objects.get_or_create(campaign=campaign)
    except IntegrityError:  # another worker made it at the same moment
        pass
    queued = 0
    with transaction.atomic():
        state = CampaignNotifications.objects.select_for_update().get(campaign=campaign)
        campaign.refresh_from_db()
        events = list(Event.objects.filter(campaign=campaign, seq__gt=state.seen_seq)
                      .order_by("seq"))
        clock = campaign.clock_label()
        turn = whose_turn(campaign)
        fresh = not state.clock  # nothing told yet: today's state is the starting point
        prefs = list(NotificationPreference.objects.filter(membership__campaign=campaign)
                     .select_related("membership__user"))
        kingdoms = {k.pk: k for k in Kingdom.objects.filter(campaign=campaign)}
        kingdom_of = {k.player_id: k.pk for k in kingdoms.values() if k.player_id}
        outgoing: list[tuple[str, Message]] = []  # (e-mail address, message)
        hooks: list[str] = []
        if not fresh:
            battle_ids = {pk: event for event in events for pk in _battles_created(event)}
            if battle_ids:
                from battles.models import Battle

                for battle in (Battle.objects.filter(pk__in=battle_ids, campaign=campaign)
                               .select_related("tile")):
                    event = battle_ids[battle.pk]
                    sides = {battle.chooser_id, battle.opponent_id}
                    # The chooser first, then the opponent (a set's order is its keys').
                    names = " and ".join(kingdoms[k].name for k in
                                         (battle.chooser_id, battle.opponent_id) if k in kingdoms)
                    message = Message(f"{campaign.name}: a battle of yours is chosen",
                                      (event.summary, "", _campaign_url(campaign, "play/")))
                    for pref in prefs:
                        member = pref.membership
                        mine = kingdom_of.get(member.pk)
                        if pref.on_battle and mine in sides and _member_may_read(
                                member, mine, event):
                            outgoing.append((member.user.email, message))
                    if event.visibility == Visibility.PUBLIC:
                        hooks.append(f"Battle chosen: {names}. {event.summary}")
            if clock != state.clock:
                message = Message(f"{campaign.name}: {state.clock} is closed",
                                  (f"{state.clock} is closed; now {clock}.", "",
                                   _campaign_url(campaign, "play/")))
                outgoing += [(p.membership.user.email, message) for p in prefs if p.on_phase]
                hooks.append(f"{state.clock} is closed; now {clock}.")
            new_turns = [pk for pk in turn if pk not in set(state.turn) and pk in kingdoms]
            for pk in new_turns:
                kingdom = kingdoms[pk]
                message = Message(f"{campaign.name}: your turn ({clock})",
                                  (f"It is the turn of {kingdom.name} ({clock}).", "",
                                   _campaign_url(campaign, "play/")))
                outgoing += [(p.membership.user.email, message) for p in prefs
                             if p.on_turn and kingdom.player_id == p.membership_id]
                hooks.append(f"{kingdom.name} to act ({clock}).")
        state.seen_seq = max([state.seen_seq, *(e.seq for e in events)])
        state.clock = clock
        state.turn = turn
        state.save(update_fields=["seen_seq", "clock", "turn"])
        url = state.webhook_url
        for address, message in outgoing:
            if address:
                send_notification_mail.enqueue(address, message.subject, message.body)
                queued += 1
        if url and hooks:
            post_webhook.enqueue(url, webhook_payload(campaign, hooks))
            queued += 1
    return queued


def webhook_payload(campaign: Campaign, lines: Iterable[str]) -> dict[str, Any]:
    """Discord-compatible JSON: ``content`` (at most 2,000 characters) and the sender's name.
    Mentions are switched off, so nothing a player typed can ping a whole server."""
    text = "\n".join(f"**{campaign.name}**: {line}" for line in lines)
    if len(text) > 2000:
        text = text[:1997] + "..."
    return {"username": SITE_NAME, "content": text, "allowed_mentions": {"parse": []}}


# --- delivery -------------------------------------------------------------------------------


def deliver_mail(to: str, subject: str, body: str) -> None:
    send_mail(subject, body, None, [to], fail_silently=False)


class WebhookRefused(ValueError):
    """A webhook address that is not an http(s) URL."""


def check_webhook_url(url: str) -> str:
    """The URL cleaned, or ``WebhookRefused`` with a reason a GM understands."""
    url = url.strip()
    if not url:
        return ""
    try:
        URLValidator(schemes=["https", "http"])(url)
    except ValidationError as exc:
        raise WebhookRefused("The webhook must be an https:// address.") from exc
    if urlsplit(url).scheme != "https" and not settings.DEBUG and not getattr(
            settings, "WEBHOOK_ALLOW_HTTP", False):
        raise WebhookRefused("The webhook must be an https:// address.")
    return url


@dataclass(frozen=True)
class LastPost:
    """How the latest post to a webhook went, for the GM who set it."""

    status: str  # "waiting", "done" or "failed"
    at: Any
    reason: str = ""


def last_webhook_post(url: str) -> LastPost | None:
    """The latest post to ``url`` (from the task queue), or None when there was none."""
    from django_tasks_db.models import DBTaskResult

    if not url:
        return None
    row = (DBTaskResult.objects.filter(task_path=f"{__name__}.post_webhook",
                                       args_kwargs__args__0=url)
           .order_by("-enqueued_at").only("status", "enqueued_at", "finished_at",
                                          "traceback").first())
    if row is None:
        return None
    if row.status == "FAILED":
        lines = [line for line in (row.traceback or "").strip().splitlines() if line.strip()]
        reason = lines[-1].split(": ", 1)[-1] if lines else "no reason given"
        return LastPost("failed", row.finished_at, reason[:200])
    if row.status == "SUCCESSFUL":
        return LastPost("done", row.finished_at)
    return LastPost("waiting", row.enqueued_at)


def deliver_webhook(url: str, payload: dict[str, Any]) -> int:
    """POST the payload as JSON; the status code. A refusal (4xx/5xx) raises, so the task is
    marked failed with the reason."""
    data = json.dumps(payload).encode()
    request = urllib.request.Request(url, data=data, method="POST", headers={
        "Content-Type": "application/json", "User-Agent": f"{SITE_NAME} notifications"})
    with urllib.request.urlopen(request, timeout=WEBHOOK_TIMEOUT) as response:  # noqa: S310
        return int(response.status)


# --- daily digest ---------------------------------------------------------------------------


def digest_for(pref: NotificationPreference) -> Message | None:
    """The events this member may read since their last digest, or None when there are none."""
    from campaign.access import Access, visible_events

    member = pref.membership
    campaign = member.campaign
    kingdom = Kingdom.objects.filter(campaign=campaign, player=member).first()
    access = Access(campaign=campaign, membership=member, role=member.role, kingdom=kingdom)
    events = list(visible_events(access).filter(seq__gt=pref.digest_seq)
                  .order_by("-seq")[:DIGEST_EVENTS + 1])
    if not events:
        return None
    shown = list(reversed(events[:DIGEST_EVENTS]))
    lines = [f"#{e.seq} {e.clock_label()}: {e.summary}" for e in shown]
    if len(events) > DIGEST_EVENTS:
        lines.insert(0, "The latest events (older ones are in the chronicle):")
    lines += ["", _campaign_url(campaign, "chronicle/")]
    return Message(f"{campaign.name}: the day's chronicle", tuple(lines))


def queue_digests() -> int:
    """Queue a digest for every member who asked for one and has something new to read."""
    queued = 0
    for pref in (NotificationPreference.objects.filter(daily_digest=True)
                 .select_related("membership__user", "membership__campaign")):
        with transaction.atomic():
            locked = NotificationPreference.objects.select_for_update().get(pk=pref.pk)
            locked.membership = pref.membership
            message = digest_for(locked)
            latest = Event.objects.filter(campaign=pref.membership.campaign).order_by(
                "-seq").values_list("seq", flat=True).first() or 0
            if message is not None and pref.membership.user.email:
                send_notification_mail.enqueue(pref.membership.user.email, message.subject,
                                               message.body)
                queued += 1
            locked.digest_seq = latest
            locked.save(update_fields=["digest_seq"])
    return queued


def start_state(campaign: Campaign) -> CampaignNotifications:
    """The campaign's notification state, made now (today's clock and turn as the starting
    point) if it is not there yet: a member who asks for notifications is told about what
    changes from here on, not about the past."""
    state = CampaignNotifications.objects.filter(campaign=campaign).first()
    if state is None:
        latest = Event.objects.filter(campaign=campaign).order_by("-seq").values_list(
            "seq", flat=True).first() or 0
        try:
            with transaction.atomic():
                state = CampaignNotifications.objects.create(
                    campaign=campaign, seen_seq=latest, clock=campaign.clock_label(),
                    turn=whose_turn(campaign))
        except IntegrityError:
            state = CampaignNotifications.objects.get(campaign=campaign)
    elif not state.clock:
        state.clock = campaign.clock_label()
        state.turn = whose_turn(campaign)
        state.save(update_fields=["clock", "turn"])
    return state


def preference_for(membership: Membership) -> NotificationPreference:
    pref, _ = NotificationPreference.objects.get_or_create(membership=membership)
    return pref


# --- the tasks (run by ``manage.py db_worker``) ---------------------------------------------


@task()
def notify_campaign(campaign_id: int) -> int:
    """Turn the campaign's new events into notifications; the number of messages queued."""
    return process_campaign(campaign_id)


@task()
def send_notification_mail(to: str, subject: str, body: str) -> None:
    """Send one notification e-mail."""
    deliver_mail(to, subject, body)


@task()
def post_webhook(url: str, payload: dict[str, Any]) -> int:
    """Post one JSON payload to a campaign's webhook; the HTTP status it answered."""
    return deliver_webhook(url, payload)


@task()
def send_digests() -> int:
    """Queue the daily digest of every member who asked for one; the number queued."""
    return queue_digests()
