"""Background work on Django's tasks framework (the ``django-tasks`` backport of Django 6.0's
``django.tasks``, with its database backend ``django-tasks-db``).

A task is queued as a row of the database (``TASKS`` in settings), in the transaction of the
request that asks for it, and run by ``manage.py db_worker``: one or more worker processes, on
any machine that reaches the database, each taking the next ready row under a lock
(docs/deployment.md). Nothing slow or external runs inside a request: campaign books, e-mail and
webhook posts are tasks. Each task lives beside the code it runs; this module lists them all:

- ``make_book(job_id, token)``: the campaign book of a ``PrintJob`` (``campaign.pdf``).
- ``notify_campaign(campaign_id)``: after events of a campaign are committed, works out what
  they mean for its members (their turn, a battle chosen, a phase closed) and queues the mail
  and webhook posts (``campaign.notifications``).
- ``send_notification_mail(...)`` and ``post_webhook(...)``: one message each, so a refused
  webhook never holds back an e-mail.
- ``send_digests()``: the daily digest of every member who asked for one (queued once a day by
  ``manage.py send_digests``, e.g. from cron).

``revive_stale_books()`` queues again the books whose worker died mid-job (its heartbeat is
older than ``campaign.pdf.STALE_AFTER``); the book's status poll does the same for the book it
shows.
"""

from __future__ import annotations

from campaign.models import PrintJob
from campaign.notifications import (
    notify_campaign,
    post_webhook,
    send_digests,
    send_notification_mail,
)
from campaign.pdf import make_book, revive_if_stale

TASKS = (make_book, notify_campaign, send_notification_mail, post_webhook, send_digests)


def revive_stale_books() -> int:
    """Queue again every unfinished book whose worker stopped; how many were queued."""
    revived = 0
    for job in PrintJob.objects.filter(status__in=[PrintJob.Status.QUEUED,
                                                   PrintJob.Status.RUNNING]):
        revived += revive_if_stale(job)
    return revived
