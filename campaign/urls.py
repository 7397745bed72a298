"""Site URLs. Campaign pages live under /c/<slug>/ in the "campaign" namespace."""

from __future__ import annotations

import posixpath

from django.conf import settings
from django.contrib import admin
from django.http import Http404
from django.urls import include, path, register_converter
from django.views.static import serve

from campaign.rulesystems import REGISTRY, get_system
from campaign.views import (
    accounts,
    chronicle,
    kingdoms,
    maps,
    members,
    notes,
    pages,
    play,
    transfer,
)


class AnyPathConverter:
    """The rest of a path, the empty one included (``path`` needs at least one character)."""

    regex = ".*"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(AnyPathConverter, "anypath")

campaign_patterns = [
    path("new/", pages.create, name="create"),
    path("import/", transfer.import_view, name="import"),
    path("<slug:slug>/", pages.detail, name="detail"),
    path("<slug:slug>/settings/", pages.settings_view, name="settings"),
    path("<slug:slug>/export/", transfer.export_view, name="export"),
    path("<slug:slug>/members/", members.members, name="members"),
    path("<slug:slug>/members/invite/", members.invite, name="invite"),
    path("<slug:slug>/members/invitations/<int:invitation_id>/revoke/", members.revoke,
         name="revoke_invitation"),
    path("<slug:slug>/members/<int:membership_id>/role/", members.change_role, name="change_role"),
    path("<slug:slug>/members/<int:membership_id>/remove/", members.remove, name="remove_member"),
    path("<slug:slug>/kingdoms/new/", kingdoms.create, name="kingdom_create"),
    path("<slug:slug>/kingdoms/<int:kingdom_id>/", kingdoms.detail, name="kingdom"),
    path("<slug:slug>/kingdoms/<int:kingdom_id>/edit/", kingdoms.edit, name="kingdom_edit"),
    path("<slug:slug>/kingdoms/<int:kingdom_id>/claim/", kingdoms.claim, name="kingdom_claim"),
    path("<slug:slug>/kingdoms/<int:kingdom_id>/assign/", kingdoms.assign, name="kingdom_assign"),
    path("<slug:slug>/map/", maps.map_page, name="map"),
    path("<slug:slug>/map/svg/", maps.map_svg, name="map_svg"),
    path("<slug:slug>/map/edit/", maps.editor, name="map_edit"),
    path("<slug:slug>/map/edit/paint/", maps.paint, name="map_paint"),
    path("<slug:slug>/map/edit/generate/", maps.generate, name="map_generate"),
    path("<slug:slug>/map/tiles/<str:label>/", maps.tile_panel, name="tile"),
    path("<slug:slug>/map/tiles/<str:label>/edit/", maps.tile_edit, name="tile_edit"),
    path("<slug:slug>/map/tiles/<str:label>/act/", maps.tile_act, name="tile_act"),
    path("<slug:slug>/play/", play.play, name="play"),
    path("<slug:slug>/play/advance/", play.advance, name="advance"),
    path("<slug:slug>/chronicle/", chronicle.chronicle, name="chronicle"),
    path("<slug:slug>/chronicle/undo/", chronicle.undo, name="undo"),
    path("<slug:slug>/chronicle/take-back/", chronicle.take_back_view, name="take_back"),
    path("<slug:slug>/photos/", chronicle.photos, name="photos"),
    # The GM's own words: chronicle entries, and notes on kingdoms and tiles.
    path("<slug:slug>/chronicle/write/", notes.write_entry, name="entry_write"),
    path("<slug:slug>/chronicle/entries/<int:entry_id>/", notes.edit_entry, name="entry_edit"),
    path("<slug:slug>/chronicle/entries/<int:entry_id>/remove/", notes.remove_entry,
         name="entry_remove"),
    path("<slug:slug>/kingdoms/<int:kingdom_id>/notes/", notes.add_kingdom_note,
         name="kingdom_note_add"),
    path("<slug:slug>/map/tiles/<str:label>/notes/", notes.add_tile_note, name="tile_note_add"),
    path("<slug:slug>/notes/<int:note_id>/", notes.edit_note, name="note_edit"),
    path("<slug:slug>/notes/<int:note_id>/remove/", notes.remove_note, name="note_remove"),
    path("<slug:slug>/ledger/", include("ledger.urls")),
    # The campaign's unit catalogue (battles/catalogue_views.py).
    path("<slug:slug>/catalogue/", include("battles.urls")),
    # Army pages moved under their system's prefix; printed QR codes still point here.
    path("<slug:slug>/armies/<anypath:rest>", pages.moved, name="moved_armies"),
    # Printable sheets, their previews and the campaign book (campaign/views/sheets.py).
    path("<slug:slug>/print/", include("campaign.views.sheets")),
    # The pages' live poll and each member's notification settings (campaign/live.py).
    path("<slug:slug>/live/", include("campaign.live")),
]

def _system_urls() -> list:
    """Each rule system's own pages, under /c/<slug>/<prefix>/ in the <prefix> namespace."""
    patterns = []
    for system_slug in REGISTRY:
        system = get_system(system_slug)
        module = system.shell_module()
        if module is not None and getattr(module, "urlpatterns", None):
            patterns.append(
                path(f"c/<slug:slug>/{system.url_prefix}/",
                     include((module.urlpatterns, system.url_prefix)))
            )
    return patterns


urlpatterns = [
    path("", pages.home, name="home"),
    path("admin/", admin.site.urls),
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/login/", accounts.LoginView.as_view(), name="login"),
    path("accounts/logout/", accounts.LogoutView.as_view(), name="logout"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("join/<str:token>/", members.join, name="join"),
    path("c/", include((campaign_patterns, "campaign"))),
    *_system_urls(),
]


def public_media(request, path):  # type: ignore[no-untyped-def]
    """Crests and table photos: re-encoded images under random names. Anything else in
    MEDIA_ROOT (generated PDFs) is served only by views that check who is asking."""
    path = posixpath.normpath(path).lstrip("/")
    if not path.startswith(PUBLIC_MEDIA_PREFIXES):
        raise Http404("No such file.")
    return serve(request, path, document_root=settings.MEDIA_ROOT)


PUBLIC_MEDIA_PREFIXES = ("crests/", "photos/")

# A larger site serves these two folders from its web server instead.
urlpatterns += [path(f"{settings.MEDIA_URL.strip('/')}/<path:path>", public_media)]

handler400 = "campaign.views.errors.bad_request"
handler403 = "campaign.views.errors.forbidden"
handler404 = "campaign.views.errors.not_found"
handler500 = "campaign.views.errors.server_error"
