"""Campaign files: a whole campaign as one versioned JSON document, and back.

``export_campaign(campaign)`` builds the document (a dict), ``dumps(data)`` turns it into the text
of a ``.hexkeep.json`` file, and ``import_campaign(data, user, slug=None)`` creates a new campaign
from such a document. docs/campaign-format.md describes every field.

Objects refer to each other by natural keys (kingdom names, tile labels, army numbers, usernames,
event numbers, battles by year, month and number), never by database ids, so a file can be
imported on any Hexkeep site. Rule-system JSON that holds database ids (``Campaign.state``,
``Order.token`` and ``outcome``, ``Battle.data``, ``Event.data``) has them rewritten as reference
strings on export and back to the new ids on import; ``_JSON_REFS`` says where they are.

What a file does not carry:

- invitations: their tokens are secrets bound to the site that issued them;
- print jobs: generated PDFs, made again on demand;
- the undo data of chronicle events (``Event.changes``): it is made of database ids. The imported
  chronicle is therefore read-only: every imported event has ``reversible=False``, and undo starts
  working again with the first new event written after the import.

Import checks the whole document before writing anything and raises ``ImportRefused`` with a
message that names the problem and where it is (``campaign.map.tiles[12].controller: ...``):
besides types and references, that the clock is one the rule system can be at, that tiles lie
on their map and carry the labels their positions have, that edges are keyed as the map kind
keys them, and that no value is nested too deeply or holds what a database cannot store. It
then writes everything in one transaction, ending with one chronicle event, "imported".

Only the importing user becomes a member (its GM): people named in the file are not made members
of a campaign they did not ask to join, and the import never says which usernames exist on this
site. Their kingdoms come in unclaimed; the import notes list who held what in the file, so the
GM can invite them again.
"""

from __future__ import annotations

import base64
import binascii
import datetime as dt
import io
import json
import math
import re
from dataclasses import dataclass, field
from typing import Any, Iterable

from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import IntegrityError, connections, models, transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from PIL import Image

from battles.models import Army, ArmyList, Battle, Unit, UnitStrengthEvent
from campaign.chronicle import Recorder
from campaign.images import ImageRejected, process_crest, process_photo
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
from campaign.systems.mighty_kingdoms.models import (
    Artefact,
    Order,
    Purchase,
    Ship,
    Tithe,
    WizardQuest,
)
from ledger.models import Balance, LedgerEntry

FORMAT = "hexkeep-campaign"
VERSION = 2
# Every version this site can read; sections a version lacks are read as empty.
READS = (1, 2)

BATCH_SIZE = 500
# Deeper JSON than this is refused: no file Hexkeep writes comes close, and deep nesting only
# serves to exhaust the recursion of whatever reads it later.
MAX_DEPTH = 64
IMPORT_EVENT = "campaign.imported"


class ImportRefused(ValueError):
    """The document cannot be imported; the message says what is wrong and where."""


def loads(text: str | bytes) -> Any:
    """Parse the text of a campaign file, refusing what is not plain JSON with ``ImportRefused``.

    Python's JSON reader accepts NaN and Infinity (no JSON database column does) and gives up on
    deep nesting with a RecursionError; both are refused here with a message.
    """
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ImportRefused(f"This is not a JSON file (it is not UTF-8 text: {exc}).") from None

    def no_constant(name: str) -> Any:
        raise ImportRefused(f"This is not a JSON file ({name} is not a JSON number).")

    try:
        return json.loads(text, parse_constant=no_constant)
    except RecursionError:
        raise ImportRefused(
            f"The file is nested too deeply to be a campaign file (more than {MAX_DEPTH} "
            "levels)."
        ) from None
    except ImportRefused:
        raise
    except ValueError as exc:  # JSONDecodeError, and integers too long to read
        raise ImportRefused(f"This is not a JSON file ({exc}).") from None


_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def _check_values(data: Any) -> None:
    """Refuse values no database column takes, wherever they are: NUL characters and lone
    surrogates in strings (PostgreSQL stores neither), numbers that are not finite, and nesting
    deeper than ``MAX_DEPTH``. Walks the document without recursion."""
    stack: list[tuple[Any, tuple[Any, ...]]] = [(data, ())]
    while stack:
        value, path = stack.pop()
        if len(path) > MAX_DEPTH:
            raise ImportRefused(f"{_path(path)}: nested more than {MAX_DEPTH} levels deep.")
        if isinstance(value, dict):
            for key, item in value.items():
                if _UNSTORABLE.search(key):
                    raise ImportRefused(
                        f"{_path(path)}: the key {key!r} holds a character that cannot be stored "
                        "(a NUL or an unpaired surrogate)."
                    )
                stack.append((item, path + (key,)))
        elif isinstance(value, list):
            stack.extend((item, path + (i,)) for i, item in enumerate(value))
        elif isinstance(value, str):
            if _UNSTORABLE.search(value):
                raise ImportRefused(
                    f"{_path(path)}: holds a character that cannot be stored (a NUL or an "
                    "unpaired surrogate)."
                )
        elif isinstance(value, float) and not math.isfinite(value):
            raise ImportRefused(f"{_path(path)}: {value!r} is not a finite number.")


def _path(parts: tuple[Any, ...]) -> str:
    out = ""
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "The file"


# == references inside JSON fields ================================================================
#
# Rule systems keep some database ids inside JSON (whose turn it is, which army a battle token
# is). A file carries them as reference strings instead, the same strings everywhere:
#
#   kingdom  its name                         "Blue Reach"
#   army     kingdom name, "#", number         "Blue Reach#2"
#   ship     kingdom name, "#", number         "Blue Reach#1"
#   unit     army reference, "/", position     "Blue Reach#2/3"
#   battle   year "/" month "/" number         "2/4/1"
#
# and tokens ("army:<id>", "ship:<id>", "pair:<ship id>") become "army:Blue Reach#2" and so on.


@dataclass(frozen=True)
class _RefRule:
    """Where references of one kind sit in a JSON value.

    ``path`` leads from the top of the value: a string is an object key, an integer a list
    index, ``"*"`` every item of a list or every value of an object. At the end of the path the
    value itself is the reference, or with ``keys`` every key of the object there that starts with
    ``prefix`` is (the rest of the key being the id).
    """

    path: tuple[str | int, ...]
    kind: str
    keys: bool = False
    prefix: str = ""


@dataclass(frozen=True)
class _RefSpec:
    """The references in one JSON field: the rules, and whether token strings may appear."""

    rules: tuple[_RefRule, ...] = ()
    tokens: bool = False


_NO_REFS = _RefSpec()

_PLAY_KINGDOMS = _RefRule(("play", "sides", "*", "kingdom"), "kingdom")

# Rule system slug -> JSON field -> references. Event data is keyed by event kind (a kind ending
# in "." covers every kind that starts with it). A system not listed keeps its JSON as it is.
_JSON_REFS: dict[str, dict[str, Any]] = {
    "mighty-kingdoms": {
        "campaign.state": _RefSpec((
            _RefRule((), "kingdom", keys=True, prefix="settled:"),
            _RefRule(("winter", "recall"), "kingdom", keys=True),
            _RefRule(("winter", "cycles", "*", "*", 0), "kingdom"),
            _RefRule(("winter", "fed"), "kingdom", keys=True),
            _RefRule(("winter", "deploy", "order", "*"), "kingdom"),
            _RefRule(("winter", "deploy", "rolls"), "kingdom", keys=True),
            _RefRule(("winter", "deploy", "placed"), "army", keys=True),
            _RefRule(("winter", "deploy", "last"), "kingdom"),
            _RefRule(("winter", "deploy", "done", "*"), "kingdom"),
        )),
        "order.outcome": _RefSpec((_RefRule(("control", "*"), "kingdom"),), tokens=True),
        "battle.data": _RefSpec((
            _RefRule(("defended", "kingdom"), "kingdom"),
            _RefRule(("retreats", "*", "kingdom"), "kingdom"),
            _RefRule(("control", "*"), "kingdom"),
            _RefRule(("winner_move", "kingdom"), "kingdom"),
            _RefRule(("unit_results",), "unit", keys=True),
            _PLAY_KINGDOMS,
        ), tokens=True),
        "event.data": {
            "winter.tithe": _RefSpec((_RefRule(("giver",), "kingdom"),
                                      _RefRule(("receiver",), "kingdom"))),
            "army_list.": _RefSpec((_RefRule(("army",), "army"),)),
            "unit_strength.": _RefSpec((_RefRule(("battle",), "battle"),)),
            "winter.quest": _RefSpec((_RefRule(("hero",), "unit"),)),
            "summer.battle_result": _RefSpec((_RefRule(("battle",), "battle"), _PLAY_KINGDOMS),
                                             tokens=True),
        },
    },
}

_REF_NOUNS = {"kingdom": "kingdom named", "army": "army", "ship": "ship", "unit": "unit",
              "battle": "battle"}
_TOKEN_KINDS = {"army": "army", "ship": "ship", "pair": "ship"}
_TOKEN_ID_RE = re.compile(r"(army|ship|pair):(\d+)\Z")
_TOKEN_REF_RE = re.compile(r"(army|ship|pair):(.+#\d+)\Z", re.DOTALL)


def _ref_spec(rule_system: str, name: str, kind: str = "") -> _RefSpec:
    """The references of one JSON field of a system (``kind``: the event kind, for event data)."""
    spec = _JSON_REFS.get(rule_system, {}).get(name, _NO_REFS)
    if isinstance(spec, dict):
        found = spec.get(kind)
        if found is None:
            found = next((s for k, s in spec.items() if k.endswith(".") and kind.startswith(k)),
                         _NO_REFS)
        return found
    return spec


class _Refs:
    """Rewrites the references inside JSON values one way.

    ``mode`` is "export" (database ids to reference strings; an id that names nothing in the
    campaign becomes null, or its entry is left out when it is an object key), "check"
    (reference strings from a file, refused with their path unless they name something in the
    file) or "import" (checked reference strings to the new database ids). ``table`` maps each
    kind to its lookup: id -> string for export, string -> string for check, string -> id for
    import.
    """

    def __init__(self, mode: str, table: dict[str, dict[Any, Any]]) -> None:
        self.mode = mode
        self.table = table

    def convert(self, value: Any, spec: _RefSpec, path: str) -> Any:
        for rule in spec.rules:
            value = self._follow(value, rule, rule.path, path)
        if spec.tokens:
            value = self._tokens(value, path)
        return value

    # -- one reference ----------------------------------------------------------------------------
    def _value(self, value: Any, kind: str, path: str) -> Any:
        if value is None:
            return None
        if self.mode == "export":
            if isinstance(value, bool) or not isinstance(value, int):
                return value
            return self.table[kind].get(value)
        if not isinstance(value, str):
            raise ImportRefused(
                f"{path}: expected a {kind} reference or null, got {_kind(value)}."
            )
        return self._lookup(value, kind, path)

    def _key(self, key: str, kind: str, path: str) -> str | None:
        """The key rewritten, or None when the entry is to be left out (``path`` ends with the
        whole key)."""
        if self.mode == "export":
            if not key.isdigit():
                return key
            found = self.table[kind].get(int(key))
            return None if found is None else str(found)
        return str(self._lookup(key, kind, path))

    def _lookup(self, key: str, kind: str, path: str) -> Any:
        found = self.table[kind].get(key)
        if found is None:
            raise ImportRefused(f"{path}: no {_REF_NOUNS[kind]} {key!r} in this file.")
        return found

    def token(self, value: str, path: str) -> str | None:
        """A token string rewritten (None for an export of a token naming nothing)."""
        pattern = _TOKEN_ID_RE if self.mode == "export" else _TOKEN_REF_RE
        match = pattern.match(value)
        if match is None:
            return value
        prefix, ref = match.groups()
        if self.mode == "export":
            found = self.table[_TOKEN_KINDS[prefix]].get(int(ref))
            return None if found is None else f"{prefix}:{found}"
        return f"{prefix}:{self._lookup(ref, _TOKEN_KINDS[prefix], path)}"

    # -- walking --------------------------------------------------------------------------------
    def _follow(self, node: Any, rule: _RefRule, steps: tuple[str | int, ...], path: str) -> Any:
        if not steps:
            if not rule.keys:
                return self._value(node, rule.kind, path)
            if not isinstance(node, dict):
                return node
            rewritten = {}
            for key, item in node.items():
                if not key.startswith(rule.prefix):
                    rewritten[key] = item
                    continue
                new = self._key(key[len(rule.prefix):], rule.kind, f"{path}[{key!r}]")
                if new is not None:
                    rewritten[rule.prefix + new] = item
            return rewritten
        step, rest = steps[0], steps[1:]
        if step == "*":
            if isinstance(node, list):
                return [self._follow(v, rule, rest, f"{path}[{i}]") for i, v in enumerate(node)]
            if isinstance(node, dict):
                return {k: self._follow(v, rule, rest, f"{path}.{k}") for k, v in node.items()}
            return node
        if isinstance(step, int):
            if not isinstance(node, list) or len(node) <= step:
                return node
            return [*node[:step], self._follow(node[step], rule, rest, f"{path}[{step}]"),
                    *node[step + 1:]]
        if not isinstance(node, dict) or step not in node:
            return node
        return {**node, step: self._follow(node[step], rule, rest, f"{path}.{step}")}

    def _tokens(self, node: Any, path: str) -> Any:
        if isinstance(node, str):
            return self.token(node, path)
        if isinstance(node, list):
            return [self._tokens(v, f"{path}[{i}]") for i, v in enumerate(node)]
        if isinstance(node, dict):
            rewritten = {}
            for key, item in node.items():
                new = self.token(key, f"{path}[{key!r}]")
                if new is not None:
                    rewritten[new] = self._tokens(item, f"{path}.{key}")
            return rewritten
        return node


def _army_ref(kingdom: str, number: int) -> str:
    return f"{kingdom}#{number}"


def _unit_ref(kingdom: str, army: int, position: int) -> str:
    return f"{kingdom}#{army}/{position}"


def _battle_ref(year: int, month: int, seq: int) -> str:
    return f"{year}/{month}/{seq}"


def _export_refs(campaign: Campaign) -> _Refs:
    """Database ids of this campaign's rows -> reference strings."""
    kingdoms = dict(Kingdom.objects.filter(campaign=campaign).values_list("pk", "name"))
    armies = {
        pk: _army_ref(name, number)
        for pk, name, number in Army.objects.filter(campaign=campaign)
        .values_list("pk", "kingdom__name", "number")
    }
    ships = {
        pk: _army_ref(name, number)
        for pk, name, number in Ship.objects.filter(campaign=campaign)
        .values_list("pk", "kingdom__name", "number")
    }
    units = {
        pk: _unit_ref(name, number, position)
        for pk, name, number, position in Unit.objects.filter(army_list__army__campaign=campaign)
        .values_list("pk", "army_list__army__kingdom__name", "army_list__army__number",
                     "position")
    }
    battles = {
        pk: _battle_ref(year, month, seq)
        for pk, year, month, seq in Battle.objects.filter(campaign=campaign)
        .values_list("pk", "year", "month", "seq")
    }
    return _Refs("export", {"kingdom": kingdoms, "army": armies, "ship": ships, "unit": units,
                            "battle": battles})


# == export =======================================================================================


def export_campaign(campaign: Campaign) -> dict[str, Any]:
    """The whole campaign as a JSON-ready dict (see docs/campaign-format.md)."""
    refs = _export_refs(campaign)
    system = campaign.rule_system
    body: dict[str, Any] = {
        "name": campaign.name,
        "slug": campaign.slug,
        "rule_system": campaign.rule_system,
        "description": campaign.description,
        "options": campaign.options,
        "state": refs.convert(campaign.state, _ref_spec(system, "campaign.state"), "state"),
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
        "ships": _export_ships(campaign),
        "ledger": _export_ledger(campaign),
        "photos": _export_photos(campaign),
        "events": _export_events(campaign, refs),
        "battles": _export_battles(campaign, refs),
        "army_lists": _export_army_lists(campaign),
        "orders": _export_orders(campaign, refs),
        "tithes": _export_tithes(campaign),
        "purchases": _export_purchases(campaign),
        "artefacts": _export_artefacts(campaign),
        "quests": _export_quests(campaign),
    }
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(),
        "campaign": body,
    }


def dumps(data: dict[str, Any]) -> str:
    """The text of a campaign file: stable key order, indented, UTF-8 friendly."""
    return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def _iso(value: dt.datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _clock(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "year": row["year"],
        "season": row["season"],
        "month": row["month"],
        "phase": row["phase"],
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


def _export_ships(campaign: Campaign) -> list[dict[str, Any]]:
    rows = Ship.objects.filter(campaign=campaign).values(
        "kingdom__name", "number", "tile__label", "on_side", "paired_army__number",
        "paired_army__kingdom__name", "data",
    )
    ships = []
    for row in rows:
        ship = {
            "kingdom": row["kingdom__name"],
            "number": row["number"],
            "tile": row["tile__label"],
            "on_side": row["on_side"],
            "paired_army": row["paired_army__number"],
            "data": row["data"],
        }
        army_kingdom = row["paired_army__kingdom__name"]
        if army_kingdom is not None and army_kingdom != row["kingdom__name"]:
            # Only written for the (unusual) ship carrying another kingdom's army.
            ship["paired_army_kingdom"] = army_kingdom
        ships.append(ship)
    return sorted(ships, key=lambda s: (s["kingdom"], s["number"]))


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
            "clock": _clock(row),
            "created_at": _iso(row["created_at"]),
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
                "clock": _clock(row),
                "created_at": _iso(row["created_at"]),
                "image": _b64(raw),
            }
        )
    return sorted(
        photos, key=lambda p: (p["created_at"], p["caption"], p["uploaded_by"] or "", p["image"])
    )


def _export_events(campaign: Campaign, refs: _Refs) -> list[dict[str, Any]]:
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
            "created_at": _iso(row["created_at"]),
            "clock": _clock(row),
            "kind": row["kind"],
            "summary": row["summary"],
            "dice": row["dice"],
            "data": refs.convert(
                row["data"], _ref_spec(campaign.rule_system, "event.data", row["kind"]), "data"
            ),
            "visibility": row["visibility"],
            "kingdom": row["kingdom__name"],
            "undone_at": _iso(row["undone_at"]),
            "undone_by": row["undone_by__username"],
            "undo_of": row["undo_of__seq"],
        }
        for row in rows
    ]


def _export_battles(campaign: Campaign, refs: _Refs) -> list[dict[str, Any]]:
    spec = _ref_spec(campaign.rule_system, "battle.data")
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
            "created_at": _iso(row["created_at"]),
        }
        for row in rows
    ]
    return sorted(battles, key=lambda b: (b["year"], b["month"], b["seq"]))


def _battle_key(row: dict[str, Any], prefix: str) -> str | None:
    if row[f"{prefix}__seq"] is None:
        return None
    return _battle_ref(row[f"{prefix}__year"], row[f"{prefix}__month"], row[f"{prefix}__seq"])


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
        "destroyed_season", "destroyed_month", "destroyed_phase", "destroyed_reason",
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
                "battle": _battle_key(row, "battle"),
                "clock": _clock(row),
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
            "fixed_at": _iso(row["fixed_at"]),
            "revealed_at_battle": _battle_key(row, "revealed_at_battle"),
            "clock": _clock(row),
            "units": units.get(row["pk"], []),
        }
        for row in lists
    ]
    return sorted(army_lists, key=lambda a: (a["kingdom"], a["army"]))


def _export_orders(campaign: Campaign, refs: _Refs) -> list[dict[str, Any]]:
    spec = _ref_spec(campaign.rule_system, "order.outcome")
    rows = Order.objects.filter(campaign=campaign).values(
        "kingdom__name", "year", "month", "token", "army__kingdom__name", "army__number",
        "ship__kingdom__name", "ship__number", "kind", "from_tile__label", "target__label",
        "given_seq", "resolved_seq", "outcome",
    )
    orders = []
    for row in rows:
        army, ship = row["army__number"], row["ship__number"]
        orders.append(
            {
                "kingdom": row["kingdom__name"],
                "year": row["year"],
                "month": row["month"],
                "token": refs.token(row["token"], "token"),
                "army": None if army is None else _army_ref(row["army__kingdom__name"], army),
                "ship": None if ship is None else _army_ref(row["ship__kingdom__name"], ship),
                "kind": row["kind"],
                "from_tile": row["from_tile__label"],
                "target": row["target__label"],
                "given_seq": row["given_seq"],
                "resolved_seq": row["resolved_seq"],
                "outcome": refs.convert(row["outcome"], spec, "outcome"),
            }
        )
    return sorted(
        orders, key=lambda o: (o["year"], o["month"], o["given_seq"], o["kingdom"],
                               o["token"] or "")
    )


def _export_tithes(campaign: Campaign) -> list[dict[str, Any]]:
    rows = Tithe.objects.filter(campaign=campaign).values(
        "year", "giver__name", "receiver__name", "gold", "food", "event__seq",
    )
    tithes = [
        {
            "year": row["year"],
            "giver": row["giver__name"],
            "receiver": row["receiver__name"],
            "gold": row["gold"],
            "food": row["food"],
            "event": row["event__seq"],
        }
        for row in rows
    ]
    return sorted(tithes, key=lambda t: (t["year"], t["giver"], t["receiver"]))


def _export_purchases(campaign: Campaign) -> list[dict[str, Any]]:
    rows = Purchase.objects.filter(campaign=campaign).values(
        "year", "kingdom__name", "kind", "tile_label", "from_state", "to_state", "gold", "food",
        "seq", "event__seq",
    )
    purchases = [
        {
            "year": row["year"],
            "kingdom": row["kingdom__name"],
            "kind": row["kind"],
            "tile_label": row["tile_label"],
            "from_state": row["from_state"],
            "to_state": row["to_state"],
            "gold": row["gold"],
            "food": row["food"],
            "seq": row["seq"],
            "event": row["event__seq"],
        }
        for row in rows
    ]
    return sorted(purchases, key=lambda p: (p["year"], p["seq"], p["kingdom"], p["kind"],
                                            p["tile_label"], p["event"] or 0))


def _row_unit_ref(row: dict[str, Any], prefix: str) -> str | None:
    """The reference of the unit a ``values()`` row reaches through ``prefix``, or None."""
    if row[f"{prefix}__position"] is None:
        return None
    return _unit_ref(row[f"{prefix}__army_list__army__kingdom__name"],
                     row[f"{prefix}__army_list__army__number"], row[f"{prefix}__position"])


_UNIT_PATH = ("army_list__army__kingdom__name", "army_list__army__number", "position")


def _export_artefacts(campaign: Campaign) -> list[dict[str, Any]]:
    rows = Artefact.objects.filter(campaign=campaign).values(
        "name", "points", "in_pool", *(f"holder_unit__{p}" for p in _UNIT_PATH),
        "held_by_capital_of__name", "captured_in__year", "captured_in__month",
        "captured_in__seq",
    )
    artefacts = [
        {
            "name": row["name"],
            "points": row["points"],
            "in_pool": row["in_pool"],
            "holder_unit": _row_unit_ref(row, "holder_unit"),
            "held_by_capital_of": row["held_by_capital_of__name"],
            "captured_in": _battle_key(row, "captured_in"),
        }
        for row in rows
    ]
    return sorted(artefacts, key=lambda a: (a["name"].casefold(), a["name"]))


def _export_quests(campaign: Campaign) -> list[dict[str, Any]]:
    rows = WizardQuest.objects.filter(campaign=campaign).values(
        "year", "kingdom__name", *(f"hero__{p}" for p in _UNIT_PATH), "tower__label", "die",
        "modifier", "total", "result", "artefact__name", "event__seq",
    )
    quests = [
        {
            "year": row["year"],
            "kingdom": row["kingdom__name"],
            "hero": _row_unit_ref(row, "hero"),
            "tower": row["tower__label"],
            "die": row["die"],
            "modifier": row["modifier"],
            "total": row["total"],
            "result": row["result"],
            "artefact": row["artefact__name"],
            "event": row["event__seq"],
        }
        for row in rows
    ]
    return sorted(quests, key=lambda q: (q["year"], q["event"] or 0, q["kingdom"], q["tower"]))


# == checking a document ==========================================================================

_MISSING = object()
SLUG_RE = re.compile(r"^[-a-zA-Z0-9_]+\Z")


def _max_length(model: type[models.Model], name: str) -> int | None:
    return model._meta.get_field(name).max_length


class _Node:
    """A JSON object at a known path, with typed getters that refuse with that path."""

    def __init__(self, value: Any, path: str) -> None:
        if not isinstance(value, dict):
            raise ImportRefused(f"{path}: expected an object, got {_kind(value)}.")
        self.value = value
        self.path = path

    def at(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else key

    def raw(self, key: str, default: Any = _MISSING) -> Any:
        if key in self.value:
            return self.value[key]
        if default is _MISSING:
            raise ImportRefused(f"{self.path or 'The file'}: the field '{key}' is missing.")
        return default

    def text(
        self, key: str, *, max_length: int | None = None, default: Any = _MISSING,
        blank: bool = True,
    ) -> str:
        value = self.raw(key, default)
        if not isinstance(value, str):
            raise ImportRefused(f"{self.at(key)}: expected a string, got {_kind(value)}.")
        if not blank and not value.strip():
            raise ImportRefused(f"{self.at(key)}: must not be empty.")
        if max_length is not None and len(value) > max_length:
            raise ImportRefused(
                f"{self.at(key)}: longer than {max_length} characters ({len(value)})."
            )
        return value

    def optional_text(self, key: str, *, max_length: int | None = None) -> str | None:
        if self.raw(key, None) is None:
            return None
        return self.text(key, max_length=max_length)

    def integer(
        self, key: str, *, minimum: int | None = None, maximum: int | None = None,
        default: Any = _MISSING, null: bool = False,
    ) -> int | None:
        value = self.raw(key, default)
        if value is None and null:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            expected = "a whole number or null" if null else "a whole number"
            raise ImportRefused(f"{self.at(key)}: expected {expected}, got {_kind(value)}.")
        if minimum is not None and value < minimum:
            raise ImportRefused(f"{self.at(key)}: must be at least {minimum}, got {value}.")
        if maximum is not None and value > maximum:
            raise ImportRefused(f"{self.at(key)}: must be at most {maximum}, got {value}.")
        return value

    def boolean(self, key: str, *, default: Any = _MISSING) -> bool:
        value = self.raw(key, default)
        if not isinstance(value, bool):
            raise ImportRefused(f"{self.at(key)}: expected true or false, got {_kind(value)}.")
        return value

    def obj(self, key: str, *, default: Any = _MISSING) -> dict[str, Any]:
        value = self.raw(key, default)
        if not isinstance(value, dict):
            raise ImportRefused(f"{self.at(key)}: expected an object, got {_kind(value)}.")
        return value

    def array(self, key: str, *, default: Any = _MISSING) -> list[Any]:
        value = self.raw(key, default)
        if not isinstance(value, list):
            raise ImportRefused(f"{self.at(key)}: expected a list, got {_kind(value)}.")
        return value

    def nodes(self, key: str, *, default: Any = _MISSING) -> list["_Node"]:
        return [
            _Node(item, f"{self.at(key)}[{i}]")
            for i, item in enumerate(self.array(key, default=default))
        ]

    def node(self, key: str) -> "_Node":
        return _Node(self.raw(key), self.at(key))

    def choice(self, key: str, allowed: Iterable[str], *, default: Any = _MISSING) -> str:
        value = self.text(key, default=default)
        allowed = list(allowed)
        if value not in allowed:
            raise ImportRefused(
                f"{self.at(key)}: {value!r} is not one of {', '.join(map(repr, allowed))}."
            )
        return value

    def timestamp(self, key: str, *, null: bool = False) -> dt.datetime | None:
        value = self.raw(key, None if null else _MISSING)
        if value is None and null:
            return None
        if not isinstance(value, str):
            raise ImportRefused(
                f"{self.at(key)}: expected an ISO 8601 timestamp, got {_kind(value)}."
            )
        try:
            parsed = parse_datetime(value)
        except ValueError:
            parsed = None
        if parsed is None:
            raise ImportRefused(f"{self.at(key)}: {value!r} is not an ISO 8601 timestamp.")
        if timezone.is_naive(parsed):
            parsed = timezone.make_aware(parsed, dt.timezone.utc)
        return parsed

    def image(self, key: str, *, kind: str) -> "_Image | None":
        value = self.raw(key, None)
        if value is None:
            return None
        return _decode_image(value, self.at(key), kind)


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, (int, float)):
        return f"the number {value!r}"
    if isinstance(value, str):
        return f"the string {value[:40]!r}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


@dataclass
class _Image:
    """A checked image: the bytes to store, plus a thumbnail for photos."""

    content: bytes
    thumbnail: bytes | None = None


def _decode_image(value: Any, path: str, kind: str) -> _Image:
    """Decode a base64 image and check it with campaign.images (the upload checks).

    Crests are kept as PNG and photos as JPEG: an image in another accepted format is re-encoded.
    """
    if not isinstance(value, str):
        raise ImportRefused(f"{path}: expected a base64 image or null, got {_kind(value)}.")
    try:
        raw = base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError):
        raise ImportRefused(f"{path}: not valid base64.") from None
    try:
        if kind == "photo":
            processed, thumb = process_photo(io.BytesIO(raw))
            wanted = "JPEG"
        else:
            crest, thumb = process_crest(io.BytesIO(raw))
            processed = thumb if kind == "crest_thumb" else crest
            wanted = "PNG"
    except ImageRejected as exc:
        raise ImportRefused(f"{path}: {exc}") from None
    with Image.open(io.BytesIO(raw)) as probe:
        fmt = probe.format
    content = raw if fmt == wanted else processed.read()
    return _Image(content=content, thumbnail=thumb.read() if kind == "photo" else None)


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
    ships: list[dict[str, Any]]
    entries: list[dict[str, Any]]
    balances: list[dict[str, Any]]
    photos: list[dict[str, Any]]
    events: list[dict[str, Any]]
    battles: list[dict[str, Any]] = field(default_factory=list)
    army_lists: list[dict[str, Any]] = field(default_factory=list)
    orders: list[dict[str, Any]] = field(default_factory=list)
    tithes: list[dict[str, Any]] = field(default_factory=list)
    purchases: list[dict[str, Any]] = field(default_factory=list)
    artefacts: list[dict[str, Any]] = field(default_factory=list)
    quests: list[dict[str, Any]] = field(default_factory=list)
    # Whether JSON fields carry reference strings to turn into the new ids (version 2 on).
    translate: bool = False
    # The file's own "exported_at", kept with the import event (informational).
    exported_at: str | None = None


def _check_header(data: Any) -> _Node:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ImportRefused(
            "This is not a Hexkeep campaign file (its \"format\" is not "
            f"{FORMAT!r})."
        )
    version = data.get("version")
    if isinstance(version, bool) or not isinstance(version, int):
        raise ImportRefused(
            f"version: expected a whole number ({_versions()}), got {_kind(version)}."
        )
    if version not in READS:
        raise ImportRefused(
            f"This file is version {version}; version {version} is not supported "
            f"(this site reads {_versions()})."
        )
    return _Node(data, "").node("campaign")


def _versions() -> str:
    if len(READS) == 1:
        return f"version {READS[0]}"
    return "versions " + ", ".join(map(str, READS[:-1])) + f" and {READS[-1]}"


def _clock_fields(node: _Node, key: str, *, sub_phase: bool = False) -> dict[str, Any]:
    clock = node.node(key)
    fields = {
        "year": clock.integer("year", minimum=0, maximum=2**31 - 1),
        "season": clock.text("season", max_length=20, default=""),
        "month": clock.integer("month", minimum=0, maximum=32767, default=None, null=True),
        "phase": clock.text("phase", max_length=20, default=""),
    }
    if sub_phase:
        fields["sub_phase"] = clock.text("sub_phase", max_length=20, default="")
    return fields


def _unique(seen: dict[Any, str], key: Any, path: str, what: str) -> None:
    if key in seen:
        raise ImportRefused(f"{path}: {what} is listed twice (also at {seen[key]}).")
    seen[key] = path


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
    return repr(value) if isinstance(value, str) else _kind(value)


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
            raise ImportRefused(f"{where}: expected a list of edge features, got {_kind(feats)}.")
        for i, feature in enumerate(feats):
            if not isinstance(feature, str) or feature not in known:
                raise ImportRefused(
                    f"{where}[{i}]: {_shown(feature)} is not an edge feature of {system_label} "
                    f"({', '.join(sorted(known))})."
                )


def _check_borders(tiles: list[dict[str, Any]], nodes: list[_Node]) -> None:
    """Territory borders go both ways: if A lists B, B lists A."""
    listed = {t["label"]: set(t["adjacent"]) for t in tiles}
    for tile, node in zip(tiles, nodes):
        for other in tile["adjacent"]:
            if tile["label"] not in listed[other]:
                raise ImportRefused(
                    f"{node.at('adjacent')}: {tile['label']!r} borders {other!r}, but {other!r} "
                    f"does not list {tile['label']!r} among its neighbours."
                )


def _dice(node: _Node) -> list[Any]:
    """An event's rolls as the chronicle keeps them: {"purpose", "values", "source"}."""
    rolls = node.array("dice", default=[])
    for i, roll in enumerate(rolls):
        where = f"{node.at('dice')}[{i}]"
        if not isinstance(roll, dict):
            raise ImportRefused(f"{where}: expected a roll (an object), got {_kind(roll)}.")
        values = roll.get("values", [])
        if not isinstance(values, list) or any(
            isinstance(v, bool) or not isinstance(v, int) for v in values
        ):
            raise ImportRefused(f"{where}.values: expected a list of whole numbers.")
        for key in ("purpose", "source"):
            if key in roll and not isinstance(roll[key], str):
                raise ImportRefused(f"{where}.{key}: expected a string, got {_kind(roll[key])}.")
    return rolls


def _plan(data: Any, slug: str | None) -> _Plan:
    root = _check_header(data)
    _check_values(data)
    translate = data["version"] >= 2

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
    file_slug = root.text("slug", max_length=_max_length(Campaign, "slug"), blank=False)
    chosen = slug if slug else file_slug
    if not SLUG_RE.match(chosen) or len(chosen) > _max_length(Campaign, "slug"):
        where = "the new slug" if slug else root.at("slug")
        raise ImportRefused(
            f"{where}: {chosen!r} is not a valid address (letters, digits, - and _, "
            "at most 60 characters)."
        )
    campaign = {
        "name": root.text("name", max_length=_max_length(Campaign, "name"), blank=False),
        "rule_system": rule_system,
        "description": root.text("description", default=""),
        "options": options,
        "state": root.obj("state", default={}),
        "paper_size": root.choice("paper_size", ["a4", "letter"], default="a4"),
        "eco_print": root.boolean("eco_print", default=False),
        **_clock_fields(root, "clock", sub_phase=True),
    }
    problem = system.clock_problem(campaign)
    if problem:
        raise ImportRefused(
            f"{root.at('clock')}: a {system.label} campaign cannot be at this point: {problem}"
        )
    def username(node: _Node, key: str) -> str | None:
        return node.optional_text(key, max_length=150)

    # -- members ---------------------------------------------------------------------------------
    members: list[tuple[str, str]] = []
    seen: dict[Any, str] = {}
    for node in root.nodes("members", default=[]):
        name = node.text("username", max_length=150, blank=False)
        _unique(seen, name, node.at("username"), f"member {name!r}")
        members.append((name, node.choice("role", Role.values)))
    member_names = {name for name, _ in members}

    # -- the map (before kingdoms, which name their start and capital tiles) ---------------------
    game_map = None
    tiles: list[dict[str, Any]] = []
    labels: set[str] = set()
    tile_nodes: list[_Node] = []
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
            label = node.text("label", max_length=_max_length(Tile, "label"), blank=False)
            _check_label(label, node.at("label"))
            _unique(seen_labels, label, node.at("label"), f"tile label {label!r}")
            labels.add(label)
            q = node.integer("q", minimum=-(2**31), maximum=2**31 - 1)
            r = node.integer("r", minimum=-(2**31), maximum=2**31 - 1)
            _unique(seen_positions, (q, r), node.path, f"position ({q}, {r})")
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
        name = node.text("name", max_length=_max_length(Kingdom, "name"), blank=False)
        _unique(seen, name, node.at("name"), f"kingdom {name!r}")
        player = node.optional_text("player", max_length=150)
        if player is not None:
            if player not in member_names:
                raise ImportRefused(f"{node.at('player')}: {player!r} is not a member.")
            _unique(players, player, node.at("player"), f"player {player!r}")
        colour = node.text("colour", max_length=_max_length(Kingdom, "colour"),
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

    def kingdom_ref(node: _Node, key: str, *, null: bool) -> str | None:
        name = node.optional_text(key) if null else node.text(key)
        if name is not None and name not in kingdom_names:
            raise ImportRefused(f"{node.at(key)}: no kingdom named {name!r}.")
        return name

    def tile_ref(node: _Node, key: str) -> str | None:
        label = node.optional_text(key)
        if label is not None and label not in labels:
            raise ImportRefused(f"{node.at(key)}: no tile labelled {label!r} on the map.")
        return label

    # -- tiles -----------------------------------------------------------------------------------
    for node in tile_nodes:
        terrain = node.text("terrain", max_length=_max_length(Tile, "terrain"))
        if terrain not in terrains:
            raise ImportRefused(
                f"{node.at('terrain')}: unknown terrain {terrain!r} for {system.label}."
            )
        settlement = node.text("settlement", max_length=_max_length(Tile, "settlement"),
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
                raise ImportRefused(f"{where}: expected a tile label, got {_kind(label)}.")
            if label not in labels:
                raise ImportRefused(f"{where}: no tile labelled {label!r} on the map.")
            if label == node.value["label"]:
                raise ImportRefused(f"{where}: a territory cannot border itself.")
            _unique(neighbours, label, where, f"neighbour {label!r}")
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
                "name": node.text("name", max_length=_max_length(Tile, "name"), default=""),
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

    # -- armies and ships ------------------------------------------------------------------------
    armies: list[dict[str, Any]] = []
    seen = {}
    for node in root.nodes("armies", default=[]):
        kingdom = kingdom_ref(node, "kingdom", null=False)
        number = node.integer("number", minimum=0, maximum=32767)
        _unique(seen, (kingdom, number), node.path, f"army #{number} of {kingdom}")
        armies.append(
            {
                "kingdom": kingdom,
                "number": number,
                "name": node.text("name", max_length=_max_length(Army, "name"), default=""),
                "tile": tile_ref(node, "tile"),
                "points": node.integer("points", minimum=0, maximum=32767),
                "on_side": node.boolean("on_side", default=False),
                "defending": node.boolean("defending", default=False),
                "is_allied": node.boolean("is_allied", default=False),
                "data": node.obj("data", default={}),
            }
        )
    army_keys = set(seen)
    ships: list[dict[str, Any]] = []
    seen = {}
    carried: dict[Any, str] = {}
    for node in root.nodes("ships", default=[]):
        kingdom = kingdom_ref(node, "kingdom", null=False)
        number = node.integer("number", minimum=0, maximum=32767)
        _unique(seen, (kingdom, number), node.path, f"ship #{number} of {kingdom}")
        paired = node.integer("paired_army", minimum=0, maximum=32767, default=None, null=True)
        army_kingdom = kingdom_ref(node, "paired_army_kingdom", null=True) or kingdom
        if paired is not None:
            if (army_kingdom, paired) not in army_keys:
                raise ImportRefused(
                    f"{node.at('paired_army')}: {army_kingdom} has no army #{paired}."
                )
            _unique(carried, (army_kingdom, paired), node.at("paired_army"),
                    f"army #{paired} of {army_kingdom} (on a ship)")
        ships.append(
            {
                "kingdom": kingdom,
                "number": number,
                "tile": tile_ref(node, "tile"),
                "on_side": node.boolean("on_side", default=False),
                "paired_army": (army_kingdom, paired) if paired is not None else None,
                "data": node.obj("data", default={}),
            }
        )

    # -- events (before the ledger, whose entries cite them) -------------------------------------
    event_nodes = root.nodes("events", default=[])
    seqs: dict[Any, str] = {}
    for node in event_nodes:
        seq = node.integer("seq", minimum=1, maximum=2**31 - 1)
        _unique(seqs, seq, node.at("seq"), f"event #{seq}")
    events: list[dict[str, Any]] = []
    undone: dict[Any, str] = {}
    for node in event_nodes:
        undo_of = node.integer("undo_of", minimum=1, default=None, null=True)
        if undo_of is not None:
            if undo_of not in seqs:
                raise ImportRefused(f"{node.at('undo_of')}: there is no event #{undo_of}.")
            if undo_of == node.value["seq"]:
                raise ImportRefused(f"{node.at('undo_of')}: an event cannot undo itself.")
            _unique(undone, undo_of, node.at("undo_of"), f"the undo of event #{undo_of}")
        events.append(
            {
                "seq": node.value["seq"],
                "actor": username(node, "actor"),
                "created_at": node.timestamp("created_at"),
                **_clock_fields(node, "clock"),
                "kind": node.text("kind", max_length=_max_length(Event, "kind"), blank=False),
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
        ledger = _Node({}, root.at("ledger"))
    entries: list[dict[str, Any]] = []
    for node in ledger.nodes("entries", default=[]):
        seq = node.integer("event", minimum=1, default=None, null=True)
        if seq is not None and seq not in seqs:
            raise ImportRefused(f"{node.at('event')}: there is no event #{seq}.")
        entries.append(
            {
                "kingdom": kingdom_ref(node, "kingdom", null=False),
                "resource": node.text("resource", max_length=_max_length(LedgerEntry, "resource"),
                                      blank=False),
                "amount": node.integer("amount", minimum=-(2**31), maximum=2**31 - 1),
                "rule_id": node.text("rule_id", max_length=_max_length(LedgerEntry, "rule_id")),
                "source": node.text("source", max_length=_max_length(LedgerEntry, "source")),
                "event": seq,
                **_clock_fields(node, "clock"),
                "created_at": node.timestamp("created_at"),
            }
        )
    balances: list[dict[str, Any]] = []
    seen = {}
    for node in ledger.nodes("balances", default=[]):
        kingdom = kingdom_ref(node, "kingdom", null=False)
        resource = node.text("resource", max_length=_max_length(Balance, "resource"), blank=False)
        _unique(seen, (kingdom, resource), node.path, f"the {resource} balance of {kingdom}")
        balances.append(
            {
                "kingdom": kingdom,
                "resource": resource,
                "amount": node.integer("amount", minimum=0, maximum=2**31 - 1),
            }
        )

    # -- photos ----------------------------------------------------------------------------------
    photos: list[dict[str, Any]] = []
    for node in root.nodes("photos", default=[]):
        image = node.image("image", kind="photo")
        if image is None:
            raise ImportRefused(f"{node.at('image')}: a photo needs its image.")
        photos.append(
            {
                "caption": node.text("caption", max_length=_max_length(Photo, "caption"),
                                     default=""),
                "uploaded_by": username(node, "uploaded_by"),
                **_clock_fields(node, "clock"),
                "created_at": node.timestamp("created_at"),
                "image": image,
            }
        )

    ship_keys = {(s["kingdom"], s["number"]) for s in ships}
    forces = _plan_forces(root, kingdom_names, labels, seqs, army_keys, ship_keys)
    advanced = _plan_advanced(root, forces, kingdom_names, labels, seqs)
    if translate:
        keys = _plan_keys(kingdom_names, forces, (_army_ref(*k) for k in army_keys),
                          (_army_ref(*k) for k in ship_keys))
        _check_json_refs(rule_system, campaign, events, forces, keys)

    return _Plan(
        slug=chosen,
        campaign=campaign,
        members=members,
        kingdoms=kingdoms,
        map=game_map,
        tiles=tiles,
        armies=armies,
        ships=ships,
        entries=entries,
        balances=balances,
        photos=photos,
        events=events,
        battles=forces["battles"],
        army_lists=forces["army_lists"],
        orders=forces["orders"],
        tithes=forces["tithes"],
        purchases=forces["purchases"],
        artefacts=advanced["artefacts"],
        quests=advanced["quests"],
        translate=translate,
        exported_at=(data["exported_at"][:40] if isinstance(data.get("exported_at"), str)
                     else None),
    )


def _plan_forces(
    root: _Node, kingdom_names: set[str], labels: set[str], seqs: dict[Any, str],
    army_keys: set[Any], ship_keys: set[Any],
) -> dict[str, Any]:
    """Check the battles, army lists, orders, tithes and purchases of a document."""

    def kingdom(node: _Node, key: str) -> str:
        name = node.text(key)
        if name not in kingdom_names:
            raise ImportRefused(f"{node.at(key)}: no kingdom named {name!r}.")
        return name

    def tile(node: _Node, key: str, *, null: bool) -> str | None:
        label = node.optional_text(key) if null else node.text(key)
        if label is not None and label not in labels:
            raise ImportRefused(f"{node.at(key)}: no tile labelled {label!r} on the map.")
        return label

    def event(node: _Node, key: str) -> int | None:
        seq = node.integer(key, minimum=1, default=None, null=True)
        if seq is not None and seq not in seqs:
            raise ImportRefused(f"{node.at(key)}: there is no event #{seq}.")
        return seq

    def ref(node: _Node, key: str, known: Iterable[str], what: str) -> str | None:
        value = node.optional_text(key)
        if value is not None and value not in known:
            raise ImportRefused(f"{node.at(key)}: no {what} {value!r} in this file.")
        return value

    def small(node: _Node, key: str, **kwargs: Any) -> int | None:
        return node.integer(key, minimum=0, maximum=32767, **kwargs)

    def big(node: _Node, key: str, **kwargs: Any) -> int | None:
        return node.integer(key, minimum=0, maximum=2**31 - 1, **kwargs)

    # -- battles ---------------------------------------------------------------------------------
    battles: list[dict[str, Any]] = []
    seen: dict[Any, str] = {}
    for node in root.nodes("battles", default=[]):
        year, month, seq = big(node, "year"), small(node, "month"), small(node, "seq")
        key = _battle_ref(year, month, seq)  # type: ignore[arg-type]
        _unique(seen, key, node.path, f"battle {key}")
        battles.append(
            {
                "key": key,
                "year": year,
                "month": month,
                "seq": seq,
                "tile": tile(node, "tile", null=False),
                "kind": node.text("kind", max_length=_max_length(Battle, "kind"), blank=False),
                "mode": node.text("mode", max_length=_max_length(Battle, "mode"), default=""),
                "chooser": kingdom(node, "chooser"),
                "opponent": kingdom(node, "opponent"),
                "status": node.choice("status", Battle.Status.values,
                                      default=Battle.Status.PENDING),
                "result_chooser": node.text(
                    "result_chooser", max_length=_max_length(Battle, "result_chooser"), default=""
                ),
                "result_opponent": node.text(
                    "result_opponent", max_length=_max_length(Battle, "result_opponent"),
                    default="",
                ),
                "data": node.obj("data", default={}),
                "created_at": node.timestamp("created_at"),
            }
        )
    battle_keys = set(seen)
    army_refs = {_army_ref(k, n) for k, n in army_keys}
    ship_refs = {_army_ref(k, n) for k, n in ship_keys}

    # -- army lists, their units and each unit's Unit Strength history ---------------------------
    army_lists: list[dict[str, Any]] = []
    seen = {}
    marks: dict[Any, str] = {}
    for node in root.nodes("army_lists", default=[]):
        owner = kingdom(node, "kingdom")
        number = small(node, "army")
        if (owner, number) not in army_keys:
            raise ImportRefused(f"{node.at('army')}: {owner} has no army #{number}.")
        _unique(seen, (owner, number), node.path, f"the list of army #{number} of {owner}")
        units: list[dict[str, Any]] = []
        positions: dict[Any, str] = {}
        for unit_node in node.nodes("units", default=[]):
            position = small(unit_node, "position")
            _unique(positions, position, unit_node.at("position"), f"unit position {position}")
            unit_key = _unit_ref(owner, number, position)  # type: ignore[arg-type]
            destroyed = _destroyed(unit_node)
            strength = []
            for mark in unit_node.nodes("strength", default=[]):
                delta = mark.integer("delta", minimum=-1, maximum=1)
                if delta == 0:
                    raise ImportRefused(f"{mark.at('delta')}: must be 1 or -1, got 0.")
                reason = mark.choice("reason", UnitStrengthEvent.Reason.values)
                battle = ref(mark, "battle", battle_keys, "battle")
                if battle is not None:
                    _unique(marks, (unit_key, battle, reason), mark.at("reason"),
                            f"the {reason} mark of unit {unit_key} in battle {battle}")
                strength.append(
                    {
                        "delta": delta,
                        "reason": reason,
                        "battle": battle,
                        **_clock_fields(mark, "clock"),
                        "event": event(mark, "event"),
                    }
                )
            units.append(
                {
                    "key": unit_key,
                    "position": position,
                    "name": unit_node.text("name", max_length=_max_length(Unit, "name")),
                    "unit_type": unit_node.text(
                        "unit_type", max_length=_max_length(Unit, "unit_type")
                    ),
                    "points": small(unit_node, "points"),
                    "base_us": small(unit_node, "base_us", default=None, null=True),
                    "keywords": unit_node.array("keywords", default=[]),
                    "magic_item": unit_node.text(
                        "magic_item", max_length=_max_length(Unit, "magic_item"), default=""
                    ),
                    "living_legend": unit_node.boolean("living_legend", default=False),
                    "allied": unit_node.boolean("allied", default=False),
                    "artefact": unit_node.text(
                        "artefact", max_length=_max_length(Unit, "artefact"), default=""
                    ),
                    **destroyed,
                    "strength": strength,
                }
            )
        army_lists.append(
            {
                "kingdom": owner,
                "army": number,
                "race": node.text("race", max_length=_max_length(ArmyList, "race"), default=""),
                "points_limit": small(node, "points_limit", default=500),
                "allied": node.boolean("allied", default=False),
                "fixed_at": node.timestamp("fixed_at", null=True),
                "revealed_at_battle": ref(node, "revealed_at_battle", battle_keys, "battle"),
                **_clock_fields(node, "clock"),
                "units": units,
            }
        )

    # -- orders ----------------------------------------------------------------------------------
    orders: list[dict[str, Any]] = []
    seen = {}
    for node in root.nodes("orders", default=[]):
        year, month = big(node, "year"), small(node, "month")
        token = node.text("token", blank=False)
        _unique(seen, (year, month, token), node.at("token"),
                f"the order for {token} in year {year}, month {month}")
        orders.append(
            {
                "kingdom": kingdom(node, "kingdom"),
                "year": year,
                "month": month,
                "token": token,
                "token_path": node.at("token"),
                "army": ref(node, "army", army_refs, "army"),
                "ship": ref(node, "ship", ship_refs, "ship"),
                "kind": node.choice("kind", Order.Kind.values),
                "from_tile": tile(node, "from_tile", null=True),
                "target": tile(node, "target", null=True),
                "given_seq": big(node, "given_seq"),
                "resolved_seq": big(node, "resolved_seq", default=None, null=True),
                "outcome": node.obj("outcome", default={}),
            }
        )

    # -- winter tithes and purchases -------------------------------------------------------------
    tithes: list[dict[str, Any]] = []
    seen = {}
    for node in root.nodes("tithes", default=[]):
        year, giver, receiver = big(node, "year"), kingdom(node, "giver"), kingdom(node, "receiver")
        _unique(seen, (year, giver, receiver), node.path,
                f"the tithe of {giver} to {receiver} in year {year}")
        tithes.append(
            {
                "year": year,
                "giver": giver,
                "receiver": receiver,
                "gold": small(node, "gold", default=0),
                "food": small(node, "food", default=0),
                "event": event(node, "event"),
            }
        )
    purchases: list[dict[str, Any]] = []
    for node in root.nodes("purchases", default=[]):
        purchases.append(
            {
                "year": big(node, "year"),
                "kingdom": kingdom(node, "kingdom"),
                "kind": node.text("kind", max_length=_max_length(Purchase, "kind"), blank=False),
                "tile_label": node.text(
                    "tile_label", max_length=_max_length(Purchase, "tile_label"), default=""
                ),
                "from_state": node.text(
                    "from_state", max_length=_max_length(Purchase, "from_state"), default=""
                ),
                "to_state": node.text(
                    "to_state", max_length=_max_length(Purchase, "to_state"), default=""
                ),
                "gold": small(node, "gold", default=0),
                "food": small(node, "food", default=0),
                "seq": big(node, "seq"),
                "event": event(node, "event"),
            }
        )
    return {"battles": battles, "army_lists": army_lists, "orders": orders, "tithes": tithes,
            "purchases": purchases}


_ARTEFACT_RESULTS = (
    WizardQuest.Result.ARTEFACT,
    WizardQuest.Result.GREAT_ARTEFACT,
    WizardQuest.Result.RARE_ARTEFACT,
)


def _plan_advanced(
    root: _Node, forces: dict[str, Any], kingdom_names: set[str], labels: set[str],
    seqs: dict[Any, str],
) -> dict[str, Any]:
    """Check the artefacts and Wizard's quests of a document (the Mighty Kingdoms advanced
    modules); they name units and battles, so they come after the forces."""
    unit_owners = {u["key"]: a["kingdom"] for a in forces["army_lists"] for u in a["units"]}
    unit_keys = set(unit_owners)
    battle_keys = {b["key"] for b in forces["battles"]}

    def ref(node: _Node, key: str, known: set[str], what: str, *, null: bool) -> str | None:
        value = node.optional_text(key) if null else node.text(key)
        if value is not None and value not in known:
            raise ImportRefused(f"{node.at(key)}: no {what} {value!r} in this file.")
        return value

    def kingdom(node: _Node, key: str, *, null: bool) -> str | None:
        name = node.optional_text(key) if null else node.text(key)
        if name is not None and name not in kingdom_names:
            raise ImportRefused(f"{node.at(key)}: no kingdom named {name!r}.")
        return name

    def small(node: _Node, key: str, minimum: int = 0) -> int:
        value = node.integer(key, minimum=minimum, maximum=32767)
        assert value is not None
        return value

    # -- the pool of artefacts, and who holds each -----------------------------------------------
    artefacts: list[dict[str, Any]] = []
    seen: dict[Any, str] = {}
    for node in root.nodes("artefacts", default=[]):
        name = node.text("name", max_length=_max_length(Artefact, "name"), blank=False)
        # Names are unique ignoring case, as the database's index on lower(name) has them.
        _unique(seen, name.lower(), node.at("name"), f"artefact {name!r}")
        unit = ref(node, "holder_unit", unit_keys, "unit", null=True)
        capital = kingdom(node, "held_by_capital_of", null=True)
        in_pool = node.boolean("in_pool", default=unit is None and capital is None)
        if in_pool and (unit is not None or capital is not None):
            raise ImportRefused(
                f"{node.at('in_pool')}: an artefact in the pool is held by nobody "
                "(holder_unit and held_by_capital_of must be null)."
            )
        if not in_pool and (unit is None) == (capital is None):
            raise ImportRefused(
                f"{node.path}: an artefact out of the pool is held by exactly one unit "
                "(holder_unit) or one capital (held_by_capital_of)."
            )
        artefacts.append(
            {
                "name": name,
                "points": small(node, "points"),
                "in_pool": in_pool,
                "holder_unit": unit,
                "held_by_capital_of": capital,
                "captured_in": ref(node, "captured_in", battle_keys, "battle", null=True),
            }
        )
    names = {a["name"] for a in artefacts}

    # -- Wizard's quests -------------------------------------------------------------------------
    quests: list[dict[str, Any]] = []
    heroes: dict[Any, str] = {}
    towers: dict[Any, str] = {}
    for node in root.nodes("quests", default=[]):
        year = node.integer("year", minimum=0, maximum=2**31 - 1)
        owner = kingdom(node, "kingdom", null=False)
        hero = ref(node, "hero", unit_keys, "unit", null=False)
        assert hero is not None
        if unit_owners[hero] != owner:
            raise ImportRefused(f"{node.at('hero')}: {hero!r} is not a unit of {owner}.")
        _unique(heroes, (year, hero), node.at("hero"),
                f"the quest of unit {hero} in year {year}")
        tower = node.text("tower")
        if tower not in labels:
            raise ImportRefused(f"{node.at('tower')}: no tile labelled {tower!r} on the map.")
        _unique(towers, (year, owner, tower), node.at("tower"),
                f"the quest of {owner} to the tower at {tower} in year {year}")
        die = small(node, "die", minimum=1)
        if die > 6:
            raise ImportRefused(f"{node.at('die')}: a die shows 1 to 6, got {die}.")
        modifier, total = small(node, "modifier"), small(node, "total")
        if total != die + modifier:
            raise ImportRefused(
                f"{node.at('total')}: must be die + modifier ({die} + {modifier}), got {total}."
            )
        result = node.choice("result", WizardQuest.Result.values)
        artefact = ref(node, "artefact", names, "artefact", null=True)
        if artefact is not None and result not in _ARTEFACT_RESULTS:
            raise ImportRefused(
                f"{node.at('artefact')}: a quest with the result {result!r} brings back no "
                "artefact."
            )
        seq = node.integer("event", minimum=1, default=None, null=True)
        if seq is not None and seq not in seqs:
            raise ImportRefused(f"{node.at('event')}: there is no event #{seq}.")
        quests.append(
            {
                "year": year,
                "kingdom": owner,
                "hero": hero,
                "tower": tower,
                "die": die,
                "modifier": modifier,
                "total": total,
                "result": result,
                "artefact": artefact,
                "event": seq,
            }
        )
    return {"artefacts": artefacts, "quests": quests}


def _destroyed(node: _Node) -> dict[str, Any]:
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


def _plan_keys(kingdoms: Iterable[str], forces: dict[str, Any], armies: Iterable[str],
               ships: Iterable[str]) -> dict[str, set[str]]:
    """Every reference string a document defines, by kind."""
    return {
        "kingdom": set(kingdoms),
        "army": set(armies),
        "ship": set(ships),
        "unit": {u["key"] for a in forces["army_lists"] for u in a["units"]},
        "battle": {b["key"] for b in forces["battles"]},
    }


def _check_json_refs(rule_system: str, campaign: dict[str, Any], events: list[dict[str, Any]],
                     forces: dict[str, Any], keys: dict[str, set[str]]) -> None:
    """Refuse a document whose JSON fields name a kingdom, army, ship, unit or battle it lacks."""
    refs = _Refs("check", {kind: {k: k for k in found} for kind, found in keys.items()})
    refs.convert(campaign["state"], _ref_spec(rule_system, "campaign.state"), "campaign.state")
    for i, spec in enumerate(events):
        refs.convert(spec["data"], _ref_spec(rule_system, "event.data", spec["kind"]),
                     f"campaign.events[{i}].data")
    for i, spec in enumerate(forces["battles"]):
        refs.convert(spec["data"], _ref_spec(rule_system, "battle.data"),
                     f"campaign.battles[{i}].data")
    for i, spec in enumerate(forces["orders"]):
        if _TOKEN_REF_RE.match(spec["token"]) is None:
            raise ImportRefused(
                f"{spec['token_path']}: {spec['token']!r} is not a token such as "
                "'army:Red#1', 'ship:Red#1' or 'pair:Red#1'."
            )
        refs.token(spec["token"], spec["token_path"])
        refs.convert(spec["outcome"], _ref_spec(rule_system, "order.outcome"),
                     f"campaign.orders[{i}].outcome")


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


def _bulk_create(model: type[models.Model], objs: list[Any]) -> list[Any]:
    return model._default_manager.bulk_create(objs, batch_size=BATCH_SIZE)


def _insert_as_given(model: type[models.Model], objs: list[Any]) -> list[Any]:
    """Insert many rows keeping every value as set, ``created_at`` included.

    ``bulk_create`` would stamp each ``auto_now_add`` field with the current time; this is the
    same batched insert with the values taken as they are, as ``loaddata`` does for fixtures.
    """
    if not objs:
        return objs
    queryset = model._default_manager.all()
    connection = connections[queryset.db]
    if not connection.features.can_return_rows_from_bulk_insert:
        stamps = [obj.created_at for obj in objs]
        queryset.bulk_create(objs, batch_size=BATCH_SIZE)
        for obj, stamp in zip(objs, stamps):
            obj.created_at = stamp
        queryset.bulk_update(objs, ["created_at"], batch_size=BATCH_SIZE)
        return objs
    pk = model._meta.pk
    fields = [f for f in model._meta.concrete_fields if f is not pk]
    size = max(1, min(BATCH_SIZE, connection.ops.bulk_batch_size(fields, objs)))
    for start in range(0, len(objs), size):
        batch = objs[start:start + size]
        for obj in batch:
            obj._prepare_related_fields_for_save(operation_name="bulk_create")
        rows = queryset._insert(
            batch, fields=fields, returning_fields=[pk], raw=True, using=queryset.db
        )
        for obj, row in zip(batch, rows):
            setattr(obj, pk.attname, row[0])
            obj._state.adding = False
            obj._state.db = queryset.db
    return objs


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
    _bulk_create(Kingdom, list(kingdoms.values()))

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
        _bulk_create(Tile, list(tiles.values()))
    placed = []
    for spec in plan.kingdoms:
        if spec["start_tile"] or spec["capital_tile"]:
            kingdom = kingdoms[spec["name"]]
            kingdom.start_tile = tiles[spec["start_tile"]] if spec["start_tile"] else None
            kingdom.capital_tile = tiles[spec["capital_tile"]] if spec["capital_tile"] else None
            placed.append(kingdom)
    if placed:
        Kingdom.objects.bulk_update(placed, ["start_tile", "capital_tile"])

    # Armies and ships.
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
    _bulk_create(Army, list(armies.values()))
    ships = {
        (spec["kingdom"], spec["number"]): Ship(
            campaign=campaign,
            kingdom=kingdoms[spec["kingdom"]],
            number=spec["number"],
            tile=tiles[spec["tile"]] if spec["tile"] else None,
            on_side=spec["on_side"],
            paired_army=armies[spec["paired_army"]] if spec["paired_army"] else None,
            data=spec["data"],
        )
        for spec in plan.ships
    }
    _bulk_create(Ship, list(ships.values()))

    # Battles, then army lists and their units; battle data waits for the units it names.
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
    _insert_as_given(Battle, list(battles.values()))
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
    _bulk_create(ArmyList, army_lists)
    units: dict[str, Unit] = {}
    for army_list, spec in zip(army_lists, plan.army_lists):
        for unit in spec["units"]:
            units[unit["key"]] = Unit(
                army_list=army_list,
                **{k: v for k, v in unit.items() if k not in ("key", "strength")},
            )
    _bulk_create(Unit, list(units.values()))

    refs = _Refs("import", {
        "kingdom": {name: k.pk for name, k in kingdoms.items()},
        "army": {_army_ref(*key): a.pk for key, a in armies.items()},
        "ship": {_army_ref(*key): s.pk for key, s in ships.items()},
        "unit": {key: u.pk for key, u in units.items()},
        "battle": {key: b.pk for key, b in battles.items()},
    })
    system = plan.campaign["rule_system"]

    def json_refs(value: Any, name: str, kind: str = "") -> Any:
        if not plan.translate:
            return value
        return refs.convert(value, _ref_spec(system, name, kind), name)

    for spec in plan.battles:
        battles[spec["key"]].data = json_refs(spec["data"], "battle.data")
    if battles:
        Battle.objects.bulk_update(list(battles.values()), ["data"], batch_size=BATCH_SIZE)

    # The chronicle, exactly as it was, but read-only: its undo data stayed behind. What the
    # importing user did under their name stays theirs; other authors are left blank.
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
            data=json_refs(spec["data"], "event.data", spec["kind"]),
            changes=[],
            reversible=False,
            visibility=spec["visibility"],
            kingdom=kingdoms[spec["kingdom"]] if spec["kingdom"] else None,
            undone_at=spec["undone_at"],
            undone_by=who(spec["undone_by"]),
            created_at=spec["created_at"],
        )
    _insert_as_given(Event, list(events.values()))
    undos = []
    for spec in plan.events:
        if spec["undo_of"] is not None:
            events[spec["seq"]].undo_of = events[spec["undo_of"]]
            undos.append(events[spec["seq"]])
    if undos:
        Event.objects.bulk_update(undos, ["undo_of"], batch_size=BATCH_SIZE)

    # The ledger.
    _insert_as_given(
        LedgerEntry,
        [
            LedgerEntry(
                campaign=campaign,
                kingdom=kingdoms[spec["kingdom"]],
                resource=spec["resource"],
                amount=spec["amount"],
                rule_id=spec["rule_id"],
                source=spec["source"],
                event=events[spec["event"]] if spec["event"] is not None else None,
                year=spec["year"],
                season=spec["season"],
                month=spec["month"],
                phase=spec["phase"],
                created_at=spec["created_at"],
            )
            for spec in plan.entries
        ],
    )
    _bulk_create(
        Balance,
        [
            Balance(kingdom=kingdoms[spec["kingdom"]], resource=spec["resource"],
                    amount=spec["amount"])
            for spec in plan.balances
        ],
    )

    def seq(number: int | None) -> Event | None:
        return events[number] if number is not None else None

    # Winter tithes and purchases, Unit Strength marks and the orders of summer months.
    _bulk_create(Tithe, [
        Tithe(campaign=campaign, year=spec["year"], giver=kingdoms[spec["giver"]],
              receiver=kingdoms[spec["receiver"]], gold=spec["gold"], food=spec["food"],
              event=seq(spec["event"]))
        for spec in plan.tithes
    ])
    _bulk_create(Purchase, [
        Purchase(campaign=campaign, kingdom=kingdoms[spec["kingdom"]], event=seq(spec["event"]),
                 **{k: v for k, v in spec.items() if k not in ("kingdom", "event")})
        for spec in plan.purchases
    ])
    _bulk_create(UnitStrengthEvent, [
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
    _bulk_create(Order, [
        Order(
            campaign=campaign,
            kingdom=kingdoms[spec["kingdom"]],
            year=spec["year"],
            month=spec["month"],
            token=refs.token(spec["token"], spec["token_path"]) if plan.translate
            else spec["token"],
            army=armies[_split_ref(spec["army"])] if spec["army"] else None,
            ship=ships[_split_ref(spec["ship"])] if spec["ship"] else None,
            kind=spec["kind"],
            from_tile=tiles[spec["from_tile"]] if spec["from_tile"] else None,
            target=tiles[spec["target"]] if spec["target"] else None,
            given_seq=spec["given_seq"],
            resolved_seq=spec["resolved_seq"],
            outcome=json_refs(spec["outcome"], "order.outcome"),
        )
        for spec in plan.orders
    ])

    # The advanced modules: the pool of artefacts with their holders, and the Wizard's quests.
    artefacts = {
        spec["name"]: Artefact(
            campaign=campaign,
            name=spec["name"],
            points=spec["points"],
            in_pool=spec["in_pool"],
            holder_unit=units[spec["holder_unit"]] if spec["holder_unit"] else None,
            held_by_capital_of=(kingdoms[spec["held_by_capital_of"]]
                                if spec["held_by_capital_of"] else None),
            captured_in=battles[spec["captured_in"]] if spec["captured_in"] else None,
        )
        for spec in plan.artefacts
    }
    _bulk_create(Artefact, list(artefacts.values()))
    _bulk_create(WizardQuest, [
        WizardQuest(
            campaign=campaign,
            year=spec["year"],
            kingdom=kingdoms[spec["kingdom"]],
            hero=units[spec["hero"]],
            tower=tiles[spec["tower"]],
            die=spec["die"],
            modifier=spec["modifier"],
            total=spec["total"],
            result=spec["result"],
            artefact=artefacts[spec["artefact"]] if spec["artefact"] else None,
            event=seq(spec["event"]),
        )
        for spec in plan.quests
    ])

    # The campaign's running state, now that everything it may name exists.
    if plan.translate and campaign.state:
        campaign.state = json_refs(campaign.state, "campaign.state")
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
    _insert_as_given(Photo, photos)

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


def _split_ref(ref: str) -> tuple[str, int]:
    """An army or ship reference ("Blue Reach#2") as (kingdom name, number)."""
    kingdom, _, number = ref.rpartition("#")
    return kingdom, int(number)


def import_notes(campaign: Campaign) -> list[str]:
    """Notes about the import that created ``campaign`` (empty for any other campaign)."""
    report: ImportReport | None = getattr(campaign, "import_report", None)
    return report.notes if report is not None else []

