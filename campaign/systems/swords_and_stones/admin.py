"""Swords & Stones' own tables in the Django admin, for a site admin's corrections; every
change a campaign makes goes through the services and the chronicle."""

from __future__ import annotations

from django.contrib import admin

from campaign.systems.swords_and_stones.models import (
    CostType,
    CrateItem,
    Game,
    King,
    Participant,
    Spend,
    TerritoryRecord,
    TitleAward,
)


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("__str__", "campaign", "challenger", "defender", "territory", "status",
                    "result")
    raw_id_fields = ("campaign", "challenger", "defender", "before_owner")


@admin.register(King)
class KingAdmin(admin.ModelAdmin):
    list_display = ("name", "kingdom", "reign", "current")
    raw_id_fields = ("campaign", "kingdom", "died_in")


@admin.register(TitleAward)
class TitleAwardAdmin(admin.ModelAdmin):
    list_display = ("code", "king", "game")
    raw_id_fields = ("king", "game")


@admin.register(CrateItem)
class CrateItemAdmin(admin.ModelAdmin):
    list_display = ("name", "king", "kind", "status")
    raw_id_fields = ("king", "game")


@admin.register(Participant)
class ParticipantAdmin(admin.ModelAdmin):
    list_display = ("game", "kingdom", "side", "result", "king_outcome", "report_status")
    raw_id_fields = ("game", "kingdom", "king", "declared_crate")


@admin.register(Spend)
class SpendAdmin(admin.ModelAdmin):
    list_display = ("code", "campaign", "kingdom", "game", "target")
    raw_id_fields = ("campaign", "kingdom", "game")


@admin.register(TerritoryRecord)
class TerritoryRecordAdmin(admin.ModelAdmin):
    list_display = ("territory", "campaign", "before_state", "after_state", "cause", "rule_id")
    raw_id_fields = ("campaign", "game", "before_owner", "after_owner", "event")


@admin.register(CostType)
class CostTypeAdmin(admin.ModelAdmin):
    list_display = ("rule_id", "campaign", "types")
    raw_id_fields = ("campaign",)
