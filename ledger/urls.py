"""Ledger pages, mounted at /c/<slug>/ledger/ inside the "campaign" namespace."""

from __future__ import annotations

from django.urls import path

from ledger import views

app_name = "ledger"

urlpatterns = [
    path("", views.index, name="index"),
    path("<int:kingdom_id>/", views.kingdom, name="kingdom"),
    path("<int:kingdom_id>/csv/", views.export_csv, name="csv"),
]
