"""The Mighty Kingdoms shell: the hooks the core site calls (see RuleSystem.shell)."""

from __future__ import annotations

from typing import Any

from django.urls import path

from campaign.access import Access
from campaign.models import Campaign, Kingdom
from campaign.systems.mighty_kingdoms import (
    advanced_views,
    phases,
    summer,
    views,
    winter,
)
from campaign.systems.mighty_kingdoms.sheets import SHEETS  # noqa: F401
from campaign.systems.mighty_kingdoms.state import load_state


def initial_clock_fields() -> dict[str, Any]:
    """A new campaign starts with setup, step A (MK-SETUP-1)."""
    return {"year": 1, "season": phases.SETUP, "month": None, "phase": phases.SETUP_STEPS[0],
            "sub_phase": ""}


def clock_label(campaign: Campaign) -> str:
    return phases.label(campaign)


def advance(campaign: Campaign, user: Any) -> Any:
    return phases.advance(campaign, user)


def play_context(access: Access) -> dict[str, Any]:
    """What the play page shows: the phase, what blocks it, whose turn, the phase's own parts."""
    state = load_state(access.campaign)
    handler = phases.handler_for(state.campaign)
    turn = handler.turn(state) if handler.turn else None
    context: dict[str, Any] = {
        "mk_state": state,
        "phase_label": phases.label(state.campaign),
        "phase_template": handler.template,
        "blockers": handler.blockers(state),
        "turn_kingdom": state.kingdom_rows.get(turn) if turn else None,
        "my_turn": bool(turn and access.kingdom and access.kingdom.pk == turn),
        "player_order": [state.kingdom_rows[pk] for pk in state.order],
    }
    context.update(views.setup_context(state, access))
    context.update(summer.play_context(state, access))
    context.update(winter.play_context(state, access))
    context.update(advanced_views.play_context(state, access))
    return context


def kingdom_context(access: Access, kingdom: Kingdom) -> dict[str, Any]:
    state = load_state(access.campaign)
    context: dict[str, Any] = {"mk_state": state}
    context.update(summer.kingdom_context(state, access, kingdom))
    context.update(winter.kingdom_context(state, access, kingdom))
    return context


urlpatterns = [
    path("setup/race/", views.choose_race, name="setup_race"),
    path("setup/order/", views.roll_order, name="setup_order"),
    path("setup/capital/", views.choose_capital, name="setup_capital"),
    path("setup/settle/", views.place_settlements, name="setup_settle"),
    path("setup/army/", views.place_army, name="setup_army"),
    *summer.urlpatterns,
    *winter.urlpatterns,
    path("advanced/", advanced_views.page, name="advanced"),
    path("advanced/quest/", advanced_views.quest, name="quest"),
    path("advanced/pool/", advanced_views.add_to_pool, name="artefact_add"),
    path("advanced/pool/<int:artefact_id>/remove/", advanced_views.remove_from_pool,
         name="artefact_remove"),
    path("advanced/assign/", advanced_views.assign, name="artefact_assign"),
    path("advanced/claim/", advanced_views.claim, name="artefact_claim"),
]
