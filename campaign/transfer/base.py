"""What every part of a campaign file shares: the error, reading JSON, typed getters that refuse
with a path, reference strings and the rewriting of ids inside JSON values, and batched inserts.

The core (``campaign.transfer.exporting`` and ``campaign.transfer.importing``) and each rule
system's section module (see ``campaign.transfer.sections``) build on these.
"""

from __future__ import annotations

import base64
import binascii
import datetime as dt
import io
import json
import math
import re
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from django.db import connections, models
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from PIL import Image

from campaign.images import ImageRejected, process_crest, process_photo

FORMAT = "hexkeep-campaign"
VERSION = 4
# Every version this site can read; sections a version lacks are read as empty.
READS = (1, 2, 3, 4)

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


def check_values(data: Any) -> None:
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
class RefRule:
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
class RefSpec:
    """The references in one JSON field: the rules, and whether token strings may appear."""

    rules: tuple[RefRule, ...] = ()
    tokens: bool = False


NO_REFS = RefSpec()

# Where a rule system's JSON values hold references: field name -> RefSpec, or for event data
# (keyed by event kind) a mapping of kind -> RefSpec, where a kind ending in "." covers every kind
# that starts with it. The field names are "campaign.state", "battle.data" and "event.data" for
# the core's JSON fields, and whatever names a section gives its own.
JsonRefs = Mapping[str, "RefSpec | Mapping[str, RefSpec]"]

REF_NOUNS = {"kingdom": "kingdom named", "army": "army", "ship": "ship", "unit": "unit",
             "battle": "battle"}
TOKEN_KINDS = {"army": "army", "ship": "ship", "pair": "ship"}
TOKEN_ID_RE = re.compile(r"(army|ship|pair):(\d+)\Z")
TOKEN_REF_RE = re.compile(r"(army|ship|pair):(.+#\d+)\Z", re.DOTALL)


def ref_spec(json_refs: JsonRefs, name: str, kind: str = "") -> RefSpec:
    """The references of one JSON field (``kind``: the event kind, for event data)."""
    spec = json_refs.get(name, NO_REFS)
    if isinstance(spec, RefSpec):
        return spec
    found = spec.get(kind)
    if found is None:
        found = next((s for k, s in spec.items() if k.endswith(".") and kind.startswith(k)),
                     NO_REFS)
    return found


class Refs:
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

    def define(self, kind: str, table: Mapping[Any, Any]) -> None:
        """Add references of ``kind`` (a section defines its own, e.g. ships)."""
        self.table.setdefault(kind, {}).update(table)

    def convert(self, value: Any, spec: RefSpec, path: str) -> Any:
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
            return self.table.get(kind, {}).get(value)
        if not isinstance(value, str):
            raise ImportRefused(
                f"{path}: expected a {kind} reference or null, got {kind_of(value)}."
            )
        return self._lookup(value, kind, path)

    def _key(self, key: str, kind: str, path: str) -> str | None:
        """The key rewritten, or None when the entry is to be left out (``path`` ends with the
        whole key)."""
        if self.mode == "export":
            if not key.isdigit():
                return key
            found = self.table.get(kind, {}).get(int(key))
            return None if found is None else str(found)
        return str(self._lookup(key, kind, path))

    def _lookup(self, key: str, kind: str, path: str) -> Any:
        found = self.table.get(kind, {}).get(key)
        if found is None:
            raise ImportRefused(
                f"{path}: no {REF_NOUNS.get(kind, kind)} {key!r} in this file."
            )
        return found

    def token(self, value: str, path: str) -> str | None:
        """A token string rewritten (None for an export of a token naming nothing)."""
        pattern = TOKEN_ID_RE if self.mode == "export" else TOKEN_REF_RE
        match = pattern.match(value)
        if match is None:
            return value
        prefix, ref = match.groups()
        if self.mode == "export":
            found = self.table.get(TOKEN_KINDS[prefix], {}).get(int(ref))
            return None if found is None else f"{prefix}:{found}"
        return f"{prefix}:{self._lookup(ref, TOKEN_KINDS[prefix], path)}"

    # -- walking --------------------------------------------------------------------------------
    def _follow(self, node: Any, rule: RefRule, steps: tuple[str | int, ...], path: str) -> Any:
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


def army_ref(kingdom: str, number: int) -> str:
    return f"{kingdom}#{number}"


def unit_ref(kingdom: str, army: int, position: int) -> str:
    return f"{kingdom}#{army}/{position}"


def battle_ref(year: int, month: int, seq: int) -> str:
    return f"{year}/{month}/{seq}"



def dumps(data: dict[str, Any]) -> str:
    """The text of a campaign file: stable key order, indented, UTF-8 friendly."""
    return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def iso(value: dt.datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def row_clock(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "year": row["year"],
        "season": row["season"],
        "month": row["month"],
        "phase": row["phase"],
    }



def battle_key(row: dict[str, Any], prefix: str) -> str | None:
    if row[f"{prefix}__seq"] is None:
        return None
    return battle_ref(row[f"{prefix}__year"], row[f"{prefix}__month"], row[f"{prefix}__seq"])



def row_unit_ref(row: dict[str, Any], prefix: str) -> str | None:
    """The reference of the unit a ``values()`` row reaches through ``prefix``, or None."""
    if row[f"{prefix}__position"] is None:
        return None
    return unit_ref(row[f"{prefix}__army_list__army__kingdom__name"],
                     row[f"{prefix}__army_list__army__number"], row[f"{prefix}__position"])


UNIT_PATH = ("army_list__army__kingdom__name", "army_list__army__number", "position")


# == checking a document ==========================================================================

MISSING = object()
SLUG_RE = re.compile(r"^[-a-zA-Z0-9_]+\Z")


def max_length(model: type[models.Model], name: str) -> int | None:
    return model._meta.get_field(name).max_length


class Node:
    """A JSON object at a known path, with typed getters that refuse with that path."""

    def __init__(self, value: Any, path: str) -> None:
        if not isinstance(value, dict):
            raise ImportRefused(f"{path}: expected an object, got {kind_of(value)}.")
        self.value = value
        self.path = path

    def at(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else key

    def raw(self, key: str, default: Any = MISSING) -> Any:
        if key in self.value:
            return self.value[key]
        if default is MISSING:
            raise ImportRefused(f"{self.path or 'The file'}: the field '{key}' is missing.")
        return default

    def text(
        self, key: str, *, max_length: int | None = None, default: Any = MISSING,
        blank: bool = True,
    ) -> str:
        value = self.raw(key, default)
        if not isinstance(value, str):
            raise ImportRefused(f"{self.at(key)}: expected a string, got {kind_of(value)}.")
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
        default: Any = MISSING, null: bool = False,
    ) -> int | None:
        value = self.raw(key, default)
        if value is None and null:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            expected = "a whole number or null" if null else "a whole number"
            raise ImportRefused(f"{self.at(key)}: expected {expected}, got {kind_of(value)}.")
        if minimum is not None and value < minimum:
            raise ImportRefused(f"{self.at(key)}: must be at least {minimum}, got {value}.")
        if maximum is not None and value > maximum:
            raise ImportRefused(f"{self.at(key)}: must be at most {maximum}, got {value}.")
        return value

    def boolean(self, key: str, *, default: Any = MISSING) -> bool:
        value = self.raw(key, default)
        if not isinstance(value, bool):
            raise ImportRefused(f"{self.at(key)}: expected true or false, got {kind_of(value)}.")
        return value

    def obj(self, key: str, *, default: Any = MISSING) -> dict[str, Any]:
        value = self.raw(key, default)
        if not isinstance(value, dict):
            raise ImportRefused(f"{self.at(key)}: expected an object, got {kind_of(value)}.")
        return value

    def array(self, key: str, *, default: Any = MISSING) -> list[Any]:
        value = self.raw(key, default)
        if not isinstance(value, list):
            raise ImportRefused(f"{self.at(key)}: expected a list, got {kind_of(value)}.")
        return value

    def nodes(self, key: str, *, default: Any = MISSING) -> list["Node"]:
        return [
            Node(item, f"{self.at(key)}[{i}]")
            for i, item in enumerate(self.array(key, default=default))
        ]

    def node(self, key: str) -> "Node":
        return Node(self.raw(key), self.at(key))

    def choice(self, key: str, allowed: Iterable[str], *, default: Any = MISSING) -> str:
        value = self.text(key, default=default)
        allowed = list(allowed)
        if value not in allowed:
            raise ImportRefused(
                f"{self.at(key)}: {value!r} is not one of {', '.join(map(repr, allowed))}."
            )
        return value

    def timestamp(self, key: str, *, null: bool = False) -> dt.datetime | None:
        value = self.raw(key, None if null else MISSING)
        if value is None and null:
            return None
        if not isinstance(value, str):
            raise ImportRefused(
                f"{self.at(key)}: expected an ISO 8601 timestamp, got {kind_of(value)}."
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

    def image(self, key: str, *, kind: str) -> "DecodedImage | None":
        value = self.raw(key, None)
        if value is None:
            return None
        return decode_image(value, self.at(key), kind)


def kind_of(value: Any) -> str:
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
class DecodedImage:
    """A checked image: the bytes to store, plus a thumbnail for photos."""

    content: bytes
    thumbnail: bytes | None = None


def decode_image(value: Any, path: str, kind: str) -> DecodedImage:
    """Decode a base64 image and check it with campaign.images (the upload checks).

    Crests are kept as PNG and photos as JPEG: an image in another accepted format is re-encoded.
    """
    if not isinstance(value, str):
        raise ImportRefused(f"{path}: expected a base64 image or null, got {kind_of(value)}.")
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
    return DecodedImage(content=content, thumbnail=thumb.read() if kind == "photo" else None)


def clock_fields(node: Node, key: str, *, sub_phase: bool = False) -> dict[str, Any]:
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


def unique(seen: dict[Any, str], key: Any, path: str, what: str) -> None:
    if key in seen:
        raise ImportRefused(f"{path}: {what} is listed twice (also at {seen[key]}).")
    seen[key] = path



def bulk_create(model: type[models.Model], objs: list[Any]) -> list[Any]:
    return model._default_manager.bulk_create(objs, batch_size=BATCH_SIZE)


def insert_as_given(model: type[models.Model], objs: list[Any]) -> list[Any]:
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



def split_ref(ref: str) -> tuple[str, int]:
    """An army or ship reference ("Blue Reach#2") as (kingdom name, number)."""
    kingdom, _, number = ref.rpartition("#")
    return kingdom, int(number)
