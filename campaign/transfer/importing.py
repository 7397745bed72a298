"""Import: a new campaign from a checked campaign file (docs/campaign-file.md).

``import_campaign(data, user, slug=None)`` checks the whole document before writing anything and
raises ``ImportRefused`` with a message that names the problem and where it is
(``campaign.map.tiles[12].controller: ...``): besides types and references, that the clock is
one the rule system can be at, that tiles lie on their map and carry the labels their positions
have, that edges are keyed as the map kind keys them, that every balance is the sum of its
ledger entries, that the address is free and not one of the site's own pages, and that no value
is nested too deeply or holds what a database cannot store. The rule system's section is checked
by its own module (campaign.transfer.sections). Everything is then written in one transaction,
ending with one chronicle event, "imported".

Only the importing user becomes a member (its GM): people named in the file are not made members
of a campaign they did not ask to join, and the import never says which usernames exist on this
site. Their kingdoms come in unclaimed; the import notes list who held what in the file, so the
GM can invite them again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Iterable

from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import IntegrityError, transaction
from django.urls import Resolver404, resolve
from django.utils import timezone

from battles.models import Army, ArmyList, Battle, Unit, UnitStrengthEvent
from campaign.chronicle import Recorder
from campaign.forms import RESERVED_SLUGS
from campaign.models import (
    Campaign,
    Event,
    Kingdom,
    Map,
    MapKind,
    Membership,
    Photo,
    Role,
    Tile,
    Visibility,
)
from campaign.rules import geometry
from campaign.rules.options import OptionError
from campaign.rulesystems import REGISTRY, get_system
from campaign.transfer.base import (
    BATCH_SIZE,
    FORMAT,
    IMPORT_EVENT,
    READS,
    SLUG_RE,
    ImportRefused,
    Node,
    Refs,
    army_ref,
    battle_ref,
    bulk_create,
    check_values,
    clock_fields,
    insert_as_given,
    kind_of,
    max_length,
    unique,
    unit_ref,
)
from campaign.transfer.gm_words import plan_gm_words, write_gm_words
from campaign.transfer.sections import PlanContext, WriteContext, section_module
from campaign.transfer.sections import json_refs as section_json_refs
from ledger.models import Balance, LedgerEntry


def is_reserved(slug: str) -> bool:
    """Whether ``/c/<slug>/`` is one of the site's own pages (such as /c/new/ or /c/import/)
    rather than a campaign's address."""
    if slug in RESERVED_SLUGS:
        return True
    try:
        match = resolve(f"/c/{slug}/")
    except Resolver404:
        return False
    return match.view_name != "campaign:detail"


@dataclass
class _Plan:
    """Everything a document says, checked, with references still as natural keys."""

    slug: str
    campaign: dict[str, Any]
    members: list[tuple[str, str]]
    kingdoms: list[dict[str, Any]]
    map: dict[str, Any] | None
    tiles: list[dict[str, Any]]
    armies: list[dict[str, Any]]
    entries: list[dict[str, Any]]
    balances: list[dict[str, Any]]
    photos: list[dict[str, Any]]
    events: list[dict[str, Any]]
    battles: list[dict[str, Any]] = field(default_factory=list)
    army_lists: list[dict[str, Any]] = field(default_factory=list)
    # The rule system's section module and its checked section (campaign.transfer.sections).
    section_module: ModuleType | None = None
    section: Any = None
    # The unit catalogue, notes and chronicle entries (version 4 on; campaign.transfer.gm_words).
    gm_words: dict[str, Any] = field(default_factory=dict)
    # Whether JSON fields carry reference strings to turn into the new ids (version 2 on).
    translate: bool = False
    # The file's own "exported_at", kept with the import event (informational).
    exported_at: str | None = None


def _check_header(data: Any) -> Node:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ImportRefused(
            "This is not a Hexkeep campaign file (its \"format\" is not "
            f"{FORMAT!r})."
        )
    version = data.get("version")
    if isinstance(version, bool) or not isinstance(version, int):
        raise ImportRefused(
            f"version: expected a whole number ({_versions()}), got {kind_of(version)}."
        )
    if version not in READS:
        raise ImportRefused(
            f"This file is version {version}; version {version} is not supported "
            f"(this site reads {_versions()})."
        )
    return Node(data, "").node("campaign")


def _versions() -> str:
    if len(READS) == 1:
        return f"version {READS[0]}"
    return "versions " + ", ".join(map(str, READS[:-1])) + f" and {READS[-1]}"


COLOUR_RE = re.compile(r"#[0-9a-fA-F]{6}\Z")
# Tile labels are part of addresses (/c/<slug>/map/tiles/<label>/): no slash or backslash, none
# of ? # % (they would need escaping everywhere), no control characters, no "." or "..", and no
# spaces at either end.
_LABEL_BAD = re.compile(r"[/\\?#%\x00-\x1f\x7f]")


def _check_label(label: str, path: str) -> None:
    if _LABEL_BAD.search(label) or label in (".", "..") or label != label.strip():
        raise ImportRefused(
            f"{path}: {label!r} cannot be a tile label: labels are used in addresses, so they "
            "hold no /, \\, ?, # or %, no control characters, and no spaces at either end."
        )


def _shown(value: Any) -> str:
    return repr(value) if isinstance(value, str) else kind_of(value)


def _check_edges(edges: dict[str, Any], path: str, grid: Any, adjacent: list[str],
                 known: set[str], system_label: str) -> None:
    """Edge keys as the map kind keys them (a direction on grids, a neighbour's label on
    territory maps) and lists of the system's edge features as values."""
    for key, feats in edges.items():
        where = f"{path}.{key}"
        if grid is not None:
            if not (key.isascii() and key.isdigit() and int(key) < grid.edge_count):
                raise ImportRefused(
                    f"{where}: {key!r} is not an edge of a {grid.kind} tile (the edges are "
                    f"0 to {grid.edge_count - 1})."
                )
        elif key not in adjacent:
            raise ImportRefused(
                f"{where}: {key!r} does not border this territory (a territory's edges are "
                "keyed by the labels in its 'adjacent')."
            )
        if not isinstance(feats, list):
            raise ImportRefused(f"{where}: expected a list of edge features, got {kind_of(feats)}.")
        for i, feature in enumerate(feats):
            if not isinstance(feature, str) or feature not in known:
                raise ImportRefused(
                    f"{where}[{i}]: {_shown(feature)} is not an edge feature of {system_label} "
                    f"({', '.join(sorted(known))})."
                )


def _check_borders(tiles: list[dict[str, Any]], nodes: list[Node]) -> None:
    """Territory borders go both ways: if A lists B, B lists A."""
    listed = {t["label"]: set(t["adjacent"]) for t in tiles}
    for tile, node in zip(tiles, nodes):
        for other in tile["adjacent"]:
            if tile["label"] not in listed[other]:
                raise ImportRefused(
                    f"{node.at('adjacent')}: {tile['label']!r} borders {other!r}, but {other!r} "
                    f"does not list {tile['label']!r} among its neighbours."
                )


def _dice(node: Node) -> list[Any]:
    """An event's rolls as the chronicle keeps them: {"purpose", "values", "source"}."""
    rolls = node.array("dice", default=[])
    for i, roll in enumerate(rolls):
        where = f"{node.at('dice')}[{i}]"
        if not isinstance(roll, dict):
            raise ImportRefused(f"{where}: expected a roll (an object), got {kind_of(roll)}.")
        values = roll.get("values", [])
        if not isinstance(values, list) or any(
            isinstance(v, bool) or not isinstance(v, int) for v in values
        ):
            raise ImportRefused(f"{where}.values: expected a list of whole numbers.")
        for key in ("purpose", "source"):
            if key in roll and not isinstance(roll[key], str):
                raise ImportRefused(f"{where}.{key}: expected a string, got {kind_of(roll[key])}.")
    return rolls


def _plan(data: Any, slug: str | None) -> _Plan:
    root = _check_header(data)
    check_values(data)
    version = data["version"]
    translate = version >= 2

    # -- the campaign itself ---------------------------------------------------------------------
    rule_system = root.text("rule_system")
    if rule_system not in REGISTRY or get_system(rule_system).read_only:
        known = ", ".join(sorted(REGISTRY))
        raise ImportRefused(
            f"{root.at('rule_system')}: unknown rule system {rule_system!r} "
            f"(this site knows {known})."
        )
    system = get_system(rule_system)
    options = root.obj("options", default={})
    try:
        system.parse_options(options)
    except OptionError as exc:
        raise ImportRefused(f"{root.at('options')}: {exc}") from None
    file_slug = root.text("slug", max_length=max_length(Campaign, "slug"), blank=False)
    chosen = slug if slug else file_slug
    if not SLUG_RE.match(chosen) or len(chosen) > max_length(Campaign, "slug"):
        where = "the new slug" if slug else root.at("slug")
        raise ImportRefused(
            f"{where}: {chosen!r} is not a valid address (letters, digits, - and _, "
            "at most 60 characters)."
        )
    if is_reserved(chosen):
        where = "the new slug" if slug else root.at("slug")
        raise ImportRefused(
            f"{where}: {chosen!r} cannot be a campaign's address: /c/{chosen}/ is a page of this "
            "site. Import it under another slug."
        )
    campaign = {
        "name": root.text("name", max_length=max_length(Campaign, "name"), blank=False),
        "rule_system": rule_system,
        "description": root.text("description", default=""),
        "options": options,
        "state": root.obj("state", default={}),
        "paper_size": root.choice("paper_size", ["a4", "letter"], default="a4"),
        "eco_print": root.boolean("eco_print", default=False),
        **clock_fields(root, "clock", sub_phase=True),
    }
    problem = system.clock_problem(campaign)
    if problem:
        raise ImportRefused(
            f"{root.at('clock')}: a {system.label} campaign cannot be at this point: {problem}"
        )

    def username(node: Node, key: str) -> str | None:
        return node.optional_text(key, max_length=150)

    # -- members ---------------------------------------------------------------------------------
    members: list[tuple[str, str]] = []
    seen: dict[Any, str] = {}
    for node in root.nodes("members", default=[]):
        name = node.text("username", max_length=150, blank=False)
        unique(seen, name, node.at("username"), f"member {name!r}")
        members.append((name, node.choice("role", Role.values)))
    member_names = {name for name, _ in members}

    # -- the map (before kingdoms, which name their start and capital tiles) ---------------------
    game_map = None
    tiles: list[dict[str, Any]] = []
    labels: set[str] = set()
    tile_nodes: list[Node] = []
    grid: geometry.HexGrid | geometry.SquareGrid | None = None
    wanted_kind = system.map_style.kind
    wanted = MapKind(wanted_kind).label.lower()
    if root.raw("map", None) is None and system.map_required:
        raise ImportRefused(
            f"{root.at('map')}: a {system.label} campaign needs its map (a {wanted}), and this "
            "file has none."
        )
    if root.raw("map", None) is not None:
        map_node = root.node("map")
        kind = map_node.choice("kind", MapKind.values)
        if system.map_required and kind != wanted_kind:
            raise ImportRefused(
                f"{map_node.at('kind')}: {system.label} is played on a {wanted}, not on "
                f"{MapKind(kind).label.lower()}."
            )
        # A grid's size bounds its tiles and sets its labels; a territory map has no size.
        side = geometry.MAX_SIDE if kind != MapKind.TERRITORY else 32767
        game_map = {
            "kind": kind,
            "orientation": map_node.choice("orientation", ["flat", "pointy"], default="flat"),
            "width": map_node.integer("width", minimum=1 if side < 32767 else 0, maximum=side),
            "height": map_node.integer("height", minimum=1 if side < 32767 else 0, maximum=side),
            "seed": map_node.integer(
                "seed", minimum=-(2**63), maximum=2**63 - 1, default=None, null=True
            ),
        }
        if kind != MapKind.TERRITORY:
            grid = geometry.make_grid(kind, game_map["width"], game_map["height"],
                                      game_map["orientation"])
        tile_nodes = map_node.nodes("tiles", default=[])
        seen_labels: dict[Any, str] = {}
        seen_positions: dict[Any, str] = {}
        for node in tile_nodes:
            label = node.text("label", max_length=max_length(Tile, "label"), blank=False)
            _check_label(label, node.at("label"))
            unique(seen_labels, label, node.at("label"), f"tile label {label!r}")
            labels.add(label)
            q = node.integer("q", minimum=-(2**31), maximum=2**31 - 1)
            r = node.integer("r", minimum=-(2**31), maximum=2**31 - 1)
            unique(seen_positions, (q, r), node.path, f"position ({q}, {r})")
            if grid is not None:
                size = f"{game_map['width']} x {game_map['height']}"
                if not grid.contains(q, r):
                    raise ImportRefused(
                        f"{node.path}: position ({q}, {r}) is off the {size} {kind} map."
                    )
                if label != grid.label(q, r):
                    raise ImportRefused(
                        f"{node.at('label')}: {label!r} is not the label of position ({q}, {r}), "
                        f"which is {grid.label(q, r)!r} on this {size} {kind} map."
                    )
    terrains = {t.slug for t in system.terrains}
    settlements = {c.slug for c in system.settlements}
    edge_features = {c.slug for c in system.edge_features}
    # Tile-level features: the map generator marks coasts and rivers on the tile itself too.
    tile_features = edge_features | {"coast", "river"}

    # -- kingdoms --------------------------------------------------------------------------------
    kingdoms: list[dict[str, Any]] = []
    seen = {}
    players: dict[Any, str] = {}
    for node in root.nodes("kingdoms", default=[]):
        name = node.text("name", max_length=max_length(Kingdom, "name"), blank=False)
        unique(seen, name, node.at("name"), f"kingdom {name!r}")
        player = node.optional_text("player", max_length=150)
        if player is not None:
            if player not in member_names:
                raise ImportRefused(f"{node.at('player')}: {player!r} is not a member.")
            unique(players, player, node.at("player"), f"player {player!r}")
        colour = node.text("colour", max_length=max_length(Kingdom, "colour"),
                           default="#8a2f2f")
        if not COLOUR_RE.match(colour):
            raise ImportRefused(f"{node.at('colour')}: {colour!r} is not a colour as #rrggbb.")
        kingdom = {
            "name": name,
            "colour": colour,
            "player": player,
            "order_position": node.integer(
                "order_position", minimum=0, maximum=32767, default=None, null=True
            ),
            "data": node.obj("data", default={}),
            "crest": node.image("crest", kind="crest"),
            "crest_thumb": node.image("crest_thumb", kind="crest_thumb"),
        }
        for key in ("start_tile", "capital_tile"):
            label = node.optional_text(key)
            if label is not None and label not in labels:
                raise ImportRefused(f"{node.at(key)}: no tile labelled {label!r} on the map.")
            kingdom[key] = label
        kingdoms.append(kingdom)
    kingdom_names = {k["name"] for k in kingdoms}

    def kingdom_ref(node: Node, key: str, *, null: bool) -> str | None:
        name = node.optional_text(key) if null else node.text(key)
        if name is not None and name not in kingdom_names:
            raise ImportRefused(f"{node.at(key)}: no kingdom named {name!r}.")
        return name

    def tile_ref(node: Node, key: str) -> str | None:
        label = node.optional_text(key)
        if label is not None and label not in labels:
            raise ImportRefused(f"{node.at(key)}: no tile labelled {label!r} on the map.")
        return label

    # -- tiles -----------------------------------------------------------------------------------
    for node in tile_nodes:
        terrain = node.text("terrain", max_length=max_length(Tile, "terrain"))
        if terrain not in terrains:
            raise ImportRefused(
                f"{node.at('terrain')}: unknown terrain {terrain!r} for {system.label}."
            )
        settlement = node.text("settlement", max_length=max_length(Tile, "settlement"),
                               default="")
        if settlement and settlement not in settlements:
            raise ImportRefused(
                f"{node.at('settlement')}: unknown settlement {settlement!r} for {system.label}."
            )
        adjacent = node.array("adjacent", default=[])
        if adjacent and grid is not None:
            raise ImportRefused(
                f"{node.at('adjacent')}: only territory maps list their neighbours; on a "
                f"{grid.kind} map they follow from the grid."
            )
        neighbours: dict[Any, str] = {}
        for i, label in enumerate(adjacent):
            where = f"{node.at('adjacent')}[{i}]"
            if not isinstance(label, str):
                raise ImportRefused(f"{where}: expected a tile label, got {kind_of(label)}.")
            if label not in labels:
                raise ImportRefused(f"{where}: no tile labelled {label!r} on the map.")
            if label == node.value["label"]:
                raise ImportRefused(f"{where}: a territory cannot border itself.")
            unique(neighbours, label, where, f"neighbour {label!r}")
        features = node.array("features", default=[])
        for i, feature in enumerate(features):
            if not isinstance(feature, str) or feature not in tile_features:
                raise ImportRefused(
                    f"{node.at('features')}[{i}]: {_shown(feature)} is not a tile feature of "
                    f"{system.label} ({', '.join(sorted(tile_features))})."
                )
        edges = node.obj("edges", default={})
        _check_edges(edges, node.at("edges"), grid, adjacent, edge_features, system.label)
        tiles.append(
            {
                "q": node.value["q"],
                "r": node.value["r"],
                "label": node.value["label"],
                "name": node.text("name", max_length=max_length(Tile, "name"), default=""),
                "terrain": terrain,
                "features": features,
                "edges": edges,
                "adjacent": adjacent,
                "settlement": settlement,
                "controller": kingdom_ref(node, "controller", null=True),
                "explored": node.boolean("explored", default=False),
                "is_start": node.boolean("is_start", default=False),
                "data": node.obj("data", default={}),
            }
        )

    if grid is None:
        _check_borders(tiles, tile_nodes)

    # -- armies -----------------------------------------------------------------------------------
    armies: list[dict[str, Any]] = []
    seen = {}
    for node in root.nodes("armies", default=[]):
        kingdom = kingdom_ref(node, "kingdom", null=False)
        number = node.integer("number", minimum=0, maximum=32767)
        unique(seen, (kingdom, number), node.path, f"army #{number} of {kingdom}")
        armies.append(
            {
                "kingdom": kingdom,
                "number": number,
                "name": node.text("name", max_length=max_length(Army, "name"), default=""),
                "tile": tile_ref(node, "tile"),
                "points": node.integer("points", minimum=0, maximum=32767),
                "on_side": node.boolean("on_side", default=False),
                "defending": node.boolean("defending", default=False),
                "is_allied": node.boolean("is_allied", default=False),
                "data": node.obj("data", default={}),
            }
        )
    army_keys = set(seen)

    # -- events (before the ledger, whose entries cite them) -------------------------------------
    event_nodes = root.nodes("events", default=[])
    seqs: dict[Any, str] = {}
    for node in event_nodes:
        seq = node.integer("seq", minimum=1, maximum=2**31 - 1)
        unique(seqs, seq, node.at("seq"), f"event #{seq}")
    events: list[dict[str, Any]] = []
    undone: dict[Any, str] = {}
    for node in event_nodes:
        undo_of = node.integer("undo_of", minimum=1, default=None, null=True)
        if undo_of is not None:
            if undo_of not in seqs:
                raise ImportRefused(f"{node.at('undo_of')}: there is no event #{undo_of}.")
            if undo_of == node.value["seq"]:
                raise ImportRefused(f"{node.at('undo_of')}: an event cannot undo itself.")
            unique(undone, undo_of, node.at("undo_of"), f"the undo of event #{undo_of}")
        events.append(
            {
                "seq": node.value["seq"],
                "actor": username(node, "actor"),
                "created_at": node.timestamp("created_at"),
                **clock_fields(node, "clock"),
                "kind": node.text("kind", max_length=max_length(Event, "kind"), blank=False),
                "summary": node.text("summary"),
                "dice": _dice(node),
                "data": node.obj("data", default={}),
                "visibility": node.choice("visibility", Visibility.values,
                                          default=Visibility.PUBLIC),
                "kingdom": kingdom_ref(node, "kingdom", null=True),
                "undone_at": node.timestamp("undone_at", null=True),
                "undone_by": username(node, "undone_by"),
                "undo_of": undo_of,
            }
        )

    # -- the ledger ------------------------------------------------------------------------------
    if root.raw("ledger", None) is not None:
        ledger = root.node("ledger")
    else:
        ledger = Node({}, root.at("ledger"))
    entries: list[dict[str, Any]] = []
    for node in ledger.nodes("entries", default=[]):
        seq = node.integer("event", minimum=1, default=None, null=True)
        if seq is not None and seq not in seqs:
            raise ImportRefused(f"{node.at('event')}: there is no event #{seq}.")
        entries.append(
            {
                "kingdom": kingdom_ref(node, "kingdom", null=False),
                "resource": node.text("resource", max_length=max_length(LedgerEntry, "resource"),
                                      blank=False),
                "amount": node.integer("amount", minimum=-(2**31), maximum=2**31 - 1),
                "rule_id": node.text("rule_id", max_length=max_length(LedgerEntry, "rule_id")),
                "source": node.text("source", max_length=max_length(LedgerEntry, "source")),
                "event": seq,
                **clock_fields(node, "clock"),
                "created_at": node.timestamp("created_at"),
            }
        )
    balances: list[dict[str, Any]] = []
    seen = {}
    for node in ledger.nodes("balances", default=[]):
        kingdom = kingdom_ref(node, "kingdom", null=False)
        resource = node.text("resource", max_length=max_length(Balance, "resource"), blank=False)
        unique(seen, (kingdom, resource), node.path, f"the {resource} balance of {kingdom}")
        balances.append(
            {
                "kingdom": kingdom,
                "resource": resource,
                "amount": node.integer("amount", minimum=0, maximum=2**31 - 1),
                "path": node.path,
            }
        )
    if entries:
        _check_money(entries, balances, ledger.at("entries"))
    else:
        entries = _opening_entries(balances, campaign)

    # -- photos ----------------------------------------------------------------------------------
    photos: list[dict[str, Any]] = []
    for node in root.nodes("photos", default=[]):
        image = node.image("image", kind="photo")
        if image is None:
            raise ImportRefused(f"{node.at('image')}: a photo needs its image.")
        photos.append(
            {
                "caption": node.text("caption", max_length=max_length(Photo, "caption"),
                                     default=""),
                "uploaded_by": username(node, "uploaded_by"),
                **clock_fields(node, "clock"),
                "created_at": node.timestamp("created_at"),
                "image": image,
            }
        )

    forces = _plan_forces(root, kingdom_names, labels, seqs, army_keys)
    gm_words = plan_gm_words(root, kingdom_names, labels, set(seqs))

    # -- the rule system's own section, then the references inside the core's JSON values -------
    module = section_module(system)
    context = PlanContext(
        system=system,
        version=0,
        translate=translate,
        options=options,
        kingdoms=kingdom_names,
        tiles=labels,
        events=set(seqs),
        armies=army_keys,
        battles={b["key"] for b in forces["battles"]},
        units={u["key"]: a["kingdom"] for a in forces["army_lists"] for u in a["units"]},
        json_refs=section_json_refs(module),
    )
    section = _plan_section(root, version, module, context)
    if translate:
        _check_json_refs(campaign, events, forces, context)

    return _Plan(
        slug=chosen,
        campaign=campaign,
        members=members,
        kingdoms=kingdoms,
        map=game_map,
        tiles=tiles,
        armies=armies,
        entries=entries,
        balances=balances,
        photos=photos,
        events=events,
        gm_words=gm_words,
        battles=forces["battles"],
        army_lists=forces["army_lists"],
        section_module=module,
        section=section,
        translate=translate,
        exported_at=(data["exported_at"][:40] if isinstance(data.get("exported_at"), str)
                     else None),
    )


def _plan_section(root: Node, version: int, module: ModuleType | None,
                  context: PlanContext) -> Any:
    """Check the rule system's section with its own module (campaign.transfer.sections).

    Version 3 files keep it in ``campaign.systems.<slug>`` with its own ``version``; a section
    left out is read as empty. Older files kept Mighty Kingdoms' lists at the top level of
    ``campaign``, read as section version 1.
    """
    slug = context.system.slug
    if version < 3:
        if module is None:
            return None
        context.version = 1
        return module.plan_section(root, context)
    systems = Node(root.obj("systems", default={}), root.at("systems"))
    for other in systems.value:
        if other != slug:
            raise ImportRefused(
                f"{systems.at(other)}: this is a {context.system.label} campaign; it has no "
                f"section for another rule system ({other!r})."
            )
    if module is None:
        if slug in systems.value:
            raise ImportRefused(
                f"{systems.at(slug)}: {context.system.label} keeps nothing of its own in a "
                "campaign file on this site, so this section cannot be read."
            )
        return None
    node = systems.node(slug) if slug in systems.value else Node({}, systems.at(slug))
    newest = module.SECTION_VERSION
    section_version = node.integer("version", minimum=1, default=newest)
    if section_version > newest:
        raise ImportRefused(
            f"{node.at('version')}: this site reads {context.system.label} sections up to "
            f"version {newest}, not version {section_version}."
        )
    context.version = section_version
    return module.plan_section(node, context)


def _check_money(entries: list[dict[str, Any]], balances: list[dict[str, Any]],
                 entries_path: str) -> None:
    """Every balance is the sum of its kingdom's entries for that resource (DESIGN principle 4:
    balances are derived from entries); a sum without a balance must be 0."""
    sums: dict[tuple[str, str], int] = {}
    for entry in entries:
        key = (entry["kingdom"], entry["resource"])
        sums[key] = sums.get(key, 0) + entry["amount"]
    for balance in balances:
        kingdom, resource = balance["kingdom"], balance["resource"]
        total = sums.pop((kingdom, resource), 0)
        if total != balance["amount"]:
            raise ImportRefused(
                f"{balance['path']}: the {resource} balance of {kingdom} is "
                f"{balance['amount']}, but its ledger entries add up to {total}."
            )
    for (kingdom, resource), total in sorted(sums.items()):
        if total != 0:
            raise ImportRefused(
                f"{entries_path}: the {resource} entries of {kingdom} add up to {total}, but "
                f"the file gives {kingdom} no {resource} balance."
            )


OPENING_SOURCE = "Balance carried over from the imported file"


def _opening_entries(balances: list[dict[str, Any]],
                     campaign: dict[str, Any]) -> list[dict[str, Any]]:
    """For a file that stores balances but no entries: one entry per balance that is not 0, so
    that every balance is again the sum of its entries. They are booked at the campaign's clock,
    at the time of the import, with no rule ID and no event."""
    now = timezone.now()
    return [
        {
            "kingdom": balance["kingdom"],
            "resource": balance["resource"],
            "amount": balance["amount"],
            "rule_id": "",
            "source": OPENING_SOURCE,
            "event": None,
            "year": campaign["year"],
            "season": campaign["season"],
            "month": campaign["month"],
            "phase": campaign["phase"],
            "created_at": now,
        }
        for balance in balances
        if balance["amount"] != 0
    ]


def _plan_forces(
    root: Node, kingdom_names: set[str], labels: set[str], seqs: dict[Any, str],
    army_keys: set[Any],
) -> dict[str, Any]:
    """Check the battles and army lists (with units and Unit Strength) of a document."""



    def kingdom(node: Node, key: str) -> str:
        name = node.text(key)
        if name not in kingdom_names:
            raise ImportRefused(f"{node.at(key)}: no kingdom named {name!r}.")
        return name

    def tile(node: Node, key: str, *, null: bool) -> str | None:
        label = node.optional_text(key) if null else node.text(key)
        if label is not None and label not in labels:
            raise ImportRefused(f"{node.at(key)}: no tile labelled {label!r} on the map.")
        return label

    def event(node: Node, key: str) -> int | None:
        seq = node.integer(key, minimum=1, default=None, null=True)
        if seq is not None and seq not in seqs:
            raise ImportRefused(f"{node.at(key)}: there is no event #{seq}.")
        return seq

    def ref(node: Node, key: str, known: Iterable[str], what: str) -> str | None:
        value = node.optional_text(key)
        if value is not None and value not in known:
            raise ImportRefused(f"{node.at(key)}: no {what} {value!r} in this file.")
        return value

    def small(node: Node, key: str, **kwargs: Any) -> int | None:
        return node.integer(key, minimum=0, maximum=32767, **kwargs)

    def big(node: Node, key: str, **kwargs: Any) -> int | None:
        return node.integer(key, minimum=0, maximum=2**31 - 1, **kwargs)

    # -- battles ---------------------------------------------------------------------------------
    battles: list[dict[str, Any]] = []
    seen: dict[Any, str] = {}
    for node in root.nodes("battles", default=[]):
        year, month, seq = big(node, "year"), small(node, "month"), small(node, "seq")
        key = battle_ref(year, month, seq)  # type: ignore[arg-type]
        unique(seen, key, node.path, f"battle {key}")
        battles.append(
            {
                "key": key,
                "year": year,
                "month": month,
                "seq": seq,
                "tile": tile(node, "tile", null=False),
                "kind": node.text("kind", max_length=max_length(Battle, "kind"), blank=False),
                "mode": node.text("mode", max_length=max_length(Battle, "mode"), default=""),
                "chooser": kingdom(node, "chooser"),
                "opponent": kingdom(node, "opponent"),
                "status": node.choice("status", Battle.Status.values,
                                      default=Battle.Status.PENDING),
                "result_chooser": node.text(
                    "result_chooser", max_length=max_length(Battle, "result_chooser"), default=""
                ),
                "result_opponent": node.text(
                    "result_opponent", max_length=max_length(Battle, "result_opponent"),
                    default="",
                ),
                "data": node.obj("data", default={}),
                "created_at": node.timestamp("created_at"),
            }
        )
    battle_keys = set(seen)

    # -- army lists, their units and each unit's Unit Strength history ---------------------------
    army_lists: list[dict[str, Any]] = []
    seen = {}
    marks: dict[Any, str] = {}
    for node in root.nodes("army_lists", default=[]):
        owner = kingdom(node, "kingdom")
        number = small(node, "army")
        if (owner, number) not in army_keys:
            raise ImportRefused(f"{node.at('army')}: {owner} has no army #{number}.")
        unique(seen, (owner, number), node.path, f"the list of army #{number} of {owner}")
        units: list[dict[str, Any]] = []
        positions: dict[Any, str] = {}
        for unit_node in node.nodes("units", default=[]):
            position = small(unit_node, "position")
            unique(positions, position, unit_node.at("position"), f"unit position {position}")
            unit_key = unit_ref(owner, number, position)  # type: ignore[arg-type]
            destroyed = _destroyed(unit_node)
            strength = []
            for mark in unit_node.nodes("strength", default=[]):
                delta = mark.integer("delta", minimum=-1, maximum=1)
                if delta == 0:
                    raise ImportRefused(f"{mark.at('delta')}: must be 1 or -1, got 0.")
                reason = mark.choice("reason", UnitStrengthEvent.Reason.values)
                battle = ref(mark, "battle", battle_keys, "battle")
                if battle is not None:
                    unique(marks, (unit_key, battle, reason), mark.at("reason"),
                            f"the {reason} mark of unit {unit_key} in battle {battle}")
                strength.append(
                    {
                        "delta": delta,
                        "reason": reason,
                        "battle": battle,
                        **clock_fields(mark, "clock"),
                        "event": event(mark, "event"),
                    }
                )
            units.append(
                {
                    "key": unit_key,
                    "position": position,
                    "name": unit_node.text("name", max_length=max_length(Unit, "name")),
                    "unit_type": unit_node.text(
                        "unit_type", max_length=max_length(Unit, "unit_type")
                    ),
                    "points": small(unit_node, "points"),
                    "base_us": small(unit_node, "base_us", default=None, null=True),
                    "keywords": unit_node.array("keywords", default=[]),
                    "magic_item": unit_node.text(
                        "magic_item", max_length=max_length(Unit, "magic_item"), default=""
                    ),
                    "living_legend": unit_node.boolean("living_legend", default=False),
                    "allied": unit_node.boolean("allied", default=False),
                    "artefact": unit_node.text(
                        "artefact", max_length=max_length(Unit, "artefact"), default=""
                    ),
                    "stats": unit_node.text(
                        "stats", max_length=max_length(Unit, "stats"), default=""
                    ),
                    "special_rules": unit_node.text(
                        "special_rules", max_length=max_length(Unit, "special_rules"), default=""
                    ),
                    **destroyed,
                    "strength": strength,
                }
            )
        army_lists.append(
            {
                "kingdom": owner,
                "army": number,
                "race": node.text("race", max_length=max_length(ArmyList, "race"), default=""),
                "points_limit": small(node, "points_limit", default=500),
                "allied": node.boolean("allied", default=False),
                "fixed_at": node.timestamp("fixed_at", null=True),
                "revealed_at_battle": ref(node, "revealed_at_battle", battle_keys, "battle"),
                **clock_fields(node, "clock"),
                "units": units,
            }
        )

    return {"battles": battles, "army_lists": army_lists}




def _destroyed(node: Node) -> dict[str, Any]:
    """A unit's ``destroyed`` object (null while it fights on) as the row's fields."""
    fields: dict[str, Any] = {
        "destroyed_reason": "", "destroyed_year": None, "destroyed_season": "",
        "destroyed_month": None, "destroyed_phase": "",
    }
    if node.raw("destroyed", None) is None:
        return fields
    destroyed = node.node("destroyed")
    clock = destroyed.node("clock")
    fields.update(
        destroyed_reason=destroyed.choice("reason", ["", *Unit.Reason.values]),
        destroyed_year=clock.integer("year", minimum=0, maximum=2**31 - 1, default=None,
                                     null=True),
        destroyed_season=clock.text("season", max_length=20, default=""),
        destroyed_month=clock.integer("month", minimum=0, maximum=32767, default=None, null=True),
        destroyed_phase=clock.text("phase", max_length=20, default=""),
    )
    return fields


def _check_json_refs(campaign: dict[str, Any], events: list[dict[str, Any]],
                     forces: dict[str, Any], context: PlanContext) -> None:
    """Refuse a document whose JSON fields name a kingdom, army, unit or battle it lacks, or
    anything of a kind its section defines (such as a ship)."""
    context.check_refs(campaign["state"], "campaign.state", "campaign.state")
    for i, spec in enumerate(events):
        context.check_refs(spec["data"], "event.data", f"campaign.events[{i}].data",
                           spec["kind"])
    for i, spec in enumerate(forces["battles"]):
        context.check_refs(spec["data"], "battle.data", f"campaign.battles[{i}].data")


# == import =======================================================================================


@dataclass
class ImportReport:
    """Who the file named besides the importing user, for the notes shown after an import.

    ``people`` lists (username, role, kingdom name or None) as the file gives them: nothing here
    says whether such a user exists on this site.
    """

    people: list[tuple[str, str, str | None]] = field(default_factory=list)

    @property
    def notes(self) -> list[str]:
        notes = ["You are the GM of the imported campaign."]
        if self.people:
            described = []
            for username, role, kingdom in self.people:
                what = Role(role).label.lower()
                described.append(f"{username} ({what} of {kingdom})" if kingdom
                                 else f"{username} ({what})")
            notes.append(
                "The file also names " + ", ".join(described) + ". Nobody joins a campaign "
                "without accepting an invitation: invite them from the Members page; a player "
                "who joins can then claim their kingdom again, or you can give it to them."
            )
        return notes


def import_campaign(data: Any, user: Any, slug: str | None = None) -> Campaign:
    """Create a new campaign from an exported document, with ``user`` as its only member (GM).

    Raises ``ImportRefused`` (and writes nothing) when the document cannot be imported. The
    returned campaign carries ``import_report`` (an ``ImportReport``) naming the other people in
    the file, who are not made members.
    """
    plan = _plan(data, slug)
    if Campaign.objects.filter(slug=plan.slug).exists():
        raise ImportRefused(_slug_taken(plan.slug, slug))
    saved_files: list[str] = []
    try:
        with transaction.atomic():
            campaign = _write(plan, user, slug, saved_files)
    except BaseException as exc:
        for name in saved_files:
            try:
                default_storage.delete(name)
            except OSError:
                pass
        if isinstance(exc, IntegrityError) and Campaign.objects.filter(slug=plan.slug).exists():
            # Someone took the address while this import was being written.
            raise ImportRefused(_slug_taken(plan.slug, slug)) from None
        raise
    return campaign


def _slug_taken(chosen: str, given: str | None) -> str:
    if given:
        return f"The address {chosen!r} is already taken on this site: choose another slug."
    return (
        f"The address {chosen!r} of this campaign is already taken on this site: "
        "import it under a new slug."
    )


def _save_file(
    field_file: Any, name: str, content: bytes, saved_files: list[str]
) -> None:
    field_file.save(name, ContentFile(content), save=False)
    saved_files.append(field_file.name)




def _write(plan: _Plan, user: Any, given_slug: str | None, saved_files: list[str]) -> Campaign:
    if Campaign.objects.select_for_update().filter(slug=plan.slug).exists():
        raise ImportRefused(_slug_taken(plan.slug, given_slug))
    importer = user.get_username()
    ruled = {k["player"]: k["name"] for k in plan.kingdoms if k["player"]}
    report = ImportReport(people=sorted((name, role, ruled.get(name))
                                        for name, role in plan.members if name != importer))
    campaign = Campaign(slug=plan.slug, created_by=user, **plan.campaign)
    campaign.save(force_insert=True)

    # The importing user is the only member, as GM. Someone else named in the file is not made a
    # member of a campaign they did not ask to join (and whether their username exists here is
    # not looked up at all); their kingdoms come in unclaimed.
    Membership.objects.create(campaign=campaign, user=user, role=Role.GM)

    # Kingdoms, then the map and its tiles, then each kingdom's start and capital tiles.
    kingdoms: dict[str, Kingdom] = {}
    for spec in plan.kingdoms:
        kingdom = Kingdom(
            campaign=campaign,
            name=spec["name"],
            colour=spec["colour"],
            player=None,
            order_position=spec["order_position"],
            data=spec["data"],
        )
        if spec["crest"] is not None:
            _save_file(kingdom.crest, "crest.png", spec["crest"].content, saved_files)
        if spec["crest_thumb"] is not None:
            _save_file(kingdom.crest_thumb, "crest.png", spec["crest_thumb"].content, saved_files)
        kingdoms[spec["name"]] = kingdom
    bulk_create(Kingdom, list(kingdoms.values()))

    tiles: dict[str, Tile] = {}
    if plan.map is not None:
        game_map = Map.objects.create(campaign=campaign, **plan.map)
        for spec in plan.tiles:
            controller = spec["controller"]
            tiles[spec["label"]] = Tile(
                map=game_map,
                **{k: v for k, v in spec.items() if k != "controller"},
                controller=kingdoms[controller] if controller else None,
            )
        bulk_create(Tile, list(tiles.values()))
    placed = []
    for spec in plan.kingdoms:
        if spec["start_tile"] or spec["capital_tile"]:
            kingdom = kingdoms[spec["name"]]
            kingdom.start_tile = tiles[spec["start_tile"]] if spec["start_tile"] else None
            kingdom.capital_tile = tiles[spec["capital_tile"]] if spec["capital_tile"] else None
            placed.append(kingdom)
    if placed:
        Kingdom.objects.bulk_update(placed, ["start_tile", "capital_tile"])

    # Armies.
    armies: dict[tuple[str, int], Army] = {}
    for spec in plan.armies:
        armies[(spec["kingdom"], spec["number"])] = Army(
            campaign=campaign,
            kingdom=kingdoms[spec["kingdom"]],
            number=spec["number"],
            name=spec["name"],
            tile=tiles[spec["tile"]] if spec["tile"] else None,
            points=spec["points"],
            on_side=spec["on_side"],
            defending=spec["defending"],
            is_allied=spec["is_allied"],
            data=spec["data"],
        )
    bulk_create(Army, list(armies.values()))

    # Battles, then army lists and their units; battle data waits for everything it names.
    battles = {
        spec["key"]: Battle(
            campaign=campaign,
            tile=tiles[spec["tile"]],
            chooser=kingdoms[spec["chooser"]],
            opponent=kingdoms[spec["opponent"]],
            **{k: v for k, v in spec.items()
               if k not in ("key", "tile", "chooser", "opponent", "data")},
        )
        for spec in plan.battles
    }
    insert_as_given(Battle, list(battles.values()))
    army_lists = [
        ArmyList(
            army=armies[(spec["kingdom"], spec["army"])],
            race=spec["race"],
            points_limit=spec["points_limit"],
            allied=spec["allied"],
            fixed_at=spec["fixed_at"],
            revealed_at_battle=(battles[spec["revealed_at_battle"]]
                                if spec["revealed_at_battle"] else None),
            year=spec["year"],
            season=spec["season"],
            month=spec["month"],
            phase=spec["phase"],
        )
        for spec in plan.army_lists
    ]
    bulk_create(ArmyList, army_lists)
    units: dict[str, Unit] = {}
    for army_list, spec in zip(army_lists, plan.army_lists):
        for unit in spec["units"]:
            units[unit["key"]] = Unit(
                army_list=army_list,
                **{k: v for k, v in unit.items() if k not in ("key", "strength")},
            )
    bulk_create(Unit, list(units.values()))

    # The chronicle, exactly as it was, but read-only: its undo data stayed behind. What the
    # importing user did under their name stays theirs; other authors are left blank. Event
    # data waits, as battle data does, for the section's rows it may name.
    def who(name: str | None) -> Any:
        return user if name is not None and name == importer else None

    events: dict[int, Event] = {}
    for spec in plan.events:
        events[spec["seq"]] = Event(
            campaign=campaign,
            seq=spec["seq"],
            actor=who(spec["actor"]),
            year=spec["year"],
            season=spec["season"],
            month=spec["month"],
            phase=spec["phase"],
            kind=spec["kind"],
            summary=spec["summary"],
            dice=spec["dice"],
            data=spec["data"],
            changes=[],
            reversible=False,
            visibility=spec["visibility"],
            kingdom=kingdoms[spec["kingdom"]] if spec["kingdom"] else None,
            undone_at=spec["undone_at"],
            undone_by=who(spec["undone_by"]),
            created_at=spec["created_at"],
        )
    insert_as_given(Event, list(events.values()))
    undos = []
    for spec in plan.events:
        if spec["undo_of"] is not None:
            events[spec["seq"]].undo_of = events[spec["undo_of"]]
            undos.append(events[spec["seq"]])
    if undos:
        Event.objects.bulk_update(undos, ["undo_of"], batch_size=BATCH_SIZE)

    def seq(number: int | None) -> Event | None:
        return events[number] if number is not None else None

    # The ledger.
    insert_as_given(
        LedgerEntry,
        [
            LedgerEntry(
                campaign=campaign,
                kingdom=kingdoms[spec["kingdom"]],
                resource=spec["resource"],
                amount=spec["amount"],
                rule_id=spec["rule_id"],
                source=spec["source"],
                event=seq(spec["event"]),
                year=spec["year"],
                season=spec["season"],
                month=spec["month"],
                phase=spec["phase"],
                created_at=spec["created_at"],
            )
            for spec in plan.entries
        ],
    )
    bulk_create(
        Balance,
        [
            Balance(kingdom=kingdoms[spec["kingdom"]], resource=spec["resource"],
                    amount=spec["amount"])
            for spec in plan.balances
        ],
    )

    # Unit Strength marks.
    bulk_create(UnitStrengthEvent, [
        UnitStrengthEvent(
            unit=units[unit["key"]],
            battle=battles[mark["battle"]] if mark["battle"] else None,
            delta=mark["delta"],
            reason=mark["reason"],
            year=mark["year"],
            season=mark["season"],
            month=mark["month"],
            phase=mark["phase"],
            event=seq(mark["event"]),
        )
        for spec in plan.army_lists for unit in spec["units"] for mark in unit["strength"]
    ])

    # The rule system's section, which may define references of its own (ships).
    context = WriteContext(
        campaign=campaign,
        user=user,
        kingdoms=kingdoms,
        tiles=tiles,
        armies=armies,
        battles=battles,
        units=units,
        events=events,
        refs=Refs("import", {
            "kingdom": {name: k.pk for name, k in kingdoms.items()},
            "army": {army_ref(*key): a.pk for key, a in armies.items()},
            "unit": {key: u.pk for key, u in units.items()},
            "battle": {key: b.pk for key, b in battles.items()},
        }),
        translate=plan.translate,
        json_refs=section_json_refs(plan.section_module),
    )
    if plan.section_module is not None:
        plan.section_module.write_section(plan.section, context)

    # The references inside the core's JSON values, now that everything they name exists.
    if plan.translate:
        for spec in plan.battles:
            battles[spec["key"]].data = context.json(spec["data"], "battle.data")
        if battles:
            Battle.objects.bulk_update(list(battles.values()), ["data"], batch_size=BATCH_SIZE)
        changed = []
        for spec in plan.events:
            event = events[spec["seq"]]
            data = context.json(spec["data"], "event.data", spec["kind"])
            if data != event.data:
                event.data = data
                changed.append(event)
        if changed:
            Event.objects.bulk_update(changed, ["data"], batch_size=BATCH_SIZE)
        if campaign.state:
            campaign.state = context.json(campaign.state, "campaign.state")
            Campaign.objects.filter(pk=campaign.pk).update(state=campaign.state)

    # Photos of the table.
    photos = []
    for spec in plan.photos:
        photo = Photo(
            campaign=campaign,
            uploaded_by=who(spec["uploaded_by"]),
            caption=spec["caption"],
            year=spec["year"],
            season=spec["season"],
            month=spec["month"],
            phase=spec["phase"],
            created_at=spec["created_at"],
        )
        _save_file(photo.image, "photo.jpg", spec["image"].content, saved_files)
        _save_file(photo.thumbnail, "thumb.jpg", spec["image"].thumbnail, saved_files)
        photos.append(photo)
    insert_as_given(Photo, photos)

    # The unit catalogue, the GM's notes and chronicle entries.
    write_gm_words(plan.gm_words, campaign, kingdoms, tiles, events, who,
                   lambda field_file, name, content: _save_file(field_file, name, content,
                                                                saved_files))

    # The import itself, the newest event: it cannot be undone, and undo stops there.
    Recorder(
        campaign, user, IMPORT_EVENT, f"{importer} imported the campaign from a file.",
        data={"exported_at": plan.exported_at,
              "file_members": [{"username": name, "role": role, "kingdom": kingdom}
                               for name, role, kingdom in report.people]},
        reversible=False,
    ).finish()

    campaign.import_report = report  # type: ignore[attr-defined]
    return campaign




def import_notes(campaign: Campaign) -> list[str]:
    """Notes about the import that created ``campaign`` (empty for any other campaign)."""
    report: ImportReport | None = getattr(campaign, "import_report", None)
    return report.notes if report is not None else []

