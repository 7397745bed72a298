"""Helpers of the live-table tests: run the task queue in the test, a webhook receiver on
127.0.0.1, and how many queries a kept page or a poll takes."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from django.db import connection
from django_tasks_db.models import DBTaskResult

#: The queries of a kept page or a poll once this process has served the session: the session
#: with the viewer's version in one statement on PostgreSQL (``live.read_with_session``), the
#: two apart elsewhere.
KEPT_QUERIES = 1 if connection.vendor == "postgresql" else 2


def run_queued(limit: int = 100) -> list[str]:
    """Run every ready task of the queue in this thread and this test's transaction (as a
    worker would, without closing the connection); the task paths run, in order. Tasks that
    queue more tasks have them run too."""
    ran: list[str] = []
    for _ in range(limit):
        row = DBTaskResult.objects.ready().order_by("enqueued_at").first()
        if row is None:
            return ran
        row.claim("test-worker")
        ran.append(row.task_path)
        result = row.task_result
        try:
            value = row.task.call(*result.args, **result.kwargs)
        except Exception as exc:  # noqa: BLE001 - recorded as the worker records it
            row.set_failed(exc)
        else:
            row.set_successful(value)
    raise AssertionError("the queue did not run dry")


@dataclass
class Receiver:
    """A local HTTP server that keeps the JSON bodies posted to it."""

    url: str
    posts: list[dict[str, Any]] = field(default_factory=list)
    status: int = 204


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    box: dict[str, Receiver] = {}

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - the http.server name
            length = int(self.headers.get("Content-Length", "0"))
            got = box["r"]
            got.posts.append(json.loads(self.rfile.read(length)))
            self.send_response(got.status)
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    box["r"] = Receiver(f"http://127.0.0.1:{server.server_address[1]}/hook")
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield box["r"]
    finally:
        server.shutdown()
        server.server_close()
