from __future__ import annotations

from django.contrib import admin

from ledger.models import Balance, LedgerEntry, Purchase, Tithe


@admin.register(LedgerEntry)
class LedgerEntryAdmin(admin.ModelAdmin):
    list_display = ("kingdom", "resource", "amount", "rule_id", "source", "year", "season")
    list_filter = ("resource", "rule_id")
    raw_id_fields = ("campaign", "kingdom", "event")


@admin.register(Balance)
class BalanceAdmin(admin.ModelAdmin):
    list_display = ("kingdom", "resource", "amount")
    raw_id_fields = ("kingdom",)


@admin.register(Tithe)
class TitheAdmin(admin.ModelAdmin):
    list_display = ("campaign", "year", "giver", "receiver", "gold", "food")
    raw_id_fields = ("campaign", "giver", "receiver", "event")


@admin.register(Purchase)
class PurchaseAdmin(admin.ModelAdmin):
    list_display = ("campaign", "year", "kingdom", "kind", "tile_label", "gold", "food")
    raw_id_fields = ("campaign", "kingdom", "event")
