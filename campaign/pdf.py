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
- The campaign book is made in the background: a ``PrintJob`` row, and a task of Django's tasks
  framework (``make_book``, run by ``manage.py db_worker``) that writes its
  progress and heartbeat to that row. Nothing lives in the web process: the queue is a database
  table, so a book asked for survives a restart of the web server; the status poll queues a job
  again whose heartbeat is older than ``STALE_AFTER`` (its worker died mid-job), and the finished
  file is stored under ``MEDIA_ROOT``.
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
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence
from urllib.parse import unquote, urlencode, urljoin, urlsplit

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.core.exceptions import (
    ImproperlyConfigured,
    PermissionDenied,
    SuspiciousFileOperation,
)
from django.core.files.base import ContentFile
from django.db import OperationalError, connections
from django.http import Http404, HttpRequest
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils._os import safe_join
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.text import slugify
from django_tasks import TaskResultStatus, task
from django_tasks.exceptions import TaskResultDoesNotExist

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

    def query(self, *, orientation: bool = True, **extra: Any) -> str:
        """The query string that asks for exactly these options (without ``orientation``, for
        the paper and ink only: the sheet then chooses its orientation)."""
        params: dict[str, Any] = {"paper": self.paper, "landscape": int(self.landscape),
                                  "eco": int(self.eco)}
        if not orientation:
            del params["landscape"]
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


PT_MM = 25.4 / 72


@cache
def _face(bold: bool) -> Any:
    """The vendored Atkinson Hyperlegible at 1000 px per em, to measure text with."""
    from PIL import ImageFont

    name = f"fonts/AtkinsonHyperlegible-{'Bold' if bold else 'Regular'}.ttf"
    found = finders.find(name)
    if not found:
        raise ImproperlyConfigured(f"The sheets' font {name} is missing from the static files.")
    return ImageFont.truetype(found if isinstance(found, str) else found[0], size=1000)


def text_width_mm(text: str, size_pt: float, *, bold: bool = False) -> float:
    """How wide ``text`` prints at ``size_pt`` in our font, from the font's own advance widths
    (and kerning): wide letters (W, M) and narrow ones (i, l) count as what they are."""
    return _face(bold).getlength(text) / 1000 * size_pt * PT_MM


def fit_style(text: str, width_mm: float, size_pt: float = 10.0, min_pt: float = 6.5, *,
              bold: bool = False) -> str:
    """Shrink-to-fit for a name in a box ``width_mm`` wide: a ``font-size`` for the ``style``
    attribute when the text would not fit at ``size_pt``, else an empty string.

    CSS cannot shrink text to its box, so the text is measured with the font's metrics (see
    ``text_width_mm``), keeping 3% to spare; below ``min_pt`` the text wraps instead (the
    ``.fit`` class lets even an unbroken name break anywhere).
    """
    natural_mm = text_width_mm(text, size_pt, bold=bold) * 1.03
    if natural_mm <= width_mm:
        return ""
    fitted = max(min_pt, math.floor(size_pt * width_mm / natural_mm * 10) / 10)
    return f"font-size:{fitted:g}pt"


def shorten(text: str, width_mm: float, size_pt: float, *, bold: bool = False) -> str:
    """``text``, cut short with an ellipsis if it is wider than ``width_mm`` at ``size_pt``."""
    if text_width_mm(text, size_pt, bold=bold) <= width_mm:
        return text
    low, high = 0, len(text)
    while low < high:  # the longest start that fits with its ellipsis
        middle = (low + high + 1) // 2
        if text_width_mm(text[:middle].rstrip() + "…", size_pt, bold=bold) <= width_mm:
            low = middle
        else:
            high = middle - 1
    return text[:low].rstrip() + "…"


def text_lines(text: str, width_mm: float, size_pt: float, *, bold: bool = False) -> int:
    """Lines ``text`` takes in a box ``width_mm`` wide, wrapped at spaces (and inside a word too
    long for a line, as ``.fit`` allows)."""
    if not text:
        return 1
    space = text_width_mm(" ", size_pt, bold=bold)
    lines, used = 1, 0.0
    for word in text.split():
        width = text_width_mm(word, size_pt, bold=bold)
        if used and used + space + width <= width_mm:
            used += space + width
            continue
        if used:
            lines += 1
        whole, used = divmod(width, width_mm) if width > width_mm else (0, width)
        lines += int(whole)
    return lines


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


# The running header's two boxes, as parts of the text width, and their type
# (static/css/sheet.css @top-left and @top-right).
RUNNING_LEFT = 0.58
RUNNING_RIGHT = 0.40
RUNNING_PT = 8.0


def running_title(heading: str, options: PrintOptions) -> str:
    """A sheet's heading as the top right of each page repeats it, shortened to fit there."""
    return shorten(heading, text_area_mm(options)[0] * RUNNING_RIGHT - 1, RUNNING_PT)


def page_context(options: PrintOptions, *, preview: bool = False,
                 campaign: Campaign | None = None) -> dict[str, Any]:
    """What ``print/base.html`` needs besides the sheet's own context: the paper, the date and
    the running header (the campaign's name and the date, shortened to fit its line)."""
    from django.utils.dateformat import format as format_date

    width, height = text_area_mm(options)
    today = timezone.localdate()
    date = format_date(today, "j F Y")
    header = date
    if campaign is not None:
        room = width * RUNNING_LEFT - 1 - text_width_mm(f" · {date}", RUNNING_PT)
        header = f"{shorten(campaign.name, room, RUNNING_PT)} · {date}"
    return {
        "print": options,
        "preview": preview,
        "printed_on": today,
        "running_header": header,
        "text_width_mm": width,
        "text_height_mm": height,
    }


def render_sheet_html(template: str, context: Mapping[str, Any], options: PrintOptions, *,
                      preview: bool = False, request: HttpRequest | None = None) -> str:
    page = page_context(options, preview=preview, campaign=context.get("campaign"))
    return render_to_string(template, {**page, **context},
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
    - ``landscape``: the orientation in the campaign book, and of a download that does not ask
      for one (``?landscape=0/1``), unless ``orientation`` chooses.
    - ``orientation(access, obj, options)``: an automatic orientation for downloads that do not
      ask: given the download's options (portrait), True when it should be landscape (the map
      takes the one that needs fewer pages).
    - ``applies(campaign)``: whether the campaign uses this sheet at all (e.g. Simple rosters
      only in Simple-battles campaigns).
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
    orientation: Callable[[Access, Any, PrintOptions], bool] | None = field(default=None,
                                                                           compare=False)

    @property
    def per_object(self) -> bool:
        return self.get is not None

    def download_options(self, access: Access, obj: Any,
                         params: Mapping[str, str]) -> PrintOptions:
        """The options of one download or preview: paper and ink as ``params`` ask, else the
        campaign's; the orientation as ``?landscape=`` asks, else the sheet's own (chosen for
        this paper and object when the sheet chooses automatically)."""
        options = PrintOptions.from_query(params, access.campaign, landscape=self.landscape)
        if self.orientation is not None and parse_flag(params.get("landscape")) is None:
            options = replace(options, landscape=self.orientation(
                access, obj, replace(options, landscape=False)))
        return options

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


def story_context(access: Access, obj: Any, options: PrintOptions, *,
                  base_url: str | None = None, in_book: bool = False) -> dict[str, Any]:
    """The GM's chronicle entries, oldest first, as this viewer may read them, with photos."""
    from campaign.notes import visible_entries

    heading = "The story so far"
    return {
        "campaign": access.campaign, "access": access, "sheet_title": heading,
        "heading": heading, "running_title": running_title(heading, options),
        "heading_style": fit_style(heading, text_area_mm(options)[0], size_pt=16, min_pt=10,
                                   bold=True),
        "entries": visible_entries(access),
    }


# Every system's book ends with the story its GMs wrote (campaign.notes), when there is one.
STORY = PdfSheet(
    slug="story", title="The story so far", template="print/story.html",
    context=story_context,
    filename=lambda access, obj: download_name(access.campaign.slug, "story"),
    description="The chronicle entries the GMs wrote, with their photos.",
)


def core_sections(access: Access) -> list[BookSection]:
    """The parts of the campaign book that every rule system's book has, after its own."""
    from campaign.models import ChronicleEntry

    if not ChronicleEntry.objects.filter(campaign=access.campaign).exists():
        return []
    return [BookSection(STORY, None, STORY.title, group="Chronicle")]


def book_html(book: PdfBook, access: Access, options: PrintOptions, *,
              base_url: str | None = None,
              on_section: Callable[[int, int, str], None] | None = None) -> tuple[str, int]:
    """The whole book as one HTML document, and its number of sections."""
    sections = [*book.sections(access), *core_sections(access)]
    base = page_context(options, campaign=access.campaign)
    parts = []
    for index, section in enumerate(sections, start=1):
        section_options = replace(options, landscape=section.sheet.landscape)
        context = {**page_context(section_options, campaign=access.campaign),
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
        "running_title": running_title(access.campaign.name, options),
        "sections": parts,
    })
    return html, len(sections)


class JobSuperseded(Exception):
    """Another worker took this job over (its heartbeat had gone stale)."""


def _job_update(job_id: int, token: str, **values: Any) -> int:
    """Write to the job row if this worker still owns it; the number of rows written. A write
    that meets a lock held by a page reading the job (SQLite locks whole tables) is tried again
    for up to two seconds."""
    for attempt in range(40):
        try:
            return PrintJob.objects.filter(pk=job_id, options__worker=token).update(**values)
        except OperationalError as exc:
            if "locked" not in str(exc) or attempt == 39:
                raise
            time.sleep(0.05)
    return 0


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
        updated = _job_update(self.job_id, self.token, status=PrintJob.Status.RUNNING,
                              progress=self.percent, total=100, message=message[:200],
                              heartbeat=timezone.now())
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
    """Make the book of a ``PrintJob``; the worker that holds ``token`` owns the job. Runs in a
    background worker (``make_book``), which closes its database connections
    when done."""
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
        finished = _job_update(
            job_id, token, status=PrintJob.Status.DONE, progress=100, total=100, file=stored,
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
        _job_update(job_id, token, status=PrintJob.Status.FAILED, message=reason[:200],
                    heartbeat=timezone.now())
    finally:
        connections.close_all()


@task()
def make_book(job_id: int, token: str) -> None:
    """The background task of a campaign book (``run_book_job``), run by ``manage.py
    db_worker``."""
    run_book_job(job_id, token)


def _page_count(data: bytes) -> int:
    from io import BytesIO

    from pypdf import PdfReader

    return len(PdfReader(BytesIO(data)).pages)


def start_worker(job_id: int, token: str) -> None:
    """Queue the job for a background worker (``make_book``) and note the task's
    id on the job, so the status poll can tell a job still waiting in the queue from one whose
    worker died. Tests replace this to run it inline."""
    result = make_book.enqueue(job_id, token)
    job = PrintJob.objects.filter(pk=job_id, options__worker=token).first()
    if job is not None:
        PrintJob.objects.filter(pk=job_id, options__worker=token).update(
            options={**job.options, "task": str(result.id)})


def _waiting_in_queue(job: PrintJob) -> bool:
    """Whether the job's task is still queued, not yet taken by a worker (then a late heartbeat
    means no worker is running yet, not that one died)."""
    task_id = job.options.get("task")
    if job.status != PrintJob.Status.QUEUED or not task_id:
        return False
    try:
        return make_book.get_result(task_id).status == TaskResultStatus.READY
    except TaskResultDoesNotExist:
        return False


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
    if not is_stale(job) or _waiting_in_queue(job):
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


RULE_ID_RE = re.compile(r"\b[A-Z]{2,5}(?:-[A-Z0-9]+)+(?:[a-z]\b|\.\.\d+)?")


def keep_rule_ids(text: str) -> str:
    """``text`` escaped for HTML, each rule ID in it (``MK-RECRUIT-2``, ``MK-US-1..7``) kept on
    one line: a line never breaks at the hyphens inside an ID."""
    parts = []
    last = 0
    for match in RULE_ID_RE.finditer(text):
        parts.append(format_html("{}<span class=\"nowrap\">{}</span>",
                                 text[last:match.start()], match.group(0)))
        last = match.end()
    parts.append(format_html("{}", text[last:]))
    return mark_safe("".join(parts))


def colour_or_grey(colour: str, eco: bool) -> str:
    """A safe ``#rrggbb`` for a style attribute (user colours are checked, never passed raw)."""
    from campaign.mapsvg import safe_colour

    safe = safe_colour(colour, "#888888")
    return "#ffffff" if eco else safe


def swatch(colour: str, eco: bool) -> str:
    """A small colour box (no kingdom's line style known); in eco mode an outlined white box.
    Sheets that know the kingdoms use ``kingdom_swatches``."""
    return format_html('<span class="swatch" style="background:{}"></span>',
                       colour_or_grey(colour, eco))


def kingdom_line_styles(kingdoms: Iterable[Any]) -> dict[int, Any]:
    """Each kingdom's line style on paper (``mapsvg.line_style``), by primary key: handed out in
    the order the kingdoms were founded, so a kingdom keeps its style on every sheet and page."""
    from campaign.mapsvg import line_style

    return {k.pk: line_style(index)
            for index, k in enumerate(sorted(kingdoms, key=lambda k: k.pk))}


def colour_line_styles(kingdoms: Iterable[Any]) -> dict[str, Any]:
    """The line styles by kingdom colour, as mapsvg looks them up (two kingdoms of one colour:
    the first founded's)."""
    from campaign.mapsvg import safe_colour

    ordered = sorted(kingdoms, key=lambda k: k.pk)
    styles = kingdom_line_styles(ordered)
    by_colour: dict[str, Any] = {}
    for kingdom in ordered:
        by_colour.setdefault(safe_colour(kingdom.colour, "#888888"), styles[kingdom.pk])
    return by_colour


def kingdom_mark(colour: str, style: Any, eco: bool, *, factor: float = 1.0,
                 width: float = 2.1, css_class: str = "key") -> str:
    """A small hexagon ringed the way printed maps ring a kingdom's tiles: in its colour (or in
    black, eco) and its line style, dashes scaled by ``factor``. Never a square, so it cannot be
    taken for a tick box."""
    from campaign.mapsvg import safe_colour

    colour = safe_colour(colour, "#888888")
    ink = "#000" if eco else colour
    dash = style.scaled(factor) if style is not None else ""
    stroke = f'stroke="{ink}"' + (f' stroke-dasharray="{dash}"' if dash else "")
    inner = ""
    if style is not None and style.double:
        inner = (f'<path d="M-8.5 -14.7 8.5 -14.7 17 0 8.5 14.7 -8.5 14.7 -17 0Z" fill="none" '
                 f'stroke="{ink}" stroke-width="{_n(max(width * 0.45, 1.2))}"/>')
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="-31 -27 62 54" '
            f'class="{css_class}"><path d="M-15 -26 15 -26 30 0 15 26 -15 26 -30 0Z" '
            f'fill="#fff" stroke="#444" stroke-width="1"/>'
            f'<path d="M-12.5 -21.6 12.5 -21.6 25 0 12.5 21.6 -12.5 21.6 -25 0Z" '
            f'fill="none" {stroke} stroke-width="{_n(width)}"/>{inner}</svg>')


def kingdom_swatches(kingdoms: Iterable[Any], eco: bool) -> dict[int, str]:
    """The mark beside each kingdom's name on a sheet (``kingdom_mark``), by primary key, for
    all the campaign's kingdoms at once (their styles depend on one another)."""
    kingdoms = list(kingdoms)
    styles = kingdom_line_styles(kingdoms)
    return {k.pk: mark_safe(kingdom_mark(k.colour, styles[k.pk], eco, factor=1.6, width=5.0,
                                         css_class="swatch"))
            for k in kingdoms}


# --- maps on paper ------------------------------------------------------------------------------
#
# A map sheet is drawn by campaign.mapsvg at the scale that fills the page, but never with tiles
# narrower than MIN_TILE_MM. A larger map is cut along its columns and rows of tiles into pages
# that share exactly one column (or row) with the next, all at one scale: the largest at which
# the map needs no more pages than it does at MIN_TILE_MM. Each page draws only its own tiles
# (WeasyPrint's cost grows with the tiles drawn), with dashed lines where its neighbours begin,
# and an overview page shows every page's frame.

MIN_TILE_MM = 15.0  # its text is never below MIN_TEXT_PT, whatever the tile's size
MAX_TILE_MM = 40.0
CUT_MARGIN_MM = 4.0  # white round a cut page's tiles, where the cut labels go
CUT_FONT_MM = 2.8
LEGEND_KEY_MM = (10.0, 7.0)  # a legend key (static/css/sheet.css: .legend li svg)
# Our fonts (static/css/sheet.css): Hexkeep Symbols has the arrows Atkinson lacks.
SVG_FONTS = "Atkinson Hyperlegible, Hexkeep Symbols, sans-serif"
_VIEWBOX_RE = re.compile(r'viewBox="([-\d.]+) ([-\d.]+) ([-\d.]+) ([-\d.]+)" width="100%"')


@dataclass(frozen=True)
class MapPage:
    """One page of a printed map: its SVG and where it sits among the others.

    ``columns`` and ``rows`` are the first and last tile column and row on the page (0-based,
    as in the labels: ``0305`` is column 2, row 4); ``labels`` the tiles drawn.
    """

    number: int
    row: int
    col: int
    svg: str
    width_mm: float
    height_mm: float
    tiles: int
    neighbours: tuple[tuple[str, int], ...] = ()
    labels: frozenset[str] = frozenset()
    columns: tuple[int, int] = (0, 0)
    rows: tuple[int, int] = (0, 0)


@dataclass(frozen=True)
class LegendItem:
    svg: str
    label: str


@dataclass(frozen=True)
class PaperMap:
    """A map laid out for paper: one page, or several overlapping pages and an overview.

    On a cut map ``columns_fit`` and ``rows_fit`` are the most tile columns and rows one page
    holds at this scale; the pages share one column (row) with their neighbours, so a map of
    ``n`` columns needs ``ceil((n - 1) / (columns_fit - 1))`` pages across.
    """

    pages: tuple[MapPage, ...]
    overview: str
    overview_size_mm: tuple[float, float]
    legend: tuple[LegendItem, ...]
    kingdom_keys: dict[int, str]
    scale_mm: float
    tile_mm: float
    layout: str = ""
    columns_fit: int = 0
    rows_fit: int = 0

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
    svg = svg.replace('font-family="sans-serif"', f'font-family="{SVG_FONTS}"', 1)
    if overlay:
        svg = svg[: svg.rindex("</svg>")] + overlay + "</svg>"
    return svg, width_mm, height_mm


# --- black and white terrain ---------------------------------------------------------------------
#
# In eco mode mapsvg fills every terrain with a light grey of its colour, and light greys look
# alike on paper. The sheets fill each explored tile with a pattern instead, drawn in map units
# (a hex tile is 60 wide) in thin grey lines that leave labels and symbols readable. A terrain is
# matched by the words of its slug; any other terrain takes the next of the spare patterns.

_ECO_LINE = 'fill="none" stroke="#555" stroke-width=".9" stroke-linecap="round"'
_ECO_PATTERNS: dict[str, tuple[int, int, str]] = {  # name: width, height, drawing
    "hills": (16, 12, f'<path d="M2 6q4-5 8 0M10 12q4-5 8 0M-6 12q4-5 8 0" {_ECO_LINE}/>'),
    "forest": (14, 12, f'<g {_ECO_LINE}><circle cx="4" cy="4" r="2.3"/>'
                       f'<circle cx="11" cy="10" r="2.3"/></g>'),
    "mountains": (16, 14, f'<path d="M1 7l4-5 4 5M9 14l4-5 4 5M-7 14l4-5 4 5" {_ECO_LINE}/>'),
    "marsh": (14, 10, f'<path d="M1 4h6M4 4v-2.5M2.5 4l-1-2M5.5 4l1-2M8 9h5M10.5 9v-2" '
                      f'{_ECO_LINE}/>'),
    "water": (12, 7, f'<rect width="12" height="7" fill="#e4e4e4"/>'
                     f'<path d="M0 4q3-3 6 0t6 0" {_ECO_LINE}/>'),
    "diagonal": (8, 8, f'<path d="M0 8L8 0M-2 2L2-2M6 10l4-4" {_ECO_LINE}/>'),
    "cross": (9, 9, f'<path d="M0 4.5h9M4.5 0v9" {_ECO_LINE}/>'),
    "dots": (8, 8, '<circle cx="2" cy="2" r="1.1" fill="#555"/>'
                   '<circle cx="6" cy="6" r="1.1" fill="#555"/>'),
    "vertical": (6, 8, f'<path d="M3 0v8" {_ECO_LINE}/>'),
}
_ECO_WORDS = (("water", "water"), ("sea", "water"), ("ocean", "water"), ("lake", "water"),
              ("hill", "hills"), ("forest", "forest"), ("wood", "forest"),
              ("mountain", "mountains"), ("marsh", "marsh"), ("swamp", "marsh"),
              ("bog", "marsh"), ("plain", ""), ("grass", ""), ("field", ""))
_ECO_SPARE = ("diagonal", "cross", "dots", "vertical")


def eco_patterns(terrains: Sequence[Any]) -> dict[str, str]:
    """The black-and-white pattern of each terrain (a ``Terrain`` of the rule system), by slug:
    a pattern name, or "" for plain white."""
    chosen: dict[str, str] = {}
    spare = iter(_ECO_SPARE)
    for terrain in terrains:
        slug = terrain.slug.lower()
        pattern = "water" if getattr(terrain, "water", False) else next(
            (name for word, name in _ECO_WORDS if word in slug), None)
        chosen[terrain.slug] = pattern if pattern is not None else next(spare, "")
    return chosen


def eco_fills(terrains: Sequence[Any]) -> dict[str, Any]:
    """What mapsvg fills each terrain's tiles with in black and white (``eco_patterns``): a
    ``mapsvg.Pattern``, or None for plain white."""
    from campaign.mapsvg import Pattern

    return {slug: Pattern(name, *_ECO_PATTERNS[name]) if name else None
            for slug, name in eco_patterns(terrains).items()}


def label_width(text: str) -> float:
    """The width of a map label in ems, in the sheets' font (for mapsvg's label boxes)."""
    return text_width_mm(text, 1 / PT_MM)


MIN_TEXT_PT = 7.0  # the smallest text on a printed map: tile labels and tokens


def _map_paint(campaign: Campaign, eco: bool, loaded: Any = None,
               scale: float | None = None) -> dict[str, Any]:
    """How mapsvg paints a sheet's map: the system's colours, each kingdom's line style (the
    map's kingdoms, ``loaded``), text no smaller than ``MIN_TEXT_PT`` at ``scale`` (mm per map
    unit), every token drawn, and in black and white a pattern per terrain with the tile labels
    on white boxes measured in our font."""
    paint: dict[str, Any] = {"palette": campaign.system.palette(), "eco": eco,
                             "all_tokens": True}
    if loaded is not None:
        paint["line_styles"] = colour_line_styles(loaded.kingdoms.values())
    if scale:
        paint["min_font"] = MIN_TEXT_PT * PT_MM / scale
    if eco:
        paint.update(terrain_patterns=eco_fills(campaign.system.terrains),
                     text_width=label_width)
    return paint


def draw_tiles(campaign: Campaign, loaded: Any, labels: set[str] | frozenset[str] | None, *,
               eco: bool, box: tuple[float, float, float, float] | None = None, scale: float,
               overlay: str = "", markers: bool = True, show_labels: bool = True,
               highlight: str | None = None,
               battles: frozenset[str] | set[str] = frozenset()) -> tuple[str, float, float]:
    """Draw some tiles of a loaded map (all when ``labels`` is None) for paper.

    Each kingdom is outlined in its own line style (``kingdom_line_styles``, by the order the
    kingdoms were founded), so it looks the same on every page and crop, in colour and in black
    and white. Terrains are told apart by patterns in black and white (``eco_fills``). Every
    token of a tile is drawn, each on its side or defending as it stands; ``battles`` are the
    tiles where a battle waits, marked with crossed swords.
    """
    from campaign.mapsvg import render_svg
    from campaign.mapview import TILE_SIZE

    views = [v for v in loaded.views if labels is None or v.label in labels]
    if not markers:
        views = [replace(v, markers=()) for v in views]
    if highlight is not None:
        views = [replace(v, selected=v.label == highlight) for v in views]
    if battles:  # on the overview too, where tokens are left out
        views = [replace(v, battle=True) if v.label in battles else v for v in views]
    paint = _map_paint(campaign, eco, loaded, scale)
    title = f"Map of {campaign.name}"
    svg = render_svg(loaded.grid, views, size=TILE_SIZE, show_labels=show_labels,
                     title=title, **paint)
    return _on_paper(svg, box or _viewbox(svg), scale, overlay)


# --- cut pages ----------------------------------------------------------------------------------


class _Bands:
    """The map's tile columns (or rows) in order, each with its extent in SVG units."""

    def __init__(self, extents: Mapping[int, tuple[float, float]]) -> None:
        self.keys = sorted(extents)
        lows = [extents[k][0] for k in self.keys]
        highs = [extents[k][1] for k in self.keys]
        # Running minimum and maximum: a window's span is then one subtraction, never less
        # than the true one.
        self.lo = [min(lows[i:]) for i in range(len(lows))]
        self.hi = [max(highs[: i + 1]) for i in range(len(highs))]

    def __len__(self) -> int:
        return len(self.keys)

    def most(self, room: float) -> int:
        """The most consecutive bands that fit in ``room``, wherever they start (at least 2,
        since a page must share one band with the next and still move on)."""
        count = 2
        while count < len(self) and all(
                self.hi[i + count] - self.lo[i] <= room for i in range(len(self) - count)):
            count += 1
        return count

    def pages(self, fit: int) -> int:
        return 1 if len(self) <= fit else math.ceil((len(self) - 1) / (fit - 1))

    def ranges(self, fit: int) -> list[tuple[int, int]]:
        """First and last band of each page; neighbours share one band, and the bands are
        shared out evenly."""
        count = self.pages(fit)
        last = len(self) - 1
        if count == 1:
            return [(self.keys[0], self.keys[last])]
        cuts = [round(i * last / count) for i in range(count + 1)]
        return [(self.keys[a], self.keys[b]) for a, b in zip(cuts, cuts[1:])]


def _offset(grid: Any, view: Any) -> tuple[int, int]:
    """0-based (column, row) of a tile, as its label prints them."""
    offset = getattr(grid, "offset", None)
    return offset(view.q, view.r) if offset is not None else (view.q, view.r)


def _label(x: float, y: float, text: str, font: float, anchor: str = "start",
           transform: str = "") -> str:
    """Bold text on a white box (WeasyPrint draws no ``paint-order`` halo): fixed words only."""
    width = text_width_mm(text, 1 / PT_MM, bold=True) * font
    left = x - {"start": 0.0, "middle": width / 2, "end": width}[anchor]
    pad = font * 0.25
    move = f' transform="{transform}"' if transform else ""
    return (f'<g{move}><rect x="{_n(left - pad)}" y="{_n(y - font * 0.85)}" '
            f'width="{_n(width + 2 * pad)}" height="{_n(font * 1.15)}" fill="#fff" '
            f'stroke="none"/><text x="{_n(x)}" y="{_n(y)}" text-anchor="{anchor}" '
            f'stroke="none">{text}</text></g>')


def _boundary(grid: Any, views: Sequence[Any], offsets: Mapping[str, tuple[int, int]],
              size: float, beyond: Callable[[tuple[int, int]], bool]
              ) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """The tile edges between the tiles of ``views`` for which ``beyond`` holds and the rest."""
    by_cell = {(v.q, v.r): v.label for v in views}
    segments = []
    for view in views:
        if not beyond(offsets[view.label]):
            continue
        for direction, cell in grid.edge_neighbours(view.q, view.r):
            other = by_cell.get(tuple(cell))
            if other is not None and not beyond(offsets[other]):
                segments.append(grid.edge_points(view.q, view.r, direction, size))
    return segments


def _cut_marks(box: tuple[float, float, float, float],
               cuts: list[tuple[str, int, list[Any]]], scale: float) -> str:
    """Dashed lines along the tile edges where a neighbouring page begins (or the previous one
    ends), run out to the frame, each labelled with that page in the white margin."""
    x, y, w, h = box
    margin = CUT_MARGIN_MM / scale
    font = CUT_FONT_MM / scale
    gap = font * 0.4
    dash = f'stroke-dasharray="{_n(2.2 / scale)} {_n(1.2 / scale)}"'
    out = [f'<g class="cuts" fill="#000" stroke="#000" font-size="{_n(font)}" '
           f'font-family="{SVG_FONTS}" font-weight="700">']
    for side, page, segments in cuts:
        if not segments:
            continue
        points = [p for segment in segments for p in segment]
        vertical = side in ("left", "right")
        if vertical:
            top, bottom = min(points, key=lambda p: p[1]), max(points, key=lambda p: p[1])
            lines = [*segments, ((top[0], y), top), (bottom, (bottom[0], y + h))]
        else:
            first, last = min(points, key=lambda p: p[0]), max(points, key=lambda p: p[0])
            lines = [*segments, ((x, first[1]), first), (last, (x + w, last[1]))]
        path = "".join(f"M{_n(a[0])} {_n(a[1])}L{_n(b[0])} {_n(b[1])}" for a, b in lines)
        # A white line under the dashes keeps them visible on dark tiles and thick edges.
        out.append(f'<path d="{path}" fill="none" stroke="#fff" '
                   f'stroke-width="{_n(0.9 / scale)}"/>')
        out.append(f'<path d="{path}" fill="none" stroke-width="{_n(0.45 / scale)}" {dash}/>')
        if vertical:
            text = f"page {page} →" if side == "right" else f"← page {page}"
            anchor = "start" if side == "right" else "end"
            shift = gap if side == "right" else -gap
            for end, baseline in ((top, y + margin / 2 + font * 0.35),
                                  (bottom, y + h - margin / 2 + font * 0.35)):
                out.append(_label(end[0] + shift, baseline, text, font, anchor))
        else:
            # Turned a quarter clockwise, "page 4 →" reads downwards and points down.
            text = f"page {page} →" if side == "down" else f"← page {page}"
            anchor = "start" if side == "down" else "end"
            shift = gap if side == "down" else -gap
            for end, centre in ((first, x + margin / 2), (last, x + w - margin / 2)):
                out.append(_label(shift, font * 0.35, text, font, anchor,
                                  transform=f"translate({_n(centre)} {_n(end[1])}) rotate(90)"))
    out.append("</g>")
    return "".join(out)


def _page_frames(frames: list[tuple[int, tuple[float, float, float, float]]],
                 scale: float) -> str:
    """The overview's rectangles, one per map page, each numbered on a white box at its top."""
    font = 6.0 / scale
    out = [f'<g class="frames" fill="none" stroke="#000" font-size="{_n(font)}" '
           f'font-family="{SVG_FONTS}" font-weight="700">']
    for _number, (x, y, w, h) in frames:
        out.append(f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" '
                   f'stroke-width="{_n(0.6 / scale)}" stroke-dasharray="{_n(3 / scale)} '
                   f'{_n(1.5 / scale)}"/>')
    out.append('<g fill="#000">')
    for number, (x, y, w, _h) in frames:
        # Near the frame's top, where it hides less of the map than in the middle.
        out.append(_label(x + w / 2, y + font * 1.2, str(number), font, "middle"))
    out.append("</g>")
    out.append("</g>")
    return "".join(out)


# --- the legend ---------------------------------------------------------------------------------


def _legend_grid(loaded: Any) -> Any:
    """A one-tile grid of the map's kind for the legend's samples (a hex for territory maps)."""
    from campaign.rules.geometry import HexGrid, SquareGrid

    grid = loaded.grid if isinstance(loaded.grid, (HexGrid, SquareGrid)) else HexGrid(1, 1)
    return replace(grid, width=1, height=1)


def _legend_samples(campaign: Campaign, loaded: Any, battles: frozenset[str] = frozenset()
                    ) -> list[tuple[Any, tuple[float, float], str]]:
    """What the legend shows, as (one-tile view, the point its key centres on, label): the
    terrains, unexplored tiles, settlements, start tiles, edge features and tokens the map
    shows (every settlement kind, so a player knows what to draw in)."""
    from campaign.mapsvg import Marker, TileView
    from campaign.mapview import TILE_SIZE
    from campaign.rules.geometry import HexGrid

    size = TILE_SIZE
    grid = _legend_grid(loaded)
    cx, cy = grid.center(0, 0, size)
    system = campaign.system
    views = loaded.views
    present = {v.terrain for v in views}
    base = next((t.slug for t in system.terrains if not t.water), "")
    samples: list[tuple[Any, tuple[float, float], str]] = []
    for terrain in system.terrains:
        if terrain.slug in present:
            samples.append((TileView("", 0, 0, terrain.slug), (cx, cy), terrain.label))
    if any(not v.explored for v in views):
        samples.append((TileView("", 0, 0, base, explored=False), (cx, cy), "Unexplored"))
    settlements = [(c.slug, c.label) for c in system.settlements]
    if any(v.settlement == "capital" for v in views):
        settlements.append(("capital", "Capital"))
    for slug, label in settlements:
        # The shape the system gives the kind, as on the map (a capital shows the star).
        shape = "" if slug == "capital" else system.settlement_shape(slug)
        samples.append((TileView("", 0, 0, base, settlement=slug, shape=shape), (cx, cy),
                        label))
    if any(v.is_start for v in views):
        samples.append((TileView("", 0, 0, base, is_start=True), (cx, cy), "Start tile"))
    features = {f for v in views for edge in v.edges.values() for f in edge}
    # The edge facing down, drawn across the middle of its key.
    down = max(range(grid.edge_count), key=lambda d: sum(
        p[1] for p in grid.edge_points(0, 0, d, size)))
    (ax, ay), (bx, by) = grid.edge_points(0, 0, down, size)
    edge_centre = (cx + ((ax + bx) / 2 - cx) * 0.9, cy + ((ay + by) / 2 - cy) * 0.9)
    for feature in system.edge_features:
        if feature.slug in features:
            label = feature.label.split(" (")[0]
            samples.append((TileView("", 0, 0, base, edges={down: frozenset({feature.slug})}),
                            edge_centre, f"{label} edge"))
    tokens = [m for v in views for m in v.markers]
    kinds = {m.kind for m in tokens}
    token_y = cy + size * (0.45 if isinstance(grid, HexGrid) else 0.3)
    for kind, text, label in (("army", "1", "Army token"), ("ship", "S1", "Ship token")):
        if kind in kinds:
            samples.append((TileView("", 0, 0, base, markers=(Marker(text, "", kind),)),
                            (cx, token_y), label))
    if any(m.on_side for m in tokens):
        samples.append((TileView("", 0, 0, base, markers=(Marker("1", "", "army",
                                                                 on_side=True),)),
                        (cx, token_y), "On its side"))
    if any(m.defending for m in tokens):
        samples.append((TileView("", 0, 0, base, markers=(Marker("1", "", "army",
                                                                 defending=True),)),
                        (cx, token_y - size * 0.08), "Defending"))
    if battles:
        layout = _layout_of(grid)
        samples.append((TileView("", 0, 0, base, battle=True),
                        (cx + layout.half_w * 0.58, cy - layout.half_h * 0.05), "Battle waiting"))
    return samples


def _layout_of(grid: Any) -> Any:
    from campaign.mapsvg import _layout
    from campaign.mapview import TILE_SIZE

    return _layout(grid, TILE_SIZE)


def legend_labels(campaign: Campaign, loaded: Any, battles: frozenset[str] = frozenset()
                  ) -> list[str]:
    """The labels of the map legend, in order (to plan the room it takes)."""
    return [label for _view, _centre, label in _legend_samples(campaign, loaded, battles)]


def _legend(campaign: Campaign, loaded: Any, eco: bool, scale: float,
            battles: frozenset[str] = frozenset()) -> tuple[LegendItem, ...]:
    """Legend keys drawn by mapsvg itself at the map's ``scale`` (mm per SVG unit): each key is
    a window onto a sample tile, so a symbol, an edge or a token is as large as on the map."""
    from campaign.mapsvg import render_svg
    from campaign.mapview import TILE_SIZE

    grid = _legend_grid(loaded)
    paint = _map_paint(campaign, eco, None, scale)
    key_w, key_h = LEGEND_KEY_MM
    items = []
    for view, (x, y), label in _legend_samples(campaign, loaded, battles):
        svg = render_svg(grid, [view], size=TILE_SIZE, show_labels=False, title=label, **paint)
        # On large tiles a start tile's ring or a capital's star is larger than a key: then it
        # is shown whole, a little smaller than on the map.
        window_h = max(key_h / scale, TILE_SIZE * (0.68 if view.is_start else 0.5
                                                   if view.settlement == "capital" else 0))
        window_w = window_h * key_w / key_h
        box = (x - window_w / 2, y - window_h / 2, window_w, window_h)
        markup, _w, _h = _on_paper(svg, box, key_w / window_w)
        items.append(LegendItem(markup, label))
    return tuple(items)


KEY_MM = 6.5  # width of a kingdom's mark in the map's legend (static/css/sheet.css td.key svg)


def _kingdom_keys(loaded: Any, eco: bool, tile_mm: float) -> dict[int, str]:
    """A small hexagon per kingdom, ringed the way the map rings its tiles (``kingdom_mark``),
    scaled so the dashes look as they do on the map."""
    styles = kingdom_line_styles(loaded.kingdoms.values())
    factor = max(tile_mm / KEY_MM, 1.0)
    width = min(2.1 * factor, 6.0)
    return {pk: kingdom_mark(kingdom.colour, styles[pk], eco, factor=factor, width=width)
            for pk, kingdom in loaded.kingdoms.items()}


@dataclass(frozen=True)
class _MapPlan:
    """How a map goes on paper, before anything is drawn: the scale that fills the best layout
    (``fit``, mm per SVG unit), and for a map too large for one page the scale of its cut pages
    and how many tile columns and rows each holds."""

    box: tuple[float, float, float, float]
    fit: float
    layout: str
    tile_units: float
    cut: bool = False
    scale: float = 0.0
    across: int = 0
    down: int = 0
    columns: _Bands | None = None
    rows: _Bands | None = None
    offsets: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    centres: Mapping[str, tuple[float, float]] = field(default_factory=dict)

    @property
    def pages(self) -> int:
        """The map's pages (a cut map's overview not counted)."""
        if not self.cut:
            return 1
        assert self.columns is not None and self.rows is not None
        return self.columns.pages(self.across) * self.rows.pages(self.down)


def _plan_map(campaign: Campaign, loaded: Any, *, eco: bool,
              areas: Sequence[tuple[str, tuple[float, float]]],
              page_area_mm: tuple[float, float], one_page: bool) -> _MapPlan:
    """The scale, layout and cut of ``paper_map`` (see there)."""
    from campaign import mapview
    from campaign.mapsvg import render_svg
    from campaign.rules.geometry import TerritoryGraph

    full = render_svg(loaded.grid, loaded.views, size=mapview.TILE_SIZE,
                      palette=campaign.system.palette(), eco=eco)
    box = _viewbox(full)
    _x, _y, w, h = box
    size = mapview.TILE_SIZE
    grid = loaded.grid
    territory = isinstance(grid, TerritoryGraph)
    half_w, half_h = (size, size) if territory else _tile_extent(grid, size)
    tile_units = 2 * half_w
    smallest = MIN_TILE_MM / tile_units
    largest = MAX_TILE_MM / tile_units
    fits = [(min(area_w / w, area_h / h, largest), name) for name, (area_w, area_h) in areas]
    fit, layout = max(fits, key=lambda item: item[0])
    if fit >= smallest or territory or one_page:
        return _MapPlan(box, fit, layout, tile_units)

    views = loaded.views
    offsets = {v.label: _offset(grid, v) for v in views}
    centres = {v.label: grid.center(v.q, v.r, size) for v in views}
    column_extent: dict[int, tuple[float, float]] = {}
    row_extent: dict[int, tuple[float, float]] = {}
    for label, (col, row) in offsets.items():
        cx, cy = centres[label]
        lo, hi = column_extent.get(col, (math.inf, -math.inf))
        column_extent[col] = (min(lo, cx - half_w), max(hi, cx + half_w))
        lo, hi = row_extent.get(row, (math.inf, -math.inf))
        row_extent[row] = (min(lo, cy - half_h), max(hi, cy + half_h))
    columns, rows = _Bands(column_extent), _Bands(row_extent)
    page_w, page_h = page_area_mm

    def fit_at(scale: float) -> tuple[int, int, int]:
        across = columns.most((page_w - 2 * CUT_MARGIN_MM) / scale)
        down = rows.most((page_h - 2 * CUT_MARGIN_MM) / scale)
        return across, down, columns.pages(across) * rows.pages(down)

    # The largest tiles that need no more pages than the smallest legible ones.
    low, high = smallest, largest
    target = fit_at(low)[2]
    if fit_at(high)[2] <= target:
        low = high
    else:
        for _ in range(20):
            middle = (low + high) / 2
            low, high = (middle, high) if fit_at(middle)[2] <= target else (low, middle)
    scale = low
    across, down, _count = fit_at(scale)
    return _MapPlan(box, fit, layout, tile_units, True, scale, across, down, columns, rows,
                    offsets, centres)


def map_pages(campaign: Campaign, options: PrintOptions, *,
              areas: Sequence[tuple[str, tuple[float, float]]],
              page_area_mm: tuple[float, float], loaded: Any = None) -> int:
    """How many pages ``paper_map`` cuts the map into with these options and room (1: the map
    fits one page; a cut map's overview is not counted), without drawing it."""
    from campaign import mapview

    loaded = loaded or mapview.load_map(campaign)
    return _plan_map(campaign, loaded, eco=options.eco, areas=areas, page_area_mm=page_area_mm,
                     one_page=False).pages


def paper_map(campaign: Campaign, options: PrintOptions, *,
              areas: Sequence[tuple[str, tuple[float, float]]],
              page_area_mm: tuple[float, float], loaded: Any = None,
              one_page: bool = False, battles: frozenset[str] = frozenset()) -> PaperMap:
    """Lay a campaign's map out for paper.

    ``areas`` are the room left for the map by each layout the sheet can use, by name (e.g. the
    legend beside the map or below it); the layout that draws the map largest wins.
    ``page_area_mm`` is the room on each page of a map too large for one page; ``one_page``
    fits any map on one page however small its tiles get. ``battles``: the tiles where a
    battle waits (marked on the map and in the legend).
    """
    from campaign import mapview

    loaded = loaded or mapview.load_map(campaign)
    plan = _plan_map(campaign, loaded, eco=options.eco, areas=areas, page_area_mm=page_area_mm,
                     one_page=one_page)
    fit, layout, tile_units = plan.fit, plan.layout, plan.tile_units
    if not plan.cut:
        scale = fit
        svg, width_mm, height_mm = draw_tiles(campaign, loaded, None, eco=options.eco,
                                              scale=scale, battles=battles)
        page = MapPage(1, 0, 0, svg, width_mm, height_mm, len(loaded.views),
                       labels=frozenset(v.label for v in loaded.views))
        legend = _legend(campaign, loaded, options.eco, scale, battles)
        keys = _kingdom_keys(loaded, options.eco, tile_units * scale)
        return PaperMap((page,), "", (0.0, 0.0), legend, keys, scale, tile_units * scale,
                        layout)

    assert plan.columns is not None and plan.rows is not None
    columns, rows, scale, across, down = (plan.columns, plan.rows, plan.scale, plan.across,
                                          plan.down)
    size = mapview.TILE_SIZE
    grid = loaded.grid
    views = loaded.views
    offsets, centres = plan.offsets, plan.centres
    half_w, half_h = _tile_extent(grid, size)
    column_ranges, row_ranges = columns.ranges(across), rows.ranges(down)
    numbers = {(r, c): r * len(column_ranges) + c + 1
               for r in range(len(row_ranges)) for c in range(len(column_ranges))}
    margin = CUT_MARGIN_MM / scale
    pages = []
    frames = []
    for r, (top, bottom) in enumerate(row_ranges):
        for c, (left, right) in enumerate(column_ranges):
            on_page = [v for v in views
                       if left <= offsets[v.label][0] <= right
                       and top <= offsets[v.label][1] <= bottom]
            labels = frozenset(v.label for v in on_page)
            x0 = min(centres[v.label][0] for v in on_page) - half_w
            x1 = max(centres[v.label][0] for v in on_page) + half_w
            y0 = min(centres[v.label][1] for v in on_page) - half_h
            y1 = max(centres[v.label][1] for v in on_page) + half_h
            box = (x0 - margin, y0 - margin, x1 - x0 + 2 * margin, y1 - y0 + 2 * margin)
            cuts: list[tuple[str, int, list[Any]]] = []
            neighbours: list[tuple[str, int]] = []

            def edges(beyond: Callable[[tuple[int, int]], bool]) -> list[Any]:
                return _boundary(grid, on_page, offsets, size, beyond)

            if c + 1 < len(column_ranges):
                number = numbers[(r, c + 1)]
                cuts.append(("right", number, edges(lambda o, at=right: o[0] >= at)))
                neighbours.append(("right", number))
            if c > 0:
                number = numbers[(r, c - 1)]
                cuts.append(("left", number, edges(lambda o, at=left: o[0] <= at)))
                neighbours.append(("left", number))
            if r + 1 < len(row_ranges):
                number = numbers[(r + 1, c)]
                cuts.append(("down", number, edges(lambda o, at=bottom: o[1] >= at)))
                neighbours.append(("below", number))
            if r > 0:
                number = numbers[(r - 1, c)]
                cuts.append(("up", number, edges(lambda o, at=top: o[1] <= at)))
                neighbours.append(("above", number))
            svg, width_mm, height_mm = draw_tiles(
                campaign, loaded, set(labels), eco=options.eco, box=box, scale=scale,
                overlay=_cut_marks(box, cuts, scale), battles=battles)
            pages.append(MapPage(numbers[(r, c)], r, c, svg, width_mm, height_mm, len(labels),
                                 tuple(neighbours), labels, (left, right), (top, bottom)))
            frames.append((numbers[(r, c)], (x0, y0, x1 - x0, y1 - y0)))
    overview_scale = fit
    # The overview shows where the pages are cut; its tiles are too small for labels and tokens.
    overview, ow, oh = draw_tiles(campaign, loaded, None, eco=options.eco, scale=overview_scale,
                                  overlay=_page_frames(frames, overview_scale), markers=False,
                                  show_labels=False, battles=battles)
    legend = _legend(campaign, loaded, options.eco, scale, battles)
    keys = _kingdom_keys(loaded, options.eco, tile_units * scale)
    return PaperMap(tuple(pages), overview, (ow, oh), legend, keys, scale,
                    tile_units * scale, layout, across, down)
