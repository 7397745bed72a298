"""Printable sheets (DESIGN principle 8): the one print framework every rule system reuses.

- A sheet is a ``PdfSheet``: an HTML template under ``templates/print/`` that extends
  ``print/base.html`` and wraps its content in ``{% partialdef body inline %}``, a context builder,
  a filename builder and a rule saying who may see it. A rule system lists its sheets in a
  ``SHEETS`` list that its shell module exposes (``system.hook("SHEETS")``); views never name a
  system.
- ``render_pdf`` turns a template and its context into PDF bytes with WeasyPrint, imported only
  when a PDF is made. Its URL fetcher reads our own static files (through the staticfiles finders)
  and files under ``MEDIA_ROOT``, and refuses every other URL (remote, ``file:``, ``data:``)
  without opening a connection.
- The same template opens in the browser as a print preview (``preview`` is true in its context).
- ``PrintOptions`` holds the paper (A4 or Letter), the orientation and eco (black-and-white) mode:
  read from ``?paper=letter&landscape=1&eco=1``, falling back to the campaign's settings and the
  sheet's own orientation.
- The campaign book is made in the background: a ``PrintJob`` row, and a thread that writes its
  progress and heartbeat to that row. Nothing lives in the process: the status poll restarts a job
  whose heartbeat is older than ``STALE_AFTER`` (its worker died), and the finished file is stored
  under ``MEDIA_ROOT``.
"""

from __future__ import annotations

import atexit
import logging
import math
import mimetypes
import re
import secrets
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import timedelta
from functools import cache, cached_property
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping, Sequence
from urllib.parse import unquote, urlencode, urljoin, urlsplit

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.core.exceptions import PermissionDenied, SuspiciousFileOperation
from django.core.files.base import ContentFile
from django.db import connections
from django.http import Http404, HttpRequest
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils._os import safe_join
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.text import slugify

from campaign.access import Access, get_campaign_for
from campaign.models import Campaign, PrintJob

logger = logging.getLogger(__name__)

# Used when no request gives us our own address (background jobs, the bench). The .invalid
# top-level domain never resolves, and the fetcher maps it to local files anyway.
INTERNAL_BASE_URL = "http://hexkeep.invalid/"
STALE_AFTER = timedelta(seconds=60)


# --- paper, orientation and eco mode ------------------------------------------------------------


@dataclass(frozen=True)
class Paper:
    slug: str
    label: str
    css: str
    width_mm: float
    height_mm: float


PAPERS: dict[str, Paper] = {
    "a4": Paper("a4", "A4", "A4", 210.0, 297.0),
    "letter": Paper("letter", "Letter", "letter", 215.9, 279.4),
}
_YES = {"1", "true", "yes", "on"}
_NO = {"0", "false", "no", "off"}


def parse_flag(raw: str | None) -> bool | None:
    if raw is None:
        return None
    value = raw.strip().lower()
    return True if value in _YES else False if value in _NO else None


@dataclass(frozen=True)
class PrintOptions:
    """Paper size, orientation and eco mode of one download."""

    paper: str = "a4"
    landscape: bool = False
    eco: bool = False

    def __post_init__(self) -> None:
        if self.paper not in PAPERS:
            raise ValueError(f"Unknown paper size {self.paper!r}: use one of {sorted(PAPERS)}.")

    @classmethod
    def from_query(cls, params: Mapping[str, str], campaign: Campaign, *,
                   landscape: bool = False) -> PrintOptions:
        """``?paper=letter&landscape=1&eco=1``; what is missing or not understood falls back to
        the campaign's settings (paper, eco) and the sheet's orientation (``landscape``)."""
        paper = (params.get("paper") or "").strip().lower()
        if paper not in PAPERS:
            paper = campaign.paper_size if campaign.paper_size in PAPERS else "a4"
        wants_landscape = parse_flag(params.get("landscape"))
        eco = parse_flag(params.get("eco"))
        return cls(
            paper=paper,
            landscape=landscape if wants_landscape is None else wants_landscape,
            eco=campaign.eco_print if eco is None else eco,
        )

    @classmethod
    def from_stored(cls, data: Mapping[str, Any]) -> PrintOptions:
        paper = data.get("paper")
        return cls(paper=paper if paper in PAPERS else "a4",
                   landscape=bool(data.get("landscape")), eco=bool(data.get("eco")))

    def as_dict(self) -> dict[str, Any]:
        return {"paper": self.paper, "landscape": self.landscape, "eco": self.eco}

    @property
    def sheet(self) -> Paper:
        return PAPERS[self.paper]

    @property
    def page_css(self) -> str:
        """The ``@page size`` value; built from fixed words only, never from user input."""
        return f"{self.sheet.css} {'landscape' if self.landscape else 'portrait'}"

    @property
    def width_mm(self) -> float:
        paper = self.sheet
        return paper.height_mm if self.landscape else paper.width_mm

    @property
    def height_mm(self) -> float:
        paper = self.sheet
        return paper.width_mm if self.landscape else paper.height_mm

    def query(self, **extra: Any) -> str:
        """The query string that asks for exactly these options."""
        params = {"paper": self.paper, "landscape": int(self.landscape), "eco": int(self.eco)}
        params.update(extra)
        return urlencode(params)

    def label(self) -> str:
        return (f"{self.sheet.label} {'landscape' if self.landscape else 'portrait'}, "
                f"{'black and white' if self.eco else 'colour'}")


# Text area of a sheet: the margins of static/css/sheet.css (left/right 12 mm, top 16 mm,
# bottom 14 mm) less the running header and footer lines.
MARGIN_X_MM = 12.0
MARGIN_TOP_MM = 16.0
MARGIN_BOTTOM_MM = 14.0


def text_area_mm(options: PrintOptions) -> tuple[float, float]:
    """Width and height of the printable area of one page, in millimetres."""
    return (options.width_mm - 2 * MARGIN_X_MM,
            options.height_mm - MARGIN_TOP_MM - MARGIN_BOTTOM_MM)


def fit_style(text: str, width_mm: float, size_pt: float = 10.0, min_pt: float = 6.5) -> str:
    """Shrink-to-fit for a name in a box ``width_mm`` wide: a ``font-size`` for the ``style``
    attribute when the text would not fit at ``size_pt``, else an empty string.

    CSS cannot shrink text to its box, so the width is estimated (0.56 em per character on
    average for Atkinson Hyperlegible); below ``min_pt`` the text wraps instead.
    """
    chars = max(len(text), 1)
    natural_mm = chars * 0.56 * size_pt * 0.3528
    if natural_mm <= width_mm:
        return ""
    fitted = max(min_pt, math.floor(size_pt * width_mm / natural_mm * 10) / 10)
    return f"font-size:{fitted:g}pt"


# --- the URL fetcher: our own files only --------------------------------------------------------


class FetchRefused(ValueError):
    """A sheet asked for something that is not one of our static or media files.

    WeasyPrint treats any ``Exception`` from the fetcher as a failed fetch: the resource is left
    out and rendering goes on.
    """


def _prefix(base_url: str, setting: str) -> str:
    absolute = urljoin(base_url, setting or "/")
    return absolute if absolute.endswith("/") else absolute + "/"


def own_file_for_url(url: str, base_url: str) -> Path:
    """The local file behind ``url`` if it is one of our static files or a file under
    ``MEDIA_ROOT``, as seen from ``base_url``; raise ``FetchRefused`` otherwise.

    Nothing here opens a connection: the URL is only compared with our own prefixes.
    """
    split = urlsplit(url)
    if split.scheme not in ("http", "https") or split.username or split.password:
        raise FetchRefused(f"Sheets load only our own static files, not {url[:80]!r}.")
    clean = f"{split.scheme}://{split.netloc}{split.path}"
    static_prefix = _prefix(base_url, settings.STATIC_URL)
    media_prefix = _prefix(base_url, settings.MEDIA_URL)
    try:
        if clean.startswith(static_prefix):
            name = unquote(clean[len(static_prefix):])
            path = _static_file(name)
        elif clean.startswith(media_prefix):
            name = unquote(clean[len(media_prefix):])
            path = Path(safe_join(str(settings.MEDIA_ROOT), name)) if name else None
        else:
            path = None
    except (SuspiciousFileOperation, ValueError):
        path = None
    if path is None or not path.is_file():
        raise FetchRefused(f"Sheets load only our own static and media files, not {url[:80]!r}.")
    return path


def _static_file(name: str) -> Path | None:
    if not name or "\x00" in name or any(part == ".." for part in name.split("/")):
        return None
    found = finders.find(name)
    if found:
        return Path(found if isinstance(found, str) else found[0])
    # Hashed names from collectstatic (production) live in STATIC_ROOT only.
    try:
        if staticfiles_storage.exists(name):
            return Path(staticfiles_storage.path(name))
    except (NotImplementedError, SuspiciousFileOperation):
        return None
    return None


# Images made for one sheet (a map's SVG) reach WeasyPrint as images it fetches from memory:
# parsed as a separate SVG document, their thousands of elements skip the page's CSS cascade.
GENERATED_PREFIX = INTERNAL_BASE_URL + "_generated/"
_generated = threading.local()


class GeneratedImage:
    """An SVG drawn for a sheet: ``markup`` for the browser preview, ``url`` for the PDF.

    The URL is registered (for this thread's next PDF) only when a template asks for it, so a
    preview leaves nothing behind.
    """

    def __init__(self, svg: str) -> None:
        self.svg = svg

    @property
    def markup(self) -> str:
        return mark_safe(self.svg)  # drawn by campaign.mapsvg, which escapes all text

    @cached_property
    def url(self) -> str:
        token = secrets.token_hex(12)
        images = _generated.__dict__.setdefault("images", {})
        images[token] = self.svg.encode()
        return f"{GENERATED_PREFIX}{token}.svg"


def _generated_image(url: str) -> bytes | None:
    if not url.startswith(GENERATED_PREFIX) or not url.endswith(".svg"):
        return None
    return _generated.__dict__.get("images", {}).get(url[len(GENERATED_PREFIX):-4])


@cache
def _fetcher_class() -> type:
    from weasyprint.urls import URLFetcher, URLFetcherResponse

    class OwnFilesFetcher(URLFetcher):  # type: ignore[misc]
        """Serves our static and media files from disk and refuses everything else."""

        def __init__(self, base_url: str) -> None:
            super().__init__(timeout=1, allowed_protocols=("http", "https"),
                             allow_redirects=False)
            self.base_url = base_url

        def fetch(self, url: str, headers: Any = None) -> Any:
            image = _generated_image(url)
            if image is not None:
                return URLFetcherResponse(url, image, {"Content-Type": "image/svg+xml"})
            path = own_file_for_url(url, self.base_url)
            content_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
            if path.suffix == ".ttf":
                content_type = "font/ttf"
            return URLFetcherResponse(url, path.read_bytes(), {"Content-Type": content_type})

    return OwnFilesFetcher


def url_fetcher(base_url: str) -> Any:
    """A WeasyPrint URL fetcher that reads only our own files (see ``own_file_for_url``)."""
    return _fetcher_class()(base_url)


# --- rendering ----------------------------------------------------------------------------------

ProgressCallback = Callable[[str, int], None]
"""Called with a stage and a number: ("style", 0) while WeasyPrint reads and styles the document,
("layout", page number) as it lays out each page, and ("write", 0) once it writes the PDF."""


class _LayoutProgress(logging.Handler):
    """Relays WeasyPrint's progress log of one thread (page N laid out, PDF being written)."""

    def __init__(self, callback: ProgressCallback) -> None:
        super().__init__(logging.INFO)
        self.thread = threading.get_ident()
        self.callback = callback

    def emit(self, record: logging.LogRecord) -> None:
        if record.thread != self.thread:
            return
        message = record.getMessage()
        try:
            layout = message.startswith("Step 5 - Creating layout - Page ")
            if layout and "up-to-date" not in message:
                self.callback("layout", int(message.rsplit(" ", 1)[-1]))
            elif message.startswith("Step 6"):
                self.callback("write", 0)
            elif message.startswith(("Step 1", "Step 2", "Step 3", "Step 4")):
                self.callback("style", 0)
        except (ValueError, IndexError):
            pass


_progress_lock = threading.Lock()
_progress_users = 0


@contextmanager
def _weasyprint_progress(callback: ProgressCallback | None) -> Iterator[None]:
    """Listen to WeasyPrint's progress logger while one document renders in this thread."""
    global _progress_users
    if callback is None:
        yield
        return
    progress_logger = logging.getLogger("weasyprint.progress")
    handler = _LayoutProgress(callback)
    with _progress_lock:
        if _progress_users == 0:
            progress_logger.setLevel(logging.INFO)
            progress_logger.propagate = False
        _progress_users += 1
        progress_logger.addHandler(handler)
    try:
        yield
    finally:
        with _progress_lock:
            progress_logger.removeHandler(handler)
            _progress_users -= 1
            if _progress_users == 0:
                progress_logger.setLevel(logging.NOTSET)
                progress_logger.propagate = True


# Every sheet's stylesheets. They are parsed once per thread and handed to WeasyPrint ready-made
# (the PDF's HTML does not link them; the preview does): parsing them and loading their fonts
# costs as much as laying out a whole sheet.
SHEET_STYLESHEETS = ("css/fonts.css", "css/sheet.css")
_parsed = threading.local()


@atexit.register
def _forget_stylesheets() -> None:
    # Free the font configuration while its C library is still loaded.
    _parsed.__dict__.pop("sheets", None)


def _stylesheets() -> tuple[Any, list[Any]]:
    """The font configuration and parsed sheet stylesheets of this thread, re-read when a
    stylesheet file changes."""
    from weasyprint import CSS
    from weasyprint.text.fonts import FontConfiguration

    static = _prefix(INTERNAL_BASE_URL, settings.STATIC_URL)
    urls = [static + name for name in SHEET_STYLESHEETS]
    stamp = tuple(own_file_for_url(url, INTERNAL_BASE_URL).stat().st_mtime_ns for url in urls)
    cached = getattr(_parsed, "sheets", None)
    if cached is None or cached[0] != stamp:
        font_config = FontConfiguration()
        fetcher = url_fetcher(INTERNAL_BASE_URL)
        css = [CSS(url=url, url_fetcher=fetcher, font_config=font_config) for url in urls]
        cached = _parsed.sheets = (stamp, font_config, css)
    return cached[1], cached[2]


def html_to_pdf(html: str, *, base_url: str | None = None,
                progress: ProgressCallback | None = None) -> bytes:
    """PDF bytes of an HTML document styled by the sheet stylesheets, loading only our own
    static and media files."""
    from weasyprint import HTML

    base = base_url or INTERNAL_BASE_URL
    font_config, stylesheets = _stylesheets()
    try:
        with _weasyprint_progress(progress):
            document = HTML(string=html, base_url=base, url_fetcher=url_fetcher(base)).render(
                stylesheets=stylesheets, font_config=font_config)
            return document.write_pdf()
    finally:
        _generated.__dict__.pop("images", None)


def page_context(options: PrintOptions, *, preview: bool = False) -> dict[str, Any]:
    """What ``print/base.html`` needs besides the sheet's own context."""
    width, height = text_area_mm(options)
    return {
        "print": options,
        "preview": preview,
        "printed_on": timezone.localdate(),
        "text_width_mm": width,
        "text_height_mm": height,
    }


def render_sheet_html(template: str, context: Mapping[str, Any], options: PrintOptions, *,
                      preview: bool = False, request: HttpRequest | None = None) -> str:
    return render_to_string(template, {**page_context(options, preview=preview), **context},
                            request=request)


def render_pdf(template: str, context: Mapping[str, Any], *, paper: str = "a4",
               landscape: bool = False, eco: bool = False, base_url: str | None = None) -> bytes:
    """Render ``template`` (a print template extending ``print/base.html``) to PDF bytes."""
    options = PrintOptions(paper=paper, landscape=landscape, eco=eco)
    return html_to_pdf(render_sheet_html(template, context, options), base_url=base_url)


# --- sheets -------------------------------------------------------------------------------------


def _everyone(access: Access, obj: Any) -> bool:
    return True


def _always(campaign: Campaign) -> bool:
    return True


@dataclass(frozen=True)
class PdfSheet:
    """One printable sheet of a rule system.

    - ``slug`` names it in URLs (``/c/<campaign>/print/<slug>/``); ``title`` is shown.
    - ``template``: a print template; ``context(access, obj, options, base_url=..., in_book=...)``
      builds its context (``base_url`` is the site's address, for links printed on paper such as
      QR codes; ``in_book`` is true inside the campaign book).
    - ``filename(access, obj)``: the download's file name, without ``.pdf``.
    - ``may_see(access, obj)``: who may open it (404/403 decided by the view).
    - Per-object sheets (a ledger per kingdom, a roster per army) give ``objects(access)``, every
      object of the campaign the sheet exists for (the view then filters with ``may_see``), and
      ``get(access, pk)``, which loads one of them or raises ``Http404``. Campaign-wide sheets
      leave both ``None`` and receive ``obj=None``.
    - ``label(obj)``: how an object is named in the print page's list.
    - ``landscape``: the default orientation; ``applies(campaign)``: whether the campaign uses
      this sheet at all (e.g. Simple rosters only in Simple-battles campaigns).
    - ``pdf``: the sheet's own function returning PDF bytes (``sheet_pdf`` if not given).
    """

    slug: str
    title: str
    template: str
    context: Callable[..., dict[str, Any]]
    filename: Callable[[Access, Any], str]
    may_see: Callable[[Access, Any], bool] = _everyone
    objects: Callable[[Access], Sequence[Any]] | None = None
    get: Callable[[Access, int], Any] | None = None
    label: Callable[[Any], str] = str
    landscape: bool = False
    applies: Callable[[Campaign], bool] = _always
    description: str = ""
    group: str = "Campaign"
    pdf: Callable[..., bytes] | None = field(default=None, compare=False)

    @property
    def per_object(self) -> bool:
        return self.get is not None

    def render(self, access: Access, obj: Any, options: PrintOptions, *,
               base_url: str | None = None) -> bytes:
        if self.pdf is not None:
            return self.pdf(access, obj, options, base_url=base_url)
        return sheet_pdf(self, access, obj, options, base_url=base_url)


def sheet_pdf(sheet: PdfSheet, access: Access, obj: Any, options: PrintOptions, *,
              base_url: str | None = None) -> bytes:
    """The generic body of a sheet's PDF function: its template and context, to bytes."""
    context = sheet.context(access, obj, options, base_url=base_url)
    return html_to_pdf(render_sheet_html(sheet.template, context, options), base_url=base_url)


def download_name(*parts: Any) -> str:
    """An ASCII file name from parts such as the campaign slug, the sheet and a kingdom name."""
    words = [slugify(str(p)) for p in parts if p not in (None, "")]
    return "-".join(w for w in words if w)[:120] or "sheet"


@dataclass(frozen=True)
class BookSection:
    """One part of the campaign book: a sheet and its object, under a heading in the contents."""

    sheet: PdfSheet
    obj: Any
    heading: str
    group: str = ""
    new_page: bool = True  # False: follows the previous section on the same page if it fits


@dataclass(frozen=True)
class PdfBook:
    """The campaign book of a rule system: ``sections(access)`` lists what the viewer may see,
    in order. Rendered as one document (one numbering, one contents page)."""

    sections: Callable[[Access], list[BookSection]]
    title: str = "Campaign book"
    template: str = "print/book.html"
    slug: str = "book"


def system_sheets(campaign: Campaign) -> list[PdfSheet]:
    """The sheets the campaign's rule system offers and the campaign uses, in order."""
    entries = campaign.system.hook("SHEETS", None) or ()
    return [s for s in entries if isinstance(s, PdfSheet) and s.applies(campaign)]


def system_book(campaign: Campaign) -> PdfBook | None:
    entries = campaign.system.hook("SHEETS", None) or ()
    return next((s for s in entries if isinstance(s, PdfBook)), None)


def find_sheet(access: Access, slug: str) -> PdfSheet:
    sheet = next((s for s in system_sheets(access.campaign) if s.slug == slug), None)
    if sheet is None:
        raise Http404("This campaign has no such sheet.")
    return sheet


def sheet_object(sheet: PdfSheet, access: Access, pk: int | None) -> Any:
    """The object a sheet is printed for, checked against ``may_see`` (404 or 403)."""
    if sheet.get is None:
        if pk is not None:
            raise Http404("This sheet is printed for the whole campaign.")
        obj = None
    else:
        if pk is None:
            raise Http404("Choose what to print this sheet for.")
        obj = sheet.get(access, pk)
    if not sheet.may_see(access, obj):
        raise PermissionDenied(f"You may not print this {sheet.title.lower()}.")
    return obj


@dataclass(frozen=True)
class SheetEntry:
    """One line of the print page: a sheet (and its object) this viewer may print."""

    sheet: PdfSheet
    obj: Any
    label: str
    group: str


def visible_sheets(access: Access) -> list[SheetEntry]:
    entries = []
    for sheet in system_sheets(access.campaign):
        if sheet.objects is None:
            if sheet.may_see(access, None):
                entries.append(SheetEntry(sheet, None, "", sheet.group))
            continue
        for obj in sheet.objects(access):
            if sheet.may_see(access, obj):
                entries.append(SheetEntry(sheet, obj, sheet.label(obj), sheet.group))
    return entries


# --- the campaign book --------------------------------------------------------------------------


def book_html(book: PdfBook, access: Access, options: PrintOptions, *,
              base_url: str | None = None,
              on_section: Callable[[int, int, str], None] | None = None) -> tuple[str, int]:
    """The whole book as one HTML document, and its number of sections."""
    sections = book.sections(access)
    base = page_context(options)
    parts = []
    for index, section in enumerate(sections, start=1):
        section_options = replace(options, landscape=section.sheet.landscape)
        context = {**page_context(section_options),
                   **section.sheet.context(access, section.obj, section_options,
                                           base_url=base_url, in_book=True),
                   "in_book": True}
        parts.append({
            "id": f"section-{index}",
            "heading": section.heading,
            "group": section.group,
            "page": "wide" if section.sheet.landscape else "tall",
            "new_page": section.new_page,
            "html": render_to_string(f"{section.sheet.template}#body", context),
        })
        if on_section is not None:
            on_section(index, len(sections), section.heading)
    html = render_to_string(book.template, {
        **base, "campaign": access.campaign, "access": access, "sheet_title": book.title,
        "sections": parts,
    })
    return html, len(sections)


class JobSuperseded(Exception):
    """Another worker took this job over (its heartbeat had gone stale)."""


class _JobProgress:
    """Writes a job's progress and heartbeat, at most every half second between stages.

    Progress is a percentage: preparing the sections 0-30, laying out pages 30-90 (against an
    estimate of the page count), writing the file 90-100.
    """

    def __init__(self, job_id: int, token: str) -> None:
        self.job_id = job_id
        self.token = token
        self.last = 0.0
        self.sections = 1
        self.pages_estimate = 1
        self.percent = 0

    def write(self, percent: int, message: str, *, force: bool = False) -> None:
        # A second layout pass (page counters) starts again at page 1: never go backwards.
        self.percent = max(self.percent, min(percent, 99))
        now = time.monotonic()
        if not force and now - self.last < 0.5:
            return
        self.last = now
        updated = PrintJob.objects.filter(pk=self.job_id, options__worker=self.token).update(
            status=PrintJob.Status.RUNNING, progress=self.percent, total=100,
            message=message[:200], heartbeat=timezone.now(),
        )
        if not updated:
            raise JobSuperseded()

    def section(self, done: int, total: int, heading: str) -> None:
        self.sections = max(total, 1)
        self.pages_estimate = max(2 * total, 1)
        self.write(int(30 * done / self.sections), f"Prepared {heading}", force=done == total)

    def layout(self, step: str, page: int) -> None:
        if step == "write":
            self.write(90, "Writing the PDF", force=True)
            return
        if step == "style":
            self.write(30, "Styling the pages")  # also keeps the heartbeat fresh
            return
        self.pages_estimate = max(self.pages_estimate, page + 1)
        self.write(30 + int(60 * page / self.pages_estimate), f"Laying out page {page}")


def access_for_user(campaign: Campaign, user: Any) -> Access:
    """The standing of ``user`` in ``campaign`` outside a request (background jobs), decided by
    the one access helper."""
    request = HttpRequest()
    request.user = user
    return get_campaign_for(request, campaign.slug)


def book_pdf(book: PdfBook, access: Access, options: PrintOptions, *,
             base_url: str | None = None, progress: _JobProgress | None = None) -> bytes:
    """The campaign book as PDF bytes, as this viewer may see it."""
    html, _count = book_html(book, access, options, base_url=base_url,
                             on_section=progress.section if progress else None)
    return html_to_pdf(html, base_url=base_url, progress=progress.layout if progress else None)


def run_book_job(job_id: int, token: str) -> None:
    """Make the book of a ``PrintJob``; the worker that holds ``token`` owns the job. Runs in
    its own thread, which closes its database connections when done."""
    try:
        job = PrintJob.objects.select_related("campaign", "requested_by").get(pk=job_id)
        progress = _JobProgress(job_id, token)
        progress.write(0, "Starting", force=True)
        if job.requested_by is None:
            raise PermissionDenied("The member who asked for this book has left.")
        access = access_for_user(job.campaign, job.requested_by)
        book = system_book(job.campaign)
        if book is None:
            raise Http404("This campaign's rule system has no campaign book.")
        options = PrintOptions.from_stored(job.options)
        data = book_pdf(book, access, options, base_url=job.options.get("base_url"),
                        progress=progress)
        name = f"{secrets.token_hex(16)}.pdf"  # unguessable: MEDIA_URL is served publicly
        field_file = job.file
        stored = field_file.storage.save(field_file.field.generate_filename(job, name),
                                         ContentFile(data))
        finished = PrintJob.objects.filter(pk=job_id, options__worker=token).update(
            status=PrintJob.Status.DONE, progress=100, total=100, file=stored,
            message=f"{_page_count(data)} pages, {len(data) // 1024} KB",
            heartbeat=timezone.now(),
        )
        if not finished:
            field_file.storage.delete(stored)
    except JobSuperseded:
        logger.info("Print job %s was taken over by another worker.", job_id)
    except Exception as exc:  # a failed book is reported on the page, never lost silently
        logger.exception("Print job %s failed.", job_id)
        reason = str(exc) if isinstance(exc, (PermissionDenied, Http404)) else (
            "The book could not be made; try again, and tell the GM if it keeps failing.")
        PrintJob.objects.filter(pk=job_id, options__worker=token).update(
            status=PrintJob.Status.FAILED, message=reason[:200], heartbeat=timezone.now())
    finally:
        connections.close_all()


def _page_count(data: bytes) -> int:
    from io import BytesIO

    from pypdf import PdfReader

    return len(PdfReader(BytesIO(data)).pages)


def start_worker(job_id: int, token: str) -> None:
    """Run the job in a thread of this process; tests replace this to run it inline."""
    thread = threading.Thread(target=run_book_job, args=(job_id, token), daemon=True,
                              name=f"print-job-{job_id}")
    thread.start()


def start_book(access: Access, user: Any, options: PrintOptions, *, base_url: str) -> PrintJob:
    """Queue a campaign book for ``user`` and start making it; earlier books of the same member
    for this campaign are removed with their files."""
    for old in PrintJob.objects.filter(campaign=access.campaign, requested_by=user, kind="book"):
        if old.file:
            old.file.storage.delete(old.file.name)
        old.delete()
    token = secrets.token_hex(8)
    job = PrintJob.objects.create(
        campaign=access.campaign, requested_by=user, kind="book",
        options={**options.as_dict(), "base_url": base_url, "worker": token},
        status=PrintJob.Status.QUEUED, total=100, message="Waiting to start",
        heartbeat=timezone.now(),
    )
    start_worker(job.pk, token)
    return job


def is_stale(job: PrintJob, now: Any = None) -> bool:
    if job.status not in (PrintJob.Status.QUEUED, PrintJob.Status.RUNNING):
        return False
    now = now or timezone.now()
    last = job.heartbeat or job.created_at
    return last is None or now - last > STALE_AFTER


def revive_if_stale(job: PrintJob) -> bool:
    """Restart a job whose worker stopped beating (a restarted or crashed process). Only one of
    several polls that notice it at once takes it over."""
    if not is_stale(job):
        return False
    token = secrets.token_hex(8)
    claimed = PrintJob.objects.filter(
        pk=job.pk, heartbeat=job.heartbeat, status__in=[PrintJob.Status.QUEUED,
                                                       PrintJob.Status.RUNNING],
    ).update(options={**job.options, "worker": token}, heartbeat=timezone.now(),
             status=PrintJob.Status.QUEUED, message="Restarting", progress=0)
    if not claimed:
        return False
    start_worker(job.pk, token)
    job.refresh_from_db()
    return True


def colour_or_grey(colour: str, eco: bool) -> str:
    """A safe ``#rrggbb`` for a style attribute (user colours are checked, never passed raw)."""
    from campaign.mapsvg import safe_colour

    safe = safe_colour(colour, "#888888")
    return "#ffffff" if eco else safe


def swatch(colour: str, eco: bool) -> str:
    """A small colour box for a kingdom; in eco mode an outlined white box."""
    return format_html('<span class="swatch" style="background:{}"></span>',
                       colour_or_grey(colour, eco))


# --- maps on paper ------------------------------------------------------------------------------
#
# A map sheet is drawn by campaign.mapsvg at the scale that fills the page, but never with tiles
# narrower than MIN_TILE_MM: a larger map is cut into pages that overlap by one tile, each with
# dashed lines where the next page takes over, plus an overview page showing the cut. Each page
# draws only its own tiles (``only``-style subsets): WeasyPrint's cost grows with the tiles drawn.

MIN_TILE_MM = 16.0
MAX_TILE_MM = 40.0
_VIEWBOX_RE = re.compile(r'viewBox="([-\d.]+) ([-\d.]+) ([-\d.]+) ([-\d.]+)" width="100%"')


@dataclass(frozen=True)
class MapPage:
    """One page of a printed map: its SVG and where it sits among the others."""

    number: int
    row: int
    col: int
    svg: str
    width_mm: float
    height_mm: float
    tiles: int
    neighbours: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class LegendItem:
    svg: str
    label: str


@dataclass(frozen=True)
class PaperMap:
    """A map laid out for paper: one page, or several overlapping pages and an overview."""

    pages: tuple[MapPage, ...]
    overview: str
    overview_size_mm: tuple[float, float]
    legend: tuple[LegendItem, ...]
    kingdom_keys: dict[int, str]
    scale_mm: float
    tile_mm: float
    layout: str = ""

    @property
    def split(self) -> bool:
        return len(self.pages) > 1


def _n(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _tile_extent(grid: Any, size: float) -> tuple[float, float]:
    """Half width and half height of one tile, in SVG units."""
    corners = grid.corners(0, 0, size)
    cx, cy = grid.center(0, 0, size)
    return (max(abs(x - cx) for x, _ in corners), max(abs(y - cy) for _, y in corners))


def _viewbox(svg: str) -> tuple[float, float, float, float]:
    match = _VIEWBOX_RE.search(svg)
    if match is None:
        raise ValueError("The map SVG has no view box.")
    x, y, w, h = (float(v) for v in match.groups())
    return x, y, w, h


def _on_paper(svg: str, box: tuple[float, float, float, float], scale: float,
              overlay: str = "") -> tuple[str, float, float]:
    """The SVG set to show ``box`` (SVG units) at ``scale`` mm per unit, in our font, with
    ``overlay`` drawn on top. Returns the markup and its size in millimetres."""
    x, y, w, h = box
    width_mm, height_mm = w * scale, h * scale
    svg = _VIEWBOX_RE.sub(
        f'viewBox="{_n(x)} {_n(y)} {_n(w)} {_n(h)}" width="{_n(width_mm)}mm" '
        f'height="{_n(height_mm)}mm" preserveAspectRatio="xMidYMid meet"', svg, count=1)
    svg = svg.replace('font-family="sans-serif"',
                      'font-family="Atkinson Hyperlegible, sans-serif"', 1)
    if overlay:
        svg = svg[: svg.rindex("</svg>")] + overlay + "</svg>"
    return svg, width_mm, height_mm


def _eco_order(views: Sequence[Any]) -> list[str]:
    """Controller colours in the order the whole map first meets them: in black and white,
    mapsvg gives each colour a line style by that order."""
    from campaign.mapsvg import safe_colour

    order: list[str] = []
    for view in views:
        colour = safe_colour(view.controller_colour, "") if view.controller_colour else ""
        if colour and colour not in order:
            order.append(colour)
    return order


def draw_tiles(campaign: Campaign, loaded: Any, labels: set[str] | None, *, eco: bool,
               box: tuple[float, float, float, float] | None = None, scale: float,
               overlay: str = "", markers: bool = True, show_labels: bool = True,
               highlight: str | None = None) -> tuple[str, float, float]:
    """Draw some tiles of a loaded map (all when ``labels`` is None) for paper.

    In eco mode a kingdom is told apart by its line style, which mapsvg hands out in the order
    it meets kingdoms. So that a kingdom keeps one style on every page and crop, stand-in tiles
    of every kingdom, in the whole map's order, are drawn first, far outside the view box.
    """
    from campaign.mapsvg import TileView, render_svg
    from campaign.mapview import TILE_SIZE
    from campaign.rules.geometry import TerritoryGraph

    views = [v for v in loaded.views if labels is None or v.label in labels]
    if not markers:
        views = [replace(v, markers=()) for v in views]
    if highlight is not None:
        views = [replace(v, selected=v.label == highlight) for v in views]
    palette = campaign.system.palette()
    title = f"Map of {campaign.name}"
    natural = render_svg(loaded.grid, views, size=TILE_SIZE, palette=palette, eco=eco,
                         show_labels=show_labels, title=title)
    svg = natural
    if eco and labels is not None and not isinstance(loaded.grid, TerritoryGraph):
        terrain = views[0].terrain if views else ""
        stand_ins = [
            TileView(label=f"~{i}", q=-10_000 - 4 * i, r=-10_000, terrain=terrain,
                     controller_colour=colour)
            for i, colour in enumerate(_eco_order(loaded.views))
        ]
        svg = render_svg(loaded.grid, stand_ins + views, size=TILE_SIZE, palette=palette,
                         eco=True, show_labels=show_labels, title=title)
        x, y, w, h = _viewbox(natural)
        svg = _VIEWBOX_RE.sub(f'viewBox="{_n(x)} {_n(y)} {_n(w)} {_n(h)}" width="100%"', svg,
                              count=1)
    return _on_paper(svg, box or _viewbox(natural), scale, overlay)


def _cut_marks(box: tuple[float, float, float, float], cuts: list[tuple[str, float, int]],
               scale: float) -> str:
    """Dashed lines where neighbouring pages begin or end, each labelled with that page."""
    x, y, w, h = box
    stroke = 0.35 / scale
    font = 3.0 / scale
    out = [f'<g class="cuts" fill="#000" stroke="#000" font-size="{_n(font)}" '
           f'font-family="Atkinson Hyperlegible, sans-serif" font-weight="700">']
    for side, at, page in cuts:
        if side in ("left", "right"):
            out.append(f'<line x1="{_n(at)}" y1="{_n(y)}" x2="{_n(at)}" y2="{_n(y + h)}" '
                       f'stroke-width="{_n(stroke)}" stroke-dasharray="{_n(4 / scale)} '
                       f'{_n(2 / scale)}" fill="none"/>')
            text = f"page {page} →" if side == "right" else f"← page {page}"
            tx = at - font * 0.4 if side == "right" else at + font * 0.4
            anchor = "end" if side == "right" else "start"
            for ty in (y + font * 1.4, y + h - font * 0.6):
                out.append(f'<text x="{_n(tx)}" y="{_n(ty)}" text-anchor="{anchor}" '
                           f'stroke="#fff" stroke-width="{_n(font * 0.3)}" '
                           f'paint-order="stroke">{text}</text>')
        else:
            out.append(f'<line x1="{_n(x)}" y1="{_n(at)}" x2="{_n(x + w)}" y2="{_n(at)}" '
                       f'stroke-width="{_n(stroke)}" stroke-dasharray="{_n(4 / scale)} '
                       f'{_n(2 / scale)}" fill="none"/>')
            text = f"page {page} ↓" if side == "down" else f"page {page} ↑"
            ty = at - font * 0.5 if side == "down" else at + font * 1.2
            for tx in (x + w * 0.25, x + w * 0.75):
                out.append(f'<text x="{_n(tx)}" y="{_n(ty)}" text-anchor="middle" '
                           f'stroke="#fff" stroke-width="{_n(font * 0.3)}" '
                           f'paint-order="stroke">{text}</text>')
    out.append("</g>")
    return "".join(out)


def _page_frames(boxes: list[tuple[int, tuple[float, float, float, float]]],
                 scale: float) -> str:
    """The overview's rectangles, one per map page, numbered."""
    font = 7.0 / scale
    out = ['<g class="frames" fill="none" stroke="#000" '
           'font-family="Atkinson Hyperlegible, sans-serif" font-weight="700">']
    for number, (x, y, w, h) in boxes:
        out.append(f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" '
                   f'stroke-width="{_n(0.6 / scale)}" stroke-dasharray="{_n(3 / scale)} '
                   f'{_n(1.5 / scale)}"/>')
        out.append(f'<text x="{_n(x + w / 2)}" y="{_n(y + h / 2 + font * 0.35)}" '
                   f'font-size="{_n(font)}" text-anchor="middle" fill="#000" stroke="#fff" '
                   f'stroke-width="{_n(font * 0.15)}" paint-order="stroke">{number}</text>')
    out.append("</g>")
    return "".join(out)


def _legend(campaign: Campaign, loaded: Any, eco: bool) -> tuple[LegendItem, ...]:
    """Legend entries (terrains, unexplored, settlements, start tile), drawn by mapsvg itself."""
    from campaign.mapsvg import TileView, render_svg
    from campaign.mapview import TILE_SIZE
    from campaign.rules.geometry import HexGrid

    grid = HexGrid(1, 1, "flat")
    palette = campaign.system.palette()
    present = {v.terrain for v in loaded.views}
    base = next((t.slug for t in campaign.system.terrains if not t.water), "")
    samples: list[tuple[TileView, str]] = []
    for terrain in campaign.system.terrains:
        if terrain.slug in present:
            samples.append((TileView("", 0, 0, terrain.slug), terrain.label))
    if any(not v.explored for v in loaded.views):
        samples.append((TileView("", 0, 0, base, explored=False), "Unexplored"))
    settlements = [(c.slug, c.label) for c in campaign.system.settlements]
    if any(v.settlement == "capital" for v in loaded.views):
        settlements.append(("capital", "Capital"))
    for slug, label in settlements:
        samples.append((TileView("", 0, 0, base, settlement=slug), label))
    if any(v.is_start for v in loaded.views):
        samples.append((TileView("", 0, 0, base, is_start=True), "Start tile"))
    items = []
    for view, label in samples:
        svg = render_svg(grid, [view], size=TILE_SIZE, palette=palette, eco=eco,
                         show_labels=False, title=label)
        items.append(LegendItem(svg.replace('width="100%"', "", 1), label))
    return tuple(items)


KEY_MM = 6.5  # width of a kingdom's mark in the map's legend (static/css/sheet.css td.key svg)


def _kingdom_keys(loaded: Any, eco: bool, tile_mm: float) -> dict[int, str]:
    """A small hexagon per kingdom, ringed the way mapsvg rings its tiles: in its colour, or in
    black and white with its line style, scaled so the dashes look as they do on the map."""
    from campaign.mapsvg import ECO_DASHES, safe_colour

    order = _eco_order(loaded.views)
    factor = max(tile_mm / KEY_MM, 1.0)
    width = min(2.1 * factor, 6.0)
    keys = {}
    for pk, kingdom in loaded.kingdoms.items():
        colour = safe_colour(kingdom.colour, "#888888")
        if eco:
            index = order.index(colour) if colour in order else None
            dash = ECO_DASHES[index % len(ECO_DASHES)] if index is not None else ""
            scaled = " ".join(_n(float(part) * factor) for part in dash.split())
            stroke = 'stroke="#000"' + (f' stroke-dasharray="{scaled}"' if scaled else "")
        else:
            stroke = f'stroke="{colour}"'
        keys[pk] = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="-31 -27 62 54" '
                    f'class="key"><path d="M-15 -26 15 -26 30 0 15 26 -15 26 -30 0Z" '
                    f'fill="#fff" stroke="#444" stroke-width="1"/>'
                    f'<path d="M-12.5 -21.6 12.5 -21.6 25 0 12.5 21.6 -12.5 21.6 -25 0Z" '
                    f'fill="none" {stroke} stroke-width="{_n(width)}"/></svg>')
    return keys


def paper_map(campaign: Campaign, options: PrintOptions, *,
              areas: Sequence[tuple[str, tuple[float, float]]],
              page_area_mm: tuple[float, float], loaded: Any = None,
              one_page: bool = False) -> PaperMap:
    """Lay a campaign's map out for paper.

    ``areas`` are the room left for the map by each layout the sheet can use, by name (e.g. the
    legend beside the map or below it); the layout that draws the map largest wins.
    ``page_area_mm`` is the room on each page of a map too large for one page; ``one_page``
    fits any map on one page however small its tiles get.
    """
    from campaign import mapview
    from campaign.mapsvg import render_svg
    from campaign.rules.geometry import TerritoryGraph

    loaded = loaded or mapview.load_map(campaign)
    legend = _legend(campaign, loaded, options.eco)
    full = render_svg(loaded.grid, loaded.views, size=mapview.TILE_SIZE,
                      palette=campaign.system.palette(), eco=options.eco)
    x, y, w, h = _viewbox(full)
    size = mapview.TILE_SIZE
    territory = isinstance(loaded.grid, TerritoryGraph)
    half_w, half_h = (size, size) if territory else _tile_extent(loaded.grid, size)
    tile_units = 2 * half_w
    smallest = MIN_TILE_MM / tile_units
    largest = MAX_TILE_MM / tile_units
    fits = [(min(area_w / w, area_h / h, largest), name) for name, (area_w, area_h) in areas]
    fit, layout = max(fits, key=lambda item: item[0])
    if fit >= smallest or territory or one_page:
        scale = fit
        svg, width_mm, height_mm = draw_tiles(campaign, loaded, None, eco=options.eco,
                                              scale=scale)
        page = MapPage(1, 0, 0, svg, width_mm, height_mm, len(loaded.views))
        keys = _kingdom_keys(loaded, options.eco, tile_units * scale)
        return PaperMap((page,), "", (0.0, 0.0), legend, keys, scale, tile_units * scale,
                        layout)

    scale = smallest
    page_w, page_h = page_area_mm
    region_w, region_h = page_w / scale, page_h / scale
    overlap = tile_units * 1.05

    def starts(origin: float, length: float, region: float) -> list[float]:
        if length <= region:
            return [origin]
        count = math.ceil((length - overlap) / (region - overlap))
        step = (length - region) / (count - 1)
        return [origin + i * step for i in range(count)]

    xs, ys = starts(x, w, region_w), starts(y, h, region_h)
    box_w, box_h = min(region_w, w), min(region_h, h)
    centres = {v.label: loaded.grid.center(v.q, v.r, size) for v in loaded.views}
    numbers = {(r, c): r * len(xs) + c + 1 for r in range(len(ys)) for c in range(len(xs))}
    pages = []
    boxes = []
    for r, top in enumerate(ys):
        for c, left in enumerate(xs):
            box = (left, top, box_w, box_h)
            labels = {
                label for label, (cx, cy) in centres.items()
                if cx + half_w >= left and cx - half_w <= left + box_w
                and cy + half_h >= top and cy - half_h <= top + box_h
            }
            cuts: list[tuple[str, float, int]] = []
            neighbours: list[tuple[str, int]] = []
            if c + 1 < len(xs):
                cuts.append(("right", xs[c + 1], numbers[(r, c + 1)]))
                neighbours.append(("right", numbers[(r, c + 1)]))
            if c > 0:
                cuts.append(("left", xs[c - 1] + box_w, numbers[(r, c - 1)]))
                neighbours.append(("left", numbers[(r, c - 1)]))
            if r + 1 < len(ys):
                cuts.append(("down", ys[r + 1], numbers[(r + 1, c)]))
                neighbours.append(("below", numbers[(r + 1, c)]))
            if r > 0:
                cuts.append(("up", ys[r - 1] + box_h, numbers[(r - 1, c)]))
                neighbours.append(("above", numbers[(r - 1, c)]))
            svg, width_mm, height_mm = draw_tiles(
                campaign, loaded, labels, eco=options.eco, box=box, scale=scale,
                overlay=_cut_marks(box, cuts, scale))
            pages.append(MapPage(numbers[(r, c)], r, c, svg, width_mm, height_mm, len(labels),
                                 tuple(neighbours)))
            boxes.append((numbers[(r, c)], box))
    overview_scale = fit
    # The overview shows where the pages are cut; its tiles are too small for labels and tokens.
    overview, ow, oh = draw_tiles(campaign, loaded, None, eco=options.eco, scale=overview_scale,
                                  overlay=_page_frames(boxes, overview_scale), markers=False,
                                  show_labels=False)
    keys = _kingdom_keys(loaded, options.eco, tile_units * scale)
    return PaperMap(tuple(pages), overview, (ow, oh), legend, keys, scale,
                    tile_units * scale, layout)
