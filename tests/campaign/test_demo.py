"""manage.py load_demo: a fresh install gets a campaign in its second year, winter in progress."""

from __future__ import annotations

import dataclasses
import sys
import types
from collections import Counter
from collections.abc import Callable, Iterator
from io import StringIO
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command

from battles.models import Army
from campaign import services
from campaign.models import Campaign, Event, Kingdom, Membership
from campaign.systems.mighty_kingdoms.models import Ship
from ledger.models import LedgerEntry

pytestmark = pytest.mark.django_db

# The Ember Marches' battles waiting in C) Battle: one of each type (MK-BTYPE-1).
EMBER_BATTLE_KINDS = ["land", "land_water", "naval"]


def test_load_demo_twice_gives_one_demo_and_prints_the_logins(settings: Any) -> None:
    settings.DEBUG = True  # as `make run` serves it
    out = StringIO()
    call_command("load_demo", stdout=out)
    assert "Demo campaigns created: shattered-coast" in out.getvalue()
    assert "alice    password hexkeep-demo" in out.getvalue()
    counts = (User.objects.count(), Campaign.objects.count(), Event.objects.count(),
              LedgerEntry.objects.count(), Army.objects.count())
    again = StringIO()
    call_command("load_demo", stdout=again)
    assert "nothing changed" in again.getvalue()
    assert (User.objects.count(), Campaign.objects.count(), Event.objects.count(),
            LedgerEntry.objects.count(), Army.objects.count()) == counts

    campaign = Campaign.objects.get(slug="shattered-coast")
    assert (campaign.year, campaign.season, campaign.phase, campaign.sub_phase) == (
        2, "winter", "C", "buy")
    assert campaign.kingdoms.count() == 4
    tiles = list(campaign.map.tiles.all())
    assert len(tiles) == 60
    assert {t.terrain for t in tiles} == {t.slug for t in campaign.system.terrains}
    features = Counter(f for t in tiles for side in t.edges.values() for f in side)
    assert set(features) == {c.slug for c in campaign.system.edge_features}
    assert Ship.objects.filter(campaign=campaign, tile__isnull=False).count() >= 1
    assert LedgerEntry.objects.filter(campaign=campaign, year=2).exists()


def test_load_demo_refuses_a_site_with_debug_off_unless_told() -> None:
    """The demo logins share a published password and one is a site administrator: a live
    site (DEBUG off) gets them only when the command is told so, and otherwise nothing."""
    with pytest.raises(CommandError, match="published password 'hexkeep-demo'.*--on-a-live-site"):
        call_command("load_demo", stdout=StringIO())
    assert not User.objects.exists() and not Campaign.objects.exists()
    call_command("load_demo", "--on-a-live-site", stdout=StringIO())
    assert User.objects.filter(username="gm", is_superuser=True).exists()


def test_an_interrupted_demo_leaves_no_half_built_campaign(monkeypatch: Any) -> None:
    """Each demo campaign is built in one transaction: a failure part-way leaves nothing of
    it, and the next run builds it whole."""
    from campaign import demo
    from campaign.systems.mighty_kingdoms import demo as mk_demo

    def broken(users: Any) -> None:
        demo.found_kingdoms(Campaign.objects.create(name="Half", slug="shattered-coast",
                                                    rule_system="mighty-kingdoms"),
                            users, mk_demo.MK_KINGDOMS)
        raise RuntimeError("power cut")

    monkeypatch.setattr(mk_demo, "CAMPAIGNS", (demo.DemoCampaign("shattered-coast", broken),))
    with pytest.raises(RuntimeError):
        demo.load_demo()
    assert not Campaign.objects.filter(slug="shattered-coast").exists()
    assert not Membership.objects.exists()


# -- demos by rule system --------------------------------------------------------------------

# A second rule system for the tests below: Mighty Kingdoms under another slug, with a demo of
# its own (registered by the ``two_systems`` fixture).
CHECK = "demo-check"


def _small_campaign(slug: str, system: str) -> Callable[[dict[str, User]], Campaign]:
    """A demo builder that makes a 3x3 campaign of ``system`` where alice founds a kingdom."""

    def build(users: dict[str, User]) -> Campaign:
        from campaign.demo import found_kingdoms

        campaign = services.create_campaign(users["gm"], name=slug.title(), slug=slug,
                                            rule_system=system, width=3, height=3, seed=1)
        found_kingdoms(campaign, users, (("alice", "Small", "#123456"),))
        return campaign

    return build


@pytest.fixture
def two_systems(monkeypatch: Any) -> Iterator[None]:
    """Mighty Kingdoms with one small demo campaign in place of its two (they take seconds to
    play), and a second system registered as ``CHECK`` whose demo has two small campaigns; no
    other system is registered meanwhile."""
    from campaign import rulesystems
    from campaign.demo import DemoCampaign
    from campaign.systems.mighty_kingdoms import demo as mk_demo

    monkeypatch.setattr(mk_demo, "CAMPAIGNS", (
        DemoCampaign("mk-small", _small_campaign("mk-small", "mighty-kingdoms")),))
    module = types.ModuleType("hexkeep_demo_check")
    module.SYSTEM = dataclasses.replace(  # type: ignore[attr-defined]
        rulesystems.get_system("mighty-kingdoms"), slug=CHECK, label="Demo check",
        demo="hexkeep_demo_check")
    module.CAMPAIGNS = (  # type: ignore[attr-defined]
        DemoCampaign("check-one", _small_campaign("check-one", CHECK)),
        DemoCampaign("check-two", _small_campaign("check-two", CHECK)),
    )
    monkeypatch.setitem(sys.modules, "hexkeep_demo_check", module)
    # Only these two systems, whatever else is registered: the dict is shared, so it is
    # changed in place, and put back as it was, in its order, after the test.
    saved = dict(rulesystems.REGISTRY)
    rulesystems.REGISTRY.clear()
    rulesystems.REGISTRY.update({"mighty-kingdoms": saved["mighty-kingdoms"],
                                 CHECK: "hexkeep_demo_check:SYSTEM"})
    rulesystems.get_system.cache_clear()
    try:
        yield
    finally:
        rulesystems.REGISTRY.clear()
        rulesystems.REGISTRY.update(saved)
        rulesystems.get_system.cache_clear()


def _load(*args: str) -> str:
    out = StringIO()
    call_command("load_demo", *args, stdout=out)
    return out.getvalue()


def _state() -> tuple[list[tuple[str, str]], int, int, int, int]:
    """The demo's campaigns (slug, system) and how many users, memberships, kingdoms and events
    there are."""
    return (list(Campaign.objects.order_by("slug").values_list("slug", "rule_system")),
            User.objects.count(), Membership.objects.count(), Kingdom.objects.count(),
            Event.objects.count())


def test_load_demo_system_loads_that_systems_demo_alone_once(two_systems: None,
                                                             settings: Any) -> None:
    """``--system SLUG`` builds the demo campaigns of that system only, prints the logins, and
    run again changes nothing; the other system's demo is still built when asked for."""
    settings.DEBUG = True
    out = _load("--system", CHECK)
    assert "Demo campaigns created: check-one, check-two\n" in out
    assert "alice    password hexkeep-demo" in out
    assert _state()[0] == [("check-one", CHECK), ("check-two", CHECK)]
    # Six users; each campaign: the GM and five by invitation, one kingdom, and 12 events
    # (created, five invitations made and accepted, the kingdom founded).
    assert _state()[1:] == (6, 12, 2, 24)
    before = _state()
    again = _load("--system", CHECK)
    assert "Demo campaigns already present; nothing changed." in again
    assert "alice    password hexkeep-demo" in again
    assert _state() == before
    assert "Demo campaigns created: mk-small\n" in _load("--system", "mighty-kingdoms")
    assert "nothing changed" in _load()
    assert _state()[0] == [("check-one", CHECK), ("check-two", CHECK),
                           ("mk-small", "mighty-kingdoms")]


def test_load_demo_loads_every_systems_demo_and_only_what_is_missing(two_systems: None,
                                                                     settings: Any) -> None:
    """Without ``--system`` every registered system's demo loads, in registry order; a demo
    campaign that is gone is built again, alone."""
    settings.DEBUG = True
    assert "Demo campaigns created: mk-small, check-one, check-two\n" in _load()
    before = _state()
    assert "nothing changed" in _load()
    assert _state() == before
    Campaign.objects.get(slug="check-two").delete()
    assert "Demo campaigns created: check-two\n" in _load()
    assert _state()[0] == before[0]


def test_load_demo_of_an_unknown_system_is_refused_with_the_known_ones(two_systems: None,
                                                                      settings: Any) -> None:
    settings.DEBUG = True
    with pytest.raises(CommandError) as refused:
        _load("--system", "no-such-system")
    assert str(refused.value) == ("Unknown rule system 'no-such-system': the known ones are "
                                  "demo-check, mighty-kingdoms.")
    assert not User.objects.exists() and not Campaign.objects.exists()


def test_load_demo_names_every_registered_system_when_refusing(settings: Any) -> None:
    """The list of known systems is the registry's, whatever it holds."""
    from campaign.rulesystems import REGISTRY

    settings.DEBUG = True
    with pytest.raises(CommandError) as refused:
        _load("--system", "mk")
    assert str(refused.value) == (f"Unknown rule system 'mk': the known ones are "
                                  f"{', '.join(sorted(REGISTRY))}.")


def test_demo_has_kings_of_war_lists_and_a_simple_campaign_with_pending_battles(
        login: Any) -> None:
    """Issue scope for army lists and battles: Aldmark keeps Kings of War lists (fixed, secret to
    other players until a battle reveals them); the Ember Marches plays Simple battles and waits
    in C) Battle."""
    from django.urls import reverse

    from battles.models import ArmyList, Battle

    call_command("load_demo", "--on-a-live-site", stdout=StringIO())
    coast = Campaign.objects.get(slug="shattered-coast")
    lists = ArmyList.objects.filter(army__campaign=coast).select_related("army__kingdom")
    points = {(a.army.kingdom.name, a.army.number): sum(u.points for u in a.units.all())
              for a in lists}
    # MK-SETUP-6: Greenhold's starting army has the list its battle with Aldmark needed.
    assert points == {("Kingdom of Aldmark", 1): 500, ("Kingdom of Aldmark", 2): 445,
                      ("Kingdom of Aldmark", 3): 465, ("Greenhold", 1): 500}
    assert all(a.fixed_at is not None for a in lists)
    aldmark = {a.number: a for a in Army.objects.filter(campaign=coast,
                                                        kingdom__name="Kingdom of Aldmark")}
    alice, bob = (login(User.objects.get(username=n)) for n in ("alice", "bob"))
    # Army #2 fought, so every player reads its list (MK-SETUP-7); army #3 has not.
    for number, bob_sees in ((2, 200), (3, 403)):
        url = reverse("mk:armies:army", args=[coast.slug, aldmark[number].pk])
        page = alice.get(url)
        assert page.status_code == 200
        assert ("High Paladin" if number == 2 else "Ur-Elohi") in page.content.decode()
        assert bob.get(url).status_code == bob_sees

    marches = Campaign.objects.get(slug="ember-marches")
    assert marches.options["battle_mode"] == "simple"
    assert (marches.year, marches.season, marches.month, marches.phase) == (2, "summer", 5, "C")
    assert marches.kingdoms.count() == 3
    battles = list(Battle.objects.filter(campaign=marches, year=2, month=5))
    assert all(b.mode == "simple" and b.status == "pending" and not b.result_chooser
               for b in battles)
    assert sorted(b.kind for b in battles) == EMBER_BATTLE_KINDS
    # Three ships: two meet at sea, the third lands among an enemy's armies.
    assert Ship.objects.filter(campaign=marches, tile__isnull=False).count() == 3
    # Earlier months' battles were fought out on the battle page's services, dice recorded.
    fought = Battle.objects.filter(campaign=marches, status="resolved")
    assert fought.exists() and all(b.result_chooser for b in fought)
    play = login(User.objects.get(username="gm")).get(
        reverse("mk:battle_play", args=[marches.slug, battles[0].pk]))
    assert play.status_code == 200


def test_demo_kings_of_war_battle_leaves_unit_strength_history() -> None:
    """Year 2's summer: Greenhold's army #1 attacks Aldmark's armies #1 and #2 holding 0703 and
    loses a Kings of War land battle (MK-LAND-2, MK-RESULT-1); the GM entered each unit's rout
    events, so those units carry their +1 and -1 (MK-US-1/2) and the chronicle tells them."""
    from battles.models import Battle, UnitStrengthEvent
    from campaign.systems.mighty_kingdoms.forces import army_units

    call_command("load_demo", "--on-a-live-site", stdout=StringIO())
    coast = Campaign.objects.get(slug="shattered-coast")
    battle = Battle.objects.get(campaign=coast)
    assert (battle.year, battle.month, battle.tile.label, battle.kind, battle.mode) == (
        2, 5, "0703", "land", "kow")
    assert (battle.chooser.name, battle.result_chooser, battle.opponent.name,
            battle.result_opponent, battle.status) == (
        "Greenhold", "loss", "Kingdom of Aldmark", "win", "resolved")
    # MK-BOARD-1 for one army against two; MK-DEF-2: Aldmark defended a tile without a
    # settlement; MK-RESULT-1: the loser lies on its side next door.
    assert battle.data["board"] == "4'x4'"
    assert (battle.data["defended"]["kingdom"], battle.data["defended"]["row"]) == (
        battle.opponent_id, "none")
    assert battle.data["retreated"] == [["Greenhold's army #1", "0704"]]
    changes = sorted(
        (e.unit.army_list.army.kingdom.name, e.unit.army_list.army.number, e.unit.name, e.delta)
        for e in UnitStrengthEvent.objects.filter(battle=battle).select_related(
            "unit__army_list__army__kingdom"))
    assert changes == [
        ("Greenhold", 1, "Berserker Lord", -1), ("Greenhold", 1, "Ironguard", 1),
        ("Greenhold", 1, "Ironwatch Crossbows", -1), ("Greenhold", 1, "Shieldbreakers", -1),
        ("Greenhold", 1, "Shieldbreakers", 1),
        ("Kingdom of Aldmark", 1, "Crossbowmen", -1), ("Kingdom of Aldmark", 1, "Men-at-Arms", 1),
        ("Kingdom of Aldmark", 1, "Paladin Knights", 1),
        ("Kingdom of Aldmark", 2, "Sea Guard", 1), ("Kingdom of Aldmark", 2, "Spearmen", -1),
    ]
    assert UnitStrengthEvent.objects.filter(unit__army_list__army__campaign=coast).count() == 10
    # What the printed rosters show: base, total now, the value it fights at (MK-US-6), and
    # each total since (MK-US-4).
    totals = {
        (name, number): [(u["name"], u["base_us"], u["unit_strength"], u["in_battle"],
                          u["us_history"])
                         for u in army_units(Army.objects.get(campaign=coast, number=number,
                                                              kingdom__name=name))]
        for name, number in (("Kingdom of Aldmark", 1), ("Kingdom of Aldmark", 2),
                             ("Kingdom of Aldmark", 3), ("Greenhold", 1))}
    assert totals == {
        ("Kingdom of Aldmark", 1): [
            ("Order of the Abbey", 2, 2, 2, []), ("Men-at-Arms", 3, 4, 3, [4]),
            ("Crossbowmen", 2, 1, 1, [1]), ("Paladin Knights", 2, 3, 3, [3])],
        ("Kingdom of Aldmark", 2): [
            ("Sea Guard", 3, 4, 3, [4]), ("Spearmen", 2, 1, 1, [1]), ("Ballista", 0, 0, 0, []),
            ("High Paladin", 0, 0, 0, [])],
        ("Kingdom of Aldmark", 3): [
            ("Gur Panthers", 1, 1, 1, []), ("Heavy Crossbows", 2, 2, 2, []),
            ("Militia Mob", 3, 3, 3, []), ("Ur-Elohi", 1, 1, 1, [])],
        ("Greenhold", 1): [
            ("Ironguard", 2, 3, 3, [3]), ("Shieldbreakers", 2, 2, 2, [3, 2]),
            ("Ironwatch Crossbows", 2, 1, 1, [1]), ("Berserker Lord", 0, -1, 0, [-1])],
    }
    story = Event.objects.get(campaign=coast, kind="summer.battle_result").summary
    assert story.startswith(
        "Battle at 0703: Greenhold loses against Kingdom of Aldmark. Unit Strength after the "
        "battle at 0703 (MK-US-1/2): Greenhold's Ironguard +1 (now 3); Greenhold's "
        "Shieldbreakers +1 and -1 (now 2); ")
    assert "Kingdom of Aldmark's Sea Guard +1 (now 4)" in story
    assert "Greenhold's army #1 retreats to 0704, and lies on its side" in story
    chosen = Event.objects.get(campaign=coast, kind="summer.battle").summary
    assert chosen.startswith("Greenhold chooses to fight Kingdom of Aldmark at 0703: a land "
                             "battle (Kings of War)")
