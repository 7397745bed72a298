"""Signing up; logging in and out and password resets are Django's own views."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.db import transaction
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import Resolver404, resolve, reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods

from campaign.forms import SignupForm
from campaign.models import Invitation

MAX_NEXT_LENGTH = 2000


def safe_next(request: HttpRequest, raw: str | None) -> str:
    """``raw`` when it is a path on this site ("/c/red-hills/"), else "": never another host, a
    scheme, a protocol-relative "//host", a view name or anything over 2,000 characters."""
    if not raw or len(raw) > MAX_NEXT_LENGTH or not raw.startswith("/") or raw.startswith(
            ("//", "/\\")):
        return ""
    if not url_has_allowed_host_and_scheme(raw, {request.get_host()},
                                           require_https=request.is_secure()):
        return ""
    return raw


class SafeNext:
    """For Django's log-in and log-out views: ``next`` is followed only to a path on this
    site (``safe_next``), whatever Django's own check would let through (a view name, say)."""

    request: HttpRequest
    redirect_field_name: str

    def get_redirect_url(self) -> str:
        name = self.redirect_field_name
        return safe_next(self.request, self.request.POST.get(name, self.request.GET.get(name)))


def invitation_behind(next_url: str) -> Invitation | None:
    """The invitation a sign-up or log-in comes back to accept (``next`` is its join link), if
    it still works: the form can then say which campaign it leads to. A link that no longer
    works says nothing here; the join page tells why."""
    try:
        match = resolve(next_url.split("?", 1)[0]) if next_url else None
    except Resolver404:
        return None
    if match is None or match.view_name != "join":
        return None
    invitation = (Invitation.objects.select_related("campaign", "created_by")
                  .filter(token=match.kwargs.get("token", "")).first())
    return invitation if invitation is not None and invitation.is_usable else None


class LoginView(SafeNext, auth_views.LoginView):
    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context["invitation"] = invitation_behind(context.get("next", ""))
        return context


class LogoutView(SafeNext, auth_views.LogoutView):
    pass


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    next_url = safe_next(request, request.POST.get("next") or request.GET.get("next"))
    form = SignupForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        # Where to go is settled before anything is written, and the account and the login
        # happen together or not at all.
        target = next_url or reverse("home")
        with transaction.atomic():
            user = form.save()
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, f"Welcome, {user.get_username()}!")
        return HttpResponseRedirect(target)
    status = 400 if request.method == "POST" else 200
    return render(request, "registration/signup.html", {
        "form": form, "next": next_url, "invitation": invitation_behind(next_url),
    }, status=status)
