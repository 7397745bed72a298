"""The Middle Sea's own pages, mounted by the core under /c/<slug>/ms/ in the "ms" namespace
(RuleSystem.shell's ``urlpatterns``); nothing imports this but the shell."""

from __future__ import annotations

from django.urls import path

from campaign.systems.middle_sea import views

urlpatterns = [
    path("setup/", views.setup, name="setup"),
    path("turn/end/", views.end_turn, name="end_turn"),
    path("control/", views.settle_control, name="control"),
    path("rebellion/put-down/", views.put_down, name="put_down"),
    path("rebellion/end/", views.end_rebellion, name="end_rebellion"),
    path("dominance/", views.order_dominance, name="dominance"),
    path("build/explore/", views.explore, name="explore"),
    path("build/road/", views.road, name="road"),
    path("build/port/", views.port, name="port"),
    path("build/exchange/", views.exchange, name="exchange"),
    path("leader/king/", views.change_king, name="king"),
    path("leader/activate/", views.activate, name="activate"),
    path("leader/move/", views.move, name="move"),
    path("leader/attack/", views.attack, name="attack"),
    path("defend/", views.defend, name="defend"),
    path("clock/start/", views.start_clock, name="start_clock"),
    path("clock/time/", views.call_time, name="call_time"),
]
