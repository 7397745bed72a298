"""Every step of a Mighty Kingdoms year ends with a plain statement of what happened (issue 17):
the demo's whole year through the web pages (tests/mk/test_full_year.py), with each action that
goes back to the play page followed by a look at that page as its sender sees it. The
statement is there, says something, never reads as a refusal, and offers "Take it back" exactly
when the sender may take the action back (their own latest event, its step open)."""

from __future__ import annotations

import html
import re
from collections import Counter
from typing import Any

import pytest
from django.urls import reverse

from campaign.chronicle import latest_standing, take_back_refusal
from campaign.models import Campaign, Event
from tests.mk import test_full_year as year
from tests.mk import webforms

pytestmark = pytest.mark.django_db

OUTCOME = re.compile(r'<div class="outcome" id="outcome" role="status">\s*<p>(.*?)</p>(.*?)</div>',
                     re.S)


def test_mk_every_step_of_a_year_says_what_happened(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: Counter[str] = Counter()
    offered: Counter[str] = Counter()
    original = year.Browser.submit

    def submit(self: year.Browser, form: webforms.Form, button: str | None = None,
               status: int = 302) -> Any:
        response = original(self, form, button, status)
        if status != 302:
            return response
        play = reverse("campaign:play", args=[year.SLUG])
        if response["Location"] != play:
            return response
        page = self.get(play)
        found = OUTCOME.search(page)
        step = form.action.rstrip("/").split("/mk/")[-1] if "/mk/" in form.action else (
            form.action.rstrip("/").rsplit("/", 1)[-1])
        assert found is not None, (step, page[:3000])
        said = html.unescape(found.group(1)).strip()
        assert said and "already" not in said and "not your" not in said.lower(), (step, said)
        campaign = Campaign.objects.get(slug=year.SLUG)
        latest = latest_standing(campaign)
        user = self.client.session.get("_auth_user_id")
        may = latest is not None and take_back_refusal(
            campaign, type("U", (), {"pk": int(user)})(), latest, latest) is None
        assert ("Take it back" in found.group(2)) == may, (step, said)
        seen[step] += 1
        offered[step] += int(may)
        return response

    monkeypatch.setattr(year.Browser, "submit", submit)
    year.test_mk_the_demo_campaign_plays_a_whole_year_through_the_web_pages()
    # Every kind of step the year goes through was looked at.
    for step in ("advance", "winter/buy", "winter/pass", "winter/feed", "winter/deploy",
                 "winter/recall", "winter/tithe", "summer/order", "summer/resolve",
                 "summer/battle"):
        assert seen[step] > 0, (step, seen)
    # A player's own step can be taken back; closing a phase cannot (the GM's chronicle undo).
    assert offered["advance"] == 0
    for step in ("winter/buy", "winter/feed", "summer/order", "summer/resolve"):
        assert offered[step] > 0, (step, offered)
    assert Event.objects.filter(campaign__slug=year.SLUG, undo_of__isnull=False).count() == 0
