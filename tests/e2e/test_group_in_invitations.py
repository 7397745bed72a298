"""An invitation opened while signed out, in a phone's browser: the campaign, who invites and
the role come first; sign-up comes back to a clear accept page, worked from the keyboard; a
revoked link says so (410) before anyone signs up and tells nothing else. Checked with axe-core
at 390 px, and the invitation page again at 1280 px."""

from __future__ import annotations

from typing import Any

import pytest

from campaign import services
from campaign.models import Membership, Role
from tests.conftest import make_campaign, make_user
from tests.e2e.axe import assert_accessible
from tests.e2e.conftest import PHONE, shot
from tests.phone import fits_a_phone

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WIDE = {"width": 1280, "height": 900}


def phone_page(browser: Any) -> tuple[Any, Any]:
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True,
                                  has_touch=True)
    return context, context.new_page()


def test_signed_out_invitation_to_joined_at_390_px(live_server: Any, browser: Any) -> None:
    gm = make_user("morgana")
    campaign = make_campaign(gm, slug="red-hills", name="Red Hills")
    invitation = services.create_invitation(campaign, gm, role=Role.PLAYER, single_use=True,
                                            valid_days=7)
    url = f"{live_server.url}{invitation.get_absolute_url()}"
    context, page = phone_page(browser)
    try:
        response = page.goto(url)
        assert response.status == 200
        # The campaign first, not a bare log-in form.
        assert page.locator("main h1").inner_text() == "Red Hills"
        card = page.locator("main .join").inner_text()
        assert "Invitation from morgana" in card
        assert "Rule system\nMighty Kingdoms" in card or "Rule system Mighty Kingdoms" in card
        assert "morgana invites you to join as player" in card
        assert page.locator("#id_username").count() == 0
        fits_a_phone(page)
        assert_accessible(page)
        shot(page, "group-in-invitation-signed-out-390")

        # Sign up from the keyboard, and come back to accept.
        page.get_by_role("link", name="Sign up and join").focus()
        page.keyboard.press("Enter")
        page.wait_for_url(lambda address: "/accounts/signup/?next=/join/" in address)
        assert ("Once your account is made, you come back to join Red Hills"
                in page.locator("#invite-note").inner_text())
        assert_accessible(page)
        shot(page, "group-in-invitation-signup-390")
        page.fill("#id_username", "newcomer")
        page.fill("#id_password1", "A-long-pass-9031")
        page.fill("#id_password2", "A-long-pass-9031")
        page.keyboard.press("Enter")
        page.wait_for_url(url)
        assert "You are logged in as newcomer." in page.locator("main .join").inner_text()
        assert not Membership.objects.filter(user__username="newcomer").exists()
        fits_a_phone(page)
        assert_accessible(page)
        shot(page, "group-in-invitation-accept-390")
        page.get_by_role("button", name="Join Red Hills").focus()
        page.keyboard.press("Enter")
        page.wait_for_url(f"{live_server.url}/c/red-hills/")
        assert Membership.objects.get(user__username="newcomer",
                                      campaign=campaign).role == Role.PLAYER
        assert "Welcome to Red Hills!" in page.locator("ul.messages").inner_text()
    finally:
        context.close()


def test_revoked_link_says_so_before_sign_up_at_390_px(live_server: Any, browser: Any) -> None:
    gm = make_user("morgana")
    campaign = make_campaign(gm, slug="red-hills", name="Red Hills")
    invitation = services.create_invitation(campaign, gm, role=Role.OBSERVER, single_use=False,
                                            note="for Dana")
    services.revoke_invitation(invitation, gm)
    context, page = phone_page(browser)
    try:
        response = page.goto(f"{live_server.url}{invitation.get_absolute_url()}")
        assert response.status == 410
        assert page.locator("main h1").inner_text() == "This invitation no longer works"
        assert page.get_by_role("alert").inner_text() == (
            "This invitation link was revoked; ask whoever sent it for a new one.")
        html = page.content()
        for secret in ("Red Hills", "red-hills", "morgana", "Mighty Kingdoms", "for Dana",
                       "observer", "Sign up and join"):
            assert secret not in html
        fits_a_phone(page)
        assert_accessible(page)
        shot(page, "group-in-invitation-revoked-390")
    finally:
        context.close()


def test_invitation_page_at_1280_px(live_server: Any, browser: Any) -> None:
    gm = make_user("morgana")
    campaign = make_campaign(gm, slug="red-hills", name="Red Hills")
    invitation = services.create_invitation(campaign, gm, role=Role.GM, single_use=True,
                                            valid_days=1)
    context = browser.new_context(viewport=WIDE)
    page = context.new_page()
    try:
        assert page.goto(f"{live_server.url}{invitation.get_absolute_url()}").status == 200
        card = page.locator("main .join")
        assert "morgana invites you to join as game master: run the campaign" in card.inner_text()
        # The card keeps a readable width on a wide screen, its buttons side by side.
        assert card.bounding_box()["width"] <= 34 * 16 + 1
        signup = page.get_by_role("link", name="Sign up and join").bounding_box()
        login = page.get_by_role("link", name="Log in and join").bounding_box()
        assert signup["y"] == login["y"] and login["x"] > signup["x"]
        assert_accessible(page)
        shot(page, "group-in-invitation-signed-out-1280")
    finally:
        context.close()
