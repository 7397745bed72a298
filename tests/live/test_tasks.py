"""Background work on the tasks framework: the campaign book survives a restart of the web
server and of the worker (a worker killed mid-job), and a failed book shows its error to the
member who asked for it."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path
from typing import Any, Callable

import pytest
from django.contrib.auth.models import User
from django.db import connection, connections
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.management.commands.db_worker import Worker
from django_tasks_db.models import DBTaskResult

from campaign import pdf
from campaign.models import Campaign, PrintJob

ROOT = Path(__file__).resolve().parents[2]


def run_worker() -> None:
    """Work through the queue in this process until it is empty (``db_worker --batch``)."""
    Worker(queue_names=["default"], interval=0, batch=True, backend_name="default",
           startup_delay=False, max_tasks=None, worker_id="test-worker",
           excluded_queue_names=[]).run()


def _start(client: Any, campaign: Campaign) -> Any:
    return client.post(reverse("campaign:print_book", args=[campaign.slug]),
                       headers={"HX-Request": "true", "HX-Target": "book-job"})


def _poll(client: Any, campaign: Campaign, job: PrintJob) -> str:
    url = reverse("campaign:print_book_status", args=[campaign.slug, job.pk])
    return client.get(url, headers={"HX-Request": "true"}).content.decode()


@pytest.mark.django_db(transaction=True)
def test_a_book_asked_for_is_made_by_a_worker_started_later(
        campaign: Campaign, player: User, login: Callable[..., Any]) -> None:
    """The request only writes the job and its task to the database: with no worker running
    (or the web server restarted since), the book waits, and a worker started later makes it.
    A poll meanwhile does not queue it a second time, however old its heartbeat."""
    client = login(player)
    assert _start(client, campaign).status_code == 200
    job = PrintJob.objects.get()
    assert job.status == PrintJob.Status.QUEUED
    books = DBTaskResult.objects.filter(task_path="campaign.pdf.make_book")
    assert [str(t.pk) for t in books] == [job.options["task"]]
    PrintJob.objects.filter(pk=job.pk).update(heartbeat=timezone.now() - timedelta(minutes=5))
    assert "Waiting to start" in _poll(client, campaign, job)
    assert books.count() == 1
    connections.close_all()  # as a web server that stops
    run_worker()
    job.refresh_from_db()
    assert job.status == PrintJob.Status.DONE, job.message
    assert "Download the campaign book" in _poll(client, campaign, job)
    assert books.get().status == "SUCCESSFUL"


@pytest.mark.django_db(transaction=True)
def test_a_failed_book_shows_its_error_to_who_asked(
        campaign: Campaign, player: User, other_player: User, login: Callable[..., Any],
        monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: Any, **kwargs: Any) -> bytes:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(pdf, "html_to_pdf", broken)
    client = login(player)
    _start(client, campaign)
    job = PrintJob.objects.get()
    run_worker()
    job.refresh_from_db()
    assert job.status == PrintJob.Status.FAILED
    body = _poll(client, campaign, job)
    assert "The book could not be made; try again" in body and "Make it again" in body
    assert "disk on fire" not in body  # the reason is in the log, not on the page
    # Nobody else reads another member's book, failed or not.
    url = reverse("campaign:print_book_status", args=[campaign.slug, job.pk])
    assert login(other_player).get(url, headers={"HX-Request": "true"}).status_code == 404


# --- a worker killed mid-job ----------------------------------------------------------------


class QueueDatabase:
    """The test's database as another process reaches it: a copy in a file for SQLite (the
    test database lives in memory), the test database itself for PostgreSQL."""

    def __init__(self, tmp_path: Path) -> None:
        self.vendor = connection.vendor
        if self.vendor == "sqlite":
            self.path = tmp_path / "queue.sqlite3"
            connection.ensure_connection()
            target = sqlite3.connect(self.path)
            connection.connection.backup(target)
            target.close()
            self.url = f"sqlite:///{self.path}"
        else:
            s = connection.settings_dict
            self.url = (f"postgres://{s['USER']}:{s['PASSWORD']}@{s['HOST'] or '127.0.0.1'}:"
                        f"{s['PORT'] or 5432}/{s['NAME']}")

    def job(self, pk: int) -> tuple[str, str, int]:
        """(status, heartbeat, progress) of a print job, as the database has it now."""
        if self.vendor == "sqlite":
            with sqlite3.connect(self.path) as db:
                row = db.execute("SELECT status, heartbeat, progress FROM campaign_printjob "
                                 "WHERE id = ?", (pk,)).fetchone()
            return row[0], str(row[1]), row[2]
        job = PrintJob.objects.get(pk=pk)
        return job.status, str(job.heartbeat), job.progress

    def age_heartbeat(self, pk: int) -> None:
        old = timezone.now() - timedelta(minutes=2)
        if self.vendor == "sqlite":
            with sqlite3.connect(self.path) as db:
                db.execute("UPDATE campaign_printjob SET heartbeat = ? WHERE id = ?",
                           (old.strftime("%Y-%m-%d %H:%M:%S.%f"), pk))
        else:
            PrintJob.objects.filter(pk=pk).update(heartbeat=old)

    def env(self, media: Path) -> dict[str, str]:
        return {**os.environ, "DEBUG": "1", "DATABASE_URL": self.url,
                "MEDIA_ROOT": str(media), "PYTHONUNBUFFERED": "1"}


def _manage(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300, check=True)


@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_mid_job_loses_nothing(campaign: Campaign, player: User,
                                               login: Callable[..., Any],
                                               tmp_path: Path) -> None:
    """A real ``db_worker`` process takes the book and is killed (SIGKILL) while it lays the
    book out. The job stays in the database; the status poll (or ``revive_stale_books``, the
    same) queues it again once its heartbeat is stale, and a new worker makes it whole."""
    from campaign import pdf as pdf_module

    pdf_module.start_book(pdf.access_for_user(campaign, player), player, pdf.PrintOptions(),
                          base_url="http://testserver/")
    job = PrintJob.objects.get()
    queue = QueueDatabase(tmp_path)
    env = queue.env(tmp_path / "media")
    worker = subprocess.Popen(
        [sys.executable, "manage.py", "db_worker", "--no-reload", "--no-startup-delay",
         "--interval", "0.1"], cwd=ROOT, env=env, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 120
        status = queue.job(job.pk)[0]
        while status == "queued" and time.monotonic() < deadline:
            time.sleep(0.02)
            status = queue.job(job.pk)[0]
        assert status == "running", status
        worker.send_signal(signal.SIGKILL)
        worker.wait(timeout=30)
    finally:
        if worker.poll() is None:
            worker.kill()
            worker.wait(timeout=30)
    status, _heartbeat, progress = queue.job(job.pk)
    assert status == "running" and progress < 100
    # Nothing happens while the heartbeat is fresh: the worker might only be slow.
    revived = "from campaign.tasks import revive_stale_books; print(revive_stale_books())"
    assert _manage(env, "shell", "-c", revived).stdout.split()[-1] == "0"
    queue.age_heartbeat(job.pk)
    assert _manage(env, "shell", "-c", revived).stdout.split()[-1] == "1"
    assert queue.job(job.pk)[0] == "queued"
    _manage(env, "db_worker", "--no-reload", "--no-startup-delay", "--batch")
    status, _heartbeat, progress = queue.job(job.pk)
    assert (status, progress) == ("done", 100)
    assert len(list((tmp_path / "media" / "print").glob("*.pdf"))) == 1
