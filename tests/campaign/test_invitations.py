"""Invitation links before and after signing up: what a signed-out person sees, the way through
sign-up or log-in back to accepting, and links that no longer work (revoked, used, expired)
answering 4xx with the reason and nothing else."""

from __future__ import annotations

import re
from datetime import timedelta
from html import unescape as html_unescape
from urllib.parse import quote

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from campaign import services
from campaign.models import Invitation, Membership, Role
from tests.campaign.conftest import World, dump, error_text
from tests.conftest import MIGHTY_KINGDOMS, make_campaign_of, make_user


def main_text(response: object) -> str:
    """The visible text of the page's <main>, whitespace collapsed."""
    html = response.content.decode()  # type: ignore[attr-defined]
    main = re.search(r"<main[^>]*>(.*)</main>", html, re.S)
    assert main is not None
    inline = re.sub(r"</?(?:strong|em|a|abbr|span)\b[^>]*>", "", main.group(1))
    return html_unescape(" ".join(re.sub(r"<[^>]+>", " ", inline).split()))


def test_signed_out_visitor_sees_the_campaign_inviter_and_role_first(world: World) -> None:
    """Open to anyone holding a working link: the campaign's name, rule system and GMs, who
    invites and the role, with sign-up and log-in that come back to this link."""
    add_gm = make_user("morgana")
    Membership.objects.create(campaign=world.campaign, user=add_gm, role=Role.GM)
    url = reverse("join", args=[world.invitation.token])
    before = dump()
    response = Client().get(url)
    assert response.status_code == 200
    text = main_text(response)
    assert f"Invitation from gm {world.campaign.name}" in text
    assert f"Rule system {world.campaign.system.label}" in text
    assert "Game masters gm, morgana" in text
    assert "This link is for one person." in text
    html = response.content.decode()
    assert "gm invites you to join as <strong>player</strong>: rule a kingdom" in html
    assert f'href="/accounts/signup/?next={quote(url)}">Sign up and join</a>' in html
    assert f'href="/accounts/login/?next={quote(url)}">Log in and join</a>' in html
    assert 'name="robots" content="noindex"' in html
    # No accept button for someone with no account, and nobody else's name.
    assert "<form method=\"post\" class=\"stack\">" not in html
    assert "other_player" not in html and "observer" not in text
    assert dump() == before


@pytest.mark.system(MIGHTY_KINGDOMS)
def test_sign_up_from_an_invitation_comes_back_to_accept_it(world: World) -> None:
    url = reverse("join", args=[world.invitation.token])
    client = Client()
    signup = client.get(f"{reverse('signup')}?next={quote(url)}")
    assert signup.status_code == 200
    assert (f"Once your account is made, you come back to join {world.campaign.name} "
            f"({world.campaign.system.label}) as player.") in main_text(signup)
    response = client.post(reverse("signup"), {
        "username": "newcomer", "email": "", "password1": "A-long-pass-9031",
        "password2": "A-long-pass-9031", "next": url})
    assert response.status_code == 302
    assert response["Location"] == url
    # Signed in now: a clear accept page, and nothing joined until it is pressed.
    page = client.get(url)
    assert page.status_code == 200
    text = main_text(page)
    assert "You are logged in as newcomer." in text
    assert f"Join {world.campaign.name}" in text
    assert not Membership.objects.filter(campaign=world.campaign,
                                         user__username="newcomer").exists()
    joined = client.post(url)
    assert joined.status_code == 302
    assert joined["Location"] == world.campaign.get_absolute_url()
    assert Membership.objects.get(campaign=world.campaign,
                                  user__username="newcomer").role == Role.PLAYER


@pytest.mark.system(MIGHTY_KINGDOMS)
def test_log_in_from_an_invitation_says_where_it_leads(world: World) -> None:
    url = reverse("join", args=[world.invitation.token])
    client = Client()
    page = client.get(f"{reverse('login')}?next={quote(url)}")
    assert (f"Once you are logged in, you come back to join {world.campaign.name}"
            in main_text(page))
    response = client.post(reverse("login"), {"username": "outsider",
                                               "password": "pw-outsider", "next": url})
    assert response.status_code == 302
    assert response["Location"] == url
    assert "Join " + world.campaign.name in main_text(client.get(url))


def _spoil(invitation: Invitation, how: str, gm: object) -> None:
    if how == "revoked":
        services.revoke_invitation(invitation, gm)  # type: ignore[arg-type]
    elif how == "used":
        services.accept_invitation(invitation.token, make_user(f"first-{invitation.pk}"))
    else:
        Invitation.objects.filter(pk=invitation.pk).update(
            expires_at=timezone.now() - timedelta(minutes=1))


REASONS = {
    "revoked": "This invitation link was revoked; ask whoever sent it for a new one.",
    "used": "This invitation link was for one person and has been used; ask whoever sent it "
            "for a new one.",
    "expired": "This invitation link has expired; ask whoever sent it for a new one.",
}


@pytest.mark.system(MIGHTY_KINGDOMS)
@pytest.mark.parametrize("how", sorted(REASONS))
@pytest.mark.parametrize("persona", ["anonymous", "outsider"])
def test_a_dead_link_says_why_before_anyone_signs_up_and_nothing_more(
        world: World, how: str, persona: str) -> None:
    """410 with the reason, and the page is the same whichever campaign the link was for: it
    tells nothing of the campaign, its people, the role or the note."""
    invitation = services.create_invitation(world.campaign, world.gm, role=Role.GM,
                                            single_use=True, note="for Dana", valid_days=7)
    other_gm = make_user("ravenna")
    other = make_campaign_of("war-of-kings", other_gm, slug="far-away", name="Far Away")
    elsewhere = services.create_invitation(other, other_gm, role=Role.OBSERVER,
                                           single_use=True, valid_days=1)
    _spoil(invitation, how, world.gm)
    _spoil(elsewhere, how, other_gm)
    client = world.client(persona)
    before = dump()
    response = client.get(reverse("join", args=[invitation.token]))
    assert response.status_code == 410
    text = main_text(response)
    assert text == f"This invitation no longer works {REASONS[how]} " + (
        "About Hexkeep" if persona == "anonymous" else "My campaigns")
    assert main_text(client.get(reverse("join", args=[elsewhere.token]))) == text
    html = response.content.decode()
    for secret in (world.campaign.name, world.campaign.slug, "Mighty Kingdoms",
                   "for Dana", "Game master", "?next="):
        assert secret not in html
    # Sign-up and log-in pages pointed at it say nothing about it either.
    url = reverse("join", args=[invitation.token])
    for name in ("signup", "login"):
        page = Client().get(f"{reverse(name)}?next={quote(url)}")
        assert page.status_code == 200
        assert world.campaign.name not in page.content.decode()
    # Accepting is refused with the same reason; nothing written.
    if persona != "anonymous":
        refused = client.post(url)
        assert refused.status_code == 410
        assert REASONS[how] in error_text(refused)
    assert dump() == before


@pytest.mark.system(MIGHTY_KINGDOMS)
def test_a_member_following_a_dead_link_is_told_they_are_in(world: World) -> None:
    services.revoke_invitation(world.invitation, world.gm)
    response = world.client("player").get(reverse("join", args=[world.invitation.token]))
    assert response.status_code == 200
    assert "You are already in this campaign." in main_text(response)


@pytest.mark.system(MIGHTY_KINGDOMS)
@pytest.mark.parametrize(("posted", "days"), [("1", 1), ("7", 7), ("30", 30), (None, 7)])
def test_the_gm_chooses_how_long_a_link_works(world: World, posted: str | None,
                                              days: int) -> None:
    data = {"role": "player", "note": "for Ann"}
    if posted is not None:
        data["valid_for"] = posted
    start = timezone.now()
    response = world.client("gm").post(reverse("campaign:invite", args=[world.campaign.slug]),
                                       data)
    assert response.status_code == 302
    invitation = Invitation.objects.get(note="for Ann")
    assert start + timedelta(days=days) <= invitation.expires_at <= (
        timezone.now() + timedelta(days=days))
    page = world.client("gm").get(reverse("campaign:members", args=[world.campaign.slug]))
    expected = f"works until {invitation.expires_at:%-d %b %Y, %H:%M} · for Ann"
    assert expected in error_text(page)


@pytest.mark.system(MIGHTY_KINGDOMS)
def test_a_link_until_revoked_never_expires_and_a_bad_choice_is_refused(world: World) -> None:
    client = world.client("gm")
    url = reverse("campaign:invite", args=[world.campaign.slug])
    assert client.post(url, {"role": "player", "valid_for": "0",
                             "note": "open"}).status_code == 302
    assert Invitation.objects.get(note="open").expires_at is None
    before = dump()
    response = client.post(url, {"role": "player", "valid_for": "365", "note": "a year"})
    assert response.status_code == 400
    assert "Select a valid choice. 365 is not one of the available choices." in (
        error_text(response))
    assert dump() == before


@pytest.mark.system(MIGHTY_KINGDOMS)
def test_members_page_marks_an_expired_link(world: World) -> None:
    invitation = services.create_invitation(world.campaign, world.gm, role=Role.OBSERVER,
                                            single_use=False, note="old", valid_days=1)
    Invitation.objects.filter(pk=invitation.pk).update(
        expires_at=timezone.now() - timedelta(days=2))
    page = world.client("gm").get(reverse("campaign:members", args=[world.campaign.slug]))
    text = error_text(page)
    assert re.search(r"reusable · used 0× · until [^·]+ · old expired", text)
    # An expired link offers no copy or revoke buttons.
    assert f'id="link-{invitation.pk}"' not in page.content.decode()
