"""Who may see and change what: one helper per object, used by every view.

Outsiders get a 404 (a campaign's existence is not revealed); members whose role is too low get a
403. Site administrators (superusers) act as GMs of every campaign.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db.models import Q, QuerySet
from django.http import Http404, HttpRequest

from campaign.kept_sql import kept_rows
from campaign.models import Campaign, Event, Kingdom, Membership, Role, Tile, Visibility

ROLE_RANK = {Role.OBSERVER: 0, Role.PLAYER: 1, Role.GM: 2}


@dataclass(frozen=True)
class Access:
    """The current user's standing in one campaign."""

    campaign: Campaign
    membership: Membership | None
    role: str
    kingdom: Kingdom | None
    # Rows a page has already read this request, by name, for the rule system's hooks to reuse
    # instead of reading them again: "kingdoms", the campaign's kingdoms (the overview).
    memo: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def is_gm(self) -> bool:
        return self.role == Role.GM

    @property
    def is_player(self) -> bool:
        return self.role == Role.PLAYER

    def at_least(self, role: str) -> bool:
        return ROLE_RANK[self.role] >= ROLE_RANK[role]

    def can_see_event(self, event: Event) -> bool:
        if self.is_gm or event.visibility == Visibility.PUBLIC:
            return True
        if event.visibility == Visibility.KINGDOM:
            return self.kingdom is not None and event.kingdom_id == self.kingdom.pk
        return False

    def can_edit_kingdom(self, kingdom: Kingdom) -> bool:
        return self.is_gm or (self.kingdom is not None and self.kingdom.pk == kingdom.pk)


def _players_kingdom(slug: str, user_id: int) -> QuerySet[Kingdom]:
    return (Kingdom.objects.filter(campaign__slug=slug, player__user_id=user_id)
            .select_related("player__campaign__map", "player__user").order_by("pk")[:1])


def _membership(slug: str, user_id: int) -> QuerySet[Membership]:
    return (Membership.objects.filter(campaign__slug=slug, user_id=user_id)
            .select_related("campaign__map", "user")[:1])


def _campaign(slug: str) -> QuerySet[Campaign]:
    return Campaign.objects.filter(slug=slug).select_related("map")[:1]


def _first(rows: list[Any]) -> Any:
    return rows[0] if rows else None


def get_campaign_for(request: HttpRequest, slug: str, role: str = Role.OBSERVER) -> Access:
    """Load the campaign ``slug`` for the request's user, or raise 404/403.

    ``role`` is the lowest role allowed: observer < player < GM.
    """
    user = request.user
    if not user.is_authenticated:
        raise Http404("No such campaign.")
    # A player's kingdom, their membership and the campaign with its map's row (a small one)
    # in one query; a member without a kingdom takes a second, anyone else a third (every page
    # of a campaign starts here, and most ask whether there is a map).
    kingdom = _first(kept_rows(("access", "kingdom"), _players_kingdom, slug, user.pk))
    if kingdom is not None and kingdom.player.campaign_id == kingdom.campaign_id:
        membership = kingdom.player
        campaign = membership.campaign
        kingdom.campaign = campaign
    else:
        kingdom = None
        membership = _first(kept_rows(("access", "membership"), _membership, slug, user.pk))
        campaign = membership.campaign if membership is not None else (
            _first(kept_rows(("access", "campaign"), _campaign, slug)))
    if campaign is None:
        raise Http404("No such campaign.")
    if user.is_superuser:
        effective = Role.GM
    elif membership is None:
        raise Http404("No such campaign.")
    else:
        effective = Role(membership.role)
    access_role = effective
    if ROLE_RANK[access_role] < ROLE_RANK[Role(role)]:
        raise PermissionDenied(
            f"This needs the {Role(role).label.lower()} role in {campaign.name}.")
    return Access(campaign=campaign, membership=membership, role=access_role, kingdom=kingdom)


def get_kingdom_for(access: Access, kingdom_id: int, *, edit: bool = False) -> Kingdom:
    """A kingdom of this campaign; editing needs its player or a GM."""
    kingdom = Kingdom.objects.filter(campaign=access.campaign, pk=kingdom_id).first()
    if kingdom is None:
        raise Http404("No such kingdom in this campaign.")
    if edit and not access.can_edit_kingdom(kingdom):
        raise PermissionDenied("Only its player or a GM may change this kingdom.")
    return kingdom


def get_tile_for(access: Access, label: str) -> Tile:
    tile = (
        Tile.objects.filter(map__campaign=access.campaign, label=label)
        .select_related("controller")
        .first()
    )
    if tile is None:
        raise Http404(f"There is no tile {label} on this map." if label else "Say which tile.")
    return tile


def get_membership_for(access: Access, membership_id: int) -> Membership:
    membership = (
        Membership.objects.filter(campaign=access.campaign, pk=membership_id)
        .select_related("user")
        .first()
    )
    if membership is None:
        raise Http404("No such member in this campaign.")
    return membership


def visible_events(access: Access) -> QuerySet[Event]:
    """The campaign's events this viewer may read, latest first (one query, no N+1; read through
    the campaign's manager, so each event knows its campaign without reading it again)."""
    events = access.campaign.events.select_related("actor", "kingdom")
    if access.is_gm:
        return events
    allowed = Q(visibility=Visibility.PUBLIC)
    if access.kingdom is not None:
        allowed |= Q(visibility=Visibility.KINGDOM, kingdom=access.kingdom)
    return events.filter(allowed)
