"""Who may see and change what: one helper per object, used by every view.

Outsiders get a 404 (a campaign's existence is not revealed); members whose role is too low get a
403. Site administrators (superusers) act as GMs of every campaign.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import connections
from django.db.models import Model, Q, QuerySet
from django.db.models.query import get_related_populators
from django.http import Http404, HttpRequest

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


# -- reads whose SQL is worked out once --------------------------------------------------------

KEPT_LIMIT = 200
_kept: dict[tuple, Any] = {}


@dataclass(frozen=True)
class _Statement:
    """A queryset's SQL with where each value goes, and how its rows become model instances
    (what Django's ``ModelIterable`` works out from the compiled query)."""

    sql: str
    slots: tuple[tuple[bool, Any], ...]  # (True, index of a value) or (False, a constant)
    model: type[Model]
    init_list: list[str]
    start: int
    end: int
    populators: list[Any]
    annotations: dict[str, int]
    converters: list[tuple[int, tuple[list[Any], Any]]]


def _stand_in(index: int, value: Any) -> Any:
    """A value no query of ours holds as a constant, of the same type as ``value``."""
    if type(value) is int:
        return -918_273_645 - index
    if type(value) is str:
        return f"\x1fvalue {index}\x1f"
    raise TypeError(f"kept_rows takes whole numbers and text, not {type(value).__name__}")


def _statement(build: Callable[..., QuerySet], values: Sequence[Any]) -> _Statement | None:
    stand_ins = [_stand_in(i, v) for i, v in enumerate(values)]
    queryset = build(*stand_ins)
    compiler = queryset.query.get_compiler(using=queryset.db)
    sql, params = compiler.as_sql()
    slots, seen = [], set()
    for param in params:
        index = next((i for i, s in enumerate(stand_ins) if type(param) is type(s)
                      and param == s), None)
        if index is None:
            if any(isinstance(s, str) and s in str(param) for s in stand_ins):
                return None  # a value worked into another (a LIKE pattern): not kept
            slots.append((False, param))
        else:
            slots.append((True, index))
            seen.add(index)
    if len(seen) != len(values) or any(str(s) in sql for s in stand_ins):
        return None
    select, klass_info = compiler.select, compiler.klass_info
    fields = klass_info["select_fields"]
    start, end = fields[0], fields[-1] + 1
    return _Statement(
        sql=sql, slots=tuple(slots), model=klass_info["model"],
        init_list=[f[0].target.attname for f in select[start:end]], start=start, end=end,
        populators=get_related_populators(klass_info, select, queryset.db),
        annotations=dict(compiler.annotation_col_map or {}),
        converters=list(compiler.get_converters(
            [s[0] for s in select[0:compiler.col_count]]).items()),
    )


def kept_rows(key: tuple, build: Callable[..., QuerySet], *values: Any,
              known: dict[str, Model] | None = None) -> list[Any]:
    """``list(build(*values))``, the same instances, with the queryset's SQL worked out once per
    process (about a millisecond of Django's work a query) and run again with new values.

    ``build`` makes the queryset from ``values`` (whole numbers and text, each used as is in
    the query, as a filter's value); ``key`` names everything else that shapes it, since what
    is kept under ``key`` serves every later call. ``known`` gives related objects the rows
    point to, as a related manager does (``{"campaign": campaign}`` for a campaign's events),
    set on each row whose key matches. A query the values cannot simply be put into (a value
    changed on its way in) is built each time. At most ``KEPT_LIMIT`` statements are kept
    (emptied whole when full).
    """
    connection = connections["default"]
    slot = (connection.alias, connection.vendor, key)
    statement = _kept.get(slot)
    if statement is None:
        statement = _statement(build, values) or False
        if len(_kept) >= KEPT_LIMIT:
            _kept.clear()
        _kept[slot] = statement
    if statement is False:
        return list(build(*values))
    params = [values[x] if is_value else x for is_value, x in statement.slots]
    with connection.cursor() as cursor:
        cursor.execute(statement.sql, params)
        rows = cursor.fetchall()
    db, model, init_list = connection.alias, statement.model, statement.init_list
    start, end = statement.start, statement.end
    known_fields = [(model._meta.get_field(name), instance)
                    for name, instance in (known or {}).items()]
    found = []
    for row in rows:
        if statement.converters:
            row = list(row)
            for pos, (convs, expression) in statement.converters:
                value = row[pos]
                for converter in convs:
                    value = converter(value, expression, connection)
                row[pos] = value
        obj = model.from_db(db, init_list, row[start:end])
        for populator in statement.populators:
            populator.populate(row, obj)
        for name, pos in statement.annotations.items():
            setattr(obj, name, row[pos])
        for fk, instance in known_fields:
            if not fk.is_cached(obj) and getattr(obj, fk.attname) == instance.pk:
                setattr(obj, fk.name, instance)
        found.append(obj)
    return found


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
