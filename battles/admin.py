from __future__ import annotations

from django.contrib import admin

from battles.models import (
    Army,
    ArmyList,
    Artefact,
    Battle,
    Order,
    Ship,
    Unit,
    UnitStrengthEvent,
    WizardQuest,
)


@admin.register(Army)
class ArmyAdmin(admin.ModelAdmin):
    list_display = ("__str__", "campaign", "tile", "points", "on_side", "defending")
    raw_id_fields = ("campaign", "kingdom", "tile")


@admin.register(Ship)
class ShipAdmin(admin.ModelAdmin):
    list_display = ("__str__", "campaign", "tile", "on_side", "paired_army")
    raw_id_fields = ("campaign", "kingdom", "tile", "paired_army")


@admin.register(Order)
class OrderAdmin(admin.ModelAdmin):
    list_display = ("__str__", "campaign", "kingdom", "kind", "given_seq", "resolved_seq")
    raw_id_fields = ("campaign", "kingdom", "army", "ship", "from_tile", "target")


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


@admin.register(Artefact)
class ArtefactAdmin(admin.ModelAdmin):
    list_display = ("name", "campaign", "points", "in_pool", "holder_unit", "held_by_capital_of")
    raw_id_fields = ("campaign", "holder_unit", "held_by_capital_of", "captured_in")


@admin.register(WizardQuest)
class WizardQuestAdmin(admin.ModelAdmin):
    list_display = ("__str__", "hero", "die", "modifier", "total", "result", "artefact")
    raw_id_fields = ("campaign", "kingdom", "hero", "tower", "artefact", "event")
