"""Campaign files: download a campaign as JSON, and create a campaign from such a file."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from campaign import transfer
from campaign.access import get_campaign_for
from campaign.forms import ImportForm
from campaign.models import Role


@login_required
@require_GET
def export_view(request: HttpRequest, slug: str) -> HttpResponse:
    access = get_campaign_for(request, slug, role=Role.GM)
    data = transfer.export_campaign(access.campaign)
    response = HttpResponse(transfer.dumps(data), content_type="application/json")
    response["Content-Disposition"] = (
        f'attachment; filename="{access.campaign.slug}-{data["exported_at"][:10]}.hexkeep.json"'
    )
    return response


@login_required
@require_http_methods(["GET", "POST"])
def import_view(request: HttpRequest) -> HttpResponse:
    form = ImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        limit = settings.MAX_CAMPAIGN_IMPORT_BYTES
        if upload.size > limit:
            form.add_error("file", f"The file is larger than {limit / 2**20:g} MB.")
        else:
            try:
                data = transfer.loads(upload.read())
                campaign = transfer.import_campaign(
                    data, request.user, slug=form.cleaned_data["slug"] or None
                )
            except transfer.ImportRefused as exc:
                form.add_error("file", str(exc))
            else:
                messages.success(request, f"{campaign.name} imported.")
                for note in transfer.import_notes(campaign):
                    messages.info(request, note)
                return redirect(campaign.get_absolute_url())
    status = 400 if request.method == "POST" else 200
    return render(request, "campaign/import.html", {"form": form}, status=status)
