"""Swords & Stones' own pages, mounted by the core under /c/<slug>/sns/ in the "sns" namespace
(RuleSystem.shell's ``urlpatterns``). The top of the system: nothing imports it but the
shell."""

from __future__ import annotations

from django.urls import path

from campaign.systems.swords_and_stones import views

urlpatterns = [
    path("king/", views.name_king, name="king"),
    path("place/", views.place, name="place"),
    path("preset/", views.preset, name="preset"),
    path("artificial/", views.artificial, name="artificial"),
    path("newcomer/", views.newcomer, name="newcomer"),
    path("challenge/", views.challenge, name="challenge"),
    path("setup/", views.set_up, name="setup"),
    path("begin/", views.begin, name="begin"),
    path("result/", views.result, name="result"),
    path("compensation/", views.compensation, name="compensation"),
    path("capital/", views.capital, name="capital"),
    path("spend/", views.spend, name="spend"),
    path("gondor/", views.gondor, name="gondor"),
    path("games/", views.games, name="games"),
    path("game/<int:number>/", views.game_page, name="game"),
    path("game/<int:number>/report/<int:kingdom_id>/", views.report, name="report"),
    path("confirm/", views.confirm, name="confirm"),
    path("titles/", views.titles, name="titles"),
    path("crate/", views.crate, name="crate"),
    path("honours/", views.honours, name="honours"),
    path("battle/", views.battle, name="battle"),
    path("game/<int:number>/table/<int:kingdom_id>/", views.table_page, name="table"),
    path("game/<int:number>/table/<int:kingdom_id>/<slug:action>/", views.table_action,
         name="table_action"),
]
