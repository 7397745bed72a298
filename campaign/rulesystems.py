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

# Symbols the map draws for settlements (campaign/mapsvg.py); a kingdom's capital shows the star.
SETTLEMENT_SHAPES = ("circle", "square", "triangle", "diamond", "star", "marker")
# What a system's settlement kinds show when it gives them no shape, in the order it lists them.
GENERIC_SHAPES = ("circle", "square", "triangle", "diamond")


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
    - ``settlements``: settlement kinds a tile can hold (the empty string means none), and
      ``settlement_shapes``: the map symbol of each (see ``settlement_shape``); the map's legend
      lists the system's terrains, settlements and edge features, never names of its own.
    - ``resources``: the ledger's resources, e.g. gold and food.
    - ``map_style``: how new maps are laid out and generated.
    - ``options``: house-rule options with defaults (see campaign.rules.options).
    - ``rules_modules``: dotted paths of the system's pure rules modules, by area.
    - ``templates``: template names for system-specific parts of pages, by slot; every slot in
      ``TEMPLATE_SLOTS`` must be present so pages never need to branch on the system.
    - ``shell``: dotted path of the system's imperative shell, a module that may define
      ``initial_clock_fields()`` (the clock of a new campaign), ``clock_label(campaign)``,
      optionally ``event_clock_label(year, season, month, phase)`` (an event's clock, short,
      in the chronicle; without it "Y2 Winter M3 buy"),
      ``kingdom_context(access, kingdom)`` and ``play_context(access)`` (extra template context
      for the slots), ``overview_context(access)`` (for the campaign page's "overview" slot,
      e.g. standings), ``advance(campaign, user, inputs)`` (the GM closes the current phase;
      ``inputs`` is the posted form, e.g. dice typed in for the phase change), and
      ``urlpatterns`` (the system's own pages, mounted under ``/c/<slug>/<url_prefix>/`` in the
      ``<url_prefix>`` namespace), ``map_markers(campaign, kingdoms)`` (counters the map draws
      beside the shared army counters, as ``(tile id, mapsvg.Marker)`` pairs) and
      ``tile_tokens(tile)`` (lines for a tile panel's "Here now", as dicts of ``colour`` and
      ``text``), ``tile_actions(access, tile)`` (what this viewer may do on a tile now, for
      the map's tile panel: a list of ``campaign.tile_actions.TileAction``, each naming the
      system's own POST endpoint and its fields, and whether it is legal now with the reason
      if not; the panel posts through that same endpoint, so the rules and refusals stay the
      system's), and ``initial_tiles(game_map, seed)`` (the unsaved tiles of a new campaign's
      map, for a system whose maps are data rather than generated, e.g. a preset territory
      board; without it the map is generated in ``map_style``).
    - ``tabs``: the system's own pages among the campaign's tabs, as (tab name, URL name taking
      the campaign's slug, label): listed first among the later tabs (under "More" on a phone).
      A system without pages of its own for every campaign has none.
    - ``demo``: dotted path of the system's demo module (empty: the system has no demo), which
      defines ``CAMPAIGNS``, a tuple of ``campaign.demo.DemoCampaign`` (a campaign slug and
      ``build(users)``, which creates that campaign from the demo users); ``manage.py
      load_demo`` builds each whose slug is still free.
    - ``transfer``: dotted path of the system's campaign-file section module (empty: the system
      keeps nothing of its own in a campaign file). Its section is written under
      ``campaign.systems.<slug>`` with its own ``version``. The module defines
      ``SECTION_VERSION: int`` (the version it writes; it reads 1 up to it);
      ``export_section(campaign, refs) -> dict`` (its rows as JSON-ready lists, by natural keys;
      ``refs`` a ``campaign.transfer.base.Refs`` turning ids into reference strings);
      ``plan_section(node, context) -> plan`` (checks the section, a
      ``campaign.transfer.base.Node``, against the file's core and the system's own rules before
      anything is written, raising ``ImportRefused`` with a path-qualified message; ``context``
      is a ``campaign.transfer.sections.PlanContext``) and ``write_section(plan, context)``
      (writes the rows in the import's transaction; ``context`` a ``WriteContext`` holding the
      core's new rows by natural key). Optionally ``JSON_REFS`` (where its JSON values hold
      database ids) and ``export_refs(campaign)`` (the kinds of reference its rows define, such
      as ships). ``campaign/transfer/sections.py`` has the details.
    - Notifications (``campaign.notifications``) ask the shell's optional ``whose_turn(campaign)``
      hook for the ids of the kingdoms expected to act now, to tell a player by e-mail and the
      campaign's webhook when it becomes their turn (empty when nobody in particular is; a
      system without turns leaves the hook out). Battles chosen and phases closed are read
      from the chronicle and the clock, so they need no hook. The home page flags "Your turn"
      from the same hook, as the notifications last recorded it (``notifications.turn_now``),
      so the hook may take a few queries: it is not asked once per campaign listed.
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
    tabs: tuple[tuple[str, str, str], ...] = ()
    demo: str = ""
    transfer: str = ""
    read_only: bool = False
    # Whether the system's own pages need the campaign to have a map (of ``map_style.kind``):
    # an imported file without one, or with another kind of map, is refused.
    map_required: bool = True
    # The map symbol of each settlement kind, by slug: one of SETTLEMENT_SHAPES. Kinds left out
    # take the generic shapes in the order ``settlements`` lists them (see settlement_shape).
    settlement_shapes: Mapping[str, str] = field(default_factory=dict)

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

    def settlement_shape(self, slug: str) -> str:
        """The map symbol of settlement kind ``slug``, one of ``SETTLEMENT_SHAPES``: the one the
        system gives it, else the n-th of ``GENERIC_SHAPES`` for its n-th settlement kind, else
        (a kind the system does not list) the generic marker."""
        if slug in self.settlement_shapes:
            return self.settlement_shapes[slug]
        kinds = [c.slug for c in self.settlements]
        if slug in kinds and kinds.index(slug) < len(GENERIC_SHAPES):
            return GENERIC_SHAPES[kinds.index(slug)]
        return "marker"

    def clock_problem(self, clock: Mapping[str, Any]) -> str | None:
        """Why a campaign of this system cannot be at ``clock`` (its ``year``, ``season``,
        ``month``, ``phase`` and ``sub_phase``), or None when it can.

        The system says, through a ``validate_clock(year, season, month, phase, sub_phase)``
        function that raises ``ValueError`` with the reason: in its shell if there is one there,
        else in its "campaign" rules module. A system with neither accepts any clock.
        """
        check = self.hook("validate_clock")
        if check is None and "campaign" in self.rules_modules:
            check = getattr(self.rules("campaign"), "validate_clock", None)
        if check is None:
            return None
        try:
            check(year=clock.get("year"), season=clock.get("season") or "",
                  month=clock.get("month"), phase=clock.get("phase") or "",
                  sub_phase=clock.get("sub_phase") or "")
        except (TypeError, ValueError) as exc:
            return str(exc)
        return None


# Slots every system fills; the test over the registry checks each one resolves to a template.
TEMPLATE_SLOTS = ("tile_panel_extra", "kingdom_summary", "play", "overview")

REGISTRY: dict[str, str] = {
    "mighty-kingdoms": "campaign.systems.mighty_kingdoms:SYSTEM",
    "middle-sea": "campaign.systems.middle_sea:SYSTEM",
    "war-of-kings": "campaign.systems.war_of_kings:SYSTEM",
    "swords-and-stones": "campaign.systems.swords_and_stones:SYSTEM",
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
