"""The one registry of rule systems.

``REGISTRY`` maps a slug (stored on every campaign and never renamed) to the dotted path of a
``RuleSystem`` object. Systems are imported on first use, so a slow or broken system cannot slow
down or break pages of campaigns that use another one.

Views and templates never compare slugs: they ask the campaign's ``RuleSystem`` for what differs
(terrain palette, settlement kinds, resources, options, templates). A system is registered only
when it works; a campaign whose slug is no longer registered opens read-only with
``RETIRED_SYSTEM`` so its history stays readable.

The interface a system provides is the ``RuleSystem`` dataclass below; every field is documented.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from importlib import import_module
from typing import Any, Mapping

from campaign.rules.options import OptionSpec, parse_options


@dataclass(frozen=True)
class Terrain:
    """A kind of tile. ``passable`` is informational; movement rules live in the system's rules."""

    slug: str
    label: str
    colour: str
    water: bool = False


@dataclass(frozen=True)
class Choice:
    slug: str
    label: str


@dataclass(frozen=True)
class MapStyle:
    """What a new map of this system looks like.

    ``kind`` is "hex", "square" or "territory"; ``start_tiles`` says the system marks starting
    tiles (white circles) on its maps; ``generator_terrains`` weights land terrains for the
    random map generator.
    """

    kind: str = "hex"
    orientation: str = "flat"
    width: int = 12
    height: int = 10
    start_tiles: bool = False
    generator_terrains: tuple[tuple[str, int], ...] = ()
    water_terrain: str | None = None
    mountain_terrain: str | None = None
    forest_terrain: str | None = None


@dataclass(frozen=True)
class RuleSystem:
    """Everything the site needs to know about one rule system.

    - ``slug``/``label``/``summary``: identity and a one-line description for the create form.
    - ``rule_ids_prefix``: the prefix of the system's rule IDs (e.g. "MK"), shown in citations.
    - ``terrains``: tile kinds, with the colours the map uses.
    - ``edge_features``: what a tile edge can show (river, mountain, ...).
    - ``settlements``: settlement kinds a tile can hold (the empty string means none).
    - ``resources``: the ledger's resources, e.g. gold and food.
    - ``map_style``: how new maps are laid out and generated.
    - ``options``: house-rule options with defaults (see campaign.rules.options).
    - ``rules_modules``: dotted paths of the system's pure rules modules, by area.
    - ``templates``: template names for system-specific parts of pages, by slot; every slot in
      ``TEMPLATE_SLOTS`` must be present so pages never need to branch on the system.
    - ``shell``: dotted path of the system's imperative shell, a module that may define
      ``initial_clock_fields()`` (the clock of a new campaign), ``clock_label(campaign)``,
      ``kingdom_context(access, kingdom)`` and ``play_context(access)`` (extra template context
      for the slots), and ``urlpatterns`` (the system's own pages, mounted under
      ``/c/<slug>/<url_prefix>/`` in the ``<url_prefix>`` namespace).
    """

    slug: str
    label: str
    summary: str
    rule_ids_prefix: str
    terrains: tuple[Terrain, ...]
    edge_features: tuple[Choice, ...]
    settlements: tuple[Choice, ...]
    resources: tuple[Choice, ...]
    map_style: MapStyle
    options: tuple[OptionSpec, ...] = ()
    rules_modules: Mapping[str, str] = field(default_factory=dict)
    templates: Mapping[str, str] = field(default_factory=dict)
    shell: str = ""
    url_prefix: str = ""
    read_only: bool = False

    def parse_options(self, data: Mapping[str, Any] | None) -> dict[str, Any]:
        return parse_options(self.options, data)

    def terrain(self, slug: str) -> Terrain | None:
        return next((t for t in self.terrains if t.slug == slug), None)

    def palette(self) -> dict[str, str]:
        return {t.slug: t.colour for t in self.terrains}

    def rules(self, area: str) -> Any:
        """The pure rules module for an area (e.g. "campaign", "ledger", "battles")."""
        return import_module(self.rules_modules[area])

    def template(self, slot: str) -> str:
        return self.templates[slot]

    def shell_module(self) -> Any:
        """The system's imperative shell (see the class docstring), or None."""
        return import_module(self.shell) if self.shell else None

    def hook(self, name: str, default: Any = None) -> Any:
        module = self.shell_module()
        return getattr(module, name, default) if module is not None else default


# Slots every system fills; the test over the registry checks each one resolves to a template.
TEMPLATE_SLOTS = ("tile_panel_extra", "kingdom_summary", "play")

REGISTRY: dict[str, str] = {
    "mighty-kingdoms": "campaign.systems.mighty_kingdoms:SYSTEM",
}

RETIRED_SYSTEM = RuleSystem(
    slug="retired",
    label="Retired rule system",
    summary="This campaign's rule system is no longer available; its history stays readable.",
    rule_ids_prefix="",
    terrains=(),
    edge_features=(),
    settlements=(),
    resources=(),
    map_style=MapStyle(),
    templates={slot: "campaign/systems/retired.html" for slot in TEMPLATE_SLOTS},
    read_only=True,
)


@cache
def get_system(slug: str) -> RuleSystem:
    """The system registered under ``slug``, or the read-only stand-in for a retired one."""
    target = REGISTRY.get(slug)
    if target is None:
        return RETIRED_SYSTEM
    module_name, _, attribute = target.partition(":")
    system = getattr(import_module(module_name), attribute)
    if not isinstance(system, RuleSystem) or system.slug != slug:
        raise TypeError(f"{target} is not the RuleSystem registered as {slug!r}.")
    return system


def choices() -> list[tuple[str, str]]:
    """(slug, label) pairs for forms and the Campaign model field."""
    return [(slug, get_system(slug).label) for slug in REGISTRY]
