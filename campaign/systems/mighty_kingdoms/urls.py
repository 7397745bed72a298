"""Mighty Kingdoms' own pages, mounted by the core under /c/<slug>/mk/ in the "mk" namespace
(RuleSystem.shell's ``urlpatterns``). The top of the system: it imports the views, and
nothing imports it but the shell."""

from __future__ import annotations

from django.urls import include, path

from campaign.systems.mighty_kingdoms import (
    advanced_views,
    army_urls,
    battle_views,
    summer_views,
    views,
    winter_views,
)

urlpatterns = [
    path("armies/", include((army_urls.urlpatterns, "armies"))),
    path("setup/race/", views.choose_race, name="setup_race"),
    path("setup/order/", views.roll_order, name="setup_order"),
    path("setup/capital/", views.choose_capital, name="setup_capital"),
    path("setup/settle/", views.place_settlements, name="setup_settle"),
    path("setup/army/", views.place_army, name="setup_army"),
    *summer_views.urlpatterns,
    *battle_views.battle_urls,
    path("winter/recall/", winter_views.recall, name="winter_recall"),
    path("winter/tithe/", winter_views.tithe, name="winter_tithe"),
    path("winter/pass/", winter_views.pass_turn, name="winter_pass"),
    path("winter/buy/", winter_views.buy, name="winter_buy"),
    path("winter/feed/", winter_views.feed, name="winter_feed"),
    path("winter/deploy/", winter_views.deploy, name="winter_deploy"),
    path("advanced/", advanced_views.page, name="advanced"),
    path("advanced/quest/", advanced_views.quest, name="quest"),
    path("advanced/pool/", advanced_views.add_to_pool, name="artefact_add"),
    path("advanced/pool/<int:artefact_id>/remove/", advanced_views.remove_from_pool,
         name="artefact_remove"),
    path("advanced/assign/", advanced_views.assign, name="artefact_assign"),
    path("advanced/claim/", advanced_views.claim, name="artefact_claim"),
]
