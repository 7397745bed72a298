"""The campaign book: made in the background, polled by htmx, downloaded at the end, restarted
when its worker died, and only ever showing what the member who asked may see."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import connections
from django.urls import reverse
from django.utils import timezone

from campaign import pdf
from campaign.models import PrintJob
from tests.print.conftest import SheetsWorld, pdf_text, read_pdf, response_bytes


def _start(world: SheetsWorld, persona: str, **data: str) -> Any:
    return world.client(persona).post(
        reverse("campaign:print_book", args=[world.campaign.slug]), data,
        headers={"HX-Request": "true", "HX-Target": "book-job"})


def _download(world: SheetsWorld, persona: str, job: PrintJob) -> bytes:
    response = world.client(persona).get(
        reverse("campaign:print_book_pdf", args=[world.campaign.slug, job.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert 'filename="test-campaign-campaign-book-year-1.pdf"' in response["Content-Disposition"]
    return response_bytes(response)


def test_gm_book_has_every_section(sheets_world: SheetsWorld,
                                   inline_worker: list[tuple[int, str]]) -> None:
    world = sheets_world
    response = _start(world, "gm", paper="letter", eco="1")
    assert response.status_code == 200
    job = PrintJob.objects.get()
    assert inline_worker == [(job.pk, job.options["worker"])]
    assert job.status == PrintJob.Status.DONE, job.message
    assert (job.progress, job.options["paper"], job.options["eco"]) == (100, "letter", True)
    assert "Download the campaign book" in response.content.decode()
    data = _download(world, "gm", job)
    reader = read_pdf(data)
    text = pdf_text(data)
    assert f"{len(reader.pages)} pages" in job.message
    assert "Campaign book" in text and "Contents" in text
    for needle in ("Map of Test Campaign", "Red: ledger", "Blue: ledger", "Green: ledger",
                   "Red: armies", "Army #1", "Army #2", "Sea Guard Spearmen",
                   "Chronicle of year 1", "Rules reference: Mighty Kingdoms",
                   "Red hid gold in the cellar."):
        assert needle in text, needle
    # Blue's and Green's armies have no lists: no page of armies for them (their ledgers list
    # their armies).
    assert "Blue: armies" not in text and "Green: armies" not in text
    # One numbering for the whole book, and the contents point into it.
    assert f"page {len(reader.pages)} of {len(reader.pages)}" in text
    # The map section is landscape, the rest portrait, all on Letter.
    sizes = {(round(float(p.mediabox.width)), round(float(p.mediabox.height)))
             for p in reader.pages}
    assert sizes == {(612, 792), (792, 612)}


def test_players_book_keeps_other_kingdoms_secrets(sheets_world: SheetsWorld,
                                                    inline_worker: list[tuple[int, str]]) -> None:
    world = sheets_world
    _start(world, "player")
    job = PrintJob.objects.get(requested_by=world.player)
    text = pdf_text(_download(world, "player", job))
    assert "Red: ledger" in text and "Red: armies" in text and "Sea Guard Spearmen" in text
    assert "Red hid gold in the cellar." in text
    assert "Blue: ledger" not in text and "Green: ledger" not in text
    assert "Blue: armies" not in text and "Green: armies" not in text
    # Another member can neither see its progress nor download it.
    for persona in ("other_player", "gm", "observer"):
        client = world.client(persona)
        assert client.get(reverse("campaign:print_book_pdf", args=[world.campaign.slug, job.pk])
                          ).status_code == 404
        assert client.get(reverse("campaign:print_book_status",
                                  args=[world.campaign.slug, job.pk]),
                          headers={"HX-Request": "true"}).status_code == 404


def test_observers_book_has_map_chronicle_and_rules(sheets_world: SheetsWorld,
                                                     inline_worker: list[tuple[int, str]]) -> None:
    world = sheets_world
    _start(world, "observer")
    job = PrintJob.objects.get(requested_by=world.observer)
    text = pdf_text(_download(world, "observer", job))
    assert "Map of Test Campaign" in text and "Rules reference" in text
    assert "Red raised a banner" in text and "Red hid gold" not in text
    assert ": ledger" not in text and ": armies" not in text and "Army #1" not in text


def test_book_for_outsider_and_anonymous(sheets_world: SheetsWorld,
                                         no_worker: list[tuple[int, str]]) -> None:
    url = reverse("campaign:print_book", args=[sheets_world.campaign.slug])
    assert sheets_world.client("outsider").post(url).status_code == 404
    response = sheets_world.client("anonymous").post(url)
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    assert sheets_world.client("player").get(url).status_code == 405
    assert no_worker == [] and not PrintJob.objects.exists()


def test_progress_is_polled_until_done(sheets_world: SheetsWorld,
                                       no_worker: list[tuple[int, str]]) -> None:
    world = sheets_world
    response = _start(world, "player")
    job = PrintJob.objects.get()
    status_url = reverse("campaign:print_book_status", args=[world.campaign.slug, job.pk])
    body = response.content.decode()
    assert 'id="book-job"' in body and f'hx-get="{status_url}"' in body
    assert 'hx-trigger="every 1s"' in body and "<progress" in body
    # A second tap while it runs starts nothing new.
    _start(world, "player")
    assert len(no_worker) == 1 and PrintJob.objects.count() == 1
    PrintJob.objects.filter(pk=job.pk).update(status="running", progress=42,
                                              message="Laying out page 3")
    poll = world.client("player").get(status_url, headers={"HX-Request": "true"})
    assert 'value="42"' in poll.content.decode() and "Laying out page 3" in poll.content.decode()
    # Closing the page loses nothing: the print page shows the job again.
    page = world.client("player").get(reverse("campaign:print", args=[world.campaign.slug]))
    assert "Laying out page 3" in page.content.decode()
    # Without htmx the status URL sends you back to the print page.
    assert world.client("player").get(status_url).status_code == 302
    PrintJob.objects.filter(pk=job.pk).update(status="done", progress=100, message="3 pages")
    done = world.client("player").get(status_url, headers={"HX-Request": "true"})
    assert "every 1s" not in done.content.decode()
    assert "Download the campaign book" in done.content.decode()


def test_a_stale_job_is_restarted_by_the_poll(sheets_world: SheetsWorld,
                                              no_worker: list[tuple[int, str]],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    world = sheets_world
    _start(world, "player")
    job = PrintJob.objects.get()
    first_token = job.options["worker"]
    status_url = reverse("campaign:print_book_status", args=[world.campaign.slug, job.pk])
    # A recent heartbeat: nothing happens.
    world.client("player").get(status_url, headers={"HX-Request": "true"})
    assert len(no_worker) == 1
    # The worker died 2 minutes ago.
    PrintJob.objects.filter(pk=job.pk).update(
        status="running", heartbeat=timezone.now() - timedelta(minutes=2))
    world.client("player").get(status_url, headers={"HX-Request": "true"})
    job.refresh_from_db()
    assert len(no_worker) == 2 and no_worker[1][0] == job.pk
    assert job.options["worker"] == no_worker[1][1] != first_token
    # The old worker, if it wakes up, finds it no longer owns the job and stops. (It runs here
    # in the test's thread, whose database connection it must not close.)
    monkeypatch.setattr(connections, "close_all", lambda: None)
    pdf.run_book_job(job.pk, first_token)
    job.refresh_from_db()
    assert job.status == "queued" and not job.file


def test_a_failed_book_says_so(sheets_world: SheetsWorld, inline_worker: list[tuple[int, str]],
                               monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: Any, **kwargs: Any) -> bytes:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(pdf, "html_to_pdf", broken)
    response = _start(sheets_world, "player")
    job = PrintJob.objects.get()
    assert job.status == PrintJob.Status.FAILED
    assert "could not be made" in job.message and "disk on fire" not in job.message
    assert "could not be made" in response.content.decode()
    assert "Make it again" in response.content.decode()


def test_a_new_book_replaces_the_old_one(sheets_world: SheetsWorld,
                                         inline_worker: list[tuple[int, str]]) -> None:
    world = sheets_world
    _start(world, "observer")
    old = PrintJob.objects.get()
    path = old.file.path
    _start(world, "observer")
    assert PrintJob.objects.count() == 1 and PrintJob.objects.get().pk != old.pk
    import os

    assert not os.path.exists(path)
    assert len(PrintJob.objects.get().file.name.split("/")[-1]) == 36  # 32 hex digits + .pdf


@pytest.mark.django_db(transaction=True)
def test_the_book_is_made_by_the_task_worker(sheets_world: SheetsWorld) -> None:
    """The request only queues the book; a worker of the tasks framework makes it."""
    from django_tasks_db.management.commands.db_worker import Worker

    world = sheets_world
    response = _start(world, "observer")
    assert response.status_code == 200
    job = PrintJob.objects.get()
    assert job.status == PrintJob.Status.QUEUED and job.options["task"]
    Worker(queue_names=["default"], interval=0, batch=True, backend_name="default",
           startup_delay=False, max_tasks=None, worker_id="test-worker",
           excluded_queue_names=[]).run()
    job.refresh_from_db()
    assert job.status == PrintJob.Status.DONE, job.message
    assert job.heartbeat is not None
    assert "Rules reference" in pdf_text(_download(world, "observer", job))
    connections.close_all()
