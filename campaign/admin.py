"""The Django admin lists every model, for site administrators fixing things by hand."""

from __future__ import annotations

from django.contrib import admin

from campaign.models import (
    Campaign,
    Event,
    Invitation,
    Kingdom,
    Map,
    Membership,
    Photo,
    PrintJob,
    Tile,
)


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    raw_id_fields = ("user",)


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "rule_system", "year", "season", "month", "phase", "created_at")
    list_filter = ("rule_system",)
    search_fields = ("name", "slug")
    prepopulated_fields = {"slug": ("name",)}
    inlines = [MembershipInline]


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


@admin.register(Kingdom)
class KingdomAdmin(admin.ModelAdmin):
    list_display = ("name", "campaign", "player", "colour", "order_position")
    search_fields = ("name", "campaign__name")
    raw_id_fields = ("campaign", "player", "start_tile", "capital_tile")


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


@admin.register(Photo)
class PhotoAdmin(admin.ModelAdmin):
    list_display = ("campaign", "caption", "uploaded_by", "year", "season", "month", "created_at")
    raw_id_fields = ("campaign", "uploaded_by")


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ("seq", "campaign", "kind", "summary", "actor", "visibility", "undone_at")
    list_filter = ("kind", "visibility")
    search_fields = ("summary", "campaign__name")
    raw_id_fields = ("campaign", "actor", "kingdom", "undone_by", "undo_of")


@admin.register(PrintJob)
class PrintJobAdmin(admin.ModelAdmin):
    list_display = ("campaign", "kind", "status", "progress", "total", "created_at")
    list_filter = ("status", "kind")
    raw_id_fields = ("campaign", "requested_by")
