"""Mighty Kingdoms' own tables in the Django admin. Tithes and purchases are read-only, like the
ledger entries they explain; orders, ships, artefacts and quests may be corrected by a site
admin, as the shared armies and battles may."""

from __future__ import annotations

from django.contrib import admin

from campaign.systems.mighty_kingdoms.models import (
    Artefact,
    Order,
    Purchase,
    Ship,
    Tithe,
    WizardQuest,
)
from ledger.admin import ReadOnlyAdmin


@admin.register(Ship)
class ShipAdmin(admin.ModelAdmin):
    list_display = ("__str__", "campaign", "tile", "on_side", "paired_army")
    raw_id_fields = ("campaign", "kingdom", "tile", "paired_army")


@admin.register(Order)
class OrderAdmin(admin.ModelAdmin):
    list_display = ("__str__", "campaign", "kingdom", "kind", "given_seq", "resolved_seq")
    raw_id_fields = ("campaign", "kingdom", "army", "ship", "from_tile", "target")


@admin.register(Artefact)
class ArtefactAdmin(admin.ModelAdmin):
    list_display = ("name", "campaign", "points", "in_pool", "holder_unit", "held_by_capital_of")
    raw_id_fields = ("campaign", "holder_unit", "held_by_capital_of", "captured_in")


@admin.register(WizardQuest)
class WizardQuestAdmin(admin.ModelAdmin):
    list_display = ("__str__", "hero", "die", "modifier", "total", "result", "artefact")
    raw_id_fields = ("campaign", "kingdom", "hero", "tower", "artefact", "event")


@admin.register(Tithe)
class TitheAdmin(ReadOnlyAdmin):
    list_display = ("campaign", "year", "giver", "receiver", "gold", "food")
    raw_id_fields = ("campaign", "giver", "receiver", "event")


@admin.register(Purchase)
class PurchaseAdmin(ReadOnlyAdmin):
    list_display = ("campaign", "year", "kingdom", "kind", "tile_label", "gold", "food")
    raw_id_fields = ("campaign", "kingdom", "event")
