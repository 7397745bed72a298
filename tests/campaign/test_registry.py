"""Every registered rule system loads, meets the interface, and its campaigns work."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.template.loader import get_template
from django.test import Client
from django.urls import reverse

from campaign import services
from campaign.models import Campaign, Kingdom, Tile
from campaign.rulesystems import (
    REGISTRY,
    RETIRED_SYSTEM,
    TEMPLATE_SLOTS,
    RuleSystem,
    choices,
    get_system,
)
from tests.conftest import make_campaign_of

ROOT = Path(__file__).resolve().parents[2]
SLUGS = sorted(REGISTRY)


def test_registry_is_not_empty() -> None:
    assert SLUGS
    assert choices() == [(slug, get_system(slug).label) for slug in REGISTRY]


@pytest.mark.parametrize("slug", SLUGS)
def test_system_loads_and_is_registered_under_its_slug(slug: str) -> None:
    system = get_system(slug)
    assert isinstance(system, RuleSystem)
    assert system.slug == slug
    assert system.read_only is False
    assert system.label and system.summary
    assert get_system(slug) is system  # loaded once


@pytest.mark.parametrize("slug", SLUGS)
def test_options_have_working_defaults(slug: str) -> None:
    system = get_system(slug)
    names = [spec.name for spec in system.options]
    assert len(names) == len(set(names))
    assert system.parse_options({}) == {spec.name: spec.default for spec in system.options}
    assert system.parse_options(None) == system.parse_options({})
    for spec in system.options:
        assert spec.kind in ("bool", "int", "choice"), spec.name
        assert spec.parse(spec.default) == spec.default, spec.name
        if spec.kind == "choice":
            assert spec.default in [key for key, _ in spec.choices]


@pytest.mark.parametrize("slug", SLUGS)
def test_options_refuse_unknown_keys_and_bad_values(slug: str) -> None:
    from campaign.rules.options import OptionError

    system = get_system(slug)
    with pytest.raises(OptionError, match="Unknown option"):
        system.parse_options({"no_such_option": 1})
    for spec in system.options:
        bad: Any = "not-a-valid-value" if spec.kind != "choice" else 12345
        with pytest.raises(OptionError):
            spec.parse(bad)


@pytest.mark.parametrize("slug", SLUGS)
@pytest.mark.parametrize("slot", TEMPLATE_SLOTS)
def test_every_template_slot_exists(slug: str, slot: str) -> None:
    name = get_system(slug).template(slot)
    assert get_template(name).template.name == name


@pytest.mark.parametrize("slug", SLUGS)
def test_system_has_terrains_and_resources(slug: str) -> None:
    system = get_system(slug)
    assert system.terrains and system.resources
    slugs = [t.slug for t in system.terrains]
    assert len(slugs) == len(set(slugs))
    for terrain in system.terrains:
        assert system.terrain(terrain.slug) is terrain
        assert terrain.colour.startswith("#") and len(terrain.colour) in (4, 7)
    assert system.palette() == {t.slug: t.colour for t in system.terrains}
    style = system.map_style
    assert style.kind in ("hex", "square", "territory")
    for name in ("water_terrain", "mountain_terrain", "forest_terrain"):
        value = getattr(style, name)
        assert value is None or value in slugs
    for terrain_slug, weight in style.generator_terrains:
        assert terrain_slug in slugs and weight > 0


@pytest.mark.parametrize("slug", SLUGS)
def test_rules_modules_import(slug: str) -> None:
    system = get_system(slug)
    assert system.rules_modules
    for area, module_name in system.rules_modules.items():
        assert system.rules(area) is importlib.import_module(module_name)


# The shell's hooks (see RuleSystem): each one a system defines must be a function.
SHELL_HOOKS = ("initial_clock_fields", "clock_label", "kingdom_context", "play_context",
               "overview_context", "advance", "validate_clock", "map_markers", "tile_tokens")


@pytest.mark.parametrize("slug", SLUGS)
def test_shell_imports_and_its_hooks_are_functions(slug: str) -> None:
    system = get_system(slug)
    assert system.shell
    shell = system.shell_module()
    assert shell is importlib.import_module(system.shell)
    for name in SHELL_HOOKS:
        hook = getattr(shell, name, None)
        assert hook is None or callable(hook), name
        assert system.hook(name) is hook, name


@pytest.mark.parametrize("slug", SLUGS)
def test_url_namespace_resolves_to_the_systems_pages(slug: str) -> None:
    """The shell's ``urlpatterns`` are mounted under /c/<slug>/<url_prefix>/ in the
    ``url_prefix`` namespace: each page that needs only the campaign's slug reverses there and
    resolves back to its name."""
    from django.urls import URLPattern, resolve

    system = get_system(slug)
    patterns = getattr(system.shell_module(), "urlpatterns", None) or []
    if not patterns:
        assert not system.url_prefix
        return
    assert system.url_prefix
    reversed_ = []
    for pattern in patterns:
        if not isinstance(pattern, URLPattern) or not pattern.name:
            continue
        if set(pattern.pattern.converters) - {"slug"}:
            continue
        url = reverse(f"{system.url_prefix}:{pattern.name}", kwargs={"slug": "some-campaign"})
        assert url.startswith(f"/c/some-campaign/{system.url_prefix}/"), url
        match = resolve(url)
        assert (match.namespace, match.url_name) == (system.url_prefix, pattern.name)
        reversed_.append(pattern.name)
    assert reversed_


def test_url_prefixes_are_unique() -> None:
    prefixes = [get_system(slug).url_prefix for slug in SLUGS if get_system(slug).url_prefix]
    assert len(prefixes) == len(set(prefixes))
    assert "campaign" not in prefixes


@pytest.mark.parametrize("slug", SLUGS)
def test_demo_hook_loads(slug: str) -> None:
    """Every system names a demo module whose ``CAMPAIGNS`` are ``DemoCampaign`` rows with a
    builder (building them is tests/campaign/test_demo.py's part)."""
    from campaign.demo import DemoCampaign, demo_campaigns

    system = get_system(slug)
    assert system.demo
    campaigns = demo_campaigns(system)
    assert campaigns == tuple(importlib.import_module(system.demo).CAMPAIGNS)
    assert campaigns
    for demo in campaigns:
        assert isinstance(demo, DemoCampaign)
        assert demo.slug and callable(demo.build)


def test_demo_campaign_slugs_are_unique_across_systems() -> None:
    """A demo campaign counts as loaded when its slug exists: two systems sharing one would
    leave one of them out."""
    from campaign.demo import demo_campaigns

    slugs = [demo.slug for slug in SLUGS for demo in demo_campaigns(get_system(slug))]
    assert len(slugs) == len(set(slugs))


def _modules() -> list[tuple[str, str]]:
    return [(slug, name) for slug in SLUGS for name in get_system(slug).rules_modules.values()]


@pytest.mark.parametrize(("slug", "module_name"), _modules())
def test_rules_modules_are_pure(slug: str, module_name: str) -> None:
    """A rules module imports no Django, directly or through anything it imports."""
    code = (
        f"import {module_name}, sys; "
        "print(sorted(m for m in sys.modules if m == 'django' or m.startswith('django.')))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"
    source = Path(importlib.import_module(module_name).__file__).read_text()
    assert "import django" not in source and "from django" not in source


@pytest.mark.parametrize("slug", SLUGS)
def test_campaign_of_each_system_works(slug: str, gm: Any) -> None:
    campaign = services.create_campaign(gm, name="Registry check", slug="registry-check",
                                        rule_system=slug, width=6, height=5, seed=3)
    system = campaign.system
    assert campaign.options == system.parse_options({})
    tiles = Tile.objects.filter(map__campaign=campaign)
    # A system that lays its maps out as data (``initial_tiles``) decides how many tiles.
    preset = system.hook("initial_tiles")
    assert tiles.count() == (len(preset(campaign.map, 3)) if preset else 30)
    assert set(tiles.values_list("terrain", flat=True)) <= {t.slug for t in system.terrains}
    kingdom = Kingdom.objects.create(campaign=campaign, name="Test", colour="#123456")
    client = Client()
    client.force_login(gm)
    label = tiles.order_by("label").first().label
    for name, args in [
        ("detail", []), ("map", []), ("map_svg", []), ("map_edit", []), ("tile", [label]),
        ("chronicle", []), ("members", []), ("settings", []), ("photos", []),
        ("kingdom", [kingdom.pk]), ("kingdom_edit", [kingdom.pk]), ("kingdom_create", []),
        ("play", []),
    ]:
        response = client.get(reverse(f"campaign:{name}", args=[campaign.slug, *args]))
        assert response.status_code == 200, name
    htmx = client.get(reverse("campaign:tile", args=[campaign.slug, label]),
                      headers={"HX-Request": "true"})
    assert htmx.status_code == 200
    # The settings form offers one field per option.
    body = client.get(reverse("campaign:settings", args=[campaign.slug])).content.decode()
    for spec in system.options:
        assert f'name="opt_{spec.name}"' in body


def test_unknown_slug_gives_the_retired_stand_in() -> None:
    system = get_system("no-such-system")
    assert system is RETIRED_SYSTEM
    assert system.read_only is True
    assert system.parse_options({}) == {}
    for slot in TEMPLATE_SLOTS:
        assert get_template(system.template(slot)).template.name == "campaign/systems/retired.html"


def test_new_campaign_of_an_unknown_system_is_refused(gm: Any) -> None:
    with pytest.raises(services.ServiceError, match="Unknown rule system 'no-such-system'."):
        services.create_campaign(gm, name="X", slug="x", rule_system="no-such-system")
    assert not Campaign.objects.filter(slug="x").exists()


def test_campaign_of_a_retired_system_stays_readable(gm: Any, system: str) -> None:
    campaign = make_campaign_of(system, gm, slug="old-one")
    kingdom = Kingdom.objects.create(campaign=campaign, name="Old", colour="#123456")
    Campaign.objects.filter(pk=campaign.pk).update(rule_system="long-gone")
    client = Client()
    client.force_login(gm)
    # The first tile: "0101" on a grid, a territory's name on a map laid out as data.
    label = Tile.objects.filter(map__campaign=campaign).order_by("label").first().label
    for name, args in [("detail", []), ("map", []), ("map_svg", []), ("tile", [label]),
                       ("chronicle", []), ("members", []), ("photos", []),
                       ("kingdom", [kingdom.pk])]:
        response = client.get(reverse(f"campaign:{name}", args=["old-one", *args]))
        assert response.status_code == 200, name
    body = client.get(reverse("campaign:tile", args=["old-one", label])).content.decode()
    assert "rule system is no longer available" in body


# -- the clock a system can be at -------------------------------------------------------------


@pytest.mark.parametrize("slug", SLUGS)
def test_a_new_campaigns_clock_is_one_its_system_accepts(slug: str) -> None:
    system = get_system(slug)
    assert system.clock_problem(services.initial_clock(system)) is None


@pytest.mark.parametrize(("clock", "problem"), [
    ({"year": 1, "season": "setup", "month": None, "phase": "race"}, None),
    ({"year": 1, "season": "setup", "month": None, "phase": "army"}, None),
    ({"year": 2, "season": "summer", "month": 6, "phase": "D"}, None),
    ({"year": 2, "season": "winter", "month": None, "phase": "C", "sub_phase": "buy"}, None),
    ({"year": 1}, "Phase '' does not exist: phases are A to D (MK-YEAR-2)."),
    ({"year": 2, "season": "setup", "phase": "race"},
     "Setup happens in year 1, without months (MK-SETUP)."),
    ({"year": 1, "season": "setup", "phase": "B"},
     "Setup step 'B' does not exist: the steps are race, order, capital, settle, army "
     "(MK-SETUP-1..5)."),
    ({"year": 2, "season": "autumn", "phase": "A"},
     "Season 'autumn' does not exist: summer or winter (MK-YEAR-1)."),
    ({"year": 2, "season": "winter", "phase": "C"},
     "Only winter C) Spend resources has the sub-phases tithe, buy and feed (MK-WINTER-1)."),
    ({"year": 2, "season": "summer", "month": None, "phase": "A"},
     "A summer has months 1 to 6 (MK-YEAR-1)."),
])
def test_mighty_kingdoms_says_which_clocks_it_can_be_at(clock: dict[str, Any],
                                                         problem: str | None) -> None:
    assert get_system("mighty-kingdoms").clock_problem(clock) == problem


def test_every_clock_the_phases_reach_is_accepted() -> None:
    """Every phase with a handler, setup steps included, is a clock the rules accept."""
    from campaign.systems.mighty_kingdoms import phases
    from campaign.systems.mighty_kingdoms.rules import campaign as mk

    system = get_system("mighty-kingdoms")
    for season, phase, sub_phase in phases.handlers():
        month = 1 if season == mk.SUMMER else None
        clock = {"year": 1, "season": season, "month": month, "phase": phase,
                 "sub_phase": sub_phase}
        assert system.clock_problem(clock) is None, clock


def test_a_shell_hook_says_first_and_a_system_without_one_accepts_any_clock() -> None:
    import types

    from campaign.rulesystems import MapStyle

    bare = RuleSystem(slug="bare", label="Bare", summary="", rule_ids_prefix="", terrains=(),
                      edge_features=(), settlements=(), resources=(), map_style=MapStyle())
    assert bare.clock_problem({"year": 1, "season": "anything"}) is None

    shell = types.ModuleType("hexkeep_test_shell")

    def validate_clock(year: int, season: str, month: int | None, phase: str,
                       sub_phase: str) -> None:
        if season != "spring":
            raise ValueError(f"Only spring, not {season or 'no season'}.")

    shell.validate_clock = validate_clock  # type: ignore[attr-defined]
    sys.modules["hexkeep_test_shell"] = shell
    try:
        strict = RuleSystem(slug="strict", label="Strict", summary="", rule_ids_prefix="",
                            terrains=(), edge_features=(), settlements=(), resources=(),
                            map_style=MapStyle(), shell="hexkeep_test_shell")
        assert strict.clock_problem({"year": 1, "season": "spring"}) is None
        assert strict.clock_problem({"year": 1}) == "Only spring, not no season."
    finally:
        del sys.modules["hexkeep_test_shell"]


@pytest.mark.parametrize("slug", SLUGS)
def test_settlement_shapes_are_ones_the_map_draws(slug: str) -> None:
    from campaign.mapsvg import SHAPE_IDS
    from campaign.rulesystems import SETTLEMENT_SHAPES

    system = get_system(slug)
    assert set(system.settlement_shapes) <= {c.slug for c in system.settlements}
    for kind in system.settlements:
        assert system.settlement_shape(kind.slug) in SETTLEMENT_SHAPES
    assert set(SETTLEMENT_SHAPES) == set(SHAPE_IDS)


@pytest.mark.parametrize("slug", SLUGS)
def test_system_package_is_an_installed_app_with_its_own_label(slug: str) -> None:
    """A system owns its tables: its package is a Django app of its own."""
    from django.apps import apps

    package = REGISTRY[slug].partition(":")[0]
    config = next((c for c in apps.get_app_configs() if c.name == package), None)
    assert config is not None, f"{package} is not in INSTALLED_APPS"
    assert config.label not in ("campaign", "ledger", "battles")


@pytest.mark.parametrize("slug", SLUGS)
def test_system_tables_are_watched_for_writes_outside_events_and_undo(slug: str) -> None:
    """The write and undo watches of tests/ cover every system's tables, without a list by hand."""
    from django.apps import apps

    from tests import undo_watch, write_watch

    package = REGISTRY[slug].partition(":")[0]
    label = next(c.label for c in apps.get_app_configs() if c.name == package)
    assert label in write_watch.CAMPAIGN_APPS
    assert label in undo_watch.CAMPAIGN_APPS


@pytest.mark.parametrize("slug", SLUGS)
def test_transfer_section_has_its_four_parts(slug: str) -> None:
    system = get_system(slug)
    assert system.transfer
    section = importlib.import_module(system.transfer)
    assert isinstance(section.SECTION_VERSION, int) and section.SECTION_VERSION >= 1
    for name in ("export_section", "plan_section", "write_section"):
        assert callable(getattr(section, name, None)), name


@pytest.mark.parametrize("slug", SLUGS)
def test_system_prints_sheets(slug: str) -> None:
    assert get_system(slug).hook("SHEETS")


@pytest.mark.parametrize("slug", SLUGS)
def test_every_rule_id_of_the_systems_digest_is_cited_by_a_test(slug: str) -> None:
    """Each system's digest names its rules by ID; a test must cite every one."""
    from tests.rule_ids import DIGESTS, TESTS, uncited

    assert slug in DIGESTS, f"tests/rule_ids.py has no digest for {slug}"
    assert uncited(DIGESTS[slug], get_system(slug).rule_ids_prefix, [TESTS]) == []
