"""War of Kings' own pages, mounted by the core under /c/<slug>/wok/ in the "wok" namespace
(RuleSystem.shell's ``urlpatterns``). Nothing imports it but the shell."""

from __future__ import annotations

from django.urls import path

from campaign.systems.war_of_kings import views

urlpatterns = [
    path("setup/", views.setup, name="setup"),
    path("build/", views.build, name="build"),
    path("trade/", views.trade, name="trade"),
    path("deal/", views.deal, name="deal"),
    path("support/", views.settle, name="settle"),
    path("next/", views.next_phase, name="next"),
    path("territory/", views.territory, name="territory"),
    path("v06/", views.use_v06, name="v06"),
    path("ledger/<int:kingdom_id>/", views.ledger_page, name="ledger"),
    path("turn/event/", views.event_die, name="event_die"),
    path("turn/move/", views.move, name="move"),
    path("turn/explore/", views.explore, name="explore"),
    path("battle/fight/", views.fight, name="fight"),
    path("battle/withdraw/", views.withdraw, name="withdraw"),
    path("battle/conquer/", views.conquer, name="conquer"),
    path("turn/resupply/", views.resupply, name="resupply"),
    path("marauders/", views.marauders, name="marauders"),
    path("forfeit/", views.forfeit, name="forfeit"),
    path("cards/", views.card, name="card"),
    path("marauders/move/", views.marauders_move, name="marauders_move"),
    path("battle/malador-die/", views.malador_die, name="malador_die"),
    path("cards/effect/", views.card_effect, name="card_effect"),
    path("marauders/rebellion/", views.rebellion, name="rebellion"),
    path("territory/culture/", views.culture, name="culture"),
]
