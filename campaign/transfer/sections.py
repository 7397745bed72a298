"""Rule-system sections of a campaign file: the hook a system provides, and what it is given.

A system whose campaigns keep rows of their own (tables of the system's app) names a *section
module* in ``RuleSystem.transfer``. Its section sits in the file under
``campaign.systems.<system slug>``, with the section's own ``version``::

    "systems": {"mighty-kingdoms": {"version": 1, "ships": [...], "orders": [...]}}

The module provides:

- ``SECTION_VERSION: int``: the version it writes; it reads every version from 1 to this one.
- ``JSON_REFS`` (optional, a ``base.JsonRefs``): where the system's JSON values hold database ids,
  both in the core's fields (``"campaign.state"``, ``"battle.data"``, ``"event.data"`` by event
  kind) and in its own. The core rewrites its fields with it; the section uses it for its own.
- ``export_refs(campaign) -> {kind: {id: reference string}}`` (optional): the kinds of reference
  the section's rows define (e.g. ``"ship"``), so that the core's JSON values may name them.
- ``export_section(campaign, refs) -> dict``: the section as JSON-ready data, without
  ``version`` (the core adds it). ``refs`` is a ``base.Refs`` in export mode knowing every kind.
- ``plan_section(node, context) -> plan``: checks the section completely against the system's
  own rules, before anything is written, raising ``ImportRefused`` with path-qualified messages
  (``node.at(key)``). ``node`` is a ``base.Node`` of the section; ``context`` a ``PlanContext``.
  It calls ``context.define(kind, keys)`` for each kind of reference it defines, and
  ``context.check_refs`` for the references in its own JSON values. The plan it returns is
  opaque to the core and handed back to ``write_section``.
- ``write_section(plan, context) -> None``: writes the section's rows inside the import's
  transaction; ``context`` is a ``WriteContext`` holding every core row by its natural key. It
  calls ``context.define(kind, {reference: id})`` for the kinds it defines before the core
  rewrites the references in its own JSON values.

Files written before version 3 kept Mighty Kingdoms' lists at the top level of ``campaign``: for
them the core hands the ``campaign`` node itself to ``plan_section``, as section version 1.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import import_module
from types import ModuleType
from typing import Any, Collection, Iterable, Mapping

from campaign.rulesystems import RuleSystem
from campaign.transfer.base import (
    TOKEN_REF_RE,
    ImportRefused,
    JsonRefs,
    Node,
    Refs,
    army_ref,
    ref_spec,
)


def section_module(system: RuleSystem) -> ModuleType | None:
    """The system's section module (see this module's docstring), or None when it has none."""
    return import_module(system.transfer) if system.transfer else None


def json_refs(module: ModuleType | None) -> JsonRefs:
    return getattr(module, "JSON_REFS", {}) if module is not None else {}


@dataclass
class PlanContext:
    """The core of the file, already checked, for a section to check its references against.

    Kingdoms are named by name, tiles by label, events by ``seq``, armies as (kingdom, number),
    battles and units by their reference strings (``units`` maps each to its army's kingdom).
    ``version`` is the section's version in the file; ``translate`` says whether the file's JSON
    values carry reference strings (file version 2 on) or the exporting site's ids (version 1,
    taken as they are).
    """

    system: RuleSystem
    version: int
    translate: bool
    options: Mapping[str, Any]
    kingdoms: set[str]
    tiles: set[str]
    events: set[int]
    armies: set[tuple[str, int]]
    battles: set[str]
    units: Mapping[str, str]
    json_refs: JsonRefs = field(default_factory=dict)
    defined: dict[str, set[str]] = field(default_factory=dict)
    _checker_cache: Refs | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        self._army_refs = {army_ref(k, n) for k, n in self.armies}

    def define(self, kind: str, keys: Iterable[str]) -> None:
        """Reference strings of ``kind`` that the section's rows define (e.g. ship references),
        which the core's JSON values may then name."""
        self.defined.setdefault(kind, set()).update(keys)
        self._checker_cache = None

    def known(self, kind: str) -> Collection[str]:
        """Every reference string of ``kind`` the file defines."""
        core: dict[str, Collection[str]] = {
            "kingdom": self.kingdoms, "army": self._army_refs, "unit": self.units.keys(),
            "battle": self.battles,
        }
        if kind in core:
            return core[kind]
        return self.defined.get(kind, set())

    def keys(self) -> dict[str, Collection[str]]:
        """Every reference string the file defines, by kind."""
        return {kind: self.known(kind) for kind in ("kingdom", "army", "unit", "battle",
                                                     *self.defined)}

    def check_refs(self, value: Any, name: str, path: str, kind: str = "") -> None:
        """Refuse ``value`` (JSON field ``name`` of ``JSON_REFS``) if it names anything the file
        lacks; does nothing for a version 1 file, whose ids are taken as they are."""
        if self.translate:
            self._checker().convert(value, ref_spec(self.json_refs, name, kind), path)

    def check_token(self, value: str, path: str) -> None:
        """Refuse a token ("army:Red#1", "ship:Red#1", "pair:Red#1") naming nothing in the
        file (version 2 on)."""
        if not self.translate:
            return
        if TOKEN_REF_RE.match(value) is None:
            raise ImportRefused(
                f"{path}: {value!r} is not a token such as 'army:Red#1', 'ship:Red#1' or "
                "'pair:Red#1'."
            )
        self._checker().token(value, path)

    def _checker(self) -> Refs:
        if self._checker_cache is None:
            self._checker_cache = Refs(
                "check", {kind: {k: k for k in found} for kind, found in self.keys().items()}
            )
        return self._checker_cache

    # -- references to the core, refused with their path when they name nothing ----------------
    def kingdom(self, node: Node, key: str, *, null: bool = False) -> str | None:
        name = node.optional_text(key) if null else node.text(key)
        if name is not None and name not in self.kingdoms:
            raise ImportRefused(f"{node.at(key)}: no kingdom named {name!r}.")
        return name

    def tile(self, node: Node, key: str, *, null: bool = False) -> str | None:
        label = node.optional_text(key) if null else node.text(key)
        if label is not None and label not in self.tiles:
            raise ImportRefused(f"{node.at(key)}: no tile labelled {label!r} on the map.")
        return label

    def event(self, node: Node, key: str) -> int | None:
        """An event ``seq`` or null (left out: null)."""
        seq = node.integer(key, minimum=1, default=None, null=True)
        if seq is not None and seq not in self.events:
            raise ImportRefused(f"{node.at(key)}: there is no event #{seq}.")
        return seq

    def ref(self, node: Node, key: str, kind: str, *, null: bool = True) -> str | None:
        """A reference string of ``kind`` ("army", "unit", "battle", or one the section
        defined)."""
        value = node.optional_text(key) if null else node.text(key)
        if value is not None and value not in self.known(kind):
            noun = "kingdom named" if kind == "kingdom" else kind
            raise ImportRefused(f"{node.at(key)}: no {noun} {value!r} in this file.")
        return value


@dataclass
class WriteContext:
    """The rows the core has written, by natural key, for a section to point its rows at.

    ``kingdoms`` by name, ``tiles`` by label, ``armies`` by (kingdom, number), ``battles`` and
    ``units`` by reference string, ``events`` by ``seq``. ``refs`` turns reference strings into
    the new ids; ``json`` and ``token`` use it, and do nothing for a version 1 file.
    """

    campaign: Any
    user: Any
    kingdoms: dict[str, Any]
    tiles: dict[str, Any]
    armies: dict[tuple[str, int], Any]
    battles: dict[str, Any]
    units: dict[str, Any]
    events: dict[int, Any]
    refs: Refs
    translate: bool
    json_refs: JsonRefs = field(default_factory=dict)

    def define(self, kind: str, table: Mapping[str, int]) -> None:
        """New ids of the references of ``kind`` the section defines: {reference: id}."""
        self.refs.define(kind, table)

    def json(self, value: Any, name: str, kind: str = "") -> Any:
        """A JSON value of field ``name`` with its reference strings turned into new ids."""
        if not self.translate:
            return value
        return self.refs.convert(value, ref_spec(self.json_refs, name, kind), name)

    def token(self, value: str, path: str = "token") -> str:
        """A token with its reference turned into the new id."""
        if not self.translate:
            return value
        return self.refs.token(value, path) or value

    def event(self, seq: int | None) -> Any:
        return self.events[seq] if seq is not None else None

