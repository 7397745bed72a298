"""Every write to a campaign: load, check, call the rules, write, record one chronicle event.

Each function runs in one transaction and returns what the view needs to show. Illegal requests
raise ``ServiceError`` with a message for the user; nothing is written then.
"""

from __future__ import annotations

import random
from contextlib import contextmanager
from datetime import timedelta
from typing import Any, Iterable, Iterator

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import Count
from django.utils import timezone

from campaign.chronicle import Recorder
from campaign.images import delete_files, process_crest, process_photo
from campaign.locking import lock_campaign, lock_kingdom
from campaign.models import (
    Campaign,
    Invitation,
    Kingdom,
    Map,
    MapKind,
    Membership,
    Photo,
    Role,
    Tile,
    Visibility,
)
from campaign.rules import geometry, mapgen
from campaign.rules.options import OptionError
from campaign.rulesystems import RuleSystem, get_system


class ServiceError(Exception):
    """An action that is not allowed now; the message says why."""


class ConflictError(ServiceError):
    """Someone else did this (or took this) a moment earlier; views answer 409."""


@contextmanager
def _files_of_this_write() -> Iterator[list[str]]:
    """Names of the files (crests, photos) a write saves; if the write fails and its
    transaction rolls back, they are deleted again, so no file is left served that no row
    points to. Enter it before ``transaction.atomic()``."""
    written: list[str] = []
    try:
        yield written
    except BaseException:
        delete_files(written)
        raise


def _store(field_file: Any, content: Any, written: list[str]) -> None:
    field_file.save(content.name, content, save=False)
    written.append(field_file.name)


# -- campaigns --------------------------------------------------------------------------------


def create_campaign(
    user: AbstractBaseUser,
    *,
    name: str,
    slug: str,
    rule_system: str,
    description: str = "",
    width: int | None = None,
    height: int | None = None,
    orientation: str | None = None,
    seed: int | None = None,
) -> Campaign:
    """Create a campaign with its creator as GM and a map laid out in the system's style.

    With a ``seed`` the map is generated at random (same seed, same map); without one every tile
    starts as the system's first terrain.
    """
    system = get_system(rule_system)
    if system.read_only:
        raise ServiceError(f"Unknown rule system {rule_system!r}.")
    taken = f"The address {slug!r} is taken; choose another slug."
    with transaction.atomic():
        if Campaign.objects.filter(slug=slug).exists():
            raise ConflictError(taken)
        campaign = Campaign(
            name=name,
            slug=slug,
            rule_system=rule_system,
            description=description,
            options=system.parse_options({}),
            created_by=user,
            **initial_clock(system),
        )
        # The creation is an event that cannot be undone: the campaign row is written inside
        # it, though not as a change to reverse.
        with Recorder(campaign, user, "campaign.created", f"{user} created the campaign.",
                      reversible=False) as rec:
            try:
                # Two requests with one slug at once both pass the check above; the unique
                # index refuses the later one (on PostgreSQL once the first commits).
                with transaction.atomic():
                    campaign.save()
            except IntegrityError:
                raise ConflictError(taken) from None
            rec.create(Membership(campaign=campaign, user=user, role=Role.GM))
            style = system.map_style
            game_map = Map(
                campaign=campaign,
                kind=style.kind,
                orientation=orientation or style.orientation,
                width=width or style.width,
                height=height or style.height,
                seed=seed,
            )
            rec.create(game_map)
            rec.create_many(Tile, _tiles_for(system, game_map, seed))
    return campaign


def initial_clock(system: RuleSystem) -> dict[str, Any]:
    """The clock a new campaign starts at: the system's own, or year 1."""
    fields = system.hook("initial_clock_fields")
    return fields() if fields else {"year": 1}


def _tiles_for(system: RuleSystem, game_map: Map, seed: int | None) -> list[Tile]:
    # A system whose maps are not generated (a territory board drawn as data) gives its own.
    initial_tiles = system.hook("initial_tiles")
    if initial_tiles is not None:
        return list(initial_tiles(game_map, seed))
    if seed is None:
        grid = geometry.make_grid(
            game_map.kind, game_map.width, game_map.height, game_map.orientation
        )
        first = system.terrains[0].slug
        return [
            Tile(map=game_map, q=q, r=r, label=grid.label(q, r), terrain=first)
            for q, r in grid.coords()
        ]
    style = system.map_style
    spec = mapgen.MapGenSpec(
        kind=game_map.kind,
        width=game_map.width,
        height=game_map.height,
        orientation=game_map.orientation,
        terrains=style.generator_terrains
        or tuple((t.slug, 1) for t in system.terrains if not t.water),
        water_terrain=style.water_terrain,
        start_tiles=_start_tile_count(game_map) if style.start_tiles else 0,
        mountain_terrain=style.mountain_terrain,
        forest_terrain=style.forest_terrain,
    )
    return [
        Tile(
            map=game_map,
            q=spec_tile.q,
            r=spec_tile.r,
            label=spec_tile.label,
            terrain=spec_tile.terrain,
            features=sorted(spec_tile.features),
            edges={str(d): sorted(f) for d, f in spec_tile.edges.items() if f},
            is_start=spec_tile.is_start,
        )
        for spec_tile in mapgen.generate_map(spec, seed)
    ]


def _start_tile_count(game_map: Map) -> int:
    # Roughly one starting tile per 15 tiles, between 2 and 12: room for every likely group.
    return max(2, min(12, (game_map.width * game_map.height) // 15))


def update_campaign(
    campaign: Campaign,
    user: AbstractBaseUser,
    *,
    name: str,
    description: str,
    options: dict[str, Any],
    paper_size: str,
    eco_print: bool,
) -> Campaign:
    try:
        parsed = campaign.system.parse_options(options)
    except OptionError as exc:
        raise ServiceError(str(exc)) from exc
    with transaction.atomic():
        campaign = lock_campaign(campaign)
        changed = [
            spec.label
            for spec in campaign.system.options
            if campaign.options.get(spec.name, spec.default) != parsed[spec.name]
        ]
        summary = "Campaign settings changed"
        if changed:
            summary += ": " + ", ".join(changed)
        with Recorder(campaign, user, "campaign.settings", summary + ".") as rec:
            rec.update(
                campaign,
                name=name,
                description=description,
                options=parsed,
                paper_size=paper_size,
                eco_print=eco_print,
            )
    return campaign


# -- members and invitations ------------------------------------------------------------------


def create_invitation(
    campaign: Campaign, user: AbstractBaseUser, *, role: str, single_use: bool, note: str = "",
    valid_days: int = 0,
) -> Invitation:
    """A link to join ``campaign`` as ``role``; it stops working after ``valid_days`` days
    (0: only when revoked, or once used if ``single_use``)."""
    if role not in Role.values:
        raise ServiceError(f"Unknown role {role!r}.")
    expires_at = timezone.now() + timedelta(days=valid_days) if valid_days > 0 else None
    with transaction.atomic():
        lock_campaign(campaign)
        invitation = Invitation(
            campaign=campaign, role=role, single_use=single_use, note=note, created_by=user,
            expires_at=expires_at,
        )
        kind = "single-use " if single_use else ""
        with Recorder(
            campaign, user, "invitation.created",
            f"{user} created a {kind}invitation for a {Role(role).label.lower()}.",
            visibility=Visibility.GM,
        ) as rec:
            rec.create(invitation)
    return invitation


def revoke_invitation(invitation: Invitation, user: AbstractBaseUser) -> None:
    with transaction.atomic():
        lock_campaign(invitation.campaign_id)
        invitation = Invitation.objects.select_for_update().get(pk=invitation.pk)
        if invitation.revoked_at is not None:
            raise ServiceError("That invitation was already revoked.")
        with Recorder(
            invitation.campaign, user, "invitation.revoked",
            f"{user} revoked an invitation for a {Role(invitation.role).label.lower()}.",
            visibility=Visibility.GM,
        ) as rec:
            rec.update(invitation, revoked_at=timezone.now())


INVITATION_REFUSALS = {
    "revoked": "This invitation link was revoked; ask whoever sent it for a new one.",
    "used": "This invitation link was for one person and has been used; ask whoever sent it "
            "for a new one.",
    "expired": "This invitation link has expired; ask whoever sent it for a new one.",
}


def unusable_invitation_text(state: str) -> str:
    """Why a link no longer works, in words that reveal nothing else (not even the campaign)."""
    return INVITATION_REFUSALS.get(state, "This invitation link no longer works.")


def accept_invitation(token: str, user: AbstractBaseUser) -> tuple[Campaign, bool]:
    """Join through an invitation; returns the campaign and whether a membership was created."""
    with transaction.atomic():
        campaign_id = (Invitation.objects.filter(token=token)
                       .values_list("campaign_id", flat=True).first())
        if campaign_id is None:
            raise ServiceError("This invitation link is not valid.")
        lock_campaign(campaign_id)
        invitation = (
            Invitation.objects.select_for_update().select_related("campaign").filter(token=token).first()
        )
        if invitation is None:
            raise ServiceError("This invitation link is not valid.")
        campaign = invitation.campaign
        if Membership.objects.filter(campaign=campaign, user=user).exists():
            return campaign, False
        if not invitation.is_usable:
            raise ServiceError(unusable_invitation_text(invitation.state))
        with Recorder(
            campaign, user, "member.joined",
            f"{user} joined as {Role(invitation.role).label.lower()}.",
        ) as rec:
            rec.create(Membership(campaign=campaign, user=user, role=invitation.role))
            rec.update(invitation, uses=invitation.uses + 1)
    return campaign, True


def _gm_count(campaign: Campaign) -> int:
    return Membership.objects.filter(campaign=campaign, role=Role.GM).count()


def change_role(membership: Membership, user: AbstractBaseUser, role: str) -> Membership:
    if role not in Role.values:
        raise ServiceError(f"Unknown role {role!r}.")
    with transaction.atomic():
        campaign = lock_campaign(membership.campaign_id)
        membership = Membership.objects.select_related("user").get(pk=membership.pk)
        if membership.role == role:
            raise ServiceError(
                f"{membership.user} already has the role {Role(role).label.lower()}.")
        if membership.role == Role.GM and _gm_count(campaign) <= 1:
            raise ServiceError("A campaign needs at least one GM: make someone else GM first.")
        with Recorder(
            campaign, user, "member.role",
            f"{user} made {membership.user} a {Role(role).label.lower()}.",
        ) as rec:
            if membership.role == Role.PLAYER:
                # Only players hold kingdoms: the kingdom stays, free for someone to claim.
                for kingdom in Kingdom.objects.filter(campaign=campaign, player=membership):
                    rec.update(kingdom, player=None)
            rec.update(membership, role=role)
    return membership


def remove_member(membership: Membership, user: AbstractBaseUser) -> None:
    with transaction.atomic():
        campaign = lock_campaign(membership.campaign_id)
        membership = Membership.objects.select_related("user").get(pk=membership.pk)
        if membership.role == Role.GM and _gm_count(campaign) <= 1:
            raise ServiceError("A campaign needs at least one GM: make someone else GM first.")
        with Recorder(
            campaign, user, "member.removed", f"{user} removed {membership.user} from the campaign."
        ) as rec:
            # Their kingdom stays in the campaign, without a player, until someone claims it.
            rec.delete(membership)


# -- kingdoms ---------------------------------------------------------------------------------


def _check_kingdom_name(campaign: Campaign, name: str, exclude: int | None = None) -> None:
    clash = Kingdom.objects.filter(campaign=campaign, name__iexact=name)
    if exclude is not None:
        clash = clash.exclude(pk=exclude)
    if clash.exists():
        raise ServiceError(f"There is already a kingdom called {name!r} in this campaign.")


def create_kingdom(
    campaign: Campaign,
    user: AbstractBaseUser,
    *,
    name: str,
    colour: str,
    player: Membership | None,
    crest: Any = None,
) -> Kingdom:
    """Create a kingdom; ``player`` claims it at once (a player creating their own, or a GM
    giving it to someone)."""
    crest_files = process_crest(crest) if crest else None
    with _files_of_this_write() as written, transaction.atomic():
        lock_campaign(campaign)
        _check_kingdom_name(campaign, name)
        if player is not None:
            if player.role != Role.PLAYER:
                raise ServiceError("Only players can hold a kingdom.")
            if Kingdom.objects.filter(campaign=campaign, player=player).exists():
                raise ServiceError(f"{player.user} already has a kingdom in this campaign.")
        kingdom = Kingdom(campaign=campaign, name=name, colour=colour, player=player)
        if crest_files:
            _store(kingdom.crest, crest_files[0], written)
            _store(kingdom.crest_thumb, crest_files[1], written)
        holder = f" for {player.user}" if player else ""
        with Recorder(campaign, user, "kingdom.created", f"Kingdom {name} founded{holder}.") as rec:
            rec.create(kingdom)
    return kingdom


def update_kingdom(
    kingdom: Kingdom, user: AbstractBaseUser, *, name: str, colour: str, crest: Any = None
) -> Kingdom:
    crest_files = process_crest(crest) if crest else None
    with _files_of_this_write() as written, transaction.atomic():
        # Campaign first, then the kingdom (campaign.locking): a purchase of this kingdom holds
        # the campaign and then books entries that point to the kingdom.
        _campaign, kingdom = lock_kingdom(kingdom)
        _check_kingdom_name(kingdom.campaign, name, exclude=kingdom.pk)
        before_name = kingdom.name
        with Recorder(
            kingdom.campaign, user, "kingdom.updated",
            f"Kingdom {before_name} updated" + (f" (now {name})." if name != before_name else "."),
        ) as rec:
            from campaign.chronicle import snapshot

            before = snapshot(kingdom)
            kingdom.name = name
            kingdom.colour = colour
            if crest_files:
                # The crest it replaces stays on disk: undoing this puts it back.
                _store(kingdom.crest, crest_files[0], written)
                _store(kingdom.crest_thumb, crest_files[1], written)
            rec.saved(kingdom, before)
    return kingdom


def assign_kingdom(kingdom: Kingdom, user: AbstractBaseUser, player: Membership | None,
                   *, claim: bool = False) -> Kingdom:
    """Give a kingdom to a player (GM), claim it (the player themselves, ``claim``: refused if
    it has a player by the time the lock is held), or free it."""
    with transaction.atomic():
        _campaign, kingdom = lock_kingdom(kingdom)
        if claim and kingdom.player_id is not None:
            raise ConflictError(f"{kingdom.name} already has a player: someone claimed it a "
                                "moment earlier.")
        if player is not None:
            if player.role != Role.PLAYER:
                raise ServiceError("Only players can hold a kingdom.")
            if Kingdom.objects.filter(campaign_id=kingdom.campaign_id, player=player).exclude(
                pk=kingdom.pk
            ).exists():
                raise ServiceError(f"{player.user} already has a kingdom in this campaign.")
            summary = f"{player.user} now rules {kingdom.name}."
        else:
            summary = f"{kingdom.name} no longer has a player."
        with Recorder(kingdom.campaign, user, "kingdom.assigned", summary) as rec:
            rec.update(kingdom, player=player)
    return kingdom


def claim_kingdom(kingdom: Kingdom, user: AbstractBaseUser, membership: Membership) -> Kingdom:
    """A player takes a kingdom without a player. Checked under the lock: of two claims at once
    the later one is refused (``ConflictError``), never overwrites the first."""
    if kingdom.player_id is not None:
        raise ConflictError(f"{kingdom.name} already has a player.")
    return assign_kingdom(kingdom, user, membership, claim=True)


# -- map --------------------------------------------------------------------------------------

EDITABLE_TILE_FIELDS = ("terrain", "settlement", "controller", "explored", "is_start", "name")


def grid_for(game_map: Map, tiles: Iterable[Tile] | None = None) -> geometry.Grid:
    adjacency = None
    positions = None
    if game_map.kind == "territory":
        tiles = list(tiles if tiles is not None else game_map.tiles.all())
        adjacency = {t.label: t.adjacent for t in tiles}
        positions = {t.label: (float(t.q), float(t.r)) for t in tiles}
    return geometry.make_grid(
        game_map.kind, game_map.width, game_map.height, game_map.orientation,
        adjacency=adjacency, positions=positions,
    )


def edit_tile(
    tile: Tile,
    user: AbstractBaseUser,
    *,
    changes: dict[str, Any],
    edges: dict[str, list[str]] | None = None,
    features: list[str] | None = None,
    adjacent: list[str] | None = None,
) -> Tile:
    """Change a tile from the map editor. Values are validated against the rule system.

    ``edges`` are keyed as the map keys them: a direction ("0".."5" on hex maps, "0".."3" on
    square maps) or, on territory maps, a neighbour's label. ``adjacent`` (territory maps only)
    is the territory's new list of neighbours: borders go both ways, so each neighbour gained
    lists this territory too, each one lost forgets it, and edge features on a lost border go.
    """
    with transaction.atomic():
        tile = _lock_tile(tile)
        game_map = tile.map
        campaign = game_map.campaign
        system = campaign.system
        _validate_tile_changes(campaign, system, changes, edges, features)
        values = dict(changes)
        linked: set[str] = set()
        unlinked: set[str] = set()
        if adjacent is not None:
            if game_map.kind != MapKind.TERRITORY:
                raise ServiceError("Only territories have neighbours to choose; grid tiles "
                                   "border the tiles around them.")
            new = set(adjacent)
            _check_neighbours(tile, new)
            linked, unlinked = new - set(tile.adjacent), set(tile.adjacent) - new
            values["adjacent"] = sorted(new)
        borders = set(values.get("adjacent", tile.adjacent))
        if edges is not None:
            _check_edge_keys(game_map, borders, edges)
            values["edges"] = {d: sorted(set(f)) for d, f in edges.items() if f}
        elif unlinked:
            values["edges"] = {k: v for k, v in tile.edges.items() if k not in unlinked}
        if features is not None:
            values["features"] = sorted(set(features))
        described = ", ".join(_describe_change(k, v) for k, v in values.items())
        others = {}
        if linked or unlinked:
            for other in Tile.objects.select_for_update().filter(
                    map=game_map, label__in=linked | unlinked):
                others[other.label] = {
                    "adjacent": sorted(set(other.adjacent) | {tile.label}
                                       if other.label in linked
                                       else set(other.adjacent) - {tile.label}),
                    "edges": ({k: v for k, v in other.edges.items() if k != tile.label}
                              if other.label in unlinked else dict(other.edges)),
                    "row": other,
                }
        mirrored = (_mirror_shared_edges(tile, values["edges"], borders, others)
                    if edges is not None else [])
        with Recorder(
            campaign, user, "map.tile", f"Tile {tile.label} edited: {described}.",
            visibility=Visibility.GM,
        ) as rec:
            rec.update(tile, **values)
            for neighbour, neighbour_edges in mirrored:
                if neighbour.label in others:
                    others[neighbour.label]["edges"] = neighbour_edges
                else:
                    rec.update(neighbour, edges=neighbour_edges)
            for label in sorted(others):
                other = others[label]
                rec.update(other["row"], adjacent=other["adjacent"], edges=other["edges"])
    return tile


def _lock_tile(tile: Tile) -> Tile:
    """The tile's campaign, then the tile (campaign.locking)."""
    campaign_id = Map.objects.values_list("campaign_id", flat=True).get(pk=tile.map_id)
    campaign = lock_campaign(campaign_id)
    tile = Tile.objects.select_for_update().select_related("map").get(pk=tile.pk)
    tile.map.campaign = campaign
    return tile


def _check_neighbours(tile: Tile, labels: set[str]) -> None:
    if tile.label in labels:
        raise ServiceError("A territory cannot border itself.")
    found = set(Tile.objects.filter(map=tile.map_id, label__in=labels)
                .values_list("label", flat=True))
    missing = sorted(labels - found)
    if missing:
        raise ServiceError(f"There is no territory {', '.join(missing)} on this map.")


def _check_edge_keys(game_map: Map, borders: set[str], edges: dict[str, list[str]]) -> None:
    """Edge keys as the map kind keys them (see docs/campaign-format.md)."""
    if game_map.kind == MapKind.TERRITORY:
        bad = sorted(set(edges) - borders)
        if bad:
            raise ServiceError(
                f"{', '.join(bad)}: a territory's edges are its borders with its neighbours.")
        return
    sides = 6 if game_map.kind == MapKind.HEX else 4
    bad = sorted(k for k in edges if k not in {str(d) for d in range(sides)})
    if bad:
        raise ServiceError(f"{', '.join(bad)}: not an edge of a {game_map.kind} tile.")


def _mirror_shared_edges(tile: Tile, new_edges: dict[str, list[str]], borders: set[str],
                         pending: dict[str, dict[str, Any]]
                         ) -> list[tuple[Tile, dict[str, list[str]]]]:
    """A river or water edge lies between two tiles: what the tile form adds to or takes from
    one side of ``tile`` goes onto the neighbour's facing side too (as the edge brush does).

    On territory maps the facing side of the border with ``B`` is ``B``'s edge keyed by this
    territory's label. ``pending`` holds neighbours whose row this edit changes anyway.
    """
    game_map = tile.map
    changed = []
    if game_map.kind == MapKind.TERRITORY:
        sides = [(label, label) for label in sorted(borders)]
    else:
        sides = [(str(d), d) for d in range(6 if game_map.kind == MapKind.HEX else 4)]
    grid = grid_for(game_map) if game_map.kind != MapKind.TERRITORY else None
    for key, where in sides:
        before = set(tile.edges.get(key, [])) & SHARED_EDGE_FEATURES
        after = set(new_edges.get(key, [])) & SHARED_EDGE_FEATURES
        if before == after:
            continue
        if grid is None:
            other = Tile.objects.select_for_update().filter(map=game_map, label=where).first()
            side = tile.label
        else:
            nq, nr = grid.step(tile.q, tile.r, where)
            other = Tile.objects.select_for_update().filter(map=game_map, q=nq, r=nr).first()
            side = str(grid.opposite(where))
        if other is None:
            continue
        current = pending[other.label]["edges"] if other.label in pending else other.edges
        edges = {k: list(v) for k, v in current.items()}
        feats = (set(edges.get(side, [])) | (after - before)) - (before - after)
        if feats:
            edges[side] = sorted(feats)
        else:
            edges.pop(side, None)
        changed.append((other, edges))
    return changed


def _describe_change(key: str, value: Any) -> str:
    if key == "controller":
        return f"controller {value.name if value else 'none'}"
    if key in ("edges", "features"):
        return key
    if key == "adjacent":
        return "borders " + (", ".join(value) if value else "none")
    if isinstance(value, bool):
        return f"{key.replace('_', ' ')} {'yes' if value else 'no'}"
    return f"{key} {value or 'none'}"


def _validate_tile_changes(
    campaign: Campaign,
    system: RuleSystem,
    changes: dict[str, Any],
    edges: dict[str, list[str]] | None,
    features: list[str] | None,
) -> None:
    unknown = set(changes) - set(EDITABLE_TILE_FIELDS)
    if unknown:
        raise ServiceError(f"Cannot edit {', '.join(sorted(unknown))} here.")
    if "terrain" in changes and system.terrain(changes["terrain"]) is None:
        raise ServiceError(f"Unknown terrain {changes['terrain']!r}.")
    settlements = {c.slug for c in system.settlements}
    if changes.get("settlement") and changes["settlement"] not in settlements:
        raise ServiceError(f"Unknown settlement {changes['settlement']!r}.")
    controller = changes.get("controller")
    if controller is not None and controller.campaign_id != campaign.pk:
        raise ServiceError("That kingdom is not part of this campaign.")
    edge_slugs = {c.slug for c in system.edge_features}
    for feats in (edges or {}).values():
        bad = set(feats) - edge_slugs
        if bad:
            raise ServiceError(f"Unknown edge feature(s): {', '.join(sorted(bad))}.")
    if features is not None and set(features) - edge_slugs - {"coast", "river"}:
        raise ServiceError("Unknown tile feature.")


def paint_tile(tile: Tile, user: AbstractBaseUser, *, tool: str, value: str,
               direction: int | str | None = None) -> Tile:
    """One click of the map editor's brush.

    Tools: ``terrain`` (value: terrain slug), ``settlement`` (slug or "" to clear), ``controller``
    (kingdom id or "" for none), ``explored`` / ``start`` (toggle), ``edge`` (value: feature slug,
    toggled on the clicked side, a direction on grids or the neighbour's label on territory maps;
    rivers and water are toggled on both sides of the edge), ``link`` (territory maps; value: the
    other territory's label, whose border with this one is added or removed).
    """
    campaign = tile.map.campaign
    if tool == "terrain":
        return edit_tile(tile, user, changes={"terrain": value})
    if tool == "settlement":
        return edit_tile(tile, user, changes={"settlement": value})
    if tool == "controller":
        kingdom = None
        if value:
            kingdom = Kingdom.objects.filter(campaign=campaign, pk=_int(value, "kingdom")).first()
            if kingdom is None:
                raise ServiceError("That kingdom is not part of this campaign.")
        return edit_tile(tile, user, changes={"controller": kingdom, "explored": True} if kingdom
                         else {"controller": None})
    if tool == "explored":
        return edit_tile(tile, user, changes={"explored": not tile.explored})
    if tool == "start":
        return edit_tile(tile, user, changes={"is_start": not tile.is_start})
    if tool == "edge":
        if direction is None:
            raise ServiceError("Pick an edge: tap near the side of the tile.")
        return toggle_edge(tile, user, direction=direction, feature=value)
    if tool == "link":
        return toggle_link(tile, user, value)
    raise ServiceError(f"Unknown editor tool {tool!r}.")


def toggle_link(tile: Tile, user: AbstractBaseUser, other_label: str) -> Tile:
    """Add the border between two territories, or remove it (and its edge features), on both
    sides at once."""
    if tile.map.kind != MapKind.TERRITORY:
        raise ServiceError("Only territories are linked by hand; grid tiles border the tiles "
                           "around them.")
    if not other_label:
        raise ServiceError("Tap a second territory to link it with the first.")
    current = set(tile.adjacent)
    new = current - {other_label} if other_label in current else current | {other_label}
    return edit_tile(tile, user, changes={}, adjacent=sorted(new))


SHARED_EDGE_FEATURES = {"river", "water"}


def toggle_edge(tile: Tile, user: AbstractBaseUser, *, direction: int | str,
                feature: str) -> Tile:
    """Put ``feature`` on one side of a tile's edge, or take it off; rivers and water lie on both
    sides. ``direction`` is the edge's key: a direction on grids, a neighbour on territory maps."""
    with transaction.atomic():
        tile = _lock_tile(tile)
        game_map = tile.map
        campaign = game_map.campaign
        if feature not in {c.slug for c in campaign.system.edge_features}:
            raise ServiceError(f"Unknown edge feature {feature!r}.")
        other: Tile | None = None
        if game_map.kind == MapKind.TERRITORY:
            if not isinstance(direction, str) or direction not in tile.adjacent:
                raise ServiceError("That is not a border of this territory.")
            key, facing = direction, tile.label
            if feature in SHARED_EDGE_FEATURES:
                other = Tile.objects.select_for_update().filter(map=game_map,
                                                                label=direction).first()
        else:
            sides = 6 if game_map.kind == MapKind.HEX else 4
            if isinstance(direction, str) or not 0 <= direction < sides:
                raise ServiceError("That is not an edge of this tile.")
            grid = grid_for(game_map)
            key, facing = str(direction), str(grid.opposite(direction))
            if feature in SHARED_EDGE_FEATURES:
                nq, nr = grid.step(tile.q, tile.r, direction)
                other = Tile.objects.select_for_update().filter(map=game_map, q=nq,
                                                                r=nr).first()
        current = set(tile.edges.get(key, []))
        adding = feature not in current
        targets: list[tuple[Tile, str]] = [(tile, key)]
        if other is not None:
            targets.append((other, facing))
        verb = "added to" if adding else "removed from"
        with Recorder(
            campaign, user, "map.edge",
            f"{feature.capitalize()} {verb} an edge of {tile.label}.", visibility=Visibility.GM,
        ) as rec:
            for target, side in targets:
                edges = {k: list(v) for k, v in target.edges.items()}
                feats = set(edges.get(side, []))
                feats = feats | {feature} if adding else feats - {feature}
                if feats:
                    edges[side] = sorted(feats)
                else:
                    edges.pop(side, None)
                rec.update(target, edges=edges)
    return tile


def regenerate_map(
    campaign: Campaign,
    user: AbstractBaseUser,
    *,
    seed: int | None,
    width: int,
    height: int,
    orientation: str,
) -> Map:
    """Replace the whole map with a new one (random from ``seed``, or blank).

    A campaign without a map (one made in the admin, or imported without one) gets its first map
    here, in its system's style. Territory maps are drawn by hand: neither the generator nor a
    blank grid can replace one, so that is refused.
    """
    if not (3 <= width <= 100 and 3 <= height <= 100):
        raise ServiceError("A map is between 3 and 100 tiles wide and high.")
    if orientation not in ("flat", "pointy"):
        raise ServiceError("Orientation is flat or pointy.")
    with transaction.atomic():
        campaign = lock_campaign(campaign)
        game_map = Map.objects.select_for_update().filter(campaign=campaign).first()
        kind = game_map.kind if game_map is not None else campaign.system.map_style.kind
        if kind == MapKind.TERRITORY:
            raise ServiceError(TERRITORY_NOT_GENERATED)
        how = f"from seed {seed}" if seed is not None else "blank"
        with Recorder(
            campaign, user, "map.generated",
            f"New {width}x{height} map ({how}).", data={"seed": seed},
        ) as rec:
            if game_map is None:
                game_map = rec.create(Map(campaign=campaign, kind=kind, seed=seed, width=width,
                                          height=height, orientation=orientation))
            else:
                rec.delete_many(Tile.objects.filter(map=game_map))
                rec.update(game_map, seed=seed, width=width, height=height,
                           orientation=orientation)
            rec.create_many(Tile, _tiles_for(campaign.system, game_map, seed))
    return game_map


TERRITORY_NOT_GENERATED = (
    "This is a territory map: its territories and their borders are drawn by hand, so a random "
    "or blank grid cannot replace it. Change territories and their links in the editor instead."
)


def random_seed() -> int:
    return random.SystemRandom().randrange(1, 10**9)


def _int(value: str, what: str) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise ServiceError(f"Not a valid {what}.") from None


# -- photos -----------------------------------------------------------------------------------


def add_photo(campaign: Campaign, user: AbstractBaseUser, upload: Any, caption: str) -> Photo:
    image, thumb = process_photo(upload)
    with _files_of_this_write() as written, transaction.atomic():
        campaign = lock_campaign(campaign)
        photo = Photo(
            campaign=campaign,
            uploaded_by=user,
            caption=caption,
            year=campaign.year,
            season=campaign.season,
            month=campaign.month,
            phase=campaign.phase,
        )
        _store(photo.image, image, written)
        _store(photo.thumbnail, thumb, written)
        with Recorder(
            campaign, user, "photo.added",
            f"{user} added a photo of the table" + (f": {caption}" if caption else "."),
        ) as rec:
            rec.create(photo)
    return photo


def member_counts(campaign: Campaign) -> dict[str, int]:
    rows = Membership.objects.filter(campaign=campaign).values("role").annotate(n=Count("id"))
    return {row["role"]: row["n"] for row in rows}
