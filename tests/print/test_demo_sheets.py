"""The demo campaigns' sheets, as `manage.py load_demo` leaves them: each kingdom's ledger fits one
page at A4 and Letter, no sheet embeds a font that is not ours, and the Wide Frontier shows a
Kings of War battle waiting and a map cut into pages."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User

from campaign import pdf
from campaign.models import Campaign
from campaign.systems.mighty_kingdoms import sheets
from tests.print.conftest import pdf_text, read_pdf
from tests.print.test_fit import _embedded_fonts, _our_fonts

pytestmark = pytest.mark.django_db


def test_demo_ledgers_fit_one_page_and_sheets_use_only_our_fonts() -> None:
    from campaign.demo import load_demo

    load_demo("mighty-kingdoms")
    gm = User.objects.get(username="gm")
    ours = _our_fonts()
    ledgers: list[bytes] = []
    for slug in ("shattered-coast", "ember-marches", "wide-frontier"):
        campaign = Campaign.objects.get(slug=slug)
        access = pdf.access_for_user(campaign, gm)
        for kingdom in campaign.kingdoms.order_by("pk"):
            for paper in ("a4", "letter"):
                data = sheets.ledger_pdf(access, kingdom, pdf.PrintOptions(paper))
                assert len(read_pdf(data).pages) == 1, (kingdom.name, paper)
                ledgers.append(data)
        printed = [ledgers[-1], sheets.map_pdf(access, None, pdf.PrintOptions("letter", eco=True)),
                   sheets.reference_pdf(access, None, pdf.PrintOptions("a4"))]
        printed += [sheets.battle_packet_pdf(access, battle, pdf.PrintOptions("a4"))
                    for battle in sheets._pending_battles(access)]
        printed += [sheets.army_roster_pdf(access, army, pdf.PrintOptions("a4"))
                    for army in sheets._armies(access)[:1] if sheets._kow_battles(campaign)]
        for data in printed:
            for name in _embedded_fonts(data):
                family = re.sub(r"-(Bold|Italic|BoldItalic)$", "",
                                name.lstrip("/").split("+", 1)[-1])
                assert family in ours, (slug, name)
    assert len(ledgers) == 22
    frontier = Campaign.objects.get(slug="wide-frontier")
    access = pdf.access_for_user(frontier, gm)
    battles = sheets._pending_battles(access)
    assert [(b.kind, b.mode) for b in battles] == [("land", "kow")]
    packet = pdf_text(sheets.battle_packet_pdf(access, battles[0], pdf.PrintOptions("a4")))
    assert "Scenario agreed" in packet and re.search(r"\d+ of 500 points", packet)
    assert "Phalanx" in packet or "Shambling" in packet  # the units' special rules
    for paper in ("a4", "letter"):
        sheet = pdf.find_sheet(access, "map")
        options = sheet.download_options(access, None, {"paper": paper})
        pages = sheets.map_context(access, None, options)["paper"].pages
        assert len(pages) == 2, paper
    # The purchases a settlement allows ("→ city"), set in Hexkeep Symbols.
    assert any("→" in pdf_text(data) for data in ledgers)
