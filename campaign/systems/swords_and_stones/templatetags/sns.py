"""Template helpers of Swords & Stones pages: a Territory's history in the tile panel."""

from __future__ import annotations

from typing import Any

from django import template

from campaign.models import Tile
from campaign.systems.swords_and_stones.pages import territory_history
from campaign.systems.swords_and_stones.rules import grand_campaign as gc
from campaign.systems.swords_and_stones.rules import titles as tt

register = template.Library()


@register.simple_tag
def sns_history(tile: Tile) -> list[Any]:
    """The Territory's changes of holding, oldest first (SNS-GC-12)."""
    return territory_history(tile)


@register.filter
def sns_state(state: str) -> str:
    return gc.STATE_NAMES.get(state, state)


@register.filter
def sns_title(code: str) -> str:
    title = tt.TITLE_BY_CODE.get(code)
    return title.name if title is not None else code
