"""Printing: the print page, each sheet as a browser preview and as a PDF download, and the
campaign book made in the background (the framework is campaign/pdf.py).

Mounted under /c/<slug>/print/ by one ``include`` in campaign/urls.py; the names below live in
the "campaign" namespace.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from csp.decorators import csp_update
from django.contrib.auth.decorators import login_required
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils.cache import patch_cache_control
from django.utils.http import content_disposition_header
from django.views.decorators.http import require_GET, require_POST
from django.views.decorators.vary import vary_on_headers

from campaign import pdf
from campaign.access import Access, get_campaign_for
from campaign.models import PrintJob
from campaign.views.common import tabs_context


def _sheet_urls(access: Access, entry: pdf.SheetEntry) -> tuple[str, str]:
    slug = access.campaign.slug
    if entry.obj is None:
        return (reverse("campaign:print_sheet", args=[slug, entry.sheet.slug]),
                reverse("campaign:print_sheet_pdf", args=[slug, entry.sheet.slug]))
    return (reverse("campaign:print_sheet_obj", args=[slug, entry.sheet.slug, entry.obj.pk]),
            reverse("campaign:print_sheet_obj_pdf", args=[slug, entry.sheet.slug, entry.obj.pk]))


def _orientation(request: HttpRequest) -> str:
    """"portrait", "landscape" or "" (each sheet's own) from ?landscape=."""
    value = pdf.parse_flag(request.GET.get("landscape"))
    return "" if value is None else "landscape" if value else "portrait"


def _latest_job(access: Access, user: Any) -> PrintJob | None:
    return (PrintJob.objects.filter(campaign=access.campaign, requested_by=user, kind="book")
            .order_by("-created_at", "-pk").first())


def _private(response: HttpResponse) -> HttpResponse:
    # Sheets carry one member's secrets: never kept by a shared cache.
    patch_cache_control(response, private=True, no_store=True)
    return response


@login_required
@require_GET
@vary_on_headers("HX-Request")
def index(request: HttpRequest, slug: str) -> HttpResponse:
    access = get_campaign_for(request, slug)
    options = pdf.PrintOptions.from_query(request.GET, access.campaign)
    orientation = _orientation(request)
    groups: dict[str, list[dict[str, Any]]] = {}
    for entry in pdf.visible_sheets(access):
        chosen = options if orientation else replace(options, landscape=entry.sheet.landscape)
        preview, download = _sheet_urls(access, entry)
        # A sheet that chooses its orientation (the map) is left to choose it.
        query = chosen.query(orientation=bool(orientation) or entry.sheet.orientation is None)
        groups.setdefault(entry.group, []).append({
            "entry": entry,
            "title": entry.sheet.title,
            "label": entry.label,
            "preview_url": f"{preview}?{query}",
            "pdf_url": f"{download}?{query}",
        })
    context = {
        **tabs_context(access, "print"),
        "options": options,
        "orientation": orientation,
        "groups": list(groups.items()),
        "book": pdf.system_book(access.campaign),
        "job": _latest_job(access, request.user),
    }
    if request.htmx and request.htmx.target == "sheet-list":
        return _private(render(request, "campaign/print_index.html#sheet-list", context))
    return _private(render(request, "campaign/print_index.html", context))


def _resolve(request: HttpRequest, slug: str, sheet_slug: str,
             pk: int | None) -> tuple[Access, pdf.PdfSheet, Any, pdf.PrintOptions]:
    access = get_campaign_for(request, slug)
    sheet = pdf.find_sheet(access, sheet_slug)
    obj = pdf.sheet_object(sheet, access, pk)
    return access, sheet, obj, sheet.download_options(access, obj, request.GET)


@login_required
@require_GET
# A sheet lays its page out with computed sizes in style attributes and a @page rule: the
# preview allows inline styles (never scripts); the PDF does not go through a browser.
@csp_update({"style-src": ["'unsafe-inline'"]})
def preview(request: HttpRequest, slug: str, sheet: str, pk: int | None = None) -> HttpResponse:
    """The sheet's own template in the browser, with a bar to download it as PDF."""
    access, found, obj, options = _resolve(request, slug, sheet, pk)
    base_url = request.build_absolute_uri("/")
    context = found.context(access, obj, options, base_url=base_url)
    pdf_name = "campaign:print_sheet_pdf" if pk is None else "campaign:print_sheet_obj_pdf"
    args = [slug, found.slug] + ([] if pk is None else [pk])
    # An orientation the sheet chose itself is not written into the links: the print page
    # keeps "each sheet's own", and the PDF chooses the same again.
    query = options.query(orientation=bool(_orientation(request)) or found.orientation is None)
    context.update(
        back_url=reverse("campaign:print", args=[slug]) + "?" + query,
        pdf_url=reverse(pdf_name, args=args) + "?" + query,
    )
    html = pdf.render_sheet_html(found.template, context, options, preview=True,
                                 request=request)
    return _private(HttpResponse(html))


@login_required
@require_GET
def download(request: HttpRequest, slug: str, sheet: str, pk: int | None = None) -> HttpResponse:
    """The sheet as a PDF file."""
    access, found, obj, options = _resolve(request, slug, sheet, pk)
    data = found.render(access, obj, options, base_url=request.build_absolute_uri("/"))
    response = HttpResponse(data, content_type="application/pdf")
    name = found.filename(access, obj) + ("-letter" if options.paper == "letter" else "") + (
        "-bw" if options.eco else "")
    response["Content-Disposition"] = content_disposition_header(True, f"{name}.pdf")
    return _private(response)


def _job_context(access: Access, job: PrintJob | None) -> dict[str, Any]:
    return {**tabs_context(access, "print"), "job": job, "book": pdf.system_book(access.campaign)}


def _own_job(access: Access, request: HttpRequest, job_id: int) -> PrintJob:
    job = PrintJob.objects.filter(pk=job_id, campaign=access.campaign, kind="book",
                                  requested_by=request.user).first()
    if job is None:
        raise Http404("No such campaign book.")
    return job


@login_required
@require_POST
def book_start(request: HttpRequest, slug: str) -> HttpResponse:
    """Start the campaign book for this member, unless one is already being made."""
    access = get_campaign_for(request, slug)
    if pdf.system_book(access.campaign) is None:
        raise Http404("This campaign's rule system has no campaign book.")
    job = _latest_job(access, request.user)
    running = job is not None and job.status in (PrintJob.Status.QUEUED,
                                                 PrintJob.Status.RUNNING)
    if running and not pdf.is_stale(job):
        pass  # a second tap waits for the book already under way
    else:
        options = pdf.PrintOptions.from_query(request.POST, access.campaign)
        job = pdf.start_book(access, request.user, options,
                             base_url=request.build_absolute_uri("/"))
        job.refresh_from_db()  # the worker may already have moved it on
    if request.htmx:
        return _private(render(request, "campaign/print_index.html#book-job",
                               _job_context(access, job)))
    return redirect("campaign:print", slug)


@login_required
@require_GET
@vary_on_headers("HX-Request")
def book_status(request: HttpRequest, slug: str, job_id: int) -> HttpResponse:
    """The book's progress (polled by htmx). A job whose worker stopped is restarted here."""
    access = get_campaign_for(request, slug)
    job = _own_job(access, request, job_id)
    pdf.revive_if_stale(job)
    if not request.htmx:
        return redirect("campaign:print", slug)
    return _private(render(request, "campaign/print_index.html#book-job",
                           _job_context(access, job)))


@login_required
@require_GET
def book_download(request: HttpRequest, slug: str, job_id: int) -> HttpResponse:
    access = get_campaign_for(request, slug)
    job = _own_job(access, request, job_id)
    if job.status != PrintJob.Status.DONE or not job.file:
        raise Http404("This campaign book is not ready.")
    try:
        handle = job.file.open("rb")
    except FileNotFoundError as exc:
        raise Http404("This campaign book's file is gone: make it again.") from exc
    name = pdf.download_name(access.campaign.slug, "campaign-book",
                             f"year-{access.campaign.year}") + ".pdf"
    response = FileResponse(handle, as_attachment=True, filename=name,
                            content_type="application/pdf")
    return _private(response)


urlpatterns = [
    path("", index, name="print"),
    path("book/", book_start, name="print_book"),
    path("book/<int:job_id>/", book_status, name="print_book_status"),
    path("book/<int:job_id>/pdf/", book_download, name="print_book_pdf"),
    path("<slug:sheet>/", preview, name="print_sheet"),
    path("<slug:sheet>/pdf/", download, name="print_sheet_pdf"),
    path("<slug:sheet>/<int:pk>/", preview, name="print_sheet_obj"),
    path("<slug:sheet>/<int:pk>/pdf/", download, name="print_sheet_obj_pdf"),
]
