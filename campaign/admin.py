"""The Django admin lists every model, for site administrators fixing things by hand.

The admin is site maintenance, outside the game: a change made here is not a chronicle event, so
it cannot be undone from the chronicle and nobody reads about it there (docs/deployment.md). What
the admin must still not do is what the site itself refuses:

- a campaign added here is set up as the site sets one up (its system's starting clock and
  options, a blank map in its style, its creator as GM, the "created" event), and a clock
  changed here must be one its rule system can be at;
- an uploaded crest or table photo goes through the same checks and re-encoding as an upload on
  the site (``campaign.images``), so the admin cannot put an arbitrary file under ``/media/``;
- the chronicle itself (events and their undo data) cannot be added to or edited here.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import UploadedFile
from django.http import HttpRequest

from campaign import services
from campaign.forms import RESERVED_SLUGS
from campaign.images import ImageRejected, process_crest, process_photo
from campaign.models import (
    Campaign,
    CampaignNotifications,
    ChronicleEntry,
    Event,
    Invitation,
    Kingdom,
    Map,
    Membership,
    Note,
    NotificationPreference,
    Photo,
    PrintJob,
    Tile,
    UsedFormToken,
)
from campaign.rulesystems import choices as system_choices
from campaign.rulesystems import get_system


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    raw_id_fields = ("user",)


class CampaignAdminForm(forms.ModelForm):
    class Meta:
        model = Campaign
        fields = "__all__"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if "rule_system" in self.fields:
            self.fields["rule_system"] = forms.ChoiceField(choices=system_choices())

    def clean_slug(self) -> str:
        slug = self.cleaned_data["slug"]
        if slug in RESERVED_SLUGS:
            raise ValidationError(f"{slug!r} is reserved; choose another address.")
        return slug

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        slug = data.get("rule_system") or self.instance.rule_system
        if self.instance.pk is None or not slug:
            return data  # a new campaign starts at its system's own clock (save_model)
        system = get_system(slug)
        clock = {key: data.get(key, getattr(self.instance, key))
                 for key in ("year", "season", "month", "phase", "sub_phase")}
        problem = system.clock_problem(clock)
        if problem:
            raise ValidationError(f"A {system.label} campaign cannot be at this point: {problem}")
        try:
            system.parse_options(data.get("options", self.instance.options))
        except ValueError as exc:
            self.add_error("options", str(exc))
        return data


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin):
    form = CampaignAdminForm
    list_display = ("name", "slug", "rule_system", "year", "season", "month", "phase", "created_at")
    list_filter = ("rule_system",)
    search_fields = ("name", "slug")
    prepopulated_fields = {"slug": ("name",)}
    inlines = [MembershipInline]

    def get_fields(self, request: HttpRequest, obj: Campaign | None = None) -> Any:
        if obj is None:
            # The rest (clock, options, map) comes from the rule system, as on the site.
            return ("name", "slug", "rule_system", "description")
        return super().get_fields(request, obj)

    def get_readonly_fields(self, request: HttpRequest, obj: Campaign | None = None) -> Any:
        # Campaigns never change rule system: their rows hold that system's state.
        return ("rule_system", "created_by") if obj is not None else ()

    def get_inlines(self, request: HttpRequest, obj: Campaign | None) -> Any:
        return self.inlines if obj is not None else []

    def save_model(self, request: HttpRequest, obj: Campaign, form: Any, change: bool) -> None:
        if change:
            super().save_model(request, obj, form, change)
            return
        # Set up as the site sets up a campaign: its creator is its GM.
        created = services.create_campaign(
            request.user, name=obj.name, slug=obj.slug, rule_system=obj.rule_system,
            description=obj.description)
        obj.pk = created.pk
        obj.refresh_from_db()


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ("user", "campaign", "role", "joined_at")
    list_filter = ("role",)
    search_fields = ("user__username", "campaign__name")
    raw_id_fields = ("user", "campaign")


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    list_display = ("campaign", "role", "single_use", "uses", "revoked_at", "created_at")
    list_filter = ("role", "single_use")
    raw_id_fields = ("campaign", "created_by")


def _checked(form: forms.ModelForm, name: str, process: Any) -> Any:
    """An image field's new upload checked and re-encoded as on the site; the thumbnail waits on
    the form for ``save_model``. Anything else (no change, or cleared) passes as it is."""
    value = form.cleaned_data.get(name)
    if not isinstance(value, UploadedFile):
        return value
    try:
        image, thumb = process(value)
    except ImageRejected as exc:
        raise ValidationError(str(exc)) from None
    form.thumbnail = thumb  # type: ignore[attr-defined]
    return image


# Plain file fields: the upload is checked by campaign.images, with the site's own messages.
IMAGE_HELP = "PNG, JPEG or WebP, up to 5 MB; re-encoded as on the site."


class KingdomAdminForm(forms.ModelForm):
    crest = forms.FileField(required=False, widget=forms.ClearableFileInput, help_text=IMAGE_HELP)

    class Meta:
        model = Kingdom
        fields = "__all__"

    def clean_crest(self) -> Any:
        return _checked(self, "crest", process_crest)


@admin.register(Kingdom)
class KingdomAdmin(admin.ModelAdmin):
    form = KingdomAdminForm
    list_display = ("name", "campaign", "player", "colour", "order_position")
    search_fields = ("name", "campaign__name")
    raw_id_fields = ("campaign", "player", "start_tile", "capital_tile")
    # The thumbnail follows the crest: it is made from it, never uploaded.
    readonly_fields = ("crest_thumb",)

    def save_model(self, request: HttpRequest, obj: Kingdom, form: Any, change: bool) -> None:
        thumb = getattr(form, "thumbnail", None)
        if thumb is not None:
            obj.crest_thumb.save(thumb.name, thumb, save=False)
        elif "crest" in form.changed_data and not obj.crest:
            obj.crest_thumb = ""  # the crest was cleared
        super().save_model(request, obj, form, change)


@admin.register(Map)
class MapAdmin(admin.ModelAdmin):
    list_display = ("campaign", "kind", "orientation", "width", "height", "seed")
    raw_id_fields = ("campaign",)


@admin.register(Tile)
class TileAdmin(admin.ModelAdmin):
    list_display = ("label", "map", "terrain", "settlement", "controller", "explored", "is_start")
    list_filter = ("terrain", "settlement", "explored")
    search_fields = ("label", "map__campaign__name")
    raw_id_fields = ("map", "controller")
    list_select_related = ("map__campaign", "controller")


class PhotoAdminForm(forms.ModelForm):
    image = forms.FileField(widget=forms.ClearableFileInput, help_text=IMAGE_HELP)

    class Meta:
        model = Photo
        fields = "__all__"

    def clean_image(self) -> Any:
        return _checked(self, "image", process_photo)


@admin.register(Photo)
class PhotoAdmin(admin.ModelAdmin):
    form = PhotoAdminForm
    list_display = ("campaign", "caption", "uploaded_by", "year", "season", "month", "created_at")
    raw_id_fields = ("campaign", "uploaded_by")
    readonly_fields = ("thumbnail",)

    def save_model(self, request: HttpRequest, obj: Photo, form: Any, change: bool) -> None:
        thumb = getattr(form, "thumbnail", None)
        if thumb is not None:
            obj.thumbnail.save(thumb.name, thumb, save=False)
        super().save_model(request, obj, form, change)


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    """The chronicle, to read: an event edited by hand would no longer match what undo puts
    back (its before-images) or what happened. Deleting stays possible, as deleting a whole
    campaign deletes its events."""

    list_display = ("seq", "campaign", "kind", "summary", "actor", "visibility", "undone_at")
    list_filter = ("kind", "visibility")
    search_fields = ("summary", "campaign__name")
    raw_id_fields = ("campaign", "actor", "kingdom", "undone_by", "undo_of")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Note)
class NoteAdmin(admin.ModelAdmin):
    """A GM's notes on kingdoms and tiles; a GM-only note stays GM-only here (``shared``)."""

    list_display = ("campaign", "kingdom", "tile", "shared", "author", "created_at")
    list_filter = ("shared",)
    search_fields = ("text", "campaign__name")
    raw_id_fields = ("campaign", "kingdom", "tile", "author")


@admin.register(ChronicleEntry)
class ChronicleEntryAdmin(admin.ModelAdmin):
    """The GM's chronicle entries. Their photos are read-only here: a photo goes through the
    site's checks and re-encoding only on the entry's own page."""

    list_display = ("campaign", "title", "author", "year", "season", "month", "created_at")
    search_fields = ("title", "text", "campaign__name")
    raw_id_fields = ("campaign", "author", "event")
    readonly_fields = ("image", "thumbnail")


@admin.register(PrintJob)
class PrintJobAdmin(admin.ModelAdmin):
    list_display = ("campaign", "kind", "status", "progress", "total", "created_at")
    list_filter = ("status", "kind")
    raw_id_fields = ("campaign", "requested_by")


@admin.register(NotificationPreference)
class NotificationPreferenceAdmin(admin.ModelAdmin):
    list_display = ("membership", "on_turn", "on_battle", "on_phase", "daily_digest")
    raw_id_fields = ("membership",)


@admin.register(CampaignNotifications)
class CampaignNotificationsAdmin(admin.ModelAdmin):
    """A campaign's webhook and what its notifications told last; change the webhook on the
    campaign's own notifications page, where it is an event."""

    list_display = ("campaign", "seen_seq", "clock")
    readonly_fields = ("seen_seq", "clock", "turn")
    raw_id_fields = ("campaign",)


@admin.register(UsedFormToken)
class UsedFormTokenAdmin(admin.ModelAdmin):
    """Forms already applied (campaign.once), to read: a token removed by hand would let the
    same form create twice."""

    list_display = ("token", "user", "location", "created_at")
    raw_id_fields = ("user",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
