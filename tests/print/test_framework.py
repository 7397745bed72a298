"""The print framework: options, shrink-to-fit, the URL fetcher and rendering to PDF."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.request import urlopen

import pytest
from django.conf import settings
from django.template import engines

from campaign import pdf
from campaign.models import Campaign
from campaign.rulesystems import REGISTRY, get_system
from tests.print.conftest import A4, LETTER, page_size, pdf_text, read_pdf

# --- options ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("query", "setting", "expected"), [
    ({}, ("a4", False), ("a4", False, False)),
    ({}, ("letter", True), ("letter", False, True)),
    ({"paper": "letter"}, ("a4", False), ("letter", False, False)),
    ({"paper": "LETTER", "eco": "1", "landscape": "1"}, ("a4", False), ("letter", True, True)),
    ({"eco": "0"}, ("a4", True), ("a4", False, False)),
    ({"paper": "a3", "eco": "maybe", "landscape": "sideways"}, ("letter", True),
     ("letter", False, True)),
])
def test_options_come_from_the_query_then_the_campaign(
        query: dict[str, str], setting: tuple[str, bool], expected: tuple[str, bool, bool]) -> None:
    campaign = Campaign(paper_size=setting[0], eco_print=setting[1])
    options = pdf.PrintOptions.from_query(query, campaign)
    assert (options.paper, options.landscape, options.eco) == expected


def test_orientation_falls_back_to_the_sheet() -> None:
    campaign = Campaign(paper_size="a4", eco_print=False)
    assert pdf.PrintOptions.from_query({}, campaign, landscape=True).landscape
    assert not pdf.PrintOptions.from_query({"landscape": "0"}, campaign, landscape=True).landscape


def test_a_sheet_may_choose_its_orientation_unless_the_download_asks() -> None:
    """A sheet with an automatic orientation is asked, with portrait options of the download's
    paper and ink, whether to print landscape; ``?landscape=0/1`` still decides."""
    from campaign.access import Access

    campaign = Campaign(paper_size="letter", eco_print=False)
    asked: list[pdf.PrintOptions] = []

    def wide_on_letter(access: Any, obj: Any, options: pdf.PrintOptions) -> bool:
        asked.append(options)
        return options.paper == "letter"

    sheet = pdf.PdfSheet(slug="s", title="S", template="print/base.html", context=dict,
                         filename=lambda access, obj: "s", landscape=False,
                         orientation=wide_on_letter)
    access = Access(campaign=campaign, membership=None, role="gm", kingdom=None)
    assert sheet.download_options(access, None, {}).landscape
    assert asked == [pdf.PrintOptions("letter", landscape=False, eco=False)]
    assert not sheet.download_options(access, None, {"paper": "a4", "eco": "1"}).landscape
    assert asked[-1] == pdf.PrintOptions("a4", landscape=False, eco=True)
    assert not sheet.download_options(access, None, {"landscape": "0"}).landscape
    assert sheet.download_options(access, None, {"paper": "a4", "landscape": "1"}).landscape
    assert len(asked) == 2
    # Links that leave the orientation to the sheet carry only the paper and the ink.
    assert pdf.PrintOptions("a4", eco=True).query(orientation=False) == "paper=a4&eco=1"


def test_options_describe_the_page() -> None:
    options = pdf.PrintOptions("letter", landscape=True, eco=True)
    assert options.page_css == "letter landscape"
    assert (options.width_mm, options.height_mm) == (279.4, 215.9)
    assert options.query() == "paper=letter&landscape=1&eco=1"
    with pytest.raises(ValueError):
        pdf.PrintOptions("a3")


def test_fit_style_shrinks_long_names_only() -> None:
    assert pdf.fit_style("Red", 40) == ""
    long = "The Most Serene and Everlasting Kingdom of the Shattered Northern Coast"
    style = pdf.fit_style(long, 40)
    assert style.startswith("font-size:")
    size = float(style.removeprefix("font-size:").removesuffix("pt"))
    assert 6.5 <= size < 10
    assert pdf.fit_style("x" * 500, 10) == "font-size:6.5pt"


def test_text_is_measured_with_the_fonts_own_widths() -> None:
    """Wide letters count as wide: twenty W need a smaller size than twenty i in one box."""
    assert pdf.text_width_mm("W" * 20, 10) > 2.5 * pdf.text_width_mm("i" * 20, 10)
    assert pdf.text_width_mm("Red", 10, bold=True) > pdf.text_width_mm("Red", 10)
    wide, narrow = pdf.fit_style("W" * 20, 40), pdf.fit_style("i" * 20, 40)
    assert wide.startswith("font-size:") and narrow == ""
    size = float(wide.removeprefix("font-size:").removesuffix("pt"))
    assert pdf.text_width_mm("W" * 20, size) <= 40
    name = "Sea Guard Spearmen of the Radiant Dawn"  # 65 mm at 10 pt
    assert [pdf.text_lines(name, width, 10) for width in (30, 40, 70)] == [3, 2, 1]
    assert pdf.text_lines("W" * 60, 30, 10) >= 3  # a word longer than a line breaks inside


def test_shorten_cuts_a_text_to_its_width() -> None:
    assert pdf.shorten("Red", 40, 8) == "Red"
    long = "The Wars of the Wyrmwatch Succession across the Western Marches"
    short = pdf.shorten(long, 40, 8)
    assert short.endswith("…") and long.startswith(short[:-1])
    assert pdf.text_width_mm(short, 8) <= 40 < pdf.text_width_mm(long, 8)


# --- the URL fetcher ----------------------------------------------------------------------------

BASE = "http://testserver/"


def test_fetcher_serves_our_static_files() -> None:
    path = pdf.own_file_for_url(f"{BASE}static/css/sheet.css", BASE)
    assert path.name == "sheet.css"
    font = pdf.own_file_for_url(f"{BASE}static/css/../fonts/AtkinsonHyperlegible-Bold.ttf"
                                .replace("css/../", ""), BASE)
    assert font.suffix == ".ttf"


def test_fetcher_serves_media_files(settings: Any) -> None:
    media = Path(settings.MEDIA_ROOT)
    (media / "crests").mkdir(parents=True)
    (media / "crests" / "red.png").write_bytes(b"\x89PNG")
    assert pdf.own_file_for_url(f"{BASE}media/crests/red.png", BASE).read_bytes() == b"\x89PNG"


@pytest.mark.parametrize("url", [
    "http://evil.example/static/css/sheet.css",
    "http://127.0.0.1:9/static/css/sheet.css",
    "https://testserver/static/css/sheet.css",
    "http://user:pw@testserver/static/css/sheet.css",
    "file:///etc/passwd",
    f"file://{settings.BASE_DIR}/static/css/sheet.css",
    "data:text/css,body{color:red}",
    "ftp://testserver/static/css/sheet.css",
    f"{BASE}static/../campaign/settings.py",
    f"{BASE}static/%2e%2e/campaign/settings.py",
    f"{BASE}media/../campaign/settings.py",
    f"{BASE}static/css/no-such-file.css",
    f"{BASE}campaign/settings.py",
    f"{BASE}static/",
])
def test_fetcher_refuses_everything_else(url: str) -> None:
    with pytest.raises(pdf.FetchRefused):
        pdf.own_file_for_url(url, BASE)


def test_spy_server_counts_requests(spy_server: tuple[str, list[str]]) -> None:
    url, hits = spy_server
    with urlopen(f"{url}/check.css", timeout=5) as response:  # noqa: S310 (our own test server)
        assert response.status == 200
    assert hits == ["/check.css"]


def _greedy_html(url: str) -> str:
    return f"""<!doctype html><html><head>
      <link rel="stylesheet" href="{url}/link.css">
      <style>@import url("{url}/import.css");
        @font-face {{ font-family: Spy; src: url("{url}/font.ttf"); }}
        body {{ background: url("{url}/bg.png"); font-family: Spy; }}</style>
      </head><body><p>Sheet</p><img src="{url}/img.png">
      <svg xmlns="http://www.w3.org/2000/svg" width="20" height="20">
        <image href="{url}/svg.png" width="20" height="20"/></svg>
      <object data="{url}/object.svg"></object><iframe src="{url}/frame.html"></iframe>
      <img src="file:///etc/hostname"><a href="{url}/link">link</a></body></html>"""


def test_weasyprint_alone_would_fetch_them(spy_server: tuple[str, list[str]]) -> None:
    """The control: without our fetcher the same page reaches the network."""
    from weasyprint import HTML

    url, hits = spy_server
    HTML(string=_greedy_html(url), base_url=url + "/").write_pdf()
    assert "/link.css" in hits and "/img.png" in hits


def test_rendering_never_fetches_a_remote_url(spy_server: tuple[str, list[str]]) -> None:
    url, hits = spy_server
    data = pdf.html_to_pdf(_greedy_html(url), base_url=url + "/")
    assert "Sheet" in pdf_text(data)
    assert hits == []


def test_render_pdf_uses_paper_orientation_and_our_font() -> None:
    template = "print/chronicle.html"
    context = {"campaign": Campaign(name="Test", slug="t"), "year": 1, "events": [],
               "sheet_title": "Chronicle", "clock": "Year 1"}
    a4 = read_pdf(pdf.render_pdf(template, context))
    assert page_size(a4) == A4
    letter = read_pdf(pdf.render_pdf(template, context, paper="letter", landscape=True))
    assert page_size(letter) == (LETTER[1], LETTER[0])
    fonts = set()
    for page in a4.pages:
        for font in (page["/Resources"].get("/Font") or {}).values():
            fonts.add(str(font.get_object()["/BaseFont"]))
    assert any("Atkinson" in name for name in fonts), fonts
    text = pdf_text(pdf.render_pdf(template, context))
    assert "Test · " in text and "page 1 of 1" in text


# --- the registry -------------------------------------------------------------------------------


@pytest.mark.parametrize("slug", list(REGISTRY))
def test_every_system_lists_working_sheets(slug: str) -> None:
    system = get_system(slug)
    entries = system.hook("SHEETS", None)
    assert entries, f"{slug} lists no sheets"
    sheets = [e for e in entries if isinstance(e, pdf.PdfSheet)]
    assert len({s.slug for s in sheets}) == len(sheets)
    assert all(s.slug != "book" for s in sheets)
    books = [e for e in entries if isinstance(e, pdf.PdfBook)]
    assert len(books) <= 1
    django_engine = engines["django"]
    for sheet in sheets:
        django_engine.get_template(sheet.template)
        django_engine.get_template(f"{sheet.template}#body")
        assert callable(sheet.context) and callable(sheet.filename) and callable(sheet.may_see)
        assert (sheet.objects is None) == (sheet.get is None)
        # Its own function returning bytes, or the framework's sheet_pdf for it.
        assert sheet.pdf is None or callable(sheet.pdf)
    for book in books:
        django_engine.get_template(book.template)
