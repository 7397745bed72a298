"""The ledger pages: a kingdom's entries with running balances, and the CSV export.

A kingdom's ledger is private: its player and the GMs see it; another player or an observer
gets 403, someone outside the campaign 404 (``get_campaign_for``).
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.text import slugify
from django.views.decorators.http import require_GET

from campaign.access import Access, get_campaign_for, get_kingdom_for
from campaign.models import Kingdom
from campaign.parsing import parse_filter
from campaign.views.common import tabs_context
from ledger import services
from ledger.models import LedgerEntry


def ledger_kingdom_for(access: Access, kingdom_id: int) -> Kingdom:
    """The kingdom whose ledger this viewer may read: their own, or any for a GM."""
    kingdom = get_kingdom_for(access, kingdom_id)
    if not access.can_edit_kingdom(kingdom):
        raise PermissionDenied("A kingdom's ledger is for its player and the GMs.")
    return kingdom


def _clock(entry: LedgerEntry) -> str:
    """When it was booked, e.g. "Year 1 winter B)"."""
    parts = [f"Year {entry.year}"]
    if entry.season:
        parts.append(entry.season)
    if entry.month:
        parts.append(f"month {entry.month}")
    if entry.phase:
        parts.append(f"{entry.phase})")
    return " ".join(parts)


@login_required
@require_GET
def index(request: HttpRequest, slug: str) -> HttpResponse:
    """A GM's list of every kingdom's balances; a player goes straight to their own ledger."""
    access = get_campaign_for(request, slug)
    if not access.is_gm:
        if access.kingdom is None:
            raise PermissionDenied("Only a kingdom's player and the GMs read its ledger.")
        return redirect("campaign:ledger:kingdom", slug, access.kingdom.pk)
    kingdoms = list(access.campaign.kingdoms.all())
    resources = services.resources_of(access.campaign)
    found = services.balances(kingdoms, resources)
    rows = [(k, [found[k.pk][r] for r in resources]) for k in kingdoms]
    return render(request, "ledger/index.html",
                  {**tabs_context(access, "overview"), "rows": rows, "resources": resources})


@login_required
@require_GET
def kingdom(request: HttpRequest, slug: str, kingdom_id: int) -> HttpResponse:
    """One kingdom's entries for one campaign year (the latest by default), with the balance of
    each resource after every entry."""
    access = get_campaign_for(request, slug)
    row = ledger_kingdom_for(access, kingdom_id)
    resources = services.resources_of(access.campaign)
    years = services.years_of(row)
    year = parse_filter(request.GET.get("year"), 0, 32767)  # not a year: the default
    if year is None:
        year = years[0] if years else access.campaign.year
    start = services.totals_before(row, year)
    entries = []
    for entry, after in services.running(services.entries_for(row, year), start):
        entries.append({
            "entry": entry, "clock": _clock(entry), "after": after,
            "column": resources.index(entry.resource) if entry.resource in resources else None,
        })
    balances = services.balances([row], resources)[row.pk]
    mismatch = services.check_balances(row)
    context = {
        **tabs_context(access, "kingdom" if access.kingdom == row else "overview"),
        "kingdom": row,
        "resources": resources,
        "balances": [(r, balances[r]) for r in resources],
        "entries": entries,
        "years": years,
        "year": year,
        "mismatch": mismatch,
    }
    return render(request, "ledger/kingdom.html", context)


@login_required
@require_GET
def export_csv(request: HttpRequest, slug: str, kingdom_id: int) -> HttpResponse:
    """The kingdom's whole ledger as a CSV download (DESIGN: data is portable)."""
    access = get_campaign_for(request, slug)
    row = ledger_kingdom_for(access, kingdom_id)
    filename = f"{access.campaign.slug}-{slugify(row.name) or row.pk}-ledger.csv"
    response = HttpResponse(services.csv_bytes(row), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["Cache-Control"] = "private, no-store"
    return response
