"""Members, roles and invitation links."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from campaign import services
from campaign.models import Event, Invitation, Kingdom, Membership, Role
from tests.campaign.conftest import World, dump, error_text
from tests.conftest import add_member, make_user


def invite(world: World, **data: str) -> Invitation:
    before = set(Invitation.objects.values_list("pk", flat=True))
    response = world.client("gm").post(reverse("campaign:invite", args=[world.campaign.slug]), data)
    assert response.status_code == 302
    (pk,) = set(Invitation.objects.values_list("pk", flat=True)) - before
    assert response["Location"] == f"/c/{world.campaign.slug}/members/#inv-{pk}"
    return Invitation.objects.get(pk=pk)


def members_of(world: World) -> list[tuple[str, str]]:
    return sorted(
        Membership.objects.filter(campaign=world.campaign).values_list("user__username", "role")
    )


# -- invitations ------------------------------------------------------------------------------


@pytest.mark.parametrize("role", ["player", "observer", "gm"])
def test_single_use_invitation_lets_one_person_join(world: World, role: str) -> None:
    invitation = invite(world, role=role, single_use="on", note="for Dana")
    assert (invitation.role, invitation.single_use, invitation.uses, invitation.note) == (
        role, True, 0, "for Dana"
    )
    event = Event.objects.filter(campaign=world.campaign).order_by("-seq").first()
    assert (event.kind, event.visibility) == ("invitation.created", "gm")

    dana = make_user("dana")
    client = world.client("anonymous")
    client.force_login(dana)
    url = reverse("join", args=[invitation.token])
    page = client.get(url)
    assert page.status_code == 200
    assert world.campaign.name in page.content.decode()
    assert f"join as <strong>{Role(role).label.lower()}</strong>" in page.content.decode()

    response = client.post(url)
    assert response.status_code == 302
    assert response["Location"] == world.campaign.get_absolute_url()
    assert Membership.objects.get(campaign=world.campaign, user=dana).role == role
    invitation.refresh_from_db()
    assert invitation.uses == 1
    joined = Event.objects.filter(campaign=world.campaign).order_by("-seq").first()
    assert (joined.kind, joined.summary, joined.actor) == (
        "member.joined", f"dana joined as {Role(role).label.lower()}.", dana
    )
    assert client.get(world.campaign.get_absolute_url()).status_code == 200

    # The link is used up: the next person is refused, and nothing changes.
    erin = make_user("erin")
    other = world.client("anonymous")
    other.force_login(erin)
    before = dump()
    page = other.get(url)
    assert page.status_code == 410
    used = ("This invitation link was for one person and has been used; ask whoever sent it "
            "for a new one.")
    assert used in error_text(page)
    assert world.campaign.name not in page.content.decode()
    response = other.post(url)
    assert response.status_code == 410
    assert used in error_text(response)
    assert dump() == before
    assert not Membership.objects.filter(user=erin).exists()


def test_reusable_invitation_lets_several_people_join(world: World) -> None:
    invitation = invite(world, role="observer")
    assert invitation.single_use is False
    url = reverse("join", args=[invitation.token])
    for name in ("dana", "erin", "fay"):
        client = world.client("anonymous")
        client.force_login(make_user(name))
        assert client.post(url).status_code == 302
    invitation.refresh_from_db()
    assert invitation.uses == 3
    assert [r for r in members_of(world) if r[1] == "observer"] == [
        ("dana", "observer"), ("erin", "observer"), ("fay", "observer"), ("observer", "observer")
    ]


def test_joining_twice_creates_no_duplicate(world: World) -> None:
    invitation = invite(world, role="player")
    url = reverse("join", args=[invitation.token])
    client = world.client("anonymous")
    client.force_login(make_user("dana"))
    assert client.post(url).status_code == 302
    before = dump()
    page = client.get(url)
    assert page.status_code == 200
    assert b"You are already in this campaign." in page.content
    response = client.post(url, follow=True)
    assert response.status_code == 200
    assert b"You are already in Test Campaign." in response.content
    assert dump() == before


def test_existing_member_following_a_link_keeps_their_role(world: World) -> None:
    invitation = invite(world, role="gm")
    before = dump()
    response = world.client("observer").post(reverse("join", args=[invitation.token]))
    assert response.status_code == 302
    assert dump() == before
    assert world.membership(world.observer).role == "observer"


def test_revoked_link_is_refused(world: World) -> None:
    invitation = invite(world, role="player")
    response = world.client("gm").post(
        reverse("campaign:revoke_invitation", args=[world.campaign.slug, invitation.pk])
    )
    assert response.status_code == 302
    invitation.refresh_from_db()
    assert invitation.revoked_at is not None
    event = Event.objects.filter(campaign=world.campaign).order_by("-seq").first()
    assert (event.kind, event.visibility) == ("invitation.revoked", "gm")

    client = world.client("outsider")
    url = reverse("join", args=[invitation.token])
    before = dump()
    assert client.get(url).status_code == 410
    assert client.post(url).status_code == 410
    assert dump() == before

    # Revoking twice says so and changes nothing.
    response = world.client("gm").post(
        reverse("campaign:revoke_invitation", args=[world.campaign.slug, invitation.pk])
    )
    assert response.status_code == 409
    assert "That invitation was already revoked." in error_text(response)
    assert dump() == before


@pytest.mark.parametrize("method", ["get", "post"])
def test_invalid_token_is_404(world: World, method: str) -> None:
    before = dump()
    response = getattr(world.client("outsider"), method)(reverse("join", args=["nope"]))
    assert response.status_code == 404
    assert "This invitation link is not valid." in error_text(response)
    assert dump() == before


def test_invite_with_bad_role_is_refused(world: World) -> None:
    before = dump()
    response = world.client("gm").post(
        reverse("campaign:invite", args=[world.campaign.slug]), {"role": "king"}
    )
    assert response.status_code == 400
    assert ("Select a valid choice. king is not one of the available choices."
            in error_text(response))
    assert dump() == before


def test_invitation_links_are_shown_to_gms_only(world: World) -> None:
    token = world.invitation.token
    url = reverse("campaign:members", args=[world.campaign.slug])
    assert token in world.client("gm").get(url).content.decode()
    assert token in world.client("admin").get(url).content.decode()
    for persona in ("player", "other_player", "observer"):
        body = world.client(persona).get(url).content.decode()
        assert token not in body
        assert "Create invitation link" not in body


def test_members_page_lists_members_and_their_kingdoms(world: World) -> None:
    body = error_text(world.client("observer").get(
        reverse("campaign:members", args=[world.campaign.slug])
    ))
    assert "player Player rules Red" in body
    assert "other Player rules Blue" in body
    assert "gm Game master" in body
    assert "observer Observer" in body


# -- roles ------------------------------------------------------------------------------------


def change_role(world: World, persona: str, membership: Membership, role: str):
    return world.client(persona).post(
        reverse("campaign:change_role", args=[world.campaign.slug, membership.pk]), {"role": role}
    )


def test_gm_changes_a_role(world: World) -> None:
    membership = world.membership(world.observer)
    response = change_role(world, "gm", membership, "player")
    assert response.status_code == 302
    assert response["Location"] == reverse("campaign:members", args=[world.campaign.slug])
    membership.refresh_from_db()
    assert membership.role == "player"
    event = Event.objects.filter(campaign=world.campaign).order_by("-seq").first()
    assert (event.kind, event.summary) == ("member.role", "gm made observer a player.")
    # The observer may now found a kingdom.
    assert world.client("observer").get(
        reverse("campaign:kingdom_create", args=[world.campaign.slug])
    ).status_code == 200


@pytest.mark.parametrize("role", ["", "king", "GM"])
def test_change_role_refuses_unknown_role(world: World, role: str) -> None:
    before = dump()
    response = change_role(world, "gm", world.membership(world.observer), role)
    assert response.status_code == 400
    assert "Choose GM, player or observer." in error_text(response)
    assert dump() == before


def test_change_role_to_the_same_role_is_refused(world: World) -> None:
    before = dump()
    response = change_role(world, "gm", world.membership(world.observer), "observer")
    assert response.status_code == 409
    assert "observer already has the role observer" in error_text(response)
    assert dump() == before


def test_last_gm_cannot_be_demoted(world: World) -> None:
    before = dump()
    response = change_role(world, "gm", world.membership(world.gm), "player")
    assert response.status_code == 409
    assert "A campaign needs at least one GM: make someone else GM first." in error_text(response)
    assert dump() == before
    # A site admin cannot do it either.
    response = change_role(world, "admin", world.membership(world.gm), "observer")
    assert response.status_code == 409
    assert dump() == before


def test_last_gm_cannot_be_removed(world: World) -> None:
    before = dump()
    response = world.client("gm").post(
        reverse("campaign:remove_member", args=[world.campaign.slug, world.membership(world.gm).pk])
    )
    assert response.status_code == 409
    assert "A campaign needs at least one GM" in error_text(response)
    assert dump() == before


def test_several_gms_and_then_one_may_step_down(world: World) -> None:
    assert change_role(world, "gm", world.membership(world.observer), "gm").status_code == 302
    assert [r for r in members_of(world) if r[1] == "gm"] == [("gm", "gm"), ("observer", "gm")]
    # The new GM has every GM power.
    assert world.client("observer").get(
        reverse("campaign:settings", args=[world.campaign.slug])
    ).status_code == 200
    # With two GMs, the first may become a player...
    assert change_role(world, "observer", world.membership(world.gm), "player").status_code == 302
    assert world.membership(world.gm).role == "player"
    # ...but the one left is the last GM.
    response = change_role(world, "observer", world.membership(world.observer), "player")
    assert response.status_code == 409
    assert world.membership(world.observer).role == "gm"


def test_second_gm_can_be_removed(world: World) -> None:
    second = add_member(world.campaign, make_user("second-gm"), Role.GM)
    response = world.client("gm").post(
        reverse("campaign:remove_member", args=[world.campaign.slug, second.pk])
    )
    assert response.status_code == 302
    assert not Membership.objects.filter(pk=second.pk).exists()


# -- removing members -------------------------------------------------------------------------


def test_removing_a_player_keeps_their_kingdom(world: World) -> None:
    membership = world.membership(world.player)
    response = world.client("gm").post(
        reverse("campaign:remove_member", args=[world.campaign.slug, membership.pk])
    )
    assert response.status_code == 302
    assert not Membership.objects.filter(pk=membership.pk).exists()
    red = Kingdom.objects.get(pk=world.red.pk)
    assert red.player is None
    assert red.name == "Red"
    event = Event.objects.filter(campaign=world.campaign).order_by("-seq").first()
    assert (event.kind, event.summary) == ("member.removed", "gm removed player from the campaign.")
    # The user still exists but is now an outsider.
    assert User.objects.filter(pk=world.player.pk).exists()
    assert world.client("player").get(world.campaign.get_absolute_url()).status_code == 404
    # The kingdom is unclaimed and shown so on the overview.
    body = error_text(world.client("gm").get(world.campaign.get_absolute_url()))
    assert "Red unclaimed" in body


# -- foreign ids ------------------------------------------------------------------------------


def test_ids_of_another_campaign_are_404(world: World) -> None:
    far_membership = Membership.objects.get(campaign=world.elsewhere, role=Role.PLAYER)
    far_invitation = services.create_invitation(
        world.elsewhere, world.elsewhere.created_by, role=Role.PLAYER, single_use=True
    )
    slug = world.campaign.slug
    client = world.client("gm")
    before = dump()
    for url, data in [
        (reverse("campaign:revoke_invitation", args=[slug, far_invitation.pk]), {}),
        (reverse("campaign:change_role", args=[slug, far_membership.pk]), {"role": "observer"}),
        (reverse("campaign:remove_member", args=[slug, far_membership.pk]), {}),
        (reverse("campaign:revoke_invitation", args=[slug, 999999]), {}),
        (reverse("campaign:change_role", args=[slug, 999999]), {"role": "observer"}),
        (reverse("campaign:remove_member", args=[slug, 999999]), {}),
    ]:
        response = client.post(url, data)
        assert response.status_code == 404, url
    assert dump() == before


@pytest.mark.parametrize(
    "path",
    [
        "members/invitations/abc/revoke/",
        "members/1.5/role/",
        "members/-1/remove/",
        "members/99999999999999999999999/role/",
        "members/99999999999999999999999/remove/",
        "members/invitations/99999999999999999999999/revoke/",
    ],
)
def test_bad_ids_in_member_urls_are_404(world: World, path: str) -> None:
    before = dump()
    response = world.client("gm").post(f"/c/{world.campaign.slug}/{path}", {"role": "player"})
    assert response.status_code == 404
    assert dump() == before
