"""The unit catalogue's pages, under /c/<slug>/catalogue/ (``campaign:catalogue:*``).

Every member reads the catalogue; only a GM adds, changes, removes or imports profiles
(members below GM get 403, outsiders 404, through ``get_campaign_for``). An import is checked
whole: any bad line is shown with its number and nothing is written (400).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from battles import catalogue as services
from battles.models import UnitProfile
from battles.rules import catalogue as rules
from campaign.access import Access, get_campaign_for
from campaign.models import Role
from campaign.once import applies_once
from campaign.parsing import WholeNumberField
from campaign.services import ServiceError
from campaign.views.common import refuse, tabs_context

T = "battles/catalogue/"
US_CHOICES = [("", "Not given")] + [(str(n), str(n)) for n in range(0, rules.MAX_US + 1)]
MAX_UPLOAD = 512 * 1024


class ProfileForm(forms.Form):
    name = forms.CharField(max_length=rules.NAME_LENGTH)
    unit_type = forms.CharField(label="Type", max_length=rules.TYPE_LENGTH,
                                help_text="e.g. regiment, horde, hero (infantry).")
    points = WholeNumberField(min_value=1, max_value=rules.MAX_POINTS)
    base_us = forms.TypedChoiceField(label="Base Unit Strength", choices=US_CHOICES,
                                     coerce=int, empty_value=None, required=False)
    stats = forms.CharField(label="Stat line", max_length=rules.STATS_LENGTH, required=False,
                            help_text="e.g. Sp 4 Me 4+ Ra - De 5+ Att 12 Ne 14/16.")
    special_rules = forms.CharField(max_length=rules.RULES_LENGTH, required=False,
                                    help_text="Separated by commas.")

    def entry(self) -> rules.ProfileEntry:
        data = self.cleaned_data
        return rules.ProfileEntry(
            name=" ".join(data["name"].split()), unit_type=" ".join(data["unit_type"].split()),
            points=data["points"], base_us=data["base_us"],
            stats=" ".join(data["stats"].split()),
            special_rules=" ".join(data["special_rules"].split()))

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        for name in ("name", "unit_type"):
            if name in data and not data[name].strip():
                self.add_error(name, "This field is required.")
        return data

    @classmethod
    def for_profile(cls, profile: UnitProfile) -> ProfileForm:
        return cls(initial={"name": profile.name, "unit_type": profile.unit_type,
                            "points": profile.points,
                            "base_us": "" if profile.base_us is None else str(profile.base_us),
                            "stats": profile.stats, "special_rules": profile.special_rules})


class ImportForm(forms.Form):
    text = forms.CharField(label="Profiles, one per line, or CSV", widget=forms.Textarea,
                           max_length=200_000, required=False)
    file = forms.FileField(label="Or a file (.txt or .csv)", required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        upload = data.get("file")
        if upload is not None:
            if upload.size > MAX_UPLOAD:
                self.add_error("file", f"The file is larger than {MAX_UPLOAD // 1024} KB.")
                return data
            try:
                data["content"] = upload.read().decode("utf-8-sig")
            except UnicodeDecodeError:
                self.add_error("file", "The file is not UTF-8 text: save it as CSV (UTF-8) "
                                       "or plain text.")
                return data
            data["is_csv"] = upload.name.lower().endswith(".csv") or rules.looks_like_csv(
                data["content"])
        elif (data.get("text") or "").strip():
            data["content"] = data["text"]
            data["is_csv"] = rules.looks_like_csv(data["text"])
        elif not self.errors:
            raise forms.ValidationError("Paste the profiles or choose a file.")
        return data


def _profile_for(access: Access, profile_id: int) -> UnitProfile:
    profile = UnitProfile.objects.filter(campaign=access.campaign, pk=profile_id).first()
    if profile is None:
        raise Http404("No such profile in this campaign's catalogue.")
    return profile


def _index(request: HttpRequest, access: Access, *, form: ProfileForm | None = None,
           status: int = 200, error: str = "") -> HttpResponse:
    profiles = services.profiles_of(access.campaign)
    return render(request, T + "index.html", {
        **tabs_context(access, "armies"), "profiles": profiles, "error": error,
        "form": form or ProfileForm(), "can_manage": access.is_gm,
        "as_text": "\n".join(rules.as_line(services.entry_of(p)) for p in profiles),
    }, status=status)


@login_required
@require_GET
def index(request: HttpRequest, slug: str) -> HttpResponse:
    """The catalogue: every profile, for every member; the GM's form to add one."""
    return _index(request, get_campaign_for(request, slug))


@login_required
@require_POST
@applies_once
def add(request: HttpRequest, slug: str) -> HttpResponse:
    access = get_campaign_for(request, slug, role=Role.GM)
    form = ProfileForm(request.POST)
    if not form.is_valid():
        return _index(request, access, form=form, status=400)
    try:
        services.add_profile(access.campaign, form.entry(), request.user)
    except ServiceError as exc:
        return _index(request, access, form=form, status=409, error=str(exc))
    messages.success(request, f"{form.entry().name} added to the catalogue.")
    return redirect("campaign:catalogue:index", slug)


@login_required
@require_http_methods(["GET", "POST"])
def edit(request: HttpRequest, slug: str, profile_id: int) -> HttpResponse:
    access = get_campaign_for(request, slug, role=Role.GM)
    profile = _profile_for(access, profile_id)
    form = ProfileForm(request.POST) if request.method == "POST" else ProfileForm.for_profile(
        profile)
    status, error = 200, ""
    if request.method == "POST":
        if form.is_valid():
            try:
                services.update_profile(profile, form.entry(), request.user)
            except ServiceError as exc:
                status, error = 409, str(exc)
            else:
                messages.success(request, f"{form.entry().name} saved.")
                return redirect("campaign:catalogue:index", slug)
        else:
            status = 400
    return render(request, T + "edit.html", {
        **tabs_context(access, "armies"), "profile": profile, "form": form, "error": error,
    }, status=status)


@login_required
@require_POST
def remove(request: HttpRequest, slug: str, profile_id: int) -> HttpResponse:
    access = get_campaign_for(request, slug, role=Role.GM)
    profile = _profile_for(access, profile_id)
    try:
        services.remove_profile(profile, request.user)
    except ServiceError as exc:
        return refuse(request, str(exc), status=409, context=tabs_context(access, "armies"))
    messages.success(request, f"{profile.name} removed from the catalogue.")
    return redirect("campaign:catalogue:index", slug)


@login_required
@require_http_methods(["GET", "POST"])
@applies_once
def import_view(request: HttpRequest, slug: str) -> HttpResponse:
    """Profiles pasted or uploaded as text or CSV. Any bad line: every bad line listed with its
    number, nothing written (400)."""
    access = get_campaign_for(request, slug, role=Role.GM)
    posted = request.method == "POST"
    form = ImportForm(request.POST if posted else None, request.FILES if posted else None)
    context: dict[str, Any] = {**tabs_context(access, "armies"), "form": form,
                               "line_errors": (), "error": ""}
    if not posted:
        return render(request, T + "import.html", context)
    if not form.is_valid():
        return render(request, T + "import.html", context, status=400)
    content = form.cleaned_data["content"]
    parsed = rules.parse_csv(content) if form.cleaned_data["is_csv"] else rules.parse_text(
        content)
    context["kind"] = "CSV" if form.cleaned_data["is_csv"] else "text"
    if parsed.errors:
        context["line_errors"] = parsed.errors
        return render(request, T + "import.html", context, status=400)
    try:
        added, changed, _same = services.import_profiles(access.campaign, parsed.profiles,
                                                         request.user)
    except ServiceError as exc:
        context["error"] = str(exc)
        return render(request, T + "import.html", context, status=409)
    messages.success(request, f"Catalogue imported: {added} profile{'s' * (added != 1)} "
                              f"added, {changed} changed.")
    return redirect("campaign:catalogue:index", slug)
