"""Swords & Stones' own pages, mounted by the core under /c/<slug>/sns/ in the "sns" namespace
(RuleSystem.shell's ``urlpatterns``). The top of the system: nothing imports it but the
shell."""

from __future__ import annotations

from django.urls import path

from campaign.systems.swords_and_stones import game_views, views

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
    path("costs/", views.cost_types, name="costs"),
    path("game/<int:number>/table/<int:kingdom_id>/", views.table_page, name="table"),
    path("game/<int:number>/table/<int:kingdom_id>/<slug:action>/", views.table_action,
         name="table_action"),
]

# The game at the table beyond one Stockpile: seats, trades and battles (game_views), ahead of
# the table's action route, which would otherwise read "trade" and "battle" as actions.
urlpatterns[:0] = [
    path("game/<int:number>/seat/", game_views.seat, name="seat"),
    path("game/<int:number>/table/<int:kingdom_id>/trade/", game_views.trade_offer,
         name="trade_offer"),
    path("game/<int:number>/table/<int:kingdom_id>/trade/<int:pk>/<slug:answer>/",
         game_views.trade_answer, name="trade_answer"),
    path("game/<int:number>/table/<int:kingdom_id>/battle/", game_views.battle_begin,
         name="battle_begin"),
    path("game/<int:number>/table/<int:kingdom_id>/battle/<int:pk>/<slug:step>/",
         game_views.battle_step, name="battle_step"),
]
