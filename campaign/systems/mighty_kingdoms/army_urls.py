"""Armies, Kings of War army lists, Unit Strength and battle results: Mighty Kingdoms' pages
under /c/<slug>/mk/armies/, in the "mk:armies" namespace (see ``urls``)."""

from __future__ import annotations

from django.urls import path

from campaign.systems.mighty_kingdoms import army_views as views

urlpatterns = [
    path("", views.index, name="index"),
    path("kingdom/<int:kingdom_id>/", views.roster, name="roster"),
    path("<int:army_id>/", views.army, name="army"),
    path("<int:army_id>/list/", views.edit, name="edit"),
    path("<int:army_id>/list/unit/", views.save_unit, name="save_unit"),
    path("<int:army_id>/list/unit/<int:unit_id>/copy/", views.copy, name="copy_unit"),
    path("<int:army_id>/list/unit/<int:unit_id>/remove/", views.remove, name="remove_unit"),
    path("<int:army_id>/list/details/", views.details, name="details"),
    path("<int:army_id>/list/fix/", views.fix, name="fix"),
    path("<int:army_id>/list/paste/", views.paste, name="paste"),
    path("<int:army_id>/unit/<int:unit_id>/artefact/", views.artefact, name="artefact"),
    path("battle/<int:battle_id>/", views.battle_results, name="battle"),
    path("battle/<int:battle_id>/reveal/", views.reveal, name="reveal"),
]
