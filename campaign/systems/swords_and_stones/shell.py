"""The Swords & Stones shell: the hooks the core site calls (see RuleSystem.shell)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from campaign.access import Access
from campaign.models import Campaign, Kingdom
from campaign.systems.swords_and_stones import pages, services
from campaign.systems.swords_and_stones.sheets import SHEETS  # noqa: F401
from campaign.systems.swords_and_stones.state import CAMPAIGN, PLACEMENT, load
from campaign.systems.swords_and_stones.urls import urlpatterns  # noqa: F401

PHASES = (PLACEMENT, CAMPAIGN)


def initial_clock_fields() -> dict[str, Any]:
    """A new Grand Campaign starts with the placement of the kingdoms (SNS-GC-3); ``year``
    counts the games: the number of the next one."""
    return {"year": 1, "season": "", "month": None, "phase": PLACEMENT, "sub_phase": ""}


def validate_clock(year: int | None, season: str, month: int | None, phase: str,
                   sub_phase: str) -> None:
    """SNS-GC-2..4: placement, then the campaign of challenges; no seasons or months."""
    if phase not in PHASES:
        raise ValueError(f"Phase {phase!r} does not exist: placement or campaign (SNS-GC-3, "
                         "SNS-GC-4).")
    if season or month or sub_phase:
        raise ValueError("A Grand Campaign has no seasons, months or sub-phases (SNS-GC-1).")
    if not year or year < 1:
        raise ValueError("The game count starts at 1 (SNS-GC-1).")


def clock_label(campaign: Campaign) -> str:
    return pages.clock_label(campaign)


def advance(campaign: Campaign, user: Any, inputs: Mapping[str, str] | None = None) -> Any:
    """The GM closes placement: the challenges begin (SNS-GC-4)."""
    return services.start_challenges(campaign, user)


def play_context(access: Access) -> dict[str, Any]:
    return {"sns": pages.play_view(access)}


def overview_context(access: Access) -> dict[str, Any]:
    st = load(access.campaign)
    return {"sns_rows": pages.standings(st), "sns_campaign": access.campaign}


def kingdom_context(access: Access, kingdom: Kingdom) -> dict[str, Any]:
    return pages.kingdom_view(access, kingdom)
