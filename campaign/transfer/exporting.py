"""Export: a whole campaign as one JSON-ready dict (docs/campaign-file.md).

The core writes what every campaign has: the campaign, its members, kingdoms, map, chronicle,
photos, the ledger, and the shared forces of the battles app (armies, battles, army lists,
units and their Unit Strength history). The campaign's rule system adds its own section under
``systems`` through its section module (campaign.transfer.sections).
"""

from __future__ import annotations

import base64
from typing import Any, Mapping

from django.core.files.storage import default_storage
from django.utils import timezone

from battles.models import Army, ArmyList, Battle, Unit, UnitStrengthEvent
from campaign.models import Campaign, Event, Kingdom, Map, Membership, Photo, Tile
from campaign.rulesystems import get_system
from campaign.transfer.base import (
    FORMAT,
    VERSION,
    JsonRefs,
    Refs,
    army_ref,
    battle_key,
    battle_ref,
    iso,
    ref_spec,
    row_clock,
    unit_ref,
)
from campaign.transfer.gm_words import export_gm_words
from campaign.transfer.sections import json_refs as section_json_refs
from campaign.transfer.sections import section_module
from ledger.models import Balance, LedgerEntry


def export_refs(campaign: Campaign, extra: Mapping[str, Mapping[int, str]] | None = None) -> Refs:
    """Database ids of this campaign's rows -> reference strings: the core's kingdoms, armies,
    units and battles, and the kinds a section defines (``extra``)."""
    kingdoms = dict(Kingdom.objects.filter(campaign=campaign).values_list("pk", "name"))
    armies = {
        pk: army_ref(name, number)
        for pk, name, number in Army.objects.filter(campaign=campaign)
        .values_list("pk", "kingdom__name", "number")
    }
    units = {
        pk: unit_ref(name, number, position)
        for pk, name, number, position in Unit.objects.filter(army_list__army__campaign=campaign)
        .values_list("pk", "army_list__army__kingdom__name", "army_list__army__number",
                     "position")
    }
    battles = {
        pk: battle_ref(year, month, seq)
        for pk, year, month, seq in Battle.objects.filter(campaign=campaign)
        .values_list("pk", "year", "month", "seq")
    }
    refs = Refs("export", {"kingdom": kingdoms, "army": armies, "unit": units,
                           "battle": battles})
    for kind, table in (extra or {}).items():
        refs.define(kind, table)
    return refs


def export_campaign(campaign: Campaign) -> dict[str, Any]:
    """The whole campaign as a JSON-ready dict (see docs/campaign-file.md)."""
    system = get_system(campaign.rule_system)
    section = section_module(system)
    json_refs = section_json_refs(section)
    export_section_refs = getattr(section, "export_refs", None)
    refs = export_refs(campaign, export_section_refs(campaign) if export_section_refs else None)
    systems: dict[str, Any] = {}
    if section is not None:
        systems[system.slug] = {
            **section.export_section(campaign, refs),
            "version": section.SECTION_VERSION,
        }
    body: dict[str, Any] = {
        "name": campaign.name,
        "slug": campaign.slug,
        "rule_system": campaign.rule_system,
        "description": campaign.description,
        "options": campaign.options,
        "state": refs.convert(campaign.state, ref_spec(json_refs, "campaign.state"), "state"),
        "clock": {
            "year": campaign.year,
            "season": campaign.season,
            "month": campaign.month,
            "phase": campaign.phase,
            "sub_phase": campaign.sub_phase,
        },
        "paper_size": campaign.paper_size,
        "eco_print": campaign.eco_print,
        "members": _export_members(campaign),
        "kingdoms": _export_kingdoms(campaign),
        "map": _export_map(campaign),
        "armies": _export_armies(campaign),
        "ledger": _export_ledger(campaign),
        "photos": _export_photos(campaign),
        "events": _export_events(campaign, refs, json_refs),
        "battles": _export_battles(campaign, refs, json_refs),
        "army_lists": _export_army_lists(campaign),
        # Version 4: the unit catalogue, notes and chronicle entries.
        **export_gm_words(campaign),
        "systems": systems,
    }
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(),
        "campaign": body,
    }


def _read_file(name: str) -> bytes | None:
    """The bytes of a stored file, or None when it is missing from storage."""
    if not name:
        return None
    try:
        with default_storage.open(name, "rb") as handle:
            return handle.read()
    except (FileNotFoundError, OSError):
        return None


def _b64(raw: bytes | None) -> str | None:
    return base64.b64encode(raw).decode("ascii") if raw is not None else None


def _export_members(campaign: Campaign) -> list[dict[str, Any]]:
    rows = Membership.objects.filter(campaign=campaign).values("user__username", "role")
    members = [{"username": row["user__username"], "role": row["role"]} for row in rows]
    return sorted(members, key=lambda m: m["username"])


def _export_kingdoms(campaign: Campaign) -> list[dict[str, Any]]:
    rows = Kingdom.objects.filter(campaign=campaign).values(
        "name", "colour", "player__user__username", "order_position",
        "start_tile__label", "capital_tile__label", "data", "crest", "crest_thumb",
    )
    kingdoms = [
        {
            "name": row["name"],
            "colour": row["colour"],
            "player": row["player__user__username"],
            "order_position": row["order_position"],
            "start_tile": row["start_tile__label"],
            "capital_tile": row["capital_tile__label"],
            "data": row["data"],
            "crest": _b64(_read_file(row["crest"])),
            "crest_thumb": _b64(_read_file(row["crest_thumb"])),
        }
        for row in rows
    ]
    return sorted(kingdoms, key=lambda k: k["name"])


def _export_map(campaign: Campaign) -> dict[str, Any] | None:
    game_map = Map.objects.filter(campaign=campaign).first()
    if game_map is None:
        return None
    rows = Tile.objects.filter(map=game_map).values(
        "q", "r", "label", "name", "terrain", "features", "edges", "adjacent", "settlement",
        "controller__name", "explored", "is_start", "data",
    )
    tiles = [
        {
            "q": row["q"],
            "r": row["r"],
            "label": row["label"],
            "name": row["name"],
            "terrain": row["terrain"],
            "features": row["features"],
            "edges": row["edges"],
            "adjacent": row["adjacent"],
            "settlement": row["settlement"],
            "controller": row["controller__name"],
            "explored": row["explored"],
            "is_start": row["is_start"],
            "data": row["data"],
        }
        for row in rows
    ]
    tiles.sort(key=lambda t: t["label"])
    return {
        "kind": game_map.kind,
        "orientation": game_map.orientation,
        "width": game_map.width,
        "height": game_map.height,
        "seed": game_map.seed,
        "tiles": tiles,
    }


def _export_armies(campaign: Campaign) -> list[dict[str, Any]]:
    rows = Army.objects.filter(campaign=campaign).values(
        "kingdom__name", "number", "name", "tile__label", "points", "on_side", "defending",
        "is_allied", "data",
    )
    armies = [
        {
            "kingdom": row["kingdom__name"],
            "number": row["number"],
            "name": row["name"],
            "tile": row["tile__label"],
            "points": row["points"],
            "on_side": row["on_side"],
            "defending": row["defending"],
            "is_allied": row["is_allied"],
            "data": row["data"],
        }
        for row in rows
    ]
    return sorted(armies, key=lambda a: (a["kingdom"], a["number"]))


def _export_ledger(campaign: Campaign) -> dict[str, Any]:
    rows = LedgerEntry.objects.filter(campaign=campaign).values(
        "kingdom__name", "resource", "amount", "rule_id", "source", "event__seq",
        "year", "season", "month", "phase", "created_at",
    )
    rows = sorted(
        rows,
        key=lambda e: (
            e["created_at"], e["kingdom__name"], e["resource"], e["amount"], e["rule_id"],
            e["source"], e["event__seq"] or 0, e["year"], e["season"], e["month"] or 0,
            e["phase"],
        ),
    )
    entries = [
        {
            "kingdom": row["kingdom__name"],
            "resource": row["resource"],
            "amount": row["amount"],
            "rule_id": row["rule_id"],
            "source": row["source"],
            "event": row["event__seq"],
            "clock": row_clock(row),
            "created_at": iso(row["created_at"]),
        }
        for row in rows
    ]
    balances = [
        {"kingdom": row["kingdom__name"], "resource": row["resource"], "amount": row["amount"]}
        for row in Balance.objects.filter(kingdom__campaign=campaign).values(
            "kingdom__name", "resource", "amount"
        )
    ]
    balances.sort(key=lambda b: (b["kingdom"], b["resource"]))
    return {"entries": entries, "balances": balances}


def _export_photos(campaign: Campaign) -> list[dict[str, Any]]:
    rows = Photo.objects.filter(campaign=campaign).values(
        "caption", "uploaded_by__username", "year", "season", "month", "phase", "created_at",
        "image",
    )
    photos = []
    for row in rows:
        raw = _read_file(row["image"])
        if raw is None:
            continue  # the file is gone from storage: nothing left to carry over
        photos.append(
            {
                "caption": row["caption"],
                "uploaded_by": row["uploaded_by__username"],
                "clock": row_clock(row),
                "created_at": iso(row["created_at"]),
                "image": _b64(raw),
            }
        )
    return sorted(
        photos, key=lambda p: (p["created_at"], p["caption"], p["uploaded_by"] or "", p["image"])
    )


def _export_events(campaign: Campaign, refs: Refs, json_refs: JsonRefs) -> list[dict[str, Any]]:
    rows = (
        Event.objects.filter(campaign=campaign)
        .order_by("seq")
        .values(
            "seq", "actor__username", "created_at", "year", "season", "month", "phase", "kind",
            "summary", "dice", "data", "visibility", "kingdom__name", "undone_at",
            "undone_by__username", "undo_of__seq",
        )
    )
    return [
        {
            "seq": row["seq"],
            "actor": row["actor__username"],
            "created_at": iso(row["created_at"]),
            "clock": row_clock(row),
            "kind": row["kind"],
            "summary": row["summary"],
            "dice": row["dice"],
            "data": refs.convert(
                row["data"], ref_spec(json_refs, "event.data", row["kind"]), "data"
            ),
            "visibility": row["visibility"],
            "kingdom": row["kingdom__name"],
            "undone_at": iso(row["undone_at"]),
            "undone_by": row["undone_by__username"],
            "undo_of": row["undo_of__seq"],
        }
        for row in rows
    ]


def _export_battles(
    campaign: Campaign, refs: Refs, json_refs: JsonRefs
) -> list[dict[str, Any]]:
    spec = ref_spec(json_refs, "battle.data")
    rows = Battle.objects.filter(campaign=campaign).values(
        "year", "month", "seq", "tile__label", "kind", "mode", "chooser__name", "opponent__name",
        "status", "result_chooser", "result_opponent", "data", "created_at",
    )
    battles = [
        {
            "year": row["year"],
            "month": row["month"],
            "seq": row["seq"],
            "tile": row["tile__label"],
            "kind": row["kind"],
            "mode": row["mode"],
            "chooser": row["chooser__name"],
            "opponent": row["opponent__name"],
            "status": row["status"],
            "result_chooser": row["result_chooser"],
            "result_opponent": row["result_opponent"],
            "data": refs.convert(row["data"], spec, "data"),
            "created_at": iso(row["created_at"]),
        }
        for row in rows
    ]
    return sorted(battles, key=lambda b: (b["year"], b["month"], b["seq"]))




def _export_army_lists(campaign: Campaign) -> list[dict[str, Any]]:
    lists = ArmyList.objects.filter(army__campaign=campaign).values(
        "pk", "army__kingdom__name", "army__number", "race", "points_limit", "allied",
        "fixed_at", "revealed_at_battle__year", "revealed_at_battle__month",
        "revealed_at_battle__seq", "year", "season", "month", "phase",
    )
    units: dict[int, list[dict[str, Any]]] = {}
    by_pk: dict[int, dict[str, Any]] = {}
    for row in Unit.objects.filter(army_list__army__campaign=campaign).order_by(
        "army_list", "position", "pk"
    ).values(
        "pk", "army_list", "position", "name", "unit_type", "points", "base_us", "keywords",
        "magic_item", "living_legend", "allied", "artefact", "destroyed_year",
        "destroyed_season", "destroyed_month", "destroyed_phase", "destroyed_reason", "stats",
        "special_rules",
    ):
        destroyed = None
        if (row["destroyed_reason"] or row["destroyed_year"] is not None
                or row["destroyed_season"] or row["destroyed_month"] is not None
                or row["destroyed_phase"]):
            destroyed = {
                "reason": row["destroyed_reason"],
                "clock": {
                    "year": row["destroyed_year"],
                    "season": row["destroyed_season"],
                    "month": row["destroyed_month"],
                    "phase": row["destroyed_phase"],
                },
            }
        unit = {
            "position": row["position"],
            "name": row["name"],
            "unit_type": row["unit_type"],
            "points": row["points"],
            "base_us": row["base_us"],
            "keywords": row["keywords"],
            "magic_item": row["magic_item"],
            "living_legend": row["living_legend"],
            "allied": row["allied"],
            "artefact": row["artefact"],
            "destroyed": destroyed,
            "strength": [],
        }
        # A stat line and special rules only where the player keeps them (files stay as they
        # were for lists without).
        for key in ("stats", "special_rules"):
            if row[key]:
                unit[key] = row[key]
        units.setdefault(row["army_list"], []).append(unit)
        by_pk[row["pk"]] = unit
    for row in UnitStrengthEvent.objects.filter(
        unit__army_list__army__campaign=campaign
    ).order_by("unit", "pk").values(
        "unit", "battle__year", "battle__month", "battle__seq", "delta", "reason", "year",
        "season", "month", "phase", "event__seq",
    ):
        by_pk[row["unit"]]["strength"].append(
            {
                "delta": row["delta"],
                "reason": row["reason"],
                "battle": battle_key(row, "battle"),
                "clock": row_clock(row),
                "event": row["event__seq"],
            }
        )
    army_lists = [
        {
            "kingdom": row["army__kingdom__name"],
            "army": row["army__number"],
            "race": row["race"],
            "points_limit": row["points_limit"],
            "allied": row["allied"],
            "fixed_at": iso(row["fixed_at"]),
            "revealed_at_battle": battle_key(row, "revealed_at_battle"),
            "clock": row_clock(row),
            "units": units.get(row["pk"], []),
        }
        for row in lists
    ]
    return sorted(army_lists, key=lambda a: (a["kingdom"], a["army"]))


