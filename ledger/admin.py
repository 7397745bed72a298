"""The ledger in the Django admin: every model listed, none editable.

Gold and food move only by ledger entries that services write inside a chronicle event
(DESIGN principle 4), and undo removes the entries an event wrote. A row changed or deleted by
hand would leave the cached balances, the event's before-images and the chronicle disagreeing, so
site admins may look (list and detail) but not add, change or delete.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from ledger.models import Balance, LedgerEntry


class ReadOnlyAdmin(admin.ModelAdmin):
    """View only: the list and each row's details, with no add, change or delete."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(LedgerEntry)
class LedgerEntryAdmin(ReadOnlyAdmin):
    list_display = ("kingdom", "resource", "amount", "rule_id", "source", "year", "season")
    list_filter = ("resource", "rule_id")
    raw_id_fields = ("campaign", "kingdom", "event")


@admin.register(Balance)
class BalanceAdmin(ReadOnlyAdmin):
    list_display = ("kingdom", "resource", "amount")
    raw_id_fields = ("kingdom",)
