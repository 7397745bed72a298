"""The unit catalogue's pages, mounted at /c/<slug>/catalogue/ inside the "campaign" namespace."""

from __future__ import annotations

from django.urls import path

from battles import catalogue_views as views

app_name = "catalogue"

urlpatterns = [
    path("", views.index, name="index"),
    path("add/", views.add, name="add"),
    path("import/", views.import_view, name="import"),
    path("<int:profile_id>/", views.edit, name="edit"),
    path("<int:profile_id>/remove/", views.remove, name="remove"),
]
