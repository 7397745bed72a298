"""Members, roles and invitation links."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaign import services
from campaign.access import get_campaign_for, get_membership_for
from campaign.forms import InvitationForm, RoleForm
from campaign.models import Invitation, Kingdom, Membership, Role
from campaign.once import applies_once
from campaign.views.common import refuse, tabs_context


def _members_context(access, form=None):
    campaign = access.campaign
    members = Membership.objects.filter(campaign=campaign).select_related("user")
    kingdoms = {k.player_id: k
                for k in Kingdom.objects.filter(campaign=campaign, player__isnull=False)}
    context = {
        **tabs_context(access, "members"),
        "members": [(m, kingdoms.get(m.pk)) for m in members],
        "role_choices": Role.choices,
    }
    if access.is_gm:
        context["invitations"] = Invitation.objects.filter(campaign=campaign)
        context["invite_form"] = form or InvitationForm()
    return context


@login_required
@require_GET
def members(request: HttpRequest, slug: str) -> HttpResponse:
    access = get_campaign_for(request, slug)
    return render(request, "campaign/members.html", _members_context(access))


@login_required
@require_POST
@applies_once
def invite(request: HttpRequest, slug: str) -> HttpResponse:
    access = get_campaign_for(request, slug, role=Role.GM)
    form = InvitationForm(request.POST)
    if not form.is_valid():
        return render(request, "campaign/members.html", _members_context(access, form), status=400)
    invitation = services.create_invitation(
        access.campaign, request.user, role=form.cleaned_data["role"],
        single_use=form.cleaned_data["single_use"], note=form.cleaned_data["note"],
        valid_days=form.cleaned_data["valid_for"],
    )
    messages.success(request, "Invitation created: copy the link and send it.")
    return redirect(f"{access.campaign.get_absolute_url()}members/#inv-{invitation.pk}")


@login_required
@require_POST
def revoke(request: HttpRequest, slug: str, invitation_id: int) -> HttpResponse:
    access = get_campaign_for(request, slug, role=Role.GM)
    invitation = Invitation.objects.filter(campaign=access.campaign, pk=invitation_id).first()
    if invitation is None:
        raise Http404("No such invitation in this campaign.")
    try:
        services.revoke_invitation(invitation, request.user)
    except services.ServiceError as exc:
        return refuse(request, str(exc), status=409, context=tabs_context(access, "members"))
    messages.success(request, "Invitation revoked: the link no longer works.")
    return redirect("campaign:members", access.campaign.slug)


@login_required
@require_POST
def change_role(request: HttpRequest, slug: str, membership_id: int) -> HttpResponse:
    access = get_campaign_for(request, slug, role=Role.GM)
    membership = get_membership_for(access, membership_id)
    form = RoleForm(request.POST)
    if not form.is_valid():
        return refuse(request, "Choose GM, player or observer.",
                      context=tabs_context(access, "members"))
    try:
        services.change_role(membership, request.user, form.cleaned_data["role"])
    except services.ServiceError as exc:
        return refuse(request, str(exc), status=409, context=tabs_context(access, "members"))
    role = Role(form.cleaned_data["role"]).label.lower()
    messages.success(request, f"{membership.user} is now a {role}.")
    return redirect("campaign:members", access.campaign.slug)


@login_required
@require_POST
def remove(request: HttpRequest, slug: str, membership_id: int) -> HttpResponse:
    access = get_campaign_for(request, slug, role=Role.GM)
    membership = get_membership_for(access, membership_id)
    try:
        services.remove_member(membership, request.user)
    except services.ServiceError as exc:
        return refuse(request, str(exc), status=409, context=tabs_context(access, "members"))
    messages.success(request, f"{membership.user} was removed from the campaign.")
    return redirect("campaign:members", access.campaign.slug)


# What each role may do, as the join page tells whoever is invited.
ROLE_PROMISE = {
    Role.GM: "run the campaign with the other GMs: see and change everything, close phases and "
             "undo",
    Role.PLAYER: "rule a kingdom (found your own or claim one the GM has founded) and play it "
                 "from your phone",
    Role.OBSERVER: "follow the campaign: the map, the standings and the public chronicle",
}


@require_http_methods(["GET", "POST"])
def join(request: HttpRequest, token: str) -> HttpResponse:
    """An invitation link. Open to everyone: whoever is signed out sees the campaign, who invites
    and the role before signing up or logging in, which both come back here to accept. A link
    that no longer works says only why (revoked, used or expired), to anyone, and answers 410."""
    invitation = (Invitation.objects.select_related("campaign", "created_by")
                  .filter(token=token).first())
    if invitation is None:
        return refuse(request, "This invitation link is not valid.", status=404)
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        try:
            campaign, created = services.accept_invitation(token, request.user)
        except services.ServiceError as exc:
            return refuse(request, str(exc), status=410)
        if created:
            messages.success(request, f"Welcome to {campaign.name}!")
        else:
            messages.info(request, f"You are already in {campaign.name}.")
        return redirect(campaign.get_absolute_url())
    campaign = invitation.campaign
    already = request.user.is_authenticated and Membership.objects.filter(
        campaign=campaign, user=request.user).exists()
    if already:
        return render(request, "campaign/join.html", {"invitation": invitation, "already": True})
    if not invitation.is_usable:
        return render(request, "campaign/join.html", {
            "refusal": services.unusable_invitation_text(invitation.state),
        }, status=410)
    gms = [m.user.get_username() for m in Membership.objects.filter(
        campaign=campaign, role=Role.GM).select_related("user").order_by("user__username")]
    inviter = invitation.created_by.get_username() if invitation.created_by else ""
    return render(request, "campaign/join.html", {
        "invitation": invitation,
        "campaign": campaign,
        "gms": gms,
        "inviter": inviter,
        "role_label": Role(invitation.role).label.lower(),
        "promise": ROLE_PROMISE[Role(invitation.role)],
        "back": request.path,
    })
