"""The campaign book prints the GM's chronicle entries, with their photos, after the system's
own sections; a campaign without entries has no such part."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from campaign import notes, pdf
from campaign.models import Campaign
from tests.conftest import make_png
from tests.print.conftest import pdf_text, read_pdf

pytestmark = pytest.mark.django_db

STORY = "Snow lay on the passes, and Red waited for the thaw."


def _book(campaign: Campaign, user: User) -> tuple[str, bytes]:
    access = pdf.access_for_user(campaign, user)
    book = pdf.system_book(campaign)
    assert book is not None
    html, _count = pdf.book_html(book, access, pdf.PrintOptions())
    return html, pdf.book_pdf(book, access, pdf.PrintOptions())


def test_the_book_prints_the_story_with_its_photo(campaign: Campaign, gm: User,
                                                  player: User) -> None:
    notes.add_entry(campaign, gm, title="The long winter", text=STORY + "\n\nThen spring.",
                    upload=make_png((600, 400), colour="navy"))
    notes.add_entry(campaign, gm, title="", text="A quiet month.")
    for user in (gm, player):
        html, data = _book(campaign, user)
        assert html.count('class="story-entry"') == 2
        assert '<a href="#section-' in html and ">The story so far</a>" in html
        text = pdf_text(data)
        assert "The story so far" in text and "The long winter" in text
        assert "Snow lay on the passes" in text and "A quiet month." in text
        # The photo is embedded as an image of the page that tells the story.
        reader = read_pdf(data)
        story_pages = [p for p in reader.pages if "Snow lay" in (p.extract_text() or "")]
        assert len(story_pages) == 1 and len(story_pages[0].images) == 1


def test_a_book_without_entries_has_no_story(campaign: Campaign, gm: User) -> None:
    html, _data = _book(campaign, gm)
    assert "The story so far" not in html
