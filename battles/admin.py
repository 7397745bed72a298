from __future__ import annotations

from django.contrib import admin

from battles.models import Army, ArmyList, Battle, Unit, UnitProfile, UnitStrengthEvent


@admin.register(Army)
class ArmyAdmin(admin.ModelAdmin):
    list_display = ("__str__", "campaign", "tile", "points", "on_side", "defending")
    raw_id_fields = ("campaign", "kingdom", "tile")




@admin.register(Battle)
class BattleAdmin(admin.ModelAdmin):
    list_display = ("__str__", "campaign", "year", "month", "kind", "status")
    raw_id_fields = ("campaign", "tile", "chooser", "opponent")


@admin.register(ArmyList)
class ArmyListAdmin(admin.ModelAdmin):
    list_display = ("__str__", "race", "allied", "fixed_at", "revealed_at_battle")
    raw_id_fields = ("army", "revealed_at_battle")


@admin.register(Unit)
class UnitAdmin(admin.ModelAdmin):
    list_display = ("name", "army_list", "unit_type", "points", "base_us", "destroyed_reason")
    raw_id_fields = ("army_list",)


@admin.register(UnitStrengthEvent)
class UnitStrengthEventAdmin(admin.ModelAdmin):
    list_display = ("unit", "battle", "delta", "reason", "year", "month")
    raw_id_fields = ("unit", "battle", "event")


@admin.register(UnitProfile)
class UnitProfileAdmin(admin.ModelAdmin):
    """A campaign's unit catalogue (battles.catalogue)."""

    list_display = ("name", "campaign", "unit_type", "points", "base_us")
    search_fields = ("name", "unit_type", "campaign__name")
    raw_id_fields = ("campaign",)
